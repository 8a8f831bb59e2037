"""The one place where the box meets ``vision`` and the engine's solvers.

The box asks for four things: read a roll (a tray or loose cubes), read a finished
crossword, list every word on a tray, and score (and better) a crossword. Each is a
method of ``Reader`` or ``Scorer`` below; the real adapters call ``vision.read`` and
``engine.solver`` / ``engine.adlib`` and turn their answers into the small values the
box draws and stores. If a name in those packages changes, this file is the one to
fix. Tests hand the referee their own ``Reader`` and ``Scorer``.

The reader's answer is taken through ``to_json()``, the JSON shape DESIGN.md fixes for
``cuberef read``, so the seam depends on the documented contract and not on the
reader's classes.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from engine.board import Board
from engine.errors import CuberefError
from engine.games import Game

if TYPE_CHECKING:  # the box's commands load numpy only when they read a photo
    import numpy as np

#: A face read with less confidence than this is marked doubtful on the screen.
DOUBTFUL_BELOW = 0.8


def cores() -> int:
    """The cores this process may run on: one best-crossword worker each (four on a Pi 4)."""
    with contextlib.suppress(AttributeError):  # no affinity on macOS
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class Reading:
    """A roll as read: for a tray its faces row by row, for loose cubes in any order."""

    faces: tuple[str, ...]
    confidence: tuple[float, ...]
    size: int = 0  # tray side, or 0 for loose cubes
    warnings: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.faces) != len(self.confidence):
            raise ValueError("every face needs its confidence")

    @property
    def doubtful(self) -> frozenset[int]:
        return frozenset(i for i, p in enumerate(self.confidence) if p < DOUBTFUL_BELOW)

    @property
    def board(self) -> Board | None:
        if not self.size:
            return None
        rows = ["".join(self.faces[r * self.size : (r + 1) * self.size]) for r in range(self.size)]
        return Board.parse("/".join(rows))

    @property
    def roll(self) -> str:
        return " ".join(self.faces)

    def corrected(self, index: int, face: str) -> Reading:
        faces = list(self.faces)
        confidence = list(self.confidence)
        faces[index], confidence[index] = face, 1.0
        return Reading(tuple(faces), tuple(confidence), self.size, self.warnings)

    def to_data(self) -> dict[str, Any]:
        return {
            "faces": list(self.faces),
            "confidence": list(self.confidence),
            "size": self.size,
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Reading:
        return cls(
            tuple(data["faces"]),
            tuple(float(p) for p in data["confidence"]),
            int(data["size"]),
            tuple(data.get("warnings", ())),
        )


@dataclass(frozen=True, slots=True)
class Word:
    word: str
    points: int
    valid: bool = True  # a crossword's word that is not in the lexicon is shown struck


@dataclass(frozen=True, slots=True)
class CrosswordScore:
    """A finished crossword as scored (the ``score --game adlib`` JSON, in short)."""

    grid: tuple[str, ...]
    score: int
    valid: bool
    words: tuple[Word, ...] = ()
    unused: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BestCrossword:
    grid: tuple[str, ...]
    score: int
    proven_optimal: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


class Reader(Protocol):
    def read_roll(self, image: np.ndarray, game: Game) -> Reading: ...

    def read_crossword(self, image: np.ndarray, game: Game) -> tuple[str, ...]:
        """The crossword's rows as text (DESIGN.md's grid format)."""
        ...


class Scorer(Protocol):
    def solve(self, board: Board, game: Game, lexicon: str) -> list[Word]: ...

    def score_crossword(
        self, roll: str, grid: tuple[str, ...], game: Game, lexicon: str
    ) -> CrosswordScore: ...

    def best_crossword(
        self, roll: str, game: Game, lexicon: str, seconds: float
    ) -> BestCrossword: ...


def load_face_model() -> str:
    """Load the cube-face model as the reader will; returns what was loaded."""
    from vision.classifier import FaceClassifier

    model = FaceClassifier.load()
    return str(getattr(model, "path", "the cube-face model"))


class VisionReader:
    """``vision.read`` behind the ``Reader`` protocol."""

    def read_roll(self, image: np.ndarray, game: Game) -> Reading:
        document = self._read(image, game)
        warnings = tuple(document.get("warnings", ()))
        if game.is_tray:
            faces = tuple(face for row in document["rows"] for face in row)
            confidence = tuple(float(p) for row in document["confidence"] for p in row)
            return Reading(faces, confidence, game.size, warnings)
        loose = document["faces"]
        return Reading(
            tuple(item["face"] for item in loose),
            tuple(float(item["confidence"]) for item in loose),
            0,
            warnings,
        )

    def read_crossword(self, image: np.ndarray, game: Game) -> tuple[str, ...]:
        document = self._read(image, game)
        if not document.get("grid"):
            raise CuberefError(
                "The photo shows no crossword; lay the cubes out touching and press again."
            )
        return tuple(document["grid"])

    def _read(self, image: np.ndarray, game: Game) -> dict[str, Any]:
        from vision import read

        reading = read(image, game)
        document: dict[str, Any] = reading.to_json()
        return document


class EngineScorer:
    """``engine.solver`` and ``engine.adlib`` behind the ``Scorer`` protocol."""

    def solve(self, board: Board, game: Game, lexicon: str) -> list[Word]:
        from engine.lexicon import Lexicon
        from engine.solver import solve

        found = solve(board, game, Lexicon.open(lexicon or game.lexicon))
        return [Word(item.word, int(item.points)) for item in found]

    def score_crossword(
        self, roll: str, grid: tuple[str, ...], game: Game, lexicon: str
    ) -> CrosswordScore:
        from engine.adlib import Roll, referee
        from engine.adlib.jokers import settle_jokers
        from engine.lexicon import Lexicon

        words = Lexicon.open(lexicon or game.lexicon)
        # The camera sees a joker's symbol (*); the letter it stands for is the one that fits.
        settled, _ = settle_jokers(grid, words)
        verdict = referee(Roll.parse(roll, game.id), settled, words)
        document: dict[str, Any] = verdict.to_json()
        words = [*document.get("across", ()), *document.get("down", ())]
        return CrosswordScore(
            grid=grid,
            score=int(document["score"] or 0),  # None: not a valid crossword, so no score
            valid=bool(document["valid"]),
            words=tuple(
                Word(w["word"], int(w["points"]), bool(w.get("valid", True))) for w in words
            ),
            unused=tuple(document.get("unused", ())),
            errors=tuple(document.get("errors", ())),
        )

    def best_crossword(self, roll: str, game: Game, lexicon: str, seconds: float) -> BestCrossword:
        from device.search import best_crossword
        from engine.adlib import Roll
        from engine.lexicon import Lexicon

        found = best_crossword(
            Roll.parse(roll, game.id),
            Lexicon.open(lexicon or game.lexicon),
            seconds=seconds,
            workers=cores(),
        )
        document: dict[str, Any] = found.to_json()
        return BestCrossword(
            tuple(document["grid"]), int(document["score"]), bool(document["proven_optimal"])
        )
