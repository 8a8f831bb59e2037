"""Photos of cubes on a table, with their ground truth, rendered from the rulebooks and the
cube sets alone (issue 48, item 7).

Kinds of scene:

- ``crossword``: the 13 Ad-Lib cubes thrown, a crossword laid from some of them (the
  ``best`` search's, for the roll), the rest lying loose beside it;
- ``single``: one cube thrown alone (who starts), Ad-Lib or Boggle, its top and one or
  two sides in view, at any turn;
- ``closeup``: one Boggle cube filling the frame, its rounded edges cut off, soft focus;
- ``condensed``: a 4x4 Boggle tray printed in a narrow font (a tall, narrow O);
- ``tray``: a 4x4 Boggle tray.

Each scene varies the camera (tilt, turn, distance, lens), the light, the table, the
kit's font, ink and cube colour, the blur, the noise and the JPEG quality, all drawn from
one seed: the same seed (and the same crossword for its roll) gives the same photo.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from engine.cubes import CubeSet

from .camera import (
    Camera,
    Light,
    box_faces,
    cast_shadows,
    paste,
    shadow_polygon,
    visible,
)
from .faceprint import Printing, face_texture, random_printing
from .tables import KINDS as TABLES
from .tables import draw_table, finish

KINDS = ("crossword", "single", "closeup", "condensed", "tray")
SIZES = ((1600, 1200), (1200, 1600), (1440, 1080), (2016, 1512), (1080, 1440))
SEED_STRIDE = {kind: index * 1_000_003 for index, kind in enumerate(KINDS)}


@dataclass(frozen=True)
class Die:
    """One cube of a set: its six faces and their printed values (None: no value)."""

    faces: tuple[str, ...]
    values: tuple[int | None, ...]


def dice_of(set_name: str) -> list[Die]:
    cubes = CubeSet.load(set_name)
    dice = []
    for die in cubes.dice:
        faces = tuple(str(face) for face in die.faces)
        values = tuple(
            (cubes.value(face) if cubes.values and str(face) != "*" else None) for face in die.faces
        )
        dice.append(Die(faces, values))
    return dice


@dataclass
class Cube:
    """A cube on the table: its die, the face up, where it stands and how it is turned
    (``yaw``: the direction its top's letter stands upright, in degrees)."""

    die: Die
    top: int
    x: float
    y: float
    yaw: float
    z: float = 0.0
    in_grid: bool = False

    @property
    def face(self) -> str:
        return self.die.faces[self.top]


@dataclass(frozen=True)
class Seen:
    """One cube top in the photo: its face and where its middle is, in pixels."""

    face: str
    x: float
    y: float
    in_grid: bool
    size: float  # the top's edge in pixels


@dataclass(frozen=True)
class Truth:
    kind: str
    game: str
    seed: int
    faces: tuple[Seen, ...]
    roll: tuple[str, ...] | None = None
    grid: tuple[str, ...] | None = None  # the crossword, as `cuberef score --grid` takes it
    score: int | None = None
    rows: tuple[tuple[str, ...], ...] | None = None  # a tray's faces as the photo shows them
    notes: dict[str, object] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class Scene:
    image: np.ndarray  # BGR uint8
    truth: Truth
    jpeg_quality: int

    def save(self, folder: Path) -> Path:
        path = Path(folder) / f"{self.truth.kind}-{self.truth.seed}.jpg"
        cv2.imwrite(str(path), self.image, [cv2.IMWRITE_JPEG_QUALITY, self.jpeg_quality])
        path.with_suffix(".json").write_text(json.dumps(self.truth.to_json(), indent=1))
        return path


# --- crosswords -------------------------------------------------------------------------

Crosswords = Callable[[Sequence[str]], list[str]]


class BestCrossword:
    """The crossword for some thrown faces from ``cuberef best`` (Scribbage's rules take
    any faces, so the crossword may leave cubes out), kept in a JSON cache so that a
    seed renders the same photo again (the search's result depends on its time)."""

    def __init__(self, seconds: float = 2.0, cache: Path | None = None) -> None:
        self.seconds = seconds
        self.cache = cache
        self.known: dict[str, list[str]] = {}
        if cache is not None and cache.is_file():
            self.known = json.loads(cache.read_text())

    def __call__(self, faces: Sequence[str]) -> list[str]:
        key = " ".join(faces)
        if key not in self.known:
            command = [*cuberef_command(), "best", "--game", "scribbage", "--roll", key]
            command += ["--seconds", str(self.seconds), "--workers", "1", "--json"]
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            self.known[key] = list(json.loads(done.stdout)["grid"])
            if self.cache is not None:
                self.cache.parent.mkdir(parents=True, exist_ok=True)
                fresh = self.cache.with_suffix(f".{os.getpid()}.tmp")
                fresh.write_text(json.dumps(self.known, indent=0))
                fresh.replace(self.cache)  # whole, for another process reading it
        return list(self.known[key])


def cuberef_command() -> list[str]:
    """The installed ``cuberef`` beside this Python, else the module run by it."""
    script = Path(sys.executable).parent / "cuberef"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "device.cli"]


def crossword_score(grid: Sequence[str], values: dict[str, int], unused: Sequence[int]) -> int:
    """The rulebook's score: every across and down word of two or more letters adds its
    letters' values (a joker, written in lower case, adds nothing; a crossing letter
    counts in both words), less the values of the cubes left unused."""
    width = max(len(row) for row in grid)
    rows = [row.ljust(width, ".").replace(" ", ".") for row in grid]
    lines = rows + ["".join(row[c] for row in rows) for c in range(width)]
    total = 0
    for line in lines:
        for word in line.split("."):
            if len(word) >= 2:
                total += sum(values.get(ch, 0) for ch in word)  # lower case: a joker, 0
    return total - sum(unused)


# --- the scenes -------------------------------------------------------------------------


def render(kind: str, seed: int, crosswords: Crosswords | None = None) -> Scene:
    """The scene of ``kind`` for ``seed``."""
    rng = np.random.default_rng(seed + SEED_STRIDE[kind])
    if kind == "crossword":
        return crossword_scene(rng, seed, crosswords or BestCrossword())
    if kind == "single":
        return single_scene(rng, seed)
    if kind == "closeup":
        return closeup_scene(rng, seed)
    if kind in ("tray", "condensed"):
        return tray_scene(rng, seed, condensed=kind == "condensed")
    raise ValueError(f"no scene kind {kind!r}; the kinds are {', '.join(KINDS)}")


def crossword_scene(rng: np.random.Generator, seed: int, crosswords: Crosswords) -> Scene:
    dice = dice_of("adlib")
    order = rng.permutation(len(dice))
    tops = [int(rng.integers(6)) for _ in dice]
    if rng.random() < 0.6:  # show a joker more often than chance, to measure it
        for index, die in enumerate(dice):
            if "*" in die.faces and rng.random() < 0.6:
                tops[index] = die.faces.index("*")
    thrown = [Cube(dice[i], tops[i], 0.0, 0.0, 0.0) for i in order]
    roll = [cube.face for cube in thrown]
    # the crossword is laid from the first cubes; the last few are left loose
    loose_count = int(rng.choice([0, 1, 2, 3, 4, 5], p=[0.2, 0.2, 0.2, 0.2, 0.1, 0.1]))
    grid = crosswords(roll[: len(roll) - loose_count])
    # each cell of the crossword takes a thrown cube with that face up
    free = list(thrown)
    angle = float(rng.uniform(0, 360))  # on the table
    view = float(rng.uniform(-15, 15) if rng.random() < 0.5 else rng.uniform(0, 360))
    a = np.radians(angle)
    across = np.array([np.cos(a), np.sin(a)])
    down = -np.array([-np.sin(a), np.cos(a)])
    pitch = 1.0 + float(rng.uniform(0.0, 0.1))
    laid: list[Cube] = []
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch in ". ":
                continue
            want = "*" if ch.islower() else ch
            cube = next(cube for cube in free if cube.face == want)
            free.remove(cube)
            spot = (c * across + r * down) * pitch + rng.uniform(-0.04, 0.04, 2)
            cube.x, cube.y = float(spot[0]), float(spot[1])
            cube.yaw = angle + float(rng.normal(0, 2.5))
            cube.in_grid = True
            laid.append(cube)
    loose = scatter(rng, laid, free)
    values = {str(f): v for f, v in CubeSet.load("adlib").values.items() if str(f) != "*"}
    unused = [values.get(cube.face, 0) for cube in free]
    truth_score = crossword_score(grid, values, unused)
    printing = random_printing(rng, values=True, underline=False)
    cubes = laid + loose
    # the camera's yaw that shows the crossword turned by ``view`` in the photo
    camera = framing(rng, cubes, tilt=(0, 35), fill=(0.75, 0.95), yaw=90 + angle - view)
    image = photograph(rng, camera, cubes, printing)
    seen = tuple(seen_tops(camera, cubes))
    truth = Truth(
        "crossword",
        "adlib",
        seed,
        seen,
        roll=tuple(roll),
        grid=tuple(grid),
        score=truth_score,
        notes={**kit(printing), "turn": view},
    )
    return finished(rng, image, truth, blur=(0.0, 1.2))


def scatter(rng: np.random.Generator, laid: list[Cube], free: list[Cube]) -> list[Cube]:
    """Lay the unused cubes loose beside the crossword, apart from it and each other."""
    xs = np.array([cube.x for cube in laid])
    ys = np.array([cube.y for cube in laid])
    centre = np.array([xs.mean(), ys.mean()])
    radius = float(np.max(np.hypot(xs - centre[0], ys - centre[1]))) + 1.0
    side = rng.uniform(0, 2 * np.pi)
    placed: list[Cube] = []
    for cube in free:
        for _ in range(500):
            turn = side + rng.uniform(-0.9, 0.9)
            reach = radius + 0.6 + rng.uniform(0.2, 1.5)
            x, y = centre + reach * np.array([np.cos(turn), np.sin(turn)])
            near_grid = np.min(np.hypot(xs - x, ys - y)) < 2.0
            near_loose = any(np.hypot(p.x - x, p.y - y) < 1.8 for p in placed)
            if not near_grid and not near_loose:
                break
        cube.x, cube.y, cube.yaw = float(x), float(y), float(rng.uniform(0, 360))
        placed.append(cube)
    return placed


def single_scene(rng: np.random.Generator, seed: int) -> Scene:
    game = "adlib" if rng.random() < 0.5 else "boggle"
    dice = dice_of("adlib" if game == "adlib" else "boggle-1987")
    die = dice[rng.integers(len(dice))]
    tricky = [i for i, f in enumerate(die.faces) if f in ("N", "Z", "M", "W", "S", "*")]
    top = int(rng.choice(tricky)) if tricky and rng.random() < 0.5 else int(rng.integers(6))
    cube = Cube(die, top, 0.0, 0.0, float(rng.uniform(0, 360)))
    printing = random_printing(rng, values=game == "adlib", underline=game == "boggle")
    camera = framing(rng, [cube], tilt=(22, 50), fill=(0.15, 0.45))
    image = photograph(rng, camera, [cube], printing)
    truth = Truth("single", game, seed, tuple(seen_tops(camera, [cube])), notes=kit(printing))
    return finished(rng, image, truth, blur=(0.0, 1.5))


def closeup_scene(rng: np.random.Generator, seed: int) -> Scene:
    dice = dice_of("boggle-1987")
    die = dice[rng.integers(len(dice))]
    cube = Cube(die, int(rng.integers(6)), 0.0, 0.0, float(rng.uniform(0, 360)))
    printing = random_printing(rng, values=False, underline=True)
    size = SIZES[rng.integers(len(SIZES))]
    tilt = float(rng.uniform(0, 20))
    target = np.array([0.0, 0.0, 1.0]) + np.r_[rng.uniform(-0.05, 0.05, 2), 0]
    camera = Camera.look_at(
        target, 3.0, tilt, float(rng.uniform(0, 360)), float(rng.uniform(-10, 10)), 1000.0, size
    )
    top = box_faces(np.array([cube.x, cube.y, 0.0]), (1.0, 1.0, 1.0), cube.yaw)["top"]
    corners = camera.project(top.corners)
    edge = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))
    # the face's edge longer than the frame is wide: its rounded rim is cut off
    camera = camera.zoomed(float(rng.uniform(1.02, 1.25)) * min(size) / edge)
    image = photograph(rng, camera, [cube], printing)
    truth = Truth("closeup", "boggle", seed, tuple(seen_tops(camera, [cube])), notes=kit(printing))
    soft = float(rng.uniform(0.004, 0.011)) * min(size)
    return finished(rng, image, truth, blur=(soft, soft))


BOGGLE_O_DICE = ("ABBJOO", "ACHOPS", "AOOTTW", "EIOSST", "CIMOTU")


def tray_scene(rng: np.random.Generator, seed: int, condensed: bool) -> Scene:
    dice = dice_of("boggle-1987")
    order = [dice[i] for i in rng.permutation(len(dice))]
    tops = [int(rng.integers(6)) for _ in order]
    if condensed:  # the narrow O is what this scene is for: show two to four of them
        with_o = [i for i, d in enumerate(order) if "".join(sorted(d.faces)) in BOGGLE_O_DICE]
        for i in rng.choice(with_o, size=int(rng.integers(2, 5)), replace=False):
            tops[i] = order[i].faces.index("O")
    pitch = float(rng.uniform(1.12, 1.3))
    tray_yaw = float(rng.integers(4) * 90 + rng.uniform(-8, 8))
    a = np.radians(tray_yaw)
    ex = np.array([np.cos(a), np.sin(a)])
    ey = np.array([-np.sin(a), np.cos(a)])
    floor = 0.3
    cubes = []
    for k, (die, top) in enumerate(zip(order, tops, strict=True)):
        r, c = divmod(k, 4)
        spot = ((c - 1.5) * ex - (r - 1.5) * ey) * pitch + rng.uniform(-0.04, 0.04, 2)
        yaw = tray_yaw + 90 * int(rng.integers(4)) + float(rng.normal(0, 3))
        cubes.append(Cube(die, top, float(spot[0]), float(spot[1]), yaw, z=floor, in_grid=True))
    printing = random_printing(rng, values=False, underline=True, condensed=condensed)
    tray = Tray(tray_yaw, 4 * pitch + 0.9, floor, tray_colour(rng), pitch)
    camera = framing(
        rng, cubes, tilt=(0, 30), fill=(0.7, 0.95), yaw=90 + tray_yaw + float(rng.uniform(-8, 8))
    )
    image = photograph(rng, camera, cubes, printing, tray=tray)
    seen = list(seen_tops(camera, cubes))
    truth = Truth(
        "condensed" if condensed else "tray",
        "boggle",
        seed,
        tuple(seen),
        rows=rows_as_shown(seen),
        notes=kit(printing),
    )
    return finished(rng, image, truth, blur=(0.0, 1.0))


def rows_as_shown(seen: list[Seen]) -> tuple[tuple[str, ...], ...]:
    """A 4x4 tray's faces row by row as the photo shows them: top row first."""
    by_y = sorted(seen, key=lambda s: s.y)
    return tuple(
        tuple(s.face for s in sorted(by_y[r * 4 : r * 4 + 4], key=lambda s: s.x)) for r in range(4)
    )


@dataclass(frozen=True)
class Tray:
    yaw: float
    side: float
    height: float
    colour: tuple[float, float, float]
    pitch: float


def tray_colour(rng: np.random.Generator) -> tuple[float, float, float]:
    colours = ((0.6, 0.3, 0.1), (0.1, 0.45, 0.9), (0.15, 0.15, 0.15), (0.55, 0.2, 0.2))
    colour = colours[rng.integers(len(colours))]
    return (float(colour[0]), float(colour[1]), float(colour[2]))


# --- the camera and the photo -----------------------------------------------------------


def framing(
    rng: np.random.Generator,
    cubes: list[Cube],
    tilt: tuple[float, float],
    fill: tuple[float, float],
    yaw: float | None = None,
) -> Camera:
    """A camera that sees every cube, the layout filling ``fill`` of the frame."""
    size = SIZES[rng.integers(len(SIZES))]
    points = np.concatenate(
        [box_faces(np.array([c.x, c.y, c.z]), (1.0, 1.0, 1.0), c.yaw)["top"].corners for c in cubes]
    )
    points = np.concatenate([points, points - [0, 0, 1.0]])
    centre = (points.min(axis=0) + points.max(axis=0)) / 2
    extent = float(np.ptp(points[:, :2], axis=0).max()) + 1.0
    fov = np.radians(rng.uniform(50, 70))
    focal = size[0] / (2 * np.tan(fov / 2))
    distance = max(4.0, extent / (2 * np.tan(fov / 2)) * rng.uniform(1.2, 2.6))
    camera = Camera.look_at(
        centre,
        distance,
        float(rng.uniform(*tilt)),
        float(rng.uniform(0, 360) if yaw is None else yaw),
        float(rng.uniform(-4, 4)),
        focal,
        size,
    )
    pix = camera.project(points) - np.array(size) / 2
    reach = np.abs(pix).max(axis=0) / (np.array(size) / 2)
    return camera.zoomed(float(rng.uniform(*fill)) / float(reach.max()))


def random_light(rng: np.random.Generator) -> Light:
    elevation = np.radians(rng.uniform(35, 80))
    azimuth = rng.uniform(0, 2 * np.pi)
    direction = np.array(
        [
            np.cos(elevation) * np.cos(azimuth),
            np.cos(elevation) * np.sin(azimuth),
            np.sin(elevation),
        ]
    )
    warmth = rng.uniform(-0.08, 0.08)
    tint = np.array([1 - warmth, 1.0, 1 + warmth])
    return Light(direction, float(rng.uniform(0.45, 0.65)), float(rng.uniform(0.3, 0.55)), tint)


def texture_size(corners_px: np.ndarray) -> int:
    edge = float(np.max(np.linalg.norm(np.roll(corners_px, 1, axis=0) - corners_px, axis=1)))
    for n in (64, 128, 256, 512):
        if n >= edge:
            return n
    return 1024  # a face larger than this is soft anyway


def photograph(
    rng: np.random.Generator,
    camera: Camera,
    cubes: list[Cube],
    printing: Printing,
    tray: Tray | None = None,
) -> np.ndarray:
    """The scene drawn through the camera: table, shadows, tray, cubes (float BGR)."""
    light = random_light(rng)
    centre = np.array([np.mean([c.x for c in cubes]), np.mean([c.y for c in cubes]), 0.0])
    table = draw_table(camera, str(rng.choice(TABLES)), rng, centre) * light.tint[None, None, :]
    image: np.ndarray = table.astype(np.float32) * float(light.shade(np.array([0.0, 0.0, 1.0])))
    px_per_unit = float(
        np.linalg.norm(np.diff(camera.project(np.array([centre, centre + [1, 0, 0]])), axis=0))
    )
    softness = px_per_unit * rng.uniform(0.05, 0.2)
    shadows = []
    if tray is not None:
        tray_faces = box_faces(centre, (tray.side, tray.side, tray.height), tray.yaw)
        corners = np.concatenate([q.corners for q in tray_faces.values()])
        shadows.append(shadow_polygon(camera, corners, light, 0.0))
    for cube in cubes:
        corners = box_faces(np.array([cube.x, cube.y, cube.z]), (1, 1, 1), cube.yaw)["top"].corners
        base = corners - [0, 0, 1.0]
        shadows.append(shadow_polygon(camera, np.concatenate([corners, base]), light, cube.z))
    if tray is not None:
        cast_shadows(image, shadows[:1], softness, 0.45)
        draw_tray(image, camera, tray, centre, light)
        shadows = shadows[1:]
    cast_shadows(image, shadows, softness, float(rng.uniform(0.3, 0.55)))
    for cube in sorted(cubes, key=lambda c: -camera.depth(np.array([c.x, c.y, c.z + 0.5]))):
        draw_cube(image, camera, cube, printing, light, rng)
    return image


def draw_tray(
    image: np.ndarray, camera: Camera, tray: Tray, centre: np.ndarray, light: Light
) -> None:
    faces = box_faces(centre, (tray.side, tray.side, tray.height), tray.yaw)
    n = 256
    colour = np.ones((n, n, 3), np.float32) * np.asarray(tray.colour, np.float32)
    alpha = np.ones((n, n), np.float32)
    for name, quad in faces.items():
        if not visible(camera, quad):
            continue
        texture = colour
        if name == "top":  # the wells the cubes sit in, a shade darker
            texture = colour.copy()
            cell = n * tray.pitch / tray.side
            for r in range(4):
                for c in range(4):
                    mx = n / 2 + (c - 1.5) * cell
                    my = n / 2 + (r - 1.5) * cell
                    h = cell * 0.47
                    cv2.rectangle(
                        texture,
                        (int(mx - h), int(my - h)),
                        (int(mx + h), int(my + h)),
                        tuple(0.7 * np.asarray(tray.colour)),
                        -1,
                    )
        shade = light.shade(quad.normal) * light.tint[None, None, :]
        paste(image, texture, alpha, camera.project(quad.corners), shade)


def draw_cube(
    image: np.ndarray,
    camera: Camera,
    cube: Cube,
    printing: Printing,
    light: Light,
    rng: np.random.Generator,
) -> None:
    # the body inside the rounded faces: where three rounded corners meet, the cube is
    # cut off round, not open; a box a little smaller fills the notches between faces
    inset = 0.3 * printing.corner
    side = 1 - 2 * inset
    inner = box_faces(np.array([cube.x, cube.y, cube.z + inset]), (side, side, side), cube.yaw)
    body = np.ones((8, 8, 3), np.float32) * np.asarray(printing.cube, np.float32) * 0.92
    for quad in inner.values():
        if visible(camera, quad):
            shade = light.shade(quad.normal) * light.tint[None, None, :]
            paste(image, body, np.ones((8, 8), np.float32), camera.project(quad.corners), shade)
    faces = box_faces(np.array([cube.x, cube.y, cube.z]), (1.0, 1.0, 1.0), cube.yaw)
    others = [i for i in range(6) if i != cube.top]
    rng.shuffle(others)
    order = ["+x", "-x", "+y", "-y", "top"]
    for k, name in enumerate(order):
        quad = faces[name]
        if not visible(camera, quad):
            continue
        corners_px = camera.project(quad.corners)
        n = texture_size(corners_px)
        index = cube.top if name == "top" else others[k]
        turn = 0.0 if name == "top" else float(90 * rng.integers(4))
        texture, alpha = face_texture(
            cube.die.faces[index], cube.die.values[index], printing, n, turn, rng
        )
        shade = light.shade(quad.normal) * light.tint[None, None, :]
        paste(image, texture, alpha, corners_px, shade)


def kit(printing: Printing) -> dict[str, object]:
    """The kit's printing, kept beside the truth to explain a wrong reading."""
    notes = asdict(printing)
    if not printing.values:  # no joker on a Boggle cube
        del notes["joker"]
    return notes


def seen_tops(camera: Camera, cubes: list[Cube]) -> list[Seen]:
    seen = []
    for cube in cubes:
        top = box_faces(np.array([cube.x, cube.y, cube.z]), (1.0, 1.0, 1.0), cube.yaw)["top"]
        corners = camera.project(top.corners)
        x, y = corners.mean(axis=0)
        edge = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))
        seen.append(Seen(cube.face, float(x), float(y), cube.in_grid, edge))
    return seen


def finished(
    rng: np.random.Generator, image: np.ndarray, truth: Truth, blur: tuple[float, float]
) -> Scene:
    sharpness = float(rng.uniform(*blur))
    noise_level = float(rng.uniform(0.005, 0.03))
    photo = finish(image, rng, sharpness, noise_level)
    return Scene(photo, truth, int(rng.integers(55, 96)))
