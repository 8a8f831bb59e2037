"""Everything on the table, drawn by the camera: the tray's parts, the cubes with their
printed faces, the light on them and the shadows they cast.

Order of drawing: the table; the shadows on it; the tray's floor and the shadows on it;
then walls and cubes from the farthest to the nearest (the depth buffer settles the rest);
see-through walls last, over what they stand in front of.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import cv2
import numpy as np

from models.tabletop.arrays import Array
from models.tabletop.camera import Camera
from models.tabletop.layouts import Spot
from models.tabletop.looks import CubeLook
from models.tabletop.prints import squeezed
from models.tabletop.raster import Canvas, soften
from models.tabletop.solids import Box, Face, Lighting, light_face, rim_normals

FLOOR = -3
WALL = -4
#: Ids of cube sides: this plus four times the cube's index plus the side's (+x, +y, -x, -y).
SIDE = 100_000
TEXTURE_SIZES = (8, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 256, 320, 384)


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
    k = turn % 4
    corners = face.corners[[k, (k + 1) % 4, (k + 2) % 4, (k + 3) % 4]]
    u, v = ((face.u, face.v), (face.v, -face.u), (-face.u, -face.v), (-face.v, face.u))[k]
    return Face(corners, u, v, face.normal)


def _texture_size(length: float) -> int:
    """The smallest texture size that gives a quad's edge of ``length`` pixels a texel each."""
    for size in TEXTURE_SIZES:
        if size >= length:
            return size
    return TEXTURE_SIZES[-1]


@functools.lru_cache(maxsize=512)
def _outline(width: int, height: int, edge: float) -> Array:
    """A cube face's outline (1 inside) in a texture of width x height: a square whose
    corners round over ``edge`` of its side, however the texture squeezes it."""
    mask = np.zeros((height, width), np.float32)
    rx, ry = max(1, round(width * edge)), max(1, round(height * edge))
    cv2.rectangle(mask, (rx, 0), (width - 1 - rx, height - 1), 1.0, -1)
    cv2.rectangle(mask, (0, ry), (width - 1, height - 1 - ry), 1.0, -1)
    for cx in (rx, width - 1 - rx):
        for cy in (ry, height - 1 - ry):
            cv2.ellipse(mask, (cx, cy), (rx, ry), 0, 0, 360, 1.0, -1, cv2.LINE_AA)
    return mask


def _draw_part(canvas: Canvas, camera: Camera, part: Part, lighting: Lighting) -> None:
    for face in [part.box.top(), *part.box.sides()]:
        if not face.facing(camera.position):
            continue
        uv, depth = camera.project(face.corners)
        if abs(float(cv2.contourArea(uv.astype(np.float32)))) < 2.0:  # seen edge on
            continue
        color = light_face(part.color, face, camera.position, lighting)
        solid = part.opacity >= 1
        canvas.flat(uv, depth, color, part.ident, opacity=part.opacity, solid=solid)


def _draw_cube(canvas: Canvas, camera: Camera, stage: Stage, index: int) -> None:
    cube, look = stage.cubes[index], stage.look
    eye = camera.position
    body, inkc = look.body.astype(np.float32), look.ink.astype(np.float32)
    faces = [(turned(cube.box.top(), cube.spot.turn), cube.spot.top, index, False)]
    for k, (side, name, turn) in enumerate(
        zip(cube.box.sides(), cube.spot.sides, cube.spot.side_turns, strict=True)
    ):
        if side.facing(eye):  # back faces are never turned, printed or lit
            faces.append((turned(side, turn), name, SIDE + 4 * index + k, True))
    corners = camera.project(np.concatenate([face.corners for face, *_ in faces]))
    for n, (face, name, ident, is_side) in enumerate(faces):
        if not is_side and not face.facing(eye):
            continue
        uv, depth = corners[0][4 * n : 4 * n + 4], corners[1][4 * n : 4 * n + 4]
        edges = np.hypot(*(uv - uv[[1, 2, 3, 0]]).T)  # top, right, bottom, left
        across, down = max(edges[0], edges[2]), max(edges[1], edges[3])
        if across < 1.5 or down < 1.5:  # seen edge on
            continue
        width, height = _texture_size(across), _texture_size(down)
        printed = squeezed(name, look.print, width, height)
        albedo = body + (inkc - body) * printed[..., None]
        occlusion = _base_well(face, cube.box, width, height, stage.well) if is_side else None
        normals = rim_normals(width, height, look.edge, 0.0 if is_side else look.dome)
        color = light_face(albedo, face, eye, stage.lighting, normals, occlusion)
        canvas.quad(uv, depth, color, _outline(width, height, look.edge), ident)


def _base_well(face: Face, box: Box, width: int, height: int, strength: float) -> Array:
    """Light on a side face ([height, width]), falling towards the cube's base, in the
    face's texture frame whichever way its print is turned."""
    up = box.axes[:, 2]
    down_u, down_v = round(float(-(face.u @ up)), 2), round(float(-(face.v @ up)), 2)
    return _well(width, height, down_u, down_v, round(strength, 2))


@functools.lru_cache(maxsize=1024)
def _well(width: int, height: int, down_u: float, down_v: float, strength: float) -> Array:
    xs = (np.arange(width, dtype=np.float32) + 0.5) / width
    ys = (np.arange(height, dtype=np.float32) + 0.5) / height
    along = down_u * (xs[None, :] - 0.5) + down_v * (ys[:, None] - 0.5) + 0.5
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
        mask = soften(mask, sigma)
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
        contact = soften(contact, max(0.8, 0.1 * height * px_per_mm * scale))
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
    parts = [(p.box, p.opacity) for p in stage.parts]
    floor = [(stage.floor.box, stage.floor.opacity)] if stage.floor else []
    up = np.array([0, 0, 1.0])
    # On the table: everything's shadow, and round the cubes' feet where they stand on it.
    factor = _shadow_factor(
        camera,
        floor + parts + cube_boxes,
        [] if stage.floor else feet,
        np.zeros(3),
        up,
        stage.lighting,
        px_per_mm,
        size,
    )
    canvas.shade(factor)
    if stage.floor is not None:
        _draw_part(canvas, camera, stage.floor, stage.lighting)
        top = stage.floor.box.top()
        factor = _shadow_factor(
            camera,
            parts + cube_boxes,
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
        canvas.shade(np.where(on_floor, factor, np.float32(1)))
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
