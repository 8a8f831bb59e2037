"""Ad-Lib match play: turns pass left, partners score together, the match ends fairly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.adlib.match import SUGGESTED_TARGET, Match, MatchRules
from engine.errors import RuleError


def test_the_cubes_pass_to_the_left_after_every_turn() -> None:
    match = Match.start(["Ann", "Bob", "Cy"], MatchRules(turns=2, target=None))
    holders = []
    for points in (10, 20, 30, 40, 50, 60):
        holders.append(match.holder)
        match = match.record(points)
    assert holders == ["Ann", "Bob", "Cy", "Ann", "Bob", "Cy"]
    assert match.over and match.totals() == {"Ann": 50, "Bob": 70, "Cy": 90}
    assert match.winners() == ("Cy",)
    with pytest.raises(RuleError, match="over"):
        match.record(5)


def test_the_target_ends_the_match_only_when_the_round_is_complete() -> None:
    match = Match.start(["Ann", "Bob"])
    assert match.rules.target == SUGGESTED_TARGET == 200
    match = match.record(150).record(40).record(60)  # Ann reaches 210 mid-round
    assert not match.over and match.holder == "Bob"
    match = match.record(170)  # Bob answers with 210: a tie
    assert match.over and match.winners() == ("Ann", "Bob")


def test_partners_sit_alternately_and_score_together() -> None:
    match = Match.start(["Ann", "Bob", "Cy", "Di"], MatchRules(turns=1, target=None, partners=True))
    for points in (10, 1, 20, 2):
        match = match.record(points)
    assert match.totals() == {"Ann & Cy": 30, "Bob & Di": 3}
    assert match.winners() == ("Ann & Cy",)
    with pytest.raises(RuleError, match="even number"):
        Match.start(["Ann", "Bob", "Cy"], MatchRules(partners=True))


def test_solitaire_wins_by_reaching_the_target_within_the_turns() -> None:
    rules = MatchRules(turns=3, target=100)
    won = Match.start(["Ann"], rules).record(40).record(70)
    assert won.over and won.winners() == ("Ann",) and won.round == 3
    lost = Match.start(["Ann"], rules).record(30).record(30).record(30)
    assert lost.over and lost.winners() == ()


@pytest.mark.parametrize(
    "make",
    [
        lambda: MatchRules(turns=None, target=None),
        lambda: MatchRules(turns=0),
        lambda: Match.start([]),
        lambda: Match.start(["Ann", "Ann"]),
    ],
)
def test_impossible_matches_are_refused_with_a_sentence(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as raised:
        make()
    assert str(raised.value).endswith(".")


@given(st.integers(1, 6), st.integers(1, 5), st.lists(st.integers(-40, 90), max_size=60))
def test_every_player_has_had_as_many_turns_when_the_match_ends(
    players: int, turns: int, scores: list[int]
) -> None:
    match = Match.start([f"P{i}" for i in range(players)], MatchRules(turns=turns, target=200))
    for points in scores:
        if match.over:
            break
        match = match.record(points)
    if match.over:
        counts = {name: 0 for name in match.players}
        for turn in match.turns:
            counts[turn.player] += 1
        assert len(set(counts.values())) == 1 and max(counts.values()) <= turns
        assert match.winners() or match.solitaire
