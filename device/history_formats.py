"""The evening as ``cuberef history`` prints it and the players' page sends it: one JSON
document, CSV (a row a side a round), or plain text; and the ``--since`` day it takes."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from device.history import (
    PastMatch,
    PastRound,
    SideRound,
    Standing,
    Word,
    standings,
    team_standings,
)
from device.wording import names_and
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
        "standings": [_standing_json(row, "names") for row in standings(matches)],
        "teams": [_standing_json(row, "members") for row in team_standings(matches)],
    }


def _standing_json(row: Standing, names: str) -> dict[str, Any]:
    """A player's row (``names``: every name they played under, where renamed) or a
    team's (``members``)."""
    shown: dict[str, Any] = {
        "name": row.name,
        "played": row.played,
        "won": row.won,
        "points": row.points,
    }
    return {**shown, names: list(row.names)} if row.names else shown


def _round_json(match: PastMatch, done: PastRound) -> dict[str, Any]:
    shown: dict[str, Any] = {"round": done.number, "screen_round": done.shown}
    if match.game.is_tray:
        shown["board"] = done.board
    else:
        shown["roll"] = done.roll
    shown["sides"] = [_side_json(side) for side in done.sides]
    return shown


def _side_json(side: SideRound) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "name": side.name,
        "score": side.score,
        "words": [
            {
                "word": w.word,
                "status": w.status,
                "points": w.points,
                "by": w.by,
                "counted": list(w.counted),
                "by_table": w.by_table,
            }
            for w in side.words
        ],
    }
    if side.crossword is not None:
        crossword = side.crossword
        shown["grid"] = list(crossword.grid)
        shown["unused"] = [{"face": face, "points": points} for face, points in crossword.unused]
        shown["errors"] = list(crossword.errors)
    return shown


CSV_COLUMNS = (
    "match",
    "game",
    "started",
    "ended",
    "winner",
    "round",
    "screen_round",
    "board_or_roll",
    "side",
    "members",
    "score",
    "words",
    "by",
    "grid",
    "unused",
)


def csv_text(matches: Sequence[PastMatch]) -> str:
    """One row a side a round; ``words`` as ``word:status:points`` separated by spaces,
    ``by`` who typed each of them, ``members`` both separated by "; "; an Ad-Lib
    crossword's ``grid`` its rows separated by "/", ``unused`` its unused cubes as
    ``face:points`` separated by spaces."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for match in matches:
        members = {side.name: "; ".join(side.members) for side in match.sides}
        for done in match.rounds:
            for side in done.sides:
                crossword = side.crossword
                writer.writerow(
                    (
                        match.number,
                        match.game.id,
                        when(match.started),
                        when(match.ended) or "",
                        winner(match) or "",
                        done.number,
                        done.shown,
                        done.board or done.roll,
                        side.name,
                        members.get(side.name, side.name),
                        side.score,
                        " ".join(f"{w.word}:{w.status}:{w.points}" for w in side.words),
                        "; ".join(w.by for w in side.words),
                        "/".join(crossword.grid) if crossword else "",
                        " ".join(f"{face}:{points}" for face, points in crossword.unused)
                        if crossword
                        else "",
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
    lines += [_standing_line(row) for row in standings(matches)]
    teams = team_standings(matches)
    if teams:
        lines.append("Teams:")
        lines += [_standing_line(row) for row in teams]
    return lines


def _standing_line(row: Standing) -> str:
    """A player (and the names they played under) or a team (and its members)."""
    named = (
        f"{row.name} ({', '.join(n for n in row.names if n != row.name)})"
        if row.names
        else row.name
    )
    return f"  {named}: played {row.played}, won {row.won}, {row.points} points"


def _said(word: Word) -> str:
    """A word as the score screen says it: its points, or why it does not count."""
    from device.wording import status_words

    counted = word.points if word.status == "scored" else status_words(word.status)
    return f"{word.word.upper()} {counted}"
