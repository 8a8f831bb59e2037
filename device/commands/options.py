"""The options several commands share, each written once: the game, its dice, the
lexicon, the shortest word and ``--json``. Their help lists every choice and default from
the engine's own tables."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from device.base.inputs import ranged, read_text
from engine.errors import NotationError
from engine.games import GAMES, Game, find_game

if TYPE_CHECKING:
    from engine.cubes import CubeSet

#: The largest --min-length: longer than any word a 6x6 tray holds in practice.
MAX_MIN_LENGTH = 25


def add_game(
    parser: argparse.ArgumentParser, *, trays: bool | None = None, default: str | None = None
) -> None:
    """``--game``: the tray games (``trays=True``), the crossword games (False) or all;
    required unless a ``default`` is given."""
    games = [g.id for g in GAMES.values() if trays is None or g.is_tray == trays]
    shown = f" (default {default})" if default else ""
    parser.add_argument(
        "--game",
        required=default is None,
        default=default,
        help=f"the game{shown}: " + ", ".join(games),
    )


def add_dice(parser: argparse.ArgumentParser, *, trays: bool | None = None) -> None:
    """``--dice``: every game's editions, the default first."""
    editions = "; ".join(
        f"{game.id}: {', '.join(name for name, _ in game.dice)}"
        for game in GAMES.values()
        if (trays is None or game.is_tray == trays) and len(game.dice) > 1
    )
    parser.add_argument(
        "--dice",
        metavar="SET",
        help=f"which edition's cubes, the first the default ({editions}), "
        "or the path of a .txt file with your own set's faces",
    )


def dice(args: argparse.Namespace) -> str | CubeSet | None:
    """``--dice``: an edition's name as given, or the player's own set read from its file
    through the input boundary."""
    from engine.cubes import CubeSet, plainly_a_path

    given: str | None = args.dice
    if given is None or not plainly_a_path(given):
        return given
    return CubeSet.parse(Path(given).stem, read_text(given, "your cube set"))


def add_lexicon(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lexicon",
        metavar="NAME",
        help="the word list to check words against (default: the game's own, en or cs; "
        "'cuberef lexicon list' shows every one, your own among them)",
    )


def add_min_length(parser: argparse.ArgumentParser) -> None:
    by_length: dict[int, list[str]] = {}
    for game in GAMES.values():
        if game.is_tray:
            by_length.setdefault(game.min_length, []).append(game.id)
    defaults = " or ".join(f"{n} ({', '.join(ids)})" for n, ids in sorted(by_length.items()))
    parser.add_argument(
        "--min-length",
        type=ranged(int, 1, MAX_MIN_LENGTH, 4),
        metavar="N",
        help=f"shortest word that counts, 1 to {MAX_MIN_LENGTH} letters "
        f"(default: the game's, {defaults})",
    )


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def game_lexicon(args: argparse.Namespace, game: Game) -> str:
    """The lexicon a command uses: ``--lexicon`` where given, else the game's."""
    return getattr(args, "lexicon", None) or game.lexicon


def crossword_game(name: str, doing: str) -> Game:
    """``--game`` of a crossword command: adlib or scribbage, else a sentence that
    starts with ``doing`` ("Crosswords are scored")."""
    game = find_game(name)
    if game.is_tray:
        raise NotationError(f"{doing} for adlib or scribbage, not {name!r}.")
    return game
