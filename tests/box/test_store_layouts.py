"""Issue 42's store: its tables' shape is checked as it opens. Each layout a cuberef ever
wrote (from the store's own history) is brought up to date, every event kept; any other
shape is damage: the file is kept aside whole under a dated name, a new store begun, the
box plays on and says so, and ``cuberef doctor`` says which it is in words."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from device.referee.flow import State
from device.store import store as store_module
from device.store.events import MatchStarted
from device.store.store import SCHEMA_VERSION, Store, StoreError

from .conftest import ListReader, tray_reading
from .test_round import build
from .test_store_damage import _doctor

EVENTS_WITH_ROUND = """
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    match INTEGER NOT NULL,
    round INTEGER NOT NULL,
    kind TEXT NOT NULL,
    at REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_match ON events (match, id);
"""
QUARANTINE = """
CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY,
    match, round, kind, at, data,
    reason TEXT NOT NULL,
    moved REAL NOT NULL
);
"""
HOUSE = """
CREATE TABLE IF NOT EXISTS house (
    language TEXT NOT NULL,
    word TEXT NOT NULL,
    allowed INTEGER NOT NULL,
    at REAL NOT NULL,
    match INTEGER,
    PRIMARY KEY (language, word)
);
"""
FIRST = (
    "CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, match INTEGER NOT NULL,"
    " kind TEXT NOT NULL, at REAL NOT NULL, data TEXT NOT NULL)"
)
#: Each layout a cuberef wrote, oldest first: (its scripts, its user_version).
OLDER = {
    "the first stores, without round": ([FIRST], 0),
    "the first stores, with their index": (
        [FIRST, "CREATE INDEX events_by_match ON events (match, id)"],
        0,
    ),
    "e78de90: events with round": ([EVENTS_WITH_ROUND], 0),
    "fc9cfaa: the quarantine": ([EVENTS_WITH_ROUND, QUARANTINE], 0),
    "a257865: schema 1": ([EVENTS_WITH_ROUND, QUARANTINE], 1),
    "a migration cut short": ([FIRST, HOUSE, QUARANTINE], 0),
}
STARTED = '{"game": "boggle", "players": ["Ann", "Bo"]}'


def older_store(folder, scripts, version):
    folder.mkdir(parents=True)
    db = sqlite3.connect(folder / "matches.db")
    for script in scripts:
        db.executescript(script)
    columns = {row[1] for row in db.execute("PRAGMA table_info(events)")}
    if "round" in columns:
        db.execute(
            "INSERT INTO events (match, round, kind, at, data)"
            " VALUES (1, 0, 'match-started', 1, ?)",
            (STARTED,),
        )
    else:
        db.execute(
            "INSERT INTO events (match, kind, at, data) VALUES (1, 'match-started', 1.0, ?)",
            (STARTED,),
        )
    db.execute(f"PRAGMA user_version = {version}")
    db.commit()
    db.close()


@pytest.mark.parametrize("name", list(OLDER))
def test_each_layout_a_cuberef_wrote_is_brought_up_to_date(tmp_path, photos, name):
    folder = tmp_path / "store"
    older_store(folder, *OLDER[name])
    before = (folder / "matches.db").read_bytes()
    looked = Store(folder, read_only=True)  # the doctor's look changes nothing
    assert looked.layout.kind == "older" and "older cuberef's layout" in looked.layout.words()
    assert [e.kind for e in looked.events(1)] == ["match-started"] and not looked.quarantined()
    looked.close()
    assert (folder / "matches.db").read_bytes() == before
    line = _doctor(tmp_path)
    assert "is ok, of an older cuberef's layout" in line and "brings up to date" in line, line
    store = Store(folder)
    assert store.notice is None and not list(folder.glob("*.corrupt-*"))
    assert [(e.kind, e.round) for e in store.events(1)] == [("match-started", 0)]
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert store.layout.kind == "older"
    store.rule_word("en", "qi", True, 2.0)  # every table there, as this cuberef writes them
    assert store.new_match(3.0, MatchStarted("boggle", ("Cy",))) == 2
    store.close()
    again = Store(folder)
    assert again.layout.kind == "current" and again.house("en").allowed == {"qi"}
    again.close()
    assert "is ok, of this cuberef's layout (schema 2)" in _doctor(tmp_path)
    made, _, _ = build(tmp_path, photos, reader=ListReader([tray_reading()]))
    made.box.step()
    assert made.referee.match.started.players == ("Cy",)
    made.close()


FOREIGN = {
    "no at": (
        "CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, match INTEGER NOT NULL,"
        " round INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL)",
        "events has no column at",
    ),
    "a column more": (
        EVENTS_WITH_ROUND + "ALTER TABLE events ADD COLUMN who TEXT",
        "events has a column who that no cuberef made",
    ),
    "another type": (
        EVENTS_WITH_ROUND.replace("at REAL", "at TEXT"),
        "events's column at is TEXT NOT NULL, not REAL NOT NULL",
    ),
    "id not the row's": (
        EVENTS_WITH_ROUND.replace("id INTEGER PRIMARY KEY AUTOINCREMENT", "id TEXT"),
        "events's column id",
    ),
    "without rowid": (
        EVENTS_WITH_ROUND.replace("AUTOINCREMENT", "").replace(
            "NOT NULL\n)", "NOT NULL\n) WITHOUT ROWID"
        ),
        "events",
    ),
    "a unique index": (
        EVENTS_WITH_ROUND + "CREATE UNIQUE INDEX one_kind ON events (kind);",
        "events has an index that no cuberef made",
    ),
    "a table of its own": (
        EVENTS_WITH_ROUND + "CREATE TABLE notes (text);",
        "a table 'notes' that no cuberef made",
    ),
    "a trigger": (
        EVENTS_WITH_ROUND
        + "CREATE TRIGGER no_words BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'no'); END;",
        "a trigger 'no_words' that no cuberef made",
    ),
    "a view": (EVENTS_WITH_ROUND + "CREATE VIEW everything AS SELECT * FROM events;", "a view"),
    "only a house of its own": ("CREATE TABLE house (word TEXT);", "house has no column allowed"),
    "a negative schema": (EVENTS_WITH_ROUND + "PRAGMA user_version = -3;", "schema -3"),
}


def foreign_store(folder, script):
    folder.mkdir(parents=True)
    db = sqlite3.connect(folder / "matches.db")
    db.executescript(script)
    db.commit()
    db.close()


@pytest.mark.parametrize("name", list(FOREIGN))
def test_any_other_shape_is_kept_aside_whole_and_a_new_store_begun(tmp_path, photos, name):
    script, why = FOREIGN[name]
    folder = tmp_path / "store"
    foreign_store(folder, script)
    database = folder / "matches.db"
    before = database.read_bytes()
    line = _doctor(tmp_path)  # says which it is, and changes nothing
    assert "FIX  store:" in line and "not of any layout a cuberef wrote" in line, line
    assert why in line and "keeps it aside under a dated name" in line, line
    assert database.read_bytes() == before
    with pytest.raises(StoreError, match="not of any layout a cuberef wrote"):
        Store(folder, read_only=True)
    made, _, _ = build(tmp_path, photos, reader=ListReader([tray_reading()]))
    made.box.step()  # the box starts, says so, and plays on a new store
    notice = made.box.screen.shown.notice or ""
    assert "not of any layout a cuberef wrote" in notice and why in notice, notice
    assert made.store is not None and made.store.layout.kind in ("new", "current")
    made.box.events.put("tap")
    made.box.step()
    assert made.referee.state is State.TIMING
    made.close()
    kept = list(folder.glob("matches.db.corrupt-*"))
    assert [k.read_bytes() for k in kept] == [before]  # nothing of it lost
    assert "schema 2" in _doctor(tmp_path)


def test_a_foreign_store_s_last_writes_in_its_wal_are_kept_and_two_in_a_second_both(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(store_module.time, "strftime", lambda _format: "20261204-210000")
    source, folder = tmp_path / "source", tmp_path / "store"
    source.mkdir()
    folder.mkdir()
    db = sqlite3.connect(source / "matches.db")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")  # every row stays in the -wal
    db.executescript(FOREIGN["no at"][0])
    db.executemany(
        "INSERT INTO events (match, round, kind, data) VALUES (?, 0, 'x', '{}')",
        [(n,) for n in range(1, 101)],
    )
    db.commit()
    for part in ("matches.db", "matches.db-wal"):  # as a kill -9 leaves them
        shutil.copyfile(source / part, folder / part)
    db.close()
    assert (folder / "matches.db-wal").stat().st_size > 0
    first = Store(folder)
    assert first.notice and "events has no column at" in first.notice
    first.close()
    (folder / "matches.db").unlink()
    foreign_store(tmp_path / "again", FOREIGN["a trigger"][0])
    (tmp_path / "again" / "matches.db").rename(folder / "matches.db")
    second = Store(folder)  # in the same second: a name of its own, none overwritten
    assert second.notice and "trigger" in second.notice
    second.close()
    kept = sorted(folder.glob("matches.db.corrupt-*[0-9]"))
    assert [k.name for k in kept] == [
        "matches.db.corrupt-20261204-210000",
        "matches.db.corrupt-20261204-210000-2",
    ]
    with sqlite3.connect(f"file:{kept[0]}?mode=ro", uri=True) as db:
        assert db.execute("SELECT count(*) FROM events").fetchone() == (100,)
    db.close()
    with sqlite3.connect(f"file:{kept[1]}?mode=ro", uri=True) as db:
        assert db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()
    db.close()


@pytest.mark.parametrize("scripts", [[], [HOUSE]], ids=["an empty file", "a house alone"])
def test_a_store_without_its_events_is_read_as_empty_and_begun(tmp_path, photos, scripts):
    folder = tmp_path / "store"
    folder.mkdir()
    (folder / "matches.db").touch()
    for script in scripts:
        with sqlite3.connect(folder / "matches.db") as db:
            db.executescript(script)
        db.close()
    before = (folder / "matches.db").read_bytes()
    looked = Store(folder, read_only=True)  # the doctor's look: no table is missing
    assert looked.events(1) == [] and looked.unreadable() == [] and looked.quarantined() == []
    assert looked.latest_match() == 0 and looked.house("en").allowed == frozenset()
    looked.close()
    assert (folder / "matches.db").read_bytes() == before
    line = _doctor(tmp_path)
    assert line.startswith("ok") and ("new, with no tables" in line or "no events table" in line)
    made, _, _ = build(tmp_path, photos, reader=ListReader([tray_reading()]))
    made.box.step()
    assert made.store is not None and made.store.notice is None
    made.box.events.put("tap")
    made.box.step()
    assert made.referee.state is State.TIMING
    made.close()
