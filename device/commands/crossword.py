"""Score a finished Ad-Lib or Scribbage crossword from its roll and its grid.

The ``score`` command hands ``--game adlib|scribbage`` here. The grid file holds one row a
line: capital letters for cubes, small letters for jokers, dots or spaces for empty cells;
``-`` reads it from standard input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from device.commands.photo import read_photo
from device.output import emit_json
from engine.adlib import STANDARD, YOUNG, Grid, Roll, Verdict, referee
from engine.adlib.jokers import settle_jokers
from engine.errors import NotationError, RuleError
from engine.games import find_game
from engine.lexicon import Lexicon

HELP = "score an Ad-Lib or Scribbage crossword"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, help="adlib or scribbage")
    parser.add_argument("--roll", help="the faces on top, such as 'M O N E Y ...'")
    parser.add_argument("--grid", help="the crossword's text file, or - for stdin")
    parser.add_argument("--young", action="store_true", help="the young players' rules")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def read_grid(path: str) -> Grid:
    if path == "-":
        return Grid.parse(sys.stdin.read())
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise NotationError(
            f"Cannot read the grid file {path!r} ({error.__class__.__name__}); give a UTF-8 "
            "text file with one row of the crossword a line."
        ) from None
    return Grid.parse(text)


def run(args: argparse.Namespace) -> int:
    game = args.game.strip().lower()
    if game not in ("adlib", "scribbage"):
        raise NotationError(f"Crosswords are scored for adlib or scribbage, not {args.game!r}.")
    lexicon = Lexicon.open("en")
    photo = getattr(args, "photo", None)
    reading = None
    if photo:
        if args.roll or args.grid:
            raise NotationError(
                "Give the crossword as a photo or with --roll and --grid, not both."
            )
        reading = read_photo(photo, find_game(game))
        if not reading.grid:
            raise NotationError(
                "The photo shows no crossword: lay the cubes edge to edge in rows and columns "
                "and take the photo again, or give --roll and --grid."
            )
        roll = Roll.parse(reading.roll, game)
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
        roll = Roll.parse(args.roll, game)
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
