"""The event's rounds as the director's store leaves them: what the next round's seating
needs (``Past``), the next seating itself, and the standings document of ``cuberef club
standings``."""

from __future__ import annotations

import csv
import io
import sqlite3
from collections import Counter
from itertools import combinations
from typing import Any

from device.club.event import Event
from device.club.ledger import Ledger
from device.club.pairing import Past, Seating, seat
from device.club.results import Result, match_totals, standings
from engine.errors import CuberefError


def past(event: Event, seatings: list[Seating], results: list[Result]) -> Past:
    """The ranking (none before any result), who has met whom, and each player's byes."""
    counted = match_totals(results)
    ranking = tuple(s.name for s in standings(results, event.players)) if counted else ()
    met = frozenset(
        frozenset(pair)
        for seating in seatings
        for table in seating.tables
        for pair in combinations(table, 2)
    )
    byes = Counter(name for seating in seatings for name in seating.byes)
    return Past(ranking, met, tuple(sorted(byes.items())))


def unreported(seating: Seating, results: list[Result]) -> list[int]:
    """The tables of ``seating`` that have sent no result of its round."""
    reported = {r.table for r in results if r.event_round == seating.round}
    return [n for n in range(1, len(seating.tables) + 1) if n not in reported]


def next_seating(event: Event, ledger: Ledger, force: bool = False) -> Seating:
    """Seats the round after the last one seated and keeps it; one sentence where the
    event is over or (without ``force``) a table has not reported the last round."""
    seatings, results = ledger.seatings(), ledger.results()
    number = len(seatings) + 1
    if number > event.rounds:
        raise CuberefError(f"All {event.rounds} rounds of {event.name} are seated already.")
    if seatings and not force:
        missing = unreported(seatings[-1], results)
        if missing:
            tables = ", ".join(str(n) for n in missing)
            raise CuberefError(
                f"Round {seatings[-1].round} has no result from table {tables} yet; "
                "wait for it, or pair anyway with --force."
            )
    seating = seat(
        event.pairing,
        event.players,
        number,
        past(event, seatings, results),
        (event.table_size, *event.bounds),
        event.seed,
        event.sitting_out(number),
    )
    try:
        ledger.seat(seating)
    except sqlite3.IntegrityError:  # seated meanwhile (the page and the command at once)
        raise CuberefError(f"Round {number} was seated meanwhile; look again.") from None
    return seating


def seating_line(table: int, round_number: int, players: tuple[str, ...]) -> str:
    """What a box shows of its seat: ``Table 3 · round 2: Ann, Ben, Cy, Dee``."""
    return f"Table {table} · round {round_number}: {', '.join(players)}"


def document(event: Event, ledger: Ledger) -> dict[str, Any]:
    """``club standings --json``: ``{"event", "rounds": [{"round", "tables": [{"table",
    "players"}], "byes"}], "standings": [{"name", "played", "won", "points", "spread"}]}``."""
    rounds = [
        {
            "round": seating.round,
            "tables": [
                {"table": number, "players": list(players)}
                for number, players in enumerate(seating.tables, 1)
            ],
            "byes": list(seating.byes),
        }
        for seating in ledger.seatings()
    ]
    rows = [s.row() for s in standings(ledger.results(), event.players)]
    return {"event": event.name, "rounds": rounds, "standings": rows}


def csv_text(document: dict[str, Any]) -> str:
    """One row a player: name, played, won, points, spread."""
    out = io.StringIO()
    writer = csv.DictWriter(out, ["name", "played", "won", "points", "spread"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(document["standings"])
    return out.getvalue()


def text_lines(document: dict[str, Any]) -> list[str]:
    lines = [f"Event {document['event']}"]
    for seated in document["rounds"]:
        for table in seated["tables"]:
            lines.append(seating_line(table["table"], seated["round"], tuple(table["players"])))
        if seated["byes"]:
            lines.append(f"Round {seated['round']} byes: {', '.join(seated['byes'])}")
    lines.append("Standings (won, points, spread):")
    for place, row in enumerate(document["standings"], 1):
        lines.append(
            f"{place:>3}. {row['name']}: {row['won']} of {row['played']}, "
            f"{row['points']} points, spread {row['spread']:+d}"
        )
    return lines
