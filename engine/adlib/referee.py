"""The referee for a finished crossword: is it legal, and what does it score?

Each across and each down word scores the sum of its letters' values (a joker 0, a cube
where two words cross counts in both); the values of the rolled cubes left unused come off.
A crossword that breaks a rule gets its errors, one sentence each, and no score. The grid
holds only letters, so the Scribbage rule against apostrophes and hyphens holds by itself.

>>> from engine.adlib.roll import Roll
>>> from engine.lexicon import Lexicon
>>> roll = Roll.parse("U O N T W V I G F E E A R T", "scribbage")
>>> grid = Grid.parse("...W.\\nTIGER\\nOF.A.\\nN..V.\\n...E.")
>>> verdict = referee(roll, grid, Lexicon.open("en"))
>>> [(w.text, w.points) for w in verdict.across], verdict.unused_points, verdict.score
([('TIGER', 11), ('OF', 5)], 5, 33)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.adlib.grid import ACROSS, Cell, Grid, Run, Tile
from engine.adlib.roll import Roll, letter_value, word_value
from engine.faces import JOKER, Face
from engine.lexicon import Lexicon
from engine.notes import Notes
from engine.referee import REFUSALS


@dataclass(frozen=True, slots=True)
class Rules:
    """How a crossword must be built: the standard rules or the young players' ones.

    Young players need not join their words in one crossword: separate words and small
    crosswords may lie anywhere on the table, words that do cross count as in the
    standard rules, and a single cube lying apart is unused (its value comes off).
    """

    name: str
    #: Every word joined in one crossword (standard); young players may lay words apart.
    connected: bool = True


STANDARD = Rules("standard")
YOUNG = Rules("young", connected=False)


@dataclass(frozen=True, slots=True)
class WordScore:
    """One across or down word of the crossword and what it scores."""

    direction: str
    text: str
    cell: Cell
    points: int
    valid: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "word": self.text,
            "points": self.points,
            "valid": self.valid,
            "row": self.cell[0] + 1,
            "col": self.cell[1] + 1,
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """The referee's answer: the words, the unused cubes, the score (None when invalid)."""

    across: tuple[WordScore, ...]
    down: tuple[WordScore, ...]
    unused: tuple[Face, ...]
    unused_points: int
    score: int | None
    errors: tuple[str, ...]
    #: The errors that say the grid holds cubes the roll did not show (bad input, not play).
    roll_errors: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.errors

    def unused_values(self) -> tuple[tuple[Face, int], ...]:
        """Each unused cube and what it takes off (their sum is ``unused_points``)."""
        return tuple((face, face_value(face)) for face in self.unused)

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "across": [word.to_json() for word in self.across],
            "down": [word.to_json() for word in self.down],
            "unused": [str(face) for face in self.unused],
            "unused_points": self.unused_points,
            "score": self.score,
            "errors": list(self.errors),
        }


def face_value(face: Face) -> int:
    """A cube's value as an unused cube takes it off (a joker's is 0)."""
    return letter_value(face.letters or JOKER)


def _why_not(word: str, lexicon: Lexicon) -> str:
    """What a crossword's word that is not in the lexicon is: a class the rulebook
    refuses (``is slang, which the rulebook does not allow``), or no word at all."""
    refusal = Notes.open(lexicon).refusal(word)
    if refusal in REFUSALS:
        return f"{REFUSALS[refusal]}, which the rulebook does not allow"
    return "is not an English word"


def referee(roll: Roll, grid: Grid, lexicon: Lexicon, rules: Rules = STANDARD) -> Verdict:
    """Check ``grid`` against ``roll`` and the rules, and score it."""
    roll_errors = _check_cubes(roll, grid)
    errors = list(roll_errors)
    if rules.connected:
        groups = grid.groups()
        if len(groups) > 1:
            errors.append(
                f"The cubes do not form one connected crossword: they fall into {len(groups)} "
                "separate groups; join every word to the rest."
            )
    runs = grid.runs()
    covered: Counter[Cell] = Counter(cell for run in runs for cell in run.cells)
    words: list[WordScore] = []
    for run in runs:
        valid = run.word in lexicon
        if not valid:
            errors.append(f"{run.text} ({_where(run)}) {_why_not(run.word, lexicon)}.")
        words.append(WordScore(run.direction, run.text, run.start, _points(run), valid))
    if rules.connected and not runs and len(grid) == 1:
        errors.append("A single cube is not a crossword; lay at least one word of two cubes.")
    # A cube in no word (young players' single cube apart) is as good as left unused.
    unused = _unused(roll, [grid.tiles[cell] for cell in covered])
    unused_points = sum(face_value(face) for face in unused)
    score = None if errors else sum(word.points for word in words) - unused_points
    return Verdict(
        across=tuple(word for word in words if word.direction == ACROSS),
        down=tuple(word for word in words if word.direction != ACROSS),
        unused=unused,
        unused_points=unused_points,
        score=score,
        errors=tuple(errors),
        roll_errors=tuple(roll_errors),
    )


def _points(run: Run) -> int:
    return word_value(JOKER if tile.joker else tile.letter for tile in run.tiles)


def _where(run: Run) -> str:
    row, col = run.start
    return f"{run.direction} from row {row + 1}, column {col + 1}"


def _check_cubes(roll: Roll, grid: Grid) -> list[str]:
    """No face used more often than rolled, a joker only where a joker was rolled."""
    errors: list[str] = []
    used = Counter(tile.letter for tile in grid.tiles.values() if not tile.joker)
    rolled = roll.letters
    for letter in sorted(used):
        have, want = rolled[letter], used[letter]
        if have == 0:
            errors.append(
                f"The grid has {_cubes(want, letter)} but no {letter.upper()} was rolled."
            )
        elif want > have:
            errors.append(f"The grid has {_cubes(want, letter)} but the roll shows only {have}.")
    jokers = sum(1 for tile in grid.tiles.values() if tile.joker)
    if jokers > roll.jokers:
        shown = "no joker was rolled" if not roll.jokers else f"the roll shows only {roll.jokers}"
        errors.append(
            f"The grid has {jokers} joker{'s' if jokers > 1 else ''} (small letters) but "
            f"{shown}; write a cube's letter in capitals."
        )
    return errors


def _cubes(count: int, letter: str) -> str:
    return f"a {letter.upper()} cube" if count == 1 else f"{count} {letter.upper()} cubes"


def _unused(roll: Roll, used: Iterable[Tile]) -> tuple[Face, ...]:
    """The rolled faces that no word uses, in the roll's order."""
    left = Counter("*" if tile.joker else tile.letter for tile in used)
    unused: list[Face] = []
    for face in roll.faces:
        key = "*" if face.is_joker else face.letters
        if left[key] > 0:
            left[key] -= 1
        else:
            unused.append(face)
    return tuple(unused)
