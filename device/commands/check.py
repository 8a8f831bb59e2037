"""Is each word valid on this tray, and if not, why: too short, not on the board
(and which letter cannot be reached), or not a word. Czech words written without
diacritics are accepted when one spelling fits, or several of equal points (each is
named)."""

from __future__ import annotations

import argparse

from device.commands import options
from device.commands.solve import add_tray_arguments, tray_game
from device.inputs import typed
from device.output import emit_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_tray_arguments(parser)
    parser.add_argument("words", nargs="+", metavar="WORD", help="the words to check")
    options.add_min_length(parser)


def run(args: argparse.Namespace) -> int:
    from engine.lexicon import Lexicon
    from engine.referee import check

    game, board, _ = tray_game(args)
    lexicon = Lexicon.open(options.game_lexicon(args, game))
    words = [typed(word, f"The word {word!r}") for word in args.words]
    rulings = [check(word, board, game, lexicon, args.min_length) for word in words]
    if args.json:
        emit_json(
            {
                "results": [
                    {
                        "word": r.word,
                        "valid": r.valid,
                        "reason": r.reason,
                        "points": r.points,
                        "path": [list(cell) for cell in r.path],
                        "status": r.status,
                        "spelling": r.spelling,
                    }
                    for r in rulings
                ]
            }
        )
        return 0
    for r in rulings:
        if r.valid:
            cells = " ".join(f"{row + 1},{col + 1}" for row, col in r.path)
            note = f" ({r.reason})" if r.reason else ""
            plural = "" if r.points == 1 else "s"
            print(f"{r.spelling}: valid, {r.points} point{plural}{note}; path {cells}")
        else:
            print(f"{r.word}: {r.reason}")
    return 0
