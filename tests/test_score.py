"""Scoring rounds: statuses, options, Czech spelling, the commands and their bad input."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.cli import main
from engine.adlib import Grid, Lexicon, Roll, referee
from engine.board import Board
from engine.games import find_game
from engine.referee import check, word_problem
from engine.round import STATUSES, RoundRules, score_round

CLASSIC = Board.parse("TNTB/GDAR/ELTE/SISH")
BOGGLE = find_game("boggle")
BIG = Board.parse("TNTBS/GDARE/ELTEA/SISHR/ANDTE")
# Words on CLASSIC, a few not on it and a few that are not words, for the properties.
POOL = ["dart", "slate", "strange", "list", "tab", "heat", "zoo", "xyzzy", "tnt", "dartz", "ta"]


def write(tmp_path: Path, name: str, text: str | bytes) -> str:
    path = tmp_path / f"{name}.txt"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return f"{name}={path}"


def test_every_status() -> None:
    result = score_round(
        CLASSIC,
        BOGGLE,
        [("a", ["dart", "slate", "slate", "zoo", "tnt", "ta"]), ("b", ["dart"])],
    )
    statuses = [(e.word, e.status, e.points) for e in result.players[0].entries]
    assert statuses == [
        ("dart", "crossed-off", 0),
        ("slate", "scored", 2),
        ("slate", "repeated", 0),
        ("zoo", "not-on-board", 0),
        ("tnt", "not-a-word", 0),
        ("ta", "too-short", 0),
    ]


def test_advanced_and_min_length() -> None:
    big = find_game("big-boggle")
    lists = [("a", ["dart", "slate"])]
    assert score_round(BIG, big, lists).scores() == {"a": 3}
    advanced = score_round(BIG, big, lists, rules=RoundRules(advanced=True))
    assert [e.status for e in advanced.players[0].entries] == ["too-short", "scored"]
    assert score_round(BIG, big, lists, rules=RoundRules(min_length=6)).scores() == {"a": 0}


def test_handicap_counts_three_letter_words_for_one_point() -> None:
    big = find_game("big-boggle")
    lists = [("kid", ["tab", "dart"]), ("mum", ["ate", "slate"])]
    result = score_round(BIG, big, lists, rules=RoundRules(handicap=frozenset({"kid"})))
    assert result.scores() == {"kid": 2, "mum": 2}
    assert result.players[1].entries[0].status == "too-short"


def test_teams_pool_lists_and_cross_off_between_teams() -> None:
    lists = [("a", ["dart", "slate"]), ("b", ["slate", "list"]), ("c", ["dart", "strange"])]
    rules = RoundRules(teams=(("red", ("a", "b")),))
    result = score_round(CLASSIC, BOGGLE, lists, rules=rules)
    red, c = result.players
    assert (red.name, red.members, c.name) == ("red", ("a", "b"), "c")
    assert [(e.word, e.status, e.player) for e in red.entries] == [
        ("dart", "crossed-off", "a"),
        ("slate", "scored", "a"),
        ("slate", "repeated", "b"),
        ("list", "scored", "b"),
    ]
    assert result.scores() == {"red": 3, "c": 5}


def test_challenge_cube_adds_five_to_a_word_through_it() -> None:
    # The I at row 4, column 2: LIST goes through it, SLATE does not.
    rules = RoundRules(challenge=(3, 1))
    result = score_round(CLASSIC, BOGGLE, [("a", ["list", "slate"])], rules=rules)
    assert [e.points for e in result.players[0].entries] == [6, 2]


def test_czech_scores_only_unique_words_and_accepts_missing_diacritics() -> None:
    game = find_game("czech-boggle")
    board = Board.parse("KOCK/EEEA/BYTE/EEEE")
    ruling = check("kocka", board, game)
    assert ruling.valid and ruling.spelling == "kočka" and "kočka" in ruling.reason
    ambiguous = check("byt", board, game)
    assert ambiguous.valid and ambiguous.spelling == "byt"  # byt is itself a word
    assert check("být", board, game).spelling == "být"
    result = score_round(board, game, [("a", ["kočka", "byt"]), ("b", ["kocka", "být"])])
    assert [e.status for e in result.players[0].entries] == ["crossed-off", "scored"]
    assert [e.status for e in result.players[1].entries] == ["crossed-off", "scored"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.lists(st.sampled_from(POOL), max_size=6), min_size=1, max_size=4),
    st.randoms(use_true_random=False),
)
def test_shuffling_player_order_never_changes_a_score(
    words: list[list[str]], rng: random.Random
) -> None:
    lists = [(f"p{i}", w) for i, w in enumerate(words)]
    shuffled = lists[:]
    rng.shuffle(shuffled)
    assert (
        score_round(CLASSIC, BOGGLE, lists).scores()
        == score_round(CLASSIC, BOGGLE, shuffled).scores()
    )


# --- the commands ----------------------------------------------------------------


def test_score_command_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ann = write(tmp_path, "ann", "# my words\ndart\n\nslate\n")
    bob = write(tmp_path, "bob", "dart\n")
    args = ["score", "--game", "boggle", "--board", str(CLASSIC), ann, bob, "--json"]
    assert main(args) == 0
    document = json.loads(capsys.readouterr().out)
    ann_result = document["players"][0]
    assert (ann_result["name"], ann_result["score"]) == ("ann", 2)
    assert [(w["word"], w["status"], w["points"]) for w in ann_result["words"]] == [
        ("dart", "crossed-off", 0),
        ("slate", "scored", 2),
    ]


def test_solve_and_check_commands_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--game", "boggle", "--board", str(CLASSIC), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["board"] == str(CLASSIC) and document["game"] == "boggle"
    assert document["total"] == sum(w["points"] for w in document["words"])
    assert {"word": "dart", "points": 1, "path": [[1, 1], [1, 2], [1, 3], [0, 2]]} in document[
        "words"
    ]
    assert (
        main(["check", "--game", "boggle", "--board", str(CLASSIC), "dart", "zoo", "--json"]) == 0
    )
    results = json.loads(capsys.readouterr().out)["results"]
    assert [(r["word"], r["valid"], r["points"]) for r in results] == [
        ("dart", True, 1),
        ("zoo", False, 0),
    ]
    assert (
        results[1]["reason"] == "not on the board: the board has no Z" and results[1]["path"] == []
    )


@pytest.mark.parametrize("game", ["adlib", "scribbage"])
def test_check_in_an_ad_lib_game_gives_the_crossword_s_points(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # A word scores in the crossword what its letters are worth (MONEY 3+1+2+1+4), never
    # Boggle's points by length (MONEY 2); the crossword's referee is the measure.
    words = ["money", "quiz", "at", "zzzz"]
    assert main(["check", "--game", game, *words, "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert set(results[0]) >= {"word", "valid", "reason", "points", "path"}
    lexicon = Lexicon.open("en")
    crossword = [
        referee(Roll.parse(word, "scribbage"), Grid.from_rows([word.upper()]), lexicon).across[0]
        for word in words[:3]
    ]
    assert [(r["word"], r["valid"], r["points"]) for r in results] == [
        *((w.text.lower(), True, w.points) for w in crossword),
        ("zzzz", False, 0),
    ]
    assert results[0]["points"] == 11 and results[1]["points"] == 23
    assert main(["check", "--game", game, "money"]) == 0
    assert capsys.readouterr().out == "money: valid, 11 points\n"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["solve", "--game", "big-boggle", "--board", str(CLASSIC)], "25"),
        (["solve", "--game", "boggle", "--board", "TNTB/GDAR/ELTE/SIS#"], "no cube"),
        (["solve", "--game", "czech-boggle", "--board", "KOCK/UENA/BYTE/RŮEE"], "write U"),
        (["solve", "--game", "boggle", "--board", "TNTB/GDAR/ELTE/SIS1"], "not a cube face"),
        (["score", "--game", "boggle", "--board", str(CLASSIC), "ann=/no/such/file"], "no file"),
        (["score", "--game", "boggle", "--board", str(CLASSIC), "ann"], "NAME=FILE"),
        (["score", "--game", "boggle", "--board", str(CLASSIC)], "word list"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1 and "Traceback" not in err
    assert err.rstrip().endswith(".")


def test_bad_word_lists_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = ["score", "--game", "boggle", "--board", str(CLASSIC)]
    assert main([*board, write(tmp_path, "latin", "kočka\n".encode("iso8859_2"))]) == 2
    assert "not UTF-8" in capsys.readouterr().err
    assert main([*board, write(tmp_path, "a", "dart\n"), "--team", "t=a,zed"]) == 2
    assert "zed" in capsys.readouterr().err
    assert main([*board, write(tmp_path, "a", "dart\n"), "--challenge", "2,3"]) == 2
    assert "challenge cube" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("don't", "is a contraction"),
        ("isn’t", "is a contraction"),
        ("snob-nose", "has a hyphen"),
        ("c4t", "has digits"),
        ("dart slate", "more than one word"),
        ("da$rt", "signs"),
    ],
)
def test_a_line_that_is_no_word_is_ruled_not_a_word_and_the_round_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, why: str
) -> None:
    ann = write(tmp_path, "ann", f"dart\n{line}\nslate\n")
    board = ["score", "--game", "boggle", "--board", str(CLASSIC), ann, "--json"]
    assert main(board) == 0
    words = json.loads(capsys.readouterr().out)["players"][0]["words"]
    assert [(w["word"], w["status"]) for w in words] == [
        ("dart", "scored"),
        (line, "not-a-word"),
        ("slate", "scored"),
    ]
    assert why in words[1]["reason"]
    assert main(["check", "--game", "boggle", "--board", str(CLASSIC), line]) == 0
    assert why in capsys.readouterr().out


def test_czech_without_diacritics_counts_as_any_of_its_equal_spellings() -> None:
    game = find_game("czech-boggle")
    board = Board.parse("SITE/EEEE/EEEE/EEEE")
    ruling = check("sit", board, game)
    assert ruling.valid and ruling.points == 1
    assert ruling.spellings == ("sít", "síť", "šit", "šít")
    assert all(spelling in ruling.reason for spelling in ruling.spellings)
    # Crossed off against any of its spellings, both ways; two of them are two words.
    lists = [("a", ["sit"]), ("b", ["šít"]), ("c", ["síť"]), ("d", ["sít", "šit"])]
    result = score_round(board, game, lists)
    assert [p.entries[0].status for p in result.players] == ["crossed-off"] * 4
    apart = score_round(board, game, [("b", ["šít"]), ("c", ["síť"])])
    assert apart.scores() == {"b": 1, "c": 1}
    # One player writing it plain and with diacritics has written it twice.
    twice = score_round(board, game, [("a", ["sit", "šít"])])
    assert [e.status for e in twice.players[0].entries] == ["scored", "repeated"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=12).filter(str.strip), max_size=8))
def test_no_line_of_a_list_stops_the_round(lines: list[str]) -> None:
    result = score_round(CLASSIC, BOGGLE, [("a", lines), ("b", ["dart"])])
    entries = result.players[0].entries
    assert len(entries) == len(lines)
    assert all(entry.status in STATUSES and entry.ruling.reason is not None for entry in entries)
    ruled = [entry.status for entry in entries if word_problem(entry.word)]
    assert set(ruled) <= {"not-a-word", "repeated"}  # a line written twice counts once
