"""Match play: rounds added up until an agreed number of rounds or an agreed score.

>>> match = Match("boggle", target=10)
>>> match = match.add({"ann": 6, "bob": 4}).add({"ann": 5, "bob": 7})
>>> match.totals(), match.over, match.leaders()
({'ann': 11, 'bob': 11}, True, ['ann', 'bob'])
>>> Match.from_dict(match.to_dict()) == match
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import NotationError, RuleError


@dataclass(frozen=True, slots=True)
class Match:
    """A match so far: each round's scores by player (or team), in order."""

    game: str
    rounds: tuple[tuple[tuple[str, int], ...], ...] = ()
    #: The match ends after this many rounds (None: no limit).
    rounds_to_play: int | None = None
    #: The match ends when someone reaches this score (None: no target).
    target: int | None = None

    def __post_init__(self) -> None:
        for value, what in ((self.rounds_to_play, "number of rounds"), (self.target, "target")):
            if value is not None and value < 1:
                raise RuleError(f"The match's {what} must be 1 or more, not {value}.")

    def add(self, scores: Mapping[str, int]) -> Match:
        """The match with one more round's scores."""
        if self.over:
            raise RuleError(
                f"This match ended after round {len(self.rounds)}; start a new match file."
            )
        return Match(
            self.game, (*self.rounds, tuple(scores.items())), self.rounds_to_play, self.target
        )

    @property
    def players(self) -> list[str]:
        """Everyone who has played a round, in the order they first appeared."""
        return list(dict.fromkeys(name for scores in self.rounds for name, _ in scores))

    def totals(self) -> dict[str, int]:
        totals = dict.fromkeys(self.players, 0)
        for scores in self.rounds:
            for name, score in scores:
                totals[name] += score
        return totals

    def standings(self) -> list[tuple[str, int]]:
        """Players by total, highest first (ties keep the order they joined)."""
        return sorted(self.totals().items(), key=lambda item: -item[1])

    @property
    def over(self) -> bool:
        if self.rounds_to_play is not None and len(self.rounds) >= self.rounds_to_play:
            return True
        return self.target is not None and any(
            total >= self.target for total in self.totals().values()
        )

    def leaders(self) -> list[str]:
        """Who is ahead (the winners, once the match is over); several on a tie."""
        standings = self.standings()
        return [name for name, total in standings if total == standings[0][1]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rounds_to_play": self.rounds_to_play,
            "target": self.target,
            "rounds": [dict(scores) for scores in self.rounds],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Match:
        """Read a match written by :meth:`to_dict` (a match file's JSON)."""
        try:
            rounds = tuple(
                tuple((str(name), int(score)) for name, score in scores.items())
                for scores in data["rounds"]
            )
            return cls(str(data["game"]), rounds, data.get("rounds_to_play"), data.get("target"))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise NotationError(
                "The match file is not a cuberef match; give a new file name to start a match."
            ) from None
