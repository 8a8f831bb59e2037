"""Shared doubles for the box's tests: no hardware, no real time, no reader yet."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from gpiozero import Device  # noqa: E402
from gpiozero.pins.mock import MockFactory, MockPWMPin  # noqa: E402

from device.seams.seams import Scorer, lexicon_for  # noqa: E402
from engine.adlib.best import BestCrossword, best_crossword  # noqa: E402
from engine.adlib.roll import Roll  # noqa: E402
from engine.board import Board  # noqa: E402
from engine.faces import Face  # noqa: E402
from engine.games import Game  # noqa: E402
from vision import FaceReading, LooseReading, NoCubesFound, TrayReading  # noqa: E402

BOARD = "TNTB/GDAR/ELTE/SISH"
SURE, UNSURE = 0.99, 0.4


class ListReader:
    """Returns the readings it was given, one per call: a test double for vision. The
    table read live shows ``table`` (by default nothing: no cubes)."""

    def __init__(
        self,
        readings: list,
        crosswords: list[LooseReading] | None = None,
        table: LooseReading | None = None,
    ):
        self.readings = list(readings)
        self.crosswords = list(crosswords or [])
        self.table = table
        self.images: list[np.ndarray] = []
        self.live_frames = 0

    def read_roll(self, image: np.ndarray, game: Game):
        self.images.append(image)
        return self.readings.pop(0)

    def read_crossword(self, image: np.ndarray, game: Game, lexicon: str = "") -> LooseReading:
        self.images.append(image)
        return self.crosswords.pop(0)

    def read_table(self, image: np.ndarray, game: Game, lexicon: str = "") -> LooseReading:
        self.live_frames += 1
        if self.table is None:
            raise NoCubesFound("No cubes were found in the photo.")
        return self.table


class CountedScorer(Scorer):
    """The box's scorer with a best-crossword search that ends after so many looks at its
    clock (one each 64 nodes) for each second it is given, not after so many seconds: the
    same crossword on a busy machine as on a quiet one, for tests not about the search's
    time."""

    LOOKS_PER_SECOND = 1000

    def best_crossword(
        self, roll: Roll, game: Game, seconds: float, lexicon: str = ""
    ) -> BestCrossword:
        looks = iter(range(1 << 62))
        words = lexicon_for(game, lexicon)
        budget = seconds * self.LOOKS_PER_SECOND
        return best_crossword(roll, words, budget, clock=lambda: float(next(looks)))


def _face(face: str, index: int, confidence: float, cell=None) -> FaceReading:
    x, y = 100.0 + 80 * (index % 8), 100.0 + 80 * (index // 8)
    corners = ((x - 30, y - 30), (x + 30, y - 30), (x + 30, y + 30), (x - 30, y + 30))
    return FaceReading(Face(face), x, y, confidence, 0, corners, cell)


def tray_reading(board: str = BOARD, doubtful: tuple[int, ...] = (), game: str = "boggle"):
    """The reader's value for a tray showing ``board``; faces in ``doubtful`` unsure."""
    parsed = Board.parse(board)
    n = parsed.size
    faces = [str(face) for face in parsed.faces()]
    sure = [UNSURE if i in doubtful else SURE for i in range(len(faces))]
    found = tuple(_face(f, i, sure[i], divmod(i, n)) for i, f in enumerate(faces))
    outline = ((0.0, 0.0), (700.0, 0.0), (700.0, 700.0), (0.0, 700.0))
    return TrayReading(game, found, (), outline)


def loose_reading(
    faces: str, doubtful: tuple[int, ...] = (), grid: tuple[str, ...] | None = None
) -> LooseReading:
    """Loose cubes showing ``faces`` (separated by spaces), laid as ``grid`` if given."""
    shown = faces.split()
    cells: list = [None] * len(shown)
    if grid:
        free = list(range(len(shown)))
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch not in ". ":
                    i = next(i for i in free if shown[i].upper() == ch.upper() or shown[i] == "*")
                    free.remove(i)
                    cells[i] = (r, c)
    found = tuple(
        _face(f, i, UNSURE if i in doubtful else SURE, cells[i]) for i, f in enumerate(shown)
    )
    return LooseReading("adlib", found, grid, ())


@pytest.fixture
def photos(tmp_path: Path) -> Path:
    """A folder camera's photos: plain images, since the reader is a double here."""
    folder = tmp_path / "photos"
    folder.mkdir()
    for i in range(3):
        cv2.imwrite(str(folder / f"{i}.png"), np.full((60, 80, 3), 40 * i, np.uint8))
    return folder


@pytest.fixture
def factory():
    """gpiozero's MockFactory as the pin factory for one test, restored afterwards."""
    made = MockFactory(pin_class=MockPWMPin)
    saved = Device.pin_factory
    Device.pin_factory = made
    try:
        yield made
    finally:
        made.reset()
        Device.pin_factory = saved
