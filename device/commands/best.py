"""The best crossword a roll allows: the highest-scoring valid crossword found in the time
given, and whether the search proved that nothing scores more."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, TextIO

from device.base.inputs import ranged
from device.commands import options
from device.commands.output import emit_json
from device.seams.seams import cores

if TYPE_CHECKING:
    from engine.adlib.search import Progress

#: An hour is more than any roll needs (the box gives a few seconds).
MAX_SECONDS = 3600.0
#: Refused above this; above the cores, cut to them.
MAX_WORKERS = 256


def add_arguments(parser: argparse.ArgumentParser) -> None:
    options.add_game(parser, trays=False)
    parser.add_argument("--roll", required=True, help="the faces on top, such as 'M O N E Y ...'")
    parser.add_argument(
        "--seconds",
        type=ranged(float, 0.1, MAX_SECONDS, 10.0),
        default=10.0,
        metavar="S",
        help=f"how long to search, 0.1 to {MAX_SECONDS:g} (default 10)",
    )
    parser.add_argument(
        "--workers",
        type=ranged(int, 1, MAX_WORKERS, cores()),
        default=cores(),
        metavar="N",
        help="processes to search with, one per core; more than the cores are cut to them "
        f"(default {cores()}, this machine's cores)",
    )
    options.add_lexicon(parser)
    options.add_json(parser)


def run(args: argparse.Namespace) -> int:
    from device.seams.search import best_crossword
    from engine.adlib.roll import Roll
    from engine.lexicon import Lexicon

    game = options.crossword_game(args.game, "The best crossword is searched")
    workers = args.workers
    if workers > cores():
        workers = cores()
        print(
            f"cuberef: --workers {args.workers} is more than this machine's {workers} cores; "
            f"searching with {workers}.",
            file=sys.stderr,
        )
    roll = Roll.parse(args.roll, game.id)
    lexicon = Lexicon.open(options.game_lexicon(args, game))
    # On a terminal, how the search stands, on one line of stderr rewritten in place; never
    # in a pipe, nor with --json.
    shown = Standing(sys.stderr, roll.total) if sys.stderr.isatty() and not args.json else None
    try:
        found = best_crossword(roll, lexicon, args.seconds, workers=workers, progress=shown)
    finally:
        if shown is not None:
            shown.clear()
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


class Standing:
    """The search's best so far, its bound and its time left, as one line rewritten in place
    at most ten times a second."""

    def __init__(self, stream: TextIO, total: int, every: float = 0.1) -> None:
        self.stream, self.total, self.every = stream, total, every
        self.shown = -1.0  # when the line was last drawn (time.monotonic)

    def __call__(self, now: Progress) -> None:
        moment = time.monotonic()
        if moment - self.shown < self.every:
            return
        self.shown = moment
        best = "none yet" if now.score <= -self.total else str(now.score)
        left = max(0.0, now.left)
        self.stream.write(f"\rbest so far {best}, bound {now.bound}, {left:.1f} s left\x1b[K")
        self.stream.flush()

    def clear(self) -> None:
        """Take the line away, leaving the cursor where it found it."""
        if self.shown >= 0:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
