"""Prints in a condensed font: a tall, narrow O that the face model doubts (a D to it, or a
V). Where the model doubts a face and its print is much narrower than tall, the model looks
once more at the face with its print widened (the face's edge left as it is); where that
look is sure, the two looks are pooled as the model's four turns are (their geometric mean),
and the cube set then settles what is left in doubt. A face the model is sure of is never
looked at again, and a second look that is not sure changes nothing: the face stays
flagged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from engine.faces import ALPHABET
from vision import prediction
from vision.crop import CROP_MARGIN
from vision.prediction import FacePrediction
from vision.reading import DOUBTFUL

#: A print narrower than this (its width over its height, upright) is looked at widened:
#: ordinary prints of the wide letters measure 0.7 and up, condensed ones 0.4-0.6.
NARROW = 0.62
#: For the second look the print is widened to this (width over height) ...
USUAL = 0.8
#: ... but made no more than this much wider (an I stays narrow in every font).
WIDEST = 2.0
#: The widened look is taken only where the model is at least this sure of it.
SURE_WIDENED = 0.9
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


def widened(crop: np.ndarray, orientation: int, factor: float) -> np.ndarray:
    """The crop with its print made ``factor`` times wider across the letter (as it stands
    upright), the face's edge and what lies beyond it unchanged."""
    start, end = _print_box(crop)
    across = orientation in (0, 180)
    out = crop.copy() if across else np.ascontiguousarray(np.rot90(crop))
    inner = out[:, start:end]
    width = end - start
    wide = round(width * factor)
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
    >>> both = pooled(look(D=0.6, O=0.3, none=0.1), look(D=0.01, O=0.98, none=0.01))
    >>> both.face, round(both.confidence, 2)
    ('O', 0.83)
    """
    faces = prediction.pooled(np.array([first.probabilities, second.probabilities]))
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


def doubted(first: FacePrediction) -> bool:
    """Whether the model's first look leaves a cube's face in doubt: read unsurely, or
    unsurely taken for none."""
    return first.confidence < DOUBTFUL


def wider(aspect: float) -> float:
    """How much wider a print measuring ``aspect`` is made for the second look: as wide as
    an ordinary print, however condensed the font.

    >>> wider(0.5), wider(0.2)
    (1.6, 2.0)
    """
    return min(WIDEST, USUAL / max(aspect, 1e-3))


def look_again(
    classify: Callable[[Sequence[np.ndarray]], list[FacePrediction]],
    crops: Sequence[np.ndarray],
    read: Sequence[FacePrediction],
    cubes: bool = False,
) -> list[FacePrediction]:
    """``read`` (the model's first look at each of ``crops``, cut with ``CROP_MARGIN``) with
    each doubted face of a narrow print looked at again widened, where that look is sure;
    only where each crop is known to hold a cube (``cubes``: a tray's cells). A loose find
    may be a cube's side, seen foreshortened: its print looks narrow, and widened it reads
    surer than a side should (on a table at a slant, a side's O took the die a word's Y
    needed)."""
    out = list(read)
    if not cubes:
        return out
    aspects = {k: print_aspect(crops[k], p.orientation) for k, p in enumerate(read) if doubted(p)}
    narrow = [k for k, aspect in aspects.items() if aspect < NARROW]
    if not narrow:
        return out
    again = classify([widened(crops[k], read[k].orientation, wider(aspects[k])) for k in narrow])
    for k, second in zip(narrow, again, strict=True):
        both = pooled(read[k], second)
        # Sure, and the first look agrees enough that pooled they still read it.
        if second.is_face and second.confidence >= SURE_WIDENED and both.face == second.face:
            out[k] = both
    return out
