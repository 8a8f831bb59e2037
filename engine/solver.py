"""Every word on a tray: a depth-first search of the board inside the lexicon's DAWG.

The search walks the board and the DAWG together, so it only follows a path while
some word still starts with its letters. At each step the state's letter mask is
ANDed with the letters around the cell, so a state meets only the neighbours it has
an edge for. A cell's plain letter reaches every spelling the lexicon has for it
(Czech ``c`` -> ``c``, ``č``), and the words come back in their real spelling; a
multi-letter face (Qu, Th, ...) spells all its letters; a blank spells nothing and
blocks its cell.

>>> from engine.board import Board
>>> from engine.games import find_game
>>> words = solve(Board.parse("QuAXX/XXXX/XXXX/XXXX"), find_game("boggle"))
>>> [(w.word, w.points, w.path) for w in words]
[('qua', 1, ((0, 0), (0, 1)))]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.board import Board, Cell
from engine.games import Game
from engine.lexicon import FINAL, Lexicon


@dataclass(frozen=True, slots=True)
class FoundWord:
    """A word on the board: its real spelling, one path that spells it, its points."""

    word: str
    path: tuple[Cell, ...]
    points: int

    @property
    def length(self) -> int:
        """Letters counted for length and points (Qu is two)."""
        return len(self.word)

    @staticmethod
    def _make(word: str, path: tuple[Cell, ...], points: int) -> FoundWord:
        """The same value, built without the frozen ``__init__``'s three
        ``object.__setattr__`` calls: a board's hundreds of words are a tenth of a solve."""
        found = _new(FoundWord)
        _set_word(found, word)
        _set_path(found, path)
        _set_points(found, points)
        return found


_new = object.__new__
# The slots' own descriptors store a value without going through the frozen __setattr__.
_set_word = vars(FoundWord)["word"].__set__
_set_path = vars(FoundWord)["path"].__set__
_set_points = vars(FoundWord)["points"].__set__


def solve(board: Board, game: Game, lexicon: Lexicon | None = None) -> list[FoundWord]:
    """Every word of at least the game's minimum length, in alphabetical order."""
    lexicon = lexicon or Lexicon.open(game.lexicon)
    found = find_paths(board, lexicon, game.min_length)
    points = points_table(game, max(map(len, found), default=0))
    make = FoundWord._make
    return [make(word, path, points[len(word)]) for word, path in sorted(found.items())]


def points_table(game: Game, longest: int) -> list[int]:
    """Points by word length, from 0 letters to ``longest``.

    >>> from engine.games import find_game
    >>> points_table(find_game("boggle"), 9)
    [0, 0, 0, 1, 1, 2, 3, 5, 11, 11]
    """
    return [game.word_points(length) for length in range(longest + 1)]


def find_paths(board: Board, lexicon: Lexicon, min_length: int) -> dict[str, tuple[Cell, ...]]:
    """Every word of ``min_length`` letters or more, with one path that spells it."""
    spelt = [face.letters for row in board.rows for face in row]
    size = board.size
    coords = [divmod(n, size) for n in range(size * size)]
    variants = lexicon.variants
    masks, first, targets, letter = lexicon.masks, lexicon.first, lexicon.targets, lexicon.letter

    # moves[c]: letter bit -> (neighbour, its cell bit, its row and column) for the
    # neighbours of c whose one-letter face spells that letter;
    # reach[c]: the OR of those bits; longer[c]: neighbours with multi-letter faces.
    moves: list[dict[int, list[tuple[int, int, Cell]]]] = []
    reach: list[int] = []
    longer: list[list[int]] = []
    for around in neighbours(board.size):
        by_bit: dict[int, list[tuple[int, int, Cell]]] = {}
        multi: list[int] = []
        for n in around:
            text = spelt[n]
            if len(text) == 1:
                for bit in variants.get(text, ()):
                    if bit in by_bit:
                        by_bit[bit].append((n, 1 << n, coords[n]))
                    else:
                        by_bit[bit] = [(n, 1 << n, coords[n])]
            elif text:
                multi.append(n)
        moves.append(by_bit)
        reach.append(sum(by_bit))
        longer.append(multi)

    def enter(state: int, text: str, prefix: str) -> list[tuple[int, str]]:
        """The states (and spellings) after the letters of one face."""
        frontier = [(state, prefix)]
        for ch in text:
            frontier = [
                (int(targets[first[s] + (masks[s] & (bit - 2)).bit_count()]), p + letter[bit])
                for s, p in frontier
                for bit in variants.get(ch, ())
                if masks[s] & bit
            ]
        return frontier

    found: dict[str, tuple[Cell, ...]] = {}
    # go[c]: letters that could follow on c, or -1 where a multi-letter face is next to it;
    # a child state with none of them is a leaf, and is settled without a call.
    go = [-1 if multi else bits for bits, multi in zip(reach, longer, strict=True)]
    trail = list(coords)

    def walk(state: int, mask: int, cell: int, used: int, prefix: str, depth: int) -> None:
        hits = mask & reach[cell]
        base = first[state]
        by_bit = moves[cell]
        while hits:
            low = hits & -hits
            hits ^= low
            target = targets[base + (mask & (low - 2)).bit_count()]
            after = masks[target]
            spelling = prefix + letter[low]
            for n, bit, at in by_bit[low]:
                if used & bit:
                    continue
                trail[depth] = at
                if after & 1 and len(spelling) >= min_length and spelling not in found:
                    found[spelling] = tuple(trail[: depth + 1])
                if after & go[n]:
                    walk(target, after, n, used | bit, spelling, depth + 1)
        for n in longer[cell]:
            if not used >> n & 1:
                trail[depth] = coords[n]
                for target, spelling in enter(state, spelt[n], prefix):
                    arrive(target, n, used | 1 << n, spelling, depth + 1)

    def arrive(state: int, cell: int, used: int, prefix: str, depth: int) -> None:
        mask = masks[state]
        if mask & FINAL and len(prefix) >= min_length and prefix not in found:
            found[prefix] = tuple(trail[:depth])
        walk(state, mask, cell, used, prefix, depth)

    for cell, text in enumerate(spelt):
        if text:
            trail[0] = coords[cell]
            for state, spelling in enter(lexicon.root, text, ""):
                arrive(state, cell, 1 << cell, spelling, 1)
    return found


@cache
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """For each cell number of a ``size`` x ``size`` tray, the cells touching it.

    >>> neighbours(3)[0], len(neighbours(3)[4])
    ((1, 3, 4), 8)
    """
    return tuple(
        tuple(
            r * size + c
            for r in range(max(row - 1, 0), min(row + 2, size))
            for c in range(max(col - 1, 0), min(col + 2, size))
            if (r, c) != (row, col)
        )
        for row in range(size)
        for col in range(size)
    )
