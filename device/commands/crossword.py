"""Score a finished Ad-Lib or Scribbage crossword from its roll and its grid.

The ``score`` command hands ``--game adlib|scribbage`` here. The grid file holds one row a
line: capital letters for cubes, small letters for jokers, dots or spaces for empty cells;
``-`` reads it from standard input.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from device.commands import options
from device.commands.photo import read_photo
from device.inputs import read_text
from device.output import emit_json
from engine.errors import NotationError, RuleError

if TYPE_CHECKING:
    from engine.adlib.grid import Grid
    from engine.adlib.referee import Verdict


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of scoring a crossword on its own (``score`` adds them to its own)."""
    options.add_game(parser, trays=False)
    add_crossword_arguments(parser)
    parser.add_argument("--young", action="store_true", help="the young players' rules")
    options.add_lexicon(parser)
    options.add_json(parser)


def add_crossword_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--roll", help="Ad-Lib: the roll, faces separated by spaces")
    parser.add_argument("--grid", metavar="FILE", help="Ad-Lib: the crossword's text file, or -")


def read_grid(path: str) -> Grid:
    from engine.adlib.grid import Grid

    return Grid.parse(read_text(path, "the crossword's grid"))


def run(args: argparse.Namespace) -> int:
    from engine.adlib.jokers import settle_jokers
    from engine.adlib.referee import STANDARD, YOUNG, referee
    from engine.adlib.roll import Roll
    from engine.lexicon import Lexicon

    game = options.crossword_game(args.game, "Crosswords are scored")
    lexicon = Lexicon.open(options.game_lexicon(args, game))
    photo = getattr(args, "photo", None)
    reading = None
    if photo:
        if args.roll or args.grid:
            raise NotationError(
                "Give the crossword as a photo or with --roll and --grid, not both."
            )
        reading = read_photo(photo, game)
        if not reading.grid:
            raise NotationError(
                "The photo shows no crossword: lay the cubes edge to edge in rows and columns "
                "and take the photo again, or give --roll and --grid."
            )
        roll = Roll.parse(reading.roll, game.id)
        grid, choices = settle_jokers(reading.grid, lexicon)
        for (row, col), letters in choices.items():
            print(
                f"cuberef: the joker at row {row + 1}, column {col + 1} stands for "
                f"{' or '.join(letter.upper() for letter in letters)} (it scores 0 either way).",
                file=sys.stderr,
            )
    elif not (args.roll and args.grid):
        raise NotationError(
            "Give the roll with --roll and the crossword with --grid, or a photo of the crossword."
        )
    else:
        roll = Roll.parse(args.roll, game.id)
        grid = read_grid(args.grid)
    rules = YOUNG if getattr(args, "young", False) else STANDARD
    verdict = referee(roll, grid, lexicon, rules)
    if verdict.roll_errors:
        # Cubes on the table that were never rolled: the input is wrong, not the play.
        raise RuleError(" ".join(verdict.roll_errors))
    if args.json:
        document = verdict.to_json()
        if reading is not None:
            document["reading"] = reading.to_json()
        emit_json(document)
    else:
        print(describe(verdict))
    return 0


def describe(verdict: Verdict) -> str:
    """The verdict as a player reads it."""
    lines = []
    for title, words in (("Across", verdict.across), ("Down", verdict.down)):
        listed = ", ".join(
            f"{word.text} {word.points}" + ("" if word.valid else " (not a word)") for word in words
        )
        lines.append(f"{title}: {listed or '-'}")
    unused = " ".join(map(str, verdict.unused)) or "none"
    lines.append(f"Unused: {unused} (-{verdict.unused_points})")
    if verdict.valid:
        lines.append(f"Score: {verdict.score}")
    else:
        lines.append("No score: " + " ".join(verdict.errors))
    return "\n".join(lines)
