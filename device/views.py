"""What each state of the referee puts on the screen, as ``render.View`` values."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from device.disputes import Challenge
from device.flow import State
from device.guard import qr_secret
from device.lines import Line
from device.live import used_cubes
from device.matchplay import BoxMatch, Round
from device.readings import doubtful_of, faces_of, size_of
from device.referee import Referee
from device.render import View
from device.wording import (
    count,
    disputed_prompt,
    progress,
    status_words,
    unpartnered_line,
    winners_line,
)
from engine.adlib import Verdict
from engine.adlib.match import start_value
from engine.house import ALLOWED_BY_TABLE, REFUSED_BY_TABLE
from engine.referee import NOT_A_WORD, REFUSALS
from engine.round import Entry


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
    """The state's first screen (``screens_of``: all of them)."""
    return screens_of(referee)[0]


def screens_of(referee: Referee) -> tuple[View, ...]:
    """What the state puts on the screen: one view, or for an Ad-Lib turn's score two, the
    player's own crossword added up and the best crossword beside it, which the box shows
    in turn (as it turns any view too long for the screen into pages)."""
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
    score, used = "", frozenset[int]()
    clock = ""
    message = referee.message
    if state is State.READING:
        message = "Reading the roll..."
    elif state is State.SCORING:
        message = "Scoring..."
    elif state is State.TIMING:
        clock = clock_text(referee.seconds_left)
        message, lines = _typing(referee, doubtful)
        score, used, strange = _live(referee, faces)
        lines = (*lines, *strange)
    elif state is State.TIME_UP:
        clock = "0:00"
    elif state is State.DISPUTED and referee.disputes.pending is not None:
        title = f"{name} · a word challenged"
        message = disputed_prompt(referee.disputes.judge)
        lines = challenge_lines(referee.disputes.pending)
        faces, size, doubtful = (), 0, frozenset()
    elif state is State.STARTER and match is not None:
        title = f"{name} · who starts"
        lines = tuple(Line(who, f"{face} = {value}", "head") for who, face, value in match.throws)
    if state in (State.TIMING, State.TIME_UP) and done is not None and match is not None:
        following = match.following if done.player else ""
        if following and following != done.player:
            lines = (*lines, Line(f"Next: {following}", kind="head"))
    if state is State.SCORED and done is not None and game.is_tray:
        message = (
            f"{count(len(done.found), 'word')} on the tray, {done.maximum} points at most. "
            "Press the button for the match table."
        )
        lines = tray_lines(referee)
    if state is State.MATCH and match is not None:
        lines = match_lines(match, referee.settings.handicap)
        title = f"{name} · match {match.number}"
    if state is State.IDLE and (match is None or match.ended):
        lines = table_lines(referee)
    if state in (State.IDLE, State.STARTER, State.MATCH):
        lines = (*lines, *partner_lines(referee))
    qr = ""
    if referee.page_address and state in (State.IDLE, State.MATCH):
        secret = qr_secret(referee.join_code, referee.page_key) if referee.page_key else ""
        qr = f"{referee.page_address}?code={secret or referee.join_code}"
        message = f"{message} Phones: {referee.page_address} code {referee.join_code}".strip()
    if state is State.FAILSAFE:
        faces, values = (), ()
    shown = View(
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
        score=score,
        used=used,
        flash=referee.sign.flashing(referee.clock.monotonic()),
    )
    if state is State.SCORED and done is not None and done.verdict is not None:
        return crossword_screens(shown, done)
    return (shown,)


def crossword_screens(shown: View, done: Round) -> tuple[View, ...]:
    """An Ad-Lib turn's score: the player's crossword as laid, drawn as cubes and added up
    as the rulebook does; then the best crossword the roll allowed, and how it compares."""
    assert done.verdict is not None
    message = " ".join((*done.notes, "Press the button for the match table."))
    table, lines = crossword_table(done.verdict)
    who = f"{done.player}'s crossword" if done.player else "The crossword"
    own = replace(
        shown,
        faces=_grid_cells(done.grid),
        size=_grid_width(done.grid),
        doubtful=frozenset(),
        values=(),
        caption=f"{who}: {done.verdict.score if done.verdict.valid else 0}",
        message=message,
        table=table,
        lines=lines,
    )
    best = done.best
    if best is None or not best.rows:
        return (own,)
    rows = tuple(best.rows)
    score = done.verdict.score if done.verdict.valid else 0
    how = (
        "Nothing can score more: the search proved it."
        if best.proven_optimal
        else f"The best the search found in {best.seconds:.0f} s; one may score more."
    )
    compared = (
        Line("Best crossword", str(best.score), "head"),
        Line(f"{who}", str(score), "head"),
        Line("The same crossword." if rows == tuple(done.grid) else how),
    )
    best_view = replace(
        shown,
        faces=_grid_cells(rows),
        size=_grid_width(rows),
        doubtful=frozenset(),
        values=(),
        caption=f"Best crossword: {best.score}",
        message=message,
        lines=compared,
    )
    return own, best_view


def challenge_lines(challenge: Challenge) -> tuple[Line, ...]:
    """A challenged word as the table sees it: the word and who challenged it, what the
    word list says, and what the word means."""
    shown = challenge.dispute
    return (
        Line(shown.word.upper(), f"challenged by {challenge.player}", "head"),
        Line(shown.verdict, kind="head"),
        Line(shown.definition),
    )


def _live(referee: Referee, faces: tuple[str, ...]) -> tuple[str, frozenset[int], tuple[Line, ...]]:
    """While an Ad-Lib turn's timer runs, the table read live: the crossword's running
    score ("?" while it is not sure), the roll's cubes already laid in it, and the words
    the lexicon does not know."""
    live = referee.scoring.live
    seen = live.view if live is not None else None
    if seen is None or not seen.grid:
        return "", frozenset(), ()
    score = f"{'?' if seen.score is None else seen.score} so far"
    strange = tuple(
        Line(f"Not a word: {w.word.upper()}", kind="head") for w in seen.words if not w.valid
    )
    return score, used_cubes(faces, seen.unused), strange


def _typing(referee: Referee, doubtful: frozenset[int]) -> tuple[str, tuple[Line, ...]]:
    """While the timer runs: what the keyboard's player is typing (always in sight, above
    everything else), and how many words each player has handed in, never the words."""
    said = ["Orange cubes may be misread: touch one to change it."] if doubtful else []
    keyboard = referee.keyboard
    if keyboard is not None:
        said.insert(0, f"{keyboard.player}: {keyboard.entry.upper()}_")
        if keyboard.said:
            said.insert(1, keyboard.said)
    done = referee.round
    if done is None or done.desk is None:
        return "\n".join(said), ()
    counts = [f"{name} {len(done.desk.words(name))}" for name in referee.players_with_lists()]
    lines = (Line("Words: " + " · ".join(counts), kind="head"),) if counts else ()
    return "\n".join(said), lines


def table_lines(referee: Referee) -> tuple[Line, ...]:
    """Before a match with lists: who plays in it, and the players named in the settings
    whose phones have not joined yet (each joins with their name)."""
    if not (referee.game.is_tray and referee.settings.page.lists):
        return ()
    with referee.lock:  # the page's thread seats players
        seats = referee.table.seats
    if not seats:
        return ()
    lines = [Line(f"Players: {', '.join(seat.name for seat in seats)}", kind="head")]
    waiting = [seat.name for seat in seats if not seat.phone and not seat.keyboard]
    if waiting and referee.settings.page.enabled:
        lines.append(Line(f"To join on a phone: {', '.join(waiting)}"))
    return tuple(lines)


def partner_lines(referee: Referee) -> tuple[Line, ...]:
    """Before an Ad-Lib match of partners with an odd number of players: who plays as a
    side of one."""
    if referee.game.is_tray or not referee.settings.partners:
        return ()
    upcoming = referee.upcoming()
    lone = upcoming.unpartnered if not upcoming.rounds else None
    return (Line(unpartnered_line(lone), kind="head"),) if lone else ()


def _grid_width(grid: tuple[str, ...] | list[str]) -> int:
    return max((len(row) for row in grid), default=0)


def _grid_cells(grid: tuple[str, ...]) -> tuple[str, ...]:
    """A crossword's squares row by row, ``""`` for an empty one, to draw as tiles."""
    width = _grid_width(grid)
    return tuple("" if ch in ". " else ch for row in grid for ch in row.ljust(width))


def side_name(name: str, handicap: Sequence[str], members: Sequence[str] = ()) -> str:
    """A side as the screens name it: a team with its members (partners are named after
    theirs already), a handicapped side marked.

    >>> side_name("Red", (), ("Ann", "Ben")), side_name("Ann & Cy", (), ("Ann", "Cy"))
    ('Red (Ann, Ben)', 'Ann & Cy')
    >>> side_name("Ann", ("Ann",), ("Ann",)), side_name("Red", ("Red",), ("Ann", "Ben"))
    ('Ann (handicap)', 'Red (Ann, Ben; handicap)')
    """
    named = tuple(members) not in ((), (name,)) and name != " & ".join(members)
    said = [", ".join(members)] if named else []
    if name in handicap:
        said.append("handicap")
    return f"{name} ({'; '.join(said)})" if said else name


def tray_lines(referee: Referee) -> tuple[Line, ...]:
    """Each player's words with their points (crossed off, or why they do not count), or
    with no lists handed in, every word on the tray."""
    done = referee.round
    assert done is not None
    if done.result is None:
        return tuple(Line(w.word.upper(), str(w.points)) for w in done.found)
    lines: list[Line] = []
    for player in done.result.players:
        lines.append(
            Line(
                side_name(player.name, referee.settings.handicap, player.members),
                str(player.score),
                "head",
            )
        )
        for entry in player.entries:
            lines.append(entry_line(entry))
    return tuple(lines)


def entry_line(entry: Entry) -> Line:
    """A word of a list on the score screen: its points, or why it does not count (the
    engine's reason, shortly: ``is slang``), and whether the table's own ruling decided.

    >>> from engine.referee import Ruling
    >>> said = Ruling("gonna", "", "not-a-word", "", 0, (), refusal="slang")
    >>> str(entry_line(Entry("gonna", "not-a-word", 0, "Ann", said)))
    'GONNA  is slang'
    """
    ruling, word = entry.ruling, entry.word.upper()
    if ruling.by_table:
        if entry.status == NOT_A_WORD:
            return Line(word, REFUSED_BY_TABLE)
        word = f"{word} ({ALLOWED_BY_TABLE})"
    if entry.status == NOT_A_WORD and ruling.refusal in REFUSALS:
        return Line(word, REFUSALS[ruling.refusal])
    return Line(word, status_words(entry.status) if entry.status != "scored" else str(entry.points))


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


def match_lines(match: BoxMatch, handicap: Sequence[str] = ()) -> tuple[Line, ...]:
    """The match table: the winner once there is one, every side's place and score, and
    how far the match has come."""
    lines: list[Line] = []
    winners = match.winners()
    if winners:
        lines.append(Line(winners_line(winners), kind="head"))
    standings = match.model.standings() if match.model is not None else ()
    lines += [
        Line(
            f"{standing.place}. {side_name(standing.side.name, handicap, standing.side.members)}",
            str(standing.score),
            "head",
        )
        for standing in standings
    ]
    played = match.model.rounds_played if match.model is not None else 0
    lines.append(Line(progress(played, match.started.rounds, match.started.target)))
    return tuple(lines)
