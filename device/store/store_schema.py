"""The match store's file: its schema and how an older one is brought up, the checks of a
damaged database, a row read back as an event, the durable write of a photo, and the
sentences for a disk that cannot write (``device.store.store`` is the store itself).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from device.base.strings import say
from device.store.codec import Undecodable
from device.store.events import Event, parse
from device.store.store_shape import Layout, layout_of
from engine.errors import MachineError

log = logging.getLogger("cuberef.store")

#: The schema this cuberef writes (``PRAGMA user_version``). 0: the first stores, some of
#: them without the ``round`` column, which is added as 0; 1: no ``house`` table (the
#: table's own rulings), which is added empty.
SCHEMA_VERSION = 2
#: SQLite's primary result codes that mean the file itself is damaged; any other error
#: (a full disk, an I/O error, a locked file) is the machine's and damages nothing.
DAMAGED = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
#: The files of one store: the database, its write-ahead log and index, a rollback journal.
PARTS = ("", "-wal", "-shm", "-journal")
SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    match INTEGER NOT NULL,
    round INTEGER NOT NULL,
    kind TEXT NOT NULL,
    at REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_match ON events (match, id);
CREATE TABLE IF NOT EXISTS house (
    language TEXT NOT NULL,
    word TEXT NOT NULL,
    allowed INTEGER NOT NULL,
    at REAL NOT NULL,
    match INTEGER,
    PRIMARY KEY (language, word)
);
CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY,
    match, round, kind, at, data,
    reason TEXT NOT NULL,
    moved REAL NOT NULL
);
"""


class StoreError(MachineError):
    """The store could not write (a full disk, a pulled card)."""


def write_file(path: Path, data: bytes) -> None:
    """Write a file durably: to a temporary name, fsync, rename into place, fsync the
    folder (else a power cut may keep the data but lose the name)."""
    temporary = path.with_name(path.name + ".part")
    try:
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:  # a full disk, or SIGTERM mid-write: no partial photo is left
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def unreadable_row(row: tuple[object, ...]) -> Event | str:
    """The row as an event, or why it cannot be one: whatever fails in reading it back
    (a wrong type, data nested past any limit) sets the row aside, never stops the box."""
    try:
        return event_of(row)
    except RecursionError:
        return "its data is nested too deeply"
    except Exception as error:  # Undecodable, or anything a hand-made row can raise
        return str(error) or type(error).__name__


def event_of(row: tuple[object, ...]) -> Event:
    """A row as an event, every column and field checked."""
    id_, match, round_, kind, at, data = row
    for name, value, kinds in (
        ("match", match, int),
        ("round", round_, int),
        ("at", at, (int, float)),
        ("kind", kind, str),
        ("data", data, str),
    ):
        if not isinstance(value, kinds) or isinstance(value, bool):
            raise Undecodable(f"its {name} is {value!r}")
    assert isinstance(id_, int) and isinstance(match, int) and isinstance(round_, int)
    assert isinstance(at, int | float) and isinstance(kind, str) and isinstance(data, str)
    return Event(id_, match, round_, float(at), parse(kind, data))


@dataclass(frozen=True, slots=True)
class Flaw:
    """What is wrong with a store's file: damaged (SQLite's reason), or of a layout no
    cuberef wrote (what tells it)."""

    damaged: bool
    detail: str

    def sentence(self, aside: str, language: str = "en") -> str:
        """The notice that the store was kept as ``aside`` and a new one begun."""
        if self.damaged:
            return say("store-damaged", language, reason=self.detail, aside=aside)
        return say("store-foreign", language, why=self.detail, aside=aside)


def damage(path: Path) -> Flaw | None:
    """What is wrong with the database at ``path`` (damaged, or of a layout no cuberef
    wrote), or None if it is sound
    and of a layout this cuberef reads; one a newer cuberef wrote is refused
    (``StoreError``), and an error that is the disk's (full, I/O) is raised, for it says
    nothing of the file."""
    db = sqlite3.connect(path)
    try:
        reason = damage_of(db)
        if reason:
            return Flaw(True, reason)
        refuse_newer(db, path)
        layout = layout_of(db, SCHEMA, SCHEMA_VERSION)
        return Flaw(False, layout.why) if layout.kind == "foreign" else None
    finally:
        db.close()


def damage_of(db: sqlite3.Connection) -> str | None:
    try:
        result = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorcode", 0) & 0xFF in DAMAGED:
            return str(error)
        raise
    if result != [("ok",)]:
        return "; ".join(str(r[0]) for r in result[:3])
    return None


def keep_aside(path: Path) -> str:
    """Move the store at ``path`` (its -wal, -shm and journal with it) to a dated name no
    other file has, whole: the name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside, tries = path.with_name(f"{path.name}.corrupt-{stamp}"), 1
    while any(Path(str(aside) + suffix).exists() for suffix in PARTS):
        tries += 1
        aside = path.with_name(f"{path.name}.corrupt-{stamp}-{tries}")
    for suffix in PARTS:
        part = Path(str(path) + suffix)
        if part.exists():
            part.rename(Path(str(aside) + suffix))
    return aside.name


def unwritable(path: Path, what: str, looking: bool) -> str:
    """The sentence for a store damaged or foreign that may not be written: as the doctor
    looks at it (``looking``), or on a read-only card."""
    if looking:
        return (
            f"The match store {path} is {what}: the box keeps it aside under a dated name, "
            "whole, and begins a new store when it starts."
        )
    return f"The match store {path} is {what} and read-only."


def refuse_newer(db: sqlite3.Connection, path: Path) -> None:
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"The match store {path} was written by a newer cuberef (schema {version}; this "
            f"one reads up to {SCHEMA_VERSION}); update cuberef, or move the file away to "
            "begin a new store."
        )


def migrate(db: sqlite3.Connection) -> Layout:
    """Bring a store of an older layout up to ``SCHEMA_VERSION`` (in one transaction); the
    layout it was of (one no cuberef wrote is set aside before, by ``damage``)."""
    layout = layout_of(db, SCHEMA, SCHEMA_VERSION)
    if layout.kind not in ("new", "older"):
        return layout
    db.executescript(SCHEMA)  # CREATE ... IF NOT EXISTS: only what is missing
    db.execute("BEGIN IMMEDIATE")
    try:
        columns = {str(row[1]) for row in db.execute("PRAGMA table_info(events)")}
        if "round" not in columns:
            db.execute("ALTER TABLE events ADD COLUMN round INTEGER NOT NULL DEFAULT 0")
            log.warning("the match store was of an older schema; its events are in round 0")
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    if layout.kind == "older":
        log.info("the match store was %s; it is now of this one", layout.words())
    return layout


def stand_ins(db: sqlite3.Connection, tables: frozenset[str]) -> None:
    """Empty TEMP tables for those a read-only store of an older layout lacks (nothing is
    written to it), so that it reads as a store that has them."""
    for statement in SCHEMA.split(";"):
        words = statement.split()
        if words[:5] == ["CREATE", "TABLE", "IF", "NOT", "EXISTS"] and words[5] not in tables:
            db.execute(statement.replace("CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE", 1))


def events_select(db: sqlite3.Connection) -> str:
    """The events' columns as this cuberef reads them, from any schema it can read (a
    read-only store of an older schema is not migrated)."""
    columns = {str(row[1]) for row in db.execute("PRAGMA table_info(events)")}
    round_ = "round" if "round" in columns or not columns else "0"
    return f"SELECT id, match, {round_}, kind, at, data FROM events"


def disk_reason(error: sqlite3.Error, folder: Path) -> str:
    """SQLite says "disk I/O error" where it cannot grow its -shm index on a full disk."""
    try:
        free = os.statvfs(folder)
        full = free.f_bavail * free.f_frsize < 2**20
    except OSError:
        full = False
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    return say("the-disk-is-full") if full or code == 13 else str(error)  # 13: SQLITE_FULL


def disk_sentence(detail: str, code: int | None = None) -> str:
    if code == errno.ENOSPC or "full" in detail.lower():
        return say("disk-full")
    return say("store-cannot-write", detail=detail)
