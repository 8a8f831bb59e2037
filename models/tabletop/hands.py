"""Hands in the photo: a finger pointing at a cube, a thumb holding the tray's rim, a hand
reaching in from the frame's edge. Drawn in the image as shaded capsules (fingers) and an
ellipse (the palm) of one skin tone, with a soft shadow on what lies below; their pixels
take the occluder id, so the tops they cover count as hidden.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from models.tabletop.arrays import Array
from models.tabletop.raster import OCCLUDER, Canvas, soften

#: Skin tones (BGR) from light to dark; a hand takes a shade between two neighbours.
SKIN = np.array(
    [
        (196, 214, 240),
        (160, 190, 228),
        (120, 160, 210),
        (84, 120, 172),
        (58, 86, 130),
        (38, 58, 92),
    ],
    float,
)


def skin(rng: np.random.Generator) -> Array:
    k = int(rng.integers(len(SKIN) - 1))
    return np.asarray(SKIN[k] + (SKIN[k + 1] - SKIN[k]) * rng.uniform(0, 1))


def _capsule(shape: tuple[int, int], a: Array, b: Array, radius: float) -> tuple[Array, Array]:
    """Coverage (0..1, anti-aliased) and roundness (1 on the axis, 0 at the rim) of a
    capsule from ``a`` to ``b`` over an image of ``shape``, worked out in its box only."""
    height, width = shape
    cover = np.zeros(shape, np.float32)
    round_ = np.zeros(shape, np.float32)
    x0, y0 = np.maximum(np.floor(np.minimum(a, b) - radius - 2).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(np.maximum(a, b) + radius + 2).astype(int), (width, height))
    if x1 <= x0 or y1 <= y0:
        return cover, round_
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    d = b - a
    t = np.clip(((xs - a[0]) * d[0] + (ys - a[1]) * d[1]) / max(float(d @ d), 1e-6), 0, 1)
    dist = np.hypot(xs - (a[0] + t * d[0]), ys - (a[1] + t * d[1]))
    cover[y0:y1, x0:x1] = np.clip(radius - dist + 0.5, 0, 1)
    round_[y0:y1, x0:x1] = np.sqrt(np.clip(1 - (dist / radius) ** 2, 0, 1))
    return cover, round_


def hand(
    canvas: Canvas,
    rng: np.random.Generator,
    tip: Array,
    width: float,
    *,
    fingers: int = 1,
    light: float = 1.0,
) -> None:
    """A hand reaching in from beyond the frame, its first finger's tip at ``tip`` (image
    pixels), fingers ``width`` pixels wide, lit by ``light``."""
    height, frame_width = canvas.ids.shape
    centre = np.array([frame_width / 2, height / 2])
    # It comes from the edge of the frame nearest the tip, give or take.
    edges = np.array([tip[0], frame_width - tip[0], tip[1], height - tip[1]])
    outward = np.array([[-1.0, 0], [1, 0], [0, -1], [0, 1]])[int(np.argmin(edges))]
    away = outward + 0.6 * (tip - centre) / np.array([frame_width, height]) + rng.normal(0, 0.25, 2)
    away /= max(float(np.linalg.norm(away)), 1e-6)
    length = width * float(rng.uniform(3.5, 5.0))
    tone = skin(rng)
    normal = np.array([-away[1], away[0]])
    strokes = []  # (tip, base, radius, is a nail)
    bases = []
    for k in range(fingers):
        offset = float((k - (fingers - 1) / 2) * width * 1.05)
        direction = away + normal * rng.normal(0, 0.08)
        finger_tip = tip + normal * offset - away * abs(offset) * 0.25
        base = finger_tip + direction * length * (0.85 if k else 1.0)
        bases.append(base)
        strokes.append((finger_tip, base, width / 2 * (0.92 if k else 1.0), False))
        # A nail: a paler patch near the tip, on the side towards the camera.
        nail = finger_tip + direction * width * 0.15
        strokes.append((nail, finger_tip + direction * width * 0.55, width * 0.28, True))
    palm_centre = np.mean(bases, axis=0) + away * width * 2.2
    axes = (round(width * 2.6), round(width * fingers * 0.75 + width * 1.2))
    dx, dy = (float(v) for v in rng.normal(0, 0.4, 2) * width)
    blur = width * float(rng.uniform(0.3, 1.0))
    # Work in the hand's box only (its shadow's reach included).
    reach = max(axes) + abs(dx) + abs(dy) + 3 * blur + 4
    points = np.array([tip, palm_centre, *bases])
    x0, y0 = np.maximum(np.floor(points.min(0) - reach).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(points.max(0) + reach).astype(int), (frame_width, height))
    if x1 <= x0 or y1 <= y0:
        return
    origin = np.array([x0, y0], float)
    shape = (int(y1 - y0), int(x1 - x0))
    cover = np.zeros(shape, np.float32)
    shade = np.zeros(shape, np.float32)
    for a, b, radius, is_nail in strokes:
        c, r = _capsule(shape, a - origin, b - origin, radius)
        if is_nail:
            shade = np.maximum(shade, c * 1.08)
        else:
            shade = np.maximum(shade, r * c)
            cover = np.maximum(cover, c)
    palm = np.zeros(shape, np.float32)
    at = palm_centre - origin
    angle = math.degrees(math.atan2(away[1], away[0]))
    cv2.ellipse(palm, (round(at[0]), round(at[1])), axes, angle, 0, 360, 1.0, -1, cv2.LINE_AA)
    cover = np.maximum(cover, palm)
    shade = np.maximum(shade, soften(palm, width * 0.8) * palm)
    # A soft shadow below, towards where the light does not come from.
    shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    shadow = soften(cv2.warpAffine(cover, shift, shape[::-1]), blur)
    window = (slice(y0, y1), slice(x0, x1))
    color = canvas.color[window] * (1 - 0.45 * shadow)[..., None]
    lit = (tone * light).astype(np.float32) * (0.55 + 0.5 * shade)[..., None]
    canvas.color[window] = color + (lit - color) * cover[..., None]
    canvas.ids[window][cover > 0.5] = OCCLUDER
