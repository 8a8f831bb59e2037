"""The evening read back from the match store: every match, its rounds, every side's
words, and the standings over the matches.

Each match is replayed from its stored events as a restarted box replays it
(``device.referee.replaying.replay``): its sides with their members, and each scored round's
board (Boggle family) or roll (Ad-Lib) with each side's stored score. A side's words are
refereed again by the engine from the same lists (a crossword from the same rows), with
the table's rulings as they stood when the round was scored; ``words=False`` leaves them
out (the box's match table needs only the scores). The standings are a row a player
(their side's result counted for each member; a player renamed between matches, by a
``PlayerRenamed`` event, is one player), and a row a team that kept its members.
``cuberef history``, the box's match table and the players' page read the evening here;
``device.referee.history_formats`` prints it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from device.config.house_rules import with_settings
from device.config.sections import Settings
from device.referee.matchplay import BoxMatch, Round
from device.referee.replaying import replay
from device.seams.readings import board_of
from device.store.events import (
    Event,
    MatchEnded,
    MatchStarted,
    PlayerRenamed,
    Scored,
    WordRemoved,
    WordRuled,
    WordTyped,
)
from device.store.store import Store
from engine.errors import CuberefError
from engine.games import Game, find_game
from engine.house import HouseList
from engine.referee import NOT_A_WORD
from engine.round import Entry
from engine.sides import Side
from vision import LooseReading

if TYPE_CHECKING:
    from engine.lexicon import Lexicon

log = logging.getLogger("cuberef.referee")


#: A ruling on a challenged word: when, in which language.
Ruled = tuple[float, str, WordRuled]


@dataclass(frozen=True)
class Word:
    """A word of a side's round as the referee ruled it, and who typed it (a team's
    member; a crossword's holder)."""

    word: str
    status: str
    points: int
    by: str = ""
    #: The real spellings it counted as, where not the one typed (SEDI as sedí).
    counted: tuple[str, ...] = ()
    #: Whether the table's own ruling decided it (allowed or refused by this table).
    by_table: bool = False
    #: Why it is no word, as the engine classes it (``slang``, ``table``...); "" else.
    refusal: str = ""


@dataclass(frozen=True)
class Crossword:
    """An Ad-Lib side's crossword: its rows (as ``score --grid`` takes them), each unused
    cube with what it takes off, and what makes it no crossword (then it scores 0)."""

    grid: tuple[str, ...]
    unused: tuple[tuple[str, int], ...]
    errors: tuple[str, ...] = ()


@dataclass(frozen=True)
class SideRound:
    """A side's score in one round, and its words (none kept: an empty tuple)."""

    name: str
    score: int
    words: tuple[Word, ...] = ()
    crossword: Crossword | None = None


@dataclass(frozen=True)
class PastRound:
    number: int
    #: The tray as ``Board`` writes it (Boggle family), or "" where the roll is lost.
    board: str
    #: The roll's faces (Ad-Lib), "" for a tray.
    roll: str
    sides: tuple[SideRound, ...]
    #: The round's number as the screen gave it (rounds played, not cancelled ones; an
    #: Ad-Lib round is every side's turn), and who held the cubes (Ad-Lib).
    shown: int = 0
    holder: str = ""


@dataclass(frozen=True)
class PastSide:
    name: str
    members: tuple[str, ...]
    score: int


@dataclass(frozen=True)
class PastMatch:
    number: int
    game: Game
    started: float
    ended: float | None
    #: The side or sides with the highest score once the match is over (several: a draw).
    winners: tuple[str, ...]
    sides: tuple[PastSide, ...]
    rounds: tuple[PastRound, ...] = field(default=())
    #: The players renamed after this match (before the next), as (old name, new name).
    renamed: tuple[tuple[str, str], ...] = ()
    #: The rounds agreed for it (0: no limit), as the screen gave them beside each round.
    agreed: int = 0


def read_matches(
    store: Store, settings: Settings, since: float = 0.0, words: bool = True
) -> list[PastMatch]:
    """Every match begun at ``since`` or later, in the order played."""
    # The rulings made in earlier matches count for the words; the scores need none.
    stored = [(number, store.events(number)) for number in store.matches(0.0 if words else since)]
    rulings = _rulings(stored) if words else []
    read = []
    for _number, events in stored:
        if not events or events[0].at < since or not isinstance(events[0].payload, MatchStarted):
            continue
        past = _match(events, settings, store if words else None, rulings)
        if past is not None:
            read.append(past)
    return read


def stored_matches(store: Store) -> tuple[int, float | None]:
    """How many matches the store holds, and when the last began (None: none)."""
    numbers = store.matches()
    events = store.events(numbers[-1]) if numbers else []
    return len(numbers), events[0].at if events else None


def _rulings(stored: Sequence[tuple[int, list[Event]]]) -> list[Ruled]:
    """Every ruling the box made on a challenged word: when, in which language, which."""
    found = []
    for _number, events in stored:
        started = events[0].payload if events else None
        if not isinstance(started, MatchStarted):
            continue
        try:
            language = _lexicon(find_game(started.game), None).card.language
        except CuberefError:
            continue
        found += [(e.at, language, e.payload) for e in events if isinstance(e.payload, WordRuled)]
    return found


def _lexicon(game: Game, settings: Settings | None) -> Lexicon:
    from device.seams.seams import lexicon_for

    # The configured list is the box's game's; another game's matches used their own.
    chosen = settings.lexicon if settings is not None and settings.game == game.id else ""
    return lexicon_for(game, chosen)


def _match(
    events: list[Event], settings: Settings, store: Store | None, rulings: list[Ruled]
) -> PastMatch | None:
    started = events[0].payload
    assert isinstance(started, MatchStarted)
    try:
        game = find_game(started.game)
    except CuberefError:
        return None  # a game this cuberef does not know
    match = replay(events, game).match
    if match is None:
        return None
    sides = match.model.sides if match.model is not None else _seated(match)
    scores = dict(match.standings())
    ended = next((e.at for e in events if isinstance(e.payload, MatchEnded)), None)
    scored_at = {e.round: e.at for e in events if isinstance(e.payload, Scored)}
    rounds = tuple(
        _round(done, match, sides, settings, store, rulings, scored_at.get(done.number, 0.0))
        for done in match.rounds
    )
    return PastMatch(
        match.number,
        game,
        events[0].at,
        ended,
        match.winners(),
        tuple(PastSide(side.name, side.members, scores.get(side.name, 0)) for side in sides),
        rounds,
        tuple(
            (e.payload.old, e.payload.new) for e in events if isinstance(e.payload, PlayerRenamed)
        ),
        started.rounds,
    )


def _seated(match: BoxMatch) -> tuple[Side, ...]:
    """The sides of a match no round of which was scored (none where nobody sat)."""
    try:
        return match.sides() if match.seats else ()
    except CuberefError:
        return ()


def _round(
    done: Round,
    match: BoxMatch,
    sides: tuple[Side, ...],
    settings: Settings,
    store: Store | None,
    rulings: list[Ruled],
    at: float,
) -> PastRound:
    reading, scored = done.reading, done.scored
    assert scored is not None
    board = board_of(reading) if reading is not None else None
    roll = str(reading.roll) if isinstance(reading, LooseReading) else ""
    stored = dict(scored.scores)
    side_of = {member: side.name for side in sides for member in (side.name, *side.members)}
    if match.game.is_tray:
        said = {side.name: stored.get(side.name, 0) for side in sides}
        said.update(stored)  # a round scored before the sides were known keeps its names
        kept = _tray_words(done, match, settings, store, rulings, at) if store else {}
        crosswords: dict[str, Crossword] = {}
    else:
        said = {side_of.get(name, name): score for name, score in stored.items()}
        kept, crosswords = _crossword_words(done, match, settings) if store else ({}, {})
    return PastRound(
        done.number,
        str(board) if board is not None else "",
        roll,
        tuple(
            SideRound(name, score, kept.get(name, ()), crosswords.get(name))
            for name, score in said.items()
        ),
        match.round_number(done),
        done.player,
    )


def _tray_words(
    done: Round,
    match: BoxMatch,
    settings: Settings,
    store: Store,
    rulings: list[Ruled],
    at: float,
) -> dict[str, tuple[Word, ...]]:
    """Each side's words as the round's referee ruled them, from the stored lists."""
    from engine.round import score_round

    board = board_of(done.reading) if done.reading is not None else None
    if board is None or not match.seats or not done.scored or not done.scored.scores:
        return {}
    lexicon = _lexicon(match.game, settings)
    language, kept = lexicon.card.language, done.scored.house
    if kept is not None:  # the rulings it was scored with (scored again if one was taken back)
        house = with_settings(HouseList(language).with_rulings(kept), settings)
    else:  # a round an older box stored: the rulings as they stood then
        house = _house_at(store, language, at, rulings)
    rules = dataclasses.replace(match.round_rules(settings), challenge=done.challenge, house=house)
    result = score_round(board, match.game, _lists(done, match.seats), lexicon, rules)
    return {player.name: tuple(map(_word, player.entries)) for player in result.players}


def _word(entry: Entry) -> Word:
    ruling = entry.ruling
    counted = tuple(spelling for spelling in ruling.spellings if spelling != entry.word)
    return Word(
        entry.word,
        entry.status,
        entry.points,
        entry.player,
        counted,
        ruling.by_table,
        ruling.refusal,
    )


def _lists(done: Round, players: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Every player's list as the desk kept it: a word written twice counts once."""
    lists: dict[str, list[str]] = {name: [] for name in players}
    for typed in done.typed:
        words = lists.setdefault(typed.player, [])
        if isinstance(typed, WordTyped) and typed.word not in words:
            words.append(typed.word)
        elif isinstance(typed, WordRemoved) and typed.word in words:
            words.remove(typed.word)
    return [(name, lists[name]) for name in players]


def _house_at(store: Store, language: str, at: float, rulings: list[Ruled]) -> HouseList:
    """The table's rulings as they stood at ``at``: each ruling kept then, and a word ruled
    again since (or forgotten) taken as the box ruled it before ``at``."""
    house = HouseList(language)
    kept = set()
    for word, allowed, when in store.house_rows(language):
        if when <= at:
            house = house.allow(word) if allowed else house.refuse(word)
            kept.add(word)
    for when, spoken, ruled in rulings:
        if when <= at and spoken == language and ruled.word not in kept:
            house = house.allow(ruled.word) if ruled.allowed else house.refuse(ruled.word)
    return house


def _crossword_words(
    done: Round, match: BoxMatch, settings: Settings
) -> tuple[dict[str, tuple[Word, ...]], dict[str, Crossword]]:
    """The holder's crossword's words, refereed again from its stored rows, and the
    crossword: its rows, its unused cubes, its errors."""
    from device.seams.seams import Scorer

    scored = done.scored
    if scored is None or not scored.grid or not isinstance(done.reading, LooseReading):
        return {}, {}
    lexicon = _lexicon(match.game, settings).card.name
    refereed = Scorer().score_crossword(done.reading.roll, scored.grid, match.game, lexicon)
    verdict = refereed.verdict
    words = tuple(
        Word(w.text.lower(), "scored" if w.valid else NOT_A_WORD, w.points, done.player)
        for w in (*verdict.across, *verdict.down)
    )
    unused = tuple((str(face), points) for face, points in verdict.unused_values())
    crossword = Crossword(tuple(scored.grid), unused, verdict.errors)
    sides = match.model.sides if match.model is not None else ()
    side = next((s.name for s in sides if done.player in (s.name, *s.members)), done.player)
    return {side: words}, {side: crossword}
