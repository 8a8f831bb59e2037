"""The reader on real photos it never saw (from ../shared, never copied into the project).

Only the model's absence or the photos' absence skips these, with the reason.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib.resources import files
from pathlib import Path
from string import ascii_uppercase

import cv2
import numpy as np
import pytest

from engine.cubes import CubeSet, Die
from engine.faces import Face
from engine.games import find_game
from vision import LooseReading, TrayReading, load_image, read
from vision.errors import ReadError

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "photos"
PHOTOS = SHARED / "dev"
MODEL = Path(str(files("models") / "cube_faces.onnx"))
#: A tray's size in the labels names its game.
TRAY_GAMES = {4: "boggle", 5: "big-boggle", 6: "super-big-boggle"}

pytestmark = [
    pytest.mark.photos,
    pytest.mark.skipif(not (PHOTOS / "labels.json").is_file(), reason="../shared/photos is absent"),
    pytest.mark.skipif(not MODEL.is_file(), reason="the face model is not built yet"),
]


def _labels(folder: str = "dev") -> dict:
    path = SHARED / folder / "labels.json"
    return json.loads(path.read_text()) if path.is_file() else {"trays": {}, "loose": {}}


def _photos(kind: str) -> list[tuple[str, str]]:
    return [(folder, name) for folder in ("dev", "field") for name in sorted(_labels(folder)[kind])]


@pytest.mark.parametrize(("folder", "name"), _photos("trays"))
def test_every_tray_photo_is_read_exactly(folder, name):
    label = _labels(folder)["trays"][name]
    game = find_game(TRAY_GAMES[label.get("size", 4)])
    reading = read(load_image(SHARED / folder / name), game)
    assert isinstance(reading, TrayReading)
    assert [" ".join(map(str, row)) for row in reading.rows] == label["rows"]


class _QLessDice:
    """The Q-less dice: 12 cubes of letters whose faces the labels do not give, so each die
    is allowed every letter (the reader's matching then only stops a read of a non-letter)."""

    id = "q-less"
    size = 0
    dice = (("q-less", "q-less"),)

    def cube_set(self, dice: str | CubeSet | None = None) -> CubeSet:
        every = tuple(Face(letter) for letter in ascii_uppercase)
        return CubeSet("q-less", "Q-less dice", "", tuple(Die(every) for _ in range(12)))


@pytest.mark.parametrize(("folder", "name"), _photos("loose"))
def test_loose_dice_photos_are_read(folder, name):
    truth = Counter(_labels(folder)["loose"][name]["letters"])
    reading = read(load_image(SHARED / folder / name), _QLessDice())
    assert isinstance(reading, LooseReading)
    read_letters = Counter(str(face.face) for face in reading.faces)
    right = sum((truth & read_letters).values())
    # Without underline marks N/Z and M/W differ only by the turn; count those apart.
    look_alike = {("N", "Z"), ("Z", "N"), ("M", "W"), ("W", "M")}
    missing, extra = truth - read_letters, read_letters - truth
    confusions = sum(min(missing[a], extra[b]) for a, b in look_alike if missing[a] and extra[b])
    print(
        f"{name}: {right}/12 right, {confusions} N/Z or M/W confusions, "
        f"read {sorted(read_letters.elements())}"
    )
    # dev/ as before (11 of 12, the look-alikes apart); field/ every letter.
    assert right == 12 if folder == "field" else right + confusions >= 11


@pytest.mark.parametrize("name", ["Emerson-L-Q-less-IMG_3296.JPG", "Emerson-L-Q-less-IMG_3297.JPG"])
def test_a_roll_photographed_from_afar_is_read(name):
    """The same 12 MP photo with the dice in a ninth of the frame (tops about 60 pixels
    wide, five in the detector's input): they are looked at again, closer."""
    if not (SHARED / "dev" / name).is_file():
        pytest.skip("../shared/photos/dev is absent")
    photo = load_image(SHARED / "dev" / name)
    height, width = photo.shape[:2]
    table = np.empty((3 * height, 3 * width, 3), np.uint8)
    table[:] = np.median(photo.reshape(-1, 3), axis=0)
    table[height : 2 * height, width : 2 * width] = photo
    far = cv2.resize(table, (width, height), interpolation=cv2.INTER_AREA)
    reading = read(far, _QLessDice())
    truth = Counter(_labels("dev")["loose"][name]["letters"])
    assert sum((truth & Counter(str(face.face) for face in reading.faces)).values()) >= 11


def test_each_cube_of_a_roll_cut_out_as_a_close_up_is_read_as_that_cube():
    """Each die of three loose rolls, cut out of the photo so that its top fills 70 % of the
    frame's height (4:3, as a phone frames a close-up): read as the one face the whole photo
    reads there (13 of these 36 before the detector looked from much farther; 29 now)."""
    names = ["IMG_3296.JPG", "IMG_3386.jpeg", "IMG_3395.JPG"]
    right = total = 0
    for name in names:
        photo = load_image(PHOTOS / f"Emerson-L-Q-less-{name}")
        for face in read(photo, _QLessDice()).faces:
            corners = np.array(face.corners, np.float32)
            height = float(np.sqrt(abs(cv2.contourArea(corners)))) / 0.7
            x0, y0 = int(max(0, face.x - height * 2 / 3)), int(max(0, face.y - height / 2))
            x1, y1 = int(face.x + height * 2 / 3), int(face.y + height / 2)
            close_up = np.ascontiguousarray(photo[y0:y1, x0:x1])
            try:
                faces = read(close_up, _QLessDice()).faces
            except ReadError:
                faces = ()
            right += [str(f.face) for f in faces] == [str(face.face)]
            total += 1
    assert total == 36 and right >= 26


def test_a_sure_face_the_cube_set_cannot_show_is_kept_and_flagged():
    """The newer Big Boggle shows K and Z together, which no edition the game knows can: the
    reading keeps the Z the model is sure of and says so, rather than rewriting it."""
    name = "nsinghvi123-Boggle-TASHUPhotoboggle.jpeg"
    if not (SHARED / "field" / name).is_file():
        pytest.skip("../shared/photos/field is absent")
    reading = read(load_image(SHARED / "field" / name), find_game("big-boggle"))
    assert isinstance(reading, TrayReading)
    assert str(reading.board).split("/")[1][:3] == "OZK"
    assert reading.confidence[1][1] > 0.9 and reading.confidence[1][2] > 0.9
    # One of the two stands on a die the set does not know: flagged for the players.
    assert {(1, 1), (1, 2)} & set(reading.doubtful_cells)
    assert any("Z" in w and "K" in w and "--dice" in w for w in reading.warnings)


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
