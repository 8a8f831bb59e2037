"""Reproducible sets of rendered crops with their targets, for training and evaluation.

Every sample is drawn from a generator seeded with ``(seed, index)``, so a set depends only on
its seed, its split and its size, not on how many processes render it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from engine.faces import ALPHABET, BLANK
from models.pool import run_ranges
from models.render import ORIENTATIONS, Style, render_sample, turn_likeness

#: The seeds of the face model's training and held-out sets (models.train, models.evaluate).
TRAIN_SEED, VAL_SEED = 1, 2
#: Bump when ``sample`` draws anything differently: cached training sets carry it in their name.
DATA_VERSION = 4
#: The model's face classes: every face of the engine, then "none" (not a cube's top face).
CLASSES: tuple[str, ...] = (*ALPHABET, "none")
NONE = len(ALPHABET)
#: Share of "none" samples that are featureless (one colour, a little noise): such an image is as
#: much a tightly cut blank face as it is nothing, so its target is split between the two.
FEATURELESS = 0.3
FEATURELESS_TARGET = {NONE: 0.6, ALPHABET.index(BLANK): 0.4}
#: Share of the featureless samples that are perfectly flat. Noise and ramps become unit-spread
#: patterns after the per-image normalisation, so without these the all-zero input a flat image
#: gives was never seen in training and its confidence was left to chance.
FLAT = 0.5
#: A quarter turn whose print overlaps the upright print by this much (intersection over union)
#: looks the same (models.render.symmetric_orientations); the target shares between such turns
#: by likeness to this power.
LOOK_ALIKE = 0.7
SHARPNESS = 4


@dataclass(frozen=True, slots=True)
class Samples:
    """Images (N, size, size, 3) BGR uint8; face (N, classes) and orientation (N, 4) targets."""

    images: np.ndarray
    faces: np.ndarray
    orientations: np.ndarray

    def __len__(self) -> int:
        return len(self.images)

    @classmethod
    def stack(cls, samples: Iterable[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> Samples:
        """One set of the (image, face, orientation) samples, in order."""
        images, faces, orientations = (np.stack(p) for p in zip(*samples, strict=True))
        return cls(images, faces, orientations)

    @classmethod
    def join(cls, parts: Sequence[Samples]) -> Samples:
        """One set of the samples of every part, in order."""
        return cls(
            np.concatenate([p.images for p in parts]),
            np.concatenate([p.faces for p in parts]),
            np.concatenate([p.orientations for p in parts]),
        )


def _featureless(rng: np.random.Generator, size: int) -> np.ndarray:
    colour = rng.uniform(0, 255, 3)
    if rng.random() < FLAT:  # exactly one colour: the network's own normalisation makes it zeros
        return np.full((size, size, 3), np.round(colour), np.uint8)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size - 0.5
    ramp = (xx * rng.normal() + yy * rng.normal()) * rng.uniform(0, 40)
    img = colour + ramp[..., None] + rng.normal(0, rng.uniform(0, 6), (size, size, 3))
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return out


def sample(
    index: int, seed: int, split: str, size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sample ``index`` of a set: its class cycles through CLASSES, the rest comes from the seed."""
    rng = np.random.default_rng([seed, index])
    cls = index % len(CLASSES)
    face = None if cls == NONE else CLASSES[cls]
    k = int(rng.integers(4))
    face_t = np.zeros(len(CLASSES), np.float32)
    orient_t = np.zeros(4, np.float32)
    if face is None and rng.random() < FEATURELESS:
        for c, p in FEATURELESS_TARGET.items():
            face_t[c] = p
        orient_t[:] = 0.25
        return _featureless(rng, size), face_t, orient_t
    style = Style.random(rng, split, wider=True)
    image = render_sample(face, ORIENTATIONS[k], rng, split=split, size=size, style=style)
    face_t[cls] = 1.0
    orient_t[:] = orientation_target(turn_likeness(face, style), k)
    return image, face_t, orient_t


def orientation_target(likeness: tuple[float, ...], k: int) -> np.ndarray:
    """The orientation target of a print turned ``k`` quarter turns.

    A turn that looks the same (likeness at least LOOK_ALIKE, the evaluation's own test) shares
    the target by how alike it looks, raised to SHARPNESS: a perfectly symmetric print (H, O,
    a blank) spreads evenly, while a nearly symmetric one (an S with a smaller upper bowl, a
    letter set off-centre) still leans to its true turn, which the model can learn to see.

    >>> orientation_target((1.0, 0.2, 1.0, 0.2), 1).round(2).tolist()
    [0.0, 0.5, 0.0, 0.5]
    >>> orientation_target((1.0, 0.1, 0.8, 0.1), 0).round(2).tolist()
    [0.71, 0.0, 0.29, 0.0]
    """
    w = np.array([a**SHARPNESS if a >= LOOK_ALIKE else 0.0 for a in likeness])
    return np.roll(w / w.sum(), k)


def _chunk(args: tuple[int, int, int, str, int]) -> Samples:
    start, stop, seed, split, size = args
    return Samples.stack(sample(i, seed, split, size) for i in range(start, stop))


def make_set(
    count: int,
    seed: int,
    split: str = "train",
    size: int = 32,
    workers: int = 1,
    progress: Callable[[int], object] | None = None,
) -> Samples:
    """Render ``count`` samples (a multiple of the class count keeps classes balanced)."""
    return Samples.join(run_ranges(_chunk, count, 500, (seed, split, size), workers, progress))
