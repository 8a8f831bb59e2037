"""The options several commands share, each written once: the game, its dice, the
lexicon and ``--json``. Their help lists every choice from the engine's own tables."""

from __future__ import annotations

import argparse

from engine.errors import NotationError
from engine.games import GAMES, Game, find_game


def add_game(parser: argparse.ArgumentParser, *, trays: bool | None = None) -> None:
    """``--game``: the tray games (``trays=True``), the crossword games (False) or all."""
    games = [g.id for g in GAMES.values() if trays is None or g.is_tray == trays]
    parser.add_argument("--game", required=True, help="the game: " + ", ".join(games))


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


def add_lexicon(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lexicon",
        metavar="NAME",
        help="the word list to check words against (default: the game's own, en or cs; "
        "'cuberef lexicon list' shows every one, your own among them)",
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
