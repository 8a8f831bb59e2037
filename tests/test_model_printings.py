"""The face model reads the joker in every printing its rulebook allows, and narrow prints.

The faces are drawn here with OpenCV alone, not by ``models.render`` (which drew the training
set), so that they measure what the model learned, not what one renderer draws.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from vision.classifier import FaceClassifier

CUBE, INK, TABLE = (205, 228, 238), (150, 70, 30), (70, 95, 120)
#: The crop's side and the face's: a face cut as the reader cuts it, a little margin round it.
CROP, FACE = 112, 90


# The committed model predates issue 48's renderer: these fail on it (measured: 64 of 79 jokers
# and 8 of 24 narrow Os misread or unsure). Strict, so the model that passes them must drop this.
pytestmark = pytest.mark.xfail(
    reason="the face model retrained on models/joker.py's printings has not landed yet",
    strict=True,
)


@pytest.fixture(scope="module")
def clf() -> FaceClassifier:
    return FaceClassifier.load()


def _face() -> np.ndarray:
    """A blank cube top on a table, in a crop as the reader cuts one."""
    img = np.zeros((CROP, CROP, 3), np.uint8)
    img[:] = TABLE
    o = (CROP - FACE) // 2
    cv2.rectangle(img, (o, o), (o + FACE, o + FACE), CUBE, -1, cv2.LINE_AA)
    return img


def _joker(way: str, lines: int, bold: bool, outline: bool, share: float) -> np.ndarray:
    """A square ``share`` of the face with ``lines`` diagonal lines, rising ("/"), falling
    ("\\") or both ("x"), clipped to the square, outlined or not; thin lines are a sixth of the
    gap between them (1 or 2 pixels), bold ones two fifths."""
    img = _face()
    side = round(FACE * share)
    lo = (CROP - side) // 2
    gap = side * np.sqrt(2) / (lines + 1)
    thick = max(2, round(gap * 0.4)) if bold else max(1, min(2, round(gap / 6)))
    hatch = np.zeros((CROP, CROP), np.uint8)
    for k in range(1, lines + 1):
        c = round(k * 2 * side / (lines + 1))  # lines x + y = c across the square
        if way in "/x":
            cv2.line(hatch, (lo + c, lo), (lo, lo + c), 255, thick, cv2.LINE_AA)
        if way in "\\x":
            cv2.line(hatch, (lo + side - c, lo), (lo + side, lo + c), 255, thick, cv2.LINE_AA)
    square = np.zeros_like(hatch)
    cv2.rectangle(square, (lo, lo), (lo + side, lo + side), 255, -1)
    ink = np.minimum(hatch, square)
    if outline:
        cv2.rectangle(ink, (lo, lo), (lo + side, lo + side), 255, thick, cv2.LINE_AA)
    a = ink[..., None].astype(np.float32) / 255
    return np.asarray(img * (1 - a) + np.array(INK) * a, np.uint8)


#: One way, the other, crossed; 3, 6 and 12 lines; thin and bold; with and without the
#: outline; the square large and small on the face.
PRINTINGS = [
    (way, lines, *look)
    for way, lines, look in itertools.product(
        ("/", "\\", "x"),
        (3, 6, 12),
        (
            (False, True, 0.75),
            (True, False, 0.75),
            (False, True, 0.4),
            (True, True, 0.8),
            (False, False, 0.5),
        ),
    )
]


def test_the_joker_is_read_surely_in_every_printing(clf: FaceClassifier) -> None:
    crops = [_joker(*p) for p in PRINTINGS]
    crops += [np.rot90(c, k).copy() for c in crops[::4] for k in (1, 2)]
    # Turned by any angle, as a cube lies.
    for k, c in enumerate(crops[:10]):
        m = cv2.getRotationMatrix2D((CROP / 2, CROP / 2), 17 + 23 * k, 1.0)
        crops.append(cv2.warpAffine(c, m, (CROP, CROP), borderValue=TABLE))
    reads = clf.classify(crops)
    unsure = [(i, p.face, round(p.confidence, 2)) for i, p in enumerate(reads) if p.face != "*"]
    unsure += [
        (i, p.face, round(p.confidence, 2))
        for i, p in enumerate(reads)
        if p.face == "*" and p.confidence < 0.9
    ]
    assert not unsure, f"{len(unsure)} of {len(crops)} jokers not read surely: {unsure}"


def _ring(width: float, height: float, thick: int, turn: int) -> np.ndarray:
    """A tall, narrow O: an elliptic ring ``width`` x ``height`` of the face."""
    img = _face()
    axes = (round(FACE * width / 2), round(FACE * height / 2))
    cv2.ellipse(img, (CROP // 2, CROP // 2), axes, turn, 0, 360, INK, thick, cv2.LINE_AA)
    return img


def test_a_tall_narrow_o_reads_as_o(clf: FaceClassifier) -> None:
    crops = [
        np.rot90(_ring(w, 0.6, t, 0), k).copy()
        for w, t, k in itertools.product((0.2, 0.26, 0.32), (5, 8), (0, 1, 2, 3))
    ]
    reads = clf.classify(crops)
    wrong = [(i, p.face, round(p.confidence, 2)) for i, p in enumerate(reads) if p.face != "O"]
    assert not wrong, f"{len(wrong)} of {len(crops)} narrow Os misread: {wrong}"
