"""Rendered loose rolls whose cubes show their sides, for measuring the reader.

``models.scenes`` paints each cube as a flat top face. A real camera some 30-40 cm above the
table also sees the sides of the cubes that face it, more of them the further a cube lies
from the point below the lens, and a side turned to the light is as bright as the top: the two
then form one blob. This renderer adds those sides (with the letters printed on them) to the
loose roll of ``models.scenes``, with the same camera and light, rims from as dark as
``models.scenes`` draws them to none, long shadows, and half the rolls on pale paper a few
Lab units from the cubes' own colour.

    python -m models.sidescene --seed 3 --out /tmp/sides.png
"""

from __future__ import annotations

import argparse
import math
import random

import cv2
import numpy as np

from engine.cubes import CubeSet
from models.scenes import (
    CUBE,
    FacePainter,
    Scene,
    _camera,
    _default_painter,
    _photograph,
    _placed,
    _World,
)

#: Share of a cube's distance from the point below the camera by which its top is displaced
#: (the cube's height over the camera's height above the top): a phone at 30-40 cm over
#: 16-20 mm cubes.
LIFT = (0.04, 0.11)


def _side_image(painter: FacePainter, rng: random.Random, shade: float) -> np.ndarray:
    """A side face: another letter of the set in any turn, darkened by ``shade``."""
    letter = rng.choice("ABCDEFGHIJKLMNOPRSTUVWXYZ")
    image = np.rot90(painter(letter, CUBE, rng), rng.randrange(4)).astype(np.float32)
    return image * shade


def _bevel(size: int, depth: float) -> np.ndarray:
    """The rounded rim of a cube's face, darker by up to ``depth``: ``models.scenes`` draws
    0.55; a real cube's edge between a lit side and its top may show no darker line at all."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    edge = np.minimum.reduce([xx, yy, size - 1 - xx, size - 1 - yy]) / size
    return np.asarray(1 - depth + depth * np.clip(edge / 0.09, 0, 1) ** 0.6)


def _rounded(size: int) -> np.ndarray:
    """A face's outline with rounded corners (1 inside), as the face renderer draws it."""
    mask = np.zeros((size, size), np.float32)
    radius = round(size * 0.12)
    cv2.rectangle(mask, (radius, 0), (size - 1 - radius, size - 1), 1.0, -1)
    cv2.rectangle(mask, (0, radius), (size - 1, size - 1 - radius), 1.0, -1)
    for cx in (radius, size - 1 - radius):
        for cy in (radius, size - 1 - radius):
            cv2.circle(mask, (cx, cy), radius, 1.0, -1, cv2.LINE_AA)
    return mask


def add_cube_with_sides(
    world: _World,
    painter: FacePainter,
    rng: random.Random,
    face: str,
    base: np.ndarray,
    angle: float,
    nadir: np.ndarray,
    lift: float,
    light: float,
    shadow: float,
    rim: float,
) -> None:
    """A cube standing at ``base`` (world pixels), seen from above ``nadir``: its sides as
    parallelograms from base to top, lit by a light from azimuth ``light`` (radians), then
    its top face over them, and a shadow ``shadow`` cube sides long; the faces' rims are
    darker by ``rim``."""
    theta = math.radians(angle)
    rot = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    half = CUBE / 2
    local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    bottom = local @ rot.T + base
    top = nadir + (bottom - nadir) * (1 + lift)
    height, width = world.alpha.shape
    for i in range(4):
        j = (i + 1) % 4
        quad = np.array([top[i], top[j], bottom[j], bottom[i]], np.float32)
        normal = (bottom[i] + bottom[j]) / 2 - base
        facing = math.cos(math.atan2(normal[1], normal[0]) - light)
        # A side turned to the light is as bright as the top; one turned away is darker.
        shade = float(np.clip(0.62 + 0.4 * facing, 0.45, 1.0))
        image = _side_image(painter, rng, shade) * _bevel(CUBE, rim)[..., None]
        _paste_quad(world, image, quad, _rounded(CUBE))
    # A long shadow away from the light, cast by the whole cube.
    hull = cv2.convexHull(np.concatenate([bottom, top]).astype(np.float32))[:, 0]
    away = np.array([-math.cos(light), -math.sin(light)]) * CUBE * shadow
    cast = cv2.convexHull(np.concatenate([hull, hull + away]).astype(np.float32))[:, 0]
    outline = np.zeros((height, width), np.float32)
    cv2.fillConvexPoly(outline, np.round(cast * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    darker = cv2.GaussianBlur(outline, (0, 0), CUBE * 0.08)
    world.shade *= 1 - 0.45 * darker
    # The top over its sides, its letter turned a further ``turn`` quarter turns clockwise;
    # its corners are kept from the letter's own top left, as ``models.scenes`` keeps them.
    size = round(CUBE * (1 + lift))
    turn = rng.randrange(4)
    image = np.rot90(painter(face, size, rng), -turn).astype(np.float32)
    _paste_quad(world, image * _bevel(size, rim)[..., None], top.astype(np.float32), _rounded(size))
    world.cubes.append((face, np.roll(top, -turn, axis=0), turn, None))


def _apart(
    rng: random.Random,
    count: int,
    box: tuple[float, float, float, float],
    nadir: np.ndarray,
    grow: float,
) -> list[np.ndarray]:
    """``count`` cube positions in ``box`` whose tops, displaced from ``nadir`` by up to
    ``grow``, stay apart (whole layouts are drawn again until one fits)."""
    x0, y0, x1, y1 = box
    points: list[np.ndarray] = []
    for _layout in range(200):
        points = []
        for _ in range(count):
            for _attempt in range(200):
                p = np.array([rng.uniform(x0, x1), rng.uniform(y0, y1)])
                top = nadir + (p - nadir) * grow
                if all(
                    min(np.linalg.norm(p - q), np.linalg.norm(top - nadir - (q - nadir) * grow))
                    >= CUBE * 1.8
                    for q in points
                ):
                    points.append(p)
                    break
            else:
                break
        if len(points) == count:
            break
    return points


def _paste_quad(world: _World, image: np.ndarray, quad: np.ndarray, outline: np.ndarray) -> None:
    """Paint ``image`` (a square) through its ``outline`` (1 inside) onto the world's
    quadrilateral ``quad``, warping only the quad's own neighbourhood."""
    height, width = world.alpha.shape
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 2, (width, height))
    if x1 <= x0 or y1 <= y0:
        return
    size = image.shape[0]
    source = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    local = (quad - (x0, y0)).astype(np.float32)
    matrix = cv2.getPerspectiveTransform(source, local)
    warped = cv2.warpPerspective(image, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(outline, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    window = world.image[y0:y1, x0:x1]
    world.image[y0:y1, x0:x1] = window * (1 - mask[..., None]) + warped * mask[..., None]
    world.alpha[y0:y1, x0:x1] = np.maximum(world.alpha[y0:y1, x0:x1], mask)


def _paper(rng: random.Random, frame: tuple[int, int], cube: np.ndarray) -> np.ndarray:
    """A pale table close to the cubes' own colour ``cube`` (BGR): a few Lab units apart,
    like ivory cubes on white paper."""
    width, height = frame
    lab = cv2.cvtColor(cube.reshape(1, 1, 3).astype(np.uint8), cv2.COLOR_BGR2LAB)
    lab = lab.astype(np.float32)[0, 0]
    hue = rng.uniform(0, 2 * math.pi)
    apart = rng.uniform(6, 20)
    lab += (rng.uniform(0, 14), apart * math.cos(hue), apart * math.sin(hue))
    pixel = np.clip(lab, 0, 255).astype(np.uint8).reshape(1, 1, 3)
    base = cv2.cvtColor(pixel, cv2.COLOR_LAB2BGR).astype(np.float32)[0, 0]
    small = np.random.default_rng(rng.randrange(2**32)).normal(0, 1, (12, 16)).astype(np.float32)
    texture = cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)
    return np.asarray(base[None, None, :] * (1 + 0.03 * texture[..., None]))


def render_loose_sides(
    seed: int, *, frame: tuple[int, int] = (1024, 768), painter: FacePainter | None = None
) -> Scene:
    """The 13 Ad-Lib cubes rolled loose, each showing the sides that face the camera."""
    rng = random.Random(seed)
    painter = painter or _default_painter(rng)
    faces = [str(face) for face in CubeSet.load("adlib").roll(rng)]
    side = CUBE * 9
    pad = CUBE * 1.5
    world = _World(int(side + 2 * pad), int(side * 0.75 + 2 * pad))
    box = (pad, pad, pad + side, pad + side * 0.75)
    # The point below the camera: near the middle of the roll, not always on it.
    nadir = np.array(
        [
            pad + side * rng.uniform(0.3, 0.7),
            pad + side * 0.75 * rng.uniform(0.3, 0.7),
        ]
    )
    # Cubes stand apart here (touching cubes hide each other's sides), their displaced tops
    # too.
    centers = _apart(rng, len(faces), box, nadir, 1 + LIFT[1])
    lift = rng.uniform(*LIFT)
    light = rng.uniform(0, 2 * math.pi)
    shadow = rng.uniform(0.3, 2.0)
    rim = rng.uniform(0.0, 0.55)
    # Nearer cubes last: a cube's sides never cover a neighbour's top that way.
    order = sorted(range(len(faces)), key=lambda k: -float(np.linalg.norm(centers[k] - nadir)))
    for k in order:
        add_cube_with_sides(
            world,
            painter,
            rng,
            faces[k],
            centers[k],
            rng.uniform(0, 360),
            nadir,
            lift,
            light,
            shadow,
            rim,
        )
    coverage = rng.uniform(0.3, 0.6)
    margin = pad * 0.5
    homography = _camera(
        rng,
        (margin, margin, side + 2 * pad - margin, side * 0.75 + 2 * pad - margin),
        frame,
        coverage,
        15,
    )
    # Half the rolls lie on pale paper, where the cubes' colour stands out least.
    if rng.random() < 0.5:
        blank = painter("#", CUBE, rng).reshape(-1, 3).astype(np.float32)
        cube = np.median(blank[blank.sum(1) >= np.percentile(blank.sum(1), 50)], axis=0)
        image = _photograph(rng, world, homography, frame, _paper(rng, frame, cube))
    else:
        image = _photograph(rng, world, homography, frame)
    placed = _placed(world, homography, np.eye(2, dtype=int), cells_origin=False)
    return Scene("loose", "adlib", image, placed, None, None, False)


def main() -> None:
    parser = argparse.ArgumentParser(description="Render one loose roll with cube sides.")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    scene = render_loose_sides(args.seed)
    cv2.imwrite(args.out, scene.image)
    print(" ".join(cube.face for cube in scene.cubes))


if __name__ == "__main__":
    main()
