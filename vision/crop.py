"""Cutting a face out of the photo for the face model, and judging whether it is sharp."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

#: Side of the square crop each face is cut to, from the full-resolution photo.
CROP = 64
#: The crop reaches this far past the face (as a share of its side), as the model's training
#: crops do: the face fills 0.6-1.05 of them.
CROP_MARGIN = 1.2


def cut_face(
    image: np.ndarray, corners: np.ndarray, size: int = CROP, margin: float = CROP_MARGIN
) -> np.ndarray:
    """The face inside ``corners`` (clockwise from the top left as the image shows it) with
    a ``margin`` around it, as a ``size`` square straightened out of any perspective."""
    corners = np.asarray(corners, np.float64)
    center = corners.mean(0)
    source = (center + (corners - center) * margin).astype(np.float32)
    target = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, target)
    # Shrinking a large face: sample a blurred copy of just its neighbourhood, so that
    # warpPerspective's point sampling does not alias.
    span = float(np.linalg.norm(source[1] - source[0]))
    if span > 2 * size:
        height, width = image.shape[:2]
        # The neighbourhood, kept inside the frame (a face found at its edge reaches past it).
        x0, y0 = np.floor(source.min(0)).astype(int) - 2
        x1, y1 = np.ceil(source.max(0)).astype(int) + 2
        x0, y0 = min(max(0, x0), width - 1), min(max(0, y0), height - 1)
        window = image[y0 : max(y0 + 1, y1), x0 : max(x0 + 1, x1)]
        factor = span / size
        wide = max(1, round(window.shape[1] / factor))
        tall = max(1, round(window.shape[0] / factor))
        small = cv2.resize(window, (wide, tall), interpolation=cv2.INTER_AREA)
        sx, sy = wide / window.shape[1], tall / window.shape[0]
        shrink = np.array([[sx, 0, 0], [0, sy, 0], [0, 0, 1]])
        offset = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        matrix = matrix @ np.linalg.inv(shrink @ offset)
        return cv2.warpPerspective(small, matrix, (size, size), flags=cv2.INTER_LINEAR)
    return cv2.warpPerspective(image, matrix, (size, size), flags=cv2.INTER_LINEAR)


def sharpness(crops: Sequence[np.ndarray]) -> float:
    """Median over the crops of the Laplacian's variance against the grey levels' variance:
    how much of a face's contrast sits in fine detail, whatever the ink's colour."""
    values = []
    for crop in crops:
        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
        values.append(float(cv2.Laplacian(gray, cv2.CV_32F).var()) / max(float(gray.var()), 1.0))
    return float(np.median(values)) if values else 0.0
