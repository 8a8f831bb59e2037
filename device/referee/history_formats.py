"""The evening as ``cuberef history`` prints it and the players' page sends it: one JSON
document, CSV (a row a side a round), or plain text; and the ``--since`` day it takes."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from device.base.strings import plural, say, translated
from device.base.wording import game_title, names_and, winners_line, word_said
from device.referee.history import PastMatch, PastRound, SideRound, Word
from device.referee.standings import Standing, standings, team_standings
from engine.errors import CuberefError


def since_date(text: str) -> float:
    """``--since`` (an ISO 8601 date, or a date and time) as a wall-clock time, here; a
    day before any clock's start is the start of time."""
    try:
        day = datetime.fromisoformat(text)
    except ValueError:
        raise CuberefError(
            f"--since {text!r} is not a date cuberef can read; give it as YYYY-MM-DD, "
            "such as 2026-12-04."
        ) from None
    try:
        return day.timestamp()
    except (ValueError, OverflowError, OSError):  # before the clocks' epoch: every match
        return 0.0


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
    "by_table",
    "grid",
    "unused",
)


def csv_text(matches: Sequence[PastMatch]) -> str:
    """One row a side a round; ``words`` as ``word:status:points`` separated by spaces,
    ``by`` who typed each of them, ``members`` both separated by "; "; ``by_table`` the
    words the table's own ruling decided, separated by spaces; an Ad-Lib
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
                        " ".join(w.word for w in side.words if w.by_table),
                        "/".join(crossword.grid) if crossword else "",
                        " ".join(f"{face}:{points}" for face, points in crossword.unused)
                        if crossword
                        else "",
                    )
                )
    return out.getvalue()


def text_lines(matches: Sequence[PastMatch], language: str = "en") -> list[str]:
    """The matches and the standings as a person reads them, in ``language``: each word
    as the score screen says it (the spelling it counted as, the table's rulings), an
    Ad-Lib crossword with its rows and unused cubes."""
    lines: list[str] = []
    for match in matches:
        began = datetime.fromtimestamp(match.started).strftime("%Y-%m-%d %H:%M")
        ended = datetime.fromtimestamp(match.ended).strftime("%H:%M") if match.ended else ""
        result = winners_line(match.winners, language) if match.winners else ""
        game = game_title(match.game, language)
        when = say("history-when", language, began=began, ended=ended) if ended else began
        head = say("history-match", language, number=match.number, game=game, when=when)
        lines.append(f"{head} {result or say('history-no-winner', language)}.")
        for side in match.sides:
            together = "" if side.members == (side.name,) else f" ({', '.join(side.members)})"
            lines.append(f"  {side.name}{together}: {side.score}")
        for done in match.rounds:
            shown, agreed = done.shown or done.number, match.agreed
            number = (
                say("history-round-of", language, number=shown, rounds=agreed)
                if agreed
                else say("history-round", language, number=shown)
            )
            number += f" · {done.holder}" if done.holder else ""
            tray = done.board or done.roll or say("history-no-roll", language)
            lines.append(f"  {number}: {tray}")
            for played in done.sides:
                lines += _side_lines(played, language)
    if not matches:
        return lines
    lines.append(say("history-standings", language))
    lines += [_standing_line(row, language) for row in standings(matches)]
    teams = team_standings(matches)
    if teams:
        lines.append(say("history-teams", language))
        lines += [_standing_line(row, language) for row in teams]
    return lines


def _side_lines(played: SideRound, language: str) -> list[str]:
    """A side's round: its score and words; an Ad-Lib crossword's rows, unused cubes (what
    they take off) and errors."""
    said = ", ".join(" ".join(word_said(*_fields(w), language=language)) for w in played.words)
    lines = [f"    {played.name} {played.score}" + (f": {said}" if said else "")]
    crossword = played.crossword
    if crossword is not None:
        lines += [f"      {row}" for row in crossword.grid]
        faces = " ".join(face for face, _points in crossword.unused) or say("none", language)
        taken = sum(points for _face, points in crossword.unused)
        lines.append(f"      {say('unused', language, faces=faces)} −{taken}")
        lines += [f"      {translated(error, language)}" for error in crossword.errors]
    return lines


def _fields(word: Word) -> tuple[str, str, int, tuple[str, ...], bool, str]:
    return word.word, word.status, word.points, word.counted, word.by_table, word.refusal


def _standing_line(row: Standing, language: str) -> str:
    """A player (and the other names they played under) or a team (and its members)."""
    others = [name for name in row.names if name != row.name]
    named = f"{row.name} ({', '.join(others)})" if others else row.name
    return "  " + say(
        "history-standing",
        language,
        name=named,
        played=row.played,
        won=row.won,
        points=plural("n-points", row.points, language),
    )


def nothing_since(since: str, stored: int, last: float | None, language: str = "en") -> str:
    """What ``history`` says where no match began on ``since`` or later: how many matches
    the store holds, and the day the last began (none: the store is empty)."""
    if not stored or last is None:
        return say("history-none", language)
    day = datetime.fromtimestamp(last).date().isoformat()
    matches = plural("n-matches", stored, language)
    return say("history-none-since", language, since=since, matches=matches, day=day)
