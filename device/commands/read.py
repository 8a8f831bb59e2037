"""Read the cubes in a photo: a tray's board, or loose cubes and their crossword."""

from __future__ import annotations

import argparse

from device.commands import options
from device.output import emit_json
from engine.errors import MachineError
from engine.games import find_game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photo", help="a JPEG or PNG photo of the tray or the cubes")
    options.add_game(parser)
    options.add_dice(parser)
    options.add_json(parser)
    parser.add_argument("--annotate", metavar="OUT.png", help="write the photo marked up")
    parser.add_argument(
        "--upright", action="store_true", help="turn the board so most letters stand upright"
    )


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision import LooseReading, load_image, read

    game = find_game(args.game)
    image = load_image(args.photo)
    reading = read(image, game, dice=args.dice, upright=args.upright)
    if args.annotate and not cv2.imwrite(args.annotate, reading.annotate(image)):
        raise MachineError(f"Cannot write the annotated picture to {args.annotate!r}.")
    if args.json:
        emit_json(reading.to_json())
        return 0
    if isinstance(reading, LooseReading):
        print(reading.roll)
        if reading.grid is not None:
            print("\n".join(reading.grid))
            print("unused:", " ".join(reading.unused) or "none")
    else:
        print(reading.board)
    print(f"lowest confidence: {reading.min_confidence:.2f}")
    for warning in reading.warnings:
        print("warning:", warning)
    return 0
