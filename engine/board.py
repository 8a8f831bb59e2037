"""A tray board: rows of faces, parsed from and printed as the text of DESIGN.md.

>>> board = Board.parse("TNTB/GDAR/ELTE/SISH")
>>> board.size, board[0, 3]
(4, Face('B'))
>>> str(Board.parse("r o n l i/c t s s d/n m p p n/u a e q i/h i n r m"))
'RONLI/CTSSD/NMPPN/UAEQuI/HINRM'
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import isqrt
from string import ascii_letters

from engine.errors import NotationError
from engine.faces import Face

Cell = tuple[int, int]

# A face in the compact notation: one uppercase letter plus any lowercase ones, or # or *.
#: The largest tray written out, and the longest text of one: far above Super Big
#: Boggle's 6x6, and a bound on the work a typed board can ask for.
MAX_SIZE, MAX_TEXT = 16, 1024
_COMPACT_FACE = re.compile(r"[A-Z][a-z]*|[#*]")
_FACE_CHARACTERS = frozenset(ascii_letters + "#*")


@dataclass(frozen=True, slots=True)
class Board:
    """A square tray of faces, row by row from the top."""

    rows: tuple[tuple[Face, ...], ...]

    @classmethod
    def parse(cls, text: str) -> Board:
        """Read ``TNTB/GDAR/...`` or the spaced lowercase form ``t n t b/g d a r/...``."""
        if len(text) > MAX_TEXT:  # the work is bounded before it starts
            raise NotationError(
                f"The board is {len(text)} characters long; a tray of {MAX_SIZE}x{MAX_SIZE} "
                "cubes or fewer is written in far fewer."
            )
        rows = [row.strip() for row in text.strip().split("/")]
        if text.strip() and len(rows) == 1 and " " not in rows[0]:
            rows = _split_square(rows[0])
        parsed = tuple(tuple(_parse_row(row)) for row in rows)
        if not parsed or not parsed[0]:
            raise NotationError("The board is empty; write its rows separated by '/'.")
        size = len(parsed)
        for number, row in enumerate(parsed, 1):
            if len(row) != size:
                raise NotationError(
                    f"Row {number} of the board has {len(row)} cells but there are {size} rows; "
                    "a tray is square, so give every row the same number of cells."
                )
        return cls(parsed)

    @classmethod
    def from_faces(cls, faces: Sequence[Face], size: int) -> Board:
        """Lay ``size * size`` faces into rows, as a roll fills the tray.

        >>> str(Board.from_faces([Face(ch) for ch in "ABCD"], 2))
        'AB/CD'
        """
        if len(faces) != size * size:
            raise NotationError(
                f"A {size}x{size} tray holds {size * size} faces, not {len(faces)}."
            )
        return cls(tuple(tuple(faces[row * size : (row + 1) * size]) for row in range(size)))

    @property
    def size(self) -> int:
        return len(self.rows)

    def __getitem__(self, cell: Cell) -> Face:
        row, col = cell
        return self.rows[row][col]

    def cells(self) -> Iterator[Cell]:
        """Every cell, row by row."""
        for row in range(self.size):
            for col in range(self.size):
                yield row, col

    def neighbours(self, cell: Cell) -> Iterator[Cell]:
        """The cells touching ``cell`` by a side or a corner."""
        row, col = cell
        for r in range(max(row - 1, 0), min(row + 2, self.size)):
            for c in range(max(col - 1, 0), min(col + 2, self.size)):
                if (r, c) != cell:
                    yield r, c

    def faces(self) -> list[Face]:
        return [self[cell] for cell in self.cells()]

    def __str__(self) -> str:
        return "/".join("".join(face.symbol for face in row) for row in self.rows)

    def __repr__(self) -> str:
        return f"Board.parse({str(self)!r})"


def _parse_row(row: str) -> list[Face]:
    if " " in row or (row and row == row.lower()):
        return [Face.parse(cell) for cell in row.split()] if " " in row else _parse_lower(row)
    faces = _COMPACT_FACE.findall(row)
    if "".join(faces) != row:
        bad = next((ch for ch in row if ch not in _FACE_CHARACTERS), None)
        if bad is None:
            raise NotationError(
                f"The board row {row!r} mixes capitals and small letters; write each face "
                "with a capital (TNTB, UAEQuI) or the whole row small with spaces (t n t b)."
            )
        raise NotationError(
            f"{bad!r} in the board row {row!r} is not a cube face; "
            "use the letters A-Z (the cubes show no accents), Qu, # and *."
        )
    return [Face.parse(face) for face in faces]


def _parse_lower(row: str) -> list[Face]:
    """A lowercase row without spaces: one letter a cell, ``q`` standing for Qu."""
    return [Face.parse(ch) for ch in row]


def _split_square(text: str) -> list[str]:
    """Split an unbroken row of single letters (``TNTBGDAR...``) into a square's rows."""
    faces = _COMPACT_FACE.findall(text) if text != text.lower() else list(text)
    side = isqrt(len(faces))
    if side * side != len(faces):
        raise NotationError(
            f"The board {text!r} has {len(faces)} cells, which is not a square; "
            "separate its rows with '/'."
        )
    return ["".join(faces[i : i + side]) for i in range(0, len(faces), side)]
