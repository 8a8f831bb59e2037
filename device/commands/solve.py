"""Every word on a tray, with one path and the points of each, and the maximum score.

The board is the text of its rows, top to bottom, separated by '/': TNTB/GDAR/ELTE/SISH.
Qu is one cell, # a blank (blocked) cell."""

from __future__ import annotations

import argparse
from typing import Any

from device.commands import options
from device.commands.output import emit_json
from device.commands.photo import read_photo
from engine.board import Board
from engine.errors import NotationError, RuleError
from engine.games import Game, find_game
from engine.tray import check_tray, tray_board


def add_tray_arguments(
    parser: argparse.ArgumentParser, *, trays: bool | None = True, game: str | None = None
) -> None:
    """The options every tray command takes: the game (``game``: its default, else it is
    required), its dice, the board, the lexicon (``trays=None``: the crossword games are
    among the games too)."""
    options.add_game(parser, trays=trays, default=game)
    parser.add_argument(
        "--board", help="the tray's rows separated by '/', e.g. TNTB/GDAR/ELTE/SISH"
    )
    options.add_dice(parser, trays=True)
    options.add_lexicon(parser)
    options.add_json(parser)


def tray_game(args: argparse.Namespace, photo: str | None = None) -> tuple[Game, Board, Any]:
    """The game, the board and the reading of the photo (None for ``--board``), checked
    against each other."""
    game = find_game(args.game)
    if not game.is_tray:
        raise RuleError(
            f"{game.title} is not played on a tray; use 'cuberef score --game {game.id} "
            "--roll R --grid FILE' or 'cuberef best'."
        )
    if photo and args.board:
        raise NotationError("Give the tray as a photo or with --board, not both.")
    dice = options.dice(args)
    if photo:
        from vision import TrayReading

        reading = read_photo(photo, game, dice)
        if not isinstance(reading, TrayReading):
            raise NotationError(f"The photo shows no {game.title} tray; photograph the tray.")
        return game, check_tray(reading.board, game, dice), reading
    if not args.board:
        raise NotationError(
            "Give the board with --board, its rows separated by '/', or a photo of the tray."
        )
    return game, tray_board(args.board, game, dice), None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo", nargs="?", help="a photo of the tray, instead of --board")
    add_tray_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from engine.lexicon import Lexicon
    from engine.solver import solve

    game, board, reading = tray_game(args, args.photo)
    words = solve(board, game, Lexicon.open(options.game_lexicon(args, game)))
    total = sum(found.points for found in words)
    if args.json:
        document: dict[str, Any] = {
            "game": game.id,
            "board": str(board),
            "words": [
                {"word": w.word, "points": w.points, "path": [list(cell) for cell in w.path]}
                for w in words
            ],
            "total": total,
        }
        if reading is not None:
            document["reading"] = reading.to_json()
        emit_json(document)
        return 0
    for row in board.rows:
        print(" ".join(f"{face.symbol:<2}" for face in row).rstrip())
    print()
    width = max((len(w.word) for w in words), default=0)
    for w in sorted(words, key=lambda w: (-w.points, w.word)):
        print(f"{w.word:<{width}}  {w.points:>2}")
    print(f"\n{len(words)} words, maximum score {total}")
    return 0
