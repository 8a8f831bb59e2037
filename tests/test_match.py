"""Boggle-family matches: every side plays each round, the end, teams, ties, solitaire."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.cli import main
from engine.board import Board
from engine.errors import NotationError, RuleError
from engine.games import find_game
from engine.match import Match, MatchRules
from engine.round import RoundRules, score_round
from engine.sides import Side, seat_sides

CLASSIC = Board.parse("TNTB/GDAR/ELTE/SISH")


def start(players: list[str], **rules: int) -> Match:
    return Match.start("boggle", seat_sides(players), MatchRules(**rules))


def test_totals_standings_and_places() -> None:
    match = start(["a", "b", "c"]).record({"a": 3, "b": 5, "c": 3}).record({"a": 4, "b": 0, "c": 4})
    assert match.totals() == {"a": 7, "b": 5, "c": 7}
    standings = match.standings()
    assert [(s.side.name, s.score, s.place, s.turns) for s in standings] == [
        ("a", 7, 1, 2),
        ("c", 7, 1, 2),
        ("b", 5, 3, 2),
    ]
    assert not match.finished and match.winners == () and match.round == 3


def test_ends_after_its_rounds_and_refuses_more() -> None:
    match = start(["a", "b"], rounds=2).record({"a": 1, "b": 0}).record({"a": 1, "b": 5})
    assert match.finished and match.winners == ("b",) and match.next_player is None
    with pytest.raises(RuleError, match="ended after round 2"):
        match.record({"a": 1, "b": 0})


def test_ends_at_its_target_and_a_tie_names_everyone_on_it() -> None:
    match = start(["a", "b"], target=10).record({"a": 9, "b": 2})
    assert not match.finished
    match = match.record({"a": 1, "b": 8})
    assert match.finished and match.winners == ("a", "b")


def test_the_shaker_passes_to_the_left() -> None:
    match = Match.start("boggle", seat_sides(["a", "b", "c"]), first="b")
    shakers = []
    for _ in range(4):
        shakers.append((match.next_player, match.following))
        match = match.record({"a": 0, "b": 0, "c": 0})
    assert shakers == [("b", "c"), ("c", "a"), ("a", "b"), ("b", "c")]


def test_a_team_is_one_side_and_its_round_result_is_recorded() -> None:
    sides = seat_sides(["a", "b", "c"], [("red", ("a", "b"))])
    match = Match.start("boggle", sides, MatchRules(rounds=1))
    assert match.teams == (("red", ("a", "b")),)
    lists = [("a", ["dart"]), ("b", ["slate"]), ("c", ["dart", "strange"])]
    result = score_round(CLASSIC, find_game("boggle"), lists, rules=RoundRules(teams=match.teams))
    match = match.record(result, best=120)
    assert match.totals() == {"red": 2, "c": 5} and match.winners == ("c",)
    assert match.turns[0].best == 120


def test_a_round_must_score_every_side_and_nobody_else() -> None:
    match = start(["a", "b"])
    with pytest.raises(RuleError, match="no score for b"):
        match.record({"a": 3})
    with pytest.raises(RuleError, match="zed is not in this match"):
        match.record({"a": 3, "b": 1, "zed": 4})


def test_solitaire_counts_the_best_single_round() -> None:
    match = start(["ann"], rounds=3)
    for score, best in ((12, 40), (30, 61), (30, 35)):
        match = match.record({"ann": score}, best=best)
    assert match.finished and match.winners == ("ann",)
    assert match.scores() == {"ann": 30} and match.totals() == {"ann": 72}
    assert match.best_throw is not None and match.best_throw.best == 61  # the earlier 30
    short = start(["ann"], rounds=2, target=50).record({"ann": 49}).record({"ann": 20})
    assert short.finished and short.winners == ()
    assert start(["ann"], target=50).record({"ann": 50}).winners == ("ann",)


@pytest.mark.parametrize(
    "make",
    [
        lambda: MatchRules(rounds=0),
        lambda: MatchRules(target=-5),
        lambda: Match.start("boggle", []),
        lambda: Match.start("boggle", [Side("a", ("a",)), Side("a", ("a",))]),
        lambda: Match.start("boggle", [Side("x", ("a", "b")), Side("b", ("b",))]),
        lambda: Match.start("boggle", seat_sides(["a"]), first="zed"),
        lambda: seat_sides(["a", "a"]),
        lambda: seat_sides(["a", ""]),
        lambda: seat_sides(["a", "b"], [("red", ("a",)), ("blue", ("a", "b"))]),
        lambda: seat_sides(["a", "b"], [("b", ("a",))]),
    ],
)
def test_impossible_matches_are_refused_with_a_sentence(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as raised:
        make()
    assert str(raised.value).endswith(".") and "\n" not in str(raised.value)


def test_round_trips_through_json_and_reads_the_first_layout() -> None:
    match = start(["a", "b"], target=50).record({"a": 3, "b": 4}, best=99)
    assert Match.from_dict(json.loads(json.dumps(match.to_dict()))) == match
    old = {"game": "boggle", "rounds_to_play": 2, "target": None, "rounds": [{"a": 3, "b": 1}]}
    read = Match.from_dict(old)
    assert read.totals() == {"a": 3, "b": 1} and read.rules == MatchRules(rounds=2)


@pytest.mark.parametrize(
    "data",
    [
        {"rounds": 3},
        [],
        {"format": "cuberef match", "version": 2},
        {"format": "cuberef match", "version": 9},
        {**start(["a"]).record({"a": 1}).to_dict(), "turns": [{"side": "zed", "score": 1}]},
        {**start(["a"], rounds=1).to_dict(), "turns": [{"side": "a", "score": 1, "best": 0}] * 2},
        {**start(["a"]).to_dict(), "turns": [{"side": "a", "score": "ten", "best": None}]},
    ],
)
def test_a_damaged_match_file_is_one_sentence(data: object) -> None:
    with pytest.raises(NotationError) as raised:
        Match.from_dict(data)  # type: ignore[arg-type]
    assert str(raised.value).endswith(".")


# --- properties -------------------------------------------------------------------

NAMES = ["ann", "bob", "cy", "di", "ed"]


@given(
    st.integers(1, 5),
    st.none() | st.integers(1, 4),
    st.none() | st.integers(1, 60),
    st.lists(st.lists(st.integers(-5, 20), min_size=5, max_size=5), max_size=12),
)
def test_a_boggle_match_ends_only_by_its_rules(
    players: int, rounds: int | None, target: int | None, played: list[list[int]]
) -> None:
    names = NAMES[:players]
    match = Match.start("boggle", seat_sides(names), MatchRules(rounds, target))
    recorded: list[dict[str, int]] = []
    for scores in played:
        if match.finished:
            break
        round_scores = dict(zip(names, scores, strict=False))
        match = match.record(round_scores)
        recorded.append(round_scores)
        assert Match.from_dict(match.to_dict()) == match
        # Scores are sums of round scores; every side has had every round.
        assert match.totals() == {n: sum(r[n] for r in recorded) for n in names}
        assert all(s.turns == len(recorded) for s in match.standings())
        ranked = match.scores()
        by_rounds = rounds is not None and len(recorded) >= rounds
        by_target = target is not None and max(ranked.values()) >= target
        assert match.finished == (by_rounds or by_target)
        if match.finished and match.winners:
            assert {ranked[w] for w in match.winners} == {max(ranked.values())}
    if rounds is not None:
        assert len(recorded) <= rounds


def test_score_adds_rounds_to_a_match_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.txt").write_text("slate\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("strange\n", encoding="utf-8")
    file = tmp_path / "match.json"
    args = ["score", "--game", "boggle", "--board", "TNTB/GDAR/ELTE/SISH"]
    args += [f"a={tmp_path / 'a.txt'}", f"b={tmp_path / 'b.txt'}", "--match", str(file)]
    assert main([*args, "--rounds", "2"]) == 0
    capsys.readouterr()
    assert main([*args, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)["match"]
    assert document["rounds"] == 2 and document["over"] and document["leaders"] == ["b"]
    assert [(s["name"], s["total"]) for s in document["standings"]] == [("b", 10), ("a", 4)]
    assert main(args) == 2
    assert "ended" in capsys.readouterr().err
    file.write_text("not json", encoding="utf-8")
    assert main(args) == 2
