"""Boxes with rounded edges and the light on their faces.

A box stands on its base centre with its own axes (its x, y and up directions in the world)
and half widths; its faces are planar rectangles whose corners are listed from the face's
own top left, clockwise as seen from outside (the order the camera sees them in). A face's
rounded rim is a band of tilted normals: each face takes half the quarter circle of its
edge, so the edge between a top and a side shows 45 degrees on both.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from models.tabletop.arrays import Array

UP = np.array([0.0, 0.0, 1.0])


@dataclass(frozen=True, slots=True)
class Face:
    """A planar rectangle: corners [4, 3] from its top left clockwise seen from outside,
    the texture's right (``u``) and down (``v``) directions and the outward normal."""

    corners: Array
    u: Array
    v: Array
    normal: Array

    @property
    def centre(self) -> Array:
        return np.asarray((self.corners[0] + self.corners[2]) * 0.5)

    def facing(self, eye: Array) -> bool:
        """Whether the face turns towards a camera at ``eye`` (back faces are skipped)."""
        return float((eye - self.centre) @ self.normal) > 1e-6


@dataclass(frozen=True, slots=True)
class Box:
    """A box standing on ``base`` with its own ``axes`` (columns: x, y, up, world unit
    vectors), half widths ``half`` along x and y and ``height`` along up."""

    base: Array
    axes: Array
    half: tuple[float, float]
    height: float

    def top(self) -> Face:
        ex, ey, ez = self.axes.T
        hx, hy = self.half
        c = self.base + ez * self.height
        corners = np.array(
            [
                c - hx * ex + hy * ey,
                c + hx * ex + hy * ey,
                c + hx * ex - hy * ey,
                c - hx * ex - hy * ey,
            ]
        )
        return Face(corners, ex, -ey, ez)

    def sides(self) -> list[Face]:
        """The four sides, each from its own top left: +x, +y, -x, -y."""
        ex, ey, ez = self.axes.T
        hx, hy = self.half
        out = []
        # Each side's right (seen from outside) is the next side's outward direction.
        for normal, u, depth, width in (
            (ex, ey, hx, hy),
            (ey, -ex, hy, hx),
            (-ex, -ey, hx, hy),
            (-ey, ex, hy, hx),
        ):
            c = self.base + normal * depth + ez * (self.height / 2)
            up, across = ez * (self.height / 2), u * width
            corners = np.array([c + up - across, c + up + across, c - up + across, c - up - across])
            out.append(Face(corners, u, -ez, normal))
        return out

    def corners(self) -> Array:
        """The eight corners ([8, 3]): the base's four, then the top's."""
        top = self.top().corners
        return np.concatenate([top - self.axes[:, 2] * self.height, top])


@dataclass(frozen=True, slots=True)
class Light:
    """A distant light: the unit ``direction`` towards it, its BGR ``color`` (1.0 = full)
    and ``softness``, how far (mm) its shadow's edge blurs per mm of height."""

    direction: Array
    color: Array
    softness: float


@dataclass(frozen=True, slots=True)
class Lighting:
    lights: tuple[Light, ...]
    ambient: Array
    #: Strength and tightness of the highlights of glossy plastic.
    gloss: float = 0.3
    shininess: float = 30.0


@functools.lru_cache(maxsize=256)
def rim_normals(width: int, height: int, radius: float, dome: float) -> Array:
    """Face-local normals ([height * width, 3]: along u, along v, out) of a square face,
    drawn width x height, whose rim rounds over ``radius`` (a share of its side), its middle
    bulging by ``dome``."""
    xs = (np.arange(width, dtype=np.float32) + 0.5) / width
    ys = (np.arange(height, dtype=np.float32) + 0.5) / height
    rx = ry = max(radius, 1e-3)

    def band(t: Array, r: float) -> Array:
        return np.asarray(np.clip((t - (1 - r)) / r, 0, 1) - np.clip((r - t) / r, 0, 1))

    a = band(xs, rx)[None, :] + dome * (2 * xs[None, :] - 1)
    b = band(ys, ry)[:, None] + dome * (2 * ys[:, None] - 1)
    a, b = np.broadcast_arrays(a, b)
    norm = np.sqrt(a * a + b * b + 1)
    return np.stack([a / norm, b / norm, 1 / norm], axis=-1).reshape(-1, 3).astype(np.float32)


def _unit(v: Array) -> Array:
    return np.asarray(v / max(float(np.sqrt(v @ v)), 1e-12))


def light_face(
    albedo: Array,
    face: Face,
    eye: Array,
    lighting: Lighting,
    normals: Array | None = None,
    occlusion: Array | None = None,
) -> Array:
    """The colour of a face of ``albedo`` ([h, w, 3], or [3] for a plain one) under
    ``lighting``, seen from ``eye``: diffuse and ambient light on its (rounded) normals
    (``rim_normals``, or flat without), highlights on top, darkened by ``occlusion``
    ([h, w], 1 = open) where other things keep light out."""
    frame = np.stack([face.u, face.v, face.normal])
    view = _unit(eye - face.centre)
    lights = lighting.lights
    directions = [frame @ light.direction for light in lights]
    halves = [_unit(frame @ (light.direction + view)) for light in lights]
    colors = np.array([light.color for light in lights], np.float32).reshape(-1, 3)
    strength = colors.mean(1)
    if normals is None:  # a flat face: one colour
        dots = np.maximum(np.array([d[2] for d in directions + halves], np.float32), 0)
        diffuse = lighting.ambient + dots[: len(lights)] @ colors
        shine = _power(dots[len(lights) :], lighting.shininess) @ strength
        return np.asarray(albedo * diffuse + 255 * lighting.gloss * shine, np.float32)
    h, w = albedo.shape[:2]
    towards = np.array(directions + halves, np.float32).T
    dots = normals @ towards
    np.maximum(dots, 0, out=dots)
    diffuse = dots[:, : len(lights)] @ colors + lighting.ambient.astype(np.float32)
    shine = _power(dots[:, len(lights) :], lighting.shininess) @ (strength * 255 * lighting.gloss)
    if occlusion is not None:
        open_ = occlusion.reshape(-1, 1)
        diffuse *= open_
        shine *= open_[:, 0]
    out = albedo.reshape(-1, 3) * diffuse + shine[:, None]
    return np.asarray(out.reshape(h, w, 3), np.float32)


def _power(x: Array, shininess: float) -> Array:
    """``x ** shininess`` for shininess rounded to a power of two (by squaring: fast)."""
    for _ in range(max(1, round(np.log2(max(shininess, 2.0))))):
        x = x * x
    return x
