"""The reader's values as the box takes them: faces are the engine's ``Face``, a tray's
board the engine's ``Board`` (its rows and confidences derived from its faces, so a
correction changes one fact), loose cubes the engine's ``Roll``; and nothing in device/
parses a board or a roll from text but what a player typed on the command line."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from device.seams.readings import corrected, doubtful_of, faces_of
from device.store.codec import Undecodable
from device.store.events import Kind, RollRead, dumps, parse
from engine.adlib import Roll
from engine.board import Board
from engine.errors import RuleError
from engine.faces import Face
from vision import TrayReading

from .conftest import BOARD, loose_reading, tray_reading

DEVICE = Path(__file__).resolve().parents[2] / "device"


def test_a_tray_reading_derives_its_rows_board_and_confidence_from_its_faces():
    reading = tray_reading(doubtful=(3,))
    assert reading.board == Board.parse(BOARD)
    assert reading.rows[0] == tuple(Face(f) for f in "TNTB")
    assert reading.confidence[0][3] < 0.5 and reading.min_confidence < 0.5
    fixed = corrected(reading, 3, Face("Qu"))
    assert fixed.board[0, 3] == Face("Qu") and str(fixed.board).startswith("TNTQu/")
    assert fixed.confidence[0][3] == 1.0 and 3 not in doubtful_of(fixed)
    assert faces_of(fixed)[3] == Face("Qu") and fixed.rows[0][3] == Face("Qu")
    assert reading.board[0, 3] == Face("B")  # the reading itself is a value: unchanged


def test_a_tray_reading_must_hold_one_face_for_every_cell():
    reading = tray_reading()
    with pytest.raises(ValueError, match="one face for each cell"):
        TrayReading("boggle", reading.faces[:-1], (), ())


def test_loose_cubes_make_the_engines_roll_or_say_why_they_cannot():
    reading = loose_reading("M O N E Y S T E B U J O Q")
    assert reading.roll == Roll.parse("M O N E Y S T E B U J O Q")
    with pytest.raises(RuleError, match="13 faces"):
        _ = loose_reading("M O N E Y").roll


def test_a_stored_reading_keeps_its_faces_in_the_notation_and_reads_back_whole():
    reading = corrected(tray_reading(), 0, Face("Qu"))
    text = dumps(RollRead(reading))
    stored = json.loads(text)
    assert stored["reading"]["faces"][0]["face"] == "Qu"
    assert "rows" not in stored["reading"]  # one fact, kept once
    assert parse(Kind.ROLL_READ, text) == RollRead(reading)
    # A row stored before readings derived their rows still reads (the extra keys unused).
    stored["reading"]["rows"] = [["X"] * 4] * 4
    assert parse(Kind.ROLL_READ, json.dumps(stored)) == RollRead(reading)
    stored["reading"]["faces"][0]["face"] = "Ü"
    with pytest.raises(Undecodable, match="not a cube face"):
        parse(Kind.ROLL_READ, json.dumps(stored))


def _parsed_texts(path: Path) -> list[tuple[str, str]]:
    """Each ``Board.parse``/``Roll.parse``/``tray_board`` call in ``path``: the call and
    the source of the text it parses."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = ast.unparse(node.func)
        if name in ("Board.parse", "Roll.parse", "tray_board"):
            found.append((name, ast.unparse(node.args[0])))
    return found


def test_device_parses_no_board_or_roll_but_what_a_player_typed():
    calls = {
        str(path.relative_to(DEVICE)): _parsed_texts(path)
        for path in sorted(DEVICE.rglob("*.py"))
        if "data" not in path.parts  # the demo photos' own build script
    }
    parsed = {(name, text) for found in calls.values() for name, text in found}
    assert parsed == {("Roll.parse", "args.roll"), ("tray_board", "args.board")}, calls
