"""Cube sets: the dice of each edition, read from the data files beside this module.

A cube-set file is UTF-8 text. Lines starting with ``#`` are comments; ``# key: value``
comments before the first die give the set's ``title`` and ``source``. Every other
line is one die: its six faces separated by spaces, each optionally followed by
``=points`` (the Ad-Lib letter values). A player can replace a set with their own
edition's faces by passing the path of such a file wherever a set name is accepted.

>>> classic = CubeSet.load("boggle-1987")
>>> len(classic.dice), classic.dice[0]
(16, Die('A A E E G N'))
>>> CubeSet.load("adlib").value(Face("Z"))
10
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from engine.errors import NotationError
from engine.faces import Face

FACES_PER_DIE = 6


@dataclass(frozen=True, slots=True)
class Die:
    """One cube: its six faces in the order printed in the data file."""

    faces: tuple[Face, ...]

    @classmethod
    def parse(cls, text: str) -> Die:
        return cls(tuple(Face.parse(part.split("=")[0]) for part in text.split()))

    def __str__(self) -> str:
        return " ".join(map(str, self.faces))

    def __repr__(self) -> str:
        return f"Die({str(self)!r})"


@dataclass(frozen=True, slots=True)
class CubeSet:
    """The dice of one edition, with the letter values where the game has them."""

    name: str
    title: str
    source: str
    dice: tuple[Die, ...]
    values: dict[Face, int] = field(default_factory=dict, compare=False)

    @classmethod
    def load(cls, name: str) -> CubeSet:
        """Load a bundled set by name, or a player's own set from a file path.

        A bundled set's name is that set whatever lies in the working folder: text is read
        as a path only where it names no bundled set, or is plainly a path.
        """
        bundled = resources.files("engine") / "data" / "cubes" / f"{name}.txt"
        if not plainly_a_path(name) and bundled.is_file():
            return cls.parse(name, bundled.read_text(encoding="utf-8"))
        path = Path(name)
        if not (plainly_a_path(name) or path.exists()):
            raise NotationError(
                f"There is no cube set called {name!r}; the bundled sets are "
                f"{', '.join(bundled_sets())}, or give the path of your own .txt file."
            )
        if path.is_dir():
            raise NotationError(
                f"{name!r} is a folder, not a cube-set file; give the path of a UTF-8 text "
                "file with one die of six faces a line."
            )
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise NotationError(
                f"Cannot read the cube-set file {name!r} ({error.__class__.__name__}); "
                "give a UTF-8 text file with one die of six faces a line."
            ) from None
        return cls.parse(path.stem, text)

    @classmethod
    def parse(cls, name: str, text: str) -> CubeSet:
        meta: dict[str, str] = {}
        dice: list[Die] = []
        values: dict[Face, int] = {}
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if line.startswith("#"):
                key, sep, value = line.lstrip("# ").partition(":")
                if sep and not dice and key.strip() in ("title", "source"):
                    meta[key.strip()] = value.strip()
                continue
            if not line:
                continue
            die = Die.parse(line)
            if len(die.faces) != FACES_PER_DIE:
                raise NotationError(
                    f"Line {number} of cube set {name!r} has {len(die.faces)} faces; "
                    f"every die needs exactly {FACES_PER_DIE}."
                )
            for part, face in zip(line.split(), die.faces, strict=True):
                if "=" in part:
                    values[face] = int(part.split("=")[1])
            dice.append(die)
        return cls(name, meta.get("title", name), meta.get("source", ""), tuple(dice), values)

    def value(self, face: Face) -> int:
        """The points a face is worth in this set (0 where the set has no values)."""
        return self.values.get(face, 0)

    def faces(self) -> frozenset[Face]:
        """Every face that any die of this set carries."""
        return frozenset(face for die in self.dice for face in die.faces)

    def roll(self, rng: random.Random) -> list[Face]:
        """Throw every die: each lands in a random place with a random face up."""
        order = list(self.dice)
        rng.shuffle(order)
        return [rng.choice(die.faces) for die in order]

    def __iter__(self) -> Iterator[Die]:
        return iter(self.dice)


def plainly_a_path(text: str) -> bool:
    """Whether ``text`` can only be a file's path: it has a folder in it or ends ``.txt``.
    No game, edition or bundled set is named so.

    >>> plainly_a_path("adlib"), plainly_a_path("./adlib"), plainly_a_path("mine.txt")
    (False, True, True)
    """
    return "/" in text or os.sep in text or text.endswith(".txt")


def bundled_sets() -> Iterable[str]:
    """The names of the cube sets that ship with cuberef."""
    folder = resources.files("engine") / "data" / "cubes"
    return sorted(entry.name[:-4] for entry in folder.iterdir() if entry.name.endswith(".txt"))
