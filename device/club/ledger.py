"""The director's own store: SQLite in the event's folder (``club.db``), every result kept
once (by table, match and round) and every round's seating. Written at once (WAL, full
sync), so a director restarted between rounds, or mid-round, loses nothing."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

from device.club.pairing import Seating
from device.club.results import Result

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    table_no INTEGER NOT NULL, match TEXT NOT NULL, round INTEGER NOT NULL,
    event_round INTEGER, final INTEGER NOT NULL, scores TEXT NOT NULL, payload TEXT NOT NULL,
    received REAL NOT NULL, PRIMARY KEY (table_no, match, round));
CREATE TABLE IF NOT EXISTS seatings (
    round INTEGER NOT NULL, table_no INTEGER NOT NULL, players TEXT NOT NULL,
    PRIMARY KEY (round, table_no));
CREATE TABLE IF NOT EXISTS byes (round INTEGER NOT NULL, name TEXT NOT NULL);
"""


class Ledger:
    """``club.db``; one lock, since the broker's thread writes and the page's reads."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "club.db"
        self.lock = threading.Lock()
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(SCHEMA)

    def record(self, result: Result) -> bool:
        """Keeps ``result``; False where it was kept before (a message delivered twice)."""
        with self.lock:
            added = self.db.execute(
                "INSERT OR IGNORE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    result.table,
                    result.match,
                    result.round,
                    result.event_round,
                    int(result.final),
                    json.dumps(result.scores),
                    result.payload,
                    time.time(),
                ),
            )
            return added.rowcount == 1

    def results(self) -> list[Result]:
        with self.lock:
            rows = self.db.execute(
                "SELECT table_no, match, round, event_round, final, scores, payload FROM results"
                " ORDER BY received, table_no, match, round"
            ).fetchall()
        return [
            Result(t, m, r, e, bool(f), tuple((n, p) for n, p in json.loads(s)), payload)
            for t, m, r, e, f, s, payload in rows
        ]

    def seat(self, seating: Seating) -> None:
        """Keeps a round's seating (once: a round is seated once)."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                for number, players in enumerate(seating.tables, 1):
                    self.db.execute(
                        "INSERT INTO seatings VALUES (?, ?, ?)",
                        (seating.round, number, json.dumps(list(players))),
                    )
                self.db.executemany(
                    "INSERT INTO byes VALUES (?, ?)", [(seating.round, n) for n in seating.byes]
                )
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def seatings(self) -> list[Seating]:
        """Every seated round, in order."""
        with self.lock:
            rows = self.db.execute(
                "SELECT round, table_no, players FROM seatings ORDER BY round, table_no"
            ).fetchall()
            byes = self.db.execute("SELECT round, name FROM byes ORDER BY rowid").fetchall()
        rounds = sorted({r for r, _, _ in rows} | {r for r, _ in byes})
        return [
            Seating(
                number,
                tuple(tuple(json.loads(p)) for r, _, p in rows if r == number),
                tuple(n for r, n in byes if r == number),
            )
            for number in rounds
        ]

    def close(self) -> None:
        with self.lock:
            self.db.close()
