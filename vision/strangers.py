"""Cubes that are not the game's: a tray, or more cubes than the set has, in a photo read
for a game of loose cubes (Ad-Lib, Scribbage) is refused with a sentence saying what was
seen, never read as a crossword made up of whatever the set's cubes can explain."""

from __future__ import annotations

from collections.abc import Sequence

from vision.detect import FaceQuad
from vision.errors import WrongGame
from vision.tray import full_tray

#: The trays' sides (Boggle and Czech Boggle 4, Big Boggle 5, Super Big Boggle 6).
TRAY_SIDES = (4, 5, 6)
#: Finds that no cube of the set explains, among more finds than it has cubes, that are
#: more than a stray or a misread: another set's cubes. Over 40 rendered Ad-Lib scenes and
#: the 6 demo photos there are none; over 6 real photos of other loose dice, one at most.
STRANGERS = 3


def refuse_strangers(quads: Sequence[FaceQuad], unexplained: int, dice: int, game: str) -> None:
    """Raise ``WrongGame`` where the finds that look like cubes (``quads``) fill a tray's
    lattice, or are more than the set's ``dice`` with ``unexplained`` of them (left out, or
    read as faces no free cube of the set shows) at least :data:`STRANGERS`."""
    for side in TRAY_SIDES:
        if full_tray(side, {})(list(quads)):
            raise WrongGame(
                f"The photo shows a {side}x{side} tray of {side * side} cubes (a "
                f"{_played_on(side)} tray), not the {dice} loose {game} cubes; read it as its "
                f"game, or photograph the {game} cubes on the table without a tray."
            )
    if len(quads) > dice and unexplained >= STRANGERS:
        raise WrongGame(
            f"The photo shows {len(quads)} cubes where {game} has {dice}, and {unexplained} "
            f"of them are none of its cubes; photograph the {game} cubes alone, or read "
            "these as their own game."
        )


def _played_on(side: int) -> str:
    """The games played on a tray of ``side`` cubes a side, by title."""
    from engine.games import GAMES

    return " or ".join(game.title for game in GAMES.values() if game.size == side)
