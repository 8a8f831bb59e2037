"""Rendered table scenes with exact ground truth: trays, loose rolls and finished crosswords.

The scene is laid out on a flat "world" canvas (cubes, tray, shadows), then photographed
through a homography that turns, tilts (up to 30 degrees off vertical) and scales it onto a
textured table, under uneven light with noise and blur. Ground truth keeps every cube's face,
its corners in the image, its cell and the board or crossword as the image shows it.

    python -m models.scenes --kind tray --seed 3 --out /tmp/scene.png

Faces are painted by the face model's renderer (``models.render.render_face``) in its held-out
("val") fonts and colours; where that renderer cannot be imported (it needs Pillow), a plain
Hershey-font face is painted here instead.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from engine.cubes import CubeSet

#: World pixels per cube side: the resolution faces are painted at before the camera warp.
CUBE = 96

FacePainter = Callable[[str, int, random.Random], np.ndarray]

KINDS = ("tray", "loose", "crossword")
TRAY_GAMES = {4: "boggle", 5: "big-boggle", 6: "super-big-boggle"}


@dataclass(frozen=True, slots=True)
class SideFace:
    """A side of a cube turned towards the camera: its face and its corners in the image,
    clockwise from the print's own top left, and the share of it that nothing hides (a
    touching neighbour hides it all)."""

    face: str
    corners: tuple[tuple[float, float], ...]
    visible: float = 1.0


@dataclass(frozen=True, slots=True)
class PlacedCube:
    """One cube in the photo: its top face, where it lies and which way its letter points."""

    face: str
    #: Corners of the top face in the image, clockwise from the face's own top left
    #: (shape: [4, 2]).
    corners: tuple[tuple[float, float], ...]
    #: Clockwise turn of the letter in the image, in degrees (0 = upright).
    angle: float
    #: (row, col) as the image shows the tray or crossword; None for a loose or unused cube.
    cell: tuple[int, int] | None
    #: Share of the top face that nothing hides (a hand, a tray wall, a drawn line, the
    #: frame's edge); this renderer's flat scenes hide nothing.
    visible: float = 1.0
    #: The side faces the camera sees (``models.tabletop``), each from its print's top left.
    sides: tuple[SideFace, ...] = ()

    @property
    def center(self) -> tuple[float, float]:
        xs, ys = zip(*self.corners, strict=True)
        return (sum(xs) / 4, sum(ys) / 4)


@dataclass(frozen=True, slots=True)
class Scene:
    """A rendered photo and what it shows."""

    kind: str
    game: str
    image: np.ndarray
    cubes: tuple[PlacedCube, ...]
    #: Tray rows as the image shows them (tray scenes), else None.
    board: tuple[tuple[str, ...], ...] | None
    #: Crossword rows as text, "." for an empty cell (crossword scenes), else None.
    grid: tuple[str, ...] | None
    #: True when the lattice lies within a few degrees of 45 in the image, where either
    #: axis may fairly be called the rows.
    ambiguous_axes: bool
    #: Quarter turns clockwise by which the crossword's own up (the way its letters read)
    #: lies turned in the image: turn ``grid`` back by as many to read it.
    grid_turn: int = 0
    #: The name of the cube set rolled ("": the one ``models.evaluate_reader`` names for
    #: the game).
    dice: str = ""


def _default_painter(rng: random.Random, split: str = "val") -> FacePainter:
    """The face model's renderer in one style for the whole set (a real set's cubes share
    their font, ink and colour), drawn from the styles held out from the model's training."""
    try:
        from models.render import Style, render_face
    except ImportError:  # the model's renderer needs Pillow, a training-time package
        return paint_face
    style = Style.random(np.random.default_rng(rng.randrange(2**32)), split)

    def painter(face: str, size: int, _rng: random.Random) -> np.ndarray:
        return render_face(face, 0, size, style)

    return painter


def paint_face(face: str, size: int, rng: random.Random) -> np.ndarray:
    """Paint one upright top face: ivory, rounded, a dark letter (BGR, [size, size, 3])."""
    tint = rng.uniform(-12, 12)
    base = np.array([205 + tint, 232 + tint / 2, 240], dtype=np.float32)
    image = np.empty((size, size, 3), np.uint8)
    image[:] = np.clip(base, 0, 255).astype(np.uint8)
    ink = rng.choice([(120, 40, 10), (20, 20, 20), (30, 30, 150), (20, 60, 20)])
    if face == "*":
        _draw_star(image, size, ink)
    elif face != "#":
        thickness = max(2, size // 14)
        font = cv2.FONT_HERSHEY_DUPLEX
        (_, unit), _ = cv2.getTextSize("H", font, 1.0, thickness)
        scale = size * 0.5 / unit
        (w, h), _ = cv2.getTextSize(face, font, scale, thickness)
        if w > size * 0.8:
            scale *= size * 0.8 / w
            (w, h), _ = cv2.getTextSize(face, font, scale, thickness)
        org = ((size - w) // 2, (size + h) // 2)
        cv2.putText(image, face, org, font, scale, ink, thickness, cv2.LINE_AA)
        if face in ("M", "W", "N", "Z"):
            y = org[1] + size // 10
            cv2.line(image, (org[0], y), (org[0] + w, y), ink, thickness, cv2.LINE_AA)
    return image


def _draw_star(image: np.ndarray, size: int, ink: tuple[int, int, int]) -> None:
    points = []
    for k in range(10):
        radius = size * (0.3 if k % 2 == 0 else 0.12)
        theta = -math.pi / 2 + k * math.pi / 5
        points.append((size / 2 + radius * math.cos(theta), size / 2 + radius * math.sin(theta)))
    cv2.fillPoly(image, [np.round(np.array(points) * 16).astype(np.int32)], ink, cv2.LINE_AA, 4)


# --- the world canvas -------------------------------------------------------------------


class _World:
    """A flat canvas of cubes (BGR) with an opacity mask, in world pixels."""

    def __init__(self, width: int, height: int) -> None:
        self.image = np.zeros((height, width, 3), np.float32)
        self.alpha = np.zeros((height, width), np.float32)
        self.shade = np.ones((height, width), np.float32)
        self.cubes: list[tuple[str, np.ndarray, int, tuple[int, int] | None]] = []

    def fill_rect(self, x0: float, y0: float, x1: float, y1: float, color: np.ndarray) -> None:
        cv2.rectangle(self.image, (int(x0), int(y0)), (int(x1), int(y1)), color.tolist(), -1)
        cv2.rectangle(self.alpha, (int(x0), int(y0)), (int(x1), int(y1)), 1.0, -1)

    def add_cube(
        self,
        face_image: np.ndarray,
        face: str,
        center: tuple[float, float],
        angle: float,
        turn: int,
        cell: tuple[int, int] | None,
    ) -> None:
        """Place a face of side CUBE at ``center``, turned ``angle`` degrees clockwise, its
        letter turned a further ``turn`` quarter turns clockwise."""
        size = face_image.shape[0]
        face_image = np.rot90(face_image, -turn).astype(np.float32)
        # A rounded, darker rim: the bevel of a real cube, which also marks where two
        # touching cubes meet.
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        edge = np.minimum.reduce([xx, yy, size - 1 - xx, size - 1 - yy]) / size
        rim = np.clip(edge / 0.09, 0, 1) ** 0.6
        face_image = face_image * (0.45 + 0.55 * rim)[..., None]
        mask = np.zeros((size, size), np.float32)
        radius = size * 0.1
        cv2.rectangle(mask, (int(radius), 0), (int(size - radius), size), 1.0, -1)
        cv2.rectangle(mask, (0, int(radius)), (size, int(size - radius)), 1.0, -1)
        for cx in (radius, size - radius - 1):
            for cy in (radius, size - radius - 1):
                cv2.circle(mask, (int(cx), int(cy)), int(radius), 1.0, -1, cv2.LINE_AA)
        rotation = cv2.getRotationMatrix2D((size / 2, size / 2), -angle, 1.0)
        rotation[:, 2] += np.array(center) - size / 2
        height, width = self.alpha.shape
        warped = cv2.warpAffine(face_image, rotation, (width, height), flags=cv2.INTER_LINEAR)
        warped_mask = cv2.warpAffine(mask, rotation, (width, height), flags=cv2.INTER_LINEAR)
        # A soft shadow below and to one side.
        shadow = cv2.GaussianBlur(np.roll(warped_mask, (4, 6), (0, 1)), (0, 0), 6)
        self.shade *= 1 - 0.35 * shadow
        self.image = self.image * (1 - warped_mask[..., None]) + warped * warped_mask[..., None]
        self.alpha = np.maximum(self.alpha, warped_mask)
        half = size / 2
        local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
        theta = math.radians(angle)
        rot = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
        corners = local @ rot.T + np.array(center)
        # Corner order follows the letter: the letter's top left comes first.
        corners = np.roll(corners, -turn, axis=0)
        self.cubes.append((face, corners, turn, cell))


# --- the camera and the table ---------------------------------------------------------------


def _camera(
    rng: random.Random,
    world_box: tuple[float, float, float, float],
    frame: tuple[int, int],
    coverage: float,
    max_tilt: float,
) -> np.ndarray:
    """A homography from world to image: turned, tilted and scaled to cover ``coverage``
    of the frame's area, placed at random inside it."""
    x0, y0, x1, y1 = world_box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64) - (cx, cy)
    turn = math.radians(rng.uniform(0, 360))
    tilt = math.radians(rng.uniform(0, max_tilt))
    tilt_axis = rng.uniform(0, math.pi)
    points3 = np.c_[corners, np.zeros(4)]
    c, s = math.cos(turn), math.sin(turn)
    points3 = points3 @ np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]).T
    axis = np.array([math.cos(tilt_axis), math.sin(tilt_axis), 0.0])
    points3 = np.array([_rotate(p, axis, tilt) for p in points3])
    distance = 2.2 * max(x1 - x0, y1 - y0)
    projected = points3[:, :2] * distance / (distance + points3[:, 2:3])
    width, height = frame
    area = cv2.contourArea(projected.astype(np.float32))
    scale = math.sqrt(coverage * width * height / max(area, 1.0))
    projected *= scale
    span = projected.max(0) - projected.min(0)
    if span[0] > width or span[1] > height:
        projected *= 0.98 * min(width / span[0], height / span[1])
    low = -projected.min(0)
    high = np.array([width, height]) - projected.max(0)
    offset = np.array(
        [rng.uniform(low[0], max(low[0], high[0])), rng.uniform(low[1], max(low[1], high[1]))]
    )
    image_corners = projected + offset
    return cv2.getPerspectiveTransform(
        (corners + (cx, cy)).astype(np.float32), image_corners.astype(np.float32)
    )


def _rotate(point: np.ndarray, axis: np.ndarray, angle: float) -> np.ndarray:
    # Rodrigues' rotation formula.
    return np.asarray(
        point * math.cos(angle)
        + np.cross(axis, point) * math.sin(angle)
        + axis * np.dot(axis, point) * (1 - math.cos(angle))
    )


def _table(rng: random.Random, frame: tuple[int, int]) -> np.ndarray:
    width, height = frame
    palette = [
        (60, 90, 140),  # wood
        (40, 60, 100),  # dark wood
        (70, 110, 60),  # green felt
        (150, 150, 150),  # grey
        (210, 215, 215),  # white paper
        (40, 40, 45),  # black
        (120, 70, 40),  # blue cloth
        (170, 190, 200),  # linen
    ]
    base = np.array(rng.choice(palette), np.float32) + np.array(
        [rng.uniform(-15, 15) for _ in range(3)], np.float32
    )
    small = np.random.default_rng(rng.randrange(2**32)).normal(0, 1, (12, 16)).astype(np.float32)
    texture = cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)
    table = base[None, None, :] * (1 + 0.08 * texture[..., None])
    if rng.random() < 0.4:  # wood grain
        xs = np.arange(width, dtype=np.float32)
        grain = np.sin(xs / rng.uniform(6, 20) + 3 * np.sin(xs / 97)) * rng.uniform(0.03, 0.08)
        table *= 1 + grain[None, :, None]
        if rng.random() < 0.5:
            table = np.ascontiguousarray(
                np.transpose(cv2.resize(table, (height, width)), (1, 0, 2))
            )
    return table


def _photograph(
    rng: random.Random,
    world: _World,
    homography: np.ndarray,
    frame: tuple[int, int],
    table: np.ndarray | None = None,
) -> np.ndarray:
    """The world seen by the camera on a table (a random one unless given)."""
    width, height = frame
    if table is None:
        table = _table(rng, frame)
    shade = cv2.warpPerspective(world.shade, homography, frame, borderValue=1.0)
    alpha = cv2.warpPerspective(world.alpha, homography, frame)
    objects = cv2.warpPerspective(world.image, homography, frame)
    image = table * shade[..., None]
    image = image * (1 - alpha[..., None]) + objects * alpha[..., None]
    # Uneven light: a smooth gradient, a colour cast, then noise and a little blur.
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    direction = rng.uniform(0, 2 * math.pi)
    ramp = (xx * math.cos(direction) + yy * math.sin(direction)) / max(width, height)
    light = rng.uniform(0.7, 1.1) * (1 + rng.uniform(0.0, 0.35) * (ramp - ramp.mean()))
    cast = np.array([rng.uniform(0.85, 1.1) for _ in range(3)], np.float32)
    image = image * light[..., None] * cast
    sigma = rng.uniform(0.0, 1.0)
    if sigma > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    noise = np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(1, 5), image.shape)
    return np.asarray(np.clip(image + noise, 0, 255).astype(np.uint8))


# --- the three scenes -----------------------------------------------------------------------


def _image_cubes(world: _World, homography: np.ndarray) -> list[tuple[str, np.ndarray, float]]:
    out = []
    for face, corners, _turn, _cell in world.cubes:
        projected = cv2.perspectiveTransform(corners[None].astype(np.float64), homography)[0]
        top = projected[1] - projected[0]
        angle = math.degrees(math.atan2(top[1], top[0])) % 360
        out.append((face, projected, angle))
    return out


def _image_axes(homography: np.ndarray, center: tuple[float, float]) -> tuple[np.ndarray, bool]:
    """How world lattice steps (+x, +y) map to image rows and columns.

    Returns a 2x2 integer matrix M with (col, row) = M @ (world_col, world_row) up to an
    offset, choosing as image columns the world axis nearest the image's horizontal, and
    whether the choice is close to a tie.
    """
    cx, cy = center
    points = np.array([[[cx, cy], [cx + 1, cy], [cx, cy + 1]]], np.float64)
    p = cv2.perspectiveTransform(points, homography)[0]
    return lattice_axes(p[1] - p[0], p[2] - p[0])


def lattice_axes(ex: np.ndarray, ey: np.ndarray) -> tuple[np.ndarray, bool]:
    """``_image_axes`` from the image steps ``ex`` and ``ey`` of one lattice column and
    one lattice row."""
    angle_x = math.degrees(math.atan2(ex[1], ex[0]))
    folded = abs(((angle_x + 45) % 90) - 45)
    ambiguous = abs(folded - 45) < 6
    if abs(ex[0]) >= abs(ex[1]):
        col = np.array([np.sign(ex[0]), 0])
        row = np.array([0, np.sign(ey[1])])
    else:
        col = np.array([0, np.sign(ey[0])])
        row = np.array([np.sign(ex[1]), 0])
    return np.array([col, row], int), ambiguous


def grid_turn(axes: np.ndarray) -> int:
    """Quarter turns clockwise of a layout's own up (a step of -1 row) in the image, from the
    ``lattice_axes`` that take its steps there.

    >>> grid_turn(np.eye(2, dtype=int)), grid_turn(np.array([[0, -1], [1, 0]]))
    (0, 1)
    """
    col, row = (int(v) for v in axes @ np.array([0, -1]))
    return {(0, -1): 0, (1, 0): 1, (0, 1): 2, (-1, 0): 3}[(col, row)]


def _cells_in_image(
    cells: dict[tuple[int, int], str], axes: np.ndarray
) -> dict[tuple[int, int], str]:
    mapped = {}
    for (r, c), face in cells.items():
        col, row = axes @ np.array([c, r])
        mapped[(int(row), int(col))] = face
    r0 = min(r for r, _ in mapped)
    c0 = min(c for _, c in mapped)
    return {(r - r0, c - c0): face for (r, c), face in mapped.items()}


def render_tray(
    seed: int,
    size: int = 4,
    *,
    frame: tuple[int, int] = (1024, 768),
    painter: FacePainter | None = None,
    dice: str | None = None,
) -> Scene:
    """A square tray of ``size`` cubes a side, its cubes rolled from the game's set."""
    rng = random.Random(seed)
    painter = painter or _default_painter(rng)
    game = TRAY_GAMES[size]
    cube_set = CubeSet.load(
        dice or {4: "boggle-1987", 5: "big-boggle-1979", 6: "super-big-boggle-2011"}[size]
    )
    faces = [str(face) for face in cube_set.roll(rng)]
    pitch = CUBE * rng.uniform(1.18, 1.3)
    margin = CUBE * 0.5
    extent = size * pitch + 2 * margin
    pad = CUBE
    world = _World(int(extent + 2 * pad), int(extent + 2 * pad))
    tray_color = np.array(
        rng.choice([(150, 60, 20), (30, 30, 30), (40, 40, 160), (60, 120, 60), (90, 90, 95)]),
        np.float32,
    )
    world.fill_rect(pad, pad, pad + extent, pad + extent, tray_color)
    wall = tray_color * rng.uniform(0.7, 1.3)
    for k in range(size + 1):
        offset = pad + margin + k * pitch
        w = CUBE * 0.06
        world.fill_rect(offset - w, pad + margin, offset + w, pad + extent - margin, wall)
        world.fill_rect(pad + margin, offset - w, pad + extent - margin, offset + w, wall)
    cells = {}
    for index, face in enumerate(faces):
        r, c = divmod(index, size)
        jitter = (CUBE * 0.06) * np.array([rng.uniform(-1, 1), rng.uniform(-1, 1)])
        center = np.array([pad + margin + (c + 0.5) * pitch, pad + margin + (r + 0.5) * pitch])
        world.add_cube(
            painter(face, CUBE, rng),
            face,
            tuple(center + jitter),
            rng.uniform(-5, 5),
            rng.randrange(4),
            (r, c),
        )
        cells[(r, c)] = face
    coverage = rng.uniform(0.1, 0.55)
    homography = _camera(rng, (pad, pad, pad + extent, pad + extent), frame, coverage, 30)
    image = _photograph(rng, world, homography, frame)
    axes, ambiguous = _image_axes(homography, (pad + extent / 2, pad + extent / 2))
    in_image = _cells_in_image(cells, axes)
    board = tuple(tuple(in_image[(r, c)] for c in range(size)) for r in range(size))
    placed = _placed(world, homography, axes, cells_origin=True)
    return Scene("tray", game, image, placed, board, None, ambiguous)


def _placed(
    world: _World, homography: np.ndarray, axes: np.ndarray, *, cells_origin: bool
) -> tuple[PlacedCube, ...]:
    cells = [cell for *_, cell in world.cubes if cell is not None]
    mapped = {}
    if cells:
        image_cells = [tuple(int(v) for v in axes @ np.array([c, r]))[::-1] for r, c in cells]
        r0 = min(r for r, _ in image_cells)
        c0 = min(c for _, c in image_cells)
        mapped = {
            cell: (ic[0] - r0, ic[1] - c0) for cell, ic in zip(cells, image_cells, strict=True)
        }
    out = []
    for (face, corners, angle), (_, _, _, cell) in zip(
        _image_cubes(world, homography), world.cubes, strict=True
    ):
        out.append(
            PlacedCube(
                face,
                tuple((float(x), float(y)) for x, y in corners),
                angle,
                mapped.get(cell) if cell else None,
            )
        )
    return tuple(out)


def _scatter(
    rng: random.Random,
    count: int,
    box: tuple[float, float, float, float],
    taken: list[np.ndarray],
    spacing: float,
) -> list[np.ndarray]:
    points: list[np.ndarray] = []
    x0, y0, x1, y1 = box
    for _ in range(count):
        for _attempt in range(500):
            p = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1)])
            if all(np.linalg.norm(p - q) >= spacing for q in points + taken):
                break
        points.append(p)
    return points


def render_loose(
    seed: int, *, frame: tuple[int, int] = (1024, 768), painter: FacePainter | None = None
) -> Scene:
    """The 13 Ad-Lib cubes rolled loose on the table, some touching."""
    rng = random.Random(seed)
    painter = painter or _default_painter(rng)
    faces = [str(face) for face in CubeSet.load("adlib").roll(rng)]
    side = CUBE * 7.5
    pad = CUBE
    world = _World(int(side + 2 * pad), int(side * 0.75 + 2 * pad))
    box = (pad, pad, pad + side, pad + side * 0.75)
    centers = _scatter(rng, len(faces), box, [], CUBE * 1.5)
    angles = [rng.uniform(0, 360) for _ in faces]
    # Some cubes land touching a neighbour edge to edge (pairs only: three in a row would be
    # a crossword).
    for k in range(1, len(faces), 2):
        if rng.random() < 0.35:
            theta = math.radians(angles[k - 1] + 90 * rng.randrange(4))
            step = CUBE * rng.uniform(1.0, 1.04) * np.array([math.cos(theta), math.sin(theta)])
            candidate = centers[k - 1] + step
            others = [c for j, c in enumerate(centers) if j not in (k - 1, k)]
            inside = box[0] <= candidate[0] <= box[2] and box[1] <= candidate[1] <= box[3]
            if inside and all(np.linalg.norm(candidate - c) >= CUBE * 1.5 for c in others):
                centers[k] = candidate
                angles[k] = angles[k - 1] + rng.uniform(-3, 3)
    for face, center, angle in zip(faces, centers, angles, strict=True):
        world.add_cube(painter(face, CUBE, rng), face, tuple(center), angle, rng.randrange(4), None)
    coverage = rng.uniform(0.3, 0.7)
    homography = _camera(
        rng, (pad * 0.5, pad * 0.5, side + pad * 1.5, side * 0.75 + pad * 1.5), frame, coverage, 30
    )
    image = _photograph(rng, world, homography, frame)
    placed = _placed(world, homography, np.eye(2, dtype=int), cells_origin=False)
    return Scene("loose", "adlib", image, placed, None, None, False)


def _crossword_cells(rng: random.Random, count: int) -> list[tuple[int, int]]:
    """A connected crossword-like set of cells: words of 2-5 crossing one another."""
    cells: list[tuple[int, int]] = [(0, c) for c in range(rng.randint(3, 5))]
    for _ in range(200):
        if len(cells) >= count:
            break
        r, c = rng.choice(cells)
        length = rng.randint(2, 5)
        start = rng.randint(-length + 1, 0)
        if rng.random() < 0.5:
            new = [(r + k, c) for k in range(start, start + length)]
        else:
            new = [(r, c + k) for k in range(start, start + length)]
        new = [cell for cell in new if cell not in cells]
        if new and len(cells) + len(new) <= count:
            cells.extend(new)
    return cells


def render_crossword(
    seed: int,
    *,
    frame: tuple[int, int] = (1024, 768),
    painter: FacePainter | None = None,
    layout: tuple[Sequence[str], Sequence[str]] | None = None,
) -> Scene:
    """A finished Ad-Lib crossword of touching cubes, the unused cubes lying apart.

    By default the letters are a random roll laid on a random crossword shape; ``layout``
    gives a real crossword instead: its grid rows (capitals for cubes, small letters for
    jokers, dots for empty cells) and the faces left unused.
    """
    rng = random.Random(seed)
    painter = painter or _default_painter(rng)
    if layout is None:
        faces = [str(face) for face in CubeSet.load("adlib").roll(rng)]
        cells = _crossword_cells(rng, rng.randint(7, 12))
    else:
        rows, unused = layout
        cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in ". "]
        faces = ["*" if rows[r][c].islower() else rows[r][c] for r, c in cells] + list(unused)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    cells = [(r - r0, c - c0) for r, c in cells]
    world_rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    pitch = CUBE * rng.uniform(1.0, 1.04)
    pad = CUBE * 1.5
    spare = len(faces) - len(cells)
    extra = CUBE * (2.5 + 0.5 * spare) if spare else 0
    width = cols * pitch + 2 * pad + extra
    height = max(world_rows * pitch, 3 * CUBE) + 2 * pad
    world = _World(int(width), int(height))
    placed_cells = {}
    for face, (r, c) in zip(faces, cells, strict=False):
        center = (pad + (c + 0.5) * pitch, pad + (r + 0.5) * pitch)
        jitter = CUBE * 0.02 * np.array([rng.uniform(-1, 1), rng.uniform(-1, 1)])
        x, y = np.array(center) + jitter
        world.add_cube(
            painter(face, CUBE, rng),
            face,
            (float(x), float(y)),
            rng.uniform(-2, 2),
            rng.choice([0, 0, 0, 1, 3]),
            (r, c),
        )
        placed_cells[(r, c)] = face
    leftover = faces[len(cells) :]
    box = (pad + cols * pitch + CUBE * 1.5, pad, width - pad, height - pad)
    for face, spot in zip(leftover, _scatter(rng, len(leftover), box, [], CUBE * 1.5), strict=True):
        world.add_cube(
            painter(face, CUBE, rng),
            face,
            (float(spot[0]), float(spot[1])),
            rng.uniform(0, 360),
            rng.randrange(4),
            None,
        )
    coverage = rng.uniform(0.25, 0.6)
    homography = _camera(
        rng, (pad * 0.5, pad * 0.5, width - pad * 0.5, height - pad * 0.5), frame, coverage, 30
    )
    image = _photograph(rng, world, homography, frame)
    axes, ambiguous = _image_axes(
        homography, (pad + cols * pitch / 2, pad + world_rows * pitch / 2)
    )
    in_image = _cells_in_image(placed_cells, axes)
    n_rows = max(r for r, _ in in_image) + 1
    n_cols = max(c for _, c in in_image) + 1
    grid = tuple("".join(in_image.get((r, c), ".") for c in range(n_cols)) for r in range(n_rows))
    placed = _placed(world, homography, axes, cells_origin=True)
    return Scene("crossword", "adlib", image, placed, None, grid, ambiguous, grid_turn(axes))


def render_scene(kind: str, seed: int, *, frame: tuple[int, int] = (1024, 768)) -> Scene:
    """One scene of ``kind`` (tray sizes drawn from 4, 5 and 6 by the seed)."""
    if kind == "tray":
        return render_tray(seed, (4, 5, 6)[seed % 3], frame=frame)
    if kind == "loose":
        return render_loose(seed, frame=frame)
    if kind == "crossword":
        return render_crossword(seed, frame=frame)
    raise ValueError(f"unknown scene kind {kind!r}; choose one of {', '.join(KINDS)}")


def main() -> None:
    parser = argparse.ArgumentParser(description="Render one scene with its ground truth.")
    parser.add_argument("--kind", choices=KINDS, default="tray")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    scene = render_scene(args.kind, args.seed)
    cv2.imwrite(args.out, scene.image)
    if scene.board:
        print("/".join("".join(row) for row in scene.board))
    if scene.grid:
        print("\n".join(scene.grid))
    print(" ".join(cube.face for cube in scene.cubes if cube.cell is None))


if __name__ == "__main__":
    main()
