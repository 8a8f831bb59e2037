"""The evening as ``cuberef history`` prints it and the players' page sends it: one JSON
document, CSV (a row a side a round), or plain text; and the ``--since`` day it takes."""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from device.base.wording import names_and
from device.referee.history import PastMatch, PastRound, Word, standings
from engine.errors import CuberefError


def since_date(text: str) -> float:
    """``--since YYYY-MM-DD`` as the wall-clock time of that day's start, here."""
    try:
        return datetime.strptime(text, "%Y-%m-%d").timestamp()
    except (ValueError, OverflowError, OSError):  # not a date, or one no clock can hold
        raise CuberefError(
            f"--since {text!r} is not a date cuberef can read; give it as YYYY-MM-DD, "
            "such as 2026-12-04."
        ) from None


def when(at: float | None) -> str | None:
    """A stored time as ISO 8601 with this machine's offset, to the second."""
    if at is None:
        return None
    return datetime.fromtimestamp(at).astimezone().isoformat(timespec="seconds")


def winner(match: PastMatch) -> str | None:
    """The winner's name; a draw's names ("Ann and Ben"); None before the end."""
    return names_and(match.winners) if match.winners else None


def document(matches: Sequence[PastMatch]) -> dict[str, Any]:
    """``cuberef history --json`` (and the players' page's ``/history``)."""
    return {
        "matches": [
            {
                "id": match.number,
                "game": match.game.id,
                "started": when(match.started),
                "ended": when(match.ended),
                "winner": winner(match),
                "sides": [
                    {"name": s.name, "members": list(s.members), "score": s.score}
                    for s in match.sides
                ],
                "rounds": [_round_json(match, done) for done in match.rounds],
            }
            for match in matches
        ],
        "standings": [dataclasses.asdict(standing) for standing in standings(matches)],
    }


def _round_json(match: PastMatch, done: PastRound) -> dict[str, Any]:
    shown: dict[str, Any] = {"round": done.number}
    if match.game.is_tray:
        shown["board"] = done.board
    else:
        shown["roll"] = done.roll
    shown["sides"] = [
        {
            "name": side.name,
            "score": side.score,
            "words": [dataclasses.asdict(word) for word in side.words],
        }
        for side in done.sides
    ]
    return shown


CSV_COLUMNS = (
    "match",
    "game",
    "started",
    "ended",
    "winner",
    "round",
    "board_or_roll",
    "side",
    "members",
    "score",
    "words",
)


def csv_text(matches: Sequence[PastMatch]) -> str:
    """One row a side a round; ``words`` as ``word:status:points`` separated by spaces,
    ``members`` separated by "; "."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for match in matches:
        members = {side.name: "; ".join(side.members) for side in match.sides}
        for done in match.rounds:
            for side in done.sides:
                writer.writerow(
                    (
                        match.number,
                        match.game.id,
                        when(match.started),
                        when(match.ended) or "",
                        winner(match) or "",
                        done.number,
                        done.board or done.roll,
                        side.name,
                        members.get(side.name, side.name),
                        side.score,
                        " ".join(f"{w.word}:{w.status}:{w.points}" for w in side.words),
                    )
                )
    return out.getvalue()


def text_lines(matches: Sequence[PastMatch]) -> list[str]:
    """The matches and the standings as a person reads them."""
    lines: list[str] = []
    for match in matches:
        began = datetime.fromtimestamp(match.started).strftime("%Y-%m-%d %H:%M")
        end = datetime.fromtimestamp(match.ended).strftime("%H:%M") if match.ended else "not over"
        over = f"winner {winner(match)}" if match.winners else "no winner yet"
        lines.append(f"Match {match.number}: {match.game.title}, {began} to {end}, {over}.")
        for side in match.sides:
            together = "" if side.members == (side.name,) else f" ({', '.join(side.members)})"
            lines.append(f"  {side.name}{together}: {side.score}")
        for done in match.rounds:
            lines.append(f"  Round {done.number}: {done.board or done.roll or 'roll not kept'}")
            for played in done.sides:
                said = ", ".join(map(_said, played.words))
                lines.append(f"    {played.name} {played.score}" + (f": {said}" if said else ""))
    lines.append("Standings:" if matches else "No match stored.")
    for standing in standings(matches):
        lines.append(
            f"  {standing.name}: played {standing.played}, won {standing.won}, "
            f"{standing.points} points"
        )
    return lines


def _said(word: Word) -> str:
    """A word as the score screen says it: its points, or why it does not count."""
    from device.base.wording import status_words

    counted = word.points if word.status == "scored" else status_words(word.status)
    return f"{word.word.upper()} {counted}"
