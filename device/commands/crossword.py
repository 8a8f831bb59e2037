"""Score a finished Ad-Lib or Scribbage crossword from its roll and its grid.

The ``score`` command hands ``--game adlib|scribbage`` here. The grid file holds one row a
line: capital letters for cubes, small letters for jokers, dots or spaces for empty cells;
``-`` reads it from standard input.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from device.base.inputs import read_text
from device.commands import match as matches
from device.commands import options
from device.commands.output import emit_json
from device.commands.photo import read_crossword_photo
from device.seams.seams import NoCrossword, Scorer
from engine.errors import NotationError, RuleError

if TYPE_CHECKING:
    from engine.adlib.grid import Grid
    from engine.adlib.match import Match as AdlibMatch
    from engine.adlib.referee import Verdict


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of scoring a crossword on its own (``score`` adds them to its own)."""
    options.add_game(parser, trays=False)
    add_crossword_arguments(parser)
    options.add_lexicon(parser)
    options.add_json(parser)


def add_crossword_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--roll", help="Ad-Lib: the roll, faces separated by spaces")
    parser.add_argument("--grid", metavar="FILE", help="Ad-Lib: the crossword's text file, or -")
    parser.add_argument(
        "--young",
        action="store_true",
        help="Ad-Lib: the young players' rules (words need not join in one crossword)",
    )


def read_grid(path: str) -> Grid:
    from engine.adlib.grid import Grid

    return Grid.parse(read_text(path, "the crossword's grid"))


def run(args: argparse.Namespace) -> int:
    from engine.adlib.referee import STANDARD, YOUNG
    from engine.adlib.roll import Roll

    game = options.crossword_game(args.game, "Crosswords are scored")
    lexicon = options.game_lexicon(args, game)
    photo = getattr(args, "photo", None)
    reading = None
    if photo:
        if args.roll or args.grid:
            raise NotationError(
                "Give the crossword as a photo or with --roll and --grid, not both."
            )
        try:
            reading = read_crossword_photo(photo, game, lexicon)
        except NoCrossword as none:
            raise NotationError(f"{str(none)[:-1]}, or give --roll and --grid.") from None
        roll, rows = reading.roll, tuple(reading.grid or ())
    elif not (args.roll and args.grid):
        raise NotationError(
            "Give the roll with --roll and the crossword with --grid, or a photo of the crossword."
        )
    else:
        roll, rows = Roll.parse(args.roll, game.id), tuple(read_grid(args.grid).rows())
    rules = YOUNG if getattr(args, "young", False) else STANDARD
    refereed = Scorer().score_crossword(roll, rows, game, lexicon, rules)
    for note in refereed.joker_notes():
        print(f"cuberef: {note}", file=sys.stderr)
    verdict = refereed.verdict
    if verdict.roll_errors:
        # Cubes on the table that were never rolled: the input is wrong, not the play.
        raise RuleError(" ".join(verdict.roll_errors))
    match, player = record_turn(args, game.id, verdict)
    if args.json:
        document = verdict.to_json()
        if reading is not None:
            document["reading"] = reading.to_json()
        if match is not None:
            document["player"] = player
            document["match"] = matches.to_json(match)
        emit_json(document)
    else:
        print(describe(verdict))
        if match is not None:
            print(f"{player}'s turn scores {match.turns[-1].score}.")
            print(matches.describe(match))
    return 0


def record_turn(
    args: argparse.Namespace, game: str, verdict: Verdict
) -> tuple[AdlibMatch | None, str]:
    """With ``--match``: the match after this crossword's turn, and whose turn it was."""
    from engine.adlib.match import Match
    from engine.sides import seat_sides

    teams = [matches.parse_team(spec) for spec in getattr(args, "team", ())]
    with matches.kept(args, Match, game) as kept:
        if kept is None:
            return None, ""
        match = kept.match
        if match is None:
            sides = seat_sides(matches.players(args), teams)
            match = Match.start(game, sides, matches.agreed_rules(args, Match), args.first)
        else:
            starter = match.sides[match.first].name
            if args.first and args.first.strip() != starter:
                raise RuleError(
                    f"{starter} started the match in {args.match}; leave --first out "
                    "or start a new match file."
                )
            seated = [member for side in match.sides for member in side.members]
            if args.players and sorted(matches.players(args)) != sorted(seated):
                raise RuleError(
                    f"{args.match} is a match of {', '.join(seated)}; leave --players out "
                    "or start a new match file."
                )
        side = match.next_side
        if side is None:
            raise RuleError(f"The match in {args.match} is over; give a new file to play again.")
        if args.player and args.player.strip() not in (side.name, *side.members):
            raise RuleError(
                f"It is {side.name}'s turn, not {args.player.strip()}'s; "
                "score the crosswords in turn."
            )
        match = match.record(verdict)
        kept.save(match)
        return match, side.name


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
