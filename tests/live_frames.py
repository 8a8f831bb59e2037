"""The live-reading tests' table: the 13 Ad-Lib cubes of the README's crossword, and the
frames of a hand over it (``tests/conftest.py`` makes them once a session)."""

from __future__ import annotations

import numpy as np

from models.sequences import Hand, Shot, Table, laid

FACES = ["M", "O", "N", "E", "Y", "S", "T", "E", "B", "U", "J", "O", "Q"]
ROLL = " ".join(FACES)
CROSSWORD = ["S....", "T.B.J", "E.U.O", "MONEY"]  # the README's, the Q left unused: 31


def make_table() -> Table:
    return Table(3, FACES, frame=(800, 600))


def hand_frames(table: Table) -> list[tuple[Shot, np.ndarray]]:
    """The finished crossword, then a hand over it: held still for four frames, then
    moving for three, then gone."""
    full = Shot(laid(table, CROSSWORD))
    over = table.where((3, 3))  # the crossword's middle
    shots = [full] * 3
    shots += [Shot(full.cells, Hand(over, fingers=3, seed=1))] * 4
    shots += [
        Shot(full.cells, Hand((over[0] + 0.04 * k, over[1] - 0.05 * k), seed=2)) for k in range(3)
    ]
    shots += [full] * 3
    return [(shot, table.photo(shot, number)) for number, shot in enumerate(shots)]
