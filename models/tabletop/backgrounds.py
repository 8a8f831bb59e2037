"""The table under the cubes: a surface texture laid flat on the plane z = 0.

Plain surfaces (a desk, a sheet of paper, felt) are made here; photographed ones (wood,
cloth, paper, cork, stone) come from ``models/textures/`` (see its README), by split.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from models.tabletop.arrays import Array
from models.tabletop.camera import Camera


@dataclass(frozen=True, slots=True)
class Surface:
    """A table texture (float32 BGR) and how many millimetres one of its pixels spans."""

    image: Array
    mm_per_px: float


def plain(rng: np.random.Generator) -> Surface:
    """A plain surface: one colour with a little unevenness and grain."""
    kind = int(rng.integers(3))
    if kind == 0:  # white or grey paper, a white desk
        color = np.full(3, rng.uniform(150, 250)) + rng.normal(0, 6, 3)
    elif kind == 1:  # a dark desk
        color = np.full(3, rng.uniform(20, 80)) + rng.normal(0, 8, 3)
    else:  # any colour: felt, a painted table
        color = rng.uniform(30, 230, 3)
    size = 256
    low = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (size, size))
    grain = rng.normal(0, 1, (size, size)).astype(np.float32)
    shade = 1 + rng.uniform(0.0, 0.06) * low + rng.uniform(0.0, 0.04) * grain
    image = np.clip(color, 0, 255).astype(np.float32)[None, None, :] * shade[..., None]
    return Surface(image.astype(np.float32), float(rng.uniform(0.3, 1.5)))


def lay(surface: Surface, camera: Camera, rng: np.random.Generator, light: float) -> Array:
    """The surface on the table as the camera sees it ([H, W, 3] float32), turned and
    shifted at random and lit by ``light``."""
    turn = float(rng.uniform(0, 2 * math.pi))
    step = surface.mm_per_px
    u = np.array([math.cos(turn), math.sin(turn), 0.0]) * step
    v = np.array([-math.sin(turn), math.cos(turn), 0.0]) * step
    centre = camera.on_plane(np.array([camera.center]))[0]
    h, w = surface.image.shape[:2]
    origin = centre - u * rng.uniform(0, w) - v * rng.uniform(0, h)
    homography = camera.plane_homography(origin, u, v)
    image = cv2.warpPerspective(
        surface.image,
        homography,
        camera.size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT,
    )
    return np.asarray(image * light, np.float32)
