"""Score a finished Ad-Lib or Scribbage crossword from its roll and its grid.

The ``score`` command hands ``--game adlib|scribbage`` here. The grid file holds one row a
line: capital letters for cubes, small letters for jokers, dots or spaces for empty cells;
``-`` reads it from standard input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from device.output import emit_json
from engine.adlib import STANDARD, YOUNG, Grid, Roll, Verdict, referee
from engine.errors import NotationError, RuleError
from engine.lexicon import Lexicon

HELP = "score an Ad-Lib or Scribbage crossword"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, help="adlib or scribbage")
    parser.add_argument("--roll", required=True, help="the faces on top, such as 'M O N E Y ...'")
    parser.add_argument("--grid", required=True, help="the crossword's text file, or - for stdin")
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
    roll = Roll.parse(args.roll, game)
    grid = read_grid(args.grid)
    rules = YOUNG if getattr(args, "young", False) else STANDARD
    verdict = referee(roll, grid, Lexicon.open("en"), rules)
    if verdict.roll_errors:
        # Cubes on the table that were never rolled: the input is wrong, not the play.
        raise RuleError(" ".join(verdict.roll_errors))
    if args.json:
        emit_json(verdict.to_json())
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
