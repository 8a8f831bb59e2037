"""What the box asks of the reader's own values (``vision.TrayReading``, ``LooseReading``).

The box numbers the faces of a roll as it draws them: a tray row by row, loose cubes in
the reader's order. These helpers answer in that numbering, and ``corrected`` makes the
reading the players fixed by touching a cube: the same kind of value, that face certain.
Whether a face is doubtful is the reader's own judgement (``FaceReading.doubtful``); the
faces are the engine's ``Face`` values, a tray's board the engine's ``Board``.
"""

from __future__ import annotations

import dataclasses

from device.base.strings import say
from engine.board import Board
from engine.errors import CuberefError
from engine.faces import Face
from vision import FaceReading, LooseReading, TrayReading

Reading = TrayReading | LooseReading


def size_of(reading: Reading) -> int:
    """The tray's side, or 0 for loose cubes."""
    return reading.size if isinstance(reading, TrayReading) else 0


def read_faces(reading: Reading) -> tuple[FaceReading, ...]:
    """Every face read, in the box's numbering."""
    if isinstance(reading, TrayReading):
        return tuple(face for row in reading.grid for face in row)
    return reading.faces


def faces_of(reading: Reading) -> tuple[Face, ...]:
    return tuple(face.face for face in read_faces(reading))


def doubtful_of(reading: Reading) -> frozenset[int]:
    """The faces the reader is unsure of."""
    return frozenset(i for i, face in enumerate(read_faces(reading)) if face.doubtful)


def board_of(reading: Reading) -> Board | None:
    return reading.board if isinstance(reading, TrayReading) else None


def corrected(reading: Reading, index: int, face: Face) -> Reading:
    """``reading`` with face ``index`` set to ``face`` by the players: certain now."""
    old = read_faces(reading)[index]
    fixed = dataclasses.replace(old, face=face, confidence=1.0)
    faces = tuple(fixed if f is old else f for f in reading.faces)
    return dataclasses.replace(reading, faces=faces)


def check_roll(reading: Reading, roller: str = "") -> Reading:
    """``reading``, once it shows a roll: some cube, or just one for ``roller``'s throw
    for who starts; else ``CuberefError`` says what to do."""
    count = len(reading.faces)
    if not count:
        raise CuberefError(say("no-cube"))
    if roller and count != 1:
        raise CuberefError(say("one-cube", roller=roller, count=count))
    return reading
