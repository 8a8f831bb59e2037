"""Ad-Lib matches: turns pass left from the starter, partners share a turn, fair ends."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.adlib import Grid, Lexicon, Roll, letter_value, referee
from engine.adlib.match import SUGGESTED_TARGET, Match, StartRoll, turn_points
from engine.errors import CuberefError, RuleError
from engine.match import MatchRules
from engine.sides import partners, seat_sides, unpartnered

THREE = seat_sides(["Ann", "Bob", "Cy"])


def test_three_players_and_two_rounds_give_everyone_exactly_two_turns() -> None:
    match = Match.start("adlib", THREE, MatchRules(rounds=2))
    holders = []
    for points in (10, 20, 30, 40, 50, 60):
        assert not match.finished
        holders.append(match.next_player)
        match = match.record(points)
    assert holders == ["Ann", "Bob", "Cy", "Ann", "Bob", "Cy"]
    assert match.finished and match.totals() == {"Ann": 50, "Bob": 70, "Cy": 90}
    assert match.winners == ("Cy",) and match.next_player is None
    with pytest.raises(RuleError, match="over"):
        match.record(5)


def test_the_target_is_checked_only_when_the_round_of_turns_is_complete() -> None:
    match = Match.start("adlib", THREE, MatchRules(target=50))
    match = match.record(60)  # Ann is past 50 after the first turn of the round
    assert not match.finished and match.next_player == "Bob" and match.following == "Cy"
    match = match.record(10).record(55)
    assert match.finished and match.winners == ("Ann",) and match.round == 1


def test_with_nothing_agreed_the_match_plays_to_the_suggested_200() -> None:
    match = Match.start("adlib", seat_sides(["Ann", "Bob"]))
    assert match.rules.target == SUGGESTED_TARGET == 200
    match = match.record(150).record(40).record(60)  # Ann reaches 210 mid-round
    assert not match.finished and match.next_player == "Bob"
    match = match.record(170)  # Bob answers with 210: a tie
    assert match.finished and match.winners == ("Ann", "Bob")


def test_partners_share_one_turn_and_score_together() -> None:
    sides = seat_sides(["Ann", "Bob", "Cy", "Di"], [("", ("Ann", "Cy")), ("", ("Bob", "Di"))])
    match = Match.start("adlib", sides, MatchRules(rounds=2), first="Bob & Di")
    holders = []
    for points in (10, 1, 20, 2):
        holders.append(match.next_player)
        match = match.record(points)
    assert holders == ["Bob & Di", "Ann & Cy", "Bob & Di", "Ann & Cy"]
    assert match.totals() == {"Ann & Cy": 3, "Bob & Di": 30}
    assert match.finished and match.winners == ("Bob & Di",)
    assert [s.turns for s in match.standings()] == [2, 2]


@given(st.integers(min_value=1, max_value=12))
def test_partners_are_pairs_sitting_opposite_and_an_odd_one_plays_alone(count: int) -> None:
    players = [f"P{seat}" for seat in range(count)]
    sides = seat_sides(players, partners(players))
    assert sorted(member for side in sides for member in side.members) == sorted(players)
    lone = unpartnered(players)
    alone = [side.name for side in sides if side.alone]
    if count < 3:
        assert lone is None and alone == players  # no pairs: everyone alone
    else:
        assert alone == ([lone] if count % 2 else [])  # never paired silently
        assert all(len(side.members) == 2 for side in sides if not side.alone)
        half = (count + 1) // 2  # partners sit opposite: half the table apart
        assert all(
            players.index(b) - players.index(a) == half
            for a, b in (side.members for side in sides if not side.alone)
        )


def test_three_partners_are_a_pair_and_a_side_of_one() -> None:
    sides = seat_sides(["Ann", "Ben", "Cy"], partners(["Ann", "Ben", "Cy"]))
    assert [side.name for side in sides] == ["Ann & Cy", "Ben"]
    assert unpartnered(["Ann", "Ben", "Cy", "Dee", "Eve"]) == "Cy"


def test_solitaire_is_the_best_single_throw_beside_the_best_the_roll_allowed() -> None:
    match = Match.start("adlib", seat_sides(["Ann"]), MatchRules(rounds=3))
    for points, best in ((22, 40), (35, 38), (-3, 30)):
        match = match.record(points, best=best)
    assert match.finished and match.winners == ("Ann",) and match.scores() == {"Ann": 35}
    assert match.best_throw is not None and match.best_throw.best == 38
    reached = Match.start("adlib", seat_sides(["Ann"]), MatchRules(rounds=5, target=30))
    reached = reached.record(20).record(31)
    assert reached.finished and reached.winners == ("Ann",) and reached.rounds_played == 2
    missed = Match.start("adlib", seat_sides(["Ann"]), MatchRules(rounds=2, target=30))
    missed = missed.record(20).record(25)
    assert missed.finished and missed.winners == ()


def test_a_turn_records_the_referees_verdict() -> None:
    lexicon = Lexicon.open("en")
    roll = Roll.parse("U O N T W V I G F E E A R T", "scribbage")
    good = referee(roll, Grid.from_rows(["...W.", "TIGER", "OF.A.", "N..V.", "...E."]), lexicon)
    broken = referee(roll, Grid.from_rows(["TIGER", ".....", "OF..."]), lexicon)
    assert (turn_points(good), turn_points(broken)) == (33, 0)
    match = Match.start("scribbage", seat_sides(["Ann", "Bob"])).record(good).record(broken)
    assert match.totals() == {"Ann": 33, "Bob": 0}


def test_who_starts_is_the_highest_cube_and_a_tie_rolls_again() -> None:
    draw = StartRoll.begin(THREE)
    rolled = []
    for face in ("E", "Q", "X", "A", "Z"):  # 1, 8, 8: Bob and Cy tie; then 1 against 10
        rolled.append(draw.next_roller)
        draw = draw.record(face)
        if draw.tied:
            assert draw.tied == ("Bob", "Cy") and draw.go == 2
    assert rolled == ["Ann", "Bob", "Cy", "Bob", "Cy"]
    assert draw.starter == "Cy" and draw.next_roller is None
    with pytest.raises(RuleError, match="Cy starts already"):
        draw.record("E")
    assert StartRoll.begin(seat_sides(["Ann"])).starter == "Ann"
    joker = StartRoll.begin(["Ann", "Bob"]).record("*").record("e")
    assert joker.starter == "Bob"  # a joker carries no number: 0


def test_a_start_roll_face_must_be_one_face() -> None:
    with pytest.raises(CuberefError):
        StartRoll.begin(["Ann", "Bob"]).record("E T")
    with pytest.raises(CuberefError):
        StartRoll.begin(["Ann", "Bob"]).record("3")


# --- properties -------------------------------------------------------------------

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


@given(
    st.integers(1, 6),
    st.integers(0, 5),
    st.none() | st.integers(1, 5),
    st.none() | st.integers(1, 300),
    st.lists(st.integers(-40, 90), max_size=60),
)
def test_a_match_ends_only_at_the_end_of_a_round_and_by_its_rules(
    players: int, first: int, rounds: int | None, target: int | None, scores: list[int]
) -> None:
    sides = seat_sides(NAMES[:players])
    starter = sides[first % players].name
    match = Match.start("adlib", sides, MatchRules(rounds, target), first=starter)
    played: list[tuple[str, int]] = []
    for points in scores:
        if match.finished:
            break
        expected = sides[(first + len(played)) % players].name
        assert match.next_player == expected  # from the starter, passing left
        match = match.record(points)
        played.append((expected, points))
        assert Match.from_dict(match.to_dict()) == match
        totals = {side.name: sum(p for n, p in played if n == side.name) for side in sides}
        assert match.totals() == totals  # scores are sums of the turns' scores
        complete = len(played) % players == 0
        ranked = match.scores()
        by_rounds = rounds is not None and len(played) >= rounds * players
        by_target = target is not None and max(ranked.values()) >= target
        assert match.finished == (complete and (by_rounds or by_target))
    if match.finished:
        turns = [s.turns for s in match.standings()]
        assert len(set(turns)) == 1  # every side has had exactly as many turns
        if rounds is not None and not (target and max(match.scores().values()) >= target):
            assert turns[0] == rounds
        assert match.winners or (match.solitaire and target is not None)


@given(st.integers(2, 6), st.lists(st.sampled_from("EAQXZTM*"), min_size=1, max_size=80))
def test_the_starter_rolled_highest_in_the_last_go_and_only_the_tied_roll_again(
    players: int, faces: list[str]
) -> None:
    draw = StartRoll.begin(NAMES[:players])
    for face in faces:
        if draw.starter is not None:
            break
        before = draw
        draw = draw.record(face)
        if len(draw.values) == 0:  # a go ended
            values = (*before.values, letter_value(face.lower()))
            rolled = dict(zip(before.rolling, values, strict=True))
            high = max(rolled.values())
            assert draw.rolling == tuple(n for n, v in rolled.items() if v == high)
            assert set(draw.rolling) <= set(before.rolling)
    if draw.starter is not None:
        assert draw.starter in NAMES[:players]
