"""An event on a real broker for the club tests: the director serving, and boxes'
reporters (each with its own outbox) to play its tables."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from device.club import broker, credentials
from device.club.event import Event, parse
from device.club.outbox import Outbox
from device.club.reporter import Club, Reporter

EVENT = "tuesday"
PLAYERS = [f"P{n:02d}" for n in range(1, 9)]


def make_event(folder: Path, tables: int = 2, **more: Any) -> Event:
    raw = {"event": EVENT, "players": PLAYERS, "port": broker.free_port(), "bind": "127.0.0.1"}
    chosen = parse({**raw, **more}, folder)
    credentials.make_tables(chosen.folder, tables)
    return chosen


def reporter(
    chosen: Event, table: int, box_folder: Path, broker_url: str | None = None
) -> Reporter:
    secret = credentials.read_secret(credentials.secret_path(chosen.folder, f"table-{table}"))
    url = broker_url or f"mqtt://127.0.0.1:{chosen.port}"
    box_folder.mkdir(parents=True, exist_ok=True)
    return Reporter(Club(url, chosen.name, table, secret), Outbox(box_folder / "matches.db"))


def scored(match: int, number: int, final: bool = False, **scores: int) -> dict[str, Any]:
    words = [{"word": "dart", "status": "scored", "points": 1}]
    players = [{"name": n, "score": s, "words": words} for n, s in scores.items()]
    return {"match": match, "round": number, "final": final, "players": players}


def until(done: Callable[[], object], seconds: float = 10.0) -> None:
    """Waits for ``done`` to hold (what arrives over the broker takes its own time)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.02)
