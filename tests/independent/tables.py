"""Procedural table tops (wood, cloth, paper, stone, a checked cloth) drawn in the
table's own plane and seen through the camera, and the camera's finish on the photo:
uneven light, colour cast, blur, sensor noise."""

from __future__ import annotations

import cv2
import numpy as np

from .camera import Camera

KINDS = ("wood", "cloth", "paper", "stone", "checks")


def noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Smooth noise, about N(0, 1): ``cells`` random values stretched over ``shape``."""
    coarse = rng.standard_normal((max(2, cells[0]), max(2, cells[1]))).astype(np.float32)
    smooth = cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    return smooth / max(1e-6, float(smooth.std()))


def plain(colour: np.ndarray) -> np.ndarray:
    """A colour image clipped to 0-1, float32."""
    clipped: np.ndarray = np.clip(colour, 0, 1).astype(np.float32)
    return clipped


def texture(kind: str, rng: np.random.Generator, extent: float, n: int) -> np.ndarray:
    """An n x n BGR (0-1) patch of table ``extent`` units across."""
    shape = (n, n)
    per = n / extent  # pixels per unit
    if kind == "wood":
        base = np.array(
            rng.choice([[0.35, 0.55, 0.75], [0.25, 0.4, 0.6], [0.45, 0.65, 0.8]]), np.float32
        )
        ys = np.arange(n, dtype=np.float32)[:, None] / per
        warp = 1.5 * noise(rng, shape, (int(extent / 4) + 2, int(extent / 12) + 2))
        rings = np.sin(2 * np.pi * (ys * rng.uniform(0.6, 1.5) + warp)) * 0.5 + 0.5
        streaks = noise(rng, shape, (int(extent * 6) + 2, int(extent / 3) + 2))
        tone = 0.8 + 0.15 * rings + 0.05 * streaks
        plank = rng.uniform(4, 9)
        seams = (ys + rng.uniform(0, plank)) % plank < 0.05  # the gaps between planks
        tone = tone * np.where(seams, 0.55, 1.0)
        return plain(base[None, None, :] * tone[..., None])
    if kind == "cloth":
        base = np.array(
            rng.choice([[0.2, 0.45, 0.15], [0.45, 0.25, 0.12], [0.5, 0.5, 0.5], [0.15, 0.15, 0.5]])
        )
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / per
        period = rng.uniform(0.08, 0.2)
        weave = np.sin(2 * np.pi * xx / period) * np.sin(2 * np.pi * yy / period)
        tone = 0.9 + 0.04 * weave + 0.05 * noise(rng, shape, (int(extent) + 2,) * 2)
        tone += 0.03 * rng.standard_normal(shape, dtype=np.float32)
        return plain(base[None, None, :] * tone[..., None])
    if kind == "paper":
        base = np.array(
            rng.choice([[0.9, 0.93, 0.94], [0.8, 0.88, 0.92], [0.75, 0.82, 0.85]]), np.float32
        )
        tone = 0.95 + 0.03 * noise(rng, shape, (int(extent / 3) + 2,) * 2)
        tone += 0.02 * cv2.GaussianBlur(rng.standard_normal(shape, dtype=np.float32), (0, 0), 1.2)
        return plain(base[None, None, :] * tone[..., None])
    if kind == "stone":
        base = np.array(
            rng.choice([[0.55, 0.55, 0.55], [0.6, 0.68, 0.75], [0.3, 0.3, 0.32]]), np.float32
        )
        tone = 0.85 + 0.08 * noise(rng, shape, (int(extent / 2) + 2,) * 2)
        speck = cv2.GaussianBlur(
            rng.standard_normal(shape, dtype=np.float32), (0, 0), 0.04 * per + 0.5
        )
        tone += 0.25 * np.clip(speck / max(1e-6, float(speck.std())), -2, 2) * 0.3
        return plain(base[None, None, :] * tone[..., None])
    if kind == "checks":
        a = np.array(
            rng.choice([[0.2, 0.2, 0.75], [0.6, 0.35, 0.15], [0.25, 0.5, 0.25]]), np.float32
        )
        b = np.array([0.92, 0.94, 0.95])
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / per
        square = rng.uniform(1.5, 3.5)
        stripes_x = (xx // square) % 2
        stripes_y = (yy // square) % 2
        mix = (0.5 * stripes_x + 0.5 * stripes_y)[..., None]
        colour = b[None, None, :] * (1 - mix) + a[None, None, :] * mix
        tone = 0.93 + 0.04 * noise(rng, shape, (int(extent) + 2,) * 2)
        return plain(colour * tone[..., None])
    raise ValueError(f"no table kind {kind!r}")


def draw_table(
    camera: Camera, kind: str, rng: np.random.Generator, centre: np.ndarray
) -> np.ndarray:
    """The table as the camera sees it: a float BGR image of the camera's size."""
    w, h = camera.size
    H = camera.plane(0.0)
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], float)
    world = (np.linalg.inv(H) @ corners.T).T
    if np.all(world[:, 2] * np.sign(world[0, 2]) > 0):
        xy = world[:, :2] / world[:, 2:3]
        lo, hi = xy.min(axis=0), xy.max(axis=0)
    else:  # the horizon is in the picture: draw the near part of the table only
        lo, hi = centre[:2] - 40, centre[:2] + 40
    lo = np.maximum(lo, centre[:2] - 40)
    hi = np.minimum(hi, centre[:2] + 40)
    extent = float(max(hi - lo)) + 1.0
    n = int(min(2400, max(256, extent * 60)))
    patch = texture(kind, rng, extent, n)
    per = n / extent
    # patch pixel (u, v) -> world (lo.x + u / per, lo.y + (n - v) / per)
    to_world = np.array([[1 / per, 0, lo[0]], [0, -1 / per, lo[1] + n / per], [0, 0, 1]])
    return cv2.warpPerspective(
        patch, H @ to_world, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )


def finish(
    image: np.ndarray, rng: np.random.Generator, blur: float, noise_level: float
) -> np.ndarray:
    """The camera's finish: uneven light, a colour cast, blur and noise; uint8 BGR out."""
    h, w = image.shape[:2]
    cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
    xx = ((np.arange(w, dtype=np.float32) - cx) ** 2)[None, :]
    yy = ((np.arange(h, dtype=np.float32) - cy) ** 2)[:, None]
    fall = 1 - np.float32(rng.uniform(0.05, 0.35) / (w * w + h * h)) * (xx + yy)
    cast = np.array(
        [rng.uniform(0.85, 1.05), rng.uniform(0.95, 1.02), rng.uniform(0.9, 1.12)], np.float32
    )
    out = image * fall[..., None] * (cast * np.float32(rng.uniform(0.8, 1.15)))[None, None, :]
    if blur > 0:
        if rng.random() < 0.2:  # a shaking hand: blur along one line
            k = max(3, int(blur * 4) | 1)
            kernel: np.ndarray = np.zeros((k, k), np.float32)
            kernel[k // 2, :] = 1.0 / k
            turn = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
            kernel = cv2.warpAffine(kernel, turn, (k, k))
            out = cv2.filter2D(out, -1, kernel / max(1e-6, kernel.sum()))
        else:
            out = cv2.GaussianBlur(out, (0, 0), blur)
    out = out + noise_level * rng.standard_normal(out.shape, dtype=np.float32)
    photo: np.ndarray = np.clip(out * 255, 0, 255).astype(np.uint8)
    return photo
