"""A box's results not yet taken by the broker, kept in SQLite so that a restart sends
them again (the box's own store file; each row until the broker's PUBACK)."""

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

    def close(self) -> None:
        with self.lock:
            self.db.close()
