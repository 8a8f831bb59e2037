"""The solver: every word on the tray, checked against a brute-force search."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board
from engine.errors import RuleError
from engine.games import Game, find_game
from engine.lexicon import Lexicon, fold
from engine.referee import check
from engine.solver import FoundWord, neighbours, solve
from engine.tray import tray_board

TRAY_GAMES = ["boggle", "big-boggle", "super-big-boggle", "czech-boggle"]


def rolled(game: Game, seed: int) -> Board:
    return Board.from_faces(game.cube_set().roll(random.Random(seed)), game.size)


def words_for(board: Board, lexicon: Lexicon) -> tuple[tuple[str, ...], set[str]]:
    """The lexicon's words, or for cs (three million) those under a dozen two-letter
    starts picked from the board, with those starts (empty: all words)."""
    if lexicon.name == "en":
        return _every_word(lexicon.name), set()
    faces = [face.letters for face in board.faces()]
    starts = sorted(
        {faces[a] + faces[b] for a in range(len(faces)) for b in neighbours(board.size)[a]}
    )
    chosen = set(random.Random(str(board)).sample(starts, min(12, len(starts))))
    return tuple(word for start in sorted(chosen) for word in lexicon.starting(start)), chosen


@cache
def _every_word(name: str) -> tuple[str, ...]:
    return tuple(Lexicon.open(name))


def brute_force(board: Board, words: tuple[str, ...], min_length: int) -> set[str]:
    """Each word on its own: a plain path search over the cells, no trie at all."""
    cells = [
        (face.letters, r * board.size + c)
        for (r, c), face in zip(board.cells(), board.faces(), strict=True)
    ]
    letters = set("".join(text for text, _ in cells))
    around = neighbours(board.size)

    def path_from(cell: int, rest: str, used: frozenset[int]) -> bool:
        if not rest:
            return True
        return any(
            cells[n][0]
            and n not in used
            and rest.startswith(cells[n][0])
            and path_from(n, rest[len(cells[n][0]) :], used | {n})
            for n in around[cell]
        )

    found = set()
    for word in words:
        key = fold(word)
        if len(word) < min_length or not set(key) <= letters:
            continue
        if any(
            text and key.startswith(text) and path_from(cell, key[len(text) :], frozenset([cell]))
            for text, cell in cells
        ):
            found.add(word)
    return found


def assert_path_spells(board: Board, found: FoundWord) -> None:
    cells = list(found.path)
    assert len(set(cells)) == len(cells), "a cube used twice"
    for (r1, c1), (r2, c2) in zip(cells, cells[1:], strict=False):
        assert max(abs(r1 - r2), abs(c1 - c2)) == 1, "cells not neighbours"
    assert "".join(board[cell].letters for cell in cells) == fold(found.word)


@pytest.mark.parametrize("name", TRAY_GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_solve_agrees_with_brute_force(name: str, seed: int) -> None:
    game = find_game(name)
    board = rolled(game, seed)
    lexicon = Lexicon.open(game.lexicon)
    found = solve(board, game, lexicon)
    words, starts = words_for(board, lexicon)
    expected = brute_force(board, words, game.min_length)
    got = {w.word for w in found}
    if starts:
        got_here = {word for word in got if any(fold(word).startswith(s) for s in starts)}
        assert expected and got_here == expected
    else:
        assert got == expected
    for w in found:
        assert w.word in lexicon
        assert w.points == game.word_points(len(w.word))
        assert_path_spells(board, w)
    assert len(got) == len(found), "a word reported twice"


def test_qu_is_one_cell_spelt_qu_and_counts_two_letters() -> None:
    board = Board.parse("QuIXX/XTXX/XXXX/XXXX")
    words = {w.word: w for w in solve(board, find_game("boggle"))}
    assert words["quit"].path == ((0, 0), (0, 1), (1, 1))
    assert words["quit"].length == 4 and words["quit"].points == 1
    assert "qit" not in words


def test_blank_cells_are_blocked() -> None:
    # CATS is there; with a blank between A and T it is not: a blank spells nothing
    # and cannot be passed through.
    game = find_game("super-big-boggle")
    rest = "/XXXXXX" * 5
    assert [w.word for w in solve(Board.parse("CATSXX" + rest), game)] == ["cats"]
    assert solve(Board.parse("CA#TSX" + rest), game) == []
    assert check("cats", Board.parse("CA#TSX" + rest), game).status == "not-on-board"


def test_multi_letter_faces_spell_all_their_letters() -> None:
    board = Board.parse("ThErEXXX/XXXXXX/XXXXXX/XXXXXX/XXXXXX/XXXXXX")
    words = {w.word: w for w in solve(board, find_game("super-big-boggle"))}
    assert words["there"].path == ((0, 0), (0, 1), (0, 2))
    assert words["there"].points == 2  # five letters on three cubes


def test_min_length_and_long_word_bonus() -> None:
    big = find_game("big-boggle")
    assert all(len(w.word) >= 4 for w in solve(rolled(big, 3), big))
    super_big = find_game("super-big-boggle")
    assert super_big.word_points(10) == 15 and super_big.word_points(9) == 13


def test_czech_plain_letters_reach_every_spelling() -> None:
    game = find_game("czech-boggle")
    board = tray_board("KOCK/XXXA/BYTX/XXXX".replace("X", "E"), game)
    words = {w.word for w in solve(board, game)}
    assert {"kočka", "byt", "být"} <= words
    assert "kocka" not in words


def test_solve_needs_the_games_tray() -> None:
    with pytest.raises(RuleError, match="25"):
        tray_board("TNTB/GDAR/ELTE/SISH", find_game("big-boggle"))
    with pytest.raises(RuleError, match="no cube"):
        tray_board("ABCD/EFGH/IJKL/MNO#", find_game("boggle"))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TRAY_GAMES), st.integers(0, 2**32))
def test_every_word_solve_finds_passes_check(name: str, seed: int) -> None:
    game = find_game(name)
    board = rolled(game, seed)
    found = solve(board, game)
    for w in random.Random(seed).sample(found, min(len(found), 12)):
        ruling = check(w.word, board, game)
        assert ruling.valid, (w.word, ruling.reason)
        assert ruling.spelling == w.word and ruling.points == w.points


def test_found_words_are_frozen_values() -> None:
    board = Board.parse("QuIXX/XTXX/XXXX/XXXX")
    quit_ = next(w for w in solve(board, find_game("boggle")) if w.word == "quit")
    assert quit_ == FoundWord("quit", ((0, 0), (0, 1), (1, 1)), 1)
    assert hash(quit_) == hash(FoundWord("quit", ((0, 0), (0, 1), (1, 1)), 1))
    with pytest.raises(AttributeError):
        quit_.points = 5  # type: ignore[misc]
