"""A pinhole camera over the table, and cubes drawn through it.

World units: a cube's edge is 1 (about 17 mm); the table is the plane z = 0, z up.
Faces are textured quads drawn far to near (the painter's order), each shaded by a
directional light; cubes cast soft shadows on the plane they stand on.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Camera:
    K: np.ndarray  # 3x3 intrinsics
    R: np.ndarray  # world -> camera rotation (rows: right, down, forward)
    C: np.ndarray  # the camera's position
    size: tuple[int, int]  # (width, height)

    @classmethod
    def look_at(
        cls,
        target: np.ndarray,
        distance: float,
        tilt: float,
        yaw: float,
        roll: float,
        focal: float,
        size: tuple[int, int],
    ) -> Camera:
        """A camera ``distance`` from ``target``, tilted ``tilt`` degrees from looking
        straight down; ``yaw`` turns the table under it, ``roll`` turns the picture."""
        t, y, r = np.radians([tilt, yaw, roll])
        ahead = np.array([np.cos(y), np.sin(y), 0.0])
        up_z = np.array([0.0, 0.0, 1.0])
        forward = np.sin(t) * ahead - np.cos(t) * up_z
        image_up = np.cos(t) * ahead + np.sin(t) * up_z
        down = -image_up
        right = np.cross(down, forward)
        # the roll turns right and down about the line of sight
        right, down = (
            np.cos(r) * right + np.sin(r) * down,
            -np.sin(r) * right + np.cos(r) * down,
        )
        position = np.asarray(target, float) - distance * forward
        w, h = size
        K = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1.0]])
        return cls(K, np.stack([right, down, forward]), position, size)

    def zoomed(self, factor: float) -> Camera:
        K = self.K.copy()
        K[0, 0] *= factor
        K[1, 1] *= factor
        return Camera(K, self.R, self.C, self.size)

    def project(self, points: np.ndarray) -> np.ndarray:
        cam = (np.asarray(points, float) - self.C) @ self.R.T
        pix = cam @ self.K.T
        pixels: np.ndarray = pix[:, :2] / pix[:, 2:3]
        return pixels

    def depth(self, point: np.ndarray) -> float:
        return float((np.asarray(point, float) - self.C) @ self.R[2])

    def plane(self, z: float = 0.0) -> np.ndarray:
        """The homography from the plane at height z, (x, y, 1), to pixels."""
        offset = -self.R @ self.C + self.R[:, 2] * z
        homography: np.ndarray = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], offset])
        return homography


@dataclass(frozen=True)
class Light:
    direction: np.ndarray  # unit, from the table toward the light
    ambient: float
    diffuse: float
    tint: np.ndarray  # BGR multiplier

    def shade(self, normal: np.ndarray) -> float:
        return self.ambient + self.diffuse * max(0.0, float(normal @ self.direction))


@dataclass(frozen=True)
class Quad:
    """A face of a box: its corners in texture order (top left, top right, bottom right,
    bottom left) and its outward normal."""

    corners: np.ndarray
    normal: np.ndarray


def box_faces(centre: np.ndarray, size: tuple[float, float, float], yaw: float) -> dict[str, Quad]:
    """The top and four sides of a box standing on ``centre`` (its bottom's middle),
    turned ``yaw`` degrees. The top's texture is upright along the box's local +y."""
    a = np.radians(yaw)
    ex = np.array([np.cos(a), np.sin(a), 0.0]) * size[0] / 2
    ey = np.array([-np.sin(a), np.cos(a), 0.0]) * size[1] / 2
    ez = np.array([0.0, 0.0, size[2]])
    c = np.asarray(centre, float)
    top = c + ez
    faces = {
        "top": Quad(
            np.array([top - ex + ey, top + ex + ey, top + ex - ey, top - ex - ey]), ez / size[2]
        )
    }
    for name, half in (("+x", ex), ("-x", -ex), ("+y", ey), ("-y", -ey)):
        n = half / np.linalg.norm(half)
        right = np.cross(-n, np.array([0.0, 0.0, 1.0]))
        other = ey if name in ("+x", "-x") else ex
        span = right * np.linalg.norm(other)
        mid = c + half
        faces[name] = Quad(np.array([mid - span + ez, mid + span + ez, mid + span, mid - span]), n)
    return faces


def visible(camera: Camera, quad: Quad) -> bool:
    middle = quad.corners.mean(axis=0)
    return float(quad.normal @ (camera.C - middle)) > 1e-6


def paste(
    image: np.ndarray,
    texture: np.ndarray,
    alpha: np.ndarray,
    quad_px: np.ndarray,
    shade: np.ndarray | float,
) -> None:
    """Warp ``texture`` onto the pixel quad and blend it in by ``alpha``."""
    h, w = image.shape[:2]
    x0, y0 = np.floor(quad_px.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(quad_px.max(axis=0)).astype(int) + 2
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if xa >= xb or ya >= yb:
        return
    n = texture.shape[0]
    src = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
    dst = (quad_px - [xa, ya]).astype(np.float32)
    H = cv2.getPerspectiveTransform(src, dst)
    size = (xb - xa, yb - ya)
    colour = cv2.warpPerspective(
        texture, H, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    weight = cv2.warpPerspective(alpha, H, size, flags=cv2.INTER_LINEAR)[..., None]
    region = image[ya:yb, xa:xb]
    region[:] = region * (1 - weight) + colour * shade * weight


def shadow_polygon(camera: Camera, corners: np.ndarray, light: Light, floor: float) -> np.ndarray:
    """The pixel outline of a box's shadow on the plane z = floor."""
    drop = (corners[:, 2] - floor) / light.direction[2]
    on_floor = corners - drop[:, None] * light.direction[None, :]
    on_floor[:, 2] = floor
    hull = cv2.convexHull(on_floor[:, :2].astype(np.float32))[:, 0, :]
    ground = np.column_stack([hull, np.full(len(hull), floor)])
    return camera.project(ground)


def cast_shadows(
    image: np.ndarray, polygons: list[np.ndarray], softness: float, strength: float
) -> None:
    """Darken the image under the shadow outlines, softened by ``softness`` pixels (the
    outline is drawn and blurred small, where a wide blur is cheap)."""
    h, w = image.shape[:2]
    scale = min(1.0, 6.0 / max(softness, 0.5))
    sw, sh = max(8, int(w * scale)), max(8, int(h * scale))
    mask: np.ndarray = np.zeros((sh, sw), np.float32)
    for polygon in polygons:
        small = np.round(polygon * [sw / w, sh / h] * 16).astype(np.int32)
        cv2.fillPoly(mask, [small], 1.0, cv2.LINE_AA, shift=4)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, softness * scale))
    mask = cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)
    image *= (1 - strength * np.clip(mask, 0, 1))[..., None]
