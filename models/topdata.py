"""The cube-top detector's training data: rendered scenes, kept compactly, turned into
training patches with their targets (numpy and OpenCV; no torch here).

Scenes are rendered once and kept in ``build/`` as JPEG bytes beside every cube's top-face
corners; each patch is then drawn from one at a random scale, turn, squash and colour, so
that the network sees far more photos than were rendered.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from models.pool import run_ranges
from models.scenes import Scene, render_scene
from models.sidescene import render_loose_sides
from vision.topshape import (
    CHANNELS,
    COS4,
    DX,
    DY,
    HEAT,
    INPUT_SIDE,
    SIN4,
    SIZE,
    STRIDE,
    U,
    V,
    encode,
    to_grid,
)

#: The seeds of the top detector's training and held-out scenes (models.train_tops,
#: models.evaluate_tops).
TRAIN_SEED, VAL_SEED = 11, 12
#: Where scenes come from, and how often each kind is drawn: the 3D tables of
#: ``models.tabletop`` (its ``train`` split), and the flat scenes of ``models.scenes`` and
#: ``models.sidescene`` (seeds of their own, far from their tests' held-out ones).
SOURCES: dict[str, tuple[tuple[str, float], ...]] = {
    "tabletop": (
        ("tray", 0.32),
        ("loose", 0.25),
        ("crossword", 0.22),
        ("single", 0.13),
        ("empty", 0.08),
    ),
    "flat": (
        ("tray", 0.4),
        ("loose", 0.25),
        ("sides", 0.15),
        ("crossword", 0.2),
    ),
}
#: A top at least this visible is a face to find; below the low mark it is not there at all;
#: in between the network is neither rewarded nor punished.
VISIBLE, HIDDEN = 0.6, 0.2


@dataclass(frozen=True, slots=True)
class Scenes:
    """Rendered scenes: JPEG bytes and, per scene, its tops' corners and visibility."""

    jpeg: np.ndarray  # uint8, every scene's bytes one after the other
    offsets: np.ndarray  # int64 [N + 1]
    corners: np.ndarray  # float32 [cubes, 4, 2], in the stored image's pixels
    visible: np.ndarray  # float32 [cubes]
    first: np.ndarray  # int64 [N + 1]: scene k's cubes are first[k]:first[k + 1]

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def image(self, k: int) -> np.ndarray:
        data = self.jpeg[self.offsets[k] : self.offsets[k + 1]]
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
        assert image is not None
        return image

    def tops(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        span = slice(int(self.first[k]), int(self.first[k + 1]))
        return self.corners[span], self.visible[span]

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(
            path,
            jpeg=self.jpeg,
            offsets=self.offsets,
            corners=self.corners,
            visible=self.visible,
            first=self.first,
        )

    @classmethod
    def open(cls, path: Path) -> Scenes:
        with np.load(path) as z:
            return cls(z["jpeg"], z["offsets"], z["corners"], z["visible"], z["first"])

    @classmethod
    def join(cls, parts: Sequence[Scenes]) -> Scenes:
        """One set of the scenes of every part, in order."""
        return cls(
            np.concatenate([p.jpeg for p in parts]),
            _joined([p.offsets for p in parts]),
            np.concatenate([p.corners for p in parts]),
            np.concatenate([p.visible for p in parts]),
            _joined([p.first for p in parts]),
        )


def _joined(offsets: Sequence[np.ndarray]) -> np.ndarray:
    """Running offsets of several sets as one: each set's moved past the ones before it."""
    out, base = [np.zeros(1, np.int64)], 0
    for o in offsets:
        out.append(o[1:] + base)
        base += int(o[-1])
    return np.concatenate(out)


def kind_of(source: str, index: int, seed: int) -> str:
    """The kind of scene ``index`` of a set, drawn by its seed."""
    rng = np.random.default_rng([seed, index, 7])
    names = [k for k, _ in SOURCES[source]]
    weights = np.array([w for _, w in SOURCES[source]])
    return names[int(rng.choice(len(names), p=weights / weights.sum()))]


def render(source: str, index: int, seed: int, split: str = "train") -> Scene:
    """Scene ``index`` of the set drawn from ``source`` with ``seed`` (a tabletop scene of
    ``split``)."""
    kind = kind_of(source, index, seed)
    scene_seed = seed * 1_000_003 + index
    frame = (640, 480) if index % 2 else (480, 640)
    if source == "tabletop":
        from models.tabletop import render as render_table

        return render_table(kind, scene_seed, split=split, frame=frame)
    if kind == "sides":
        return render_loose_sides(scene_seed, frame=frame)
    return render_scene(kind, scene_seed, frame=frame)


def _stored(scene: Scene) -> tuple[bytes, np.ndarray, np.ndarray]:
    image = scene.image
    scale = INPUT_SIDE / max(image.shape[:2])
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 93])
    assert ok
    corners = np.array([c.corners for c in scene.cubes], np.float32).reshape(-1, 4, 2)
    corners = (corners + 0.5) * scale - 0.5
    visible = np.array([c.visible for c in scene.cubes], np.float32)
    return data.tobytes(), corners, visible


def _chunk(job: tuple[int, int, str, str, int]) -> list[tuple[bytes, np.ndarray, np.ndarray]]:
    start, stop, source, split, seed = job
    return [_stored(render(source, k, seed, split)) for k in range(start, stop)]


def make_scenes(
    source: str,
    count: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    split: str = "train",
) -> Scenes:
    """Render ``count`` scenes of the set drawn from ``source`` with ``seed`` (tabletop
    scenes of ``split``), on ``workers`` processes."""
    chunks = run_ranges(_chunk, count, 50, (source, split, seed), workers, progress)
    parts = [scene for chunk in chunks for scene in chunk]
    sizes = [len(p[0]) for p in parts]
    counts = [len(p[1]) for p in parts]
    return Scenes(
        np.frombuffer(b"".join(p[0] for p in parts), np.uint8).copy(),
        np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
        np.concatenate([p[1] for p in parts]).astype(np.float32),
        np.concatenate([p[2] for p in parts]).astype(np.float32),
        np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
    )


def targets(
    tops: Sequence[np.ndarray], visible: Sequence[float], height: int, width: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The network's targets for a patch of ``height`` x ``width`` input pixels whose tops
    have ``tops`` corners (each [4, 2], input pixels): (CHANNELS, h, w) targets, the (h, w)
    weight of the heat (0 where a top is partly hidden or cut by the edge) and the (h, w)
    weight of the shape (at and beside each centre)."""
    h, w = height // STRIDE, width // STRIDE
    target = np.zeros((CHANNELS, h, w), np.float32)
    heat_weight = np.ones((h, w), np.float32)
    shape_weight = np.zeros((h, w), np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    for corners, seen in zip(tops, visible, strict=True):
        grid = np.asarray(to_grid(np.asarray(corners, np.float64)))
        shape = encode(grid)
        inside = (grid[:, 0] >= -0.5).all() and (grid[:, 1] >= -0.5).all()
        inside = inside and (grid[:, 0] <= w - 0.5).all() and (grid[:, 1] <= h - 0.5).all()
        if seen < HIDDEN or shape.half < 0.5:
            continue
        if seen < VISIBLE or not inside:
            # Neither a face to find nor the table: the network may answer either.
            polygon = np.round(grid * 8).astype(np.int32)
            mask = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(mask, polygon, 1, cv2.LINE_8, 3)
            heat_weight[mask > 0] = 0
            continue
        ix, iy = int(round(shape.cx)), int(round(shape.cy))
        sigma = max(0.6, shape.half * 0.35)
        gauss = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sigma * sigma))
        np.maximum(target[HEAT], gauss, out=target[HEAT])
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                x, y = ix + dx, iy + dy
                weight = 1.0 if dx == dy == 0 else 0.25
                if not (0 <= x < w and 0 <= y < h) or shape_weight[y, x] >= weight:
                    continue
                shape_weight[y, x] = weight
                target[DX, y, x] = shape.cx - x
                target[DY, y, x] = shape.cy - y
                target[SIZE, y, x] = math.log(shape.half)
                target[U, y, x] = shape.u
                target[V, y, x] = shape.v
                target[COS4, y, x] = math.cos(4 * shape.turn)
                target[SIN4, y, x] = math.sin(4 * shape.turn)
    return target, heat_weight, shape_weight


def patch(
    image: np.ndarray,
    tops: np.ndarray,
    visible: np.ndarray,
    rng: np.random.Generator,
    side: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A ``side`` x ``side`` training patch of a stored scene, seen at a random scale, turn
    and squash, with colours and light changed: (image, targets, heat weight, shape weight)."""
    height, width = image.shape[:2]
    scale = math.exp(rng.uniform(math.log(0.45), math.log(2.4)))
    squash = math.exp(rng.uniform(-0.3, 0.3)) if rng.random() < 0.35 else 1.0
    turn = rng.uniform(0, 2 * math.pi) if rng.random() < 0.5 else rng.integers(4) * math.pi / 2
    c, s = math.cos(turn), math.sin(turn)
    linear = np.diag([scale * squash, scale / squash]) @ np.array([[c, -s], [s, c]])
    # Put a random point of the scene at the patch's centre.
    focus = np.array([rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height])
    offset = np.array([side / 2, side / 2]) - linear @ focus
    matrix = np.column_stack([linear, offset])
    border = tuple(int(v) for v in rng.integers(0, 256, 3))
    out = cv2.warpAffine(
        image,
        matrix,
        (side, side),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REFLECT if rng.random() < 0.5 else cv2.BORDER_CONSTANT,
        borderValue=border,
    )
    moved = tops @ linear.T + offset if len(tops) else tops
    out = _recolour(out, rng)
    target, heat_weight, shape_weight = targets(list(moved), list(visible), side, side)
    return out, target, heat_weight, shape_weight


def _recolour(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Other tables, trays and inks: swapped channels, shifted hues, light, blur and noise."""
    if rng.random() < 0.3:
        image = image[..., rng.permutation(3)]
    if rng.random() < 0.3:
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + int(rng.integers(180))) % 180
        image = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < 0.1:
        image = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    x: np.ndarray = image.astype(np.float64)
    gain = rng.uniform(0.6, 1.4) * np.exp(rng.normal(0, 0.08, 3))
    x = x * gain + rng.uniform(-30, 30)
    if rng.random() < 0.3:
        gamma = math.exp(rng.uniform(-0.5, 0.5))
        x = 255 * (np.clip(x, 0, 255) / 255) ** gamma
    if rng.random() < 0.25:
        x = np.asarray(cv2.GaussianBlur(x, (0, 0), rng.uniform(0.5, 1.6)))
    if rng.random() < 0.4:
        x = x + rng.normal(0, rng.uniform(2, 10), x.shape)
    return np.clip(x, 0, 255).astype(np.uint8)


def batches(
    scenes: Scenes, batch: int, side: int, rng: np.random.Generator
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Endless batches of patches: (N, 3, side, side) float32 images in 0..1, targets and
    the two weights. Each batch is drawn from ``rng`` when it is asked for, so that its
    state between two batches (a checkpoint's) gives the batches that follow."""
    while True:
        parts = []
        for k in rng.integers(0, len(scenes), batch):
            tops, visible = scenes.tops(int(k))
            parts.append(patch(scenes.image(int(k)), tops, visible, rng, side))
        images, target, heat_weight, shape_weight = (np.stack(p) for p in zip(*parts, strict=True))
        yield (
            images.transpose(0, 3, 1, 2).astype(np.float32) / 255,
            target,
            heat_weight,
            shape_weight,
        )
