"""Cube sets, faces, boards and the command line's error contract."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.cli import main
from engine.board import Board
from engine.cubes import CubeSet, Die, bundled_sets
from engine.errors import NotationError
from engine.faces import ALPHABET, Face
from engine.games import find_game

# Letter counts computed in shared/reference/cubes_and_rules.md from each published list.
COUNTS_1987 = "A6 B2 C2 D3 E11 F2 G2 H5 I6 J1 K1 L4 M2 N6 O7 P2 Qu1 R5 S6 T9 U3 V2 W3 X1 Y3 Z1"
COUNTS_1976 = "A8 B3 C3 D4 E10 F2 G3 H3 I7 J1 K2 L5 M3 N5 O6 P3 Qu1 R4 S5 T5 U4 V2 W2 X1 Y3 Z1"
COUNTS_ADLIB = "E9 A6 I5 O5 N4 R4 S4 T4 D3 L3 M3 U3 B2 C2 F2 G2 H2 P2 V2 W2 Y2 J1 K1 Q1 X1 Z1 *2"


def _counts(text: str) -> Counter[str]:
    return Counter(
        {
            item.rstrip("0123456789"): int(item.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZu*"))
            for item in text.split()
        }
    )


@pytest.mark.parametrize(
    ("name", "counts"),
    [("boggle-1987", COUNTS_1987), ("boggle-1976", COUNTS_1976), ("adlib", COUNTS_ADLIB)],
)
def test_cube_sets_match_the_published_letter_counts(name: str, counts: str) -> None:
    cube_set = CubeSet.load(name)
    faces = Counter(face.symbol for die in cube_set for face in die.faces)
    assert faces == _counts(counts)


def test_every_bundled_set_has_six_faced_dice_from_the_alphabet() -> None:
    for name in bundled_sets():
        for die in CubeSet.load(name):
            assert len(die.faces) == 6
            assert all(face.symbol in ALPHABET for face in die.faces)


def test_super_big_boggle_has_two_qu_faces_and_three_blanks() -> None:
    faces = Counter(f.symbol for die in CubeSet.load("super-big-boggle-2011") for f in die.faces)
    assert (len(CubeSet.load("super-big-boggle-2011").dice), faces["Qu"], faces["#"]) == (36, 2, 3)


def test_adlib_values_match_the_scribbage_example() -> None:
    adlib = CubeSet.load("adlib")
    example = {
        "T": 2,
        "I": 2,
        "G": 4,
        "E": 1,
        "R": 2,
        "O": 1,
        "F": 4,
        "N": 2,
        "W": 4,
        "A": 1,
        "V": 4,
        "U": 3,
        "Q": 8,
        "*": 0,
    }
    assert {letter: adlib.value(Face(letter)) for letter in example} == example


def _matches(faces: list[Face], dice: list[Die]) -> bool:
    """Can each face be given a die of its own that carries it? (Kuhn's matching.)"""
    owner: dict[int, int] = {}

    def place(i: int, seen: set[int]) -> bool:
        for j, die in enumerate(dice):
            if faces[i] in die.faces and j not in seen:
                seen.add(j)
                if j not in owner or place(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return all(place(i, set()) for i in range(len(faces)))


@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(sorted(bundled_sets())))
def test_a_roll_uses_each_die_once(seed: int, name: str) -> None:
    cube_set = CubeSet.load(name)
    faces = cube_set.roll(random.Random(seed))
    assert len(faces) == len(cube_set.dice)
    assert _matches(faces, list(cube_set.dice))


@given(st.lists(st.sampled_from(ALPHABET[:-2]), min_size=16, max_size=16))
def test_board_text_round_trips(symbols: list[str]) -> None:
    text = "/".join("".join(symbols[r * 4 : r * 4 + 4]) for r in range(4))
    assert str(Board.parse(text)) == text
    assert repr(Board.parse(text)) == f"Board.parse({text!r})"


def test_lowercase_q_is_the_qu_face() -> None:
    assert Board.parse("q a b c/d e f g/h i j k/l m n o")[0, 0] == Face("Qu")


@pytest.mark.parametrize(
    "text",
    [
        "TNTB/GDAR/ELT",
        "TN1B/GDAR/ELTE/SISH",
        "",
        "ABCDE",
        "RŮEE/GDAR/ELTE/SISH",
        "tNTB/GDAR/ELTE/SISH",
    ],
)
def test_bad_boards_raise_a_sentence(text: str) -> None:
    with pytest.raises(NotationError) as error:
        Board.parse(text)
    assert str(error.value).endswith(".")


def test_unknown_game_names_the_choices() -> None:
    with pytest.raises(NotationError, match="big-boggle"):
        find_game("bogle")


def test_roll_command_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "--game", "big-boggle", "--seed", "7"]) == 0
    first = capsys.readouterr().out
    assert main(["roll", "--game", "big-boggle", "--seed", "7"]) == 0
    assert capsys.readouterr().out == first
    assert Board.parse(first).size == 5


def test_unknown_game_on_the_command_line_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roll", "--game", "chess"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("package", "never"),
    [("engine", {"vision", "models", "device"}), ("vision", {"models", "device"})],
)
def test_no_module_reaches_back_up(package: str, never: set[str]) -> None:
    """DESIGN.md's one way: the engine imports none of the others, and the reader (run time)
    neither the box nor the training code (its evaluation lives in ``models``)."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / package
    reached = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            reached |= {(path.name, n) for n in names if n.split(".")[0] in never}
    assert not reached
