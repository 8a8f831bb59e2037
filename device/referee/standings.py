"""The standings of the evening: a row a player (their side's result counted for each
member; a player renamed between matches, by a ``PlayerRenamed`` event, is one player),
and a row a team that kept its members, over the matches ``device.referee.history`` reads
back; and the evening the box's match table shows.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from device.config.sections import Settings
from device.referee.history import PastMatch, PastSide, read_matches
from device.store.store import Store

log = logging.getLogger("cuberef.referee")


@dataclass(frozen=True)
class Standing:
    """A player (or a team) over the matches read: matches played (one round scored or
    more), won (their side won), and points (their side's match scores)."""

    name: str
    played: int
    won: int
    points: int
    #: A player's names, the first first, where they were renamed; a team's: its members.
    names: tuple[str, ...] = ()


def standings(matches: Sequence[PastMatch]) -> list[Standing]:
    """Every player over ``matches``, their side's result counted for each member; a
    player renamed between matches is one player, under their last name. Most won first,
    then most points, then by name."""
    players: dict[int, list[str]] = {}
    counts: dict[int, list[int]] = {}
    for match, side, members in _played(matches):
        for member, name in zip(members, side.members, strict=True):
            named = players.setdefault(member, [])
            if name not in named:
                named.append(name)
            _count(counts.setdefault(member, [0, 0, 0]), match, side)
    return _ranked(
        (players[who][-1], counts[who], tuple(players[who]) if len(players[who]) > 1 else ())
        for who in counts
    )


def team_standings(matches: Sequence[PastMatch]) -> list[Standing]:
    """Every team (a side of its own name, or partners) whose members were the same
    players in each of its matches, ranked as ``standings`` ranks the players."""
    teams: dict[str, tuple[int, ...]] = {}
    counts: dict[str, list[int]] = {}
    changed: set[str] = set()
    named: dict[str, tuple[str, ...]] = {}
    for match, side, members in _played(matches):
        if side.members == (side.name,):
            continue  # a player alone
        if teams.setdefault(side.name, tuple(sorted(members))) != tuple(sorted(members)):
            changed.add(side.name)
        named[side.name] = side.members
        _count(counts.setdefault(side.name, [0, 0, 0]), match, side)
    return _ranked((name, counts[name], named[name]) for name in counts if name not in changed)


def _played(matches: Sequence[PastMatch]) -> Iterator[tuple[PastMatch, PastSide, tuple[int, ...]]]:
    """Each side of each match played (one round scored or more), with its members as
    players: a name is one player from match to match, and a rename hands the player on
    to the new name (the old one is then free for someone else)."""
    player: dict[str, int] = {}
    numbers = itertools.count()
    for match in matches:
        if match.rounds:
            for side in match.sides:
                for member in side.members:
                    if member not in player:
                        player[member] = next(numbers)
                yield match, side, tuple(player[member] for member in side.members)
        for old, new in match.renamed:
            if old in player:
                player[new] = player.pop(old)


def _count(counts: list[int], match: PastMatch, side: PastSide) -> None:
    counts[0] += 1
    counts[1] += side.name in match.winners
    counts[2] += side.score


def _ranked(rows: Iterable[tuple[str, list[int], tuple[str, ...]]]) -> list[Standing]:
    ranked = sorted(rows, key=lambda row: (-row[1][1], -row[1][2], row[0]))
    return [
        Standing(name, played, won, points, names) for name, (played, won, points), names in ranked
    ]


@dataclass(frozen=True)
class Evening:
    """What the box's match table shows of the evening: how many matches, the standings."""

    matches: int = 0
    standings: tuple[Standing, ...] = ()
    teams: tuple[Standing, ...] = ()


def evening(store: Store, settings: Settings, since: float) -> Evening:
    """The matches begun at ``since`` or later, and the standings over them."""
    matches = read_matches(store, settings, since, words=False)
    return Evening(len(matches), tuple(standings(matches)), tuple(team_standings(matches)))


def evening_or_none(store: Store | None, settings: Settings, since: float) -> Evening:
    """``evening``, or none where the store cannot be read (stored data never stops the
    box: its match table then shows the match alone)."""
    if store is None:
        return Evening()
    try:
        return evening(store, settings, since)
    except Exception:
        log.exception("the evening's standings could not be read")
        return Evening()
