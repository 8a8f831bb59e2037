"""Roll a game's cubes as the physical set would land: each cube to a random cell,
a random face up. Prints a board for tray games and a roll for Ad-Lib."""

from __future__ import annotations

import argparse
import random

from device.base.inputs import ranged
from device.commands import options
from device.commands.output import emit_json
from engine.board import Board
from engine.games import find_game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    options.add_game(parser)
    options.add_dice(parser)
    parser.add_argument(
        "--seed",
        type=ranged(int, 0, 2**63 - 1, 7),
        metavar="N",
        help="the same seed gives the same roll (default: a new roll each time)",
    )
    options.add_json(parser)


def run(args: argparse.Namespace) -> int:
    game = find_game(args.game)
    faces = game.cube_set(options.dice(args)).roll(random.Random(args.seed))
    if game.is_tray:
        board = Board.from_faces(faces, game.size)
        if args.json:
            emit_json({"game": game.id, "board": str(board)})
        else:
            print(str(board))
        return 0
    roll = " ".join(map(str, faces))
    if args.json:
        emit_json({"game": game.id, "roll": roll})
    else:
        print(roll)
    return 0
