"""The ``--match FILE`` part of ``cuberef score``: a round or a turn added to a match.

A Boggle-family match takes its players (and ``--team`` teams) from its first round's
lists, in the order given; every later round must score the same sides. An Ad-Lib or
Scribbage match is started with ``--players`` in their seats going left (``--team``
for partners sharing a turn, ``--first`` for who won the roll for the start); each
``score`` then records the crossword of the player whose turn it is. The match file
itself is :mod:`device.store.match_file`'s: locked and replaced whole.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from device.base.inputs import ranged, typed
from device.store.match_file import MatchFile
from engine.errors import NotationError, RuleError
from engine.match import BaseMatch, MatchRules

M = TypeVar("M", bound=BaseMatch)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--match", metavar="FILE", help="add this round to a match file (JSON; made if new)"
    )
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
        help="a new match ends at the end of the round in which a side reaches this score, "
        "1 to 100000 (default: none; Ad-Lib with neither --rounds nor --target: 200)",
    )
    parser.add_argument(
        "--players",
        metavar="P1,P2,...",
        help="Ad-Lib: a new match's players in their seats, going to the left",
    )
    parser.add_argument(
        "--first", metavar="NAME", help="Ad-Lib: who starts (who rolled the highest cube)"
    )
    parser.add_argument(
        "--player",
        metavar="NAME",
        help="Ad-Lib: whose crossword this is (checked against whose turn it is)",
    )


@dataclass(frozen=True)
class Kept(Generic[M]):
    """The match in a locked file (None for a new one), and how to write it back."""

    file: MatchFile
    match: M | None

    def save(self, match: M) -> None:
        self.file.write(match.to_dict())


@contextlib.contextmanager
def kept(args: argparse.Namespace, kind: type[M], game: str) -> Iterator[Kept[M] | None]:
    """The match of ``--match`` (None without it), locked until the block ends."""
    if not getattr(args, "match", None):  # not every caller has the option
        yield None
        return
    with MatchFile.locked(args.match) as file:
        data = file.read()
        match = None if data is None else kind.from_dict(data)
        if match is not None:
            if match.game != game:
                raise RuleError(
                    f"{args.match} is a match of {match.game}, not {game}; give another file."
                )
            check_agreed(args, match)
        yield Kept(file, match)


def parse_team(spec: str) -> tuple[str, tuple[str, ...]]:
    """``--team NAME=P1,P2``: a Boggle team, or Ad-Lib partners sharing a turn."""
    name, sep, members = typed(spec, f"--team {spec!r}").partition("=")
    players = tuple(member.strip() for member in members.split(",") if member.strip())
    if not sep or not name.strip() or not players:
        raise NotationError(f"{spec!r} is not a team; write it as NAME=P1,P2.")
    return name.strip(), players


def agreed_rules(args: argparse.Namespace, kind: type[BaseMatch]) -> MatchRules:
    """A new match's rules from ``--rounds`` and ``--target``."""
    if args.rounds is None and args.target is None:
        return kind.default_rules()
    return MatchRules(args.rounds, args.target)


def check_agreed(args: argparse.Namespace, match: BaseMatch) -> None:
    """Options that would change a match under way are refused, not ignored."""
    for option, given, agreed in (
        ("--rounds", args.rounds, match.rules.rounds),
        ("--target", args.target, match.rules.target),
    ):
        if given is not None and given != agreed:
            raise RuleError(
                f"{args.match} was agreed with {option} {agreed}; leave {option} out "
                "or start a new match file."
            )


def players(args: argparse.Namespace) -> list[str]:
    """``--players`` as names in their seats."""
    names = [name.strip() for name in typed(args.players or "", "--players").split(",")]
    if not any(names):
        raise NotationError(
            "Start an Ad-Lib match with its players in their seats: --players Ann,Bob,Cy."
        )
    return names


def describe(match: BaseMatch) -> str:
    """The match as a player reads it: standings, whose turn, the winner."""
    lines = [f"\nMatch: {_progress(match)}"]
    for standing in match.standings():
        members = "" if standing.side.alone else f" ({', '.join(standing.side.members)})"
        lines.append(f"  {standing.place}. {standing.side.name + members:<24} {standing.score:>5}")
    best = match.best_throw
    if match.solitaire and best is not None:
        allowed = f" (the roll allowed {best.best})" if best.best is not None else ""
        lines.append(f"Best single throw: {best.score}{allowed}.")
    if match.finished:
        winners = match.winners
        if not winners:
            lines.append(f"Match over: the target of {match.rules.target} was not reached.")
        elif len(winners) == 1:
            lines.append(f"Match over: {winners[0]} wins.")
        else:
            lines.append(f"Match over: a tie, {_and(winners)} share the win.")
    else:
        lines.append(f"Next to roll: {match.next_player}, then {match.following}.")
    return "\n".join(lines)


def _progress(match: BaseMatch) -> str:
    played = match.rounds_played
    done = f"{played} round{'s' if played != 1 else ''} played"
    if not match.round_complete:
        done += f", round {match.round} under way"
    agreed = []
    if match.rules.rounds is not None:
        rounds = match.rules.rounds
        agreed.append(f"{rounds} round{'s' if rounds != 1 else ''}")
    if match.rules.target is not None:
        agreed.append(f"to {match.rules.target}")
    return done + (f" (of {' or '.join(agreed)})" if agreed else "")


def _and(names: tuple[str, ...]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1]


def to_json(match: BaseMatch) -> dict[str, Any]:
    standings = match.standings()
    return {
        "rounds": match.rounds_played,
        "round": match.round,
        "round_complete": match.round_complete,
        "rounds_to_play": match.rules.rounds,
        "target": match.rules.target,
        "standings": [
            {
                "name": s.side.name,
                "members": list(s.side.members),
                "total": s.score,
                "turns": s.turns,
                "place": s.place,
            }
            for s in standings
        ],
        "over": match.finished,
        "winners": list(match.winners),
        "leaders": [s.side.name for s in standings if s.place == 1],
        "next_player": match.next_player,
        "following": match.following,
        "turns": len(match.turns),
    }
