"""A match as the box plays it: the engine's match model, the rounds and who sits where.

The match rules (when a match ends, whose turn it is, who wins, who starts an Ad-Lib
match) are the engine's; a ``BoxMatch`` only keeps the engine's value with what the
screens show beside it: the rounds played (the reader's and the engine's values), the
players who joined on phones, and the roll-off for the first turn. ``replay`` rebuilds
one from its stored events after a restart.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from device.config.sections import UNNAMED, Settings
from device.referee.lists import Desk
from device.referee.table import Table
from device.seams.readings import Reading
from device.store.events import (
    MatchStarted,
    PlayerJoined,
    Scored,
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
        self._add(done, scored)

    def _add(self, done: Round, scored: Scored) -> None:
        """The engine's match with round ``done``'s scores added."""
        if isinstance(self.model, RoundMatch):
            scores = dict.fromkeys((side.name for side in self.model.sides), 0)
            scores.update(scored.scores)  # a side that handed in no list scores 0
            self.model = self.model.record(scores, scored.maximum)
        elif isinstance(self.model, TurnMatch):
            best = scored.best.score if scored.best else None
            self.model = self.model.record(dict(scored.scores)[done.player], best)

    def scored_round(self, number: int) -> Round | None:
        """The recorded round numbered ``number``, if it was scored (a Boggle round only)."""
        found = (done for done in self.rounds if done.number == number)
        return next(found, None) if self.game.is_tray else None

    def rescore(self, done: Round, scored: Scored) -> None:
        """Round ``done`` (Boggle's, already recorded) scored again: a ruling on one of its
        words was taken back. The match is added up again from its first round."""
        assert self.game.is_tray and done in self.rounds
        done.scored = scored
        self.model = self._start() if self.seats else None
        for played in self.rounds:
            assert played.scored is not None
            self._add(played, played.scored)

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


def starting(game: Game, settings: Settings, table: Table | None) -> MatchStarted:
    """How the next match begins: the agreed rounds and target, and its players: those at
    ``table`` (phones, the keyboard, the names given; their teams), or the settings'."""
    seats = table.seats if table is not None else ()
    players = table.names if table is not None else settings.players or UNNAMED
    code = table.code if table is not None else ""
    return MatchStarted(
        game.id, players, settings.rounds, settings.target_score, settings.partners, code, seats
    )
