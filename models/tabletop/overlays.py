"""Marks drawn over the photo afterwards: pen strokes, boxes round cubes, printed text.

Each draws onto the final image and into a coverage mask, so that the truth can say how much
of each top they hide.
"""

from __future__ import annotations

import cv2
import numpy as np

from models.tabletop.arrays import Array

#: Pen and marker colours (BGR).
PENS = ((30, 30, 220), (200, 60, 20), (20, 20, 20), (40, 160, 40), (0, 200, 255), (200, 0, 200))
WORDS = ("IMG_2031", "round 3", "Boggle!", "BEST", "12:04", "score 42", "TRAY", "who starts?")
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
)


def _curve(rng: np.random.Generator, width: int, height: int) -> Array:
    """A smooth stroke: a cubic Bezier curve through four random points."""
    p = rng.uniform(0, 1, (4, 2)) * (width, height)
    t = np.linspace(0, 1, 60)[:, None]
    points = (
        (1 - t) ** 3 * p[0] + 3 * (1 - t) ** 2 * t * p[1] + 3 * (1 - t) * t**2 * p[2] + t**3 * p[3]
    )
    return np.asarray(np.round(points * 16).astype(np.int32))


def draw(image: Array, rng: np.random.Generator, tops: list[Array], scale: float) -> Array:
    """Draw one to four marks over ``image`` (float32 BGR, changed in place); ``tops`` are
    the cubes' top corners, for boxes drawn round some. Returns the coverage ([H, W], 0..1)."""
    height, width = image.shape[:2]
    cover = np.zeros((height, width), np.float32)
    for _ in range(int(rng.integers(1, 5))):
        marks = np.zeros((height, width), np.uint8)  # drawing text needs 8 bits
        pen = np.array(PENS[int(rng.integers(len(PENS)))], np.float32)
        thick = max(1, round(float(rng.uniform(1, 5)) * scale))
        what = rng.random()
        strength = 1.0
        if what < 0.4:  # a pen stroke, or a highlighter's broad, faint one
            if rng.random() < 0.25:
                thick, strength = thick * 4, 0.4
            cv2.polylines(marks, [_curve(rng, width, height)], False, 255, thick, cv2.LINE_AA, 4)
        elif what < 0.75 and tops:  # a box round a cube, as an annotation tool draws it
            for k in rng.choice(
                len(tops), size=min(len(tops), int(rng.integers(1, 6))), replace=False
            ):
                corners = tops[int(k)]
                grow = float(rng.uniform(1.0, 1.3))
                centre = corners.mean(0)
                low = (centre + (corners.min(0) - centre) * grow).round().astype(int)
                high = (centre + (corners.max(0) - centre) * grow).round().astype(int)
                cv2.rectangle(
                    marks, (int(low[0]), int(low[1])), (int(high[0]), int(high[1])), 255, thick
                )
        else:  # printed text
            font = FONTS[int(rng.integers(len(FONTS)))]
            text = WORDS[int(rng.integers(len(WORDS)))]
            size = float(rng.uniform(0.5, 2.0)) * scale
            origin = (int(rng.uniform(0, width * 0.8)), int(rng.uniform(height * 0.1, height)))
            cv2.putText(marks, text, origin, font, size, 255, max(1, thick // 2), cv2.LINE_AA)
        layer = marks.astype(np.float32) * (strength / 255)
        image += (pen - image) * layer[..., None]
        np.maximum(cover, layer, out=cover)
    return cover


def hidden(cover: Array, corners: Array) -> float:
    """The share of the quad ``corners`` that ``cover`` hides."""
    height, width = cover.shape
    x0, y0 = np.maximum(np.floor(corners.min(0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(corners.max(0)).astype(int) + 1, (width, height))
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((int(y1 - y0), int(x1 - x0)), np.uint8)
    cv2.fillConvexPoly(mask, np.round((corners - (x0, y0)) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    inside = mask.astype(bool)
    if not inside.any():
        return 0.0
    return float(cover[y0:y1, x0:x1][inside].mean())
