"""What each state of the referee puts on the screen, as a ``render.View``."""

from __future__ import annotations

import math

from device.flow import State
from device.guard import qr_secret
from device.matchplay import BoxMatch, Round
from device.readings import doubtful_of, faces_of, size_of
from device.referee import Referee
from device.render import Line, View
from engine.adlib import Verdict
from engine.adlib.best import BestCrossword
from engine.adlib.match import start_value


def clock_text(seconds: float) -> str:
    """Minutes and seconds, rounded up: the clock shows 0:00 only when time is up.

    >>> clock_text(180), clock_text(59.2), clock_text(0)
    ('3:00', '1:00', '0:00')
    """
    whole = math.ceil(max(0.0, seconds) - 1e-9)
    return f"{whole // 60}:{whole % 60:02d}"


#: Titles short enough to leave room for the round and the player on an 800x480 screen.
SHORT_TITLES = {"adlib": "Ad-Lib"}


def view_of(referee: Referee) -> View:
    game, state = referee.game, referee.state
    match = referee.match
    name = SHORT_TITLES.get(game.id, game.title)
    title = game.title
    done = referee.round
    if done is not None and match is not None:
        title = f"{name} · {match.round_of(done)}"
        if done.player:
            title += f" · {done.player}"
    faces: tuple[str, ...] = ()
    values: tuple[int, ...] = ()
    doubtful: frozenset[int] = frozenset()
    size = 0
    if done is not None and done.reading is not None and state is not State.MATCH:
        faces, size = tuple(map(str, faces_of(done.reading))), size_of(done.reading)
        doubtful = doubtful_of(done.reading)
        if not game.is_tray:
            values = tuple(start_value(face) for face in faces)  # a joker: 0
    lines: tuple[Line, ...] = ()
    table: tuple[tuple[Line, ...], ...] = ()
    clock = ""
    caption = ""
    message = referee.message
    if state is State.READING:
        message = "Reading the roll..."
    elif state is State.SCORING:
        message = "Scoring..."
    elif state is State.TIMING:
        clock = clock_text(referee.seconds_left)
        if doubtful:
            message = "Orange cubes may be misread: touch one to change it."
        lines = _typing_lines(referee)
    elif state is State.TIME_UP:
        clock = "0:00"
    elif state is State.STARTER and match is not None:
        title = f"{name} · who starts"
        lines = tuple(Line(who, f"{face} = {value}", "head") for who, face, value in match.throws)
    if state in (State.TIMING, State.TIME_UP) and done is not None and match is not None:
        following = match.following if done.player else ""
        if following and following != done.player:
            lines = (*lines, Line(f"Next: {following}", kind="head"))
    if state is State.SCORED and done is not None:
        if game.is_tray:
            message = f"{len(done.found)} words on the tray, {done.maximum} points at most."
            lines = tray_lines(referee)
        elif done.verdict is not None:
            message = " ".join((*done.notes, "Press for the match table."))
            table, lines = crossword_table(done.verdict)
            faces, size, doubtful, values = (), 0, frozenset(), ()
            if done.best is not None and done.best.rows:
                caption = _best_caption(done.best, done)
                faces, size = _grid_cells(tuple(done.best.rows)), _grid_width(done.best.rows)
    if state is State.MATCH and match is not None:
        lines = match_lines(match)
        title = f"{name} · match {match.number}"
    qr = ""
    if referee.page_address and state in (State.IDLE, State.MATCH):
        secret = qr_secret(referee.join_code, referee.page_key) if referee.page_key else ""
        qr = f"{referee.page_address}?code={secret or referee.join_code}"
        message = f"{message} Phones: {referee.page_address} code {referee.join_code}".strip()
    if state is State.FAILSAFE:
        faces, values = (), ()
    return View(
        title=title,
        faces=faces,
        size=size,
        doubtful=doubtful,
        clock=clock,
        urgent=state is State.TIMING and referee.seconds_left <= 10,
        message=message,
        lines=lines,
        notice=referee.notice or "",
        big_clock=state in (State.TIMING, State.TIME_UP),
        values=values,
        qr=qr,
        caption=caption,
        table=table,
    )


def _best_caption(best: BestCrossword, done: Round) -> str:
    kind = "Best possible" if best.proven_optimal else "Best found"
    yours = " (yours)" if tuple(best.rows) == tuple(done.grid) else ""
    return f"{kind}: {best.score}{yours}"


def _typing_lines(referee: Referee) -> tuple[Line, ...]:
    """While the timer runs: how many words each player has handed in, never the words."""
    done = referee.round
    if done is None or done.desk is None:
        return ()
    lines = [
        Line(name, f"{len(done.desk.words(name))} words", "head")
        for name in referee.players_with_lists()
    ]
    keyboard = referee.keyboard
    if keyboard is not None:
        lines.append(Line(f"{keyboard.player}: {keyboard.entry.upper()}_", kind="head"))
        if keyboard.said:
            lines.append(Line(keyboard.said))
    return tuple(lines)


def _grid_width(grid: tuple[str, ...] | list[str]) -> int:
    return max((len(row) for row in grid), default=0)


def _grid_cells(grid: tuple[str, ...]) -> tuple[str, ...]:
    """A crossword's squares row by row, ``""`` for an empty one, to draw as tiles."""
    width = _grid_width(grid)
    return tuple("" if ch in ". " else ch for row in grid for ch in row.ljust(width))


#: How a word on a player's list is shown beside it ("" for its points).
STATUS = {
    "scored": "",
    "crossed-off": "crossed off",
    "not-on-board": "not on tray",
    "not-a-word": "not a word",
    "too-short": "too short",
    "repeated": "repeated",
}


def tray_lines(referee: Referee) -> tuple[Line, ...]:
    """Each player's words with their points (crossed off, or why they do not count), or
    with no lists handed in, every word on the tray."""
    done = referee.round
    assert done is not None
    if done.result is None:
        return tuple(Line(w.word.upper(), str(w.points)) for w in done.found)
    lines: list[Line] = []
    for player in done.result.players:
        lines.append(Line(player.name, str(player.score), "head"))
        for entry in player.entries:
            shown = STATUS.get(entry.status, entry.status) or str(entry.points)
            lines.append(Line(entry.word.upper(), shown))
    return tuple(lines)


def crossword_table(verdict: Verdict) -> tuple[tuple[tuple[Line, ...], ...], tuple[Line, ...]]:
    """A crossword's score as the rulebook adds it up: the across words and their sum
    beside the down words and theirs; below, the unused cubes' values taken off, what is
    wrong with it, and the total."""
    table = tuple(
        (
            Line(title, str(sum(w.points for w in words)), "head"),
            *(Line(w.text.upper() + ("" if w.valid else " ✗"), str(w.points)) for w in words),
        )
        for title, words in (("Across", verdict.across), ("Down", verdict.down))
    )
    unused = " ".join("★" if str(face) == "*" else str(face) for face in verdict.unused)
    penalty = f"−{verdict.unused_points}" if verdict.unused_points else "0"
    lines = [Line(f"Unused {unused or 'none'}", penalty, "head")]
    lines += [Line(error, kind="head") for error in verdict.errors]
    total = f"{verdict.score} points" if verdict.valid else "0: not valid"
    lines.append(Line("Total", total, "total"))
    return table, tuple(lines)


def match_lines(match: BoxMatch) -> tuple[Line, ...]:
    """The match table: the winner once there is one, every side's place and score, and
    how far the match has come."""
    lines: list[Line] = []
    winners = match.winners()
    if winners:
        lines.append(Line(f"Winner: {' and '.join(winners)}", kind="head"))
    standings = match.model.standings() if match.model is not None else ()
    lines += [
        Line(f"{standing.place}. {standing.side.name}", str(standing.score), "head")
        for standing in standings
    ]
    played = match.model.rounds_played if match.model is not None else 0
    agreed = match.started.rounds
    so_far = f"{played} of {agreed} rounds played" if agreed else f"{played} rounds played"
    if played == 1 and not agreed:
        so_far = "1 round played"
    if match.started.target:
        so_far += f"; target {match.started.target}"
    lines.append(Line(so_far))
    return tuple(lines)
