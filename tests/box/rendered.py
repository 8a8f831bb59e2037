"""Photos rendered by the project's scene renderers, for the box's tests that play with
the real reader (``vision.read``) and the real face model.

A test lays out a match as shots (who rolls what, which crossword is laid) and gets a
folder of photos in the order the box's folder camera will take them. Each photo is
rendered once per test session; every shot's ground truth is checked against what was
asked, so a change to a renderer fails here and not as a puzzling misread further on.

Single cubes are one-cube "crosswords" of ``models.scenes`` (its scenes are kept stable
for the reader's tests; ``models.tabletop``, the training renderer, changes as it is
tuned). The seeds were picked among the first few whose photos the reader reads right:
of seeds 1-5 for seven faces, 14 of 35 single-cube photos read as exactly that cube, the
rest found no cube or phantom faces (I, J, X, jokers) in the table's texture; the lead is
told. Crosswords: seeds where the crossword lies the right way up, since the box reads a
crossword as the photo shows it.
"""

from __future__ import annotations

import shutil
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from models.scenes import render_crossword, render_loose

FRAME = (1024, 768)

#: The ``render_crossword`` seed of a cube lying alone (and of two lying apart).
SINGLE_SEED = 2

#: ``render_loose`` seeds: the 13 cubes each shows.
ROLLS = {
    3: "O I R B T A E K N C W * A",
    5: "L A L I S M E M K A R E I",
    2: "E E O I W U Y L S E L E S",
}


@dataclass(frozen=True)
class Play:
    """A crossword laid from a roll: its rows, what it scores, the scene that shows it."""

    roll: int  # the render_loose seed of the roll
    rows: tuple[str, ...]
    score: int
    seed: int  # the render_crossword seed

    @property
    def unused(self) -> list[str]:
        laid = ["*" if ch.islower() else ch for row in self.rows for ch in row if ch != "."]
        return list((Counter(ROLLS[self.roll].split()) - Counter(laid)).elements())


TWIN = Play(3, ("TWIN..", "...ACE", "...R..", "...K.."), 20, 3)
CAB = Play(3, ("CAB..", "..OAK", "..W.."), 16, 10)
MILK = Play(5, ("MILK", "A...", "LAIR", "E..."), 20, 4)
SMILE = Play(5, ("SMILE", "A....", "L....", "E...."), 3, 1)
SLEW = Play(2, ("SLEW", "E...", "ELSE"), 9, 3)


@cache
def _single(face: str) -> np.ndarray:
    scene = render_crossword(SINGLE_SEED, frame=FRAME, layout=((face,), []))
    assert [cube.face for cube in scene.cubes] == [face], "the renderer changed"
    return scene.image


@cache
def _two_cubes() -> np.ndarray:
    scene = render_crossword(SINGLE_SEED, frame=FRAME, layout=(("V",), ["M"]))
    assert sorted(cube.face for cube in scene.cubes) == ["M", "V"], "the renderer changed"
    return scene.image


@cache
def _roll(seed: int) -> np.ndarray:
    scene = render_loose(seed, frame=FRAME)
    assert " ".join(cube.face for cube in scene.cubes) == ROLLS[seed], "the renderer changed"
    return scene.image


@cache
def _crossword(play: Play) -> np.ndarray:
    scene = render_crossword(play.seed, frame=FRAME, layout=(play.rows, play.unused))
    assert scene.grid == play.rows, "the renderer changed, or the crossword lies turned"
    return scene.image


def single(face: str) -> np.ndarray:
    """One Ad-Lib cube thrown for who starts, showing ``face``."""
    return _single(face)


def two_cubes() -> np.ndarray:
    """Two cubes thrown where one was asked for: V and M, apart."""
    return _two_cubes()


def turn(play: Play) -> list[np.ndarray]:
    """A turn's two photos: the roll, then the finished crossword."""
    return [_roll(play.roll), _crossword(play)]


def folder(path: Path, shots: list[np.ndarray]) -> Path:
    """``shots`` as a photo folder, named so that the folder camera takes them in order."""
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    for number, image in enumerate(shots, 1):
        cv2.imwrite(str(path / f"{number:03d}.png"), image)
    return path
