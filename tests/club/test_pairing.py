"""The pairing rules as properties: everybody seated once or given a bye, tables within
the game's sizes, king of the hill in the standings' order, Swiss without repeated company
wherever a seating without it exists, round robin meeting everybody once."""

from __future__ import annotations

from itertools import combinations, permutations

from hypothesis import given
from hypothesis import strategies as st

from device.club.pairing import Past, Seating, repeats, round_robin, seat, table_sizes

RULES = ("random", "king-of-the-hill", "swiss")
names = st.integers(2, 30).map(lambda n: [f"P{i:02d}" for i in range(n)])
bounds = st.sampled_from([(4, 2, 6), (2, 2, 6), (6, 2, 6), (3, 1, 4), (1, 1, 4), (2, 2, 2)])


@st.composite
def pasts(draw: st.DrawFn, players: list[str]) -> Past:
    ranking = tuple(draw(st.permutations(players))) if draw(st.booleans()) else ()
    pairs = list(combinations(players, 2))
    met = draw(st.lists(st.sampled_from(pairs), max_size=len(pairs))) if pairs else []
    return Past(ranking, frozenset(frozenset(p) for p in met))


def everybody_once(seating: Seating, players: list[str]) -> bool:
    seated = [name for table in seating.tables for name in table]
    return sorted(seated + list(seating.byes)) == sorted(players)


@given(names, bounds, st.sampled_from(RULES), st.integers(0, 99), st.integers(1, 5), st.data())
def test_everybody_is_seated_once_at_tables_the_game_allows(
    players: list[str],
    chosen: tuple[int, int, int],
    rule: str,
    seed: int,
    number: int,
    data: st.DataObject,
) -> None:
    past = data.draw(pasts(players))
    out = data.draw(st.lists(st.sampled_from(players), unique=True, max_size=3))
    seating = seat(rule, players, number, past, chosen, seed, out)
    assert everybody_once(seating, players)
    assert set(out) <= set(seating.byes)
    _size, low, high = chosen
    sizes = [len(t) for t in seating.tables]
    assert all(low <= s <= high for s in sizes)
    assert not sizes or max(sizes) - min(sizes) <= 1
    # No more byes than the sizes force: the players left could not fill another table.
    assert len(seating.byes) - len(out) < low
    assert seat(rule, players, number, past, chosen, seed, out) == seating


@given(names, bounds, st.data())
def test_king_of_the_hill_seats_the_standings_in_order(
    players: list[str], chosen: tuple[int, int, int], data: st.DataObject
) -> None:
    ranking = tuple(data.draw(st.permutations(players)))
    seating = seat("king-of-the-hill", players, 2, Past(ranking), chosen, 1)
    place = {name: i for i, name in enumerate(ranking)}
    order = [place[name] for table in seating.tables for name in table]
    assert order == sorted(order)
    assert all(place[b] >= max(order, default=-1) for b in seating.byes)


def least_repeats(players: list[str], sizes: list[int], met: frozenset[frozenset[str]]) -> int:
    """The fewest repeated meetings of any seating of ``players`` at tables of ``sizes``."""
    least = len(players) ** 2
    for order in permutations(players):
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        least = min(least, repeats(tables, met))
    return least


@given(st.integers(4, 6), st.sampled_from([(2, 2, 6), (3, 2, 6), (2, 2, 2)]), st.data())
def test_swiss_avoids_repeated_company_wherever_it_can(
    count: int, chosen: tuple[int, int, int], data: st.DataObject
) -> None:
    players = [f"P{i}" for i in range(count)]
    past = data.draw(pasts(players))
    past = Past(tuple(data.draw(st.permutations(players))), past.met)
    seating = seat("swiss", players, 2, past, chosen, 1)
    sizes = [len(t) for t in seating.tables]
    seated = [n for t in seating.tables for n in t]
    # No repeated company where a seating avoids it; else the fewest repeats there can be.
    assert repeats(seating.tables, past.met) == least_repeats(seated, sizes, past.met)
    # Never more repeats than seating the same players in the standings' order.
    in_order = seat("king-of-the-hill", players, 2, past, chosen, 1)
    assert repeats(seating.tables, past.met) <= repeats(in_order.tables, past.met)


@given(st.integers(2, 16))
def test_round_robin_meets_everybody_once(count: int) -> None:
    players = [f"P{i}" for i in range(count)]
    cycle = count - 1 if count % 2 == 0 else count
    seatings = [seat("round-robin", players, r, Past(), (2, 2, 2), 1) for r in range(1, cycle + 1)]
    pairs = [frozenset(t) for s in seatings for t in s.tables]
    assert len(pairs) == len(set(pairs)) == count * (count - 1) // 2
    assert all(everybody_once(s, players) for s in seatings)
    byes = [b for s in seatings for b in s.byes]
    assert sorted(byes) == (sorted(players) if count % 2 else [])


def test_round_robin_gives_the_partner_of_an_absent_player_a_bye() -> None:
    assert round_robin(["A", "B", "C", "D"], 1) == [("A", "D"), ("B", "C")]
    seating = seat("round-robin", ["A", "B", "C", "D"], 1, Past(), (2, 2, 2), 1, ["B"])
    assert seating.tables == (("A", "D"),) and set(seating.byes) == {"B", "C"}


def test_byes_go_to_the_last_who_have_had_fewest() -> None:
    players = ["A", "B", "C", "D", "E"]
    past = Past(tuple(players), byes=(("E", 1),))
    seating = seat("king-of-the-hill", players, 2, past, (2, 2, 2), 1)
    assert seating.byes == ("D",)
    assert table_sizes(5, 2, 2, 2) == [2, 2]
