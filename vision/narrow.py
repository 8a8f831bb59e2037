"""Prints in a condensed font: a tall, narrow O that the face model takes for a D, a
narrow U for a V. Where a face's print is much narrower than it is tall, the model looks
once more at the face with its print widened (the face's edge left as it is), and the two
looks are pooled as the model's four turns are: their geometric mean. A narrow print of
a wide letter is then read as itself, and a letter narrow in every font (I, J) reads the
same widened.
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.faces import ALPHABET
from vision.crop import CROP_MARGIN
from vision.prediction import FacePrediction

#: A print narrower than this (its width over its height, upright) is looked at widened:
#: ordinary prints of the wide letters measure 0.7 and up, condensed ones 0.4-0.6.
NARROW = 0.62
#: How much wider the print is made for the second look.
WIDER = 1.35
#: The model's orientations, clockwise turns of the print.
ORIENTATIONS = (0, 90, 180, 270)
#: The share of the face (about its centre) where its print lies: the edge is left out.
PRINT = 0.8


def _print_box(crop: np.ndarray) -> tuple[int, int]:
    """Where the face's print lies in a crop cut with ``CROP_MARGIN``: the start and end of
    the square (each axis alike) inside the face's edge."""
    size = crop.shape[0]
    side = size / CROP_MARGIN * PRINT
    return round((size - side) / 2), round((size + side) / 2)


def print_aspect(crop: np.ndarray, orientation: int) -> float:
    """The width of the print (the largest piece of ink on the face) over its height, as
    the letter stands upright (``orientation``: its clockwise turn in the crop); 1.0 where
    nothing is printed.

    >>> face = np.full((64, 64, 3), 230, np.uint8)
    >>> face[16:48, 28:36] = 20  # an I: 8 wide, 32 tall
    >>> print_aspect(face, 0), print_aspect(face, 90)
    (0.25, 4.0)
    """
    start, end = _print_box(crop)
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)[start:end, start:end]
    _, ink = cv2.threshold(grey, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if ink.mean() > 0.5:  # the print is the lesser part of the face, dark or light
        ink = 1 - ink
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8))
    if count < 2:
        return 1.0
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    width, height = stats[largest, cv2.CC_STAT_WIDTH], stats[largest, cv2.CC_STAT_HEIGHT]
    if orientation in (90, 270):
        width, height = height, width
    return float(width) / float(max(1, height))


def widened(crop: np.ndarray, orientation: int) -> np.ndarray:
    """The crop with its print made ``WIDER`` across the letter (as it stands upright),
    the face's edge and what lies beyond it unchanged."""
    start, end = _print_box(crop)
    across = orientation in (0, 180)
    out = crop.copy() if across else np.ascontiguousarray(np.rot90(crop))
    inner = out[:, start:end]
    width = end - start
    wide = round(width * WIDER)
    stretched = cv2.resize(inner, (wide, out.shape[0]), interpolation=cv2.INTER_LINEAR)
    left = (wide - width) // 2
    out[:, start:end] = stretched[:, left : left + width]
    return out if across else np.ascontiguousarray(np.rot90(out, -1))


def pooled(first: FacePrediction, second: FacePrediction) -> FacePrediction:
    """Two looks at one face as one: the faces' probabilities their geometric mean (made to
    add up to one), the orientations' their mean.

    >>> def look(**p):
    ...     probabilities = [p.get(face, 0.0) for face in ALPHABET] + [p.get("none", 0.0)]
    ...     face = max(p, key=p.get)
    ...     return FacePrediction(face, 0, p[face], 1.0, tuple(probabilities), (1, 0, 0, 0))
    >>> both = pooled(look(D=0.89, O=0.1, none=0.01), look(D=0.001, O=0.989, none=0.01))
    >>> both.face, round(both.confidence, 2)
    ('O', 0.89)
    """
    logs = np.log(np.maximum(first.probabilities, 1e-12))
    logs += np.log(np.maximum(second.probabilities, 1e-12))
    faces = np.exp((logs - logs.max()) / 2)
    faces /= faces.sum()
    turns = (np.asarray(first.orientation_probabilities) + second.orientation_probabilities) / 2
    best, turn = int(faces.argmax()), int(turns.argmax())
    return FacePrediction(
        ALPHABET[best] if best < len(ALPHABET) else None,  # the last class is "none"
        ORIENTATIONS[turn],
        float(faces[best]),
        float(turns[turn]),
        tuple(float(p) for p in faces),
        tuple(float(p) for p in turns),
    )
