"""What each state of the referee puts on the screen, as a ``render.View``."""

from __future__ import annotations

import math

from device.matchplay import face_value
from device.readings import doubtful_of, faces_of, size_of
from device.referee import Referee, State
from device.render import View
from engine.adlib import Verdict


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
    done = referee.round
    if done is not None:
        title = f"{game.title} · round {done.number}"
        if done.player:
            title += f" · {done.player}"
    faces: tuple[str, ...] = ()
    values: tuple[int, ...] = ()
    doubtful: frozenset[int] = frozenset()
    size = 0
    if done is not None and done.reading is not None and state is not State.MATCH:
        faces, size = faces_of(done.reading), size_of(done.reading)
        doubtful = doubtful_of(done.reading)
        if not game.is_tray:
            values = tuple(face_value(face) for face in faces)
    lines: tuple[str, ...] = ()
    clock = ""
    message = referee.message
    hint = ""
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
        title = f"{game.title} · who starts"
        lines = tuple(f"{name}: {face} = {value}" for name, face, value in match.throws)
    if state is State.SCORED and done is not None:
        hint = "press: the table"
        lines = score_lines(referee)
        if game.is_tray:
            message = f"{len(done.found)} words on the tray, {done.maximum} points at most."
        elif done.verdict is not None:
            message = f"{done.player}: {_verdict(done.verdict)}"
            faces, size, doubtful = _grid_cells(done.grid), _grid_width(done.grid), frozenset()
            values = tuple(face_value(f.upper()) if f else 0 for f in faces)
    if state is State.MATCH and match is not None:
        lines = _match_lines(referee)
        hint = "press: new match" if match.ended else "press: next round"
        title = f"{game.title} · match {match.number}"
    qr = ""
    if referee.page_address and state in (State.IDLE, State.MATCH):
        qr = f"{referee.page_address}?code={referee.join_code}"
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
        hint=hint,
        values=values,
        qr=qr,
    )


def _verdict(verdict: Verdict) -> str:
    return f"{verdict.score} points." if verdict.valid else "not valid, no score."


def _typing_lines(referee: Referee) -> tuple[str, ...]:
    """While the timer runs: how many words each player has handed in, never the words."""
    done = referee.round
    if done is None or done.desk is None:
        return ()
    lines = [f"{name}: {len(done.desk.words(name))} words" for name in referee.players_with_lists()]
    if referee.keyboard_player:
        lines.append(f"{referee.keyboard_player} types: {referee.keyboard_entry.upper()}_")
        if referee.keyboard_said:
            lines.append(f"  {referee.keyboard_said}")
    return tuple(lines)


def _grid_width(grid: tuple[str, ...]) -> int:
    return max((len(row) for row in grid), default=0)


def _grid_cells(grid: tuple[str, ...]) -> tuple[str, ...]:
    """A crossword's squares row by row, ``""`` for an empty one, to draw as tiles."""
    width = _grid_width(grid)
    return tuple("" if ch in ". " else ch for row in grid for ch in row.ljust(width))


def score_lines(referee: Referee) -> tuple[str, ...]:
    done = referee.round
    assert done is not None
    lines: list[str] = []
    if referee.game.is_tray:
        if done.result is not None:
            for player in done.result.players:
                lines.append(f"{player.name}: {player.score}")
                for entry in player.entries:
                    mark = {"scored": f"{entry.points}", "crossed-off": "crossed off"}
                    lines.append(f"  {entry.word.upper()}  {mark.get(entry.status, entry.status)}")
            return tuple(lines)
        return tuple(f"{w.word.upper()}  {w.points}" for w in done.found)
    if done.verdict is not None:
        verdict = done.verdict
        for title, words in (("Across", verdict.across), ("Down", verdict.down)):
            lines.append(f"{title}: {sum(w.points for w in words)}")
            lines += [f"  {w.text.upper()}  {w.points}{'' if w.valid else '  ✗'}" for w in words]
        unused = " ".join(str(face) for face in verdict.unused) or "none"
        lines.append(f"Unused: {unused}  -{verdict.unused_points}")
        lines += list(verdict.errors)
    if done.best is not None:
        kind = "Best possible" if done.best.proven_optimal else "Best found"
        lines.append(f"{kind}: {done.best.score}")
        lines += [f"  {row}" for row in done.best.rows]
    return tuple(lines)


def _match_lines(referee: Referee) -> tuple[str, ...]:
    match = referee.match
    assert match is not None
    lines: list[str] = []
    winners = match.winners()
    if winners:
        lines.append(f"Winner: {' and '.join(winners)}")
    lines += [f"{name}  {points}" for name, points in match.standings()]
    lines.append(f"{len(match.rounds)} round{'s' if len(match.rounds) != 1 else ''} played")
    return tuple(lines)
