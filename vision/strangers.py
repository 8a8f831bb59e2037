"""A tray photographed for a game of loose cubes (Ad-Lib, Scribbage) is refused with a
sentence saying what was seen, never read as a crossword made up of whatever the set's
cubes can explain.

Finds the set does not explain, however many, are no reason to refuse: a patterned table
gives the finder a dozen false tops beside a true roll (3D val tables: 20 finds, 7 of
them none of the cubes, around a roll read right), and those are left out with a
warning. Only a lattice as full as a tray's tells another game."""

from __future__ import annotations

from collections.abc import Sequence

from vision.detect import FaceQuad
from vision.errors import WrongGame
from vision.tray import full_tray

#: The trays' sides (Boggle and Czech Boggle 4, Big Boggle 5, Super Big Boggle 6).
TRAY_SIDES = (4, 5, 6)


def refuse_trays(quads: Sequence[FaceQuad], dice: int, game: str) -> None:
    """Raise ``WrongGame`` where the finds that look like cubes (``quads``) fill a tray's
    lattice (the game's set has ``dice`` cubes)."""
    for side in TRAY_SIDES:
        if full_tray(side, {})(list(quads)):
            raise WrongGame(
                f"The photo shows a {side}x{side} tray of {side * side} cubes (a "
                f"{_played_on(side)} tray), not the {dice} loose {game} cubes; read it as its "
                f"game, or photograph the {game} cubes on the table without a tray."
            )


def _played_on(side: int) -> str:
    """The games played on a tray of ``side`` cubes a side, by title."""
    from engine.games import GAMES

    return " or ".join(game.title for game in GAMES.values() if game.size == side)
