"""A match as the box plays it: the engine's match model, the rounds and who sits where.

The match rules (when a match ends, whose turn it is, who wins, who starts an Ad-Lib
match) are the engine's; a ``BoxMatch`` only keeps the engine's value with what the
screens show beside it: the rounds played (the reader's and the engine's values), the
players who joined on phones, and the roll-off for the first turn. ``replay`` rebuilds
one from its stored events after a restart.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from device.config.sections import UNNAMED, Settings
from device.referee import flow
from device.referee.lists import Desk
from device.referee.table import Table
from device.seams.readings import Reading, corrected
from device.store.events import (
    ChallengeMarked,
    Event,
    FaceCorrected,
    MatchEnded,
    MatchStarted,
    PlayerJoined,
    PlayerLeft,
    RollRead,
    RoundCancelled,
    RoundEnded,
    RoundStarted,
    Scored,
    StarterRolled,
    TableOpened,
    WordDisputed,
    WordRemoved,
    WordRuled,
    WordTyped,
)
from engine.adlib import BestCrossword, Verdict
from engine.adlib.match import Match as TurnMatch
from engine.adlib.match import StartRoll, start_value
from engine.board import Cell
from engine.errors import RuleError
from engine.faces import Face
from engine.games import Game
from engine.match import Match as RoundMatch
from engine.match import MatchRules
from engine.round import RoundResult, RoundRules
from engine.sides import Side, partners, seat_sides, unpartnered
from engine.solver import FoundWord

log = logging.getLogger("cuberef.match")


@dataclass
class Round:
    """One round (Boggle) or turn (Ad-Lib) under way or done."""

    number: int
    reading: Reading | None
    photo: str | None = None
    #: Ad-Lib: who holds the cubes this turn; "" in a Boggle round.
    player: str = ""
    seconds: int = 180
    started_at: float | None = None  # wall clock, for a restart to resume the timer
    ended: bool = False
    challenge: Cell | None = None
    desk: Desk | None = None
    #: Words typed before a restart, put back on the desk when it opens again.
    typed: list[WordTyped | WordRemoved] = field(default_factory=list)
    #: Words challenged and ruled on before a restart, for the disputes to take up again.
    disputed: list[WordDisputed | WordRuled] = field(default_factory=list)
    # What the engine made of it:
    found: list[FoundWord] = field(default_factory=list)
    result: RoundResult | None = None
    verdict: Verdict | None = None
    grid: tuple[str, ...] = ()
    #: The reader's warnings about the crossword's photo (a crossword it turned the
    #: right way up, a cube it missed), shown on the score screen.
    notes: tuple[str, ...] = ()
    best: BestCrossword | None = None
    scored: Scored | None = None

    @property
    def maximum(self) -> int:
        return sum(word.points for word in self.found)


#: One roll of the roll-off for who starts, as the screen shows it: who, the face, its value.
Throw = tuple[str, Face, int]


class BoxMatch:
    """The match being played: the engine's model of it and what the screens show.

    The sides are fixed when the first round is scored (players may join on their
    phones until then); from there on the engine's ``Match`` is the match."""

    def __init__(self, number: int, game: Game, started: MatchStarted) -> None:
        self.number = number
        self.game = game
        self.started = started
        self.seats: list[str] = list(started.players)
        self.teams: dict[str, str] = {seat.name: seat.team for seat in started.seats if seat.team}
        self.rounds: list[Round] = []
        self.last_round = 0
        self.ended = False
        self.throws: list[Throw] = []
        self.start_roll: StartRoll | None = None
        self.model: RoundMatch | TurnMatch | None = None
        if not game.is_tray and self.seats:
            self.start_roll = StartRoll.begin(self.sides())
            if self.start_roll.starter:  # one side alone starts without rolling
                self.model = self._start(self.start_roll.starter)

    # Players -------------------------------------------------------------------------

    @property
    def under_way(self) -> bool:
        """Whether a roll of this match has been read: from then on nobody joins it."""
        return self.last_round > 0 and not self.ended

    def seat(self, joined: PlayerJoined) -> None:
        """A player stored as joining this match before its sides were fixed."""
        if joined.name not in self.seats:
            self.seats.append(joined.name)
        if joined.team:
            self.teams[joined.name] = joined.team
        else:
            self.teams.pop(joined.name, None)

    def sides(self) -> tuple[Side, ...]:
        if not self.game.is_tray and self.started.partners:
            return seat_sides(self.seats, partners(self.seats))
        teams: dict[str, list[str]] = {}
        for name in self.seats:
            if self.teams.get(name):
                teams.setdefault(self.teams[name], []).append(name)
        return seat_sides(self.seats, [(team, tuple(m)) for team, m in teams.items()])

    @property
    def unpartnered(self) -> str | None:
        """Ad-Lib partners with an odd number of players: who plays as a side of one."""
        return unpartnered(self.seats) if self.started.partners and not self.game.is_tray else None

    def round_rules(self, settings: Settings) -> RoundRules:
        """The Boggle options agreed for this match, with the teams the players picked."""
        sides = self.sides() if self.seats else ()
        teams = tuple((side.name, side.members) for side in sides if not side.alone)
        return RoundRules(
            advanced=settings.advanced, handicap=frozenset(settings.handicap), teams=teams
        )

    # The engine's model ---------------------------------------------------------------

    def _start(self, first: str | None = None) -> RoundMatch | TurnMatch:
        started = self.started
        rules = None
        if started.rounds or started.target:
            rules = MatchRules(started.rounds or None, started.target or None)
        kind = RoundMatch if self.game.is_tray else TurnMatch
        return kind.start(self.game.id, self.sides(), rules, first)

    @property
    def needs_starter(self) -> bool:
        """Ad-Lib: the roll-off for who starts is not over."""
        return self.start_roll is not None and self.start_roll.starter is None

    def rolled(self, player: str, face: Face) -> None:
        """``player`` rolled one cube for who starts, showing ``face``."""
        assert self.start_roll is not None
        if player != self.start_roll.next_roller:
            raise RuleError(f"It is {self.start_roll.next_roller}'s roll, not {player}'s.")
        self.start_roll = self.start_roll.record(face)
        self.throws.append((player, face, start_value(face)))
        if self.start_roll.starter:
            self.model = self._start(self.start_roll.starter)

    def record(self, done: Round, scored: Scored) -> None:
        done.scored = scored
        self.rounds.append(done)
        if self.model is None and self.seats:
            self.model = self._start()
        if isinstance(self.model, RoundMatch):
            scores = dict.fromkeys((side.name for side in self.model.sides), 0)
            scores.update(scored.scores)  # a side that handed in no list scores 0
            self.model = self.model.record(scores, scored.maximum)
        elif isinstance(self.model, TurnMatch):
            best = scored.best.score if scored.best else None
            self.model = self.model.record(dict(scored.scores)[done.player], best)

    @property
    def holder(self) -> str:
        """Who rolls the cubes next (Ad-Lib: whose turn; Boggle: who shakes the tray)."""
        if self.start_roll is not None and self.start_roll.next_roller:
            return self.start_roll.next_roller
        return (self.model.next_player if self.model else None) or ""

    @property
    def following(self) -> str:
        """Who rolls after :attr:`holder`; "" when the agreed rounds end with that turn."""
        model = self.model
        if model is None or model.next_side is None:
            return ""
        agreed = model.rules.rounds
        if agreed is not None and len(model.turns) + 1 >= agreed * len(model.sides):
            return ""
        return model.following or ""

    def plural(self, name: str) -> bool:
        """Whether ``name`` is a side of several players (partners: "Ann & Cy roll")."""
        return any(side.name == name and not side.alone for side in self.sides())

    def round_number(self, done: Round | None) -> int:
        """Which round ``done`` is (None: the next), counting rounds played, not cancelled
        ones as ``Round.number`` does: of turns for Ad-Lib, of the whole table for Boggle."""
        played = self.rounds.index(done) if done in self.rounds else len(self.rounds)
        sides = len(self.model.sides) if self.model else len(self.seats) or 1
        return played // sides + 1 if not self.game.is_tray else played + 1

    def round_numbers(self, done: Round | None) -> tuple[int, int]:
        """Which round ``done`` is (``round_number``), and of how many agreed (0: no limit)."""
        return self.round_number(done), self.started.rounds

    @property
    def over(self) -> bool:
        return self.model is not None and self.model.finished

    def standings(self) -> list[tuple[str, int]]:
        if self.model is None:
            return []
        return [(standing.side.name, standing.score) for standing in self.model.standings()]

    def winners(self) -> tuple[str, ...]:
        return self.model.winners if self.model is not None else ()


@dataclass
class Replayed:
    """What a match's stored events leave: the match (None before the first), the round
    under way if any, and who sits at the table with which join code."""

    match: BoxMatch | None
    round: Round | None
    seats: list[PlayerJoined]
    code: str


def replay(
    events: Sequence[Event], game: Game, refused: list[tuple[Event, str]] | None = None
) -> Replayed:
    """The match, the round under way and the table as the stored events leave them.

    Rows the store could not read are already left out; what depends on them is left out
    too (a round whose roll is lost counts only its stored score). An event that reads
    back whole but cannot be replayed (a score for a player the match does not have) is
    left out too, and the match replayed again without it; ``refused`` gets each such
    event with the reason, for the store to set aside. Stored data never stops a start."""
    kept = list(events)
    while True:
        try:
            return _replay(kept, game)
        except _Unreplayable as bad:
            kept.remove(bad.event)
            if refused is not None:
                refused.append((bad.event, bad.reason))


class _Unreplayable(Exception):
    def __init__(self, event: Event, reason: str) -> None:
        super().__init__(reason)
        self.event, self.reason = event, reason


def _replay(events: Sequence[Event], game: Game) -> Replayed:
    first = events[0] if events else None
    started = first.payload if first and isinstance(first.payload, MatchStarted) else None
    match = None
    # A match of another game (the box was set to a new one) is over for this box; the
    # players at the table stay.
    if first is not None and started is not None and started.game == game.id:
        with _replaying(first):
            match = BoxMatch(first.match, game, started)
    table = _Table({seat.name: seat for seat in started.seats} if started else {})
    table.code = started.code if started else ""
    current: Round | None = None
    for event in events:
        with _replaying(event):
            current = _step(match, table, current, event)
    if current is not None and current.reading is None:
        current = None
    return Replayed(match, current, list(table.seats.values()), table.code)


@dataclass
class _Table:
    seats: dict[str, PlayerJoined]
    code: str = ""


@contextlib.contextmanager
def _replaying(event: Event | None) -> Iterator[None]:
    try:
        yield
    except RecursionError:
        if event is None:
            raise
        raise _Unreplayable(event, "it is nested too deeply to replay") from None
    except Exception as error:  # a RuleError, or whatever a hand-made row leads to
        if event is None:
            raise
        raise _Unreplayable(event, f"it cannot be replayed ({error})") from None


def _step(
    match: BoxMatch | None, table: _Table, current: Round | None, event: Event
) -> Round | None:
    """One stored event applied to the match and the table; the round under way after it."""
    payload = event.payload
    if isinstance(payload, PlayerJoined):
        table.seats[payload.name] = payload
        if match is not None and match.model is None and not match.ended:
            match.seat(payload)  # an older box let players join until a round was scored
    elif isinstance(payload, PlayerLeft):
        table.seats.pop(payload.name, None)
    elif isinstance(payload, TableOpened):
        table.code = payload.code
    elif match is None:
        pass
    elif isinstance(payload, StarterRolled):
        if match.needs_starter:
            match.rolled(payload.player, payload.face)
    elif isinstance(payload, RollRead):
        current = Round(event.round, payload.reading, payload.photo, payload.player)
        match.last_round = max(match.last_round, event.round)
    elif isinstance(payload, MatchEnded):
        match.ended = True
    elif isinstance(payload, Scored):
        if current is None or current.number != event.round:
            current = Round(event.round, None)  # its roll was lost: the score stands
        current.ended = True
        match.record(current, payload)
        current = None
    elif current is None or current.number != event.round:
        pass
    elif isinstance(payload, FaceCorrected) and current.reading is not None:
        current.reading = corrected(current.reading, payload.index, payload.face)
    elif isinstance(payload, ChallengeMarked):
        current.challenge = (payload.row, payload.col)
    elif isinstance(payload, RoundStarted):
        current.started_at, current.seconds = event.at, payload.seconds
    elif isinstance(payload, WordTyped | WordRemoved):
        current.typed.append(payload)
    elif isinstance(payload, WordDisputed | WordRuled):
        current.disputed.append(payload)
    elif isinstance(payload, RoundEnded):
        current.ended = True
    elif isinstance(payload, RoundCancelled):
        current = None
    return current


#: Events of the table, not of a round: whoever sits down or leaves.
TABLE_EVENTS = (PlayerJoined, PlayerLeft, TableOpened)


def stopped_at(
    replayed: Replayed, events: Sequence[Event]
) -> tuple[flow.Event | None, Round | None]:
    """Where a restarted box takes up the match: the ``resume-*`` event of the flow (None:
    stay idle) and the round it takes up, if one."""
    match = replayed.match
    if match is None:
        return None, None
    said = [e.payload for e in events if not isinstance(e.payload, TABLE_EVENTS)]
    if match.rounds and said and isinstance(said[-1], Scored):
        return flow.Event.RESUME_SCORED, match.rounds[-1]  # its screen not yet passed
    if replayed.round is not None:
        resume = flow.Event.RESUME_TIME_UP if replayed.round.ended else flow.Event.RESUME_TIMING
        return resume, replayed.round
    if match.needs_starter and match.throws:
        return flow.Event.RESUME_STARTER, None
    if match.rounds or match.ended:
        return flow.Event.RESUME_MATCH, None
    return None, None


def starting(game: Game, settings: Settings, table: Table | None) -> MatchStarted:
    """How the next match begins: the agreed rounds and target, and its players: those at
    ``table`` (phones, the keyboard, the names given; their teams), or the settings'."""
    seats = table.seats if table is not None else ()
    players = table.names if table is not None else settings.players or UNNAMED
    code = table.code if table is not None else ""
    return MatchStarted(
        game.id, players, settings.rounds, settings.target_score, settings.partners, code, seats
    )
