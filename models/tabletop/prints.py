"""The print on a cube's face: its letter, its mark, its value, as an ink mask.

A set of cubes prints every face alike, so a mask depends only on the face, the set's
print (``Print``) and the size, and is kept once made.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.cubes import CubeSet
from engine.faces import BLANK, JOKER
from models.render import _glyph, joker_ink
from models.tabletop.arrays import Array

#: The Ad-Lib letter values, printed small in a corner.
VALUES = {str(face): value for face, value in CubeSet.load("adlib").values.items() if value}


@dataclass(frozen=True, slots=True)
class Print:
    """How a set prints its faces: font, letter height (share of the face), the mark under
    the letters that could be misread turned over (``none``, ``underline`` or ``dots``),
    the letters that carry it, and whether the letter values stand in a corner."""

    font: Path
    height: float = 0.56
    mark: str = "underline"
    marked: frozenset[str] = frozenset("MWZ")
    values: bool = False
    #: A faint ring pressed into the face around the letter (0 = none).
    ring: float = 0.0
    #: The joker: its look (``models.render.JOKER_LOOKS``), hatching lines and extent (a
    #: share of the face's side).
    joker: tuple[str, int, float] = ("square", 2, 0.58)
    #: The Ad-Lib value's height, a share of the face's side.
    value: float = 0.17


def _fit(mask: Array, width: int, height: int) -> Array:
    return np.asarray(
        cv2.resize(mask, (max(1, width), max(1, height)), interpolation=cv2.INTER_AREA)
    )


@functools.lru_cache(maxsize=4096)
def ink(face: str, style: Print, size: int) -> Array:
    """The ink ([size, size] float32, 0..1) of an upright ``face`` printed in ``style``."""
    out = np.zeros((size, size), np.float32)
    if style.ring > 0:
        cv2.circle(
            out,
            (size // 2 * 16, size // 2 * 16),
            round(size * 0.43 * 16),
            style.ring,
            max(1, size // 40),
            cv2.LINE_AA,
            4,
        )
    if face == BLANK:
        return out
    if face == JOKER:
        look, lines, extent = style.joker
        side = max(4, int(size * extent))
        off = (size - side) // 2
        out[off : off + side, off : off + side] = joker_ink(side, look, lines)
        return out
    glyph = _glyph(style.font, face)
    marked = style.mark != "none" and face in style.marked
    height = size * style.height * (0.86 if marked else 1.0)
    widest = size * (0.8 if len(face) > 1 else 0.74)
    scale = min(height / glyph.shape[0], widest / glyph.shape[1])
    gh, gw = max(2, round(glyph.shape[0] * scale)), max(2, round(glyph.shape[1] * scale))
    bar = max(1, round(size * 0.06)) if marked else 0
    gap = max(1, round(size * 0.05)) if marked else 0
    top, left = (size - gh - gap - bar) // 2, (size - gw) // 2
    out[top : top + gh, left : left + gw] = np.maximum(
        out[top : top + gh, left : left + gw], _fit(glyph, gw, gh)
    )
    if marked and style.mark == "underline":
        width = round(gw * 0.8)
        x = (size - width) // 2
        out[top + gh + gap : top + gh + gap + bar, x : x + width] = 1.0
    elif marked:  # a row of dots
        count = 3
        radius = bar * 0.6
        y = top + gh + gap + bar / 2
        for k in range(count):
            x = size / 2 + (k - (count - 1) / 2) * radius * 3.2
            cv2.circle(
                out, (round(x * 16), round(y * 16)), round(radius * 16), 1.0, -1, cv2.LINE_AA, 4
            )
    if style.values and face in VALUES:
        value = _glyph(style.font, str(VALUES[face]))
        scale = size * style.value / value.shape[0]
        vw, vh = round(value.shape[1] * scale), round(value.shape[0] * scale)
        y0, x0 = size - vh - round(size * 0.1), size - vw - round(size * 0.1)
        region = np.s_[y0 : y0 + vh, x0 : x0 + vw]
        out[region] = np.maximum(out[region], _fit(value, vw, vh))
    return out


@functools.lru_cache(maxsize=4096)
def squeezed(face: str, style: Print, width: int, height: int) -> Array:
    """``ink`` drawn square and squeezed to width x height, as a face seen aslant shows it."""
    square = ink(face, style, max(width, height))
    if width == height:
        return square
    return np.asarray(cv2.resize(square, (width, height), interpolation=cv2.INTER_AREA))
