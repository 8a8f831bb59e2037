"""Everything on the table, drawn by the camera: the tray's parts, the cubes with their
printed faces, the light on them and the shadows they cast.

Order of drawing: the table; the shadows on it; the tray's floor and the shadows on it;
then walls and cubes from the farthest to the nearest (the depth buffer settles the rest);
see-through walls last, over what they stand in front of.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from models.render import _rounded_square
from models.tabletop.arrays import Array
from models.tabletop.camera import Camera
from models.tabletop.layouts import Spot
from models.tabletop.looks import CubeLook
from models.tabletop.prints import ink
from models.tabletop.raster import Canvas
from models.tabletop.solids import Box, Face, Lighting, light_face, rim_normals

FLOOR = -3
WALL = -4
#: Ids of cube sides: the cube's index plus this.
SIDE = 100_000
TEXTURE_SIZES = (12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384)


@dataclass(frozen=True, slots=True)
class Pose:
    """A rigid move from an object's own frame to the world's."""

    rotation: Array = field(default_factory=lambda: np.eye(3))
    translation: Array = field(default_factory=lambda: np.zeros(3))

    def box(self, box: Box) -> Box:
        return Box(
            self.rotation @ box.base + self.translation,
            self.rotation @ box.axes,
            box.half,
            box.height,
        )

    def point(self, point: Array) -> Array:
        return np.asarray(self.rotation @ point + self.translation)


@dataclass(frozen=True, slots=True)
class Cube:
    box: Box
    spot: Spot


@dataclass(frozen=True, slots=True)
class Part:
    """A tray part in the world: its box, BGR colour, opacity and id."""

    box: Box
    color: Array
    opacity: float
    ident: int = WALL


@dataclass(slots=True)
class Stage:
    look: CubeLook
    lighting: Lighting
    cubes: list[Cube] = field(default_factory=list)
    parts: list[Part] = field(default_factory=list)
    floor: Part | None = None
    #: How dark the cubes' sides grow towards their base (the walls of a cell keep light out).
    well: float = 0.3


def turned(face: Face, turn: int) -> Face:
    """The same face with its top left moved ``turn`` corners clockwise: a print turned
    ``turn`` quarter turns clockwise, read from its own top left."""
    corners = np.roll(face.corners, -turn, axis=0)
    u = corners[1] - corners[0]
    v = corners[3] - corners[0]
    return Face(corners, u / np.linalg.norm(u), v / np.linalg.norm(v), face.normal)


def _texture_size(uv: Array) -> int:
    edge = float(np.max(np.linalg.norm(uv - np.roll(uv, 1, axis=0), axis=1)))
    for size in TEXTURE_SIZES:
        if size >= edge * 1.15:
            return size
    return TEXTURE_SIZES[-1]


def _draw_part(canvas: Canvas, camera: Camera, part: Part, lighting: Lighting) -> None:
    for face in [part.box.top(), *part.box.sides()]:
        if not face.facing(camera.position):
            continue
        uv, depth = camera.project(face.corners)
        color = light_face(part.color, face, camera.position, lighting)
        solid = part.opacity >= 1
        span = uv.max(0) - uv.min(0) + 2
        if abs(float(cv2.contourArea(uv.astype(np.float32)))) < 0.3 * span[0] * span[1]:
            canvas.flat(uv, depth, color, part.ident, opacity=part.opacity, solid=solid)
        else:  # compact: warping a plain texture is cheaper than listing its pixels
            texture = np.broadcast_to(color.astype(np.float32), (4, 4, 3))
            canvas.quad(uv, depth, texture, None, part.ident, opacity=part.opacity, solid=solid)


def _draw_cube(canvas: Canvas, camera: Camera, stage: Stage, index: int) -> None:
    cube, look = stage.cubes[index], stage.look
    eye = camera.position
    body, inkc = look.body.astype(np.float32), look.ink.astype(np.float32)
    faces = [(turned(cube.box.top(), cube.spot.turn), cube.spot.top, index, False)]
    for side, name, turn in zip(
        cube.box.sides(), cube.spot.sides, cube.spot.side_turns, strict=True
    ):
        faces.append((turned(side, turn), name, SIDE + index, True))
    for face, name, ident, is_side in faces:
        if not face.facing(eye):
            continue
        uv, depth = camera.project(face.corners)
        size = _texture_size(uv)
        printed = ink(name, look.print, size)
        albedo = body + (inkc - body) * printed[..., None]
        occlusion = _base_well(face, cube.box, size, stage.well) if is_side else None
        normals = rim_normals(size, size, look.edge, 0.0 if is_side else look.dome)
        color = light_face(albedo, face, eye, stage.lighting, normals, occlusion)
        canvas.quad(uv, depth, color, _rounded_square(size, round(size * look.edge)), ident)


def _base_well(face: Face, box: Box, size: int, strength: float) -> Array:
    """Light on a side face ([size, size]), falling towards the cube's base, in the face's
    texture frame whichever way its print is turned."""
    up = box.axes[:, 2]
    down_u, down_v = float(-(face.u @ up)), float(-(face.v @ up))
    t = (np.arange(size, dtype=np.float32) + 0.5) / size
    along = down_u * (t[None, :] - 0.5) + down_v * (t[:, None] - 0.5) + 0.5
    return np.asarray(1 - strength * np.clip(along, 0, 1) ** 1.6, np.float32)


def _onto_plane(points: Array, direction: Array, origin: Array, normal: Array) -> Array:
    """Points moved along ``direction`` onto the plane through ``origin`` with ``normal``."""
    reach = ((points - origin) @ normal) / float(direction @ normal)
    return np.asarray(points - reach[:, None] * direction)


def _shadow_factor(
    camera: Camera,
    boxes: list[tuple[Box, float]],
    footprints: list[Box],
    origin: Array,
    normal: Array,
    lighting: Lighting,
    px_per_mm: float,
    height: float,
) -> Array:
    """How much light reaches each pixel of the plane (``origin``, ``normal``): 1 minus
    each light's share where the boxes (each with its opacity) block it, and the dark of
    contact round the cubes' feet."""
    width, height_px = camera.size
    scale = 0.5  # shadows are soft: draw them at half size
    small = (max(1, round(width * scale)), max(1, round(height_px * scale)))
    total = float(lighting.ambient.mean()) + sum(
        float(light.color.mean()) * max(float(light.direction @ normal), 0)
        for light in lighting.lights
    )
    factor = np.ones(small[::-1], np.float32)
    corners = np.concatenate([box.corners() for box, _ in boxes]) if boxes else np.zeros((0, 3))
    for light in lighting.lights:
        along = float(light.direction @ normal)
        if along <= 0.05 or not boxes:
            continue
        mask = np.zeros(small[::-1], np.float32)
        uv, depth = camera.project(_onto_plane(corners, light.direction, origin, normal))
        points = np.round(uv * scale * 16).astype(np.int32).reshape(-1, 8, 2)
        ahead: Array = np.all((depth > 0).reshape(-1, 8), axis=1)
        for k, (_, opacity) in enumerate(boxes):
            if ahead[k]:
                cv2.fillConvexPoly(mask, cv2.convexHull(points[k]), float(opacity), cv2.LINE_AA, 4)
        sigma = (light.softness * height * px_per_mm + 0.6) * scale
        mask = cv2.GaussianBlur(mask, (0, 0), sigma)
        share = float(light.color.mean()) * along / max(total, 1e-6)
        factor *= 1 - share * np.minimum(mask, 1)
    if footprints:
        contact = np.zeros(small[::-1], np.float32)
        for box in footprints:
            grown = Box(box.base, box.axes, (box.half[0] * 1.1, box.half[1] * 1.1), 0.0)
            uv, _ = camera.project(grown.top().corners)
            cv2.fillConvexPoly(
                contact, np.round(uv * scale * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4
            )
        contact = cv2.GaussianBlur(contact, (0, 0), max(0.8, 0.1 * height * px_per_mm * scale))
        factor *= 1 - 0.4 * contact
    return np.asarray(cv2.resize(factor, (width, height_px), interpolation=cv2.INTER_LINEAR))


def draw(canvas: Canvas, camera: Camera, stage: Stage) -> None:
    """Draw the stage over the table already painted on ``canvas``."""
    eye = camera.position
    size = stage.look.size
    centre = (
        np.mean([c.box.base for c in stage.cubes], axis=0)
        if stage.cubes
        else (stage.floor.box.base if stage.floor else np.zeros(3))
    )
    px_per_mm = camera.focal / max(float(np.linalg.norm(centre - eye)), 1.0)
    cube_boxes = [(c.box, 1.0) for c in stage.cubes]
    feet = [c.box for c in stage.cubes]
    if stage.floor is None:
        blockers = cube_boxes + [(p.box, p.opacity) for p in stage.parts]
        factor = _shadow_factor(
            camera,
            blockers,
            feet,
            np.zeros(3),
            np.array([0, 0, 1.0]),
            stage.lighting,
            px_per_mm,
            size,
        )
        canvas.shade(factor)
    else:
        tray_boxes = [(stage.floor.box, stage.floor.opacity)] + [
            (p.box, p.opacity) for p in stage.parts
        ]
        factor = _shadow_factor(
            camera,
            tray_boxes + cube_boxes,
            [],
            np.zeros(3),
            np.array([0, 0, 1.0]),
            stage.lighting,
            px_per_mm,
            size,
        )
        canvas.shade(factor)
        _draw_part(canvas, camera, stage.floor, stage.lighting)
        top = stage.floor.box.top()
        factor = _shadow_factor(
            camera,
            [(p.box, p.opacity) for p in stage.parts] + cube_boxes,
            feet,
            top.centre,
            top.normal,
            stage.lighting,
            px_per_mm,
            size,
        )
        on_floor: Array = canvas.ids == FLOOR
        if stage.floor.opacity < 1:
            on_floor = _floor_mask(canvas, camera, stage.floor)
        canvas.color[on_floor] *= factor[on_floor][:, None]
    solid = [p for p in stage.parts if p.opacity >= 1]
    clear = [p for p in stage.parts if p.opacity < 1]
    items: list[tuple[float, int, int]] = []
    for k, cube in enumerate(stage.cubes):
        items.append((float(np.linalg.norm(cube.box.base - eye)), 0, k))
    for k, part in enumerate(solid):
        items.append((float(np.linalg.norm(part.box.base - eye)), 1, k))
    for _, what, k in sorted(items, reverse=True):
        if what == 0:
            _draw_cube(canvas, camera, stage, k)
        else:
            _draw_part(canvas, camera, solid[k], stage.lighting)
    for part in sorted(clear, key=lambda p: -float(np.linalg.norm(p.box.base - eye))):
        _draw_part(canvas, camera, part, stage.lighting)


def _floor_mask(canvas: Canvas, camera: Camera, floor: Part) -> Array:
    uv, _ = camera.project(floor.box.top().corners)
    mask = np.zeros(canvas.ids.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(uv).astype(np.int32), 1)
    return mask.astype(bool)
