"""Where the cubes lie: in a tray's cells, rolled loose in touching clusters, laid as a
crossword, or one or two alone. Positions are in millimetres on the surface the cubes
stand on; a cell's row runs down the layout (towards -y), its column along +x.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from engine.cubes import CubeSet
from models.scenes import _crossword_cells
from models.tabletop.arrays import Array

#: A thrown die: the face up and the four faces round it.
Thrown = tuple[str, tuple[str, str, str, str]]


@dataclass(frozen=True, slots=True)
class Spot:
    """One cube: the face up, the four faces round it (+x, +y, -x, -y) with their quarter
    turns, the top's quarter turn (clockwise seen from above), where it stands, its yaw
    (radians, counterclockwise from +x) and its cell (row, col) in the layout, if any."""

    top: str
    sides: tuple[str, str, str, str]
    side_turns: tuple[int, int, int, int]
    turn: int
    xy: tuple[float, float]
    yaw: float
    cell: tuple[int, int] | None


def roll(rng: np.random.Generator, cube_set: CubeSet, count: int | None = None) -> list[Thrown]:
    """Throw ``count`` dice of the set (all by default): for each, the face up and the four
    faces round it, in random order."""
    order = rng.permutation(len(cube_set.dice))[: count or len(cube_set.dice)]
    out = []
    for index in order:
        faces = [str(f) for f in cube_set.dice[int(index)].faces]
        up = int(rng.integers(6))
        a, b, c, d = [faces[k] for k in rng.permutation(6) if k != up][:4]
        out.append((faces[up], (a, b, c, d)))
    return out


def _spot(
    rng: np.random.Generator,
    thrown: Thrown,
    xy: Array,
    yaw: float,
    cell: tuple[int, int] | None,
    turn: int | None = None,
) -> Spot:
    top, sides = thrown
    a, b, c, d = (int(t) for t in rng.integers(4, size=4))
    return Spot(
        top,
        sides,
        (a, b, c, d),
        int(rng.integers(4)) if turn is None else turn,
        (float(xy[0]), float(xy[1])),
        yaw,
        cell,
    )


def tray(
    rng: np.random.Generator, thrown: list[Thrown], size: int, pitch: float, side: float
) -> list[Spot]:
    """Cubes in an n x n tray's cells, centred on the origin, each free to shift and turn a
    little in its cell."""
    play = max(pitch - side * 1.02, 0.0)
    out = []
    for index, die in enumerate(thrown):
        r, c = divmod(index, size)
        centre = np.array([(c - (size - 1) / 2) * pitch, ((size - 1) / 2 - r) * pitch])
        shift = rng.uniform(-0.45, 0.45, 2) * play
        yaw = math.radians(rng.uniform(-1, 1) * min(8.0, 40 * play / side))
        out.append(_spot(rng, die, centre + shift, yaw, (r, c)))
    return out


#: Touching clusters a roll leaves (cells of a block, a row, an L).
CLUSTERS = (
    ((0, 0), (0, 1)),
    ((0, 0), (0, 1), (0, 2)),
    ((0, 0), (0, 1), (1, 0), (1, 1)),
    ((0, 0), (0, 1), (0, 2), (1, 0)),
    ((0, 0), (0, 1), (0, 2), (0, 3)),
    ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)),
    ((0, 0), (0, 1), (0, 2), (0, 3), (1, 1), (1, 2)),
    ((0, 0), (0, 1), (1, 1), (1, 2), (2, 2)),
    ((0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)),
    ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 1)),
)


def _free(points: list[Array], candidates: Array, spacing: float) -> bool:
    return all(float(np.min(np.linalg.norm(candidates - p, axis=1))) >= spacing for p in points)


def loose(rng: np.random.Generator, thrown: list[Thrown], side: float) -> list[Spot]:
    """A roll on the table: some cubes in touching rows and blocks, the rest apart, all
    within an area that grows with their number."""
    count = len(thrown)
    extent = side * math.sqrt(count) * rng.uniform(2.0, 3.2)
    taken: list[Array] = []
    out: list[Spot] = []
    queue = list(thrown)
    spacing = side * 1.5
    while queue:
        cluster: tuple[tuple[int, int], ...] = ((0, 0),)
        if len(queue) >= 2 and rng.random() < 0.45:
            fits = [c for c in CLUSTERS if len(c) <= len(queue)]
            cluster = fits[int(rng.integers(len(fits)))]
        yaw = float(rng.uniform(0, 2 * math.pi))
        pitch = side * rng.uniform(1.0, 1.05)
        rot = np.array([[math.cos(yaw), -math.sin(yaw)], [math.sin(yaw), math.cos(yaw)]])
        cells = np.array(cluster, float)
        local = np.column_stack([cells[:, 1], -cells[:, 0]]) * pitch
        local -= local.mean(0)
        for _attempt in range(60):
            centre = rng.uniform(-extent / 2, extent / 2, 2)
            points = local @ rot.T + centre
            if _free(taken, points, spacing):
                break
        else:  # no room left: the area grows for the rest
            extent *= 1.15
            continue
        for point in points:
            die = queue.pop()
            jitter = float(rng.normal(0, 0.03)) if len(cluster) > 1 else float(rng.uniform(0, 6.3))
            out.append(_spot(rng, die, point + rng.normal(0, side * 0.01, 2), yaw + jitter, None))
            taken.append(point)
    return out


def crossword(
    rng: np.random.Generator,
    thrown: list[Thrown],
    side: float,
    cells: list[tuple[int, int]] | None = None,
) -> list[Spot]:
    """An Ad-Lib crossword of touching cubes, letters upright in its own frame, and the
    cubes left over lying apart beside it; the layout's origin is the crossword's middle."""
    py_rng = random.Random(int(rng.integers(2**32)))
    cells = cells or _crossword_cells(py_rng, int(rng.integers(7, min(12, len(thrown)) + 1)))
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    cells = [(r - r0, c - c0) for r, c in cells]
    rows, cols = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
    pitch = side * rng.uniform(1.0, 1.04)
    out = []
    for die, (r, c) in zip(thrown, cells, strict=False):
        xy = np.array([(c - (cols - 1) / 2) * pitch, ((rows - 1) / 2 - r) * pitch])
        turn = int(rng.choice([0, 0, 0, 0, 0, 0, 1, 3]))
        yaw = math.radians(rng.uniform(-3, 3))
        out.append(_spot(rng, die, xy + rng.normal(0, side * 0.015, 2), yaw, (r, c), turn))
    taken = [np.array(s.xy) for s in out]
    for die in thrown[len(cells) :]:
        for _attempt in range(200):
            angle = rng.uniform(0, 2 * math.pi)
            reach = rng.uniform(0.6, 1.1) * max(rows, cols) * pitch + side * 1.5
            point = np.array([math.cos(angle), math.sin(angle)]) * reach
            if _free(taken, point[None], side * 1.6):
                break
        taken.append(point)
        out.append(_spot(rng, die, point, float(rng.uniform(0, 2 * math.pi)), None))
    return out


def single(rng: np.random.Generator, thrown: list[Thrown], side: float) -> list[Spot]:
    """One cube a player, thrown apart to see who starts."""
    out: list[Spot] = []
    taken: list[Array] = []
    reach = side * rng.uniform(1.5, 4.0) * len(thrown)
    for die in thrown:
        for _attempt in range(100):
            xy = rng.uniform(-reach, reach, 2) if taken else np.zeros(2)
            if _free(taken, xy[None], side * 1.8):
                break
        taken.append(xy)
        out.append(_spot(rng, die, xy, float(rng.uniform(0, 2 * math.pi)), None))
    return out
