"""Prints in a condensed font (``vision.narrow``): a tall, narrow O, which the face model
alone takes for a D, is read as an O at any turn, and a tray printed so is read exactly; a
face the model is sure of is never changed, and a doubted one stays as read (flagged)
unless the widened look is sure."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import cv2
import numpy as np
import pytest

from engine.faces import ALPHABET
from engine.games import find_game
from models.render import Style, _rounded_square, face_ink, fonts
from models.scenes import render_tray
from vision import TrayReading, read
from vision.classifier import FaceClassifier
from vision.crop import CROP, CROP_MARGIN, cut_face
from vision.narrow import NARROW, USUAL, look_again, print_aspect, widened, wider
from vision.prediction import FacePrediction
from vision.reading import DOUBTFUL
from vision.steps import ModelLook

SIZE = 96
AT = 52
CORNERS = np.array([[AT, AT], [AT + SIZE, AT], [AT + SIZE, AT + SIZE], [AT, AT + SIZE]], float)
#: Fonts, and how much narrower than the font a kit prints them: each O a tall, narrow
#: ring that the model alone reads as a D (the condensed fonts among them less squeezed).
CONDENSED = (
    ("DejaVuSansCondensed-Bold.ttf", 0.5),
    ("NimbusSansNarrow-Bold.otf", 0.6),
    ("NimbusSans-Bold.otf", 0.5),
    ("FreeSansBold.ttf", 0.5),
)


def _font(name: str) -> int:
    return [f.name for f in fonts("all")].index(name)


def _print(letter: str, squeeze: float, font: int, turn: int, size: int = SIZE) -> np.ndarray:
    """One face, its print ``squeeze`` as wide as the font's, turned ``turn`` degrees
    clockwise."""
    style = Style(fonts("all")[font])
    ink = face_ink(letter, style, size)
    width = max(2, round(size * squeeze))
    narrow = np.zeros_like(ink)
    left = (size - width) // 2
    narrow[:, left : left + width] = cv2.resize(ink, (width, size), interpolation=cv2.INTER_AREA)
    ink = np.rot90(narrow, -turn // 90)
    body = _rounded_square(size, round(size * 0.12))
    face = np.empty((size, size, 3), np.float32)
    face[:] = (60, 60, 60)
    face = face * (1 - body[..., None]) + np.array(style.cube, np.float32) * body[..., None]
    face = face * (1 - ink[..., None]) + np.array(style.ink, np.float32) * ink[..., None]
    return np.asarray(np.clip(face, 0, 255).astype(np.uint8))


def _face(letter: str, squeeze: float, font: int, turn: int) -> np.ndarray:
    """A table with one face on it (``_print``)."""
    table = np.full((SIZE + 2 * AT, SIZE + 2 * AT, 3), 60, np.uint8)
    table[AT : AT + SIZE, AT : AT + SIZE] = _print(letter, squeeze, font, turn)
    return table


@pytest.fixture(scope="module")
def look() -> ModelLook:
    return ModelLook(FaceClassifier.load())


def _alone(look: ModelLook, table: np.ndarray) -> FacePrediction:
    """The model's one look at the face, as the reader cut it before."""
    size = look.model.input_size
    crop = cv2.resize(cut_face(table, CORNERS, CROP), (size, size), interpolation=cv2.INTER_AREA)
    return look.model.classify([crop])[0]


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_a_condensed_o_is_read_as_an_o(look: ModelLook, turn: int) -> None:
    tables = [_face("O", squeeze, _font(name), turn) for name, squeeze in CONDENSED]
    read = [look(table, [CORNERS], check=False, cubes=True)[0] for table in tables]
    assert [p.face for p in read] == ["O"] * len(CONDENSED)
    assert sum(p.confidence >= DOUBTFUL for p in read) >= 3  # the narrowest one flagged
    # The model alone: a D, flagged, in every one of these fonts.
    alone = [_alone(look, table) for table in tables]
    assert [p.face for p in alone] == ["D"] * len(CONDENSED)
    assert all(p.confidence < DOUBTFUL for p in alone)


@pytest.mark.parametrize("squeeze", [1.0, 0.6])
def test_a_face_the_model_is_sure_of_is_never_changed(look: ModelLook, squeeze: float) -> None:
    font = _font("DejaVuSansCondensed-Bold.ttf")
    sure = 0
    for k, letter in enumerate("ABCDEFGHIJKLMNOPRSTUVWXYZ"):
        table = _face(letter, squeeze, font, 90 * (k % 4))
        alone = _alone(look, table)
        if alone.confidence >= DOUBTFUL:
            sure += 1
            assert look(table, [CORNERS], check=False, cubes=True)[0] == alone, letter
    assert sure >= 15  # most of them: the test tests something


@pytest.mark.parametrize("letter", list("DCUNHE"))
def test_condensed_prints_of_other_letters_are_read_no_worse(look: ModelLook, letter: str) -> None:
    tables = [_face(letter, squeeze, _font(name), 0) for name, squeeze in CONDENSED]
    right = sum(
        look(table, [CORNERS], check=False, cubes=True)[0].face == letter for table in tables
    )
    alone = sum(_alone(look, table).face == letter for table in tables)
    assert right >= alone


@pytest.mark.parametrize(
    ("font", "squeeze", "seed"),
    [
        ("NimbusSans-Bold.otf", 0.5, 0),
        ("NimbusSans-Bold.otf", 0.5, 16),
        ("DejaVuSansCondensed-Bold.ttf", 0.55, 11),
        ("NimbusSans-Bold.otf", 0.5, 7),  # a C the model alone takes for no face at all
    ],
)
def test_a_tray_printed_tall_and_narrow_is_read_exactly(
    font: str, squeeze: float, seed: int
) -> None:
    # A kit printing every letter tall and narrow; each of these trays shows an O that the
    # model alone reads as a D.
    def painter(face: str, size: int, rng: random.Random) -> np.ndarray:
        return _print(face, squeeze, _font(font), 0, size)

    scene = render_tray(seed, 4, painter=painter)
    reading = read(scene.image, find_game("boggle"))
    assert isinstance(reading, TrayReading)
    assert scene.board is not None
    assert [[str(f) for f in row] for row in reading.rows] == [list(row) for row in scene.board]


def _prediction(**p: float) -> FacePrediction:
    probabilities = [p.get(face, 0.0) for face in ALPHABET] + [p.get("none", 0.0)]
    face = max(p, key=lambda f: p[f])
    return FacePrediction(
        None if face == "none" else face, 0, p[face], 1.0, tuple(probabilities), (1, 0, 0, 0)
    )


def test_a_doubted_face_changes_only_where_the_widened_look_is_sure() -> None:
    narrow = cut_face(_face("O", 0.5, _font("NimbusSans-Bold.otf"), 0), CORNERS, CROP)
    wide = cut_face(_face("O", 1.0, _font("NimbusSans-Bold.otf"), 0), CORNERS, CROP)
    first = _prediction(D=0.7, O=0.25, none=0.05)
    sure = _prediction(D=0.01, O=0.98, none=0.01)
    unsure = _prediction(D=0.2, O=0.7, none=0.1)

    def seeing(second: FacePrediction) -> Callable[[Sequence[np.ndarray]], list[FacePrediction]]:
        def classify(crops: Sequence[np.ndarray]) -> list[FacePrediction]:
            return [second] * len(crops)  # a model that reads every crop as ``second``

        return classify

    def again(second: FacePrediction, crop: np.ndarray, first: FacePrediction) -> FacePrediction:
        return look_again(seeing(second), [crop], [first], cubes=True)[0]

    assert again(sure, narrow, first).face == "O"
    assert again(unsure, narrow, first) == first  # left flagged
    assert again(sure, wide, first) == first  # a wide print
    certain = _prediction(D=0.9, O=0.1)
    assert again(sure, narrow, certain) == certain  # sure already
    # A loose find may be a cube's side, foreshortened: never looked at again.
    assert look_again(seeing(sure), [narrow], [first]) == [first]
    # Taken for none in a tray's cell, which holds a cube: looked at again.
    nothing = _prediction(none=0.6, D=0.2, O=0.2)
    assert again(sure, narrow, nothing).face == "O"


def test_only_a_narrow_print_is_measured_narrow() -> None:
    def crop(squeeze: float) -> np.ndarray:
        return cut_face(_face("O", squeeze, _font("NimbusSans-Bold.otf"), 0), CORNERS, CROP)

    assert print_aspect(crop(1.0), 0) > NARROW > print_aspect(crop(0.5), 0)
    assert print_aspect(crop(0.5), 90) > NARROW  # across the letter, as it stands
    wide = widened(crop(0.5), 0, wider(print_aspect(crop(0.5), 0)))
    assert print_aspect(wide, 0) == pytest.approx(USUAL, abs=0.1)  # as wide as usual
    edge = CROP - round(CROP / CROP_MARGIN * 0.8)
    assert (wide[:, : edge // 2] == crop(0.5)[:, : edge // 2]).all()  # the face's edge
