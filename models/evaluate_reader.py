"""Measure the reader on rendered scenes held out from any tuning.

    python -m models.evaluate_reader --scenes 200             # the reader with the face model
    python -m models.evaluate_reader --scenes 200 --geometry  # finding and lattices only
    python -m models.evaluate_reader --scenes 100 --sides     # loose rolls showing cube sides
    python -m models.evaluate_reader --scenes 60 --sides --hide 3 [--no-carve]
    python -m models.evaluate_reader --scenes 150 --tables unseen  # 3D tables never trained on
    python -m models.evaluate_reader --scenes 25 --tables val --kinds single  # who starts

It lives beside the renderers it draws its scenes with, so that ``vision`` (run time) never
imports ``models``. Scenes are split evenly between trays (4x4, 5x5, 6x6), loose rolls and
crosswords (``--kinds`` chooses others, in turn). Their seeds start at ``HELD_OUT`` and were
never used while the reader was developed.
``--sides`` renders only loose rolls, each cube showing the sides that face the camera
(``models.sidescene``). ``--geometry`` reads each cut face as the scene's own cube nearest
to it, so it measures the finding and the lattice fitting, not the face model. ``--hide 3``
makes the finder miss every third top it finds (the first, the fourth, ...), so that what
the reader finds again by carving tops out of blobs is measured; ``--no-carve`` turns that off.
``--tables unseen`` renders the 3D tables of ``models.tabletop`` in what no model was trained
on (held-out fonts, colours and textures, seeds of their own); crosswords there lie at any
turn and are compared the right way up; a crossword that a hand or the frame's edge hides in
part is counted apart, not scored (as a loose cube mostly hidden is not). ``single`` (3D
tables only) is one cube a player thrown apart to see who starts: right when each cube in
view is read once, as its top, and nothing else is read (or, where a hand hides every cube,
when the reader says it found none).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.cubes import CubeSet
from engine.faces import ALPHABET
from engine.games import GAMES
from models.scenes import PlacedCube, Scene, render_scene
from models.sidescene import render_loose_sides
from vision.carve import carve_faces
from vision.crossword import turn_grid
from vision.detect import FaceQuad
from vision.errors import ReadError
from vision.find import find_tops
from vision.models import face_model
from vision.prediction import FacePrediction
from vision.reader import read
from vision.reading import LooseReading, TrayReading
from vision.steps import Accept, ModelLook, Small, Steps

HELD_OUT = 70_000_000
#: The kinds of scene measured by default, in turn.
KINDS = ("tray", "loose", "crossword")
#: A cube whose top is at least this visible should be read.
VISIBLE = 0.6

#: The cube set each scene's game rolls where the scene does not name its own.
SCENE_SETS = {
    "boggle": "boggle-1987",
    "big-boggle": "big-boggle-1979",
    "super-big-boggle": "super-big-boggle-2011",
    "adlib": "adlib",
}


@dataclass(frozen=True, slots=True)
class SceneGame:
    """What the reader needs of a game, for a rendered scene: the cube sets it may have
    rolled (``sets``, the default first; none: the one ``SCENE_SETS`` names)."""

    id: str
    size: int
    sets: tuple[str, ...] = ()

    @property
    def dice(self) -> tuple[tuple[str, str], ...]:
        return tuple((name, name) for name in self.sets or (SCENE_SETS[self.id],))

    def cube_set(self, dice: str | CubeSet | None = None) -> CubeSet:
        if isinstance(dice, CubeSet):
            return dice
        return CubeSet.load(dice or self.dice[0][1])


def scene_game(scene: Scene) -> SceneGame:
    """The game a scene is read as, with the editions the box would try: those of the game
    that sells the cube set the scene rolled (Big Boggle's for a roll of its cubes)."""
    size = len(scene.board) if scene.board is not None else 0
    rolled = scene.dice or SCENE_SETS[scene.game]
    for game in GAMES.values():
        names = tuple(name for _, name in game.dice)
        if rolled in names:
            return SceneGame(scene.game, size, names)
    return SceneGame(scene.game, size, (rolled,))


def _truth(face: str | None) -> FacePrediction:
    """A certain reading of ``face`` (None: no cube), upright."""
    probabilities = tuple(1.0 if f == face else 0.0 for f in (*ALPHABET, None))
    return FacePrediction(face, 0, 1.0, 1.0, probabilities, (1.0, 0.0, 0.0, 0.0))


@dataclass(frozen=True, slots=True)
class GroundTruthLook:
    """Reads a quadrilateral as the scene's cube whose centre is nearest its own, or as no
    cube where none lies within half a side (geometry only)."""

    scene: Scene

    def __call__(
        self,
        image: np.ndarray,
        corners: Sequence[np.ndarray],
        check: bool = True,
        cubes: bool = False,
    ) -> list[FacePrediction]:
        centres = np.array([cube.center for cube in self.scene.cubes])
        out = []
        for quad in corners:
            distances = np.linalg.norm(centres - np.asarray(quad).mean(0), axis=1)
            k = int(np.argmin(distances))
            cube = self.scene.cubes[k]
            side = float(np.linalg.norm(np.subtract(cube.corners[1], cube.corners[0])))
            out.append(_truth(None if distances[k] > side / 2 else cube.face))
        return out


@dataclass
class Tally:
    trays: int = 0
    trays_found: int = 0
    cells: int = 0
    cells_right: int = 0
    loose_cubes: int = 0
    loose_right: int = 0
    crosswords: int = 0
    crosswords_right: int = 0
    #: Crosswords whose cells were all read right, whichever way up they were turned.
    crosswords_any_turn: int = 0
    #: Crosswords a hand or the frame's edge hides in part: not scored.
    crosswords_hidden: int = 0
    singles: int = 0
    singles_right: int = 0
    seconds: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)

    def lines(self) -> list[str]:
        def pct(a: int, b: int) -> str:
            return f"{100 * a / b:.1f}% ({a}/{b})" if b else "n/a"

        return [
            f"tray found:            {pct(self.trays_found, self.trays)}",
            f"cells read right:      {pct(self.cells_right, self.cells)}",
            f"loose found & read:    {pct(self.loose_right, self.loose_cubes)}",
            f"crosswords exact:      {pct(self.crosswords_right, self.crosswords)}",
            f"  ... any way up:      {pct(self.crosswords_any_turn, self.crosswords)}",
            f"  ... hidden in part:  {self.crosswords_hidden} (not scored)"
            if self.crosswords_hidden
            else "",
            f"single throws exact:   {pct(self.singles_right, self.singles)}",
            f"median seconds/scene:  {np.median(self.seconds):.3f}" if self.seconds else "",
        ]


def _turns(rows: Sequence[Sequence[str]]) -> list[tuple[tuple[str, ...], ...]]:
    out = []
    grid = [list(r) for r in rows]
    for _ in range(4):
        out.append(tuple(tuple(r) for r in grid))
        grid = [list(r) for r in zip(*grid[::-1], strict=True)]
    return out


def hide_tops(scene: Scene, quads: list[FaceQuad], every: int) -> list[FaceQuad]:
    """``quads`` less every ``every``-th one that lies on a cube's top (the first, the
    ``every``+1-th, ...): tops the finder is made to miss, for the reader to find again."""
    centers = np.array([cube.center for cube in scene.cubes])
    kept, on_top = [], 0
    for quad in quads:
        distances = np.linalg.norm(centers - np.array(quad.center), axis=1)
        k = int(np.argmin(distances))
        cube = scene.cubes[k]
        if distances[k] < np.linalg.norm(np.subtract(cube.corners[1], cube.corners[0])) / 3:
            on_top += 1
            if (on_top - 1) % every == 0:
                continue
        kept.append(quad)
    return kept


def score_scene(
    scene: Scene, tally: Tally, *, geometry: bool, hide: int = 0, carve: bool = True
) -> None:
    """Read ``scene`` and count what was read right. ``hide``: make the finder miss every
    ``hide``-th top it finds; ``carve=False``: the reader without carving tops out of blobs."""
    look = GroundTruthLook(scene) if geometry else ModelLook(face_model())

    def find(
        image: np.ndarray, accept: Accept | None = None, small: Small | None = None
    ) -> list[FaceQuad]:
        return (
            hide_tops(scene, find_tops(image, accept, small), hide)
            if hide
            else find_tops(image, accept, small)
        )

    def no_carving(
        image: np.ndarray, quads: list[FaceQuad], small: Small | None = None
    ) -> list[list[FaceQuad]]:
        return []

    steps = Steps(look, find, carve_faces if carve else no_carving)
    start = time.perf_counter()
    try:
        reading: TrayReading | LooseReading | None = read(
            scene.image, scene_game(scene), steps=steps
        )
    except ReadError as error:
        reading = None
        tally.errors[type(error).__name__] += 1
    tally.seconds.append(time.perf_counter() - start)
    if scene.kind == "tray":
        assert scene.board is not None
        n = len(scene.board)
        tally.trays += 1
        tally.cells += n * n
        if isinstance(reading, TrayReading):
            tally.trays_found += 1
            options = _turns(scene.board) if scene.ambiguous_axes else [scene.board]
            tally.cells_right += max(
                sum(
                    str(a) == b
                    for ra, rb in zip(reading.rows, o, strict=True)
                    for a, b in zip(ra, rb, strict=True)
                )
                for o in options
            )
        return
    if scene.kind == "loose":
        # A cube mostly hidden (by a hand, or the frame's edge) is not one to read.
        seen = [cube for cube in scene.cubes if cube.visible >= VISIBLE]
        tally.loose_cubes += len(seen)
        if isinstance(reading, LooseReading):
            tally.loose_right += sum(_read_once(cube, reading) for cube in seen)
        return
    if scene.kind == "single":
        tally.singles += 1
        seen = [cube for cube in scene.cubes if cube.visible >= VISIBLE]
        if isinstance(reading, LooseReading):
            # A face read on a cube mostly hidden is no error; one read off every cube is.
            stray = [
                f
                for f in reading.faces
                if not any(_on_top(f.x, f.y, cube, 1.0) for cube in scene.cubes)
            ]
            tally.singles_right += not stray and all(_read_once(c, reading) for c in seen)
        else:  # refused: right where a hand hides every cube
            tally.singles_right += not seen
        return
    if any(cube.visible < VISIBLE for cube in scene.cubes if cube.cell is not None):
        tally.crosswords_hidden += 1
        return
    tally.crosswords += 1
    if isinstance(reading, LooseReading) and reading.grid is not None and scene.grid is not None:
        truth = [row.replace(".", " ") for row in _upright(scene.grid, scene.grid_turn)]
        options = (
            _turns([list(r) for r in truth])
            if scene.ambiguous_axes
            else [tuple(tuple(r) for r in truth)]
        )
        got = tuple(tuple(r.replace(".", " ")) for r in reading.grid)
        tally.crosswords_right += got in options
        tally.crosswords_any_turn += got in _turns([list(r) for r in truth])


def _on_top(x: float, y: float, cube: PlacedCube, reach: float = 0.5) -> bool:
    """Whether the point (x, y) lies within ``reach`` sides of ``cube``'s top's centre."""
    side = float(np.linalg.norm(np.subtract(cube.corners[1], cube.corners[0])))
    return bool(np.hypot(x - cube.center[0], y - cube.center[1]) < reach * side)


def _read_once(cube: PlacedCube, reading: LooseReading) -> bool:
    """Whether ``cube`` is read exactly once, near its top's centre, as its face."""
    near = [f for f in reading.faces if _on_top(f.x, f.y, cube)]
    return len(near) == 1 and str(near[0].face) == cube.face


def _upright(grid: tuple[str, ...], turn: int) -> tuple[str, ...]:
    """A crossword's rows as the image shows them, turned the right way up (its own up lies
    ``turn`` quarter turns clockwise in the image)."""
    cells = {(r, c): f for r, row in enumerate(grid) for c, f in enumerate(row) if f != "."}
    upright = turn_grid(cells, (4 - turn) % 4)
    rows = max(r for r, _ in upright) + 1
    cols = max(c for _, c in upright) + 1
    return tuple("".join(upright.get((r, c), ".") for c in range(cols)) for r in range(rows))


def evaluate(
    scenes: int,
    *,
    geometry: bool = False,
    first_seed: int = HELD_OUT,
    sides: bool = False,
    hide: int = 0,
    carve: bool = True,
    tables: str | None = None,
    kinds: Sequence[str] = KINDS,
) -> Tally:
    """The reader's figures on ``scenes`` rendered scenes: flat ones (``models.scenes``),
    loose rolls with sides, or the 3D tables of ``models.tabletop`` in split ``tables``;
    ``kinds`` in turn."""
    tally = Tally()
    for k in range(scenes):
        if tables is not None:
            from models.tabletop import render

            scene = render(kinds[k % len(kinds)], first_seed + k, split=tables, frame=(1024, 768))
        elif sides:
            scene = render_loose_sides(first_seed + k)
        else:
            scene = render_scene(kinds[k % len(kinds)], first_seed + k)
        score_scene(scene, tally, geometry=geometry, hide=hide, carve=carve)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=200)
    parser.add_argument("--geometry", action="store_true", help="measure finding only")
    parser.add_argument("--first-seed", type=int, default=HELD_OUT)
    parser.add_argument("--sides", action="store_true", help="loose rolls showing cube sides")
    parser.add_argument(
        "--hide", type=int, default=0, metavar="N", help="hide every N-th top from the finder"
    )
    parser.add_argument(
        "--no-carve", action="store_true", help="the reader without carving tops out of blobs"
    )
    parser.add_argument(
        "--kinds",
        nargs="+",
        default=KINDS,
        choices=(*KINDS, "single"),
        help="kinds of scene, in turn (single: 3D tables only)",
    )
    parser.add_argument(
        "--tables",
        choices=("val", "unseen"),
        help="3D tables of models.tabletop in this split instead of the flat scenes",
    )
    args = parser.parse_args()
    tally = evaluate(
        args.scenes,
        geometry=args.geometry,
        first_seed=args.first_seed,
        sides=args.sides,
        hide=args.hide,
        carve=not args.no_carve,
        tables=args.tables,
        kinds=args.kinds,
    )
    print("\n".join(line for line in tally.lines() if line))
    if tally.errors:
        print("reader refused:", dict(tally.errors))


if __name__ == "__main__":
    main()
