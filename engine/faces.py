"""Cube faces: the letters and symbols printed on the cubes.

A face is written as an uppercase letter, optionally followed by lowercase letters
for a multi-letter face (``Qu``, ``Th``), ``#`` for a blank and ``*`` for a joker.

>>> Face.parse("qu")
Face('Qu')
>>> Face.parse("Qu").letters, Face.parse("Qu").length
('qu', 2)
>>> str(Face.parse("*"))
'*'
"""

from __future__ import annotations

from dataclasses import dataclass
from string import ascii_uppercase

from engine.errors import NotationError

BLANK = "#"
JOKER = "*"
MULTI_LETTER = ("Qu", "An", "Er", "He", "In", "Th")

#: Every face any cube set carries, in the order the face model numbers its classes.
ALPHABET: tuple[str, ...] = (*ascii_uppercase, *MULTI_LETTER, BLANK, JOKER)


@dataclass(frozen=True, slots=True, order=True)
class Face:
    """One face of a cube, such as ``A``, ``Qu``, ``#`` (blank) or ``*`` (joker)."""

    symbol: str

    def __post_init__(self) -> None:
        if self.symbol not in ALPHABET:
            raise NotationError(
                f"{self.symbol!r} is not a cube face; faces are letters A-Z, Qu, An, Er, He, "
                "In, Th, # for a blank and * for a joker."
            )

    @classmethod
    def parse(cls, text: str) -> Face:
        """Read a face written in any case; a lone ``q`` means the Qu face."""
        text = text.strip()
        if text.lower() == "q":
            return cls("Qu") if text == "q" else cls("Q")
        return cls(text[:1].upper() + text[1:].lower())

    @property
    def letters(self) -> str:
        """What the face spells in a word, lowercase (``""`` for a blank or a joker)."""
        return "" if self.symbol in (BLANK, JOKER) else self.symbol.lower()

    @property
    def length(self) -> int:
        """How many letters the face counts for in a word's length (Qu counts two)."""
        return len(self.letters)

    @property
    def is_blank(self) -> bool:
        return self.symbol == BLANK

    @property
    def is_joker(self) -> bool:
        return self.symbol == JOKER

    def __str__(self) -> str:
        return self.symbol

    def __repr__(self) -> str:
        return f"Face({self.symbol!r})"
