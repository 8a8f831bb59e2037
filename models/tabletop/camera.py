"""A pinhole camera over the table: where it stands, where it looks, and what it sees.

World coordinates are millimetres with z up and the table top at z = 0. The camera follows
OpenCV's convention (x right, y down, z forward): a world point X lands on the image at
``(fx * x / z + cx, fy * y / z + cy)`` with ``(x, y, z) = R (X - C)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from models.tabletop.arrays import Array


@dataclass(frozen=True, slots=True)
class Camera:
    """A pinhole camera: its pose (world to camera ``rotation``, ``position``) and lens."""

    rotation: Array
    position: Array
    focal: float
    center: tuple[float, float]
    size: tuple[int, int]

    def to_camera(self, points: Array) -> Array:
        """World points ([N, 3]) in the camera's frame."""
        return np.asarray((np.asarray(points, np.float64) - self.position) @ self.rotation.T)

    def project(self, points: Array) -> tuple[Array, Array]:
        """World points ([N, 3]) to image points ([N, 2]) and their depths ([N])."""
        p = self.to_camera(points)
        z = p[:, 2]
        safe = np.maximum(z, 1e-6)
        uv = np.empty((len(p), 2))
        uv[:, 0] = self.focal * p[:, 0] / safe + self.center[0]
        uv[:, 1] = self.focal * p[:, 1] / safe + self.center[1]
        return uv, z

    def ray(self, uv: Array) -> Array:
        """World directions ([N, 3], unit) of the rays through image points ([N, 2])."""
        uv = np.asarray(uv, np.float64).reshape(-1, 2)
        d = np.column_stack([(uv - self.center) / self.focal, np.ones(len(uv))])
        d = d @ self.rotation  # camera to world: R^T d
        return np.asarray(d / np.linalg.norm(d, axis=1, keepdims=True))

    def on_plane(self, uv: Array, height: float = 0.0) -> Array:
        """Where the rays through image points meet the plane z = ``height`` ([N, 3])."""
        d = self.ray(uv)
        t = (height - self.position[2]) / np.where(np.abs(d[:, 2]) < 1e-9, -1e-9, d[:, 2])
        return np.asarray(self.position + d * t[:, None])

    def plane_homography(self, origin: Array, u: Array, v: Array) -> Array:
        """The 3x3 homography from plane coordinates (a, b) to the image, for the plane
        of points ``origin + a u + b v``."""
        m = np.column_stack([u, v, origin]).astype(np.float64)
        k = np.array([[self.focal, 0, self.center[0]], [0, self.focal, self.center[1]], [0, 0, 1]])
        h = k @ np.column_stack(
            [self.rotation @ m[:, :2], self.rotation @ (m[:, 2] - self.position)]
        )
        return np.asarray(h / h[2, 2])

    def shifted(self, dx: float, dy: float) -> Camera:
        """The same camera with its image moved by (dx, dy) pixels: a crop off the centre
        of a larger sensor."""
        return replace(self, center=(self.center[0] + dx, self.center[1] + dy))


def look_at(
    target: Array,
    slant: float,
    azimuth: float,
    roll: float,
    distance: float,
    focal: float,
    size: tuple[int, int],
) -> Camera:
    """A camera ``distance`` mm from ``target``, its axis ``slant`` radians off the vertical,
    standing towards ``azimuth`` (radians, from +x towards +y) and turned ``roll`` radians
    about its own axis. With no roll the near side of the table is at the image's bottom."""
    target = np.asarray(target, np.float64)
    toward = np.array([math.cos(azimuth), math.sin(azimuth), 0.0])
    position = target + distance * (math.sin(slant) * toward + np.array([0, 0, math.cos(slant)]))
    forward = (target - position) / distance
    down = toward - forward * float(toward @ forward)
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    c, s = math.cos(roll), math.sin(roll)
    right, down = c * right + s * down, -s * right + c * down
    rotation = np.stack([right, down, forward])
    width, height = size
    return Camera(rotation, position, focal, (width / 2, height / 2), size)


def frame_points(
    camera: Camera, points: Array, coverage: float, place: tuple[float, float]
) -> Camera:
    """Move the camera along its axis until ``points`` span ``coverage`` of the frame (the
    larger of their width and height shares), then shift the image so that they lie at
    ``place`` (0..1 in each direction) of the room left around them."""
    width, height = camera.size
    axis = camera.rotation[2]
    # The point on the axis the camera looks at: the nearest one to the points' centre.
    centre = np.asarray(points, np.float64).mean(0)
    look = camera.position + axis * float((centre - camera.position) @ axis)
    distance = float(np.linalg.norm(look - camera.position))
    for _ in range(4):
        camera = replace(camera, position=look - axis * distance)
        uv, _ = camera.project(points)
        span = uv.max(0) - uv.min(0)
        share = max(span[0] / width, span[1] / height)
        distance *= share / coverage
    camera = replace(camera, position=look - axis * distance)
    uv, _ = camera.project(points)
    low, high = uv.min(0), uv.max(0)
    room = np.array([width, height]) - (high - low)
    want = np.maximum(room, 0) * np.asarray(place) + np.minimum(room, 0) / 2
    return camera.shifted(*(want - low))
