"""The reader on real photos it never saw (from ../shared, never copied into the project).

Only the model's absence or the photos' absence skips these, with the reason.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib.resources import files
from pathlib import Path
from string import ascii_uppercase

import pytest

from engine.cubes import CubeSet, Die
from engine.faces import Face
from engine.games import find_game
from vision import LooseReading, TrayReading, load_image, read

PHOTOS = Path(__file__).resolve().parents[1] / ".." / "shared" / "photos" / "dev"
MODEL = Path(str(files("models") / "cube_faces.onnx"))

pytestmark = [
    pytest.mark.photos,
    pytest.mark.skipif(not (PHOTOS / "labels.json").is_file(), reason="../shared/photos is absent"),
    pytest.mark.skipif(not MODEL.is_file(), reason="the face model is not built yet"),
]


def _labels() -> dict:
    return json.loads((PHOTOS / "labels.json").read_text())


def test_the_tray_photo_is_read_exactly():
    for name, label in _labels()["trays"].items():
        reading = read(load_image(PHOTOS / name), find_game("boggle"))
        assert isinstance(reading, TrayReading)
        assert [" ".join(row) for row in reading.rows] == label["rows"]


class _QLessDice:
    """The Q-less dice: 12 cubes of letters whose faces the labels do not give, so each die
    is allowed every letter (the reader's matching then only stops a read of a non-letter)."""

    id = "q-less"
    size = 0

    def cube_set(self, dice: str | None = None) -> CubeSet:
        every = tuple(Face(letter) for letter in ascii_uppercase)
        return CubeSet("q-less", "Q-less dice", "", tuple(Die(every) for _ in range(12)))


def _loose_photos() -> list:
    if not (PHOTOS / "labels.json").is_file():
        return []
    return sorted(_labels()["loose"])


@pytest.mark.parametrize("name", _loose_photos())
def test_loose_dice_photos_have_at_least_11_of_12_right(name):
    truth = Counter(_labels()["loose"][name]["letters"])
    reading = read(load_image(PHOTOS / name), _QLessDice())
    assert isinstance(reading, LooseReading)
    read_letters = Counter(face.face for face in reading.faces)
    right = sum((truth & read_letters).values())
    # Without underline marks N/Z and M/W differ only by the turn; count those apart.
    look_alike = {("N", "Z"), ("Z", "N"), ("M", "W"), ("W", "M")}
    missing, extra = truth - read_letters, read_letters - truth
    confusions = sum(min(missing[a], extra[b]) for a, b in look_alike if missing[a] and extra[b])
    print(
        f"{name}: {right}/12 right, {confusions} N/Z or M/W confusions, "
        f"read {sorted(read_letters.elements())}"
    )
    assert right + confusions >= 11


def test_read_command_prints_the_json_shape_of_design_md(capsys, tmp_path):
    from device.cli import main

    name = next(iter(_labels()["trays"]))
    out = tmp_path / "annotated.png"
    code = main(["read", str(PHOTOS / name), "--game", "boggle", "--json", "--annotate", str(out)])
    document = json.loads(capsys.readouterr().out)
    assert code == 0 and out.stat().st_size > 0
    assert {"game", "board", "rows", "confidence", "warnings"} <= set(document)
    assert document["min_confidence"] == min(min(row) for row in document["confidence"])
    assert main(["read", str(PHOTOS / name), "--game", "big-boggle"]) == 2
