"""A crossword laid out on the table, as text: one row a line.

``.`` or a space is an empty cell, a capital letter is a cube showing that letter, and a
small letter is a joker standing for that letter.

>>> grid = Grid.parse("...W.\\nTIGER\\nOF.A.\\nN..V.\\n...E.")
>>> [run.text for run in grid.runs()]
['TIGER', 'OF', 'TON', 'IF', 'WEAVE']
>>> print(Grid.parse("..\\n.a\\n.B").shifted(5, -3))
a
B
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from engine.errors import NotationError

Cell = tuple[int, int]
ACROSS, DOWN = "across", "down"


#: The widest and tallest grid read: a crossword of one roll (a score of cubes at most)
#: fits many times over, and a stray file is refused before any work.
MAX_SIDE = 64


@dataclass(frozen=True, slots=True)
class Tile:
    """One cube on the table: the letter it shows (lowercase) and whether it is a joker."""

    letter: str
    joker: bool = False

    def __str__(self) -> str:
        return self.letter if self.joker else self.letter.upper()


@dataclass(frozen=True, slots=True)
class Run:
    """A line of two or more touching cubes, across or down: what must be a word."""

    direction: str
    cells: tuple[Cell, ...]
    tiles: tuple[Tile, ...]

    @property
    def text(self) -> str:
        """As the grid shows it: cubes in capitals, jokers in small letters."""
        return "".join(map(str, self.tiles))

    @property
    def word(self) -> str:
        """The word it spells, lowercase."""
        return "".join(tile.letter for tile in self.tiles)

    @property
    def start(self) -> Cell:
        return self.cells[0]


@dataclass(frozen=True, slots=True)
class Grid:
    """The cubes of a crossword by cell (row, column); rows grow down, columns right."""

    tiles: Mapping[Cell, Tile]

    @classmethod
    def parse(cls, text: str) -> Grid:
        tiles: dict[Cell, Tile] = {}
        lines = text.splitlines()
        if len(lines) > MAX_SIDE or any(len(line) > MAX_SIDE for line in lines):
            raise NotationError(
                f"The grid is larger than {MAX_SIDE} by {MAX_SIDE} cells; a crossword of one "
                "roll fits in far fewer: check that it is the right file."
            )
        for row, line in enumerate(lines):
            for col, char in enumerate(line.rstrip("\r\n")):
                if char in ". \t":
                    continue
                if not (char.isascii() and char.isalpha()):
                    raise NotationError(
                        f"The grid has {char!r} at row {row + 1}, column {col + 1}; write cubes "
                        "as capital letters, jokers as small letters and empty cells as dots."
                    )
                tiles[row, col] = Tile(char.lower(), joker=char.islower())
        if not tiles:
            raise NotationError(
                "The crossword grid is empty; give one row a line, capital letters for cubes, "
                "small letters for jokers and dots for empty cells."
            )
        return cls(tiles)

    @classmethod
    def from_rows(cls, rows: Iterable[str]) -> Grid:
        return cls.parse("\n".join(rows))

    def __len__(self) -> int:
        return len(self.tiles)

    def __iter__(self) -> Iterator[Cell]:
        return iter(sorted(self.tiles))

    def shifted(self, rows: int, cols: int) -> Grid:
        """The same crossword moved across the table, then drawn from its top-left corner."""
        moved = {(r + rows, c + cols): tile for (r, c), tile in self.tiles.items()}
        return Grid(moved).normalised()

    def normalised(self) -> Grid:
        """The same crossword with its top row and left column at 0."""
        top = min(r for r, _ in self.tiles)
        left = min(c for _, c in self.tiles)
        return Grid({(r - top, c - left): tile for (r, c), tile in self.tiles.items()})

    def rows(self) -> list[str]:
        """The text rows of the crossword's bounding box, from its top-left corner."""
        top = min(r for r, _ in self.tiles)
        bottom = max(r for r, _ in self.tiles)
        left = min(c for _, c in self.tiles)
        right = max(c for _, c in self.tiles)
        return [
            "".join(
                str(self.tiles[r, c]) if (r, c) in self.tiles else "."
                for c in range(left, right + 1)
            )
            for r in range(top, bottom + 1)
        ]

    def __str__(self) -> str:
        return "\n".join(self.rows())

    def runs(self) -> list[Run]:
        """Every across run of two or more cubes (top to bottom), then every down run."""
        found: list[Run] = []
        for direction, (dr, dc) in ((ACROSS, (0, 1)), (DOWN, (1, 0))):
            order = (
                sorted(self.tiles)
                if direction == ACROSS
                else sorted(self.tiles, key=lambda cell: (cell[1], cell[0]))
            )
            for r, c in order:
                if (r - dr, c - dc) in self.tiles:
                    continue  # not the start of a run
                cells = [(r, c)]
                while (cells[-1][0] + dr, cells[-1][1] + dc) in self.tiles:
                    cells.append((cells[-1][0] + dr, cells[-1][1] + dc))
                if len(cells) >= 2:
                    found.append(
                        Run(direction, tuple(cells), tuple(self.tiles[cell] for cell in cells))
                    )
        return found

    def groups(self) -> list[set[Cell]]:
        """The sets of cubes joined by sides: one for a connected crossword."""
        left = set(self.tiles)
        groups: list[set[Cell]] = []
        while left:
            stack = [left.pop()]
            group = set(stack)
            while stack:
                r, c = stack.pop()
                for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if near in left:
                        left.remove(near)
                        group.add(near)
                        stack.append(near)
            groups.append(group)
        return groups
