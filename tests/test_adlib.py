"""The Ad-Lib referee: rolls against the real cubes, grids, checks, scores, the CLI."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from device.commands import crossword
from engine.adlib import STANDARD, YOUNG, Grid, Lexicon, Roll, letter_value, referee
from engine.errors import CuberefError, NotationError, RuleError

EN = Lexicon.open("en")
SCRIBBAGE_ROLL = "U O N T W V I G F E E A R T"
SCRIBBAGE_GRID = ["...W.", "TIGER", "OF.A.", "N..V.", "...E."]
MONEY_ROLL = "M O N E Y S T E B U J O Q"
MONEY_GRID = ["S....", "T.B.J", "E.U.O", "MONEY"]


def test_the_scribbage_rulebook_example_scores_33() -> None:
    verdict = referee(Roll.parse(SCRIBBAGE_ROLL, "scribbage"), Grid.from_rows(SCRIBBAGE_GRID), EN)
    assert [(w.text, w.points) for w in verdict.across] == [("TIGER", 11), ("OF", 5)]
    assert [(w.text, w.points) for w in verdict.down] == [("TON", 5), ("IF", 6), ("WEAVE", 11)]
    assert sorted(map(str, verdict.unused)) == ["T", "U"]
    assert (verdict.unused_points, verdict.score, verdict.errors) == (5, 33, ())


def test_the_adlib_rulebook_shape_money_with_the_q_left_over_scores_31() -> None:
    roll = Roll.parse(MONEY_ROLL, "adlib")  # a real throw: each face on its own cube
    verdict = referee(roll, Grid.from_rows(MONEY_GRID), EN)
    assert [(w.text, w.points) for w in verdict.across] == [("MONEY", 11)]
    assert sum(w.points for w in verdict.down) == 28
    assert [str(face) for face in verdict.unused] == ["Q"]
    assert (verdict.unused_points, verdict.score) == (8, 31)


def test_a_roll_is_matched_to_thirteen_different_cubes() -> None:
    roll = Roll.parse(MONEY_ROLL, "adlib")
    assert sorted(roll.dice) == list(range(1, 14))
    # Q is only on cube 4, and J only on cube 6.
    assert roll.dice[MONEY_ROLL.split().index("Q")] == 4
    assert roll.dice[MONEY_ROLL.split().index("J")] == 6


def test_two_faces_that_only_one_cube_carries_are_refused() -> None:
    # Z is only on cube 12, K only on cube 1, and C only on those two.
    with pytest.raises(RuleError, match=r"need 3 different cubes.*only 2 Ad-Lib cubes"):
        Roll.parse("Z C K E E E E E E E E E A", "adlib")


def test_three_jokers_cannot_come_from_two_joker_faces() -> None:
    with pytest.raises(RuleError, match="carry them"):
        Roll.parse("* * * A E I O U S T R N L", "adlib")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("M O N E Y S T E B U J O", RuleError),  # 12 faces
        ("M O N E Y S T E B U J O Q A", RuleError),  # 14 faces
        ("M O N E Y S T E B U J O 3", NotationError),  # not a letter
        ("M O N E Y S T E B U J O Ä", NotationError),
        ("", NotationError),
    ],
)
def test_bad_rolls_are_one_sentence(text: str, error: type[CuberefError]) -> None:
    with pytest.raises(error) as raised:
        Roll.parse(text, "adlib")
    assert str(raised.value).endswith(".") and "\n" not in str(raised.value)


def test_scribbage_takes_any_letters_and_reads_blanks_as_jokers() -> None:
    roll = Roll.parse("q q q _ # *", "scribbage")
    assert (roll.count("q"), roll.jokers, roll.total) == (3, 3, 24)
    assert str(Roll.parse("TIGER", "scribbage")) == "T I G E R"


def test_a_joker_counts_zero_and_only_where_a_joker_was_rolled() -> None:
    roll = Roll.parse("T O N * E S A R I L D U B", "adlib")
    verdict = referee(roll, Grid.from_rows(["ToN"]), EN)
    assert verdict.valid and verdict.across[0].points == 4
    no_joker = Roll.parse("T O N E S A R I L D U B M", "adlib")
    verdict = referee(no_joker, Grid.from_rows(["TaN"]), EN)
    assert not verdict.valid and verdict.score is None
    assert verdict.roll_errors == (
        "The grid has 1 joker (small letters) but no joker was rolled; "
        "write a cube's letter in capitals.",
    )


def test_a_face_used_more_often_than_rolled_is_named() -> None:
    roll = Roll.parse("T O N E S A R I L D U B M", "adlib")
    verdict = referee(roll, Grid.from_rows(["TOTE"]), EN)
    assert verdict.roll_errors == ("The grid has 2 T cubes but the roll shows only 1.",)
    verdict = referee(roll, Grid.from_rows(["ZOO"]), EN)
    assert "The grid has a Z cube but no Z was rolled." in verdict.roll_errors
    assert "The grid has 2 O cubes but the roll shows only 1." in verdict.roll_errors


def test_a_crossword_in_two_pieces_is_invalid_but_young_players_may_do_it() -> None:
    roll = Roll.parse(SCRIBBAGE_ROLL, "scribbage")
    grid = Grid.from_rows(["TIGER", ".....", "OF..."])
    verdict = referee(roll, grid, EN, STANDARD)
    assert verdict.score is None
    assert verdict.errors == (
        "The cubes do not form one connected crossword: they fall into 2 separate groups; "
        "join every word to the rest.",
    )
    young = referee(roll, grid, EN, YOUNG)
    unused = sum(letter_value(f.letters) for f in young.unused)
    assert young.valid and young.score == 11 + 5 - unused


def test_young_players_words_cross_as_in_the_standard_rules() -> None:
    roll = Roll.parse(SCRIBBAGE_ROLL, "scribbage")
    standard = referee(roll, Grid.from_rows(SCRIBBAGE_GRID), EN, STANDARD)
    young = referee(roll, Grid.from_rows(SCRIBBAGE_GRID), EN, YOUNG)
    assert young.valid and young.score == standard.score == 33
    # A small crossword (TIGER crossed by IF) and a word apart: each crossing counts twice.
    apart = referee(roll, Grid.from_rows(["TIGER", ".F...", ".....", "WAVE."]), EN, YOUNG)
    assert apart.valid and [w.text for w in apart.across] == ["TIGER", "WAVE"]
    assert [w.text for w in apart.down] == ["IF"]
    assert apart.score == 11 + 6 + 10 - apart.unused_points


def test_young_players_single_cube_apart_is_unused() -> None:
    roll = Roll.parse(SCRIBBAGE_ROLL, "scribbage")
    lone = referee(roll, Grid.from_rows(["TIGER", "", "..U"]), EN, YOUNG)
    without = referee(roll, Grid.from_rows(["TIGER"]), EN, YOUNG)
    assert lone.valid and lone.errors == ()
    assert sorted(map(str, lone.unused)) == sorted(map(str, without.unused))
    assert lone.score == without.score == 11 - without.unused_points
    assert "U" in map(str, lone.unused)
    assert not referee(roll, Grid.from_rows(["TIGER", "", "..U"]), EN, STANDARD).valid


def test_every_run_of_two_or_more_must_be_a_word() -> None:
    roll = Roll.parse(SCRIBBAGE_ROLL, "scribbage")
    verdict = referee(roll, Grid.from_rows(["TIGER", "OF.A."]), EN)
    # Under TIGER, the OF and the A make down runs TO, IF and EA: EA is not a word.
    assert verdict.errors == (
        "EA (down from row 1, column 4) is an abbreviation, which the rulebook does not allow.",
    )
    assert [(w.text, w.valid) for w in verdict.down] == [("TO", True), ("IF", True), ("EA", False)]


def test_a_lone_cube_is_not_a_crossword() -> None:
    verdict = referee(Roll.parse("A T", "scribbage"), Grid.from_rows(["A"]), EN)
    assert verdict.score is None and "single cube" in verdict.errors[0]


@pytest.mark.parametrize("text", ["", "...\n  \n", "AB3", "AÉ"])
def test_bad_grids_are_one_sentence(text: str) -> None:
    with pytest.raises(NotationError) as raised:
        Grid.parse(text)
    assert str(raised.value).endswith(".")


def test_grid_text_round_trips_and_moves() -> None:
    grid = Grid.parse("\n\n   ...W.\n   TIGER\n   OF.A.\n   N..V.\n   ...E.\n")
    assert grid.rows() == SCRIBBAGE_GRID
    assert grid.normalised() == Grid.from_rows(SCRIBBAGE_GRID)


# -- properties ---------------------------------------------------------------------------

SHORT_WORDS = [
    "at",
    "to",
    "on",
    "no",
    "it",
    "is",
    "in",
    "an",
    "as",
    "of",
    "if",
    "or",
    "so",
    "we",
    "he",
    "be",
    "me",
    "ten",
    "net",
    "set",
    "tin",
    "ton",
    "not",
    "one",
    "tea",
    "eat",
    "ate",
    "sea",
    "are",
    "ear",
    "era",
    "oar",
    "art",
    "rat",
    "tar",
    "ore",
    "roe",
    "toe",
    "note",
    "tone",
    "rate",
    "tear",
    "stone",
    "notes",
    "tones",
    "tenor",
    "sonar",
    "train",
]


@st.composite
def crosswords(draw: st.DrawFn) -> tuple[Roll, Grid]:
    """A crossword grown word by word, each new word crossing a cube already down."""
    first = draw(st.sampled_from(SHORT_WORDS))
    tiles = {(0, i): ch for i, ch in enumerate(first)}
    for _ in range(draw(st.integers(0, 3))):
        (row, col), ch = draw(st.sampled_from(sorted(tiles.items())))
        across = draw(st.booleans())
        options = [(w, i) for w in SHORT_WORDS for i, c in enumerate(w) if c == ch]
        word, at = draw(st.sampled_from(options))
        dr, dc = (0, 1) if across else (1, 0)
        for i, letter in enumerate(word):
            cell = (row + (i - at) * dr, col + (i - at) * dc)
            if tiles.get(cell, letter) != letter:
                break
        else:
            for i, letter in enumerate(word):
                tiles[row + (i - at) * dr, col + (i - at) * dc] = letter
    jokers = draw(st.sets(st.sampled_from(sorted(tiles)), max_size=2))
    text = {cell: (ch if cell in jokers else ch.upper()) for cell, ch in tiles.items()}
    top = min(r for r, _ in text)
    left = min(c for _, c in text)
    rows = max(r for r, _ in text) - top + 1
    cols = max(c for _, c in text) - left + 1
    lines = ["".join(text.get((r + top, c + left), ".") for c in range(cols)) for r in range(rows)]
    extra = draw(st.lists(st.sampled_from("AEIOUBCDQXZ*"), max_size=4))
    faces = [ch.upper() if ch.isupper() else "*" for ch in text.values()] + extra
    return Roll.parse(" ".join(faces), "scribbage"), Grid.from_rows(lines)


@given(crosswords(), st.integers(-50, 50), st.integers(-50, 50))
def test_moving_a_crossword_across_the_table_never_changes_its_score(
    drawn: tuple[Roll, Grid], rows: int, cols: int
) -> None:
    roll, grid = drawn
    here = referee(roll, grid, EN)
    there = referee(roll, grid.shifted(rows, cols), EN)
    assert (there.score, there.errors == (), there.unused_points) == (
        here.score,
        here.errors == (),
        here.unused_points,
    )
    assert [w.text for w in there.across] == [w.text for w in here.across]


@given(crosswords())
def test_the_score_never_exceeds_twice_the_rolled_values(drawn: tuple[Roll, Grid]) -> None:
    roll, grid = drawn
    verdict = referee(roll, grid, EN)
    assume(verdict.valid)
    assert verdict.score is not None and verdict.score <= 2 * roll.total
    # The same score counted cube by cube: value x (words it is in + 1), less the roll total.
    runs = grid.runs()
    by_cube = sum(
        letter_value(tile.letter) * (1 + sum(cell in run.cells for run in runs))
        for cell, tile in grid.tiles.items()
        if not tile.joker
    )
    assert verdict.score == by_cube - roll.total


# -- the command line -----------------------------------------------------------------------


def _args(tmp_path: Path, roll: str, rows: list[str], game: str = "adlib", **more: object):
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(rows) + "\n")
    return argparse.Namespace(game=game, roll=roll, grid=str(grid), json=True, **more)


def test_the_crossword_command_prints_the_design_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert crossword.run(_args(tmp_path, SCRIBBAGE_ROLL, SCRIBBAGE_GRID, "scribbage")) == 0
    document = json.loads(capsys.readouterr().out)
    assert set(document) >= {"valid", "across", "down", "unused", "unused_points", "score"}
    assert document["across"][0] == {
        "word": "TIGER",
        "points": 11,
        "valid": True,
        "row": 2,
        "col": 1,
    }
    assert (document["score"], document["unused"], document["errors"]) == (33, ["U", "T"], [])


def test_the_crossword_command_reports_an_invalid_crossword_without_a_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = _args(tmp_path, MONEY_ROLL, ["MONEY", "....J"])
    args.json = False
    assert crossword.run(args) == 0
    out = capsys.readouterr().out
    assert "No score: YJ (down from row 1, column 5) is not an English word." in out


@pytest.mark.parametrize(
    ("roll", "rows", "says"),
    [
        ("M O N E Y S T E B U J O", ["MONEY"], "13 faces"),
        ("M O N E Y S T E B U J O 3", ["MONEY"], "not a face"),
        (MONEY_ROLL, ["MONEY", "A...."], "no A was rolled"),
        (MONEY_ROLL, ["...", ""], "grid is empty"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], roll: str, rows: list[str], says: str
) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(rows))
    # `score` is registered by another part; crossword.add_arguments lets us drive it alone.
    parser = argparse.ArgumentParser()
    crossword.add_arguments(parser)
    args = parser.parse_args(["--game", "adlib", "--roll", roll, "--grid", str(grid)])
    with pytest.raises(CuberefError) as raised:
        crossword.run(args)
    assert says in str(raised.value) and str(raised.value).endswith(".")


def test_best_refuses_a_bad_roll_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    from device.cli import main

    assert main(["best", "--game", "adlib", "--roll", "A B C"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "13 faces" in err and "Traceback" not in err
