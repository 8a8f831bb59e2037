"""Jokers read from a photo: which letter each one stands for.

A camera sees a joker's symbol, not the letter the player meant. The letter is the one
that makes every word through the joker a word. A joker scores nothing, so when several
letters fit, the score is the same whichever is taken; the players are told the choices.

>>> from engine.lexicon import Lexicon
>>> grid, choices = settle_jokers(["CA*"], Lexicon.open("en"))
>>> str(grid), choices[(0, 2)][:4]
('CAb', ['b', 'd', 'm', 'n'])
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import product
from string import ascii_lowercase

from engine.adlib.grid import Grid
from engine.errors import RuleError
from engine.lexicon import Lexicon

UNSETTLED = "*"


def settle_jokers(
    rows: Iterable[str], lexicon: Lexicon
) -> tuple[Grid, dict[tuple[int, int], list[str]]]:
    """The crossword with each ``*`` replaced by a fitting letter, and every letter that fits
    each joker (cell -> letters). Raises RuleError when no letter fits."""
    rows = list(rows)
    jokers = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == UNSETTLED]
    fits: list[tuple[str, ...]] = []
    for letters in product(ascii_lowercase, repeat=len(jokers)):
        grid = Grid.from_rows(_filled(rows, dict(zip(jokers, letters, strict=True))))
        if all(run.word in lexicon for run in grid.runs() if set(run.cells) & set(jokers)):
            fits.append(letters)
    if not fits:
        where = ", ".join(f"row {r + 1}, column {c + 1}" for r, c in jokers)
        raise RuleError(
            f"No letter makes every word through the joker ({where}) a word, so this "
            "crossword does not score; check the photo or give the grid with --grid."
        )
    choices = {cell: sorted({letters[i] for letters in fits}) for i, cell in enumerate(jokers)}
    return Grid.from_rows(_filled(rows, dict(zip(jokers, fits[0], strict=True)))), choices


def _filled(rows: list[str], letters: dict[tuple[int, int], str]) -> list[str]:
    return [
        "".join(letters.get((r, c), ch) for c, ch in enumerate(row)) for r, row in enumerate(rows)
    ]
