"""An Ad-Lib or Scribbage roll: the faces on top of the thrown cubes.

A roll is written as its faces separated by spaces (``U O N T W V I G F E E A R * *``),
in any case; a single run of letters (``UONTWVIGFEEART``) is read one face a letter.
``*`` is a joker; ``#`` and ``_`` are read as a joker too, because the online Scribbage
shows its jokers as blanks and no Ad-Lib cube has a true blank face.

``adlib`` checks the roll against the 13 real cubes: it must be 13 faces, each on a
different cube (a perfect matching of faces to dice). ``scribbage``, whose cubes are not
known, takes any number of letters and jokers. Both score letters by the Ad-Lib values.

>>> roll = Roll.parse("H R N D * T O Q A R * X U", "adlib")
>>> roll.total, roll.jokers, roll.count("r"), roll.dice[7]
(35, 2, 2, 4)
>>> str(Roll.parse("uontwvigfeeart", "scribbage"))
'U O N T W V I G F E E A R T'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from engine.cubes import CubeSet, Die
from engine.errors import NotationError, RuleError
from engine.faces import JOKER, Face

GAMES = ("adlib", "scribbage")
CUBES = 13
#: The most faces a roll may have: the search counts each letter's cubes in a byte.
MAX_FACES = 255
_JOKER_MARKS = frozenset("*#_")
_SPLIT = re.compile(r"[\s,]+")


@cache
def adlib_cubes() -> CubeSet:
    """The 13 Ad-Lib cubes with their letter values."""
    return CubeSet.load("adlib")


def letter_value(letter: str) -> int:
    """The Ad-Lib value of a letter (``"z"`` -> 10); a joker is worth 0.

    >>> letter_value("q"), letter_value("*")
    (8, 0)
    """
    if letter == JOKER:
        return 0
    return adlib_cubes().value(Face(letter.upper()))


def word_value(letters: Iterable[str]) -> int:
    """The Ad-Lib points of a word: the sum of its letters' values (a joker's is 0).

    >>> word_value("money"), word_value(["m", "*", "n", "e", "y"])
    (11, 10)
    """
    return sum(letter_value(letter) for letter in letters)


@dataclass(frozen=True, slots=True)
class Roll:
    """The faces one throw shows, in the order given; ``*`` marks a joker."""

    game: str
    faces: tuple[Face, ...]
    #: For ``adlib``: the number (1-13, as the cube file lists them) of the cube under each face.
    dice: tuple[int, ...] = field(default=(), compare=False)

    @classmethod
    def parse(cls, text: str, game: str = "adlib") -> Roll:
        if game not in GAMES:
            raise NotationError(f"There is no crossword game {game!r}; choose adlib or scribbage.")
        tokens = [token for token in _SPLIT.split(text.strip()) if token]
        if len(tokens) == 1 and len(tokens[0]) > 1:
            tokens = list(tokens[0])
        if not tokens:
            raise NotationError(
                "The roll is empty; give the faces on top separated by spaces, "
                "such as 'U O N T W V I G F E E A R * *'."
            )
        return cls.of(tuple(_face(token) for token in tokens), game)

    @classmethod
    def of(cls, faces: tuple[Face, ...], game: str = "adlib") -> Roll:
        """The roll ``faces`` make (as the reader sees them), checked as ``parse`` checks
        a written one: ``adlib`` gives each face a cube of its own.

        >>> str(Roll.of((Face("Q"), Face("*")), "scribbage"))
        'Q *'
        """
        if game not in GAMES:
            raise NotationError(f"There is no crossword game {game!r}; choose adlib or scribbage.")
        if len(faces) > MAX_FACES:
            raise NotationError(
                f"The roll has {len(faces)} faces, more than the {MAX_FACES} the search can "
                "count; give the faces of one throw."
            )
        faces = tuple(Face(JOKER) if face.is_blank else face for face in faces)
        if game == "scribbage":
            return cls(game, faces)
        return cls(game, faces, _match_dice(faces, adlib_cubes().dice))

    @property
    def letters(self) -> Counter[str]:
        """How many cubes show each letter (lowercase), jokers left out."""
        return Counter(face.letters for face in self.faces if not face.is_joker)

    def count(self, letter: str) -> int:
        return sum(1 for face in self.faces if face.letters == letter)

    @property
    def jokers(self) -> int:
        return sum(1 for face in self.faces if face.is_joker)

    @property
    def total(self) -> int:
        """The sum of every rolled face's value: what the round would cost if nothing were used."""
        return sum(letter_value(face.letters or JOKER) for face in self.faces)

    def __str__(self) -> str:
        return " ".join(map(str, self.faces))

    def __len__(self) -> int:
        return len(self.faces)


def _face(token: str) -> Face:
    if token in _JOKER_MARKS:
        return Face(JOKER)
    if len(token) == 1 and token.isascii() and token.isalpha():
        return Face(token.upper())
    raise NotationError(
        f"{token!r} in the roll is not a face; write each face as one letter A-Z, "
        "or * for a joker, separated by spaces."
    )


def _match_dice(faces: tuple[Face, ...], dice: tuple[Die, ...]) -> tuple[int, ...]:
    """Give each face a cube of its own (Kuhn's augmenting paths), or say why none can."""
    if len(faces) != len(dice):
        raise RuleError(
            f"An Ad-Lib roll is {len(dice)} faces, one from each cube, but this roll has "
            f"{len(faces)}; give every cube's top face."
        )
    carriers = [[j for j, die in enumerate(dice) if face in die.faces] for face in faces]
    for face, owners in zip(faces, carriers, strict=True):
        if not owners:
            raise RuleError(f"No Ad-Lib cube has a {face} face; check the roll.")
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for j in carriers[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or place(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(faces)):
        seen: set[int] = set()
        if not place(i, seen):
            # The faces reachable from i by alternating paths need more cubes than carry them
            # (Hall's condition fails there): name them so the player sees what is impossible.
            stuck = sorted({i} | {owner[j] for j in seen if j in owner})
            names = _and([str(faces[k]) for k in stuck])
            cubes = _and([str(j + 1) for j in sorted(seen)])
            raise RuleError(
                f"The faces {names} need {len(stuck)} different cubes, but only "
                f"{len(seen)} Ad-Lib cube{'s' if len(seen) != 1 else ''} ({cubes}) carry them; "
                "check the roll."
            )
    by_face = {i: j for j, i in owner.items()}
    return tuple(by_face[i] + 1 for i in range(len(faces)))


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
