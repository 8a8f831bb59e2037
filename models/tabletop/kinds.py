"""What each kind of scene lays out: the cube set, its look, where the cubes lie, the tray
and how it is held, and what the camera must frame.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from engine.cubes import CubeSet
from models.scenes import TRAY_GAMES
from models.tabletop import layouts, looks
from models.tabletop import tray as trays
from models.tabletop.arrays import Array
from models.tabletop.layouts import Spot
from models.tabletop.stage import Pose

TRAY_SETS = {
    4: ("boggle-1987", "boggle-1976"),
    5: ("big-boggle-1979", "boggle-master-1993"),
    6: ("super-big-boggle-2011",),
}
LOOSE_SETS = ("adlib", "boggle-1987", "boggle-1976", "big-boggle-1979", "super-big-boggle-2011")


@dataclass(slots=True)
class Layout:
    """What a kind lays out, in its own frame (``pose`` takes it into the world)."""

    game: str
    look: looks.CubeLook
    spots: list[Spot]
    pose: Pose
    #: Height the cubes stand at in the layout's frame (the tray's floor).
    stand: float = 0.0
    tray: trays.Tray | None = None
    tray_look: looks.TrayLook | None = None
    pitch: float = 0.0
    #: Points the camera frames (world); the cubes' tops by default.
    frame: list[Array] = field(default_factory=list)
    coverage: tuple[float, float] = (0.3, 0.95)
    #: Held in a hand (a tray lifted and tilted): a thumb lies on its rim.
    held: bool = False
    #: How likely a hand reaches into the picture.
    hands: float = 0.2
    #: The camera looks from straight above to this many degrees off the vertical: loose
    #: cubes from a phone held low over the table, a tray from nearer above (its walls hide
    #: its cells from lower down).
    slant: float = 50.0
    #: The camera's slant in degrees, where a scene set up by hand fixes it.
    view: float | None = None
    #: The name of the cube set rolled ("" where none is).
    dice: str = ""


def yaw_matrix(angle: float) -> Array:
    """A turn by ``angle`` radians about the vertical."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def _tilt(rng: np.random.Generator, degrees: float) -> Array:
    """A turn by ``degrees`` about a random horizontal axis."""
    axis = rng.uniform(0, 2 * math.pi)
    a = np.array([math.cos(axis), math.sin(axis), 0.0])
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    t = math.radians(degrees)
    return np.asarray(np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * k @ k)


def _tray_layout(rng: np.random.Generator, split: str, seed: int, empty: bool = False) -> Layout:
    size = (4, 5, 6)[seed % 3]
    game = TRAY_GAMES[size]
    names = TRAY_SETS[size]
    cube_set = CubeSet.load(names[int(rng.integers(len(names)))])
    look = looks.cube_look(rng, split, game)
    pitch = look.size * float(rng.uniform(1.08, 1.3))
    tray = trays.build(rng, size, pitch, look.size)
    thrown = [] if empty else layouts.roll(rng, cube_set)
    spots = layouts.tray(rng, thrown, size, pitch, look.size)
    rotation, lift = yaw_matrix(rng.uniform(0, 2 * math.pi)), 0.0
    if rng.random() < 0.2:  # held in a hand, tilted
        rotation = _tilt(rng, float(rng.uniform(8, 28))) @ rotation
        lift = float(rng.uniform(40, 250))
    pose = Pose(rotation, np.array([0, 0, lift]))
    tray_look = looks.tray_look(rng, split)
    out = Layout(game, look, spots, pose, tray.floor_top, tray, tray_look, pitch)
    out.dice = cube_set.name
    out.coverage = (0.25, 0.97)
    out.held = lift > 0
    out.slant = 45.0
    if empty:
        hx, hy = tray.half
        out.frame = [
            pose.point(np.array([x, y, tray.floor_top])) for x in (-hx, hx) for y in (-hy, hy)
        ]
    return out


def _loose_set(rng: np.random.Generator) -> tuple[str, CubeSet, int]:
    name = LOOSE_SETS[int(rng.choice(len(LOOSE_SETS), p=[0.45, 0.15, 0.1, 0.15, 0.15]))]
    cube_set = CubeSet.load(name)
    count = len(cube_set.dice) if name == "adlib" else int(rng.integers(12, 17))
    game = "adlib" if name == "adlib" else "boggle"
    return game, cube_set, count


def _loose_layout(rng: np.random.Generator, split: str, seed: int) -> Layout:
    game, cube_set, count = _loose_set(rng)
    look = looks.cube_look(rng, split, game)
    spots = layouts.loose(rng, layouts.roll(rng, cube_set, count), look.size)
    return Layout(game, look, spots, Pose(), coverage=(0.35, 0.95), dice=cube_set.name)


def _crossword_layout(rng: np.random.Generator, split: str, seed: int) -> Layout:
    look = looks.cube_look(rng, split, "adlib")
    spots = layouts.crossword(rng, layouts.roll(rng, CubeSet.load("adlib")), look.size)
    pose = Pose(yaw_matrix(rng.uniform(0, 2 * math.pi)))
    out = Layout("adlib", look, spots, pose, coverage=(0.3, 0.95), dice="adlib")
    out.pitch = look.size
    return out


def _single_layout(rng: np.random.Generator, split: str, seed: int) -> Layout:
    game, cube_set, _ = _loose_set(rng)
    look = looks.cube_look(rng, split, game)
    count = int(rng.choice([1, 2, 3, 4], p=[0.4, 0.3, 0.15, 0.15]))
    spots = layouts.single(rng, layouts.roll(rng, cube_set, count), look.size)
    return Layout(game, look, spots, Pose(), coverage=(0.04, 0.45), hands=0.4, dice=cube_set.name)


def _empty_layout(rng: np.random.Generator, split: str, seed: int) -> Layout:
    if rng.random() < 0.5:
        return _tray_layout(rng, split, seed, empty=True)
    look = looks.cube_look(rng, split, "boggle")
    out = Layout("", look, [], Pose(), coverage=(0.3, 1.0), hands=0.5)
    side = float(rng.uniform(60, 300))
    out.frame = [np.array([x, y, 0.0]) for x in (-side, side) for y in (-side, side)]
    return out


#: Lays out one scene from its random stream, split and seed.
Arrange = Callable[[np.random.Generator, str, int], Layout]

LAYOUTS: dict[str, Arrange] = {
    "tray": _tray_layout,
    "loose": _loose_layout,
    "crossword": _crossword_layout,
    "single": _single_layout,
    "empty": _empty_layout,
}
