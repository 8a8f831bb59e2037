"""`cuberef score PHOTO` says whether its score is sure, and why not (issue 48): the rule
of the live reading (``vision.doubts``), on crosswords drawn by ``tests/drawn_cubes``."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import pytest
from drawn_cubes import crossword, draw

from device.cli import main

ROWS = ["S....", "T.B.J", "E.U.O", "MONEY"]  # the README's crossword: 31 with its Q unused
SIZE = (720, 560)


def _score(tmp_path: Path, capsys: pytest.CaptureFixture[str], cubes, *options: str) -> dict:
    photo = tmp_path / "crossword.png"
    cv2.imwrite(str(photo), draw(cubes, size=SIZE))
    assert main(["score", str(photo), "--json", *options]) == 0
    return json.loads(capsys.readouterr().out)


def test_a_crossword_read_surely_is_scored_as_sure(tmp_path, capsys) -> None:
    verdict = _score(tmp_path, capsys, crossword(ROWS, "Q"), "--game", "adlib")
    assert verdict["score"] == 31 and verdict["sure"] is True and verdict["doubts"] == []


def test_a_fourteenth_cube_on_the_table_makes_the_score_not_sure(tmp_path, capsys) -> None:
    # Scribbage is played with the 13 Ad-Lib cubes: a second Q lies beside the first.
    verdict = _score(tmp_path, capsys, crossword(ROWS, "QQ"), "--game", "scribbage")
    assert verdict["sure"] is False
    assert any("14" in doubt and "13" in doubt for doubt in verdict["doubts"])


def test_a_face_half_lost_under_a_glare_makes_the_score_not_sure(tmp_path, capsys) -> None:
    cubes = crossword(ROWS, "Q")
    stem_e = next(k for k, cube in enumerate(cubes) if cube.face == "E")  # STEM's E
    cubes[stem_e] = replace(cubes[stem_e], glare=True)
    verdict = _score(tmp_path, capsys, cubes, "--game", "adlib")
    assert verdict["sure"] is False and len(verdict["doubts"]) == 1
    assert "read as E with confidence" in verdict["doubts"][0]
    # The text says so beside the score.
    photo = str(tmp_path / "crossword.png")
    assert main(["score", photo, "--game", "adlib"]) == 0
    assert "Score: 31 (not sure: The cube at" in capsys.readouterr().out


def test_a_cube_of_the_roll_seen_nowhere_makes_the_score_not_sure(tmp_path, capsys) -> None:
    # The roll given has an X that the crossword leaves out, and no cube on the table shows.
    roll = "M O N E Y S T E B U J O X"
    verdict = _score(tmp_path, capsys, crossword(ROWS), "--game", "scribbage", "--roll", roll)
    assert verdict["sure"] is False
    assert verdict["doubts"] == [
        "The roll’s X is seen nowhere on the table: put it where the camera sees it."
    ]
