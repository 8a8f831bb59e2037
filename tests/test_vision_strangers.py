"""Photos read for Ad-Lib that show no roll of its cubes: a tray is refused with a
sentence (exit 2), never read as a made-up crossword; one cube thrown for who starts, and
a roll with a few cubes missing, are read as before.

The demo's photos and rendered scenes are ours; the real tray photos are read from
../shared/photos (never copied into the project), skipped where they are absent."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from device.cli import main
from engine.games import find_game
from models.scenes import render_crossword
from vision import LooseReading, WrongGame, load_image, read
from vision.detect import FaceQuad
from vision.strangers import STRANGERS, refuse_strangers

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "device" / "data" / "demo"
SHARED = ROOT / ".." / "shared" / "photos"
ADLIB = find_game("adlib")


def _tray_photos() -> list[Path]:
    photos = []
    for folder in ("dev", "field"):
        labels = SHARED / folder / "labels.json"
        if labels.is_file():
            photos += [SHARED / folder / name for name in json.loads(labels.read_text())["trays"]]
    return photos


@pytest.mark.parametrize("game", ["adlib", "scribbage"])
@pytest.mark.parametrize("command", ["read", "score"])
def test_the_demo_s_boggle_tray_read_as_ad_lib_is_one_sentence_and_exit_2(
    command: str, game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, str(DEMO / "boggle" / "1-roll.jpg"), "--game", game]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "a 4x4 tray of 16 cubes (a Boggle or Czech Boggle tray)" in err
    assert f"not the 13 loose {game} cubes" in err


@pytest.mark.photos
@pytest.mark.parametrize("photo", _tray_photos(), ids=lambda path: path.name)
def test_every_real_tray_photo_read_as_ad_lib_is_refused_as_the_tray_it_is(photo: Path) -> None:
    side = {16: 4, 25: 5, 36: 6}
    with pytest.raises(WrongGame, match=r"tray of (16|25|36) cubes") as refused:
        read(load_image(photo), ADLIB)
    cubes = int(str(refused.value).split("tray of ")[1].split()[0])
    assert f"{side[cubes]}x{side[cubes]}" in str(refused.value)


def test_one_cube_thrown_for_who_starts_is_read_without_a_warning(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, face in (("0a-ann-start.jpg", "T"), ("0b-ben-start.jpg", "E")):
        assert main(["read", str(DEMO / "adlib" / name), "--game", "adlib"]) == 0
        out, err = capsys.readouterr()
        assert out.splitlines()[0] == face and err == ""


def test_a_roll_with_a_few_cubes_missing_is_read_with_a_warning() -> None:
    scene = render_crossword(3, layout=(("MONEY",), ("S", "T")))
    reading = read(scene.image, ADLIB)
    assert isinstance(reading, LooseReading)
    assert sorted(str(face.face) for face in reading.faces) == sorted("MONEYST")
    assert "Found 7 cubes where adlib has 13; check the photo." in reading.warnings


def _quads(centres: list[tuple[float, float]], side: float = 40.0) -> list[FaceQuad]:
    half = side / 2
    return [
        FaceQuad(
            np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half],
                      [x - half, y + half]]),
            (x, y),
            side,
            0.0,
        )
        for x, y in centres
    ]  # fmt: skip


def test_a_tray_s_lattice_is_refused_and_loose_cubes_are_not_taken_for_one() -> None:
    tray = _quads([(100 + 48 * c, 100 + 48 * r) for r in range(5) for c in range(5)])
    with pytest.raises(WrongGame, match="5x5 tray of 25 cubes"):
        refuse_strangers(tray, 0, 13, "adlib")
    # Thirteen cubes in a dense crossword fill no tray: too few for the smallest.
    dense = _quads([(100 + 48 * c, 100 + 48 * r) for r in range(4) for c in range(4)][:13])
    refuse_strangers(dense, 0, 13, "adlib")


def test_more_cubes_than_the_set_has_are_refused_only_when_several_are_none_of_its() -> None:
    # Scattered far apart: no lattice, no crossword.
    scattered = _quads(
        [(100 + 300 * math.cos(k), 400 + 300 * math.sin(k)) for k in range(16)], side=30.0
    )
    with pytest.raises(WrongGame, match="16 cubes where adlib has 13, and 3 of them"):
        refuse_strangers(scattered, STRANGERS, 13, "adlib")
    refuse_strangers(scattered[:14], STRANGERS - 1, 13, "adlib")  # a stray or a misread
    refuse_strangers(scattered[:13], STRANGERS + 2, 13, "adlib")  # no more than the set
