"""What changed between two frames (``vision.motion``), on pictures with known changes:
a camera's noise, its exposure and a nudge of the whole view are no change; a patch the
size of a cube's letter is; light that changes across the view makes nothing compare."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.motion import area, changed, footprint, small_copy


def textured(seed: int = 0) -> np.ndarray:
    """A 960x720 table with grain at every scale, as wood or cloth has."""
    rng = np.random.default_rng(seed)
    out = np.zeros((720, 960, 3), np.float32)
    for size in (6, 24, 96):
        noise = rng.normal(0, 12, (720 // size + 1, 960 // size + 1, 3)).astype(np.float32)
        out += cv2.resize(noise, (960, 720), interpolation=cv2.INTER_CUBIC)
    return np.clip(out + 110, 0, 255).astype(np.uint8)


def noisy(image: np.ndarray, seed: int, sigma: float = 3.0) -> np.ndarray:
    noise = np.random.default_rng(seed).normal(0, sigma, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), gain=st.floats(0.8, 1.2))
def test_noise_and_exposure_are_no_change(seed: int, gain: float) -> None:
    table = textured(seed % 7)
    later = np.clip(noisy(table, seed) * gain, 0, 255).astype(np.uint8)
    assert area(changed(small_copy(table), small_copy(later)), 3) == 0


@settings(max_examples=10, deadline=None)
@given(dx=st.integers(-6, 6), dy=st.integers(-6, 6))
def test_a_nudge_of_the_whole_view_is_no_change(dx: int, dy: int) -> None:
    table = textured(1)
    shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    moved = cv2.warpAffine(table, shift, (960, 720), borderMode=cv2.BORDER_REFLECT)
    mask = changed(small_copy(table), small_copy(noisy(moved, (dx + 6) * 13 + dy + 6)))
    assert area(mask[8:-8, 8:-8], 3) == 0  # the frame's edge shows what was outside it


def test_a_patch_the_size_of_a_letter_is_a_change_there_only() -> None:
    table = textured(2)
    later = noisy(table, 5)
    cv2.putText(later, "E", (400, 330), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (20, 20, 20), 4)
    mask = changed(small_copy(table), small_copy(later))
    ys, xs = np.nonzero(mask)
    assert area(mask, 3) > 0
    scale = 320 / 960
    assert 390 * scale <= xs.min() and xs.max() <= 440 * scale
    assert 290 * scale <= ys.min() and ys.max() <= 340 * scale


def test_light_that_changes_across_the_view_makes_every_pixel_change() -> None:
    table = textured(3)
    ramp = np.linspace(0.6, 1.3, 960, dtype=np.float32)[None, :, None]
    relit = np.clip(table * ramp, 0, 255).astype(np.uint8)
    assert changed(small_copy(table), small_copy(relit)).all()


def test_a_footprint_covers_each_top_grown_about_its_centre() -> None:
    top = np.array([[100, 100], [160, 100], [160, 160], [100, 160]], float)
    mask = footprint((240, 320), [top], 0.5, reach=2.0)
    ys, xs = np.nonzero(mask)
    assert (xs.min(), xs.max(), ys.min(), ys.max()) == (35, 95, 35, 95)
