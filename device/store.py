"""The match store: every event of a match written to SQLite the moment it happens.

One row per event (``match-started``, ``roll-read``, ``round-started``,
``round-ended``, ``scored``, ``round-cancelled``, ``match-ended``), each in its own
committed transaction, so a power cut loses at most the event being written. The
photos are files in ``photos/`` beside the database; the event names its photo.

Durability: WAL mode with ``synchronous=FULL``. In WAL mode ``NORMAL`` survives a
crash of the program but may lose the last transactions on a power cut, and a power
cut (someone pulls the plug of the box) is the failure this store exists for. A box
writes a handful of events a minute, so the fsync that FULL adds per commit costs
nothing anyone can notice.

A store that fails ``PRAGMA quick_check`` (or is not a database at all) is moved
aside as ``matches.db.corrupt-<time>``, never deleted, and ``notice`` says so.
"""

from __future__ import annotations

import errno
import json
import logging
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.errors import MachineError

log = logging.getLogger("cuberef.store")

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
"""


class StoreError(MachineError):
    """The store could not write (a full disk, a pulled card)."""


@dataclass(frozen=True, slots=True)
class Event:
    id: int
    match: int
    round: int
    kind: str
    at: float
    data: dict[str, Any]


def write_file(path: Path, data: bytes) -> None:
    """Write a file durably: to a temporary name, fsync, then rename into place."""
    import os

    temporary = path.with_name(path.name + ".part")
    with open(temporary, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    os.replace(temporary, path)


class Store:
    """The matches of one box, in ``folder/matches.db`` with photos in ``folder/photos``."""

    def __init__(
        self, folder: str | Path, *, writer: Callable[[Path, bytes], None] = write_file
    ) -> None:
        self.folder = Path(folder)
        self.photos = self.folder / "photos"
        self.path = self.folder / "matches.db"
        self.writer = writer
        self.notice: str | None = None
        try:
            self.photos.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(
                f"Cannot create the store folder {str(self.folder)!r} ({error.strerror}); "
                "give [store] folder a place the box may write."
            ) from None
        self.db = self._open()

    def _open(self) -> sqlite3.Connection:
        if self.path.exists():
            reason = _damage(self.path)
            if reason:
                aside = self.path.with_name(
                    f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}"
                )
                for suffix in ("", "-wal", "-shm"):
                    part = Path(str(self.path) + suffix)
                    if part.exists():
                        part.rename(Path(str(aside) + suffix))
                self.notice = (
                    f"The match store was damaged ({reason}); it was kept as {aside.name} "
                    "and a new one begun."
                )
                log.error(self.notice)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(SCHEMA)
        return db

    def close(self) -> None:
        self.db.close()

    # Writing -----------------------------------------------------------------------

    def record(self, match: int, round_: int, kind: str, at: float, **data: Any) -> Event:
        """Write one event and commit it before returning."""
        text = json.dumps(data, ensure_ascii=False, sort_keys=True)
        try:
            cursor = self.db.execute(
                "INSERT INTO events (match, round, kind, at, data) VALUES (?, ?, ?, ?, ?)",
                (match, round_, kind, at, text),
            )
        except sqlite3.Error as error:
            raise StoreError(_disk_sentence(str(error))) from None
        log.info("stored %s of match %d round %d", kind, match, round_)
        return Event(int(cursor.lastrowid or 0), match, round_, kind, at, data)

    def save_photo(self, name: str, data: bytes) -> str:
        """Keep a photo beside the database; returns the name the events refer to.

        A name already taken (a second try at reading the same round) gets a number,
        so no kept photo is ever overwritten."""
        stem, dot, suffix = name.rpartition(".")
        tries = 1
        while (self.photos / name).exists():
            tries += 1
            name = f"{stem}-{tries}{dot}{suffix}"
        try:
            self.writer(self.photos / name, data)
        except OSError as error:
            raise StoreError(_disk_sentence(error.strerror or str(error), error.errno)) from None
        return name

    def new_match(self, at: float, **data: Any) -> int:
        row = self.db.execute("SELECT COALESCE(MAX(match), 0) + 1 FROM events").fetchone()
        match = int(row[0])
        self.record(match, 0, "match-started", at, **data)
        return match

    # Reading -----------------------------------------------------------------------

    def events(self, match: int) -> list[Event]:
        rows = self.db.execute(
            "SELECT id, match, round, kind, at, data FROM events WHERE match = ? ORDER BY id",
            (match,),
        )
        return [Event(r[0], r[1], r[2], r[3], r[4], json.loads(r[5])) for r in rows]

    def last_match(self) -> int | None:
        """The match to resume: the latest one, unless it has ended."""
        row = self.db.execute("SELECT match, kind FROM events ORDER BY id DESC LIMIT 1").fetchone()
        if row is None or row[1] == "match-ended":
            return None
        return int(row[0])

    def check(self) -> str:
        row = self.db.execute("PRAGMA quick_check").fetchone()
        return str(row[0])


def _damage(path: Path) -> str | None:
    """Why the database at ``path`` is unusable, or None if it is sound."""
    try:
        db = sqlite3.connect(path)
        try:
            result = db.execute("PRAGMA quick_check").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        return str(error)
    if result != [("ok",)]:
        return "; ".join(str(r[0]) for r in result[:3])
    return None


def _disk_sentence(detail: str, code: int | None = None) -> str:
    if code == errno.ENOSPC or "full" in detail.lower():
        return (
            "The disk is full, so this round is not being saved; "
            "the earlier rounds are safe. Free some space on the card."
        )
    return f"The match store cannot write ({detail}); the earlier rounds are safe."
