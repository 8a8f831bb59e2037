"""Face crops cut from the 3D tables of ``models.tabletop``, for the face model.

Each cube's top is cut as the reader cuts it (``vision.crop.cut_face`` through its corners,
ordered as the image shows them, with a margin), its corners a little off as a finder's are;
each side the camera sees, a patch of bare table and an empty tray cell are "none". The
tables bring what the face renderer of ``models.render`` draws less of: perspective, side
faces with their own letters beside the top, shadows, highlights, textures and overlays.
A piece of a large top (its letter's value in a corner, a part of its letter) is "none"
too: a finder may propose it, and only the whole top is the face.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import cv2
import numpy as np

from engine.faces import ALPHABET
from models.dataset import CLASSES, NONE, Samples, orientation_target
from models.pool import run_ranges
from models.render import Style, fonts, turn_likeness
from models.scenes import Scene
from vision.crop import CROP, cut_face
from vision.detect import ordered

#: Tops hidden more than this are not cut (the reader would see too little of them).
VISIBLE = 0.85
#: The sides cut as "none": at least this share of their top's area in view, and at most this.
SIDE_SEEN = (0.2, 0.55)
#: Bump when the crops are cut differently: cached sets carry it in their name.
CROPS_VERSION = 3
#: Kinds of table drawn, and how often: trays and rolls hold most tops, empty tables "none".
KINDS = (("tray", 0.4), ("loose", 0.25), ("crossword", 0.15), ("single", 0.1), ("empty", 0.1))
#: Tops at least this many pixels wide give a piece of themselves as "none", this share of
#: their side.
PIECE_FROM, PIECE = 48, (0.25, 0.45)
#: The frames scenes are drawn in: the same scene seen by cameras of several resolutions.
FRAMES = ((640, 480), (1024, 768), (1600, 1200))


def print_turn(corners: np.ndarray, cut: np.ndarray) -> int:
    """Quarter turns clockwise of a print whose own corners (clockwise from its top left)
    are ``corners``, in a crop cut through ``cut`` (the same corners, from the image's top
    left).

    >>> square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    >>> print_turn(square, square), print_turn(np.roll(square, -1, axis=0), square)
    (0, 1)
    """
    first = int(np.argmin(np.linalg.norm(corners - cut[0], axis=1)))
    return (4 - first) % 4


@functools.cache
def _likeness(face: str) -> tuple[float, ...]:
    """How alike a face's print looks turned (a training font's, for every table)."""
    return turn_likeness(face, Style(fonts("train")[0]))


def _target(face: str | None, turn: int) -> tuple[np.ndarray, np.ndarray]:
    faces = np.zeros(len(CLASSES), np.float32)
    faces[NONE if face is None else CLASSES.index(face)] = 1.0
    if face is None:
        return faces, np.full(4, 0.25, np.float32)
    return faces, orientation_target(_likeness(face), turn).astype(np.float32)


def _crop(
    image: np.ndarray, corners: np.ndarray, rng: np.random.Generator, size: int
) -> np.ndarray:
    side = float(np.sqrt(abs(cv2.contourArea(corners.astype(np.float32)))))
    moved = corners + rng.normal(0, 0.04 * side, corners.shape)
    crop = cut_face(image, moved, CROP, float(rng.uniform(1.1, 1.35)))
    return cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA)


def _piece(corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The corners of a small square inside the top ``corners``, mostly in one of its
    corners (where an Ad-Lib set prints the value)."""
    share = float(rng.uniform(*PIECE))
    a, b = (
        rng.choice([share / 2, 1 - share / 2], 2)
        if rng.random() < 0.6
        else rng.uniform(share / 2, 1 - share / 2, 2)
    )
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * share / 2 + [a, b]
    # Bilinear in the top's own corners: (0, 0) its first corner, (1, 1) its third.
    u, v = square[:, :1], square[:, 1:]
    c0, c1, c2, c3 = corners
    return np.asarray((1 - u) * (1 - v) * c0 + u * (1 - v) * c1 + u * v * c2 + (1 - u) * v * c3)


def scene_crops(
    scene: Scene, rng: np.random.Generator, size: int
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Every crop one table gives: (image, face target, orientation target)."""
    out = []
    image = scene.image
    height, width = image.shape[:2]
    tops = []
    for cube in scene.cubes:
        corners = np.array(cube.corners, np.float64)
        if cube.visible < VISIBLE or cube.face not in ALPHABET:
            continue
        cut = ordered(corners)
        if cut.min() < 0 or cut[:, 0].max() >= width or cut[:, 1].max() >= height:
            continue
        tops.append(cut.mean(0))
        out.append((_crop(image, cut, rng, size), *_target(cube.face, print_turn(corners, cut))))
        if np.linalg.norm(cut[1] - cut[0]) >= PIECE_FROM and rng.random() < 0.5:
            out.append((_crop(image, _piece(cut, rng), rng, size), *_target(None, 0)))
        top = cv2.contourArea(cut.astype(np.float32))
        for seen in cube.sides:
            quad = ordered(np.array(seen.corners, np.float64))
            # A side seen as squarely as a top looks like one (only the detector, seeing the
            # whole cube, can tell): only sides seen edge-on enough are "none".
            area = cv2.contourArea(quad.astype(np.float32))
            if SIDE_SEEN[0] * top < area < SIDE_SEEN[1] * top and seen.visible >= 0.6:
                out.append((_crop(image, quad, rng, size), *_target(None, 0)))
    # Bare table (or an empty tray): a square of a face's size where no top lies.
    side = (
        float(
            np.median(
                [np.linalg.norm(np.subtract(c.corners[1], c.corners[0])) for c in scene.cubes]
            )
        )
        if scene.cubes
        else min(height, width) * rng.uniform(0.05, 0.2)
    )
    side = min(side, min(height, width) / 3)  # (a cube filling the photo leaves less table)
    for _ in range(3):
        centre = rng.uniform([side, side], [width - side, height - side])
        if any(np.linalg.norm(centre - t) < side for t in tops):
            continue
        half = side / 2
        square = centre + np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        out.append((_crop(image, square, rng, size), *_target(None, 0)))
    return out


def _chunk(job: tuple[int, int, int, str, int]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    from models.tabletop import render

    start, stop, seed, split, size = job
    out = []
    for index in range(start, stop):
        rng = np.random.default_rng([seed, index, 17])
        names = [k for k, _ in KINDS]
        weights = np.array([w for _, w in KINDS])
        kind = names[int(rng.choice(len(names), p=weights / weights.sum()))]
        frame = FRAMES[int(rng.integers(len(FRAMES)))]
        scene = render(kind, seed * 1_000_003 + index, split=split, frame=frame)
        out.extend(scene_crops(scene, rng, size))
    return out


def make_table_set(
    scenes: int,
    seed: int,
    split: str = "train",
    size: int = 32,
    workers: int = 1,
    progress: Callable[[int], object] | None = None,
) -> Samples:
    """The crops of ``scenes`` tables of ``split``, rendered on ``workers`` processes."""
    chunks = run_ranges(_chunk, scenes, 25, (seed, split, size), workers, progress)
    return Samples.stack(crop for chunk in chunks for crop in chunk)
