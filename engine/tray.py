"""A board checked against its game: the tray's size and faces its cubes carry.

>>> from engine.games import find_game
>>> str(tray_board("TNTB/GDAR/ELTE/SISH", find_game("boggle")))
'TNTB/GDAR/ELTE/SISH'
>>> tray_board("TNTB/GDAR/ELTE/SISH", find_game("big-boggle"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.RuleError: The board has 16 cells but Big Boggle is played on 25 (5x5); ...
"""

from __future__ import annotations

from engine.board import Board
from engine.cubes import CubeSet
from engine.errors import NotationError, RuleError
from engine.games import Game
from engine.lexicon import fold


def tray_board(text: str, game: Game, dice: str | CubeSet | None = None) -> Board:
    """Parse ``text`` and check it could have been rolled with the game's cubes."""
    accented = next((ch for ch in text if ch.isalpha() and not ch.isascii()), None)
    if accented is not None:
        raise NotationError(
            f"{accented!r} is not a cube face: the cubes show plain letters, "
            f"so write {fold(accented).upper() or '?'} (the words may still add diacritics)."
        )
    return check_tray(Board.parse(text), game, dice)


def check_tray(board: Board, game: Game, dice: str | CubeSet | None = None) -> Board:
    """``board`` as it is, once checked to be the game's size and its faces its cubes'."""
    if not game.is_tray:
        raise RuleError(f"{game.title} is not played on a tray; give its roll instead.")
    size = game.size
    if board.size != size:
        raise RuleError(
            f"The board has {board.size**2} cells but {game.title} is played on "
            f"{size * size} ({size}x{size}); give {size} rows of {size} faces."
        )
    cube_set = game.cube_set(dice)
    known = cube_set.faces()
    for cell in board.cells():
        face = board[cell]
        if face not in known:
            row, col = cell
            raise RuleError(
                f"{face} (row {row + 1}, column {col + 1}) is on no cube of the "
                f"{cube_set.title} set; check that cell, or pass --dice for your edition."
            )
    return board
