"""A box's results not yet taken by the broker, kept in SQLite so that a restart sends
them again (a file in the box's store folder; each row until the broker's PUBACK), and
the event's round each of the box's matches was played in."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

OUTBOX_SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    key TEXT PRIMARY KEY,
    topic TEXT NOT NULL,
    payload TEXT NOT NULL,
    at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seated (
    match TEXT PRIMARY KEY,
    event_round INTEGER NOT NULL
);
"""


class Outbox:
    """The ``outbox`` table of the SQLite file at ``path``; safe from any thread."""

    def __init__(self, path: Path) -> None:
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(OUTBOX_SCHEMA)

    def add(self, key: str, topic: str, payload: str) -> None:
        """Kept before it is sent; the same key again keeps the first (one result once)."""
        with self.lock:
            self.db.execute(
                "INSERT OR IGNORE INTO outbox VALUES (?, ?, ?, ?)",
                (key, topic, payload, time.time()),
            )

    def pending(self) -> list[tuple[str, str, str]]:
        """(key, topic, payload) of each result not yet taken, oldest first."""
        with self.lock:
            rows = self.db.execute("SELECT key, topic, payload FROM outbox ORDER BY at, key")
            return [(str(k), str(t), str(p)) for k, t, p in rows.fetchall()]

    def done(self, key: str) -> None:
        with self.lock:
            self.db.execute("DELETE FROM outbox WHERE key = ?", (key,))

    def event_round(self, match: str, seated: int | None) -> int | None:
        """The event's round a match belongs to: the seat's round when its first result
        was made, kept, so that a round seated meanwhile never moves a match."""
        with self.lock:
            if seated is not None:
                self.db.execute("INSERT OR IGNORE INTO seated VALUES (?, ?)", (match, seated))
            row = self.db.execute("SELECT event_round FROM seated WHERE match = ?", (match,))
            found = row.fetchone()
        return int(found[0]) if found else None

    def close(self) -> None:
        with self.lock:
            self.db.close()
