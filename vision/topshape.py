"""The cube-top detector's geometry: how a top face is written as the network's targets, and
read back from its outputs. Pure numpy, shared by the run-time detector (``vision.tops``) and its
training (``models.train_tops``), so that both encode a face the same way.

The network sees the photo shrunk so that its longer side is ``INPUT_SIDE`` and answers on a
grid ``STRIDE`` times coarser, with ``CHANNELS`` values a cell:

- ``heat``: how likely a top face's centre lies in this cell (a peak per face);
- ``dx, dy``: where in the cell the centre lies;
- ``size``: the log of the face's half side (in grid cells);
- ``u, v``: the face's stretch (a face seen squashed or at a slant is a parallelogram);
- ``cos4, sin4``: the face's turn, times four, since a square looks the same turned by a
  quarter (which edge is the letter's top is the face model's job).

A face is the affine image ``centre + M p`` of the square p in [-1, 1]^2, and M = S R
(its polar decomposition): S is symmetric, holding size and stretch, and R a turn. S is the
same for the four corner orders of one face, and R differs only by quarter turns, so the
targets are the same however the corners are numbered.

>>> corners = np.array([[10.0, 10], [30, 10], [30, 30], [10, 30]])
>>> face = encode(corners)
>>> np.allclose(decode(face), corners)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: The longer side of the photo as the network sees it, in pixels.
INPUT_SIDE = 384
#: Input pixels per output cell.
STRIDE = 4
#: Output channels: heat, dx, dy, size, u, v, cos4, sin4.
CHANNELS = 8
HEAT, DX, DY, SIZE, U, V, COS4, SIN4 = range(CHANNELS)
#: The unit square's corners, clockwise in image coordinates (y grows downwards).
SQUARE = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])


@dataclass(frozen=True, slots=True)
class TopShape:
    """A top face as the detector writes it (lengths in whatever unit its corners had)."""

    cx: float
    cy: float
    #: Half the side of the square of the face's area.
    half: float
    u: float
    v: float
    #: The turn of the face, in radians, modulo a quarter turn.
    turn: float


def encode(corners: np.ndarray) -> TopShape:
    """The shape of the quadrilateral ``corners`` (shape: [4, 2], clockwise) taken as the
    parallelogram that fits it best."""
    corners = np.asarray(corners, np.float64)
    centre = corners.mean(0)
    # Least squares: SQUARE's columns are orthogonal, each of squared length 4.
    m = ((SQUARE.T @ (corners - centre)) / 4).T
    w, sigma, vt = np.linalg.svd(m)
    r = w @ vt
    if np.linalg.det(r) < 0:  # corners given anticlockwise: mirror them back
        return encode(corners[::-1])
    s = w @ np.diag(sigma) @ w.T
    half = float(math.sqrt(max(np.linalg.det(s), 1e-12)))
    unit = s / half
    return TopShape(
        float(centre[0]),
        float(centre[1]),
        half,
        float((unit[0, 0] - unit[1, 1]) / 2),
        float(unit[0, 1]),
        float(math.atan2(r[1, 0], r[0, 0])),
    )


def decode(shape: TopShape) -> np.ndarray:
    """The four corners (shape: [4, 2], clockwise) of ``shape``, starting anywhere."""
    m = math.sqrt(1 + shape.u**2 + shape.v**2)
    s = shape.half * np.array([[m + shape.u, shape.v], [shape.v, m - shape.u]])
    c, n = math.cos(shape.turn), math.sin(shape.turn)
    matrix = s @ np.array([[c, -n], [n, c]])
    corners: np.ndarray = np.array([shape.cx, shape.cy]) + SQUARE @ matrix.T
    return corners


def to_grid(x: np.ndarray | float) -> np.ndarray | float:
    """Input pixels (x or y, pixel centres at whole numbers) to output-grid coordinates."""
    return (x - (STRIDE - 1) / 2) / STRIDE


def from_grid(x: np.ndarray | float) -> np.ndarray | float:
    """Output-grid coordinates back to input pixels."""
    return x * STRIDE + (STRIDE - 1) / 2


def input_size(height: int, width: int, zoom: float = 1.0) -> tuple[int, int, float]:
    """The network's input (height, width) for a photo, a multiple of 32 on each side with
    the longer side ``INPUT_SIDE`` (times ``zoom``), and the factor from photo pixels to
    input pixels."""
    scale = zoom * INPUT_SIDE / max(height, width)
    return _multiple(height * scale), _multiple(width * scale), scale


def _multiple(x: float, of: int = 32) -> int:
    return max(of, int(math.ceil(x / of - 1e-6)) * of)
