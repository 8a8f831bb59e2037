"""Whether a photo is too blurred or too small to read: judged face by face."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.faces import ALPHABET
from vision.crop import sharpness
from vision.errors import TooBlurred, TooSmall
from vision.prediction import FacePrediction
from vision.steps import MIN_SHARPNESS, judge


def _read(face: str, confidence: float) -> FacePrediction:
    probabilities = tuple(confidence if f == face else 0.0 for f in (*ALPHABET, None))
    return FacePrediction(face, 0, confidence, 1.0, probabilities, (1.0, 0.0, 0.0, 0.0))


def _crop(soft: bool) -> np.ndarray:
    """A 64-pixel face printed with a letter-like cross: sharp (as a photo's edge is, soft
    by a pixel; just sharp enough to read) or soft (far below it)."""
    crop = np.full((64, 64, 3), 230, np.uint8)
    crop[14:50, 28:36] = 30
    crop[28:36, 14:50] = 30
    return cv2.GaussianBlur(crop, (0, 0), 4.0 if soft else 1.3)


def _square(x: float, side: float) -> np.ndarray:
    return np.array([[x, 0], [x + side, 0], [x + side, side], [x, side]], np.float64)


def test_a_sharp_face_read_surely_is_not_refused_for_a_soft_doubtful_one_beside_it():
    """The median of two faces, one sharp and sure, one soft and doubtful (a piece of a
    hidden cube), was soft and doubtful: the photo was refused. Face by face it is read."""
    assert sharpness([_crop(False)]) >= MIN_SHARPNESS > sharpness([_crop(False), _crop(True)])
    judge(
        [_crop(False), _crop(True)],
        [_square(0, 60), _square(100, 60)],
        [_read("Z", 0.99), _read("O", 0.2)],
    )


def test_a_blurred_photo_is_refused_though_its_largest_faces_are_read_surely():
    """Half the faces soft and doubtful, the other half read surely but soft too: no face
    shows the photo in focus, and it is refused (as too small where the faces are small)."""
    crops = [_crop(True)] * 4
    reads = [_read("Y", 1.0), _read("T", 1.0), _read("O", 0.16), _read("E", 0.34)]
    with pytest.raises(TooBlurred):
        judge(crops, [_square(100 * k, 120) for k in range(4)], reads)
    with pytest.raises(TooSmall):
        judge(crops, [_square(100 * k, 20) for k in range(4)], reads)


def test_most_faces_soft_and_doubtful_refuse_the_photo_whatever_one_sharp_sure_face_says():
    crops = [_crop(False), _crop(True), _crop(True)]
    with pytest.raises(TooBlurred):
        judge(
            crops,
            [_square(100 * k, 60) for k in range(3)],
            [_read("A", 1.0), _read("B", 0.4), _read("C", 0.5)],
        )
