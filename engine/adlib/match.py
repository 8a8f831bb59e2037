"""Ad-Lib match play: turns passing left, partners, and when the match ends.

Players are listed in their seats going round the table to the left, so the cubes pass
from each player to the next in the list. On a turn the player holding the cubes rolls
them and builds a crossword; the referee's score is recorded for that player. Partners
(four or six players) sit alternately, so seats 1 and 3 play together against 2 and 4;
a side's score is its partners' sum. The match ends when every player has had the agreed
number of turns, or at the end of a round of turns in which a side reached the agreed
score (200 is the rulebook's suggestion), so every player has had as many turns. One
player alone plays solitaire against the clock of turns or the target.

>>> match = Match.start(["Ann", "Bob"], MatchRules(turns=2, target=None))
>>> for points in (30, 25, -4, 41):
...     match = match.record(points)
>>> match.over, match.totals(), match.winners()
(True, {'Ann': 26, 'Bob': 66}, ('Bob',))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import RuleError

#: The target score the Ad-Lib rulebook suggests.
SUGGESTED_TARGET = 200


@dataclass(frozen=True, slots=True)
class MatchRules:
    """What the players agreed before the first roll."""

    #: Turns each player has; None to play to the target alone.
    turns: int | None = None
    #: The score that ends the match at the end of its round; None to play the turns alone.
    target: int | None = SUGGESTED_TARGET
    #: Partners sitting alternately score together.
    partners: bool = False

    def __post_init__(self) -> None:
        if self.turns is None and self.target is None:
            raise RuleError("Agree a number of turns, a target score, or both.")
        if self.turns is not None and self.turns < 1:
            raise RuleError("A match needs at least one turn each; give --turns 1 or more.")
        if self.target is not None and self.target < 1:
            raise RuleError("A target score must be above 0, such as the suggested 200.")


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn: who held the cubes and what their crossword scored."""

    player: str
    score: int


@dataclass(frozen=True, slots=True)
class Match:
    """A match's players, rules and the turns played so far; each record makes a new one."""

    players: tuple[str, ...]
    rules: MatchRules
    turns: tuple[Turn, ...] = ()

    @classmethod
    def start(cls, players: Sequence[str], rules: MatchRules | None = None) -> Match:
        names = tuple(name.strip() for name in players)
        if not names or any(not name for name in names):
            raise RuleError("Name every player; one player alone plays solitaire.")
        if len(set(names)) != len(names):
            raise RuleError("Two players have the same name; give each player a name of their own.")
        rules = rules or MatchRules()
        if rules.partners and (len(names) < 4 or len(names) % 2):
            raise RuleError(
                "Partners need an even number of players, four or more, sitting alternately."
            )
        return cls(names, rules)

    @property
    def solitaire(self) -> bool:
        return len(self.players) == 1

    @property
    def holder(self) -> str:
        """The player who rolls next: the cubes pass to the left after every turn."""
        return self.players[len(self.turns) % len(self.players)]

    @property
    def round(self) -> int:
        """The round being played, from 1: a round is one turn for every player."""
        return len(self.turns) // len(self.players) + 1

    def sides(self) -> dict[str, tuple[str, ...]]:
        """The scoring sides: each player alone, or partners in alternate seats."""
        if not self.rules.partners:
            return {name: (name,) for name in self.players}
        half = len(self.players) // 2
        sides = {}
        for seat in range(2):
            members = self.players[seat::2]
            sides[" & ".join(members)] = members
        assert all(len(members) == half for members in sides.values())
        return sides

    def record(self, score: int) -> Match:
        """The match after the holder's crossword scored ``score``."""
        if self.over:
            raise RuleError("The match is over; start a new one to play again.")
        return Match(self.players, self.rules, (*self.turns, Turn(self.holder, score)))

    def player_totals(self) -> dict[str, int]:
        totals = dict.fromkeys(self.players, 0)
        for turn in self.turns:
            totals[turn.player] += turn.score
        return totals

    def totals(self) -> dict[str, int]:
        """Each side's score so far."""
        players = self.player_totals()
        return {
            side: sum(players[name] for name in members) for side, members in self.sides().items()
        }

    @property
    def over(self) -> bool:
        if len(self.turns) % len(self.players):
            return False  # a round is finished before the match can end
        rounds = len(self.turns) // len(self.players)
        if self.rules.turns is not None and rounds >= self.rules.turns:
            return True
        target = self.rules.target
        return target is not None and any(total >= target for total in self.totals().values())

    def winners(self) -> tuple[str, ...]:
        """The side or sides with the highest score (more than one on a tie); empty until over.

        In solitaire the player wins by reaching the target; with turns alone, the score is
        the result and the player is named.
        """
        if not self.over:
            return ()
        totals = self.totals()
        if self.solitaire and self.rules.target is not None:
            return tuple(side for side, total in totals.items() if total >= self.rules.target)
        best = max(totals.values())
        return tuple(side for side, total in totals.items() if total == best)
