"""Read the cubes in a photo: a tray's board, or loose cubes and their crossword."""

from __future__ import annotations

import argparse
import sys

from device.base.inputs import picture_to_write
from device.commands import options
from device.commands.output import emit_json
from device.commands.photo import load_photo
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

    from vision import LooseReading, read

    game = find_game(args.game)
    annotate = picture_to_write(args.annotate, "--annotate") if args.annotate else None
    image = load_photo(args.photo)
    reading = read(image, game, dice=options.dice(args), upright=args.upright)
    for warning in reading.warnings:
        print(f"cuberef: {warning}", file=sys.stderr)
    if annotate is not None:
        try:
            written = cv2.imwrite(str(annotate), reading.annotate(image))
        except cv2.error:
            written = False
        if not written:
            raise MachineError(
                f"Cannot write the annotated picture to {annotate}; check that the disk has room."
            )
    if args.json:
        emit_json(reading.to_json())
        return 0
    if isinstance(reading, LooseReading):
        print(reading.to_json()["roll"])
        if reading.grid is not None:
            print("\n".join(reading.grid))
            print("unused:", " ".join(map(str, reading.unused)) or "none")
    else:
        print(reading.board)
    print(f"lowest confidence: {reading.min_confidence:.2f}")
    return 0
