"""The box as a service: SIGTERM mid-beep leaves the buzzer pin low, every part closed
and the store whole; a machine without GPIO pins, or a tune the buzzer cannot play,
is a sentence and never a traceback."""

from __future__ import annotations

import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from device.base.clock import FakeClock
from device.base.tunes import PASSIVE_RANGE, Note, Tune
from device.box.assemble import assemble
from device.commands.run import serve
from device.parts.buzzer import Buzzer, PassiveSound
from device.referee.flow import State

from .conftest import ListReader, tray_reading
from .test_round import box_settings, settings_of

ROOT = Path(__file__).resolve().parents[2]


def active_box(tmp_path, photos, factory):
    chosen = box_settings(tmp_path, photos)
    chosen["buzzer"]["type"] = "active"
    clock = FakeClock()
    made = assemble(
        settings_of(chosen),
        clock,
        reader=ListReader([tray_reading()]),
        pin_factory=factory,
    )
    return made, clock, chosen


@pytest.fixture
def plain_pins():
    """Mock pins without PWM, as an active buzzer has: closing one leaves its level."""
    made = MockFactory()
    yield made
    made.reset()


def test_sigterm_mid_beep_leaves_the_buzzer_low_and_the_store_whole(tmp_path, photos, plain_pins):
    factory = plain_pins
    made, clock, chosen = active_box(tmp_path, photos, factory)
    buzzer_pin = factory.pin(18)
    heard: list[bool] = []

    def sleep(seconds: float) -> None:
        clock.advance(seconds)
        heard.append(bool(buzzer_pin.state))
        if buzzer_pin.state:  # the start beep is sounding: systemctl stop, now
            os.kill(os.getpid(), signal.SIGTERM)

    made.box.events.put("tap")
    assert serve(made, sleep) == 0
    assert heard[-1] is True  # stopped mid-beep ...
    assert buzzer_pin.state == 0  # ... and the pin is low
    assert made.camera.camera is None  # the camera was closed
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # and the handlers given back
    database = tmp_path / "store" / "matches.db"
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        assert db.execute("PRAGMA quick_check").fetchone() == ("ok",)
        kinds = [row[0] for row in db.execute("SELECT kind FROM events ORDER BY id")]
    assert kinds == ["match-started", "roll-read", "round-started"]
    factory.reset()
    again = assemble(
        settings_of(chosen),
        clock,
        reader=ListReader([]),
        pin_factory=MockFactory(),
    )
    assert again.referee.state is State.TIMING  # the stopped round goes on after a restart
    again.close()


def test_systemctl_stop_of_a_running_box_is_exit_0_and_closes_the_store(tmp_path, photos):
    store = tmp_path / "store"
    config = tmp_path / "box.toml"
    config.write_text(
        f'[store]\nfolder = "{store}"\n[screen]\nbackend = "dummy"\n', encoding="utf-8"
    )
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "device.cli", "run", "--simulate"]
    command += ["--config", str(config), "--photos", str(photos)]
    box = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (store / "matches.db").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    box.send_signal(signal.SIGTERM)
    _, err = box.communicate(timeout=30)
    assert box.returncode == 0, err
    assert "Traceback" not in err and "stopped by SIGTERM" in err
    assert not (store / "matches.db-wal").exists() or (store / "matches.db-wal").stat().st_size == 0


@pytest.mark.skipif(
    Path("/proc/device-tree/model").exists()
    and "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace"),
    reason="a Pi has GPIO pins",
)
def test_run_off_a_pi_is_one_sentence(tmp_path):
    config = tmp_path / "box.toml"
    config.write_text(
        f'[store]\nfolder = "{tmp_path / "store"}"\n[screen]\nbackend = "dummy"\n',
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("GPIOZERO_")}
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "run", "--config", str(config)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("cuberef: No GPIO pins can be driven on this machine (lgpio")
    assert "cuberef run --simulate" in lines[0]


def test_a_passive_buzzer_plays_hertz_as_hertz_and_refuses_what_it_cannot(factory):
    sound = PassiveSound(18, pin_factory=factory)
    pin = factory.pin(18)
    low, high = PASSIVE_RANGE
    assert (low, high) == (220.0, 3520.0)
    sound.tone(220)  # a number below 128 would be a MIDI note to TonalBuzzer; 220 is hertz
    assert pin.frequency == pytest.approx(220)
    with pytest.raises(ValueError, match="outside the buzzer's 220-3520 Hz"):
        sound.tone(4000)
    sound.close()


def test_a_note_the_buzzer_cannot_play_never_stops_the_tick(factory, caplog):
    buzzer = Buzzer(PassiveSound(18, pin_factory=factory))
    shrill = Tune("start", (Note(9000, 0.1), Note(1760, 0.1)))
    with caplog.at_level(logging.ERROR):
        buzzer.play(shrill, 0.0)  # would raise inside the referee's tick
        buzzer.update(0.15)
    assert "the buzzer failed" in caplog.text
    assert factory.pin(18).frequency == pytest.approx(1760)
    buzzer.close()


def test_tunes_from_the_settings_replace_the_built_in_cues(factory):
    from device.base.tunes import START

    mine = Tune("start", (Note(440, 0.3),))
    buzzer = Buzzer(PassiveSound(18, pin_factory=factory), {"start": mine})
    buzzer.play(START, 0.0)
    assert factory.pin(18).frequency == pytest.approx(440)
    buzzer.update(0.2)
    assert factory.pin(18).frequency == pytest.approx(440)  # START alone lasts 0.15 s
    buzzer.close()


def test_a_tune_outside_the_buzzers_range_is_refused_when_the_configuration_is_checked(
    tmp_path, capsys
):
    from device.cli import main

    config = tmp_path / "box.toml"
    config.write_text('[tunes]\nalarm = "A6:0.5 -:0.1 A7:1"\n', encoding="utf-8")
    assert main(["config", "--check", "--config", str(config)]) == 0  # A7 is 3520 Hz: the top
    config.write_text('[tunes]\nalarm = "A6:0.5 -:0.1 C8:1"\n', encoding="utf-8")
    assert main(["config", "--check", "--config", str(config)]) == 2
    said = capsys.readouterr()
    assert "[tunes] alarm has a note of 4186.01 Hz; a passive buzzer plays 220 to 3520 Hz." in (
        said.out + said.err
    )
    config.write_text(
        '[buzzer]\ntype = "active"\n[tunes]\nalarm = "A6:0.5 -:0.1 C8:1"\n', encoding="utf-8"
    )
    assert main(["config", "--check", "--config", str(config)]) == 0  # an active one has no pitch


@pytest.mark.parametrize(
    "failure",
    [OSError(28, "No space left on device"), KeyboardInterrupt()],
    ids=["full disk", "stopped mid-write"],
)
def test_a_photo_that_cannot_be_written_leaves_no_part_behind(tmp_path, monkeypatch, failure):
    from device.store.store import Store, StoreError

    store = Store(tmp_path / "store")

    def fails(_descriptor: int) -> None:
        raise failure

    monkeypatch.setattr(os, "fsync", fails)
    expected = StoreError if isinstance(failure, OSError) else KeyboardInterrupt
    with pytest.raises(expected) as raised:
        store.save_photo("match1-round1-roll.jpg", b"\xff\xd8" + b"\0" * 50_000)
    if expected is StoreError:
        assert "disk is full" in str(raised.value)
    assert list(store.photos.iterdir()) == []  # neither the photo nor a .part of it
    monkeypatch.undo()
    store.close()
