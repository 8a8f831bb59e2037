"""Who starts an Ad-Lib match: each player rolls one cube in turn, the highest value starts.

Players tied for the highest value roll again, among themselves, until one is highest.
The values are the cubes' own (``engine.adlib.letter_value``; a joker is worth 0).

>>> roll_off = WhoStarts(("Ann", "Ben", "Cy"))
>>> roll_off = roll_off.rolled("Ann", "K").rolled("Ben", "Z").rolled("Cy", "Z")
>>> roll_off.starter, roll_off.players, roll_off.next
(None, ('Ben', 'Cy'), 'Ben')
>>> roll_off.rolled("Ben", "A").rolled("Cy", "E").starter
>>> roll_off.rolled("Ben", "Q").rolled("Cy", "E").starter
'Ben'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.adlib import letter_value
from engine.errors import RuleError

#: One roll of the roll-off: who, the face on top, its value.
Throw = tuple[str, str, int]


def face_value(face: str) -> int:
    return 0 if face in ("*", "#", "_") else letter_value(face)


@dataclass(frozen=True, slots=True)
class WhoStarts:
    """The roll-off so far: who rolls in this pass, and the throws of each pass."""

    players: tuple[str, ...]
    throws: tuple[Throw, ...] = ()
    earlier: tuple[tuple[Throw, ...], ...] = ()
    starter: str | None = None

    @property
    def next(self) -> str | None:
        """Who rolls next, or None once the starter is known."""
        return None if self.starter else self.players[len(self.throws)]

    def rolled(self, player: str, face: str) -> WhoStarts:
        if self.starter or player != self.next:
            raise RuleError(f"It is {self.next}'s roll for who starts, not {player}'s.")
        throws = (*self.throws, (player, face, face_value(face)))
        if len(throws) < len(self.players):
            return WhoStarts(self.players, throws, self.earlier)
        best = max(value for _, _, value in throws)
        tied = tuple(name for name, _, value in throws if value == best)
        if len(tied) == 1:
            return WhoStarts(self.players, throws, self.earlier, tied[0])
        return WhoStarts(tied, (), (*self.earlier, throws))

    @property
    def last_pass(self) -> tuple[Throw, ...]:
        """The throws to show: this pass's, or the pass that just ended in a tie."""
        return self.throws or (self.earlier[-1] if self.earlier else ())
