"""Carving tops out of blobs: where a cube's top and a side as bright as it merged into one
piece, the squares of a face's size that fit the piece are the candidates, and the face
model says which of them is the top."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import (
    SETTINGS,
    FaceQuad,
    components,
    downscale,
    enclosed,
    fill_holes,
    pixels_at,
    squared_distance,
    table_ring,
)


def carve_faces(
    image: np.ndarray, quads: list[FaceQuad], small: tuple[np.ndarray, float] | None = None
) -> list[list[FaceQuad]]:
    """Faces the finder missed where a cube's top and a side as bright as it form one blob.

    The faces found already say how large a face is and what colour; pixels nearer that
    colour than the table's are cube, and in each piece of cube left over that can hold a
    whole face, the squares of a face's size that fit are the candidates. A blob of a top and
    a side holds a row of them; the face model, reading each, tells the top. Returns one list
    of candidates per piece. ``small`` is ``downscale(image)`` where the caller has it.
    """
    if not quads:
        return []
    copy, scale = small or downscale(image)
    lab = cv2.cvtColor(cv2.GaussianBlur(copy, (3, 3), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    side = float(np.median([q.side for q in quads])) / scale
    found = np.zeros(copy.shape[:2], np.uint8)
    colours, spreads = [], []
    for q in quads:
        corners = (q.corners + 0.5) / scale - 0.5
        middle = corners.mean(0)
        inner = np.zeros_like(found)
        cv2.fillConvexPoly(inner, np.round(middle + (corners - middle) * 0.7).astype(np.int32), 1)
        pixels = lab[inner > 0]
        if len(pixels) < 4:
            continue
        # The face's own colour, not its letter's: the lighter part of it.
        pixels = pixels[pixels[:, 0] >= np.percentile(pixels[:, 0], 40)]
        colours.append(np.median(pixels, 0))
        spreads.append(np.median(np.linalg.norm(pixels - colours[-1], axis=1)))
        grown = middle + (corners - middle) * SETTINGS["carve_cover"]
        cv2.fillConvexPoly(found, np.round(grown).astype(np.int32), 1)
    if not colours:
        return []
    colour = np.median(colours, 0)
    table = np.median(pixels_at(lab, table_ring(copy.shape)), 0)
    # Pieces of cube: where the faces' colour differs from the table's, the pixels nearer
    # it; and, the faces' colour or not, the regions that edges close off.
    pieces = enclosed(copy)
    apart = SETTINGS["carve_apart"] * 1.4826 * float(np.median(spreads))
    if np.linalg.norm(colour - table) >= apart:
        near = squared_distance(lab, colour) < squared_distance(lab, table)
        pieces = np.stack([near, pieces])
    else:
        pieces = pieces[None]
    opened = [
        cv2.morphologyEx(
            (p & (found == 0)).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
        )
        > 0
        for p in pieces
    ]
    least = SETTINGS["carve_area"] * side * side
    regions = [r for mask in opened for r in components(mask, least)]
    out = []
    for region in regions:
        top, left, sub = region
        candidates = _fitting_squares(fill_holes(sub), side)
        group = []
        for (x, y), angle in candidates:
            center = np.array([left + x, top + y])
            theta = np.radians(angle)
            ux = np.array([np.cos(theta), np.sin(theta)]) * side / 2
            uy = np.array([-np.sin(theta), np.cos(theta)]) * side / 2
            corners = np.array(
                [center - ux - uy, center + ux - uy, center + ux + uy, center - ux + uy]
            )
            full = (center + 0.5) * scale - 0.5
            group.append(
                FaceQuad(
                    (corners + 0.5) * scale - 0.5,
                    (float(full[0]), float(full[1])),
                    side * scale,
                    float(angle),
                )
            )
        if group:
            out.append(group)
    return _merge_groups(out, side * scale / 2)


def _merge_groups(groups: list[list[FaceQuad]], near: float) -> list[list[FaceQuad]]:
    """Groups with candidates closer than ``near`` are one cube seen by two masks: one group."""
    merged: list[list[FaceQuad]] = []
    for group in groups:
        apart = []
        for m in merged:
            if any(
                np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) < near
                for a in group
                for b in m
            ):
                group = m + group
            else:
                apart.append(m)
        merged = apart
        merged.append(group)
    return merged


def _fitting_squares(piece: np.ndarray, side: float) -> list[tuple[tuple[float, float], float]]:
    """Centres (x, y in the piece's pixels) and turn of the squares of about ``side`` that fit
    inside ``piece`` best: the two ends and the middle of the places where they fit."""
    window = max(3, round(SETTINGS["carve_window"] * side))
    pad = window
    padded = np.pad(piece.astype(np.float32), pad)
    height, width = padded.shape
    middle = (width / 2, height / 2)
    best: tuple[float, float, np.ndarray] | None = None
    for degrees in range(-40, 50, 5):
        turn = cv2.getRotationMatrix2D(middle, degrees, 1.0)
        turned = cv2.warpAffine(padded, turn, (width, height), flags=cv2.INTER_LINEAR)
        fill = cv2.boxFilter(turned, -1, (window, window), normalize=True)
        top = float(fill.max())
        if best is None or top > best[0]:
            best = (top, float(degrees), fill)
    assert best is not None
    top, angle, fill = best
    if top < SETTINGS["carve_fill"]:
        return []
    ys, xs = np.nonzero(fill >= top - 0.02)
    points = np.stack([xs, ys], 1).astype(np.float64)
    # The places that fit run along the blob (a top and its side): take both ends.
    mean = points.mean(0)
    if len(points) > 1:
        _, _, axes = np.linalg.svd(points - mean, full_matrices=False)
        along = (points - mean) @ axes[0]
        chosen = [points[int(np.argmin(along))], mean, points[int(np.argmax(along))]]
    else:
        chosen = [mean]
    back = cv2.invertAffineTransform(cv2.getRotationMatrix2D(middle, angle, 1.0))
    out: list[tuple[tuple[float, float], float]] = []
    for p in chosen:
        x, y = back @ np.array([p[0], p[1], 1.0]) - pad
        if all(np.hypot(x - q[0][0], y - q[0][1]) > 0.15 * side for q in out):
            out.append(((float(x), float(y)), angle))
    return out
