"""The table under the cubes: a surface texture laid flat on the plane z = 0.

Plain surfaces (a desk, a sheet of paper, felt) are made here; photographed ones (wood,
cloth, paper, card, cork, stone, carpet, felt) come from ``models/textures/`` (see its
README), by split.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path

import cv2
import numpy as np

from models.tabletop.arrays import Array
from models.tabletop.camera import Camera
from models.tabletop.looks import bgr, draw_hue, held_out


@dataclass(frozen=True, slots=True)
class Texture:
    """One photographed surface of ``models/textures/`` as SOURCES.txt lists it."""

    path: Path
    kind: str
    #: How wide the whole image is on the table, in millimetres.
    mm: float
    #: A grey grain that the renderer colours.
    tint: bool
    split: str


def _textures_dir() -> Path:
    return Path(str(files("models") / "textures"))


@functools.cache
def textures(split: str) -> tuple[Texture, ...]:
    """The textures of a split: ``train`` and ``val`` share the training ones, ``unseen``
    has its own."""
    wanted = "unseen" if held_out(split) else "train"
    rows = (_textures_dir() / "SOURCES.txt").read_text().splitlines()
    out = []
    for row in rows:
        if not row or row.startswith("#"):
            continue
        _, _, name, kind, mm, tint, which = row.split("\t")
        if which == wanted:
            out.append(Texture(_textures_dir() / name, kind, float(mm), tint == "yes", which))
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _pixels(path: Path, grey: bool) -> Array:
    """A texture's pixels (float32 BGR), or its grey scaled to a mean of 1."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"cannot read the texture {path}; rebuild models/textures/")
    if grey:
        level = image.mean(2).astype(np.float32)
        return np.asarray(level / max(float(level.mean()), 1.0))
    return np.asarray(image, np.float32)


@dataclass(frozen=True, slots=True)
class Surface:
    """A table texture and how many millimetres one of its pixels spans. The texture is
    float32 BGR, or grey; either way its colour on the table is ``image * gain + offset``
    (per BGR channel), worked out after it is laid, on the pixels the camera sees."""

    image: Array
    mm_per_px: float
    #: Whether the image tiles seamlessly (a pattern) or must be mirrored at its edges.
    tiles: bool = False
    gain: Array = field(default_factory=lambda: np.ones(3))
    offset: Array = field(default_factory=lambda: np.zeros(3))


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
    return Surface(shade, float(rng.uniform(0.3, 1.5)), gain=np.clip(color, 0, 255))


def photographed(rng: np.random.Generator, split: str) -> Surface:
    """One of the split's photographed surfaces, its colour and scale varied a little (a grey
    grain takes a colour of the split's hues)."""
    choice = textures(split)
    texture = choice[int(rng.integers(len(choice)))]
    image = _pixels(texture.path, texture.tint)
    mm = texture.mm * float(rng.uniform(0.6, 1.6))
    tiles = texture.kind != "felt"
    if texture.tint:  # colour * (1 + strength * (grain - 1))
        strength = float(rng.uniform(0.1, 0.45))
        saturation = float(rng.uniform(0, 0.5) ** 1.5)  # mostly greys, beiges, muted colours
        color = bgr(draw_hue(rng, 0, 360, split), saturation, float(rng.uniform(0.2, 0.95)))
        gain, offset = color * strength, color * (1 - strength)
        return Surface(image, mm / image.shape[1], tiles, gain, offset)
    gain = rng.uniform(0.85, 1.12) * rng.uniform(0.94, 1.06, 3)
    return Surface(image, mm / image.shape[1], tiles, gain)


def surface(rng: np.random.Generator, split: str) -> Surface:
    """A table for a scene: most often a photographed one, sometimes a plain one."""
    return photographed(rng, split) if rng.random() < 0.8 else plain(rng)


def lay(surface: Surface, camera: Camera, rng: np.random.Generator, light: float) -> Array:
    """The surface on the table as the camera sees it ([H, W, 3] float32), turned and
    shifted at random and lit by ``light``."""
    turn = float(rng.uniform(0, 2 * math.pi))
    centre = camera.on_plane(np.array([camera.center]))[0]
    px_per_mm = camera.focal / float(np.linalg.norm(centre - camera.position))
    image = surface.image
    # A small tile blown up is a blur no camera makes: keep its texels near the size of
    # the pixels they land on (the pattern repeats more, as a finer one would).
    step = min(surface.mm_per_px, float(rng.uniform(1.2, 2.4)) / px_per_mm)
    # Shrink a texture finer than the pixels it lands on first: no aliasing, less work.
    if px_per_mm * step < 0.8:
        shrink = px_per_mm * step / 0.8
        size = (max(2, round(image.shape[1] * shrink)), max(2, round(image.shape[0] * shrink)))
        step *= image.shape[1] / size[0]
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    u = np.array([math.cos(turn), math.sin(turn), 0.0]) * step
    v = np.array([-math.sin(turn), math.cos(turn), 0.0]) * step
    h, w = image.shape[:2]
    origin = centre - u * rng.uniform(0, w) - v * rng.uniform(0, h)
    homography = camera.plane_homography(origin, u, v)
    image = cv2.warpPerspective(
        image,
        homography,
        camera.size,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_WRAP if surface.tiles else cv2.BORDER_REFLECT,
    )
    gain = (surface.gain * light).astype(np.float32)
    offset = (surface.offset * light).astype(np.float32)
    if image.ndim == 2:
        return np.asarray(image[..., None] * gain + offset, np.float32)
    return np.asarray(image * gain + offset, np.float32)
