"""The one place where the box meets ``vision`` and the engine's solvers.

The box asks for a few jobs: read a roll (a tray or loose cubes), read one cube (who
starts), read a finished crossword, list every word on a tray, referee the players'
lists, referee a crossword and find the best one. Each is a method of ``Reader`` or
``Scorer``; the real ones below call ``vision.read`` and the engine, and hand back their
own values unchanged (``TrayReading``, ``FoundWord``, ``RoundResult``, ``Verdict``,
``BestCrossword``). Tests hand the referee their own ``Reader``; the engine is fast
enough to referee for real in every test.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from engine.errors import CuberefError
from engine.games import Game

if TYPE_CHECKING:  # the commands load the reader and the search only when they run
    import numpy as np

    from device.readings import Reading
    from engine.adlib import Rules, Verdict
    from engine.adlib.best import BestCrossword
    from engine.board import Board
    from engine.lexicon import Lexicon
    from engine.round import RoundResult, RoundRules
    from engine.solver import FoundWord
    from vision import LooseReading


def cores() -> int:
    """The cores this process may run on: one best-crossword worker each (four on a Pi 4)."""
    with contextlib.suppress(AttributeError):  # no affinity on macOS
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class Reader(Protocol):
    def read_roll(self, image: np.ndarray, game: Game) -> Reading: ...

    def read_crossword(self, image: np.ndarray, game: Game) -> LooseReading:
        """Loose cubes laid out as a crossword (its ``grid`` set)."""
        ...


class VisionReader:
    """``vision.read``: the reader's own values, as it gives them."""

    def read_roll(self, image: np.ndarray, game: Game) -> Reading:
        from vision import read

        return read(image, game)

    def read_crossword(self, image: np.ndarray, game: Game) -> LooseReading:
        from vision import LooseReading

        reading = self.read_roll(image, game)
        if not isinstance(reading, LooseReading) or not reading.grid:
            raise CuberefError(
                "The photo shows no crossword; lay the cubes out touching and press again."
            )
        return reading


def lexicon_for(game: Game, name: str = "") -> Lexicon:
    from engine.lexicon import Lexicon

    return Lexicon.open(name or game.lexicon)


class Scorer:
    """The engine's referees and solvers, for the box and the command line alike."""

    def solve(self, board: Board, game: Game, lexicon: str = "") -> list[FoundWord]:
        from engine.solver import solve

        return solve(board, game, lexicon_for(game, lexicon))

    def score_lists(
        self,
        board: Board,
        game: Game,
        lists: Sequence[tuple[str, Sequence[str]]],
        rules: RoundRules,
        lexicon: str = "",
    ) -> RoundResult:
        from engine.round import score_round

        return score_round(board, game, lists, lexicon_for(game, lexicon), rules)

    def score_crossword(
        self,
        roll: str,
        rows: Sequence[str],
        game: Game,
        lexicon: str = "",
        rules: Rules | None = None,
    ) -> tuple[Verdict, tuple[str, ...]]:
        """The crossword's verdict, and its rows with each joker's letter settled.

        The camera sees a joker's symbol; the letter it stands for is the one that fits
        (the joker rule of ``engine.adlib.jokers``)."""
        from engine.adlib import STANDARD, Roll, referee
        from engine.adlib.jokers import settle_jokers

        words = lexicon_for(game, lexicon)
        settled, _choices = settle_jokers(rows, words)
        verdict = referee(Roll.parse(roll, game.id), settled, words, rules or STANDARD)
        return verdict, tuple(settled.rows())

    def best_crossword(
        self, roll: str, game: Game, seconds: float, lexicon: str = ""
    ) -> BestCrossword:
        from device.search import best_crossword
        from engine.adlib import Roll

        return best_crossword(
            Roll.parse(roll, game.id), lexicon_for(game, lexicon), seconds=seconds, workers=cores()
        )


def load_face_model() -> str:
    """Load the cube-face model as the reader will; returns what was loaded."""
    from vision.classifier import FaceClassifier

    model = FaceClassifier.load()
    return str(getattr(model, "path", "the cube-face model"))
