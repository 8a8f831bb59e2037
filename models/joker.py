"""The Ad-Lib joker in every printing its rulebook allows: "a square with diagonal lines".

A ``JokerPrint`` says how one set prints it: lines one way, the other way or crossed, from
three to a dozen (or two, or none in the museum set's "blank diamond"), thin or bold, with or
without the square's outline, the square large or small on the face, turned and slanted,
worn (broken, faded strokes) or sharp. It holds every choice, the wear's pattern too, so
``joker_ink`` draws the same ink for the same print and keeps it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

#: Which way the lines run: rising ("/"), falling ("\\") or both ("x").
WAYS = ("/", "\\", "x")
#: Drawn this many times finer than the face, then box-averaged: lines thinner than a pixel.
SUPERSAMPLE = 4


@dataclass(frozen=True, slots=True)
class JokerPrint:
    """One printing of the joker. Sizes are shares of the square's side, ``extent`` of the
    face's side; ``turn`` in degrees (45: the square stands on a corner, a diamond)."""

    lines: int = 5
    way: str = "/"
    weight: float = 0.05
    outline: float = 0.06
    extent: float = 0.58
    turn: float = 0.0
    slant: float = 0.0
    wear: float = 0.0
    seed: int = 0

    @classmethod
    def random(
        cls, rng: np.random.Generator, extent: tuple[float, float] = (0.35, 0.85)
    ) -> JokerPrint:
        """A printing drawn by ``rng``: three to a dozen lines on most, two or none on a few
        (none only where the outline is drawn), the square ``extent`` of the face."""
        lines = int(rng.integers(3, 13)) if rng.random() < 0.85 else int(rng.integers(0, 3))
        way = WAYS[int(rng.integers(len(WAYS)))]
        spacing = math.sqrt(2) / (lines + 1)  # between lines, across them
        # Bold lines leave a third of the square bare or more, or the hatching is a solid block
        # (Super Big Boggle's blank face) wherever it blurs.
        bold = (0.4 if way == "x" else 0.5) * spacing
        weight = float(rng.uniform(0.02, max(0.025, bold)))
        outline = float(rng.uniform(0.02, 0.09)) if lines == 0 or rng.random() < 0.65 else 0.0
        turn_kind = rng.random()
        turn = float(
            rng.normal(0, 3)
            if turn_kind < 0.5
            else rng.normal(45, 3)
            if turn_kind < 0.7
            else rng.uniform(0, 90)
        )
        slant = float(rng.uniform(-0.25, 0.25)) if rng.random() < 0.3 else 0.0
        wear = float(rng.uniform(0.1, 0.8)) if rng.random() < 0.35 else 0.0
        side = float(rng.uniform(*extent))
        return cls(lines, way, weight, outline, side, turn, slant, wear, int(rng.integers(2**31)))


def _square(side: int, p: JokerPrint) -> np.ndarray:
    """The upright square ([side, side] float32): its hatching clipped to it, its outline."""
    out = np.zeros((side, side), np.float32)
    diagonal = side * math.sqrt(2)
    thick = max(1, round(p.weight * side))
    for k in range(1, p.lines + 1):
        # Rising lines x + y = c, spaced evenly across the square's diagonal.
        c = round(k * diagonal / (p.lines + 1) * math.sqrt(2))
        cv2.line(out, (c, 0), (0, c), 1.0, thick, cv2.LINE_AA)
    if p.way == "\\":
        out = out[:, ::-1].copy()
    elif p.way == "x":
        out = np.maximum(out, out[:, ::-1])
    if p.outline > 0:
        t = max(1, round(p.outline * side))
        cv2.rectangle(out, (t // 2, t // 2), (side - 1 - t // 2, side - 1 - t // 2), 1.0, t)
    return out


def _wear(ink: np.ndarray, p: JokerPrint) -> np.ndarray:
    """Strokes broken where a smooth random field is low, and faded where it is middling."""
    if p.wear <= 0:
        return ink
    rng = np.random.default_rng(p.seed)
    h, w = ink.shape
    field = np.zeros((h, w), np.float32)
    for cells, share in ((4, 0.6), (max(5, h // 12), 0.4)):  # blotches and fine breaks
        coarse = rng.random((cells, cells)).astype(np.float32)
        field += share * cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)
    broken = np.clip((field - 0.35 * p.wear) / 0.1, 0, 1)
    faded = 1 - 0.55 * p.wear * np.clip(1.2 - field, 0, 1)
    return np.asarray(ink * broken * faded)


@functools.lru_cache(maxsize=2048)
def joker_ink(size: int, p: JokerPrint = JokerPrint()) -> np.ndarray:
    """The joker's ink on an upright face ([size, size] float32, 0..1), centred."""
    big = size * SUPERSAMPLE
    t, s = math.radians(p.turn), p.slant
    rot_slant = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]]) @ np.array(
        [[1.0, s], [0.0, 1.0]]
    )
    # Shrink a square that, turned and slanted, would overflow 0.92 of the face.
    reach = np.abs(rot_slant @ np.array([[1, 1, -1, -1], [1, -1, 1, -1]]) / 2).max()
    side = max(8, round(big * min(p.extent, 0.46 / reach)))
    square = _square(side, p)
    shift = np.array([big, big]) / 2 - rot_slant @ np.array([side, side]) / 2
    m = np.hstack([rot_slant, shift[:, None]])
    out = cv2.warpAffine(square, m, (big, big), flags=cv2.INTER_LINEAR)
    out = cv2.resize(out, (size, size), interpolation=cv2.INTER_AREA)
    return np.asarray(np.clip(_wear(out, p), 0, 1), np.float32)
