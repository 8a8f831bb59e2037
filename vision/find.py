"""Proposing cube tops: the learned detector first, the colour and edge cuts beside it.

Every proposal is vetted later, by the tray's grid or by the face model's "none" and the
cube set, so a proposal too many costs a crop, while a top missed is a cube lost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from vision.detect import FaceQuad, downscale, find_faces, inside
from vision.models import top_detector

#: Proposals whose centres lie closer than this share of the smaller one's side are one top.
SAME_TOP = 0.5


def find_tops(
    image: np.ndarray,
    accept: Callable[[list[FaceQuad]], bool] | None = None,
    small: tuple[np.ndarray, float] | None = None,
) -> list[FaceQuad]:
    """Every top face proposed in a BGR photo: the detector's, and the cuts' that it did not
    propose. ``accept`` (say, "a full tray of the game's size") ends the search early where
    the detector's proposals, or the detector's and a cut's, satisfy it."""
    learned = top_detector().find(image, small=small)
    if accept is not None and learned and accept(learned):
        return learned
    cuts = find_faces(image, accept, small or downscale(image))
    if accept is not None and cuts and accept(cuts):
        return cuts
    return merge(learned, cuts)


def merge(first: list[FaceQuad], second: list[FaceQuad]) -> list[FaceQuad]:
    """``first``, with each of ``second`` that lies on none of them."""
    kept = list(first)
    for quad in second:
        if all(not same_top(quad, other) for other in first):
            kept.append(quad)
    return kept


def same_top(a: FaceQuad, b: FaceQuad) -> bool:
    """Whether two proposals are one top (cubes cannot overlap)."""
    distance = float(np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]))
    return distance < SAME_TOP * min(a.side, b.side)


def may_be_one_cube(quads: Sequence[FaceQuad]) -> np.ndarray:
    """Which pairs of proposals ([N, N]) lie near enough that :func:`one_cube` may hold: its
    tests need the centres nearer than ``SAME_TOP`` times the smaller side, or than the
    larger's farthest corner (no point of a convex quadrilateral lies farther from its centre).
    One look at all pairs at once, so that one_cube is asked only of these."""
    if not quads:
        return np.zeros((0, 0), bool)
    centres = np.array([q.center for q in quads], np.float64)
    sides = np.array([q.side for q in quads], np.float64)
    reach = np.array([np.linalg.norm(q.corners - q.center, axis=1).max() for q in quads])
    distance = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    bound = np.maximum(SAME_TOP * np.minimum.outer(sides, sides), np.maximum.outer(reach, reach))
    return np.asarray(distance <= bound * (1 + 1e-9))


def one_cube(a: FaceQuad, b: FaceQuad) -> bool:
    """Whether two proposals lie on one cube: the same top, or the smaller one's centre
    inside the larger (cubes' tops cannot overlap; a piece of one, as the value printed in
    its corner, lies inside it)."""
    small, large = (a, b) if a.side < b.side else (b, a)
    return same_top(a, b) or inside(np.asarray(small.center, np.float64), large.corners)
