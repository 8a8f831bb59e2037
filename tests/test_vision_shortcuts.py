"""The reader's shortcuts give exactly what the long way gives: each is checked here against
the plain computation it replaced, on masks of many shapes (pieces at the frame's edges, at
odd rows and columns, touching, speckled)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import detect, motion
from vision.image import label, label_box


def _masks(count: int, seed: int, shape: tuple[int, int] = (120, 160)) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        mask = np.zeros(shape, bool)
        for _ in range(int(rng.integers(1, 15))):
            x, y = int(rng.integers(-5, shape[1])), int(rng.integers(-5, shape[0]))
            w, h = int(rng.integers(1, 40)), int(rng.integers(1, 40))
            mask[max(0, y) : y + h, max(0, x) : x + w] = True
        mask &= rng.random(shape) > rng.random() * 0.3
        out.append(mask)
    out.append(np.zeros(shape, bool))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_label_box_labels_as_the_whole_mask(seed: int) -> None:
    for mask in _masks(60, seed):
        count, labels, stats = label(mask.view(np.uint8))
        got, box_labels, box_stats, (x0, y0) = label_box(mask.view(np.uint8))
        assert got == count
        assert np.array_equal(box_stats[1:], stats[1:])
        height, width = box_labels.shape
        assert np.array_equal(box_labels, labels[y0 : y0 + height, x0 : x0 + width])
        assert not labels[mask == 0].any()


def _depths_one_by_one(regions: list[detect.Region]) -> list[float]:
    return [
        float(cv2.distanceTransform(np.pad(sub, 1).astype(np.uint8), cv2.DIST_L2, 3).max())
        for _, _, sub in regions
    ]


def test_depths_as_one_region_at_a_time() -> None:
    rng = np.random.default_rng(3)
    for mask in _masks(80, 3):
        regions = detect.components(mask, int(rng.integers(0, 30)))
        if not regions:
            continue
        assert detect._depths(regions) == _depths_one_by_one(regions)


def _split_whole_frame(
    gray: np.ndarray, mask: np.ndarray, side: float, seam_depth: float
) -> list[detect.Region]:
    block = max(3, int(side * 0.7) | 1)
    local = cv2.adaptiveThreshold(
        gray, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, seam_depth
    )
    bright = cv2.erode(((local > 0) & mask).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    return [(t, l_, detect.fill_holes(p)) for t, l_, p in detect.components(bright, 0.2 * side**2)]


def test_seams_split_as_over_the_whole_frame() -> None:
    rng = np.random.default_rng(4)
    for mask in _masks(80, 4):
        noise = rng.integers(0, 256, mask.shape, dtype=np.uint8)
        gray = cv2.GaussianBlur(noise, (5, 5), 0).astype(int) + 40 * mask
        gray = np.clip(gray, 0, 255).astype(np.uint8)
        side, depth = float(rng.uniform(2, 60)), float(rng.choice([0, 4]))
        want = _split_whole_frame(gray, mask, side, depth)
        got = detect._split_seams(gray, mask, side, depth)
        assert [(t, l_) for t, l_, _ in got] == [(t, l_) for t, l_, _ in want]
        assert all(np.array_equal(a, b) for (_, _, a), (_, _, b) in zip(got, want, strict=True))


def test_pixels_and_median_level_as_numpy() -> None:
    rng = np.random.default_rng(5)
    for mask in _masks(30, 5):
        image = rng.random((*mask.shape, 3), dtype=np.float32)
        assert np.array_equal(detect.pixels_at(image, mask), image[mask])
        assert np.array_equal(
            detect.pixels_at(image[3:-2, 1:], mask[3:-2, 1:]), image[3:-2, 1:][mask[3:-2, 1:]]
        )
        high = int(rng.integers(1, 256))
        gray = rng.integers(0, high, (int(rng.integers(1, 60)), int(rng.integers(1, 60))), np.uint8)
        assert detect.median_level(gray) == float(np.median(gray))


def test_refined_pieces_as_found_again() -> None:
    rng = np.random.default_rng(6)
    found = 0
    for mask in _masks(40, 6, (96, 128)):
        lab = rng.random((*mask.shape, 3), dtype=np.float32) * 100
        refined, pieces = detect._refine(lab, mask)
        if pieces is None:
            continue
        gray = (60 + 120 * refined + rng.integers(0, 20, mask.shape)).astype(np.uint8)
        want = detect._faces_in(gray, refined, 2.0, 0)
        got = detect._faces_in(gray, refined, 2.0, 0, pieces)
        assert [q.center for q in got] == [q.center for q in want]
        assert all(np.array_equal(a.corners, b.corners) for a, b in zip(got, want, strict=True))
        found += len(want)
    assert found >= 10  # faces were found, and compared


def _changed_afresh(a: motion.Small, b: motion.Small) -> np.ndarray:
    """``motion.changed`` as it was first written: everything worked out for each pair."""
    x, y = a.pixels, b.pixels
    grey = [cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) for image in (x, y)]
    window = cv2.createHanningWindow(grey[0].shape[::-1], cv2.CV_32F)
    (dx, dy), response = cv2.phaseCorrelate(grey[0], grey[1], window)
    if response >= motion.SURE_SHIFT and np.hypot(dx, dy) >= motion.LEAST_SHIFT:
        shift = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
        size = (x.shape[1], x.shape[0])
        x = cv2.warpAffine(x, shift, size, borderMode=cv2.BORDER_REPLICATE)
    sample = (slice(None, None, 4), slice(None, None, 4))
    gain = np.median(y[sample], axis=(0, 1)) / np.maximum(np.median(x[sample], axis=(0, 1)), 1.0)
    each = cv2.absdiff(x * gain, y)
    difference = each.max(axis=2)
    noise = float(np.median(difference[sample]))
    if noise > motion.NOISY:
        return np.ones(y.shape[:2], np.uint8)
    return np.asarray(difference > max(motion.MIN_DIFFERENCE, motion.NOISE_TIMES * noise), np.uint8)


def test_changed_as_worked_out_afresh() -> None:
    """The small copies keep their grey and levels, and the window is kept: comparing a
    copy again and again (the held reading's frame) gives what a fresh one would."""
    rng = np.random.default_rng(7)
    table = cv2.GaussianBlur(rng.integers(0, 256, (480, 640, 3), dtype=np.uint8), (9, 9), 0)
    frames = [table]
    for k in range(6):
        frame = frames[0].copy()
        x, y = 40 + 60 * k, 100 + 20 * k
        frame[y : y + 50, x : x + 50] = (200, 180, 160)  # a cube laid
        if k == 3:
            frame = np.roll(frame, 4, axis=1)  # the camera nudged
        if k == 5:
            frame = cv2.convertScaleAbs(frame, alpha=1.3)  # the exposure followed a hand
        frames.append(frame)
    smalls = [motion.small_copy(f) for f in frames]
    for _ in range(2):  # each copy compared more than once
        for a in smalls:
            for b in smalls:
                assert np.array_equal(motion.changed(a, b), _changed_afresh(a, b))


def test_histogram_and_thresholds_as_numpy() -> None:
    rng = np.random.default_rng(8)
    for _ in range(40):
        height, width = (int(n) for n in rng.integers(8, 200, 2))
        levels = rng.integers(0, int(rng.integers(1, 257)), (height, width), dtype=np.uint8)
        counts = np.bincount(levels.ravel(), minlength=256)
        assert np.array_equal(detect._histogram(levels), counts)
        assert np.array_equal(detect._histogram(levels.reshape(-1, 1)), counts)
        ring = np.zeros(levels.shape, bool)
        ring[:2], ring[-2:], ring[:, :2], ring[:, -2:] = True, True, True, True
        everywhere = np.ones(levels.shape, bool)
        assert detect._thresholds(levels, None, ring) == detect._thresholds(
            levels, everywhere, ring
        )
