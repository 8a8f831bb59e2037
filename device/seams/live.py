"""What the live reading shows, refereed by the engine: the crossword as laid so far, its
running score, the cubes not yet used with their values, and each word with whether the
lexicon knows it (``cuberef watch``, and the box's screen during an Ad-Lib turn).

The score is the referee's (``engine.adlib.referee``, through ``device.seams.seams.Scorer``),
and it is shown only where it is sure: never while a hand is over the cubes and nothing
was stable before, never where a cube it counts is doubtful, a word is not one, the
grid holds a cube the roll lacks, or a cube of the roll is out of sight: where the roll is
given (``--roll``, or the one read at the turn's start), every cube it leaves out of the
crossword must be seen lying loose, since a cube the reader missed may be a letter of the
crossword rather than a cube to subtract; it is named (``unseen``) so that the players can
show it to the camera. An Ad-Lib table read without a roll must show all 13 cubes. The
roll is ``--roll`` where given, else the cubes read on the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from device.seams.seams import Scorer, lexicon_for
from engine.adlib import Roll, letter_value
from engine.adlib.grid import Grid
from engine.adlib.roll import CUBES
from engine.errors import CuberefError
from engine.games import Game
from engine.lexicon import Lexicon
from vision.evidence import given_roll
from vision.live import Live, State
from vision.reading import LooseReading

JOKER = "*"


@dataclass(frozen=True, slots=True)
class Word:
    """An across or down word of the crossword, and whether the lexicon knows it."""

    word: str
    valid: bool


@dataclass(frozen=True, slots=True)
class LiveView:
    """One state of the live reading, as it is shown."""

    state: State
    #: The crossword's rows as text ("." an empty cell), () for none.
    grid: tuple[str, ...] = ()
    #: The running score, None while it is not sure.
    score: int | None = None
    #: The cubes of the roll not in the crossword.
    unused: tuple[str, ...] = ()
    words: tuple[Word, ...] = ()
    #: The cubes of the roll that the crossword leaves out but no cube on the table was
    #: read as: until they are seen the score is not sure.
    unseen: tuple[str, ...] = ()

    @property
    def values(self) -> tuple[int, ...]:
        """Each unused cube's letter value (a joker 0)."""
        return tuple(face_value(face) for face in self.unused)

    def to_json(self, frame: int) -> dict[str, Any]:
        return {
            "frame": frame,
            "state": str(self.state),
            "grid": list(self.grid),
            "score": self.score,
            "unused": list(self.unused),
            "words": [{"word": w.word, "valid": w.valid} for w in self.words],
            "unseen": list(self.unseen),
        }

    def describe(self, frame: int) -> str:
        """The view as a player reads it on a terminal."""
        score = "not sure" if self.score is None else str(self.score)
        lines = [f"frame {frame}: {self.state}, score {score}"]
        lines += [f"  {row}" for row in self.grid]
        if self.unused:
            unused = ", ".join(f"{f} {v}" for f, v in zip(self.unused, self.values, strict=True))
            lines.append(f"  unused: {unused}")
        strange = [w.word for w in self.words if not w.valid]
        if strange:
            lines.append(f"  not words: {', '.join(strange)}")
        if self.unseen:
            lines.append(f"  not seen: {', '.join(self.unseen)} (put it where the camera sees it)")
        return "\n".join(lines)


def used_cubes(faces: Sequence[str], unused: Sequence[str]) -> frozenset[int]:
    """The roll's cubes (by their number in ``faces``) that the crossword holds: all but
    ``unused``, the first of equal faces taken first, as the referee counts them.

    >>> sorted(used_cubes(["M", "E", "Q", "E"], ["Q", "E"]))
    [0, 1]
    """
    left = Counter(faces)
    left.subtract(unused)
    used = set()
    for number, face in enumerate(faces):
        if left[face] > 0:
            left[face] -= 1
            used.add(number)
    return frozenset(used)


def face_value(face: str) -> int:
    """A face's Ad-Lib letter value, a joker's 0.

    >>> face_value("Q"), face_value("*")
    (8, 0)
    """
    return letter_value(JOKER if face == JOKER else face.lower())


def live_view(live: Live, game: Game, roll: Roll | None = None, lexicon: str = "") -> LiveView:
    """What ``live`` shows, refereed against ``roll`` (None: the cubes on the table) with
    the lexicon called ``lexicon`` (the game's own by default)."""
    reading = live.reading
    if reading is None:
        return LiveView(live.state, unused=_faces(roll.faces) if roll else ())
    if roll is not None:  # a rival face the roll has no free cube for is no doubt
        reading = given_roll(reading, _faces(roll.faces))
    table_roll = roll or Roll.of(tuple(f.face for f in reading.faces), "scribbage")
    if not reading.grid:
        return LiveView(live.state, unused=_faces(table_roll.faces))
    try:
        refereed = Scorer().score_crossword(table_roll, reading.grid, game, lexicon)
    except CuberefError:  # no letter makes every word through a joker a word
        words = _words(reading, lexicon_for(game, lexicon))
        return LiveView(live.state, reading.grid, None, _unplaced(table_roll, reading), words)
    verdict = refereed.verdict
    words = tuple(Word(w.text, w.valid) for w in verdict.across + verdict.down)
    unused = _faces(verdict.unused)
    unseen = unseen_cubes(unused, reading) if roll is not None else ()
    score = verdict.score if _sure(reading, game, roll) and not unseen else None
    return LiveView(live.state, reading.grid, score, unused, words, unseen)


def unseen_cubes(unused: Sequence[str], reading: LooseReading) -> tuple[str, ...]:
    """The cubes of ``unused`` (the roll's, left out of the crossword) that no loose cube of
    ``reading`` was read as: each loose cube read surely stands for its own face, and one
    read doubtfully for any; what is left was not seen.

    >>> from vision.reading import FaceReading
    >>> from engine.faces import Face
    >>> loose = [FaceReading(Face(f), 0, 0, p, 0, ()) for f, p in (("Q", 0.99), ("A", 0.5))]
    >>> reading = LooseReading("adlib", tuple(loose), ("HI",), ())
    >>> unseen_cubes(["Q", "E", "S"], reading)
    ('E',)
    """
    left = Counter(unused)
    loose = [f for f in reading.faces if f.cell is None]
    for sure in (str(f.face) for f in loose if not f.doubtful):
        left[sure] -= left[sure] > 0
    # A doubtful cube is most likely what it was read as; else it may be any cube missing.
    anyone = 0
    for doubtful in (str(f.face) for f in loose if f.doubtful):
        if left[doubtful] > 0:
            left[doubtful] -= 1
        else:
            anyone += 1
    missing = list(left.elements())
    return tuple(missing[: max(0, len(missing) - anyone)])


def _sure(reading: LooseReading, game: Game, roll: Roll | None) -> bool:
    """Whether every cube the score counts was read surely, and (without a roll) all of
    them were seen."""
    counted = reading.faces if roll is None else [f for f in reading.faces if f.cell is not None]
    if any(face.doubtful for face in counted):
        return False
    return roll is not None or game.id != "adlib" or len(reading.faces) == CUBES


def _faces(faces: tuple[Any, ...]) -> tuple[str, ...]:
    return tuple(str(face) for face in faces)


def _unplaced(roll: Roll, reading: LooseReading) -> tuple[str, ...]:
    """The roll's faces left once the crossword's cubes are taken out of it."""
    left = list(roll.faces)
    for face in reading.faces:
        if face.cell is not None and face.face in left:
            left.remove(face.face)
    return _faces(tuple(left))


def _words(reading: LooseReading, lexicon: Lexicon) -> tuple[Word, ...]:
    """The crossword's words where its jokers fit no letter: those through a joker are
    not words; the others as the lexicon has them."""
    assert reading.grid is not None
    jokers = {
        (r, c) for r, row in enumerate(reading.grid) for c, ch in enumerate(row) if ch == JOKER
    }
    grid = Grid.from_rows(row.replace(JOKER, "a") for row in reading.grid)
    words = []
    for run in grid.runs():
        text = "".join(
            JOKER if cell in jokers else str(t)
            for cell, t in zip(run.cells, run.tiles, strict=True)
        )
        words.append(Word(text, not jokers & set(run.cells) and run.word in lexicon))
    return tuple(words)
