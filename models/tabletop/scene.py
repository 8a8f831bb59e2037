"""One scene from (kind, seed, split): lay it out, place the camera, draw, develop, and
write down what the photo shows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from models.scenes import PlacedCube, Scene, SideFace, _cells_in_image, grid_turn, lattice_axes
from models.tabletop import backgrounds, hands, looks, overlays, photo
from models.tabletop.arrays import Array
from models.tabletop.camera import Camera, frame_points, look_at
from models.tabletop.kinds import LAYOUTS, Arrange, Layout, yaw_matrix
from models.tabletop.raster import Canvas
from models.tabletop.solids import Box
from models.tabletop.stage import FLOOR, SIDE, Cube, Part, Stage, draw, turned

#: A cube's top is this share of the photo's longer side wide, at least and at most (40 to
#: 400 pixels of a 1600 x 1200 photo); a layout that would show its cubes outside it is
#: framed closer or farther.
CUBE_WIDTH = (0.025, 0.25)


def _stage(layout: Layout, rng: np.random.Generator) -> Stage:
    look = layout.look
    stage = Stage(look, looks.lighting(rng))
    half = look.size / 2
    for spot in layout.spots:
        base = np.array([spot.xy[0], spot.xy[1], layout.stand])
        box = Box(base, yaw_matrix(spot.yaw), (half, half), look.size)
        stage.cubes.append(Cube(layout.pose.box(box), spot))
    if layout.tray is not None and layout.tray_look is not None:
        color, opacity = layout.tray_look.color, layout.tray_look.opacity
        floor = layout.tray.floor
        stage.floor = Part(layout.pose.box(floor.box), color * floor.tint, opacity, FLOOR)
        stage.parts = [
            Part(layout.pose.box(s.box), np.clip(color * s.tint, 0, 255), opacity)
            for s in layout.tray.walls
        ]
        stage.well = float(rng.uniform(0.35, 0.7))
    else:
        stage.well = float(rng.uniform(0.1, 0.35))
    return stage


def _camera(
    layout: Layout, stage: Stage, rng: np.random.Generator, size: tuple[int, int]
) -> Camera:
    points = layout.frame or [p for c in stage.cubes for p in c.box.top().corners]
    centre = np.mean(points, axis=0)
    # Most photos are taken nearly square to the tray or crossword; some at any turn.
    yaw = math.atan2(layout.pose.rotation[1, 0], layout.pose.rotation[0, 0])
    if rng.random() < 0.6:
        azimuth = yaw - math.pi / 2 + math.pi / 2 * int(rng.integers(4)) + rng.normal(0, 0.06)
        roll = math.pi / 2 * int(rng.integers(4)) * (rng.random() < 0.3) + rng.normal(0, 0.05)
    else:
        azimuth, roll = rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
    slant = rng.uniform(0, 8) if rng.random() < 0.35 else rng.uniform(8, layout.slant)
    if layout.view is not None:
        slant, azimuth, roll = layout.view, rng.uniform(0, 2 * math.pi), 0.0
    fov = math.radians(rng.uniform(45, 75))
    focal = size[0] / 2 / math.tan(fov / 2)
    camera = look_at(centre, math.radians(slant), azimuth, roll, 400.0, focal, size)
    low, high = layout.coverage
    coverage = float(rng.uniform(low, high))
    place = (float(rng.uniform(0, 1)), float(rng.uniform(0, 1)))
    framed = frame_points(camera, np.array(points), coverage, place)
    if not stage.cubes:
        return framed
    # Cubes as photos show them: neither specks nor a cube filling the frame.
    share = _top_width(framed, stage) / max(size)
    wanted = float(np.clip(share, *CUBE_WIDTH))
    if wanted == share:
        return framed
    return frame_points(camera, np.array(points), min(0.97, coverage * wanted / share), place)


def _top_width(camera: Camera, stage: Stage) -> float:
    """The median width in pixels of the cubes' tops as ``camera`` sees them."""
    tops = np.array([c.box.top().corners for c in stage.cubes])
    uv, _ = camera.project(tops.reshape(-1, 3))
    corners = uv.reshape(len(stage.cubes), 4, 2)
    return float(np.median(np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1)))


def _cells(
    layout: Layout, camera: Camera, stage: Stage
) -> tuple[dict[int, tuple[int, int]], Array, bool]:
    """Each laid-out cube's (row, col) as the image shows it, the lattice's axes (image
    column and row steps of a layout column and row) and whether they lie near 45 degrees."""
    placed = {str(k): c.spot.cell for k, c in enumerate(stage.cubes) if c.spot.cell is not None}
    if not placed:
        return {}, np.eye(2, dtype=int), False
    centre = np.array([0.0, 0.0, layout.stand + layout.look.size])
    steps = ([0.0, 0.0, 0.0], [layout.pitch, 0.0, 0.0], [0.0, -layout.pitch, 0.0])
    uv, _ = camera.project(np.array([layout.pose.point(centre + np.array(d)) for d in steps]))
    axes, ambiguous = lattice_axes(uv[1] - uv[0], uv[2] - uv[0])
    by_cell = {cell: k for k, cell in placed.items() if cell is not None}
    mapped = _cells_in_image(by_cell, axes)
    return {int(k): image for image, k in mapped.items()}, axes, ambiguous


def _share(count: int, uv: Array, rounded: float) -> float:
    """The share of a face (image corners ``uv``, its outline ``rounded`` of the square)
    that its ``count`` pixels show."""
    full = abs(float(cv2.contourArea(uv.astype(np.float32)))) * rounded
    return min(1.0, float(count) / full) if full > 0 else 0.0


@dataclass(frozen=True, slots=True)
class Shot:
    """A scene as drawn, before its ground truth is written down: for tests and tools."""

    layout: Layout
    stage: Stage
    camera: Camera
    lens: photo.Lens
    canvas: Canvas
    #: The developed photo (float32), before marks are drawn over it and it is saved.
    image: Array
    #: The scene's random stream, where drawing left it.
    rng: np.random.Generator


def compose(
    kind: str, seed: int, split: str, frame: tuple[int, int], arrange: Arrange | None = None
) -> Shot:
    """Lay out, light, photograph and develop one scene (laid out by ``arrange`` instead of
    the kind's own, for a scene set up by hand)."""
    if kind not in LAYOUTS:
        raise ValueError(f"unknown scene kind {kind!r}; choose one of {', '.join(LAYOUTS)}")
    looks.held_out(split)
    rng = np.random.default_rng([looks.SPLITS.index(split), list(LAYOUTS).index(kind), seed])
    layout = (arrange or LAYOUTS[kind])(rng, split, seed)
    stage = _stage(layout, rng)
    lens = photo.random_lens(rng, frame)
    framed = _camera(layout, stage, rng, lens.sensor)
    mx, my = lens.margin
    centre = (framed.center[0] + mx, framed.center[1] + my)
    camera = Camera(framed.rotation, framed.position, framed.focal, centre, lens.ideal)
    canvas = Canvas(*lens.ideal)
    lighting = stage.lighting
    light = float(lighting.ambient.mean()) + sum(
        float(lamp.color.mean()) * max(float(lamp.direction[2]), 0) for lamp in lighting.lights
    )
    canvas.color[:] = backgrounds.lay(backgrounds.surface(rng, split), camera, rng, light)
    draw(canvas, camera, stage)
    _hands(layout, stage, camera, canvas, rng, light)
    image = photo.blur(photo.shadow_bands(canvas.color, rng), rng, frame[0] / 640)
    image = photo.develop(lens.apply(image), rng)
    return Shot(layout, stage, camera, lens, canvas, image, rng)


def _hands(
    layout: Layout,
    stage: Stage,
    camera: Camera,
    canvas: Canvas,
    rng: np.random.Generator,
    light: float,
) -> None:
    """A thumb on a held tray's rim; now and then a hand reaching in, pointing at a cube."""
    look = layout.look
    centre = np.mean([c.box.base for c in stage.cubes], axis=0) if stage.cubes else None
    if centre is None:
        centre = camera.on_plane(np.array([camera.center]))[0]
    width = 1.05 * look.size * camera.focal / float(np.linalg.norm(centre - camera.position))
    if layout.held and layout.tray is not None:
        hx, hy = layout.tray.half
        side = int(rng.integers(4))
        along = float(rng.uniform(-0.7, 0.7))
        x, y = [(hx, along * hy), (along * hx, hy), (-hx, along * hy), (along * hx, -hy)][side]
        rim = layout.pose.point(np.array([x * 0.97, y * 0.97, layout.stand + look.size * 0.6]))
        uv, _ = camera.project(rim[None])
        hands.hand(canvas, rng, uv[0], width, fingers=1, light=light)
    if rng.random() < layout.hands:
        if stage.cubes and rng.random() < 0.7:
            target = stage.cubes[int(rng.integers(len(stage.cubes)))].box.top().centre
            tip = camera.project(target[None])[0][0] + rng.normal(0, width * 0.4, 2)
        else:
            tip = rng.uniform(0.1, 0.9, 2) * camera.size
        fingers = int(rng.choice([1, 1, 2, 3, 4]))
        hands.hand(
            canvas, rng, tip, width * float(rng.uniform(0.9, 1.2)), fingers=fingers, light=light
        )


def render(
    kind: str,
    seed: int,
    *,
    split: str = "train",
    frame: tuple[int, int] = (640, 480),
    arrange: Arrange | None = None,
) -> Scene:
    """One scene of ``kind`` (see ``models.tabletop``), the same for the same arguments;
    ``arrange`` lays it out instead of the kind's own (a test's scene set up by hand)."""
    shot = compose(kind, seed, split, frame, arrange)
    layout, stage, camera, lens, rng = shot.layout, shot.stage, shot.camera, shot.lens, shot.rng
    cells, axes, ambiguous = _cells(layout, camera, stage)
    ids = shot.canvas.ids
    counts = np.bincount(ids[(ids >= 0) & (ids < SIDE)], minlength=len(stage.cubes))
    side_counts = np.bincount(ids[ids >= SIDE] - SIDE, minlength=4 * len(stage.cubes))
    rounded = 1 - (4 - math.pi) * layout.look.edge**2
    # Every face the truth names, projected and carried through the lens at once.
    named = []  # (cube, side number or -1 for the top, face)
    for k, cube in enumerate(stage.cubes):
        named.append((k, -1, turned(cube.box.top(), cube.spot.turn)))
        for j, (side, turn) in enumerate(zip(cube.box.sides(), cube.spot.side_turns, strict=True)):
            if side.facing(camera.position):
                named.append((k, j, turned(side, turn)))
    ideal, _ = camera.project(
        np.concatenate([f.corners for *_, f in named]) if named else np.zeros((0, 3))
    )
    final = lens.points(ideal)
    tops: list[Array] = []
    shares: list[float] = []
    sides: list[list[SideFace]] = [[] for _ in stage.cubes]
    for n, (k, j, _) in enumerate(named):
        uv, out = ideal[4 * n : 4 * n + 4], final[4 * n : 4 * n + 4]
        if j < 0:
            tops.append(out)
            shares.append(_share(counts[k], uv, rounded))
        else:
            outline = tuple((float(x), float(y)) for x, y in out)
            share = _share(side_counts[4 * k + j], uv, rounded)
            sides[k].append(SideFace(stage.cubes[k].spot.sides[j], outline, share))
    image = shot.image
    if rng.random() < 0.2:  # lines, boxes and words drawn over the photo
        cover = overlays.draw(image, rng, tops, frame[0] / 640)
        shares = [s * (1 - overlays.hidden(cover, t)) for s, t in zip(shares, tops, strict=True)]
    image = photo.finish(image, rng)
    placed = []
    for k, cube in enumerate(stage.cubes):
        corners = tuple((float(x), float(y)) for x, y in tops[k])
        (x0, y0), (x1, y1) = corners[0], corners[1]
        angle = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 360
        placed.append(
            PlacedCube(cube.spot.top, corners, angle, cells.get(k), shares[k], tuple(sides[k]))
        )
    board = grid = None
    turn = 0
    if kind == "tray" and placed:
        size = max(r for r, _ in cells.values()) + 1
        at = {cells[k]: cube.face for k, cube in enumerate(placed)}
        board = tuple(tuple(at[(r, c)] for c in range(size)) for r in range(size))
    if kind == "crossword":
        at = {cells[k]: cube.face for k, cube in enumerate(placed) if k in cells}
        rows = max(r for r, _ in at) + 1
        cols = max(c for _, c in at) + 1
        grid = tuple("".join(at.get((r, c), ".") for c in range(cols)) for r in range(rows))
        turn = grid_turn(axes)
    return Scene(kind, layout.game, image, tuple(placed), board, grid, ambiguous, turn, layout.dice)
