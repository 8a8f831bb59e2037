"""Issue 32's store: no stored data stops the box. A full disk at start is not damage,
a row that cannot be replayed (however it fails) is set aside and the rest resumed, an
older schema is migrated and a newer one refused with a sentence, and a store path that
is not a regular file is a sentence, never a hang."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from device.referee.flow import State
from device.store.events import MatchStarted, RoundStarted, Scored
from device.store.store import SCHEMA_VERSION, Store, StoreError

from .conftest import ListReader, tray_reading
from .test_round import build, run_out_the_clock, tap
from .test_store_damage import _doctor

ROOT = Path(__file__).resolve().parents[2]


def played_round(tmp_path, photos):
    """A box that played one round and stopped cleanly in the next one's timer."""
    from device.base.clock import FakeClock

    clock = FakeClock(wall_start=1_800_000_000.0)
    made, clock, _ = build(tmp_path, photos, clock=clock, reader=ListReader([tray_reading()] * 2))
    tap(made)
    run_out_the_clock(made, clock)
    tap(made)  # scored
    tap(made)  # the match table
    tap(made)  # the second roll: its timer runs
    made.close()
    return clock


FULL_CHILD = """
import os, sys
sys.path.insert(0, sys.argv[3])
from pathlib import Path
from box.conftest import ListReader, tray_reading
from box.test_round import build
from device.base.clock import FakeClock
store = Path(sys.argv[1]) / "store"
filler = store / "filler"
descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT)  # the card fills up while the box is off
try:
    while True:
        os.write(descriptor, bytes(4096))
except OSError:
    os.close(descriptor)
for round_ in (1, 2):
    clock = FakeClock(wall_start=1_800_000_000.0 + 40)
    made, _, _ = build(Path(sys.argv[1]), Path(sys.argv[2]), clock=clock,
                       reader=ListReader([tray_reading()]))
    made.box.step()
    print(made.store is not None and made.store.read_only, made.referee.state,
          len(made.referee.match.rounds))
    print(made.box.screen.shown.notice or "")
    made.close()
    print(sorted(p.name for p in store.iterdir()))
    filler.unlink(missing_ok=True)  # space is freed; the box starts again
"""


def test_a_full_disk_at_start_keeps_the_store_and_the_box_runs(tmp_path, photos):
    if not shutil.which("unshare") or subprocess.run(["unshare", "-rm", "true"]).returncode:
        pytest.fail("this test needs unshare (util-linux) and user namespaces")
    played_round(tmp_path, photos)
    store = tmp_path / "store"
    saved = tmp_path / "saved"
    shutil.copytree(store, saved)
    script = (
        f"mount -t tmpfs -o size=3m tmpfs {store} && cp -a {saved}/. {store}/ && "
        f"{sys.executable} -c '{FULL_CHILD}' {tmp_path} {photos} {ROOT / 'tests'}"
    )
    result = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert lines[0] == "True timing 1", result.stdout  # the stored match, its second round on
    assert "cannot be written" in lines[1] and "disk is full" in lines[1], lines[1]
    assert "corrupt" not in lines[2] and "matches.db" in lines[2], lines[2]
    assert lines[3] == "False timing 1", result.stdout  # space freed: it saves again
    assert "corrupt" not in lines[5]


def test_a_row_nested_past_any_limit_is_set_aside_and_the_rest_resumes(tmp_path, photos):
    clock = played_round(tmp_path, photos)
    database = tmp_path / "store" / "matches.db"
    with sqlite3.connect(database) as db:
        row = db.execute("SELECT id FROM events WHERE kind = 'round-started' LIMIT 1").fetchone()
        db.execute("UPDATE events SET data = ? WHERE id = ?", ("[" * 100_000, row[0]))
    db.close()
    for _ in range(2):  # every start, not only the first
        made, _, _ = build(tmp_path, photos, clock=clock, reader=ListReader([tray_reading()]))
        made.box.step()
        assert made.referee.state is State.TIMING and len(made.referee.match.rounds) == 1
        made.close()
    quarantined = Store(tmp_path / "store").quarantined()
    assert [(q.id, q.reason) for q in quarantined] == [(row[0], "its data is nested too deeply")]


def test_a_well_typed_score_for_an_unknown_player_is_set_aside_not_exit_2(tmp_path, photos):
    clock = played_round(tmp_path, photos)
    store = Store(tmp_path / "store")
    bad = store.record(1, 7, 1_800_000_100.0, Scored((("Nobody-here", 99),), 5))
    store.record(1, 8, 1_800_000_101.0, RoundStarted(180))  # what follows still replays
    store.close()
    made, _, _ = build(tmp_path, photos, clock=clock, reader=ListReader([tray_reading()]))
    made.box.step()
    assert len(made.referee.match.rounds) == 1  # the sound round stands
    assert f"event {bad.id} (scored)" in made.box.screen.shown.notice
    made.close()
    quarantined = Store(tmp_path / "store").quarantined()
    assert [q.id for q in quarantined] == [bad.id]
    assert "cannot be replayed" in quarantined[0].reason


def test_an_older_schema_is_migrated_and_a_newer_one_refused(tmp_path, photos, capsys):
    folder = tmp_path / "store"
    folder.mkdir()
    with sqlite3.connect(folder / "matches.db") as db:  # the first stores: no round column
        db.execute(
            "CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, match INTEGER NOT NULL,"
            " kind TEXT NOT NULL, at REAL NOT NULL, data TEXT NOT NULL)"
        )
        db.execute(
            "INSERT INTO events (match, kind, at, data) VALUES (1, 'match-started', 1.0, ?)",
            ('{"game": "boggle", "players": ["Ann"]}',),
        )
    db.close()
    read_only = Store(folder, read_only=True)  # the doctor's look migrates nothing
    assert [e.kind for e in read_only.events(1)] == ["match-started"]
    read_only.close()
    store = Store(folder)
    assert [(e.kind, e.round) for e in store.events(1)] == [("match-started", 0)]
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    store.close()
    made, _, _ = build(tmp_path, photos)
    made.box.step()
    assert made.referee.match.started.players == ("Ann",)
    made.close()
    with sqlite3.connect(folder / "matches.db") as db:
        db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(StoreError, match="written by a newer cuberef \\(schema 99"):
        Store(folder)
    made, _, _ = build(tmp_path, photos)  # the box plays on without a store, and says why
    made.box.step()
    assert made.store is None and "newer cuberef" in made.box.screen.shown.notice
    made.close()


@pytest.mark.parametrize("kind", ["device", "fifo", "folder"])
def test_a_store_path_that_is_not_a_regular_file_is_a_sentence(tmp_path, photos, kind):
    folder = tmp_path / "store"
    folder.mkdir()
    database = folder / "matches.db"
    if kind == "device":
        database.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(database)  # SQLite would block on it for ever
    else:
        database.mkdir()
    with pytest.raises(StoreError, match="not a file|not a regular file|is a folder"):
        Store(folder)
    with pytest.raises(StoreError):
        Store(folder, read_only=True)
    made, _, _ = build(tmp_path, photos)
    made.box.step()
    assert made.store is None and "matches.db" in made.box.screen.shown.notice
    made.close()
    line = _doctor(tmp_path)  # a FIFO store hung the doctor for ever
    assert "not a" in line


def test_a_match_started_row_no_box_can_play_is_set_aside(tmp_path):
    store = Store(tmp_path)
    match = store.new_match(0.0, MatchStarted("boggle", ("Ann",)))
    assert match == 1
    store.close()
