"""Frame sequences of one table under a still camera: the cubes laid into a crossword,
moved, and covered by a hand from frame to frame, for the live reader's tests and its
benchmark (``cuberef watch``).

    table = Table(seed=3, faces="M O N E Y S T E B U J O Q".split(), frame=(800, 600))
    shot = Shot({0: (3, 0), 1: (3, 1), 2: (3, 2), 3: (3, 3), 4: (3, 4)})   # MONEY laid
    image = table.photo(shot, number=7)
    table.rows(shot)                                                      # ('MONEY',)

The table, the camera, the light and each cube's print stay the same for the whole
sequence (``models.scenes`` draws them); each frame has noise of its own, as a camera's
frames do. A cube not in the shot's crossword lies loose at a spot of its own beside it,
turned at random. A hand (``models.tabletop.hands``) reaches in from the frame's edge, its
first finger's tip where the shot puts it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from models.scenes import CUBE, _camera, _default_painter, _photograph, _scatter, _table, _World
from models.tabletop import hands
from models.tabletop.raster import Canvas

Cell = tuple[int, int]
#: Grey levels of the noise each frame adds, as a camera's sensor does.
FRAME_NOISE = 2.0


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand reaching in: its first finger's tip at ``tip`` (shares of the frame's width
    and height), with ``fingers`` fingers; the same ``seed`` draws the same hand."""

    tip: tuple[float, float]
    fingers: int = 2
    seed: int = 0


@dataclass(frozen=True, slots=True)
class Shot:
    """What one frame shows: the cubes laid in the crossword (cube number -> cell, row and
    column as laid) and a hand, if one is in the picture."""

    cells: Mapping[int, Cell] = field(default_factory=dict)
    hand: Hand | None = None


class Table:
    """One table, camera and set of painted cubes; ``photo`` draws a frame of it."""

    def __init__(
        self,
        seed: int,
        faces: Sequence[str],
        *,
        frame: tuple[int, int] = (800, 600),
        lattice: tuple[int, int] = (6, 7),
        tilt: float = 12.0,
        coverage: tuple[float, float] = (0.6, 0.8),
    ) -> None:
        rng = random.Random(seed)
        self.seed = seed
        self.faces = tuple(faces)
        self.frame = frame
        painter = _default_painter(rng)
        self.prints = [painter(face, CUBE, rng) for face in self.faces]
        self.pitch = CUBE * 1.02
        self.pad = CUBE * 1.5
        # The crossword's lattice (rows, columns: room for its words), and to its right
        # the loose cubes' spots.
        extent = (lattice[1] * self.pitch, max(lattice[0] * self.pitch, CUBE * 5))
        # Room for every cube to lie loose, each in about 2.6 cubes' area of its own.
        loose = max(4.0, 2.6 * len(self.faces) * CUBE / extent[1]) * CUBE
        box = (
            self.pad + extent[0] + CUBE,
            self.pad,
            self.pad + extent[0] + CUBE + loose,
            self.pad + extent[1],
        )
        self.size = (int(box[2] + self.pad), int(extent[1] + 2 * self.pad))
        self.spots = _scatter(rng, len(self.faces), box, [], CUBE * 1.45)
        self.angles = [rng.uniform(0, 360) for _ in self.faces]
        self.turns = [rng.randrange(4) for _ in self.faces]
        width, height = self.size
        world_box = (
            self.pad * 0.5,
            self.pad * 0.5,
            width - self.pad * 0.5,
            height - self.pad * 0.5,
        )
        self.homography = _camera(rng, world_box, frame, rng.uniform(*coverage), tilt)
        self.table = _table(rng, frame)
        self.light_seed = rng.randrange(2**32)
        self._photos: dict[tuple[tuple[int, Cell], ...], np.ndarray] = {}

    @property
    def cube_side(self) -> float:
        """A cube's side in the image, in pixels (about: the camera tilts a little)."""
        scale = np.sqrt(abs(np.linalg.det(self.homography[:2, :2])))
        return float(CUBE * scale)

    def where(self, cell: Cell) -> tuple[float, float]:
        """Where a cube laid in ``cell`` lies in the frame (shares of its width and height):
        for a hand to point at."""
        r, c = cell
        centre = np.array(
            [[[self.pad + (c + 0.5) * self.pitch, self.pad + (r + 0.5) * self.pitch]]]
        )
        x, y = cv2.perspectiveTransform(centre, self.homography)[0, 0]
        return float(x) / self.frame[0], float(y) / self.frame[1]

    def rows(self, shot: Shot) -> tuple[str, ...]:
        """The crossword the shot lays, as text rows (jokers as ``*``), or () for none."""
        if not shot.cells:
            return ()
        r0 = min(r for r, _ in shot.cells.values())
        c0 = min(c for _, c in shot.cells.values())
        at = {(r - r0, c - c0): self.faces[k] for k, (r, c) in shot.cells.items()}
        rows = max(r for r, _ in at) + 1
        cols = max(c for _, c in at) + 1
        return tuple("".join(at.get((r, c), ".") for c in range(cols)) for r in range(rows))

    def photo(self, shot: Shot, number: int = 0) -> np.ndarray:
        """Frame ``number`` of the sequence, showing ``shot`` (BGR, uint8)."""
        key = tuple(sorted(shot.cells.items()))
        still = self._photos.get(key)
        if still is None:
            still = self._photos[key] = self._photograph(shot.cells)
        image = still.astype(np.float32)
        if shot.hand is not None:
            self._draw_hand(image, shot.hand)
        noise = np.random.default_rng([self.seed, number]).normal(0, FRAME_NOISE, image.shape)
        return np.asarray(np.clip(image + noise, 0, 255).astype(np.uint8))

    def _photograph(self, cells: Mapping[int, Cell]) -> np.ndarray:
        world = _World(*self.size)
        for k, face in enumerate(self.faces):
            if k in cells:
                r, c = cells[k]
                centre = (self.pad + (c + 0.5) * self.pitch, self.pad + (r + 0.5) * self.pitch)
                world.add_cube(self.prints[k], face, centre, 0.0, 0, (r, c))
            else:
                x, y = self.spots[k]
                world.add_cube(
                    self.prints[k], face, (float(x), float(y)), self.angles[k], self.turns[k], None
                )
        return _photograph(
            random.Random(self.light_seed), world, self.homography, self.frame, self.table
        )

    def _draw_hand(self, image: np.ndarray, hand: Hand) -> None:
        width, height = self.frame
        canvas = Canvas(width, height)
        canvas.color = image
        tip = np.array([hand.tip[0] * width, hand.tip[1] * height])
        rng = np.random.default_rng([self.seed, hand.seed])
        hands.hand(canvas, rng, tip, self.cube_side * 1.05, fingers=hand.fingers)


def laid(
    table: Table, rows: Sequence[str], before: Mapping[int, Cell] | None = None
) -> dict[int, Cell]:
    """The cells that lay ``rows`` (text rows, ``.`` for an empty cell) with the table's
    cubes, each cube used once, the crossword's top left at row 1, column 1 of the lattice.
    A cube that ``before`` lays in a cell the rows keep, showing its face there, stays.

    Raises ValueError when the table's cubes cannot lay it."""
    wanted = {
        (r + 1, c + 1): face
        for r, row in enumerate(rows)
        for c, face in enumerate(row)
        if face not in ". "
    }
    cells = {k: cell for k, cell in (before or {}).items() if wanted.get(cell) == table.faces[k]}
    free = [k for k in range(len(table.faces)) if k not in cells]
    for cell, face in sorted(wanted.items()):
        if cell in cells.values():
            continue
        k = next((k for k in free if table.faces[k] == face), None)
        if k is None:
            raise ValueError(f"the table has no cube {face!r} left for the cell {cell}")
        free.remove(k)
        cells[k] = cell
    return cells


def building(table: Table, stages: Sequence[Sequence[str]], rest: int = 4) -> list[Shot]:
    """The frames of a crossword built stage by stage (each stage's rows in the finished
    crossword's frame): the cubes loose for ``rest`` frames, then for each stage a hand
    that comes in over three frames, lays the stage's new cubes and goes out over two,
    and ``rest`` still frames after it."""
    shots = [Shot()] * rest
    cells: dict[int, Cell] = {}
    for number, rows in enumerate(stages):
        laid_now = laid(table, rows, cells)
        new = [cell for k, cell in laid_now.items() if k not in cells]
        target = table.where(new[len(new) // 2]) if new else (0.5, 0.5)
        path = [(0.5 + (target[0] - 0.5) * t, 1.1 + (target[1] - 1.1) * t) for t in (0.4, 0.7, 1)]
        path += [(target[0] + 0.1, target[1] + 0.25), (target[0] + 0.2, 0.95)]
        for k, tip in enumerate(path):
            shown = laid_now if k >= 2 else cells
            shots.append(Shot(shown, Hand(tip, fingers=2, seed=number)))
        cells = laid_now
        shots += [Shot(cells)] * rest
    return shots
