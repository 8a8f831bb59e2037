"""What the box asks of the reader's own values (``vision.TrayReading``, ``LooseReading``).

The box numbers the faces of a roll as it draws them: a tray row by row, loose cubes in
the reader's order. These helpers answer in that numbering, and ``corrected`` makes the
reading the players fixed by touching a cube: the same kind of value, that face certain.
Whether a face is doubtful is the reader's own judgement (``FaceReading.doubtful``).
"""

from __future__ import annotations

import dataclasses

from engine.board import Board
from vision import FaceReading, LooseReading, TrayReading

Reading = TrayReading | LooseReading


def size_of(reading: Reading) -> int:
    """The tray's side, or 0 for loose cubes."""
    return len(reading.rows) if isinstance(reading, TrayReading) else 0


def faces_of(reading: Reading) -> tuple[str, ...]:
    if isinstance(reading, TrayReading):
        return tuple(face for row in reading.rows for face in row)
    return tuple(face.face for face in reading.faces)


def _face_at(reading: Reading, index: int) -> FaceReading | None:
    if isinstance(reading, LooseReading):
        return reading.faces[index]
    cell = divmod(index, size_of(reading))
    return next((face for face in reading.faces if face.cell == cell), None)


def doubtful_of(reading: Reading) -> frozenset[int]:
    """The faces the reader is unsure of (a tray cell it found no face for, too)."""
    found = (_face_at(reading, i) for i in range(len(faces_of(reading))))
    return frozenset(i for i, face in enumerate(found) if face is None or face.doubtful)


def board_of(reading: Reading) -> Board | None:
    return Board.parse(reading.board) if isinstance(reading, TrayReading) else None


def roll_of(reading: Reading) -> str:
    """The faces as a roll (``"M O N E Y ..."``): loose cubes as read, a tray row by row."""
    return " ".join(faces_of(reading))


def corrected(reading: Reading, index: int, face: str) -> Reading:
    """``reading`` with face ``index`` set to ``face`` by the players: certain now."""
    old = _face_at(reading, index)
    fixed = None if old is None else dataclasses.replace(old, face=face, confidence=1.0)
    if isinstance(reading, LooseReading):
        assert fixed is not None
        faces = tuple(fixed if i == index else f for i, f in enumerate(reading.faces))
        return dataclasses.replace(reading, faces=faces)
    row, col = divmod(index, size_of(reading))
    rows = tuple(
        tuple(face if (r, c) == (row, col) else f for c, f in enumerate(line))
        for r, line in enumerate(reading.rows)
    )
    confidence = tuple(
        tuple(1.0 if (r, c) == (row, col) else p for c, p in enumerate(line))
        for r, line in enumerate(reading.confidence)
    )
    faces = tuple(fixed if f is old else f for f in reading.faces) if fixed else reading.faces
    return dataclasses.replace(reading, rows=rows, confidence=confidence, faces=faces)
