"""What the reader saw: tray readings and loose-cube readings, their JSON and their picture.

Each face read is the engine's ``Face``; a tray's ``board`` is the engine's ``Board`` and
loose cubes make the engine's ``Roll``, so the box and the commands take them as they are.
A tray keeps one fact once: its faces, each in its cell, from which its rows, its board
and its confidences are derived.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import isqrt
from typing import Any

import cv2
import numpy as np

from engine.adlib.roll import Roll
from engine.board import Board
from engine.faces import Face

#: A face read with less confidence than this is flagged.
DOUBTFUL = 0.8

GOOD = (60, 200, 60)
DOUBT = (0, 140, 255)
GRID = (255, 160, 0)


@dataclass(frozen=True, slots=True)
class FaceReading:
    """One top face: what it shows, where (full-resolution pixels) and how sure."""

    face: Face
    x: float
    y: float
    confidence: float
    #: Clockwise turn of the letter in the image: 0, 90, 180 or 270.
    orientation: int
    corners: tuple[tuple[float, float], ...]
    #: (row, col) in the tray or crossword, None for a loose or unused cube.
    cell: tuple[int, int] | None = None
    #: Read surely, but no free die of the cube set shows this face (another edition?).
    off_set: bool = False
    #: The face model's probabilities of the faces it found likely here, likeliest first
    #: (a live reading adds them up over frames: ``vision.evidence``); () where not kept.
    evidence: tuple[tuple[str, float], ...] = ()

    @property
    def doubtful(self) -> bool:
        """Whether a player should check this cube (shown in orange)."""
        return self.confidence < DOUBTFUL or self.off_set


def _draw_faces(image: np.ndarray, faces: tuple[FaceReading, ...]) -> np.ndarray:
    out = image.copy()
    thickness = max(2, round(max(image.shape[:2]) / 500))
    for face in faces:
        color = DOUBT if face.doubtful else GOOD
        corners = np.round(np.array(face.corners)).astype(np.int32)
        cv2.polylines(out, [corners], True, color, thickness, cv2.LINE_AA)
        side = float(np.linalg.norm(corners[1] - corners[0]))
        label = f"{face.face} {face.confidence:.2f}"
        scale = max(0.4, side / 90)
        origin = (int(corners[:, 0].min()), int(corners[:, 1].min()) - thickness * 2)
        cv2.putText(out, label, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thickness + 2)
        cv2.putText(out, label, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, color, thickness)
    return out


@dataclass(frozen=True, slots=True)
class TrayReading:
    """A tray read row by row, top to bottom as the image shows it (or turned upright):
    one face for each of its cells.

    >>> sure = [FaceReading(Face(f), 0.0, 0.0, 0.9, 0, (), divmod(i, 2)) for i, f in
    ...         enumerate("ABCD")]
    >>> reading = TrayReading("boggle", tuple(sure), (), ())
    >>> reading.board, reading.rows[1], reading.confidence[0]
    (Board.parse('AB/CD'), (Face('C'), Face('D')), (0.9, 0.9))
    """

    game: str
    #: Every cell's face, each with its ``cell``.
    faces: tuple[FaceReading, ...]
    warnings: tuple[str, ...]
    #: The tray's outline in the image (shape: [4, 2]), for the picture.
    outline: tuple[tuple[float, float], ...]
    #: The cube set (edition) the faces were read with.
    dice: str = ""

    def __post_init__(self) -> None:
        size = isqrt(len(self.faces))
        cells = {face.cell for face in self.faces}
        if not self.faces or cells != {divmod(i, size) for i in range(size * size)}:
            raise ValueError("a tray reading needs one face for each cell of a square tray")

    @property
    def size(self) -> int:
        """How many cells a side."""
        return isqrt(len(self.faces))

    @property
    def grid(self) -> tuple[tuple[FaceReading, ...], ...]:
        """The faces read, row by row."""
        by_cell = {face.cell: face for face in self.faces}
        n = self.size
        return tuple(tuple(by_cell[(r, c)] for c in range(n)) for r in range(n))

    @property
    def rows(self) -> tuple[tuple[Face, ...], ...]:
        return tuple(tuple(face.face for face in row) for row in self.grid)

    @property
    def confidence(self) -> tuple[tuple[float, ...], ...]:
        return tuple(tuple(face.confidence for face in row) for row in self.grid)

    @property
    def board(self) -> Board:
        """The engine's board (``str`` gives DESIGN.md's notation, ``TNTB/GDAR/ELTE/SISH``)."""
        return Board(self.rows)

    @property
    def doubtful_cells(self) -> tuple[tuple[int, int], ...]:
        """The cells (row, col, as ``rows`` has them) a player should check."""
        return tuple(sorted(f.cell for f in self.faces if f.cell is not None and f.doubtful))

    @property
    def min_confidence(self) -> float:
        return min(face.confidence for face in self.faces)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "board": str(self.board),
            "rows": [[str(face) for face in row] for row in self.rows],
            "confidence": [[round(p, 4) for p in row] for row in self.confidence],
            "min_confidence": round(self.min_confidence, 4),
            "dice": self.dice,
            "doubtful": [[r, c] for r, c in self.doubtful_cells],
            "warnings": list(self.warnings),
        }

    def annotate(self, image: np.ndarray) -> np.ndarray:
        """The photo with the tray's outline and each face read (doubtful ones in orange)."""
        out = _draw_faces(image, self.faces)
        outline = np.round(np.array(self.outline)).astype(np.int32)
        cv2.polylines(out, [outline], True, GRID, max(2, round(max(image.shape[:2]) / 400)))
        return out


@dataclass(frozen=True, slots=True)
class LooseReading:
    """Cubes lying on the table, and the crossword among them if there is one."""

    game: str
    faces: tuple[FaceReading, ...]
    #: The crossword's rows as text ("." for an empty cell), the right way up, or None.
    grid: tuple[str, ...] | None
    warnings: tuple[str, ...]
    #: Degrees clockwise the crossword was turned to stand the right way up (0, 90, 180, 270).
    turned: int = 0
    #: The cubes in each piece of touching cubes large enough to be a crossword, largest (the
    #: grid's) first: more than one, and the photo leaves open which is the crossword.
    pieces: tuple[int, ...] = ()

    @property
    def roll(self) -> Roll:
        """The faces as the engine's roll of the game; ``RuleError`` says why they are not
        one (too few cubes read, two faces only one cube carries)."""
        return Roll.of(tuple(face.face for face in self.faces), self.game)

    @property
    def unused(self) -> tuple[Face, ...]:
        if self.grid is None:
            return ()
        return tuple(face.face for face in self.faces if face.cell is None)

    @property
    def min_confidence(self) -> float:
        return min((face.confidence for face in self.faces), default=0.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "faces": [
                {
                    "face": str(face.face),
                    "x": round(face.x, 1),
                    "y": round(face.y, 1),
                    "confidence": round(face.confidence, 4),
                }
                for face in self.faces
            ],
            "roll": " ".join(str(face.face) for face in self.faces),
            "grid": list(self.grid) if self.grid is not None else None,
            "turned": self.turned,
            "pieces": list(self.pieces),
            "unused": [str(face) for face in self.unused],
            "min_confidence": round(self.min_confidence, 4),
            "warnings": list(self.warnings),
        }

    def annotate(self, image: np.ndarray) -> np.ndarray:
        """The photo with every cube outlined and labelled (doubtful ones in orange); cubes in
        the crossword are joined by lines."""
        out = _draw_faces(image, self.faces)
        cells = {face.cell: face for face in self.faces if face.cell is not None}
        for (r, c), face in cells.items():
            for neighbour in ((r, c + 1), (r + 1, c)):
                if neighbour in cells:
                    other = cells[neighbour]
                    cv2.line(out, (int(face.x), int(face.y)), (int(other.x), int(other.y)), GRID, 2)
        return out
