"""The best crossword a roll allows: the highest-scoring valid crossword found in the time
given, and whether the search proved that nothing scores more."""

from __future__ import annotations

import argparse

from device.commands import options
from device.output import emit_json
from device.seams import cores
from engine.errors import NotationError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    options.add_game(parser, trays=False)
    parser.add_argument("--roll", required=True, help="the faces on top, such as 'M O N E Y ...'")
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="how long to search (default 10)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=cores(),
        help=f"processes to search with, one per core is best (default {cores()}, this machine's)",
    )
    options.add_lexicon(parser)
    options.add_json(parser)


def run(args: argparse.Namespace) -> int:
    from device.search import best_crossword
    from engine.adlib.roll import Roll
    from engine.lexicon import Lexicon

    game = options.crossword_game(args.game, "The best crossword is searched")
    if not args.seconds > 0:
        raise NotationError("Give --seconds a time above 0, such as --seconds 10.")
    if args.workers < 1:
        raise NotationError("Give --workers a count of 1 or more, such as --workers 4.")
    found = best_crossword(
        Roll.parse(args.roll, game.id),
        Lexicon.open(options.game_lexicon(args, game)),
        args.seconds,
        workers=args.workers,
    )
    if args.json:
        emit_json(found.to_json())
        return 0
    print("\n".join(found.rows) if found.rows else "(no word can be laid)")
    print(f"Score: {found.score}")
    if found.proven_optimal:
        print(f"Proven best ({found.seconds:.1f} s).")
    else:
        print(
            f"Best found in {found.seconds:.1f} s; no crossword of this roll can score "
            f"more than {found.upper_bound}."
        )
    return 0
