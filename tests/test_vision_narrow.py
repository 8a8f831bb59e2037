"""Prints in a condensed font (``vision.narrow``): a tall, narrow O, which the face model
alone reads as a D, is read as an O, at any turn; the narrow letters of every font (I, J)
and condensed prints of other letters read as themselves, and a wide print is looked at
once, as before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.render import Style, _rounded_square, face_ink, fonts
from vision.classifier import FaceClassifier
from vision.crop import CROP_MARGIN, cut_face
from vision.narrow import NARROW, print_aspect, widened
from vision.reading import DOUBTFUL
from vision.steps import ModelLook

SIZE = 96
AT = 52


def _face(letter: str, squeeze: float, font: int, turn: int) -> np.ndarray:
    """A table with one face on it, its print ``squeeze`` as wide as the font's."""
    style = Style(fonts("val")[font])
    ink = face_ink(letter, style, SIZE)
    width = max(2, round(SIZE * squeeze))
    narrow = np.zeros_like(ink)
    left = (SIZE - width) // 2
    narrow[:, left : left + width] = cv2.resize(ink, (width, SIZE), interpolation=cv2.INTER_AREA)
    ink = np.rot90(narrow, -turn // 90)
    body = _rounded_square(SIZE, round(SIZE * 0.12))
    face = np.empty((SIZE, SIZE, 3), np.float32)
    face[:] = (60, 60, 60)
    face = face * (1 - body[..., None]) + np.array(style.cube, np.float32) * body[..., None]
    face = face * (1 - ink[..., None]) + np.array(style.ink, np.float32) * ink[..., None]
    table = np.full((SIZE + 2 * AT, SIZE + 2 * AT, 3), 60, np.uint8)
    table[AT : AT + SIZE, AT : AT + SIZE] = np.clip(face, 0, 255).astype(np.uint8)
    return table


CORNERS = np.array([[AT, AT], [AT + SIZE, AT], [AT + SIZE, AT + SIZE], [AT, AT + SIZE]], float)


@pytest.fixture(scope="module")
def look() -> ModelLook:
    return ModelLook(FaceClassifier.load())


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_a_condensed_o_is_read_as_an_o(look: ModelLook, turn: int) -> None:
    read = [look(_face("O", 0.5, font, turn), [CORNERS], check=False)[0] for font in range(4)]
    assert [p.face for p in read] == ["O"] * 4
    assert sum(p.confidence >= DOUBTFUL for p in read) >= 3  # the last one flagged
    # The model alone, looking once: a D in some fonts, never an O surely.
    alone = look.model.classify([_crop("O", 0.5, font, turn) for font in range(4)])
    assert "D" in [p.face for p in alone]
    assert not any(p.face == "O" and p.confidence >= DOUBTFUL for p in alone)


# (A condensed G the model takes for no face at all is not looked at again: a cube's side
# seen at a slant is a narrow print too, and must stay no face.)
@pytest.mark.parametrize("letter", list("DCQUNHEIJ"))
def test_condensed_and_narrow_prints_of_other_letters_read_as_themselves(
    look: ModelLook, letter: str
) -> None:
    read = [look(_face(letter, 0.55, font, 0), [CORNERS], check=False)[0] for font in range(4)]
    assert sum(p.face == letter for p in read) >= 3


def _crop(letter: str, squeeze: float, font: int = 0, turn: int = 0) -> np.ndarray:
    """The face as the reader cuts it out for the model."""
    return cv2.resize(cut_face(_face(letter, squeeze, font, turn), CORNERS), (32, 32))


def test_only_a_narrow_print_is_looked_at_again() -> None:
    def crop(letter: str, squeeze: float) -> np.ndarray:
        return cut_face(_face(letter, squeeze, 0, 0), CORNERS)

    assert print_aspect(crop("O", 1.0), 0) > NARROW > print_aspect(crop("O", 0.5), 0)
    assert print_aspect(crop("O", 0.5), 90) > NARROW  # across the letter, as it stands
    wide = widened(crop("O", 0.5), 0)
    assert print_aspect(wide, 0) > print_aspect(crop("O", 0.5), 0)
    edge = 64 - round(64 / CROP_MARGIN * 0.8)
    assert (wide[:, : edge // 2] == crop("O", 0.5)[:, : edge // 2]).all()  # the face's edge
