"""The match store: every event of a match written to SQLite the moment it happens.

One row per event (the kinds of ``device.store.events``), each in its own committed
transaction, so a power cut loses at most the event being written. The photos are files
in ``photos/`` beside the database; the event names its photo.

Durability: WAL mode with ``synchronous=FULL``. In WAL mode ``NORMAL`` survives a
crash of the program but may lose the last transactions on a power cut, and a power
cut (someone pulls the plug of the box) is the failure this store exists for. An event
is reported saved (``record`` returns) only after its commit is on the card.

Damage, from the worst down:

- a database that fails ``PRAGMA quick_check`` (or is not one), or whose tables are of
  a shape no cuberef wrote (``device.store.store_shape``), is moved aside as
  ``matches.db.corrupt-<time>``, never deleted, and a new one begun;
- a row that cannot be read back (bad JSON, a field of the wrong type, a missing key)
  is moved to the ``quarantine`` table with the reason, and the rest of the match is
  read; ``skipped`` lists such rows, for the screen and ``cuberef doctor``;
- a store on a read-only file system, or one the disk has no room to open (SQLite's
  ``full`` and ``I/O`` errors are the disk's, not the file's), is opened read-only and
  ``notice`` says so: the box resumes what it holds and plays on without saving.
  Nothing is moved aside;
- a store of an older schema is brought up to this one; one of a newer schema (a newer
  cuberef wrote it) and a path that is not a regular file (a FIFO, a device, a folder)
  are refused with a sentence, and the box plays on without a store.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from device.base.inputs import not_regular
from device.base.strings import say
from device.store.events import Event, Payload, Skipped, dumps, kind_of
from device.store.store_schema import (
    SCHEMA,
    SCHEMA_VERSION,
    StoreError,
    damage,
    damage_of,
    disk_reason,
    disk_sentence,
    events_select,
    keep_aside,
    migrate,
    refuse_newer,
    stand_ins,
    unreadable_row,
    unwritable,
    write_file,
)
from device.store.store_shape import Layout, layout_of
from engine.house import HouseList

__all__ = ["SCHEMA_VERSION", "Store", "StoreError", "write_file"]

log = logging.getLogger("cuberef.store")


class Store:
    """The matches of one box, in ``folder/matches.db`` with photos in ``folder/photos``.

    ``read_only`` opens it only to read (``cuberef doctor``); a store on a read-only file
    system is opened so whatever is asked, and ``read_only`` then says so."""

    def __init__(
        self,
        folder: str | Path,
        *,
        writer: Callable[[Path, bytes], None] = write_file,
        read_only: bool = False,
    ) -> None:
        self.folder = Path(folder)
        self.photos = self.folder / "photos"
        self.path = self.folder / "matches.db"
        self.writer = writer
        self.notice: str | None = None
        self.skipped: list[Skipped] = []
        self._lock = threading.Lock()  # the players' page writes from its own thread
        self.looking = read_only  # the doctor's look, not a store the box cannot write
        self.layout = Layout("new", 0, frozenset())
        self._refuse_odd_files()
        self.read_only = read_only or not self._writable()
        if self.read_only:
            self.db = self._open_read_only(announce=not read_only)
        else:
            try:
                self.db = self._open()
            except sqlite3.Error as error:  # the disk's trouble, not the file's
                self.read_only = True
                self.db = self._open_read_only(announce=False)
                why = disk_reason(error, self.folder)
                self.notice = say("store-unwritable", path=self.path, why=why)
                log.error(self.notice)
        self._events_select = events_select(self.db)

    def _refuse_odd_files(self) -> None:
        """Only a folder and regular files: SQLite would block on a FIFO and read a
        device for ever."""
        if self.folder.exists() and not self.folder.is_dir():
            raise StoreError(
                f"The store folder {self.folder} is not a folder; give [store] folder a folder."
            )
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(self.path) + suffix)
            odd = not_regular(part)
            if odd:
                raise StoreError(
                    f"The match store {part} is {odd}, not a file; move it away, or give "
                    "[store] folder another place."
                )

    def _writable(self) -> bool:
        """Whether the box may write here; a store it may only read is opened read-only."""
        try:
            self.photos.mkdir(parents=True, exist_ok=True)
            writable = os.access(self.folder, os.W_OK)
        except OSError as error:
            writable, why = False, error.strerror
        else:
            why = "read-only"
        if not writable and not self.path.exists():
            raise StoreError(
                f"Cannot create the store folder {str(self.folder)!r} ({why}); "
                "give [store] folder a place the box may write."
            )
        return writable and (not self.path.exists() or os.access(self.path, os.W_OK))

    def _open(self) -> sqlite3.Connection:
        if self.path.exists():
            flaw = damage(self.path)  # damaged, or of a layout no cuberef wrote
            if flaw:
                aside = keep_aside(self.path)
                self.notice = flaw.sentence(aside)
                log.error(self.notice)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            refuse_newer(db, self.path)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            self.layout = migrate(db)
        except BaseException:
            db.close()
            raise
        return db

    def _open_read_only(self, announce: bool) -> sqlite3.Connection:
        """Open without writing a byte. A WAL database needs its -shm index; where that
        cannot be made (a read-only file system after a clean stop, so no -wal either),
        SQLite's ``immutable`` mode reads the file as it is. With no -wal (no box has
        the store open) that is the mode from the start: even ``mode=ro`` creates -wal
        and -shm where it may, and a doctor run as root would leave them root's, which
        the service could then not open."""
        uri = f"file:{quote(str(self.path))}?mode=ro"
        wal = Path(str(self.path) + "-wal")
        if not wal.exists():
            uri += "&immutable=1"
        db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error:
            db.close()
            if wal.exists() and wal.stat().st_size:
                raise StoreError(
                    f"The match store {self.path} is read-only and its last events (in "
                    f"{wal.name}) cannot be read without writing; make the card writable."
                ) from None
            db = sqlite3.connect(
                uri.replace("&immutable=1", "") + "&immutable=1",
                uri=True,
                isolation_level=None,
                check_same_thread=False,
            )
        try:
            reason = damage_of(db)
            what = f"damaged ({reason})" if reason else None
            if what is None:
                refuse_newer(db, self.path)
                self.layout = layout_of(db, SCHEMA, SCHEMA_VERSION)
                if self.layout.kind == "foreign":
                    what = self.layout.words()
        except BaseException:
            db.close()
            raise
        if what:
            db.close()
            raise StoreError(unwritable(self.path, what, self.looking))
        stand_ins(db, self.layout.tables)
        if announce:
            self.notice = say("store-on-read-only-card", path=self.path)
            log.error(self.notice)
        return db

    def close(self) -> None:
        self.db.close()

    # Writing -----------------------------------------------------------------------

    def record(self, match: int, round_: int, at: float, payload: Payload) -> Event:
        """Write one event and commit it (to the card, ``synchronous=FULL``) before
        returning: a returned event survives a kill or a power cut."""
        kind = kind_of(payload)
        if self.read_only:
            raise StoreError(say("store-read-only-round"))
        text = dumps(payload)
        try:
            with self._lock:
                cursor = self.db.execute(
                    "INSERT INTO events (match, round, kind, at, data) VALUES (?, ?, ?, ?, ?)",
                    (match, round_, str(kind), at, text),
                )
        except sqlite3.Error as error:
            raise StoreError(disk_sentence(str(error))) from None
        log.info("stored %s of match %d round %d", kind, match, round_)
        return Event(int(cursor.lastrowid or 0), match, round_, at, payload)

    def save_photo(self, name: str, data: bytes) -> str:
        """Keep a photo beside the database; returns the name the events refer to.

        A name already taken (a second try at reading the same round) gets a number,
        so no kept photo is ever overwritten."""
        if self.read_only:
            raise StoreError(say("store-read-only-photo"))
        stem, dot, suffix = name.rpartition(".")
        tries = 1
        while (self.photos / name).exists():
            tries += 1
            name = f"{stem}-{tries}{dot}{suffix}"
        try:
            self.writer(self.photos / name, data)
        except OSError as error:
            raise StoreError(disk_sentence(error.strerror or str(error), error.errno)) from None
        return name

    def new_match(self, at: float, payload: Payload) -> int:
        with self._lock:
            row = self.db.execute(
                "SELECT MAX(COALESCE((SELECT MAX(match) FROM events), 0),"
                " COALESCE((SELECT MAX(match) FROM quarantine), 0)) + 1"
            ).fetchone()
        match = int(row[0])
        self.record(match, 0, at, payload)
        return match

    def rule_word(
        self, language: str, word: str, allowed: bool | None, at: float, match: int | None = None
    ) -> None:
        """Keep the table's ruling on a word in the house list (None forgets it), committed
        before returning, like an event."""
        if self.read_only:
            raise StoreError(say("store-read-only-ruling"))
        try:
            with self._lock:
                if allowed is None:
                    self.db.execute(
                        "DELETE FROM house WHERE language = ? AND word = ?", (language, word)
                    )
                else:
                    self.db.execute(
                        "INSERT OR REPLACE INTO house (language, word, allowed, at, match)"
                        " VALUES (?, ?, ?, ?, ?)",
                        (language, word, int(allowed), at, match),
                    )
        except sqlite3.Error as error:
            raise StoreError(disk_sentence(str(error))) from None
        said = "forgotten" if allowed is None else "allowed" if allowed else "refused"
        log.info("house list %s: %s %s", language, word, said)

    # Reading -----------------------------------------------------------------------

    def house(self, language: str) -> HouseList:
        """The table's rulings in one language (an old store without the table has none)."""
        rows = self.house_rows(language)
        allowed = frozenset(word for word, yes, _at in rows if yes)
        refused = frozenset(word for word, yes, _at in rows if not yes)
        return HouseList(language, allowed, refused)

    def house_rows(self, language: str) -> list[tuple[str, bool, float]]:
        """Each ruling in one language with when it was made (the latest of each word),
        for the house list as it stood at a past round."""
        try:
            with self._lock:
                rows = self.db.execute(
                    "SELECT word, allowed, at FROM house WHERE language = ?", (language,)
                ).fetchall()
        except sqlite3.Error:  # a read-only store made before the house list
            return []
        return [(str(word), bool(yes), float(at)) for word, yes, at in rows]

    def matches(self, since: float = 0.0) -> list[int]:
        """The numbers of the matches begun at ``since`` (a wall-clock time) or later."""
        with self._lock:
            rows = self.db.execute(
                "SELECT match FROM events WHERE match > 0 GROUP BY match"
                " HAVING MIN(at) >= ? ORDER BY match",
                (since,),
            ).fetchall()
        return [int(row[0]) for row in rows if isinstance(row[0], int)]

    def events(self, match: int) -> list[Event]:
        """The match's events that read back whole; the others are set aside (moved to
        ``quarantine`` unless the store is read-only) and listed in ``skipped``."""
        with self._lock:
            rows = self.db.execute(
                f"{self._events_select} WHERE match = ? ORDER BY id", (match,)
            ).fetchall()
        read: list[Event] = []
        for row in rows:
            reason = unreadable_row(row)
            if isinstance(reason, Event):
                read.append(reason)
            else:
                self._skip(row, reason)
        return read

    def set_aside(self, event: Event, reason: str) -> None:
        """Quarantine an event that read back whole but cannot be replayed (a score for
        a player the match does not have, a roll no board can be made of)."""
        self._skip((event.id, event.match, event.round, str(event.kind)), reason)

    def _skip(self, row: tuple[object, ...], reason: str) -> None:
        match = row[1] if isinstance(row[1], int) else 0
        skipped = Skipped(int(str(row[0])), match, str(row[3]), reason)
        self.skipped.append(skipped)
        log.error("stored %s cannot be read; skipped", skipped)
        if self.read_only:
            return
        try:
            with self._lock:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute(
                    "INSERT OR REPLACE INTO quarantine (id, match, round, kind, at, data, reason,"
                    " moved) SELECT id, match, round, kind, at, data, ?, ? FROM events"
                    " WHERE id = ?",
                    (reason, time.time(), skipped.id),
                )
                self.db.execute("DELETE FROM events WHERE id = ?", (skipped.id,))
                self.db.execute("COMMIT")
        except sqlite3.Error as error:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            log.error("could not set event %d aside: %s", skipped.id, error)

    def quarantined(self) -> list[Skipped]:
        """Every row ever set aside, with its reason (what ``cuberef doctor`` lists)."""
        with self._lock:
            rows = self.db.execute(
                "SELECT id, match, kind, reason FROM quarantine ORDER BY id"
            ).fetchall()
        return [Skipped(int(r[0]), int(r[1] or 0), str(r[2]), str(r[3])) for r in rows]

    def unreadable(self) -> list[Skipped]:
        """Rows that cannot be read back, found without moving them (for a read-only look)."""
        found = []
        with self._lock:
            rows = self.db.execute(f"{self._events_select} ORDER BY id").fetchall()
        for row in rows:
            reason = unreadable_row(row)
            if not isinstance(reason, Event):
                match = row[1] if isinstance(row[1], int) else 0
                found.append(Skipped(int(str(row[0])), match, str(row[3]), reason))
        return found

    def latest_match(self) -> int:
        """The latest match anything is stored for, ended or not, to resume from (0:
        none yet, or only the players who sat down before the first)."""
        with self._lock:
            row = self.db.execute("SELECT MAX(match) FROM events").fetchone()
        return row[0] if row and isinstance(row[0], int) else 0

    def check(self) -> str:
        with self._lock:
            row = self.db.execute("PRAGMA quick_check").fetchone()
        return str(row[0])
