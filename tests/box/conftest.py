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

from device.seams import BestCrossword, CrosswordScore, Reading, Word  # noqa: E402
from engine.board import Board  # noqa: E402
from engine.games import Game  # noqa: E402

BOARD = "TNTB/GDAR/ELTE/SISH"


class ListReader:
    """Returns the readings it was given, one per call: a test double for vision."""

    def __init__(self, readings: list[Reading], grids: list[tuple[str, ...]] | None = None):
        self.readings = list(readings)
        self.grids = list(grids or [])
        self.images: list[np.ndarray] = []

    def read_roll(self, image: np.ndarray, game: Game) -> Reading:
        self.images.append(image)
        return self.readings.pop(0)

    def read_crossword(self, image: np.ndarray, game: Game) -> tuple[str, ...]:
        self.images.append(image)
        return self.grids.pop(0)


class TableScorer:
    """Scores from a small table: a test double for the engine's solvers."""

    def __init__(self, words: dict[str, list[Word]] | None = None) -> None:
        self.words = words or {}

    def solve(self, board: Board, game: Game, lexicon: str) -> list[Word]:
        return list(self.words.get(str(board), []))

    def score_crossword(
        self, roll: str, grid: tuple[str, ...], game: Game, lexicon: str
    ) -> CrosswordScore:
        return CrosswordScore(grid, 17, True, (Word("cat", 5), Word("at", 2)))

    def best_crossword(self, roll: str, game: Game, lexicon: str, seconds: float) -> BestCrossword:
        return BestCrossword(("CAT", ".T."), 23, True)


def tray_reading(board: str = BOARD, doubtful: tuple[int, ...] = ()) -> Reading:
    faces = tuple(str(face) for face in Board.parse(board).faces())
    confidence = tuple(0.5 if i in doubtful else 0.99 for i in range(len(faces)))
    return Reading(faces, confidence, Board.parse(board).size)


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
