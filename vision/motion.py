"""What changed between two frames of a still camera, on small copies of them.

A frame is shrunk to ``SIDE`` pixels on its longer side and smoothed, so that a camera's
noise averages out while a cube (a dozen pixels or more across) stays plain. Two copies
are compared after matching their brightness channel by channel (a camera's exposure
follows a hand into the picture), and the pixels that differ by more than the noise are
gathered into blobs; a blob smaller than ``SPECK`` of a cube's area is noise.

A blob is *explained* where cubes lay before or lie now (their tops, grown to take in
their sides and shadows): a cube laid, moved or taken away. What changed elsewhere is a
hand, an arm or its shadow.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.image import label, label_box, shrink

#: The longer side of the small copy, in pixels.
SIDE = 320
#: The least difference in grey levels that counts as a change, and how many times the
#: median difference (the noise) it must also exceed.
MIN_DIFFERENCE, NOISE_TIMES = 18, 4.0
#: A median difference above this many grey levels is no camera's noise: the whole view
#: changed (the light moved), and every pixel counts as changed.
NOISY = 8.0
#: A blob smaller than this share of a cube's top is noise.
SPECK = 0.06
#: A cube's top grown by this factor about its centre takes in its sides and its shadow.
REACH = 2.0
#: How sure phase correlation must be of a shift of the whole view, and the least shift
#: (small copy pixels) worth moving a copy for.
SURE_SHIFT, LEAST_SHIFT = 0.3, 0.25
#: A change over more than this share of the view is of the view itself (light, camera).
WHOLE = 0.6
#: A cube's side on the small copy before any was read, as a share of its longer side.
GUESS = 1 / 20


#: Every how many rows and columns the brightness and the noise are sampled.
SAMPLE = (slice(None, None, 4), slice(None, None, 4))


@dataclass(frozen=True, slots=True)
class Small:
    """A frame's small copy (float32, [h, w, 3]) and the factor from frame to copy pixels,
    with what every comparison of it needs, worked out once: the copy in grey (for the
    view's shift) and each channel's median level (for its brightness)."""

    pixels: np.ndarray
    scale: float
    grey: np.ndarray
    levels: np.ndarray


def small_copy(image: np.ndarray) -> Small:
    scale = min(1.0, SIDE / max(image.shape[:2]))
    pixels = cv2.GaussianBlur(shrink(image, scale), (3, 3), 0).astype(np.float32)
    return Small(pixels, scale, _grey(pixels), _levels(pixels))


def _grey(pixels: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.cvtColor(pixels, cv2.COLOR_BGR2GRAY))


def _levels(pixels: np.ndarray) -> np.ndarray:
    return np.asarray(np.median(pixels[SAMPLE], axis=(0, 1)))


@functools.cache
def _window(width: int, height: int) -> np.ndarray:
    """The Hanning window of phase correlation (the same for every frame of a size)."""
    return np.asarray(cv2.createHanningWindow((width, height), cv2.CV_32F))


def changed(a: Small, b: Small) -> np.ndarray:
    """Where ``a`` and ``b`` differ by more than the noise (uint8 mask, 1 for a change).

    ``a`` is first moved onto ``b`` where the whole view shifted (a camera nudged on its
    stand), and its brightness matched to ``b``'s channel by channel, by their medians, so
    that a change of exposure is not a change of the table. Where the light changed across the
    view, every pixel is changed: no part of it can be taken as it was."""
    y = b.pixels
    if a.pixels.shape != y.shape:
        return np.ones(y.shape[:2], np.uint8)
    x = _registered(a, b)
    levels = a.levels if x is a.pixels else _levels(x)
    gain = b.levels / np.maximum(levels, 1.0)
    # OpenCV's difference and a maximum over the channels' planes: numpy's reduction over
    # the last axis of three costs six times more.
    each = cv2.absdiff(x * gain, y)
    difference = np.maximum(np.maximum(each[..., 0], each[..., 1]), each[..., 2])
    noise = float(np.median(difference[SAMPLE]))
    if noise > NOISY:  # most of the view differs: nothing in it compares
        return np.ones(y.shape[:2], np.uint8)
    return np.asarray(difference > max(MIN_DIFFERENCE, NOISE_TIMES * noise), np.uint8)


def _registered(a: Small, b: Small) -> np.ndarray:
    """``a``'s pixels moved by the shift of the whole view from ``a`` to ``b``, where there
    is one (phase correlation: a hand moving over a still table does not shift its peak);
    else ``a.pixels`` themselves."""
    x = a.pixels
    height, width = x.shape[:2]
    # Copies: OpenCV's phaseCorrelate multiplies its inputs by the window in place.
    window = _window(width, height)
    (dx, dy), response = cv2.phaseCorrelate(a.grey.copy(), b.grey.copy(), window)
    if response < SURE_SHIFT or np.hypot(dx, dy) < LEAST_SHIFT:
        return x
    shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    return np.asarray(cv2.warpAffine(x, shift, (width, height), borderMode=cv2.BORDER_REPLICATE))


def share(mask: np.ndarray) -> float:
    """The share of the picture that ``mask`` covers."""
    return float(mask.mean())


def blobs(mask: np.ndarray, least: float) -> list[np.ndarray]:
    """The connected pieces of ``mask`` of at least ``least`` pixels, each as a mask."""
    count, labels, stats = label(mask)
    return [
        (labels == k).astype(np.uint8)
        for k in range(1, count)
        if stats[k, cv2.CC_STAT_AREA] >= least
    ]


def area(mask: np.ndarray, least: float) -> float:
    """The pixels of ``mask`` in pieces of at least ``least`` pixels."""
    count, _, stats, _ = label_box(mask)
    sizes = stats[1:count, cv2.CC_STAT_AREA]
    return float(sizes[sizes >= least].sum())


def footprint(
    shape: tuple[int, ...], tops: Iterable[np.ndarray], scale: float, reach: float = REACH
) -> np.ndarray:
    """A mask of the small copy covering each top (corners in frame pixels, [4, 2]) grown
    by ``reach`` about its centre."""
    mask = np.zeros(shape[:2], np.uint8)
    for corners in tops:
        points = np.asarray(corners, np.float64) * scale
        centre = points.mean(axis=0)
        grown = centre + (points - centre) * reach
        cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), 1)
    return mask


def cube_side(tops: Iterable[np.ndarray], scale: float, shape: tuple[int, ...]) -> float:
    """The median side of ``tops`` on the small copy (a guess where there are none)."""
    sides = [float(np.linalg.norm(np.asarray(c[1], float) - np.asarray(c[0], float))) for c in tops]
    if not sides:
        return GUESS * max(shape[:2])
    return float(np.median(sides)) * scale
