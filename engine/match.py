"""Whole matches by the rulebooks: rounds of turns, the end, the standings and the winner.

A match is a frozen value; recording a round (or a turn) returns the next one. The sides
(players alone, Boggle teams, Ad-Lib partners: :mod:`engine.sides`) sit in their seats
going round the table to the left, and the turns pass to the left from the side that
starts. A *round* is one turn for every side. The match ends

- after the agreed number of rounds, so every side has had exactly that many turns, or
- at the end of the round of turns in which a side reached the agreed score: the target
  is checked only when a round is complete, so every side has had as many turns,

whichever comes first (neither agreed: the match goes on until the players stop). The
highest total wins; a tie names every side that shares it. One player alone plays
solitaire: what counts is the best score of a single throw, kept beside the best that
throw's roll allowed, and with a target the player wins by reaching it in one throw.

The Boggle family plays every side at once, so one :meth:`Match.record` is a whole round;
Ad-Lib and Scribbage play one side a turn (:class:`engine.adlib.match.Match`). Both keep
their turns in :class:`BaseMatch`, and a match file is ``to_dict()`` as JSON.

How the box and ``cuberef score --match`` use it::

    match = Match.start("boggle", seat_sides(players, teams), MatchRules(rounds=3))
    # Before a round: match.next_player shakes the tray (the shaker passes to the left).
    result = score_round(board, game, lists, rules=RoundRules(teams=match.teams))
    match = match.record(result, best=maximum)   # maximum: the board's whole score
    if match.finished:
        match.winners              # ('Ann',), or several on a tie
    match.standings()              # every side's score and place, for the match screen

>>> from engine.sides import seat_sides
>>> match = Match.start("boggle", seat_sides(["ann", "bob"]), MatchRules(target=10))
>>> match = match.record({"ann": 6, "bob": 4}).record({"ann": 5, "bob": 7})
>>> match.totals(), match.finished, match.winners
({'ann': 11, 'bob': 11}, True, ('ann', 'bob'))
>>> Match.from_dict(match.to_dict()) == match
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Self

from engine.errors import NotationError, RuleError
from engine.round import RoundResult
from engine.sides import Side

#: What a match file says it is, and the version of its layout.
FORMAT, VERSION = "cuberef match", 2


@dataclass(frozen=True, slots=True)
class MatchRules:
    """What the players agreed before the first roll."""

    #: Rounds to play (every side has exactly this many turns); None: no limit.
    rounds: int | None = None
    #: The score that ends the match at the end of its round; None: no target.
    target: int | None = None

    def __post_init__(self) -> None:
        if self.rounds is not None and self.rounds < 1:
            raise RuleError(f"A match needs at least one round, not {self.rounds}.")
        if self.target is not None and self.target < 1:
            raise RuleError(f"A target score must be 1 or more, not {self.target}.")


@dataclass(frozen=True, slots=True)
class Turn:
    """One side's score in one round, and the best that round's roll allowed (if known)."""

    side: str
    score: int
    #: The board's whole score (Boggle) or the best crossword found (Ad-Lib); None: not known.
    best: int | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """A side's place in the match."""

    side: Side
    #: What ranks: the total, or in solitaire the best score of a single throw.
    score: int
    turns: int
    #: 1 for the leaders; sides on the same score share a place.
    place: int


@dataclass(frozen=True, slots=True)
class BaseMatch:
    """The turns of a match and everything that follows from them; see the module."""

    game: str
    #: In their seats, going round the table to the left.
    sides: tuple[Side, ...]
    rules: MatchRules = MatchRules()
    turns: tuple[Turn, ...] = ()
    #: The seat (index into ``sides``) of the side that plays first.
    first: int = 0

    @classmethod
    def start(
        cls,
        game: str,
        sides: Sequence[Side],
        rules: MatchRules | None = None,
        first: str | None = None,
    ) -> Self:
        """A new match; ``first`` names the side that starts (default: the first seat);
        ``rules`` default to :meth:`default_rules`."""
        sides = tuple(sides)
        if not sides:
            raise RuleError("A match needs at least one player.")
        names = [side.name for side in sides]
        if len(set(names)) != len(names):
            raise RuleError("Two sides have the same name; give each a name of its own.")
        members = [member for side in sides for member in side.members]
        if len(set(members)) != len(members):
            raise RuleError("A player is on two sides; put each player on one side.")
        if first and first not in names:
            raise RuleError(f"{first} is not in this match ({', '.join(names)}); check the name.")
        rules = rules or cls.default_rules()
        return cls(game, sides, rules, (), names.index(first) if first else 0)

    @classmethod
    def default_rules(cls) -> MatchRules:
        """The rules of a match that agreed none: no end until the players stop."""
        return MatchRules()

    # Whose turn -------------------------------------------------------------------------

    @property
    def order(self) -> tuple[Side, ...]:
        """The sides in the order they play each round: from the starter, to the left."""
        return self.sides[self.first :] + self.sides[: self.first]

    @property
    def solitaire(self) -> bool:
        return len(self.sides) == 1

    @property
    def round_complete(self) -> bool:
        """Whether every side has had as many turns (true before the first turn, too)."""
        return len(self.turns) % len(self.sides) == 0

    @property
    def rounds_played(self) -> int:
        """Complete rounds so far."""
        return len(self.turns) // len(self.sides)

    @property
    def round(self) -> int:
        """The round under way or about to start, from 1 (the last one once finished)."""
        return self.rounds_played if self.finished else self.rounds_played + 1

    def _rolls(self) -> int:
        """How many times the cubes have been rolled: once a turn (Ad-Lib's one side a
        turn); the Boggle family rolls once a round."""
        return len(self.turns)

    @property
    def next_side(self) -> Side | None:
        """The side that rolls the cubes next (the roll passes to the left); None once
        finished."""
        if self.finished:
            return None
        return self.order[self._rolls() % len(self.sides)]

    @property
    def next_player(self) -> str | None:
        """The name of :attr:`next_side`: who rolls next; None once finished."""
        side = self.next_side
        return side.name if side else None

    @property
    def following(self) -> str | None:
        """Who rolls after :attr:`next_player`, if the match goes on that long."""
        if self.finished:
            return None
        return self.order[(self._rolls() + 1) % len(self.sides)].name

    # Scores -----------------------------------------------------------------------------

    def totals(self) -> dict[str, int]:
        """Each side's total so far, in seat order."""
        totals = {side.name: 0 for side in self.sides}
        for turn in self.turns:
            totals[turn.side] += turn.score
        return totals

    def scores(self) -> dict[str, int]:
        """What ranks each side: its total, or in solitaire the best single throw."""
        if self.solitaire:
            best = self.best_throw
            return {self.sides[0].name: best.score if best else 0}
        return self.totals()

    @property
    def best_throw(self) -> Turn | None:
        """The highest-scoring turn (the earliest of equals); solitaire's result."""
        return max(self.turns, key=lambda turn: turn.score, default=None)

    def standings(self) -> tuple[Standing, ...]:
        """Every side, highest score first (equal scores keep their seats, share a place)."""
        scores = self.scores()
        played = {side.name: 0 for side in self.sides}
        for turn in self.turns:
            played[turn.side] += 1
        ranked = sorted(self.sides, key=lambda side: -scores[side.name])
        return tuple(
            Standing(
                side,
                scores[side.name],
                played[side.name],
                1 + sum(1 for other in self.sides if scores[other.name] > scores[side.name]),
            )
            for side in ranked
        )

    @property
    def finished(self) -> bool:
        if not self.turns or not self.round_complete:
            return False  # a round is played out before the match can end
        rules = self.rules
        if rules.rounds is not None and self.rounds_played >= rules.rounds:
            return True
        return rules.target is not None and max(self.scores().values()) >= rules.target

    @property
    def winners(self) -> tuple[str, ...]:
        """The side or sides with the highest score once finished (several on a tie).

        In solitaire with a target the player wins only by reaching it; empty until the
        match is finished.
        """
        if not self.finished:
            return ()
        scores = self.scores()
        best = max(scores.values())
        if self.solitaire and self.rules.target is not None and best < self.rules.target:
            return ()
        return tuple(name for name, score in scores.items() if score == best)

    # Recording --------------------------------------------------------------------------

    def _played(self, turns: Sequence[Turn]) -> Self:
        """The match with ``turns`` played next, each by the side whose turn it is."""
        match = self
        for turn in turns:
            if match.finished:
                raise RuleError(
                    f"This match ended after round {match.rounds_played}; "
                    "start a new match to play again."
                )
            side = match.order[len(match.turns) % len(match.sides)]
            if turn.side != side.name:
                raise RuleError(f"It is {side.name}'s turn, not {turn.side}'s.")
            match = replace(match, turns=(*match.turns, turn))
        return match

    # Match files ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "rounds": self.rules.rounds,
            "target": self.rules.target,
            "sides": [{"name": side.name, "members": list(side.members)} for side in self.sides],
            "first": self.sides[self.first].name,
            "turns": [
                {"side": turn.side, "score": turn.score, "best": turn.best} for turn in self.turns
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """Read a match written by :meth:`to_dict` (a match file's JSON), checking every turn."""
        ours = isinstance(data, Mapping) and data.get("format") == FORMAT
        if ours and data.get("version") != VERSION:
            raise NotationError(
                f"The match file is of version {data.get('version')}, which this cuberef "
                f"does not read (it reads {VERSION}); give a new file name to start a match."
            )
        try:
            if not isinstance(data, Mapping) or data.get("format") != FORMAT:
                return cls._from_first_version(data)
            sides = [Side(_text(s["name"]), tuple(map(_text, s["members"]))) for s in data["sides"]]
            rules = MatchRules(_optional(data["rounds"]), _optional(data["target"]))
            turns = [
                Turn(_text(t["side"]), _number(t["score"]), _optional(t["best"]))
                for t in data["turns"]
            ]
            start = cls.start(_text(data["game"]), sides, rules, _text(data["first"]))
            return start._played(turns)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            why = f" ({error})" if isinstance(error, RuleError) else ""
            raise NotationError(
                f"The match file is not a cuberef match{why}; "
                "give a new file name to start a match."
            ) from None

    @classmethod
    def _from_first_version(cls, data: Mapping[str, Any]) -> Self:
        """A file of cuberef's first match layout: each round's scores by player."""
        rounds = [{_text(name): _number(n) for name, n in r.items()} for r in data["rounds"]]
        names = list(rounds[0]) if rounds else []
        rules = MatchRules(_optional(data.get("rounds_to_play")), _optional(data.get("target")))
        start = cls.start(_text(data["game"]), [Side(name, (name,)) for name in names], rules)
        return start._played([Turn(name, r[name]) for r in rounds for name in names])


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("a name must be text")
    return value


def _number(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("a score must be a whole number")
    return value


def _optional(value: Any) -> int | None:
    return None if value is None else _number(value)


@dataclass(frozen=True, slots=True)
class Match(BaseMatch):
    """A Boggle-family match: every side plays every round at once."""

    def _rolls(self) -> int:
        return self.rounds_played

    @property
    def teams(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The match's teams, as :class:`engine.round.RoundRules` takes them."""
        return tuple((side.name, side.members) for side in self.sides if not side.alone)

    def record(self, result: RoundResult | Mapping[str, int], best: int | None = None) -> Match:
        """The match after one more round: its result (or each side's score) and the
        board's whole score ``best``, if known. Every side of the match must have a score."""
        scores = result.scores() if isinstance(result, RoundResult) else dict(result)
        names = {side.name for side in self.sides}
        stranger = sorted(set(scores) - names)
        if stranger:
            raise RuleError(
                f"{stranger[0]} is not in this match ({', '.join(sorted(names))}); "
                "check the name, or start a new match."
            )
        missing = [side.name for side in self.sides if side.name not in scores]
        if missing:
            raise RuleError(
                f"This round has no score for {missing[0]}; every side plays every round "
                "(an empty list scores 0)."
            )
        return self._played([Turn(side.name, scores[side.name], best) for side in self.order])
