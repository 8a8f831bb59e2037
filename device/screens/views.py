"""What each state of the referee puts on the screen, as ``render.View`` values."""

from __future__ import annotations

import math
from dataclasses import replace

from device.base.strings import say, translated
from device.base.wording import (
    count,
    disputed_prompt,
    game_title,
    verdict,
    word_said,
)
from device.draw.lines import Line
from device.draw.render import View
from device.page.guard import qr_secret
from device.referee.disputes import Challenge
from device.referee.flow import State
from device.referee.matchplay import Round
from device.referee.referee import Referee
from device.screens.match_table import (
    evening_lines,
    match_lines,
    partner_lines,
    side_name,
    table_lines,
)
from device.seams.live import used_cubes
from device.seams.readings import doubtful_of, faces_of, size_of
from engine.adlib import Verdict
from engine.adlib.match import start_value
from engine.round import Entry


def clock_text(seconds: float) -> str:
    """Minutes and seconds, rounded up: the clock shows 0:00 only when time is up.

    >>> clock_text(180), clock_text(59.2), clock_text(0)
    ('3:00', '1:00', '0:00')
    """
    whole = math.ceil(max(0.0, seconds) - 1e-9)
    return f"{whole // 60}:{whole % 60:02d}"


def view_of(referee: Referee) -> View:
    """The state's first screen (``screens_of``: all of them)."""
    return screens_of(referee)[0]


def screens_of(referee: Referee) -> tuple[View, ...]:
    """What the state puts on the screen: one view, or for an Ad-Lib turn's score two, the
    player's own crossword added up and the best crossword beside it, which the box shows
    in turn (as it turns any view too long for the screen into pages)."""
    game, state, language = referee.game, referee.state, referee.language
    match = referee.match
    name = game_title(game, language, short=True)
    title = game_title(game, language)
    done = referee.round
    if done is not None and match is not None:
        number, agreed = match.round_numbers(done)
        said = (
            say("round-of", language, number=number, rounds=agreed)
            if agreed
            else say("round", language, number=number)
        )
        title = say("titled", language, game=name, what=said)
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
    summary: tuple[Line, ...] = ()
    clock = ""
    message = referee.message
    if state is State.READING:
        message = say("reading", language)
    elif state is State.SCORING:
        message = say("scoring", language)
    elif state is State.TIMING:
        clock = clock_text(referee.seconds_left)
        message, lines = _typing(referee, doubtful)
        score, used, strange = _live(referee, faces)
        lines = (*lines, *strange)
    elif state is State.TIME_UP:
        clock = "0:00"
    elif state is State.DISPUTED and referee.disputes.pending is not None:
        title = say("titled", language, game=name, what=say("a-word-challenged", language))
        message = disputed_prompt(referee.disputes.judge, language)
        lines = challenge_lines(referee.disputes.pending, language)
        faces, size, doubtful = (), 0, frozenset()
    elif state is State.STARTER and match is not None:
        title = say("titled", language, game=name, what=say("who-starts-title", language))
        lines = tuple(Line(who, f"{face} = {value}", "head") for who, face, value in match.throws)
    if state in (State.TIMING, State.TIME_UP) and done is not None and match is not None:
        following = match.following if done.player else ""
        if following and following != done.player:
            lines = (*lines, Line(say("next-player", language, player=following), kind="head"))
    if state is State.SCORED and done is not None and game.is_tray:
        found = say(
            "tray-summary",
            language,
            words=count(len(done.found), "word", language),
            points=count(done.maximum, "point", language),
        )
        message = f"{found} {say('press-for-table', language)}"
        lines = tray_lines(referee)
        if done.result is not None:
            summary = tuple(
                Line(
                    side_name(p.name, referee.settings.handicap, p.members, language),
                    str(p.score),
                    "head",
                )
                for p in done.result.players
            )
    if state is State.MATCH and match is not None:
        lines = (
            *match_lines(match, referee.settings.handicap, language),
            *evening_lines(referee.evening, language),
        )
        what = say("match-number", language, number=match.number)
        title = say("titled", language, game=name, what=what)
    if state is State.IDLE and (match is None or match.ended):
        lines = table_lines(referee)
    if state in (State.IDLE, State.STARTER, State.MATCH):
        lines = (*lines, *partner_lines(referee))
    qr = ""
    if referee.page_address and state in (State.IDLE, State.MATCH):
        secret = qr_secret(referee.join_code, referee.page_key) if referee.page_key else ""
        qr = f"{referee.page_address}?code={secret or referee.join_code}"
        typed = referee.page_address.removeprefix("http://").rstrip("/")  # as a phone takes it
        phones = say("phones", language, address=typed, code=referee.join_code)
        message = f"{message}\n{phones}".strip()
    if referee.seat_line and state in (State.IDLE, State.MATCH):
        message = f"{referee.seat_line}\n{message}".strip()
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
        notice=" ".join(translated(said, language) for said in referee.notices.sentences),
        big_clock=state in (State.TIMING, State.TIME_UP),
        values=values,
        qr=qr,
        score=score,
        used=used,
        summary=summary,
        language=language,
        flash=referee.sign.flashing(referee.clock.monotonic()),
    )
    if state is State.SCORED and done is not None and done.verdict is not None:
        return crossword_screens(shown, done, language)
    return (shown,)


def crossword_screens(shown: View, done: Round, language: str = "en") -> tuple[View, ...]:
    """An Ad-Lib turn's score: the player's crossword as laid, drawn as cubes and added up
    as the rulebook does; then the best crossword the roll allowed, and how it compares."""
    assert done.verdict is not None
    notes = (translated(note, language) for note in done.notes)  # the reader's warnings
    message = " ".join((*notes, say("press-for-table", language)))
    columns, lines = crossword_table(done.verdict, language)
    who = (
        say("crossword-of", language, player=done.player)
        if done.player
        else say("the-crossword", language)
    )
    score = done.verdict.score if done.verdict.valid else 0
    own = replace(
        shown,
        faces=_grid_cells(done.grid),
        size=_grid_width(done.grid),
        doubtful=frozenset(),
        values=(),
        caption=say("captioned", language, what=who, score=score),
        message=message,
        table=columns,
        lines=lines,
    )
    best = done.best
    if best is None or not best.rows:
        return (own,)
    rows = tuple(best.rows)
    how = (
        say("proved-best", language)
        if best.proven_optimal
        else say("best-found", language, seconds=f"{best.seconds:.0f}")
    )
    named = say("best-crossword", language)
    compared = (
        Line(named, str(best.score), "head"),
        Line(who, str(score), "head"),
        Line(say("same-crossword", language) if rows == tuple(done.grid) else how),
    )
    best_view = replace(
        shown,
        faces=_grid_cells(rows),
        size=_grid_width(rows),
        doubtful=frozenset(),
        values=(),
        caption=say("captioned", language, what=named, score=best.score),
        message=message,
        lines=compared,
    )
    return own, best_view


def challenge_lines(challenge: Challenge, language: str = "en") -> tuple[Line, ...]:
    """A challenged word as the table sees it: the word and who challenged it, what the
    word list says, and what the word means."""
    shown = challenge.dispute
    by = say("challenged-by", language, player=challenge.player)
    return (
        Line(shown.word.upper(), by, "head"),
        Line(verdict(shown, language), kind="head"),
        Line(translated(shown.definition, language)),
    )


def _live(referee: Referee, faces: tuple[str, ...]) -> tuple[str, frozenset[int], tuple[Line, ...]]:
    """While an Ad-Lib turn's timer runs, the table read live: the crossword's running
    score ("?" while it is not sure), the roll's cubes already laid in it, the words the
    lexicon does not know and the cubes of the roll seen nowhere on the table (first: the
    players must see them), and the words laid so far (the crossword growing)."""
    live = referee.scoring.live
    seen = live.view if live is not None else None
    if seen is None or not seen.grid:
        return "", frozenset(), ()
    language = referee.language
    score = say("so-far", language, score="?" if seen.score is None else seen.score)
    known = [w.word.upper() for w in seen.words if w.valid]
    laid = (Line(say("laid", language, words=" · ".join(known)), kind="head"),) if known else ()
    strange = tuple(
        Line(say("not-a-word-live", language, word=w.word.upper()), kind="head")
        for w in seen.words
        if not w.valid
    )
    if seen.unseen:  # the score waits for them: one may be a letter of the crossword
        unseen = " ".join("★" if face == "*" else face for face in seen.unseen)
        strange += (
            Line(say("not-seen", language, faces=unseen), kind="head"),
            Line(say("show-the-camera", language)),
        )
    return score, used_cubes(faces, seen.unused), (*strange, *laid)


def _typing(referee: Referee, doubtful: frozenset[int]) -> tuple[str, tuple[Line, ...]]:
    """While the timer runs: what the keyboard's player is typing (always in sight, above
    everything else), and how many words each player has handed in, never the words."""
    language = referee.language
    said = [say("doubtful", language)] if doubtful else []
    keyboard = referee.keyboard
    if keyboard is not None:
        typing = say("typing", language, player=keyboard.player, entry=keyboard.entry.upper())
        said.insert(0, typing)
        if keyboard.said:
            said.insert(1, keyboard.said)
    done = referee.round
    if done is None or done.desk is None:
        return "\n".join(said), ()
    counts = [f"{name} {len(done.desk.words(name))}" for name in referee.players_with_lists()]
    words = say("words-handed-in", language, counts=" · ".join(counts))
    lines = (Line(words, kind="head"),) if counts else ()
    return "\n".join(said), lines


def _grid_width(grid: tuple[str, ...] | list[str]) -> int:
    return max((len(row) for row in grid), default=0)


def _grid_cells(grid: tuple[str, ...]) -> tuple[str, ...]:
    """A crossword's squares row by row, ``""`` for an empty one, to draw as tiles."""
    width = _grid_width(grid)
    return tuple("" if ch in ". " else ch for row in grid for ch in row.ljust(width))


def tray_lines(referee: Referee) -> tuple[Line, ...]:
    """Each player's words with their points (crossed off, or why they do not count), or
    with no lists handed in, every word on the tray."""
    done = referee.round
    assert done is not None
    if done.result is None:
        return tuple(Line(w.word.upper(), str(w.points)) for w in done.found)
    lines: list[Line] = []
    language = referee.language
    for player in done.result.players:
        name = side_name(player.name, referee.settings.handicap, player.members, language)
        lines.append(Line(name, str(player.score), "head"))
        for entry in player.entries:
            lines.append(entry_line(entry, language))
    return tuple(lines)


def entry_line(entry: Entry, language: str = "en") -> Line:
    """A word of a list on the score screen (``device.wording.word_said``).

    >>> from engine.referee import Ruling
    >>> said = Ruling("gonna", "", "not-a-word", "", 0, (), refusal="slang")
    >>> str(entry_line(Entry("gonna", "not-a-word", 0, "Ann", said)))
    'GONNA  is slang'
    >>> amuri = Ruling("amuri", "amuři", "valid", "", 1, (), ("amuři",))
    >>> str(entry_line(Entry("amuri", "scored", 1, "Ann", amuri), "cs"))
    'AMURI (amuři)  1'
    """
    ruling = entry.ruling
    counted = tuple(spelling for spelling in ruling.spellings if spelling != entry.word)
    said = word_said(
        entry.word, entry.status, entry.points, counted, ruling.by_table, ruling.refusal, language
    )
    return Line(*said)


def crossword_table(
    verdict: Verdict, language: str = "en"
) -> tuple[tuple[tuple[Line, ...], ...], tuple[Line, ...]]:
    """A crossword's score as the rulebook adds it up: the across words and their sum
    beside the down words and theirs; below, the unused cubes' values taken off, what is
    wrong with it, and the total."""
    columns = tuple(
        (
            Line(say(title, language), str(sum(w.points for w in words)), "head"),
            *(Line(w.text.upper() + ("" if w.valid else " ✗"), str(w.points)) for w in words),
        )
        for title, words in (("across", verdict.across), ("down", verdict.down))
    )
    unused = " ".join("★" if str(face) == "*" else str(face) for face in verdict.unused)
    penalty = f"−{verdict.unused_points}" if verdict.unused_points else "0"
    faces = unused or say("none", language)
    lines = [Line(say("unused", language, faces=faces), penalty, "head")]
    lines += [Line(translated(error, language), kind="head") for error in verdict.errors]
    valid = verdict.valid and verdict.score is not None
    total = count(verdict.score or 0, "point", language) if valid else say("not-valid", language)
    lines.append(Line(say("total", language), total, "total"))
    return columns, tuple(lines)
