"""A match as the box plays it: the engine's match model, the rounds and who sits where.

The match rules (when a match ends, whose turn it is, who wins, who starts an Ad-Lib
match) are the engine's; a ``BoxMatch`` only keeps the engine's value with what the
screens show beside it: the rounds played (the reader's and the engine's values), the
players who joined on phones, and the roll-off for the first turn. ``replay`` rebuilds
one from its stored events after a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from device.events import (
    ChallengeMarked,
    Event,
    FaceCorrected,
    MatchEnded,
    MatchStarted,
    PlayerJoined,
    RollRead,
    RoundCancelled,
    RoundEnded,
    RoundStarted,
    Scored,
    StarterRolled,
    WordRemoved,
    WordTyped,
)
from device.lists import Desk
from device.readings import Reading, corrected
from device.starter import WhoStarts
from engine.adlib import BestCrossword, Verdict
from engine.adlib import Match as TurnMatch
from engine.adlib import MatchRules as TurnRules
from engine.adlib.match import SUGGESTED_TARGET
from engine.board import Cell
from engine.games import Game
from engine.match import Match as RoundMatch
from engine.round import RoundResult, RoundRules
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
    # What the engine made of it:
    found: list[FoundWord] = field(default_factory=list)
    result: RoundResult | None = None
    verdict: Verdict | None = None
    grid: tuple[str, ...] = ()
    best: BestCrossword | None = None
    scored: Scored | None = None

    @property
    def maximum(self) -> int:
        return sum(word.points for word in self.found)


class BoxMatch:
    """The match being played: the engine's model of it and what the screens show."""

    def __init__(self, number: int, game: Game, started: MatchStarted) -> None:
        self.number = number
        self.game = game
        self.started = started
        self.seats: list[str] = list(started.players)
        self.teams: dict[str, str] = {}
        self.keyboard: str = ""
        self.rounds: list[Round] = []
        self.last_round = 0
        self.ended = False
        self.who_starts: WhoStarts | None = None
        self._scores: list[dict[str, int]] = []
        if not game.is_tray and len(self.seats) > 1:
            self.who_starts = WhoStarts(tuple(self.seats))

    # Players -------------------------------------------------------------------------

    def join(self, joined: PlayerJoined) -> None:
        if joined.name not in self.seats:
            self.seats.append(joined.name)
        if joined.team:
            self.teams[joined.name] = joined.team
        else:
            self.teams.pop(joined.name, None)
        if joined.keyboard:
            self.keyboard = joined.name

    def round_rules(self, settings: dict[str, object]) -> RoundRules:
        """The Boggle options agreed for this match, with the teams the players picked."""
        teams: dict[str, list[str]] = {}
        for name in self.seats:
            if self.teams.get(name):
                teams.setdefault(self.teams[name], []).append(name)
        handicap = settings.get("handicap", [])
        assert isinstance(handicap, list)
        return RoundRules(
            advanced=bool(settings.get("advanced", False)),
            handicap=frozenset(str(name) for name in handicap),
            teams=tuple((team, tuple(members)) for team, members in teams.items()),
        )

    # The engine's model ---------------------------------------------------------------

    @property
    def _turns(self) -> TurnMatch:
        players = self.seats
        if self.who_starts is not None and self.who_starts.starter:
            at = players.index(self.who_starts.starter)
            players = players[at:] + players[:at]  # the cubes then pass to the left
        target = self.started.target or None
        turns = self.started.rounds or None
        if turns is None and target is None:
            target = SUGGESTED_TARGET
        match = TurnMatch.start(players, TurnRules(turns, target, self.started.partners))
        for scores in self._scores:
            match = match.record(scores[match.holder])
        return match

    @property
    def _rounds(self) -> RoundMatch:
        match = RoundMatch(
            self.game.id, (), self.started.rounds or None, self.started.target or None
        )
        for scores in self._scores:
            match = match.add(scores)
        return match

    def record(self, done: Round, scored: Scored) -> None:
        done.scored = scored
        self._scores.append(dict(scored.scores))
        self.rounds.append(done)

    @property
    def needs_starter(self) -> bool:
        return self.who_starts is not None and not self.who_starts.starter

    @property
    def holder(self) -> str:
        """Ad-Lib: who rolls the cubes next."""
        return self._turns.holder if not self.game.is_tray else ""

    @property
    def over(self) -> bool:
        return self._turns.over if not self.game.is_tray else self._rounds.over

    def standings(self) -> list[tuple[str, int]]:
        totals = self._turns.totals() if not self.game.is_tray else self._rounds.totals()
        return sorted(totals.items(), key=lambda item: -item[1])

    def winners(self) -> tuple[str, ...]:
        if not self.over:
            return ()
        if not self.game.is_tray:
            return tuple(self._turns.winners())
        return tuple(self._rounds.leaders())

    @property
    def turn_round(self) -> int:
        """Ad-Lib: the round of turns being played, from 1."""
        return self._turns.round


def replay(
    events: Sequence[Event], game: Game, fallback: MatchStarted
) -> tuple[BoxMatch, Round | None]:
    """The match (and the round under way, if any) as its stored events leave it.

    Rows the store could not read are already left out; what depends on them is left out
    too (a round whose roll is lost counts only its stored score)."""
    first = events[0] if events else None
    started = first.payload if first and isinstance(first.payload, MatchStarted) else fallback
    match = BoxMatch(first.match if first else 0, game, started)
    current: Round | None = None
    for event in events:
        payload = event.payload
        if isinstance(payload, PlayerJoined):
            match.join(payload)
        elif isinstance(payload, StarterRolled):
            if match.who_starts is not None and not match.who_starts.starter:
                match.who_starts = match.who_starts.rolled(payload.player, payload.face)
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
            continue
        elif isinstance(payload, FaceCorrected) and current.reading is not None:
            current.reading = corrected(current.reading, payload.index, payload.face)
        elif isinstance(payload, ChallengeMarked):
            current.challenge = (payload.row, payload.col)
        elif isinstance(payload, RoundStarted):
            current.started_at, current.seconds = event.at, payload.seconds
        elif isinstance(payload, WordTyped | WordRemoved):
            current.typed.append(payload)
        elif isinstance(payload, RoundEnded):
            current.ended = True
        elif isinstance(payload, RoundCancelled):
            current = None
    if current is not None and current.reading is None:
        current = None
    return match, current
