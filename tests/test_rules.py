"""The Boggle rules of shared/reference/cubes_and_rules.md §6, one test each."""

from __future__ import annotations

import pytest

from engine.board import Board
from engine.games import find_game
from engine.referee import check
from engine.round import score_round
from engine.solver import solve

CLASSIC = Board.parse("TNTB/GDAR/ELTE/SISH")


@pytest.mark.parametrize(
    ("game", "table"),
    [
        ("boggle", {3: 1, 4: 1, 5: 2, 6: 3, 7: 5, 8: 11, 12: 11}),
        ("big-boggle", {4: 1, 5: 2, 6: 3, 7: 5, 8: 11, 15: 11}),
        ("czech-boggle", {3: 1, 4: 1, 5: 2, 6: 3, 7: 5, 8: 11, 10: 11}),
        ("super-big-boggle", {4: 1, 5: 2, 6: 3, 7: 5, 8: 11, 9: 13, 10: 15}),
    ],
)
def test_scoring_tables(game: str, table: dict[int, int]) -> None:
    assert {length: find_game(game).word_points(length) for length in table} == table


def test_minimum_lengths() -> None:
    assert [find_game(g).min_length for g in ("boggle", "big-boggle", "super-big-boggle")] == [
        3,
        4,
        4,
    ]
    assert check("tab", CLASSIC, find_game("boggle")).status == "valid"
    assert check("ta", CLASSIC, find_game("boggle")).status == "too-short"


def test_qu_counts_as_two_letters() -> None:
    # QUEUE uses four cubes and scores as five letters; SQUID is five letters too.
    board = Board.parse("QuEXX/EUXX/SXXX/IDXX")
    game = find_game("boggle")
    queue = check("queue", board, game)
    assert queue.valid and len(queue.path) == 4 and queue.points == 2
    assert check("squid", Board.parse("SQuXX/XIXX/XDXX/XXXX"), game).points == 2


def test_qu_is_one_unit() -> None:
    # Q cannot be used without its U: QAT cannot be formed from a Qu face.
    board = Board.parse("QuATX/XXXX/XXXX/XXXX")
    game = find_game("boggle")
    assert check("qat", board, game).status == "not-on-board"
    assert "qat" not in {w.word for w in solve(board, game)}


def test_a_cube_is_used_once_per_word() -> None:
    # TOOT needs two O cubes; here there is one.
    board = Board.parse("TOXX/XXXX/XXXX/XXXX")
    assert check("toot", board, find_game("boggle")).status == "not-on-board"
    assert check("toot", Board.parse("TOXX/OTXX/XXXX/XXXX"), find_game("boggle")).valid


def test_neighbours_touch_by_side_or_corner() -> None:
    diagonal = Board.parse("CXXX/XAXX/XXTX/XXXX")
    assert check("cat", diagonal, find_game("boggle")).valid
    apart = Board.parse("CXAX/XXXX/XXTX/XXXX")
    assert check("cat", apart, find_game("boggle")).reason.endswith("no A next to the C")


def test_words_within_words_all_count() -> None:
    # TURNOVER, TURN and OVER; PEAR, PEA and EAR.
    board = Board.parse("TURN/XXXO/XREV/PEAR")
    found = {w.word for w in solve(board, find_game("boggle"))}
    assert {"turnover", "turn", "over", "pear", "pea", "ear"} <= found


def test_plurals_and_verb_forms_are_words() -> None:
    found = {w.word for w in solve(CLASSIC, find_game("boggle"))}
    assert {"slate", "slates", "tangle", "tangles", "tangled"} <= found


def test_crossing_off_removes_a_shared_word_from_all_lists() -> None:
    result = score_round(
        CLASSIC,
        find_game("boggle"),
        [("a", ["dart", "slate"]), ("b", ["dart"]), ("c", ["dart", "strange"])],
    )
    for player in result.players:
        assert player.entries[0].status == "crossed-off" and player.entries[0].points == 0
    assert result.scores() == {"a": 2, "b": 0, "c": 5}


def test_a_word_counts_once_for_one_player() -> None:
    result = score_round(CLASSIC, find_game("boggle"), [("a", ["slate", "slate", "SLATE"])])
    assert [e.status for e in result.players[0].entries] == ["scored", "repeated", "repeated"]
    assert result.scores() == {"a": 2}


def test_abbreviations_are_not_words() -> None:
    board = Board.parse("TNTX/XXXX/XXXX/XXXX")
    game = find_game("boggle")
    assert check("tnt", board, game).status == "not-a-word"
    assert solve(board, game) == []
