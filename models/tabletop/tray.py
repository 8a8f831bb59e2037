"""A tray of n x n cells: its floor, the walls round the grid, the dividers between the
cells and, on some trays, a wide rim with a lower wall of its own. Millimetres, in the
tray's own frame: the floor's underside at z = 0, the grid centred on the origin.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.tabletop.solids import Box

EYE3 = np.eye(3)


@dataclass(frozen=True, slots=True)
class Slab:
    """One part of the tray: a box, and how much lighter or darker than the tray it is."""

    box: Box
    tint: float = 1.0


@dataclass(frozen=True, slots=True)
class Tray:
    floor: Slab
    walls: tuple[Slab, ...]
    #: Height of the floor's top, where the cubes stand.
    floor_top: float
    #: Half widths of the whole tray, rim included.
    half: tuple[float, float]


def _box(x: float, y: float, z: float, hx: float, hy: float, height: float) -> Box:
    return Box(np.array([x, y, z]), EYE3, (hx, hy), height)


def _ring(hx: float, hy: float, thick: float, z: float, height: float, tint: float) -> list[Slab]:
    """Four walls whose inner faces enclose a rectangle of half widths (hx, hy)."""
    t = thick / 2
    return [
        Slab(_box(0, hy + t, z, hx + thick, t, height), tint),
        Slab(_box(0, -hy - t, z, hx + thick, t, height), tint),
        Slab(_box(hx + t, 0, z, t, hy, height), tint),
        Slab(_box(-hx - t, 0, z, t, hy, height), tint),
    ]


def build(rng: np.random.Generator, size: int, pitch: float, side: float) -> Tray:
    """A random tray for ``size`` x ``size`` cubes of ``side`` mm in cells ``pitch`` apart."""
    floor = float(rng.uniform(1.5, 3.0))
    grid = size * pitch / 2
    margin = float(rng.uniform(0, 2.5))
    wall = float(rng.uniform(1.5, 5.0))
    wall_height = side * float(rng.uniform(0.45, 1.0))
    divider = float(rng.uniform(0.8, 2.2))
    divider_height = side * float(rng.uniform(0.2, 0.7))
    inner = grid + margin
    walls = _ring(inner, inner, wall, floor, wall_height, float(rng.uniform(0.95, 1.12)))
    for k in range(1, size):
        offset = -grid + k * pitch
        walls.append(Slab(_box(offset, 0, floor, divider / 2, grid, divider_height), 0.97))
        walls.append(Slab(_box(0, offset, floor, grid, divider / 2, divider_height), 0.97))
    hx = hy = inner + wall
    if rng.random() < 0.45:  # a wide rim, on some trays longer one way (a handle, a lid)
        rim = rng.uniform(3, 18, 2) * (1, rng.choice([1.0, rng.uniform(1, 2.2)]))
        if rng.random() < 0.5:
            rim = rim[::-1]
        hx, hy = hx + float(rim[0]), hy + float(rim[1])
        lip = float(rng.uniform(1.5, 3.0))
        walls += _ring(hx - lip, hy - lip, lip, floor, side * float(rng.uniform(0.2, 0.6)), 1.05)
    base = Slab(_box(0, 0, 0, hx, hy, floor), 1.0)
    return Tray(base, tuple(walls), floor, (hx, hy))
