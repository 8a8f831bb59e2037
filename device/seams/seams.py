"""The one place where the box and the command line meet ``vision`` and the engine.

Each job has one path, the same for the box and for ``cuberef solve|score PHOTO``: read
a roll (a tray or loose cubes, or one cube for who starts), read a finished crossword,
list every word on a tray, referee the players' lists, referee a crossword (its jokers
settled first) and find the best one. Each is a method of ``Reader`` or ``Scorer``; the
real ones below call ``vision.read`` and the engine, and hand back their own values
unchanged (``TrayReading``, ``FoundWord``, ``RoundResult``, ``Verdict``,
``BestCrossword``). Tests hand the referee their own ``Reader``; the engine is fast
enough to referee for real in every test.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from device.base.strings import say
from engine.errors import CuberefError
from engine.games import Game

if TYPE_CHECKING:  # the commands load the reader and the search only when they run
    import numpy as np

    from device.seams.readings import Reading
    from engine.adlib import Grid, Roll, Rules, Verdict
    from engine.adlib.best import BestCrossword
    from engine.board import Board
    from engine.cubes import CubeSet
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

    def read_crossword(self, image: np.ndarray, game: Game, lexicon: str = "") -> LooseReading:
        """Loose cubes laid out as a crossword (its ``grid`` set), the right way up."""
        ...

    def read_table(self, image: np.ndarray, game: Game, lexicon: str = "") -> LooseReading:
        """The cubes on the table and the crossword among them, if any (live reading)."""
        ...


class NoCrossword(CuberefError):
    """A photo of cubes that lie in no crossword."""

    def __init__(self, sentence: str = "") -> None:
        super().__init__(sentence or say("no-crossword"))


class CrosswordInPieces(NoCrossword):
    """A photo of cubes that lie in several pieces, any of which could be the crossword:
    scoring one of them would score what the player may not have meant."""

    def __init__(self, pieces: tuple[int, ...]) -> None:
        from vision.crossword import in_pieces

        super().__init__(in_pieces(pieces))


class VisionReader:
    """``vision.read``: the reader's own values, as it gives them."""

    def read_roll(
        self, image: np.ndarray, game: Game, dice: str | CubeSet | None = None
    ) -> Reading:
        from vision import read

        return read(image, game, dice=dice)

    def read_crossword(self, image: np.ndarray, game: Game, lexicon: str = "") -> LooseReading:
        reading = self.read_table(image, game, lexicon)
        if not reading.grid:
            raise NoCrossword()
        if len(reading.pieces) > 1:
            raise CrosswordInPieces(reading.pieces)
        return reading

    def read_table(self, image: np.ndarray, game: Game, lexicon: str = "") -> LooseReading:
        """The cubes on the table of a crossword game and the crossword among them, if
        there is one (``grid`` None where not), the right way up."""
        from vision import LooseReading, read

        # The lexicon lets the reader stand a crossword lying at any turn the right way up.
        words = lexicon_for(game, lexicon)
        reading = read(image, game, is_word=words.__contains__)
        if not isinstance(reading, LooseReading):
            raise NoCrossword()
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
        roll: Roll,
        rows: Sequence[str],
        game: Game,
        lexicon: str = "",
        rules: Rules | None = None,
    ) -> Refereed:
        """The crossword refereed against ``roll``, its jokers settled first: the camera
        sees a joker's symbol (``*``), and the letter it stands for is the one that fits
        (``engine.adlib.jokers``); a joker typed as a small letter stands for that one."""
        from engine.adlib import STANDARD, referee
        from engine.adlib.jokers import settle_jokers

        words = lexicon_for(game, lexicon)
        settled, choices = settle_jokers(rows, words)
        verdict = referee(roll, settled, words, rules or STANDARD)
        return Refereed(verdict, settled, choices)

    def best_crossword(
        self, roll: Roll, game: Game, seconds: float, lexicon: str = ""
    ) -> BestCrossword:
        from device.seams.search import best_crossword

        return best_crossword(roll, lexicon_for(game, lexicon), seconds=seconds, workers=cores())


@dataclass(frozen=True)
class Refereed:
    """A crossword as refereed: the verdict, the grid with each joker's letter settled,
    and every letter each joker read from a photo could stand for (cell -> letters)."""

    verdict: Verdict
    grid: Grid
    choices: Mapping[tuple[int, int], list[str]]

    @property
    def rows(self) -> tuple[str, ...]:
        return tuple(self.grid.rows())

    def joker_notes(self) -> list[str]:
        """A sentence for each joker read as a symbol: the letters it may stand for."""
        return [
            f"The joker at row {row + 1}, column {col + 1} stands for "
            f"{' or '.join(letter.upper() for letter in letters)} (it scores 0 either way)."
            for (row, col), letters in sorted(self.choices.items())
        ]


def load_face_model() -> str:
    """Load the cube-face model as the reader will; returns what was loaded."""
    from vision.classifier import FaceClassifier

    model = FaceClassifier.load()
    return str(getattr(model, "path", "the cube-face model"))
