"""Ad-Lib and Scribbage matches: one side a turn, who starts, partners sharing a turn.

On a turn the side holding the cubes rolls all thirteen, builds a crossword against the
clock and scores it; then the cubes pass to the left. Partners (a side of two or more,
:func:`engine.sides.seat_sides`) share one turn and consult on one crossword. The rounds,
the target (the rulebook suggests 200), ties and solitaire are :mod:`engine.match`'s.

Who starts: each side in turn rolls a single cube and the highest value starts; those
tied for the highest roll again (:class:`StartRoll`). The turns then pass to the left
from the starter.

How the box (and ``cuberef score --game adlib --match``) uses it::

    draw = StartRoll.begin(sides)
    while draw.starter is None:
        draw = draw.record(face_read)        # the single cube draw.next_roller rolled
    match = Match.start("adlib", sides, MatchRules(rounds=2), first=draw.starter)
    # A turn: match.next_player rolls; match.following rolls after them.
    verdict = referee(roll, grid, lexicon)
    match = match.record(verdict, best=best.score)
    match.finished, match.winners, match.standings()

>>> from engine.sides import seat_sides
>>> sides = seat_sides(["Ann", "Bob"])
>>> draw = StartRoll.begin(sides).record("E").record("T")   # 1 against 2: Bob starts
>>> match = Match.start("adlib", sides, MatchRules(rounds=2), first=draw.starter)
>>> for points in (30, 25, -4, 41):
...     match = match.record(points)
>>> match.finished, match.totals(), match.winners
(True, {'Ann': 66, 'Bob': 26}, ('Ann',))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.adlib.referee import Verdict
from engine.adlib.roll import Roll, letter_value
from engine.errors import NotationError, RuleError
from engine.faces import Face
from engine.match import BaseMatch, MatchRules, Turn
from engine.sides import Side

#: The target score the Ad-Lib rulebook suggests.
SUGGESTED_TARGET = 200


def turn_points(verdict: Verdict) -> int:
    """What a turn's crossword scores in the match: its score, or 0 when it breaks a rule.

    No rulebook says what a broken crossword costs; 0 (the turn is lost) is this
    referee's ruling, kept in this one place.
    """
    return verdict.score if verdict.score is not None else 0


@dataclass(frozen=True, slots=True)
class Match(BaseMatch):
    """An Ad-Lib or Scribbage match: the side whose turn it is plays, then the next."""

    @classmethod
    def default_rules(cls) -> MatchRules:
        """With nothing agreed, play to the rulebook's suggested 200."""
        return MatchRules(target=SUGGESTED_TARGET)

    def record(self, verdict: Verdict | int, best: int | None = None) -> Match:
        """The match after :attr:`next_player`'s turn: their crossword's verdict (or its
        points) and the best crossword found for that roll, if known."""
        side = self.next_side
        if side is None:
            raise RuleError("The match is over; start a new one to play again.")
        points = turn_points(verdict) if isinstance(verdict, Verdict) else verdict
        return self._played([Turn(side.name, points, best)])


def start_value(face: str | Face) -> int:
    """What a single cube rolled for who starts counts: its letter's value; a joker
    (``*``, or ``#``/``_`` as the online Scribbage shows it) carries no number, so 0.

    >>> start_value("Q"), start_value("e"), start_value("*"), start_value(Face("Z"))
    (8, 1, 0, 10)
    """
    if isinstance(face, Face):
        return letter_value(face.letters or "*")
    faces = Roll.parse(face, "scribbage").faces
    if len(faces) != 1:
        raise NotationError(
            f"{face!r} is not one face; give the single cube's top face, such as Q or *."
        )
    return letter_value(faces[0].letters or "*")


@dataclass(frozen=True, slots=True)
class StartRoll:
    """Who starts: each side rolls one cube in seat order, the highest value starts, and
    those tied for the highest roll again (in seat order) until one is highest.

    Each cube counts :func:`start_value`. A side alone starts without rolling.
    """

    #: The sides rolling in this go, in seat order.
    rolling: tuple[str, ...]
    #: The values rolled so far in this go, in the same order.
    values: tuple[int, ...] = ()
    #: The go, from 1; each tie adds one.
    go: int = 1

    @classmethod
    def begin(cls, sides: Sequence[Side | str]) -> StartRoll:
        names = tuple(side.name if isinstance(side, Side) else side for side in sides)
        if not names:
            raise RuleError("Name the players before rolling for who starts.")
        return cls(names)

    @property
    def next_roller(self) -> str | None:
        """Who rolls a cube now; None once the starter is known."""
        if self.starter is not None:
            return None
        return self.rolling[len(self.values)]

    @property
    def starter(self) -> str | None:
        """The side that starts the match, once the rolls have decided it."""
        if len(self.rolling) == 1:
            return self.rolling[0]
        return None

    @property
    def tied(self) -> tuple[str, ...]:
        """Those who tied for the highest and are rolling again (empty in the first go
        and once the starter is known)."""
        return self.rolling if self.go > 1 and self.starter is None else ()

    def record(self, face: str | Face) -> StartRoll:
        """The draw after :attr:`next_roller` rolled a cube showing ``face`` (``Q``, ``*``)."""
        if self.next_roller is None:
            raise RuleError(f"{self.starter} starts already; no more cubes are rolled.")
        values = (*self.values, start_value(face))
        if len(values) < len(self.rolling):
            return StartRoll(self.rolling, values, self.go)
        high = max(values)
        again = tuple(
            name for name, value in zip(self.rolling, values, strict=True) if value == high
        )
        return StartRoll(again, (), self.go + (len(again) > 1))
