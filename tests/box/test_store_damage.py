"""A store damaged row by row, or on a read-only card: the box starts, resumes what can be
resumed and says what it skipped; ``cuberef doctor`` says it too."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from device.referee.flow import State
from device.store.events import Kind, MatchStarted, RoundStarted
from device.store.store import Store
from engine.faces import Face

from .conftest import ListReader, tray_reading
from .test_round import build, tap

ROOT = Path(__file__).resolve().parents[2]


def played(tmp_path, photos):
    """A box stopped mid-round: a roll read, a face corrected, the timer running."""
    made, clock, _ = build(tmp_path, photos)
    tap(made)
    made.box.touch(made.box.screen.layout.cells[3].center)
    clock.advance(30)
    made.box.step()
    made.close()
    return clock


def damage(tmp_path, kind: Kind, data: str) -> int:
    db = sqlite3.connect(tmp_path / "store" / "matches.db")
    with db:
        row = db.execute("SELECT id FROM events WHERE kind = ?", (str(kind),)).fetchone()
        db.execute("UPDATE events SET data = ? WHERE id = ?", (data, row[0]))
    db.close()
    return int(row[0])


@pytest.mark.parametrize(
    ("kind", "data", "reason", "state"),
    [
        (Kind.FACE_CORRECTED, "{not json", "not JSON", State.TIMING),
        (Kind.ROUND_STARTED, '{"seconds": "ten"}', "seconds is 'ten', not a whole number", None),
        (Kind.ROLL_READ, "{}", "reading is missing", State.IDLE),
    ],
)
def test_a_damaged_row_is_set_aside_and_the_rest_resumes(
    tmp_path, photos, kind, data, reason, state
):
    clock = played(tmp_path, photos)
    bad = damage(tmp_path, kind, data)
    made, _, _ = build(tmp_path, photos, clock=clock, reader=ListReader([tray_reading()]))
    made.box.step()
    notice = made.box.screen.shown.notice
    assert "could not be read" in notice and reason in notice and f"event {bad}" in notice
    assert [s.id for s in made.store.skipped] == [bad]
    if kind is Kind.FACE_CORRECTED:  # the round goes on, 30 s in, with the face as read
        assert made.referee.seconds_left == pytest.approx(150, abs=0.5)
        assert made.referee.round.reading.board[0, 3] == Face("B")
    if kind is Kind.ROUND_STARTED:  # the round's start is lost: its timer starts again
        assert made.referee.state is State.TIMING and made.referee.seconds_left == 180
    if state is not None:
        assert made.referee.state is state
    made.close()
    again = Store(tmp_path / "store")  # set aside once, kept with its reason
    assert [(s.id, reason in s.reason) for s in again.quarantined()] == [(bad, True)]
    assert bad not in {e.id for e in again.events(1)} and again.skipped == []
    doctor = _doctor(tmp_path)
    assert f"event {bad} ({kind})" in doctor and "skipped" in doctor


def test_a_row_with_a_wrong_column_and_an_unknown_kind_are_skipped(tmp_path):
    store = Store(tmp_path)
    match = store.new_match(0.0, MatchStarted("boggle", ("A",)))
    store.record(match, 1, 1.0, RoundStarted(180))
    with store.db:
        store.db.execute(
            "INSERT INTO events (match, round, kind, at, data) VALUES (1, 'x', "
            "'round-started', 2.0, '{\"seconds\": 5}')"
        )
        store.db.execute(
            "INSERT INTO events (match, round, kind, at, data) VALUES (1, 2, 'exploded', 3.0, '{}')"
        )
    kinds = [e.kind for e in store.events(1)]
    assert kinds == [Kind.MATCH_STARTED, Kind.ROUND_STARTED]
    reasons = [s.reason for s in store.skipped]
    assert reasons == ["its round is 'x'", "'exploded' is not a kind of event this box knows"]


def _doctor(tmp_path) -> str:
    config = tmp_path / "box.toml"
    config.write_text(f'[store]\nfolder = "{tmp_path / "store"}"\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "doctor", "--config", str(config)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy"},
        timeout=60,
    )
    return next(line for line in result.stdout.splitlines() if "store:" in line)


READ_ONLY_CHILD = """
import sys
sys.path.insert(0, sys.argv[3])
from pathlib import Path
from box.conftest import ListReader, tray_reading
from box.test_round import build
from device.base.clock import FakeClock
clock = FakeClock(wall_start=1_800_000_000.0 + 40)
made, _, _ = build(Path(sys.argv[1]), Path(sys.argv[2]), clock=clock)
made.box.step()
print(made.store.read_only, made.referee.state, round(made.referee.seconds_left))
print(made.box.screen.shown.notice)
made.close()
"""


def test_a_store_on_a_read_only_card_is_read_and_said(tmp_path, photos):
    if not shutil.which("unshare") or subprocess.run(["unshare", "-rm", "true"]).returncode:
        pytest.fail("this test needs unshare (util-linux) and user namespaces")
    from device.base.clock import FakeClock

    made, clock, _ = build(tmp_path, photos, clock=FakeClock(wall_start=1_800_000_000.0))
    tap(made)
    made.close()  # a clean stop: SQLite folds its -wal file back in and removes it
    before = {p.name: p.read_bytes() for p in (tmp_path / "store").iterdir() if p.is_file()}
    store = tmp_path / "store"
    script = (
        f"mount --bind {store} {store} && mount -o remount,bind,ro {store} && "
        f"{sys.executable} -c '{READ_ONLY_CHILD}' {tmp_path} {photos} {ROOT / 'tests'}"
    )
    result = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    first, notice = result.stdout.splitlines()[:2]
    assert first == "True timing 140"  # the round resumed, 40 s on
    assert "read-only" in notice and "nothing new is saved" in notice
    after = {p.name: p.read_bytes() for p in store.iterdir() if p.is_file()}
    assert after == before  # nothing moved aside, nothing written
