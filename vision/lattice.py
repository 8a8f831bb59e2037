"""Fitting a lattice (rows and columns of cubes) to face centres, with perspective.

Indices grow step by step between neighbouring faces, so the spacing may change across a
tilted photo; a homography from (col, row) to the image is then fitted to all of them.
Rows and columns are named as the image shows them: columns run along the lattice axis
nearest the image's horizontal, left to right; rows top to bottom.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True, slots=True)
class Lattice:
    """Faces snapped to cells."""

    #: (row, col) of each input point, or None for a point off the lattice.
    cells: tuple[tuple[int, int] | None, ...]
    #: Maps (col, row) to image pixels (shape: [3, 3]).
    homography: np.ndarray
    rows: int
    cols: int

    def cell_center(self, row: float, col: float) -> tuple[float, float]:
        point = cv2.perspectiveTransform(np.array([[[col, row]]], np.float64), self.homography)
        return float(point[0, 0, 0]), float(point[0, 0, 1])

    def window(self, rows: int, cols: int, weights: Sequence[float] | None = None) -> Lattice:
        """The ``rows`` x ``cols`` part of the lattice that holds the most points (the
        heaviest, by ``weights``, where several hold as many); the points outside it are off
        the lattice. A lattice no larger is returned as it is.

        A tray photographed with something beside it in line with its cubes (a pencil, a
        letter on the box, a cube lying apart) has more rows or columns than the tray.
        """
        if self.rows <= rows and self.cols <= cols:
            return self
        weight = list(weights) if weights is not None else [1.0] * len(self.cells)
        best: tuple[int, float, int, int] | None = None
        for r0 in range(max(1, self.rows - rows + 1)):
            for c0 in range(max(1, self.cols - cols + 1)):
                inside = [
                    k
                    for k, c in enumerate(self.cells)
                    if c is not None and r0 <= c[0] < r0 + rows and c0 <= c[1] < c0 + cols
                ]
                score = (len(inside), sum(weight[k] for k in inside), -r0, -c0)
                if best is None or score > (best[0], best[1], -best[2], -best[3]):
                    best = (len(inside), score[1], r0, c0)
        assert best is not None
        _, _, r0, c0 = best
        cells = tuple(
            (c[0] - r0, c[1] - c0)
            if c is not None and r0 <= c[0] < r0 + rows and c0 <= c[1] < c0 + cols
            else None
            for c in self.cells
        )
        shift = np.array([[1, 0, c0], [0, 1, r0], [0, 0, 1]], np.float64)
        return Lattice(cells, self.homography @ shift, min(rows, self.rows), min(cols, self.cols))


#: A face further than this share of a step from where a fitted lattice puts its cell is
#: off it (for choosing among fits).
OFF_CELL = 0.3
#: Steps whose directions' cosine is below this (within 30 degrees of a right angle) run
#: along the other axis of the lattice.
PERPENDICULAR = math.cos(math.radians(60))
#: No two faces' centres lie closer than this share of a face's side (a squashed photo
#: shortens one axis).
SHORTEST = 0.7


def lattice_axes(points: np.ndarray, spacing: float) -> tuple[np.ndarray, np.ndarray]:
    """The two step vectors (column step, row step) of the lattice through ``points``
    (shape: [N, 2]), spaced about ``spacing`` apart."""
    vectors = []
    for i, p in enumerate(points):
        d = np.linalg.norm(points - p, axis=1)
        d[i] = np.inf
        # Only the nearest ring: diagonal neighbours would pull the angle by 45 degrees.
        near = min(float(d.min()) * 1.2, 1.6 * spacing)
        ring = np.flatnonzero(d < near)
        vectors.extend(points[ring] - p)
        if not len(ring):
            continue
        # Along the other axis the step may be longer (a squashed photo, a slant): the
        # nearest neighbour roughly square to the first step, never a diagonal one.
        first = points[int(np.argmin(d))] - p
        steps = points - p
        cosines = np.abs(steps @ first) / np.maximum(d * float(np.linalg.norm(first)), 1e-9)
        across = np.flatnonzero((cosines < PERPENDICULAR) & (d < 2.2 * spacing))
        if len(across):
            vectors.append(steps[across[np.argmin(d[across])]])
    if not vectors:
        raise ValueError("no two faces are neighbours")
    v = np.array(vectors)
    angles = np.arctan2(v[:, 1], v[:, 0])
    # The four directions of a square lattice agree once the angle is multiplied by four.
    mean = math.atan2(np.sin(4 * angles).sum(), np.cos(4 * angles).sum()) / 4
    a, b = _two_axes(v, mean, spacing)
    col, row = (a, b) if abs(a[0]) >= abs(b[0]) else (b, a)
    if col[0] < 0:
        col = -col
    if row[1] < 0:
        row = -row
    return col, row


def _two_axes(vectors: np.ndarray, start: float, spacing: float) -> tuple[np.ndarray, np.ndarray]:
    """The lattice's two step vectors from the steps between neighbours, starting from axes
    at ``start`` and ``start`` + 90 degrees. Each axis keeps its own direction and length:
    a photo squashed in one direction, or taken at a slant, spaces rows and columns unequally
    and turns them off the right angle."""
    angles = np.arctan2(vectors[:, 1], vectors[:, 0])
    lengths = np.linalg.norm(vectors, axis=1)
    axes = np.array([start, start + math.pi / 2])
    for _ in range(3):
        # A step and its reverse lie along one axis: compare directions modulo 180 degrees.
        apart = np.abs(((angles[:, None] - axes[None, :]) + math.pi / 2) % math.pi - math.pi / 2)
        nearest = np.argmin(apart, axis=1)
        for k in range(2):
            own = angles[nearest == k]
            if len(own):
                axes[k] = math.atan2(np.sin(2 * own).sum(), np.cos(2 * own).sum()) / 2
    steps = []
    for k in range(2):
        own = lengths[nearest == k]
        step = _one_step(own, spacing) if len(own) else float(np.median(lengths))
        steps.append(np.array([math.cos(axes[k]), math.sin(axes[k])]) * step)
    return steps[0], steps[1]


def _one_step(lengths: np.ndarray, spacing: float) -> float:
    """One cell's step along an axis, from steps between neighbours that may span several
    cells (in a crossword the nearest cube across a row is often two rows away).

    The shortest step seen twice is one cell (faces cannot lie closer than about a face's
    side); every step is counted in the whole cells it spans.

    >>> round(_one_step(np.array([91.0, 92, 182, 181, 183, 182]), 87), 1)
    91.0
    >>> round(_one_step(np.array([120.0, 118, 121]), 100), 1)
    120.0
    """
    candidates = np.sort(lengths[lengths >= SHORTEST * spacing])
    for base in candidates:
        if np.count_nonzero(np.abs(lengths - base) < 0.15 * base) >= 2:
            break
    else:
        return float(np.median(lengths))
    cells = np.maximum(np.round(lengths / base), 1)
    whole = np.abs(lengths / base - cells) < 0.25
    return float(np.median(lengths[whole] / cells[whole]))


def fit_lattice(
    points: np.ndarray,
    spacing: float,
    tolerance: float = 0.3,
    sizes: np.ndarray | None = None,
) -> Lattice:
    """Snap ``points`` (shape: [N, 2]) to a lattice of roughly ``spacing``.

    ``sizes`` (shape: [N]), each face's apparent side, lets a step be judged against the
    faces it joins: in a tilted photo the near end of a row has longer steps than the far.

    Points not linked to the largest connected group, or far from the fitted lattice, are
    off it (cell None).
    """
    points = np.asarray(points, np.float64)
    col_step, row_step = lattice_axes(points, spacing)
    basis = np.linalg.inv(np.column_stack([col_step, row_step]))
    n = len(points)
    # Walk from every face not yet reached; the largest connected walk is the lattice.
    index: dict[int, tuple[int, int]] = {}
    reached: set[int] = set()
    for start in range(n):
        if start in reached:
            continue
        walk = _walk(points, basis, start, tolerance, sizes)
        reached.update(walk)
        if len(walk) > len(index):
            index = walk
        if len(index) > n / 2:
            break
    homography = fit_homography(points, index, col_step, row_step)
    # Points the walk missed may still lie on the lattice (a cube whose neighbour was not
    # found): snap them through the fitted homography.
    inverse = np.linalg.inv(homography)
    projected = cv2.perspectiveTransform(points[None], inverse)[0]
    walked = np.array(list(index.values()))
    low, high = walked.min(0), walked.max(0)
    cells: list[tuple[int, int] | None] = []
    for k in range(n):
        if k in index:  # the walk's own steps are surer than the fit
            cells.append(index[k])
            continue
        col, row = projected[k]
        rc, rr = round(col), round(row)
        near = low[0] - 1 <= rr <= high[0] + 1 and low[1] - 1 <= rc <= high[1] + 1
        if near and abs(col - rc) <= tolerance and abs(row - rr) <= tolerance:
            cells.append((rr, rc))
        else:
            cells.append(None)
    used = [c for c in cells if c is not None]
    r0 = min(r for r, _ in used)
    c0 = min(c for _, c in used)
    cells = [None if c is None else (c[0] - r0, c[1] - c0) for c in cells]
    shift = np.array([[1, 0, c0], [0, 1, r0], [0, 0, 1]], np.float64)
    homography = homography @ shift
    rows = max(c[0] for c in cells if c is not None) + 1
    cols = max(c[1] for c in cells if c is not None) + 1
    return Lattice(tuple(cells), homography, rows, cols)


def _walk(
    points: np.ndarray,
    basis: np.ndarray,
    start: int,
    tolerance: float,
    sizes: np.ndarray | None = None,
) -> dict[int, tuple[int, int]]:
    """Indices for every face reached from ``start`` by unit steps between neighbours."""
    index = {start: (0, 0)}
    queue = deque([start])
    typical = float(np.median(sizes)) if sizes is not None else 1.0
    # All steps from one face at once (a per-pair loop is slow in Python).
    while queue:
        i = queue.popleft()
        steps = points - points[i]
        if sizes is not None:
            steps = steps * (typical / ((sizes[i] + sizes) / 2))[:, None]
        ab = steps @ basis.T
        rounded = np.round(ab)
        ok = (np.abs(rounded).sum(1) == 1) & (np.abs(ab - rounded) <= tolerance).all(1)
        for found in np.flatnonzero(ok):
            j = int(found)
            if j in index:
                continue
            ra, rb = int(rounded[j, 0]), int(rounded[j, 1])
            index[j] = (index[i][0] + rb, index[i][1] + ra)
            queue.append(j)
    return index


def fit_homography(
    points: np.ndarray,
    index: dict[int, tuple[int, int]],
    col_step: np.ndarray,
    row_step: np.ndarray,
) -> np.ndarray:
    """The homography from (col, row) to the image through ``points[k]`` at cell
    ``index[k]`` (row, col); with too few cells for perspective, an affine map, or the
    steps of one column and one row measured between neighbours.

    Least median of squares first, so that a face found off its centre (half hidden, at the
    frame's edge) does not bend the whole lattice towards it; but where most faces lie in
    one line (a crossword's longest word) that fits the line alone and folds the rest onto
    it, or leaves the far end of a short word off: of it, least squares over all of them, an
    affine map and the steps, the map that leaves the fewest faces off their cells is taken
    (the first of those that leave as few).
    """
    keys = sorted(index)
    src = np.array([[index[k][1], index[k][0]] for k in keys], np.float64)
    dst = points[keys]
    candidates = []
    # Perspective needs cells spread over three rows and three columns at least; with fewer
    # (a crossword of one long word and a short one) it is not determined.
    spread = len(set(src[:, 0])) >= 3 and len(set(src[:, 1])) >= 3
    if len(keys) >= 6 and spread:
        for method in (cv2.LMEDS, 0) if len(keys) >= 8 else (0,):
            homography, _ = cv2.findHomography(src, dst, method)
            if homography is not None and abs(np.linalg.det(homography)) > 1e-12:
                candidates.append(homography)
    if len(keys) >= 3 and np.linalg.matrix_rank(src - src.mean(0)) == 2:
        affine, _ = cv2.estimateAffine2D(src, dst, method=cv2.LMEDS)
        if affine is not None:
            candidates.append(np.vstack([affine, [0, 0, 1]]))
    # Too few cells, or all in one line: the steps measured between neighbours.
    linear = np.column_stack([col_step, row_step])
    origin = (dst - src @ linear.T).mean(0)
    candidates.append(np.vstack([np.column_stack([linear, origin]), [0, 0, 1]]))
    near = OFF_CELL * min(float(np.linalg.norm(col_step)), float(np.linalg.norm(row_step)))

    def off(homography: np.ndarray) -> int:
        seen = cv2.perspectiveTransform(src[None], homography)[0]
        return int(np.count_nonzero(np.linalg.norm(seen - dst, axis=1) > near))

    counts = [off(h) for h in candidates]
    return candidates[counts.index(min(counts))]


def turn_cell(cell: tuple[int, int], rows: int, cols: int, quarter_turns: int) -> tuple[int, int]:
    """Where ``cell`` of a ``rows`` x ``cols`` grid lies once the grid is turned clockwise by
    ``quarter_turns``.

    >>> turn_cell((0, 0), 2, 3, 1), turn_cell((1, 2), 2, 3, 2)
    ((0, 1), (0, 0))
    """
    r, c = cell
    for _ in range(quarter_turns % 4):
        r, c, rows, cols = c, rows - 1 - r, cols, rows
    return r, c
