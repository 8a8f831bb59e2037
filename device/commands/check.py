"""Is each word valid on this tray, and if not, why: too short, not on the board
(and which letter cannot be reached), or not a word and why not (slang, a contraction, an
abbreviation, a proper noun, not in the word list, or refused by this table). Without
``--board`` each word is ruled as a word only. Czech words written without diacritics are
accepted when one spelling fits, or several of equal points (each is named). ``--define``
adds each word's short definition (WordNet's, for English), or why there is none;
``--house`` rules with the box's house list (``cuberef lexicon house``). A valid word's
points are its game's: by length on a tray, the sum of its letters' values in Ad-Lib and
Scribbage (as the crossword scores it)."""

from __future__ import annotations

import argparse

from device.base.inputs import typed
from device.commands import options
from device.commands.output import emit_json
from device.commands.solve import add_tray_arguments, tray_game


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_tray_arguments(parser, game="boggle")
    parser.add_argument("words", nargs="+", metavar="WORD", help="the words to check")
    options.add_min_length(parser)
    parser.add_argument(
        "--define", action="store_true", help="print each word's short definition too"
    )
    parser.add_argument(
        "--house",
        action="store_true",
        help="rule with the box's house list of allowed and refused words (its store; "
        "--config FILE names the box's configuration)",
    )
    parser.add_argument("--config", metavar="FILE", help="the box's TOML configuration")


def run(args: argparse.Namespace) -> int:
    from engine.games import find_game
    from engine.lexicon import Lexicon
    from engine.notes import Notes
    from engine.referee import check

    if args.board is None:
        game, board = find_game(args.game), None
    else:
        game, board, _ = tray_game(args)
    lexicon = Lexicon.open(options.game_lexicon(args, game))
    house = None
    if args.house:
        from device.commands.house import house_list

        house = house_list(args.config, lexicon.card.language)
    words = [typed(word, f"The word {word!r}") for word in args.words]
    rulings = [check(word, board, game, lexicon, args.min_length, house=house) for word in words]
    notes = Notes.open(lexicon)
    meanings = [notes.meaning(r.spelling or r.word) if args.define else "" for r in rulings]
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
                        "refusal": r.refusal,
                        "by_table": r.by_table,
                        **({"definition": meaning} if args.define else {}),
                    }
                    for r, meaning in zip(rulings, meanings, strict=True)
                ]
            }
        )
        return 0
    for r, meaning in zip(rulings, meanings, strict=True):
        if r.valid:
            cells = " ".join(f"{row + 1},{col + 1}" for row, col in r.path)
            note = f" ({r.reason})" if r.reason else ""
            plural = "" if r.points == 1 else "s"
            where = f"; path {cells}" if cells else ""
            print(f"{r.spelling}: valid, {r.points} point{plural}{note}{where}")
        else:
            print(f"{r.word}: {r.reason}")
        if meaning:
            print(f"  {meaning}")
    return 0
