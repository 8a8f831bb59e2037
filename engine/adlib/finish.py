"""A crossword the best-crossword search has finished: its score and its grid.

The search places letters, not cubes; here each letter's cubes go to the cells that count
most, and jokers fill the rest (`engine.adlib.layout` shows them at work).
"""

from __future__ import annotations

from engine.adlib.grid import Grid, Tile
from engine.adlib.layout import Layout
from engine.adlib.words import VALUES


def score(layout: Layout) -> tuple[int, set[int]]:
    """The finished crossword's score, and the cells left to jokers: where a letter has
    more cells than cubes, its cubes go to the cells that count most."""
    if not layout.short:  # every letter has its cubes: no joker to place
        return layout.value - layout.total, set()
    across, down = layout.state
    letter, need, have = layout.letter, layout.need, layout.have
    total = -layout.total
    short: dict[int, list[tuple[int, int]]] = {}
    for cell in layout.order:
        code = letter[cell]
        words = (across[cell] == 2) + (down[cell] == 2)
        if need[code] > have[code]:
            short.setdefault(code, []).append((words, cell))
        else:
            total += VALUES[code] * (words + 1)
    jokers: set[int] = set()
    for code, cells in short.items():
        cells.sort(reverse=True)
        cubes = have[code]
        for words, _cell in cells[:cubes]:
            total += VALUES[code] * (words + 1)
        jokers.update(cell for _, cell in cells[cubes:])
    return total, jokers


def grid(layout: Layout, jokers: set[int]) -> Grid:
    """The crossword laid, as a grid, with jokers in the cells `jokers`."""
    tiles = {}
    half = layout.stride // 2
    for cell in layout.order:
        row, col = divmod(cell - layout.root + half, layout.stride)
        col -= half
        if layout.spelling.backwards:  # the crossword was built turned half round
            row, col = -row, -col
        tiles[row, col] = Tile(chr(97 + layout.letter[cell]), joker=cell in jokers)
    return Grid(tiles).normalised()
