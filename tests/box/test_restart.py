"""A box killed mid-round (SIGKILL, as a power cut) resumes the round when restarted;
the vocabulary modules' examples hold; the store is as durable as it says."""

from __future__ import annotations

import doctest
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import device.base.tunes
import device.screens.views
import device.store.codec
import device.store.events
from device.base.clock import FakeClock
from device.box.assemble import assemble
from device.config import settings as config
from device.referee.flow import State
from device.store.store import Store
from engine.faces import Face

from .conftest import ListReader, tray_reading
from .test_round import box_settings, build

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import sys
sys.path.insert(0, sys.argv[3])
from box.conftest import ListReader, tray_reading
from box.test_round import box_settings, settings_of
from pathlib import Path
from device.box.assemble import assemble
from device.base.clock import FakeClock
chosen = box_settings(Path(sys.argv[1]), Path(sys.argv[2]))
chosen["button"]["backend"] = "keys"
chosen["buzzer"]["type"] = "silent"
clock = FakeClock(wall_start=1_800_000_000.0)
made = assemble(settings_of(chosen), clock, reader=ListReader([tray_reading(doubtful=(3,))]))
made.box.events.put("tap")
made.box.step()
made.box.touch(made.box.screen.layout.cells[3].center)
print(made.referee.state, flush=True)
sys.stdin.read()
"""


def test_a_box_killed_mid_round_resumes_it(tmp_path, photos):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path), str(photos), str(ROOT / "tests")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "timing"
    child.send_signal(signal.SIGKILL)
    child.wait()
    clock = FakeClock(wall_start=1_800_000_000.0 + 50)  # the box is back 50 s later
    made, _, _ = build(tmp_path, photos, clock=clock)
    assert made.referee.state is State.TIMING
    assert made.referee.seconds_left == pytest.approx(130, abs=0.5)
    assert made.referee.round.reading.board[0, 3] != Face("B")  # the correction survived too
    made.close()


def test_a_box_back_after_the_round_would_have_ended_sounds_time_up(tmp_path, photos):
    made, clock, _ = build(tmp_path, photos)
    made.box.events.put("tap")
    made.box.step()
    made.close()
    clock.advance(600)
    again, _, beeps = build(tmp_path, photos, clock=clock)
    assert again.referee.state is State.TIME_UP
    assert "alarm" in beeps[-1]
    assert again.store.events(1)[-1].kind == "round-ended"
    again.close()


def test_the_store_is_in_wal_mode_with_full_sync(tmp_path):
    store = Store(tmp_path)
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_simulate_builds_keys_bell_and_an_announced_screen(tmp_path, photos, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    # A screen opened earlier in this process leaves SDL told "dummy", which is asked-for.
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    chosen = config.overlay(
        config.defaults(),
        {"store": {"folder": str(tmp_path / "store")}, "camera": {"folder": str(photos)}},
    )
    made = assemble(
        chosen,
        FakeClock(),
        simulate=True,
        reader=ListReader([tray_reading()]),
    )
    assert type(made.button).__name__ == "KeyButton"
    assert type(made.referee.parts.buzzer.sound).__name__ == "BellSound"
    assert made.box.screen.backend == "dummy" and "dummy" in made.referee.notice
    made.close()


@pytest.mark.parametrize(
    "module", [device.base.tunes, device.screens.views, device.store.codec, device.store.events]
)
def test_the_examples_in_the_docstrings_hold(module):
    result = doctest.testmod(module)
    assert result.attempted and not result.failed


def test_a_box_restarted_for_another_game_begins_afresh(tmp_path, photos):
    made, clock, _ = build(tmp_path, photos)  # a Boggle round under way
    made.box.events.put("tap")
    made.box.step()
    assert made.referee.state is State.TIMING
    made.close()
    chosen = box_settings(tmp_path, photos, "adlib")
    chosen["players"] = ["Ann", "Ben"]
    again, _, _ = build(tmp_path, photos, clock=clock, settings=chosen)
    assert again.referee.state is State.IDLE and again.referee.match is None
    assert again.referee.message == "Who starts: Ann, roll one cube and press."
    again.close()
