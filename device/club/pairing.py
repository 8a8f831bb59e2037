"""Seating a round, as pure functions of the players, the standings so far and who has
sat with whom.

- ``random``: a seeded shuffle, new each round.
- ``king-of-the-hill``: the standings in order (wins, then points, then spread), the top
  players at table 1, the next at table 2, and so on; round 1 in a seeded random order.
- ``swiss``: the standings in order as well, but no player sits with someone met before
  where any seating of the round avoids it; where none does, the fewest such meetings.
- ``round-robin``: two a table; over the cycle everybody meets everybody once (the circle
  method), one bye a round where the count is odd.

Tables are as near the chosen size as the game allows and differ by one player at most;
who cannot be seated (too few for a table of the game's least size) has a bye, the lowest
in the order among those with the fewest byes so far. Those who asked to sit a round out
have a bye too."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

#: Seatings the search for a Swiss round tries before it settles for the fewest repeats.
SEARCH_BUDGET = 20_000


@dataclass(frozen=True)
class Seating:
    round: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Past:
    """What a round's seating needs to know of the rounds before it."""

    #: Names best first (wins, points, spread); players not yet ranked follow.
    ranking: tuple[str, ...] = ()
    #: Every pair of players who have sat at one table.
    met: frozenset[frozenset[str]] = field(default_factory=frozenset)
    #: Byes each player has had.
    byes: tuple[tuple[str, int], ...] = ()


def table_sizes(count: int, size: int, low: int, high: int) -> list[int]:
    """The tables for ``count`` players: as many seated as tables of ``low`` to ``high``
    allow, in tables as near ``size`` as can be, largest first.

    >>> table_sizes(10, 4, 2, 6), table_sizes(7, 2, 2, 2), table_sizes(1, 4, 2, 6)
    ([4, 3, 3], [2, 2, 2], [])
    """
    for seated in range(count, 0, -1):
        fits = [t for t in range(1, seated + 1) if low * t <= seated <= high * t]
        if fits:
            tables = min(fits, key=lambda t: (abs(seated / t - size), t))
            whole, extra = divmod(seated, tables)
            return [whole + 1] * extra + [whole] * (tables - extra)
    return []


def _byes_out(order: list[str], seated: int, past: Past) -> tuple[list[str], list[str]]:
    """(who sits, who has a bye): the byes go to the last in ``order`` among those who
    have had the fewest."""
    had = dict(past.byes)
    position = {name: i for i, name in enumerate(order)}
    out = sorted(order, key=lambda n: (had.get(n, 0), -position[n]))[: len(order) - seated]
    return [n for n in order if n not in out], [n for n in order if n in out]


def _chunks(order: Sequence[str], sizes: list[int]) -> tuple[tuple[str, ...], ...]:
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(order[start : start + size]))
        start += size
    return tuple(tables)


def ranked(players: Sequence[str], past: Past) -> list[str]:
    """Players in the standings' order; those not yet ranked after, in the list's order."""
    known = [n for n in past.ranking if n in players]
    return known + [n for n in players if n not in known]


def repeats(tables: Sequence[Sequence[str]], met: frozenset[frozenset[str]]) -> int:
    """How many pairs at the tables have sat together before."""
    return sum(frozenset(pair) in met for table in tables for pair in combinations(table, 2))


def _swiss(order: list[str], sizes: list[int], met: frozenset[frozenset[str]]) -> list[list[str]]:
    """Each player in rank order at the first table with room where they add the fewest
    meetings already had: a search for no repeated company, then for one repeat, two, ...
    (complete within its budget, so it finds the least that any seating allows), never
    worse than seating the standings in order or filling each table greedily."""
    fallback = min(
        [[list(t) for t in _chunks(order, sizes)], _greedy(order, sizes, met)],
        key=lambda tables: repeats(tables, met),
    )
    for allowed in range(repeats(fallback, met)):
        found = _search(order, sizes, met, allowed)
        if found is not None:
            return found
    return fallback


def _search(
    order: list[str], sizes: list[int], met: frozenset[frozenset[str]], allowed: int
) -> list[list[str]] | None:
    """A seating with at most ``allowed`` repeated meetings, or None (none found within
    the budget)."""
    tables: list[list[str]] = [[] for _ in sizes]
    budget = [SEARCH_BUDGET]

    def place(index: int, spent: int) -> bool:
        if index == len(order):
            return True
        name, empty_sizes = order[index], set()
        for number, table in enumerate(tables):
            if len(table) == sizes[number]:
                continue
            cost = sum(frozenset((name, other)) in met for other in table)
            if spent + cost > allowed:
                continue
            if not table:  # empty tables of one size are alike: try one of them
                if sizes[number] in empty_sizes:
                    continue
                empty_sizes.add(sizes[number])
            budget[0] -= 1
            if budget[0] < 0:
                return False
            table.append(name)
            if place(index + 1, spent + cost):
                return True
            table.pop()
        return False

    return tables if place(0, 0) else None


def _greedy(order: list[str], sizes: list[int], met: frozenset[frozenset[str]]) -> list[list[str]]:
    """Each table begun with the best ranked left, filled with those it met least."""
    tables, left = [], list(order)
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(left, key=lambda n: sum(frozenset((n, o)) in met for o in table))
            table.append(best)
            left.remove(best)
        tables.append(table)
    return tables


def shuffled(players: Sequence[str], seed: int, round_number: int) -> list[str]:
    """The players in the seeded random order of that round (the same on every machine)."""
    order = list(players)
    random.Random(f"{seed}/{round_number}").shuffle(order)
    return order


def round_robin(players: Sequence[str], round_number: int) -> list[tuple[str | None, str | None]]:
    """The circle method: the first player stays, the others turn one place a round; None
    is the empty seat of an odd count. The cycle repeats after its last round.

    >>> round_robin(["A", "B", "C", "D"], 1), round_robin(["A", "B", "C", "D"], 2)
    ([('A', 'D'), ('B', 'C')], [('A', 'C'), ('D', 'B')])
    """
    ring: list[str | None] = [*players, *([None] if len(players) % 2 else [])]
    turn = (round_number - 1) % (len(ring) - 1)
    rest = ring[1:]
    arranged = [ring[0], *rest[len(rest) - turn :], *rest[: len(rest) - turn]]
    return [(arranged[i], arranged[-1 - i]) for i in range(len(ring) // 2)]


def _round_robin_seating(players: Sequence[str], round_number: int, out: Sequence[str]) -> Seating:
    tables, byes = [], list(out)
    for pair in round_robin(players, round_number):
        present = [n for n in pair if n is not None and n not in out]
        if len(present) == 2:
            tables.append((present[0], present[1]))
        else:
            byes.extend(present)
    return Seating(round_number, tuple(tables), tuple(byes))


def seat(
    rule: str,
    players: Sequence[str],
    round_number: int,
    past: Past,
    bounds: tuple[int, int, int],
    seed: int,
    out: Sequence[str] = (),
) -> Seating:
    """Round ``round_number``'s seating by ``rule``; ``bounds`` is (the chosen table size,
    the game's least, its most); ``out`` asked for a bye."""
    if rule == "round-robin":
        return _round_robin_seating(players, round_number, out)
    present = [name for name in players if name not in out]
    if rule == "random" or not past.ranking:
        order = shuffled(present, seed, round_number)
    else:
        order = ranked(present, past)
    size, low, high = bounds
    sizes = table_sizes(len(present), size, low, high)
    sitting, byes = _byes_out(order, sum(sizes), past)
    arrange: Callable[[list[str], list[int]], Sequence[Sequence[str]]] = (
        (lambda o, s: _swiss(o, s, past.met)) if rule == "swiss" else _chunks
    )
    tables = tuple(tuple(table) for table in arrange(sitting, sizes))
    return Seating(round_number, tables, (*out, *byes))
