"""Pieces of touching cubes: which faces lie edge to edge, and the cells of a piece.

Two faces touch when the step between their centres runs one face along an edge of each,
measured in each face's own frame (its two edge vectors). A turn of the table, a camera's
slant, perspective or a photo squashed in one direction stretch a face as they stretch the
step to its neighbour, so the one rule holds at any angle, with rows and columns spaced
unequally; and a cube lying apart (a gap between, or turned off the others' line) is not
in the piece. A piece's cells are counted step by step in the same frames, each face's
carried to the next, so a crossword bent by perspective keeps its rows and columns.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence

import numpy as np

from vision.detect import FaceQuad
from vision.lattice import Lattice, fit_homography

#: Touching faces: the step along an edge, in the faces' own sides (cubes laid edge to edge
#: with a little play; a face found a little small or a little large).
ALONG = (0.6, 1.4)
#: ... and at most this far across that edge.
ACROSS = 0.3
#: Faces whose edges lie further apart than this (in degrees, modulo a quarter turn, in
#: each other's frame) are not laid in line.
TURNED = 20.0
#: Touching faces differ in size by at most this factor.
SIZES = 1.6
#: A face further than this from its cell's centre (in cells, either way) lies off the piece.
OFF = 0.4

#: The quarter turns and mirrors of a frame: which of them maps one face's frame to another's.
_SIGNED = [
    np.array(m, float)
    for m in (
        [[1, 0], [0, 1]],
        [[0, -1], [1, 0]],
        [[-1, 0], [0, -1]],
        [[0, 1], [-1, 0]],
        [[1, 0], [0, -1]],
        [[-1, 0], [0, 1]],
        [[0, 1], [1, 0]],
        [[0, -1], [-1, 0]],
    )
]


def frames(quads: Sequence[FaceQuad]) -> np.ndarray:
    """Each face's frame (shape: [N, 2, 2]): its two edge vectors as columns, each the mean
    of the two opposite edges."""
    c = np.array([q.corners for q in quads], np.float64).reshape(-1, 4, 2)
    u = (c[:, 1] - c[:, 0] + c[:, 2] - c[:, 3]) / 2
    v = (c[:, 3] - c[:, 0] + c[:, 2] - c[:, 1]) / 2
    return np.stack([u, v], axis=2)


@np.errstate(invalid="ignore")
def _relations(quads: Sequence[FaceQuad]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each pair (i, j): j's centre seen from i in i's frame ([N, N, 2]), j's frame in
    i's ([N, N, 2, 2]), and whether they touch ([N, N])."""
    frame = frames(quads)
    area = np.abs(np.linalg.det(frame))
    flat = area < 1e-6
    frame[flat] = np.eye(2)  # a degenerate find touches nothing (see below)
    inverse = np.linalg.inv(frame)
    centres = np.array([q.center for q in quads], np.float64)
    offset = centres[None, :, :] - centres[:, None, :]
    # The 2x2 products written out: several times faster than einsum's general loop.
    step = (
        inverse[:, None, :, 0] * offset[..., 0, None]
        + inverse[:, None, :, 1] * offset[..., 1, None]
    )
    other = (
        inverse[:, None, :, 0, None] * frame[None, :, None, 0, :]
        + inverse[:, None, :, 1, None] * frame[None, :, None, 1, :]
    )
    size = np.abs(step)
    # Each face's frame is found with some error (a small face's most): the step is judged
    # by the mean of what the two faces' frames say.
    major, minor = size.max(axis=2), size.min(axis=2)
    major, minor = (major + major.T) / 2, (minor + minor.T) / 2
    in_line = (major >= ALONG[0]) & (major <= ALONG[1]) & (minor <= ACROSS)
    edge = other[..., 0]  # j's first edge in i's frame
    turn = np.degrees(np.arctan2(edge[..., 1], edge[..., 0]))
    aligned = np.abs((turn + 45) % 90 - 45) < TURNED
    ratio = area[None, :] / np.maximum(area[:, None], 1e-9)
    alike = (ratio <= SIZES**2) & (ratio >= SIZES**-2)
    touching = in_line & aligned & alike
    touching &= touching.T
    touching[flat, :] = touching[:, flat] = False
    np.fill_diagonal(touching, False)
    return step, other, touching


def pieces(quads: Sequence[FaceQuad]) -> list[list[int]]:
    """The faces grouped into pieces of touching cubes (a face alone is a piece of one),
    largest first."""
    if not quads:
        return []
    _, _, touching = _relations(quads)
    parent = list(range(len(quads)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in zip(*np.nonzero(np.triu(touching)), strict=True):
        parent[root(int(i))] = root(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(len(quads)):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0]))


def touching(quads: Sequence[FaceQuad]) -> np.ndarray:
    """Whether each two faces touch (shape: [N, N])."""
    return _relations(quads)[2] if quads else np.zeros((0, 0), bool)


def joining(quads: Sequence[FaceQuad], kept: Sequence[int], others: Sequence[int]) -> list[int]:
    """Those of ``others`` that touch at least two of the faces ``kept`` (both index
    ``quads``): a cube between two cubes of a piece, or in the corner of two of its words.
    A side face seen at a slant lies against its own cube's top alone."""
    if not others or len(kept) < 2:
        return []
    _, _, touching = _relations(quads)
    return [k for k in others if int(touching[k, list(kept)].sum()) >= 2]


def piece_lattice(quads: Sequence[FaceQuad], members: Sequence[int]) -> Lattice:
    """The lattice of one piece (``members`` index ``quads``): the cell of each of them,
    counted from neighbour to neighbour, and the homography of the cells' centres. Rows and
    columns are named as ``vision.lattice`` names them; a member that the walk sets on a
    cell already taken, or that lies far from its cell, is off the lattice (None)."""
    step, other, touching = _relations(quads)
    inside = set(members)
    # Start where the piece is surest: the face with the most touching neighbours.
    start = max(members, key=lambda k: (int(touching[k].sum()), -k))
    # Each face's frame as the piece's (col, row) axes see it.
    axes = {start: np.eye(2)}
    cell = {start: (0, 0)}
    taken = {(0, 0)}
    image_steps: list[tuple[np.ndarray, np.ndarray]] = []
    queue = deque([start])
    centres = np.array([q.center for q in quads], np.float64)
    while queue:
        i = queue.popleft()
        for found in np.flatnonzero(touching[i]):
            j = int(found)
            if j not in inside or j in axes:
                continue
            turn = max(_SIGNED, key=lambda m: float(np.sum(m * other[i, j])))
            axes[j] = axes[i] @ turn
            unit = np.zeros(2)
            a = int(np.argmax(np.abs(step[i, j])))
            unit[a] = math.copysign(1.0, float(step[i, j, a]))
            move = axes[i] @ unit
            image_steps.append((move, centres[j] - centres[i]))
            here = (cell[i][0] + round(move[0]), cell[i][1] + round(move[1]))
            if here in taken:  # two finds on one cell: the first walked to keeps it
                continue
            cell[j] = here
            taken.add(here)
            queue.append(j)
    keys = sorted(cell)
    col_step, row_step = _mean_steps(image_steps, frames([quads[start]])[0] @ axes[start].T)
    index = {k: (cell[k][1], cell[k][0]) for k in keys}  # (row, col), as lattice fits them
    homography = fit_homography(centres, index, col_step, row_step)
    return _named(quads, members, index, homography)


def _mean_steps(
    steps: list[tuple[np.ndarray, np.ndarray]], frame: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The image step of one column and of one row: the mean of the steps walked along each
    (``steps``: (piece step, image step)), else the face's own edge (``frame``'s columns)."""
    out = []
    for axis in range(2):
        along = [image * move[axis] for move, image in steps if abs(move[axis]) > 0.5]
        out.append(np.mean(along, axis=0) if along else frame[:, axis])
    return out[0], out[1]


def _named(
    quads: Sequence[FaceQuad],
    members: Sequence[int],
    index: dict[int, tuple[int, int]],
    homography: np.ndarray,
) -> Lattice:
    """The lattice with its columns along the axis nearest the image's horizontal, left to
    right, and its rows top to bottom, its first cell (0, 0); members far from their cell
    are off it."""
    middle = np.array(list(index.values()), float).mean(0)[::-1]  # (col, row)

    def at(col: float, row: float) -> np.ndarray:
        p = homography @ np.array([col, row, 1.0])
        return np.asarray(p[:2] / p[2])

    origin = at(*middle)
    col = at(middle[0] + 1, middle[1]) - origin
    row = at(middle[0], middle[1] + 1) - origin
    # New (col, row) = turn @ old (col, row).
    swap = abs(row[0]) > abs(col[0])
    turn = np.array([[0, 1], [1, 0]] if swap else [[1, 0], [0, 1]], float)
    new_col, new_row = (row, col) if swap else (col, row)
    turn = np.diag([1.0 if new_col[0] >= 0 else -1.0, 1.0 if new_row[1] >= 0 else -1.0]) @ turn
    moved = {k: turn @ np.array([c, r], float) for k, (r, c) in index.items()}
    low = np.min(list(moved.values()), axis=0)
    shift = np.eye(3)
    shift[:2, :2], shift[:2, 2] = turn, -low
    homography = homography @ np.linalg.inv(shift)
    inverse = np.linalg.inv(homography)
    kept: dict[int, tuple[int, int]] = {}
    for k, (c, r) in moved.items():
        c, r = int(round(c - low[0])), int(round(r - low[1]))
        x, y = quads[k].center
        p = inverse @ np.array([x, y, 1.0])
        if abs(p[0] / p[2] - c) <= OFF and abs(p[1] / p[2] - r) <= OFF:
            kept[k] = (r, c)
    if not kept:
        raise ValueError("no face lies on the piece's lattice")
    r0 = min(r for r, _ in kept.values())
    c0 = min(c for _, c in kept.values())
    homography = homography @ np.array([[1, 0, c0], [0, 1, r0], [0, 0, 1]], float)
    cells = {k: (r - r0, c - c0) for k, (r, c) in kept.items()}
    rows = max(r for r, _ in cells.values()) + 1
    cols = max(c for _, c in cells.values()) + 1
    return Lattice(tuple(cells.get(k) for k in members), homography, rows, cols)
