"""The match store: every event of a match written to SQLite the moment it happens.

One row per event (the kinds of ``device.events``), each in its own committed
transaction, so a power cut loses at most the event being written. The photos are files
in ``photos/`` beside the database; the event names its photo.

Durability: WAL mode with ``synchronous=FULL``. In WAL mode ``NORMAL`` survives a
crash of the program but may lose the last transactions on a power cut, and a power
cut (someone pulls the plug of the box) is the failure this store exists for. An event
is reported saved (``record`` returns) only after its commit is on the card.

Damage, from the worst down:

- a database that fails ``PRAGMA quick_check`` (or is not one) is moved aside as
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

import contextlib
import errno
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from device.codec import Undecodable
from device.events import Event, Payload, Skipped, dumps, kind_of, parse
from device.inputs import not_regular
from engine.errors import MachineError
from engine.house import HouseList

log = logging.getLogger("cuberef.store")

#: The schema this cuberef writes (``PRAGMA user_version``). 0: the first stores, some of
#: them without the ``round`` column, which is added as 0; 1: no ``house`` table (the
#: table's own rulings), which is added empty.
SCHEMA_VERSION = 2
#: SQLite's primary result codes that mean the file itself is damaged; any other error
#: (a full disk, an I/O error, a locked file) is the machine's and damages nothing.
DAMAGED = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB
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
                why = _disk_reason(error, self.folder)
                self.notice = (
                    f"The match store {self.path} cannot be written ({why}): the match is "
                    "shown as stored, and nothing new is saved until space is freed and the "
                    "box is started again."
                )
                log.error(self.notice)
        self._events_select = _events_select(self.db)

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
            reason = _damage(self.path)
            if reason:
                self._set_aside(reason)
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            _refuse_newer(db, self.path)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            _migrate(db)
        except BaseException:
            db.close()
            raise
        return db

    def _set_aside(self, reason: str) -> None:
        aside = self.path.with_name(f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(self.path) + suffix)
            if part.exists():
                part.rename(Path(str(aside) + suffix))
        self.notice = (
            f"The match store was damaged ({reason}); it was kept as {aside.name} "
            "and a new one begun."
        )
        log.error(self.notice)

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
            reason = _damage_of(db)
            if not reason:
                _refuse_newer(db, self.path)
        except BaseException:
            db.close()
            raise
        if reason:
            db.close()
            raise StoreError(f"The match store {self.path} is damaged ({reason}) and read-only.")
        if announce:
            self.notice = (
                f"The match store {self.path} is on a read-only card: the match is shown "
                "as stored, and nothing new is saved."
            )
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
            raise StoreError("The match store is read-only; this round is not being saved.")
        text = dumps(payload)
        try:
            with self._lock:
                cursor = self.db.execute(
                    "INSERT INTO events (match, round, kind, at, data) VALUES (?, ?, ?, ?, ?)",
                    (match, round_, str(kind), at, text),
                )
        except sqlite3.Error as error:
            raise StoreError(_disk_sentence(str(error))) from None
        log.info("stored %s of match %d round %d", kind, match, round_)
        return Event(int(cursor.lastrowid or 0), match, round_, at, payload)

    def save_photo(self, name: str, data: bytes) -> str:
        """Keep a photo beside the database; returns the name the events refer to.

        A name already taken (a second try at reading the same round) gets a number,
        so no kept photo is ever overwritten."""
        if self.read_only:
            raise StoreError("The match store is read-only; the photo is not kept.")
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
            raise StoreError("The match store is read-only; the table's ruling is not kept.")
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
            raise StoreError(_disk_sentence(str(error))) from None
        said = "forgotten" if allowed is None else "allowed" if allowed else "refused"
        log.info("house list %s: %s %s", language, word, said)

    # Reading -----------------------------------------------------------------------

    def house(self, language: str) -> HouseList:
        """The table's rulings in one language (an old store without the table has none)."""
        try:
            with self._lock:
                rows = self.db.execute(
                    "SELECT word, allowed FROM house WHERE language = ?", (language,)
                ).fetchall()
        except sqlite3.Error:  # a read-only store made before the house list
            rows = []
        allowed = frozenset(str(word) for word, yes in rows if yes)
        refused = frozenset(str(word) for word, yes in rows if not yes)
        return HouseList(language, allowed, refused)

    def events(self, match: int) -> list[Event]:
        """The match's events that read back whole; the others are set aside (moved to
        ``quarantine`` unless the store is read-only) and listed in ``skipped``."""
        with self._lock:
            rows = self.db.execute(
                f"{self._events_select} WHERE match = ? ORDER BY id", (match,)
            ).fetchall()
        read: list[Event] = []
        for row in rows:
            reason = _unreadable(row)
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
            reason = _unreadable(row)
            if not isinstance(reason, Event):
                match = row[1] if isinstance(row[1], int) else 0
                found.append(Skipped(int(str(row[0])), match, str(row[3]), reason))
        return found

    def last_match(self) -> int | None:
        """The match to resume: the latest one, unless it has ended."""
        with self._lock:
            row = self.db.execute(
                "SELECT match, kind FROM events ORDER BY id DESC LIMIT 1"
            ).fetchone()
        if row is None or row[1] == "match-ended" or not isinstance(row[0], int):
            return None
        return int(row[0])

    def check(self) -> str:
        with self._lock:
            row = self.db.execute("PRAGMA quick_check").fetchone()
        return str(row[0])


def _unreadable(row: tuple[object, ...]) -> Event | str:
    """The row as an event, or why it cannot be one: whatever fails in reading it back
    (a wrong type, data nested past any limit) sets the row aside, never stops the box."""
    try:
        return _event(row)
    except RecursionError:
        return "its data is nested too deeply"
    except Exception as error:  # Undecodable, or anything a hand-made row can raise
        return str(error) or type(error).__name__


def _event(row: tuple[object, ...]) -> Event:
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


def _damage(path: Path) -> str | None:
    """Why the database at ``path`` is damaged, or None if it is sound; an error that is
    the disk's (full, I/O) is raised, for it says nothing of the file."""
    db = sqlite3.connect(path)
    try:
        return _damage_of(db)
    finally:
        db.close()


def _damage_of(db: sqlite3.Connection) -> str | None:
    try:
        result = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorcode", 0) & 0xFF in DAMAGED:
            return str(error)
        raise
    if result != [("ok",)]:
        return "; ".join(str(r[0]) for r in result[:3])
    return None


def _refuse_newer(db: sqlite3.Connection, path: Path) -> None:
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"The match store {path} was written by a newer cuberef (schema {version}; this "
            f"one reads up to {SCHEMA_VERSION}); update cuberef, or move the file away to "
            "begin a new store."
        )


def _migrate(db: sqlite3.Connection) -> None:
    """Bring an older store up to ``SCHEMA_VERSION`` (in one transaction)."""
    if int(db.execute("PRAGMA user_version").fetchone()[0]) == SCHEMA_VERSION:
        return
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


def _events_select(db: sqlite3.Connection) -> str:
    """The events' columns as this cuberef reads them, from any schema it can read (a
    read-only store of an older schema is not migrated)."""
    columns = {str(row[1]) for row in db.execute("PRAGMA table_info(events)")}
    round_ = "round" if "round" in columns or not columns else "0"
    return f"SELECT id, match, {round_}, kind, at, data FROM events"


def _disk_reason(error: sqlite3.Error, folder: Path) -> str:
    """SQLite says "disk I/O error" where it cannot grow its -shm index on a full disk."""
    try:
        free = os.statvfs(folder)
        full = free.f_bavail * free.f_frsize < 2**20
    except OSError:
        full = False
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    return "the disk is full" if full or code == 13 else str(error)  # 13: SQLITE_FULL


def _disk_sentence(detail: str, code: int | None = None) -> str:
    if code == errno.ENOSPC or "full" in detail.lower():
        return (
            "The disk is full, so this round is not being saved; "
            "the earlier rounds are safe. Free some space on the card."
        )
    return f"The match store cannot write ({detail}); the earlier rounds are safe."
