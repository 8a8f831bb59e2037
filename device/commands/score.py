"""Score a round: a Boggle-family tray and every player's word list, with crossing-off,
or an Ad-Lib / Scribbage crossword (--roll and --grid, or a photo of it).

A word list is a UTF-8 text file, one word a line; blank lines and # comments are
ignored. Give each as NAME=FILE. A word on two or more players' lists is crossed off
for everyone; in Czech Boggle that is the rule that only words no one else has score."""

from __future__ import annotations

import argparse
from typing import Any

from device.base.inputs import ranged, read_text, typed
from device.commands import crossword, options
from device.commands import match as matches
from device.commands.output import emit_json
from device.commands.photo import split_photo
from device.commands.solve import add_tray_arguments, tray_game
from engine.board import Board
from engine.cubes import CubeSet
from engine.errors import NotationError, RuleError
from engine.games import find_game
from engine.lexicon import Lexicon
from engine.match import Match
from engine.round import CHALLENGE_BONUS, RoundResult, RoundRules, score_round
from engine.sides import Side
from engine.solver import solve


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_tray_arguments(parser, trays=None)
    parser.add_argument(
        "lists",
        nargs="*",
        metavar="LIST",
        help="a player's list as NAME=FILE; or a photo (of the tray, or of a finished crossword)",
    )
    parser.set_defaults(more="lists")  # lists may come before and after the options
    options.add_min_length(parser)
    parser.add_argument(
        "--advanced", action="store_true", help="Big Boggle's advanced game: 5 letters or more"
    )
    parser.add_argument(
        "--handicap",
        action="append",
        default=[],
        metavar="NAME",
        help="this player may count words from 3 letters (3 letters = 1 point); repeatable",
    )
    parser.add_argument(
        "--team",
        action="append",
        default=[],
        metavar="NAME=P1,P2",
        help="a Boggle team whose members' lists are pooled, or Ad-Lib partners who share "
        "a turn; repeatable",
    )
    parser.add_argument(
        "--challenge",
        metavar="ROW,COL",
        help="the challenge cube's cell, counted from 1,1 at the top left",
    )
    parser.add_argument(
        "--challenge-bonus",
        type=ranged(int, 0, 100, CHALLENGE_BONUS),
        default=CHALLENGE_BONUS,
        metavar="N",
        help="points a word through the challenge cube earns on top, 0 to 100 "
        f"(default {CHALLENGE_BONUS})",
    )
    matches.add_arguments(parser)
    crossword.add_crossword_arguments(parser)


def run(args: argparse.Namespace) -> int:
    args.photo, args.lists = split_photo(args.lists)
    if args.photo and (args.board or args.grid):
        raise NotationError(
            f"{args.photo!r} is not NAME=FILE; give each list as, say, ann=ann.txt "
            "(a photo stands in for --board or --grid, not beside them)."
        )
    if not find_game(args.game).is_tray:
        return crossword.run(args)
    game, board, reading = tray_game(args, args.photo)
    if not args.lists:
        raise NotationError("Give at least one word list as NAME=FILE.")
    lists = [read_list(spec) for spec in args.lists]
    lexicon = Lexicon.open(options.game_lexicon(args, game))
    with matches.kept(args, Match, game.id) as kept:
        teams = tuple(matches.parse_team(spec) for spec in args.team)
        if kept is not None and kept.match is not None and not teams:
            teams = kept.match.teams  # a match's teams stay together for every round
        rules = RoundRules(
            min_length=args.min_length,
            advanced=args.advanced,
            handicap=frozenset(args.handicap),
            teams=teams,
            challenge=parse_challenge(args.challenge, board),
            challenge_bonus=args.challenge_bonus,
        )
        known = {name for name, _ in lists} | {team for team, _ in rules.teams}
        unknown = sorted(set(args.handicap) - known)
        if unknown:
            raise RuleError(f"--handicap names {unknown[0]}, who has no list; check the name.")
        result = score_round(board, game, lists, lexicon, rules=rules)
        match = None
        if kept is not None:
            match = kept.match or Match.start(
                game.id,
                [Side(player.name, player.members) for player in result.players],
                matches.agreed_rules(args, Match),
            )
            maximum = sum(word.points for word in solve(board, game, lexicon))
            match = match.record(result, best=maximum)
            kept.save(match)
    if args.json:
        document: dict[str, Any] = {"game": game.id, "board": str(board), **round_json(result)}
        if reading is not None:
            document["reading"] = reading.to_json()
        if match is not None:
            document["match"] = matches.to_json(match)
        emit_json(document)
        return 0
    print_round(result)
    if match is not None:
        print(matches.describe(match))
    return 0


def read_list(spec: str) -> tuple[str, list[str]]:
    """``NAME=FILE`` -> the player's name and the words on their list."""
    name, sep, file = spec.partition("=")
    if not sep or not name.strip() or not file:
        raise NotationError(f"{spec!r} is not NAME=FILE; give each list as, say, ann=ann.txt.")
    name = typed(name.strip(), f"The name in {spec!r}")
    text = read_text(file, f"{name}'s list")
    words = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        words.append(line)  # the referee rules on every line, words or not
    return name, words


def parse_challenge(spec: str | None, board: Board) -> tuple[int, int] | None:
    if spec is None:
        return None
    try:
        row, col = (int(part) for part in spec.split(","))
    except ValueError:
        raise NotationError(
            f"--challenge {spec!r} is not ROW,COL; write it as, say, 2,3."
        ) from None
    if not (1 <= row <= board.size and 1 <= col <= board.size):
        raise RuleError(
            f"--challenge {spec} is off the tray; rows and columns run from 1 to {board.size}."
        )
    face = board[row - 1, col - 1]
    faces = CubeSet.load("challenge").faces()
    if face not in faces:
        shown = ", ".join(sorted(str(f) for f in faces))
        raise RuleError(
            f"The challenge cube shows {shown}, but row {row}, column {col} shows {face}; "
            "check the cell."
        )
    return row - 1, col - 1


def round_json(result: RoundResult) -> dict[str, Any]:
    return {
        "players": [
            {
                "name": player.name,
                "members": list(player.members),
                "score": player.score,
                "words": [
                    {
                        "word": entry.word,
                        "status": entry.status,
                        "points": entry.points,
                        "spelling": entry.ruling.spelling,
                        "spellings": list(entry.ruling.spellings),
                        "reason": entry.ruling.reason,
                        "player": entry.player,
                    }
                    for entry in player.entries
                ],
            }
            for player in result.players
        ]
    }


def print_round(result: RoundResult) -> None:
    for player in result.players:
        members = f" ({', '.join(player.members)})" if player.members != (player.name,) else ""
        print(f"{player.name}{members}: {player.score}")
        for entry in player.entries:
            several = len(entry.ruling.spellings) > 1
            shown = entry.word if several else entry.ruling.spelling or entry.word
            detail = f"  {entry.ruling.reason}" if entry.ruling.reason else ""
            print(f"  {shown:<16} {entry.status:<13} {entry.points:>3}{detail}")
