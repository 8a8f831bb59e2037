"""What each state of the referee puts on the screen, as a ``render.View``."""

from __future__ import annotations

import math

from device.referee import Referee, State
from device.render import View


def clock_text(seconds: float) -> str:
    """Minutes and seconds, rounded up: the clock shows 0:00 only when time is up.

    >>> clock_text(180), clock_text(59.2), clock_text(0)
    ('3:00', '1:00', '0:00')
    """
    whole = math.ceil(max(0.0, seconds) - 1e-9)
    return f"{whole // 60}:{whole % 60:02d}"


def view_of(referee: Referee) -> View:
    game, state = referee.game, referee.state
    match = referee.match
    title = game.title
    round_ = referee.round
    if round_ is not None:
        title = f"{game.title} · round {round_.number}"
        if not game.is_tray and round_.player:
            title += f" · {round_.player}"
    faces: tuple[str, ...] = ()
    doubtful: frozenset[int] = frozenset()
    size = 0
    if round_ is not None and state is not State.MATCH:
        faces, doubtful, size = round_.reading.faces, round_.reading.doubtful, round_.reading.size
    lines: tuple[str, ...] = ()
    clock = ""
    message = referee.message
    if state is State.READING:
        message = "Reading the roll..."
    elif state is State.SCORING:
        message = "Scoring..."
    elif state is State.TIMING:
        clock = clock_text(referee.seconds_left)
        if doubtful:
            message = "Orange cubes may be misread: touch one to change it."
    elif state is State.TIME_UP:
        clock = "0:00"
    hint = ""
    if state is State.SCORED and round_ is not None:
        lines = _score_lines(referee)
        hint = "press: the table"
        if game.is_tray:
            message = f"{len(round_.words)} words, {round_.maximum} points at most."
        elif round_.crossword is not None:
            cross = round_.crossword
            verdict = f"{cross.score} points" if cross.valid else "not valid, no score"
            message = f"{round_.player}: {verdict}."
            faces, size, doubtful = _grid_cells(cross.grid), _grid_width(cross.grid), frozenset()
    if state is State.MATCH and match is not None:
        lines = _match_lines(referee)
        hint = "press: new match" if match.ended else "press: next round"
        title = f"{game.title} · match {match.number}"
    if state is State.FAILSAFE:
        faces = ()
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
        hint=hint,
    )


def _grid_width(grid: tuple[str, ...]) -> int:
    return max((len(row) for row in grid), default=0)


def _grid_cells(grid: tuple[str, ...]) -> tuple[str, ...]:
    """A crossword's squares row by row, ``""`` for an empty one, to draw as tiles."""
    width = _grid_width(grid)
    return tuple("" if ch in ". " else ch for row in grid for ch in row.ljust(width))


def _score_lines(referee: Referee) -> tuple[str, ...]:
    done = referee.round
    assert done is not None
    if referee.game.is_tray:
        return tuple(f"{w.word.upper()}  {w.points}" for w in done.words)
    lines: list[str] = []
    if done.crossword is not None:
        cross = done.crossword
        lines += [f"{w.word.upper()}  {w.points}{'' if w.valid else '  ✗'}" for w in cross.words]
        struck = [w.word.upper() for w in cross.words if not w.valid]
        # the referee's reasons, less the "not a word" ones the ✗ already says
        lines += [e for e in cross.errors if not any(e.upper().startswith(w) for w in struck)]
    if done.best is not None:
        kind = "Best possible" if done.best.proven_optimal else "Best found"
        lines.append(f"{kind}: {done.best.score}")
        lines += [f"  {row}" for row in done.best.grid]
    return tuple(lines)


def _match_lines(referee: Referee) -> tuple[str, ...]:
    match = referee.match
    assert match is not None
    lines: list[str] = []
    for done in match.rounds:
        if referee.game.is_tray:
            board = done.reading.board
            lines.append(f"Round {done.number}: {board}  max {done.maximum}")
        elif done.crossword is not None:
            lines.append(f"Round {done.number}: {done.player} {done.crossword.score}")
    if not referee.game.is_tray:
        lines.append("Totals:")
        totals = sorted(match.totals().items(), key=lambda item: -item[1])
        lines += [f"  {name}  {points}" for name, points in totals]
    return tuple(lines) or ("No round finished yet.",)
