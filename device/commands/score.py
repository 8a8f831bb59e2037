"""Score a round: a Boggle-family tray and every player's word list, with crossing-off,
or an Ad-Lib / Scribbage crossword (--roll and --grid, or a photo of it).

A word list is a UTF-8 text file, one word a line; blank lines and # comments are
ignored. Give each as NAME=FILE. A word on two or more players' lists is crossed off
for everyone; in Czech Boggle that is the rule that only words no one else has score."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from device.commands import crossword, options
from device.commands.photo import split_photo
from device.commands.solve import add_tray_arguments, tray_game
from device.inputs import ranged, read_text
from device.output import emit_json
from engine.board import Board
from engine.cubes import CubeSet
from engine.errors import NotationError, RuleError
from engine.games import find_game
from engine.lexicon import Lexicon
from engine.match import Match, MatchRules
from engine.referee import normalize_word
from engine.round import CHALLENGE_BONUS, RoundResult, RoundRules, score_round
from engine.sides import Side


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_tray_arguments(parser, trays=None)
    parser.add_argument(
        "lists",
        nargs="*",
        metavar="LIST",
        help="a player's list as NAME=FILE; or a photo (of the tray, or of a finished crossword)",
    )
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
        help="a team whose members' lists are pooled; repeatable",
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
    parser.add_argument("--match", metavar="FILE", help="add this round to a match file (JSON)")
    parser.add_argument(
        "--rounds",
        type=ranged(int, 1, 1000, 5),
        metavar="N",
        help="a new match ends after this many rounds, 1 to 1000 (default: no limit)",
    )
    parser.add_argument(
        "--target",
        type=ranged(int, 1, 100_000, 200),
        metavar="POINTS",
        help="a new match ends when someone reaches this score, 1 to 100000 (default: none)",
    )
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
    rules = RoundRules(
        min_length=args.min_length,
        advanced=args.advanced,
        handicap=frozenset(args.handicap),
        teams=tuple(parse_team(spec) for spec in args.team),
        challenge=parse_challenge(args.challenge, board),
        challenge_bonus=args.challenge_bonus,
    )
    known = {name for name, _ in lists} | {team for team, _ in rules.teams}
    unknown = sorted(set(args.handicap) - known)
    if unknown:
        raise RuleError(f"--handicap names {unknown[0]}, who has no list; check the name.")
    result = score_round(
        board, game, lists, Lexicon.open(options.game_lexicon(args, game)), rules=rules
    )
    match = add_to_match(args, game.id, result) if args.match else None
    if args.json:
        document: dict[str, Any] = {"game": game.id, "board": str(board), **round_json(result)}
        if reading is not None:
            document["reading"] = reading.to_json()
        if match is not None:
            document["match"] = match_json(match)
        emit_json(document)
        return 0
    print_round(result)
    if match is not None:
        print_match(match)
    return 0


def read_list(spec: str) -> tuple[str, list[str]]:
    """``NAME=FILE`` -> the player's name and the words on their list."""
    name, sep, file = spec.partition("=")
    if not sep or not name.strip() or not file:
        raise NotationError(f"{spec!r} is not NAME=FILE; give each list as, say, ann=ann.txt.")
    text = read_text(file, f"{name.strip()}'s list")
    words = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            words.append(normalize_word(line))
        except NotationError:
            raise NotationError(
                f"Line {number} of {file}, {line!r}, is not a word: words are letters only, "
                "so correct that line."
            ) from None
    return name.strip(), words


def parse_team(spec: str) -> tuple[str, tuple[str, ...]]:
    name, sep, members = spec.partition("=")
    players = tuple(member.strip() for member in members.split(",") if member.strip())
    if not sep or not name.strip() or not players:
        raise NotationError(f"{spec!r} is not a team; write it as NAME=P1,P2.")
    return name.strip(), players


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
            shown = entry.ruling.spelling or entry.word
            detail = f"  {entry.ruling.reason}" if entry.ruling.reason else ""
            print(f"  {shown:<16} {entry.status:<13} {entry.points:>3}{detail}")


def add_to_match(args: argparse.Namespace, game: str, result: RoundResult) -> Match:
    """Load the match file (or start one), add this round and write it back."""
    path = Path(args.match)
    if path.exists():
        try:
            match = Match.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise NotationError(
                f"{path} is not a cuberef match file; give a new file name to start a match."
            ) from None
        if match.game != game:
            raise RuleError(f"{path} is a match of {match.game}, not {game}; give another file.")
    else:
        sides = [Side(player.name, player.members) for player in result.players]
        match = Match.start(game, sides, MatchRules(args.rounds, args.target))
    match = match.record(result)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(match.to_dict(), indent=1) + "\n", encoding="utf-8")
    os.replace(temporary, path)
    return match


def match_json(match: Match) -> dict[str, Any]:
    return {
        "rounds": match.rounds_played,
        "standings": [
            {"name": s.side.name, "total": s.score, "place": s.place} for s in match.standings()
        ],
        "over": match.finished,
        "leaders": list(match.winners),
    }


def print_match(match: Match) -> None:
    played = match.rounds_played
    print(f"\nMatch after {played} round{'s' if played != 1 else ''}:")
    for standing in match.standings():
        print(f"  {standing.side.name:<16} {standing.score:>4}")
    if match.finished:
        print(f"Match over; won by {' and '.join(match.winners)}.")
