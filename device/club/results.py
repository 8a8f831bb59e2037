"""A table's result message (see ``device.club.topics``) read back as a value, and the
standings over the results: wins, then points, then spread.

A table's match in an event round is one game between those seated there: each player's
points are the sum of the match's scored rounds; the highest sum wins (a draw is a win for
each of those level, as the box's own history counts it); a player's spread is their sum
less the best sum of the others at the table (0 alone at a table). A bye scores nothing."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import CuberefError


@dataclass(frozen=True)
class Result:
    table: int
    match: str
    round: int
    event_round: int | None
    final: bool
    #: Each player's name and points in this round, in the table's order.
    scores: tuple[tuple[str, int], ...]
    #: The message as it came: its words, for the scoreboard.
    payload: str

    @property
    def key(self) -> tuple[int, str, int]:
        """What makes it one result however often it arrives."""
        return self.table, self.match, self.round


def _whole(value: Any, what: str, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise CuberefError(f"A result's {what} must be a whole number of {least} or more.")
    return value


def read(table: int, payload: bytes | str) -> Result:
    """The result that table ``table`` published (the topic names the table, so that a
    message cannot speak for another); one sentence where it is not one."""
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        raise CuberefError(f"Table {table} sent a result that is not JSON.") from None
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise CuberefError(f"Table {table} sent a result without its players.")
    scores = []
    for player in data["players"]:
        if not isinstance(player, dict) or not isinstance(player.get("name"), str):
            raise CuberefError(f"Table {table} sent a result with a player without a name.")
        scores.append((player["name"], _whole(player.get("score"), "score", -10_000)))
    match = data.get("match")
    if not isinstance(match, (str, int)) or isinstance(match, bool) or str(match) == "":
        raise CuberefError(f"Table {table} sent a result without its match.")
    event_round = data.get("event_round")
    text = payload.decode() if isinstance(payload, bytes) else payload
    return Result(
        table=table,
        match=str(match),
        round=_whole(data.get("round"), "round", 1),
        event_round=None if event_round is None else _whole(event_round, "event round", 1),
        final=bool(data.get("final", False)),
        scores=tuple(scores),
        payload=text,
    )


@dataclass(frozen=True)
class Standing:
    name: str
    played: int
    won: int
    points: int
    spread: int

    def row(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "played": self.played,
            "won": self.won,
            "points": self.points,
            "spread": self.spread,
        }


def match_totals(results: Iterable[Result]) -> dict[tuple[int, int, str], dict[str, int]]:
    """Each (event round, table, match): every player's sum over its scored rounds.
    Results outside the event's rounds (a box not seated) count for nothing."""
    totals: dict[tuple[int, int, str], dict[str, int]] = defaultdict(dict)
    for result in results:
        if result.event_round is None:
            continue
        sums = totals[(result.event_round, result.table, result.match)]
        for name, points in result.scores:
            sums[name] = sums.get(name, 0) + points
    return totals


def standings(results: Iterable[Result], players: Sequence[str] = ()) -> list[Standing]:
    """Every player (those of the event first known, then any other name a table sent):
    most wins, then most points, then the best spread, then by name."""
    rows = {name: [0, 0, 0, 0] for name in players}
    for sums in match_totals(results).values():
        best = max(sums.values())
        for name, total in sums.items():
            row = rows.setdefault(name, [0, 0, 0, 0])
            others = [v for n, v in sums.items() if n != name]
            row[0] += 1
            row[1] += total == best
            row[2] += total
            row[3] += total - max(others) if others else 0
    ranked = sorted(rows.items(), key=lambda item: (-item[1][1], -item[1][2], -item[1][3], item[0]))
    return [Standing(name, *row) for name, row in ranked]
