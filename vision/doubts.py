"""Whether a crossword's score, read off the table, is sure: one rule for the live reading
(``cuberef watch``, the box's screen during a turn) and for a still photo (``score
PHOTO``). It is not sure while anything it counts may be other than read:

- a cube it counts was read doubtfully (``FaceReading.doubtful``): every cube on the table
  where the roll is read off it, the crossword's where the roll is known;
- a thing that looked like a cube was left out as matching none of the set's cubes, or
  more cubes lie on the table than the set has;
- an Ad-Lib table read without its roll shows fewer than the set's 13 cubes (a cube not
  seen may be one left over, whose value counts against the score);
- where the roll is known, a cube of it that the crossword leaves out is seen nowhere on
  the table (a cube the reader missed may be a letter of the crossword rather than one
  to subtract).

Each doubt is one sentence, so that a player is told what to look at.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.adlib.roll import CUBES
from vision.evidence import given_roll
from vision.reading import LooseReading


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


def doubts(
    reading: LooseReading,
    roll: Sequence[str] | None = None,
    unused: Sequence[str] = (),
) -> tuple[str, ...]:
    """Why a score of the crossword in ``reading`` is not sure, a sentence a doubt (none:
    it is sure). ``roll``: the roll's faces where it is known apart from the table (None:
    the cubes read on the table are the roll), ``reading`` then as the roll settles its
    doubts (``vision.evidence.given_roll``); ``unused``: the faces the referee left out of
    the crossword.

    >>> from dataclasses import replace
    >>> from vision.reading import FaceReading
    >>> from engine.faces import Face
    >>> cubes = [FaceReading(Face(f), 10.0 * k, 0, 0.99, 0, (), (0, k)) for k, f in
    ...          enumerate("HI")]
    >>> table = LooseReading("scribbage", tuple(cubes), ("HI",), ())
    >>> doubts(table)
    ()
    >>> doubts(replace(table, left_out=1))  # doctest: +ELLIPSIS
    ('Left out as matching none of the set’s cubes: 1 thing(s) ...',)
    >>> doubts(replace(table, game="adlib"), roll=["H", "I", "Q"], unused=["Q"])
    ('The roll’s Q is seen nowhere on the table: put it where the camera sees it.',)
    """
    out = []
    counted = reading.faces if roll is None else [f for f in reading.faces if f.cell is not None]
    for face in counted:
        if face.doubtful:
            out.append(  # as the reader's own warning says it
                f"The cube at ({face.x:.0f}, {face.y:.0f}) read as {face.face} with "
                f"confidence {face.confidence:.2f}; check it."
            )
    seen = len(reading.faces) + reading.left_out
    cubes = reading.set_cubes or (CUBES if reading.game == "adlib" else 0)
    if cubes and seen > cubes:
        out.append(
            f"{seen} things on the table look like cubes, where {reading.game} has {cubes}: "
            "one of them may be no cube of the set, or a cube misread."
        )
    elif reading.left_out:
        out.append(
            f"Left out as matching none of the set’s cubes: {reading.left_out} thing(s) "
            "that looked like cubes; if one is a cube, the score may count it wrong."
        )
    if roll is None and reading.game == "adlib" and len(reading.faces) < CUBES:
        out.append(
            f"Only {len(reading.faces)} of the {CUBES} cubes were seen: a cube not seen may "
            "be one left over, whose value counts against the score."
        )
    if roll is not None:
        for missing in unseen_cubes(unused, reading):
            out.append(
                f"The roll’s {missing} is seen nowhere on the table: put it where the "
                "camera sees it."
            )
    return tuple(out)


def photo_doubts(
    reading: LooseReading, roll: Sequence[str] | None, unused: Sequence[str]
) -> tuple[str, ...]:
    """``doubts`` of a still photo's ``reading`` as read, the roll's faces (None: the
    cubes on the table are the roll) settling what they can first (``given_roll``)."""
    if roll is None:
        return doubts(reading, None, unused)
    return doubts(given_roll(reading, roll), roll, unused)
