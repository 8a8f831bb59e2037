"""A crossword as the best-crossword search builds it: flat arrays of cells, undoable moves,
and what each line through a cube can still be.

Cells are ints, ``row * stride + col``, the first cell at ``root``. Each cell holds a letter
code (or -1), per direction whether its line is open, the cube alone, or a word (0, 1, 2),
and how many decided words or lone cubes bar it from holding a letter (``blocked``).
Letters are placed, not cubes: `Layout.score` gives each letter's cubes to the cells that
count most, and jokers fill the rest.

>>> from engine.adlib.roll import Roll
>>> from engine.adlib.words import formable_words
>>> from engine.lexicon import Lexicon
>>> roll = Roll.parse("C A T S", "scribbage")
>>> layout = Layout(roll, formable_words(roll, Lexicon.open("en")))
>>> undo = layout.lay_first(layout.words.text.index("cat"), 0)
>>> layout.score()[0], layout.grid(set()).rows()
(5, ['CAT'])
>>> layout.undo(undo)
>>> layout.order
[]
"""

from __future__ import annotations

from engine.adlib.grid import Grid, Tile
from engine.adlib.roll import Roll
from engine.adlib.tables import Spelling, spellings
from engine.adlib.words import VALUES, RollWords

#: What `Layout.undo` takes back: ("tile", cell), ("state", direction, cell, old) or
#: ("block", cell), in the order they were done.
Undo = list[object]
#: Two crossing words: (direction, row, column, letter codes) each, the first at (0, 0).
Pair = tuple[tuple[int, int, int, bytes], tuple[int, int, int, bytes]]
#: A line's option: (what it adds per cube it takes, start cell, word number or -1 alone).
Option = tuple[float, int, int]


class Layout:
    """The cells of one crossword being built, with undoable moves."""

    def __init__(self, roll: Roll, words: RollWords) -> None:
        self.words = words
        self.have = list(words.have)
        self.jokers = words.jokers
        self.cubes = sum(self.have) + self.jokers
        self.total = roll.total
        # Rows above the root's and cells left of it on its row are smaller than `root`, so
        # they are out of play, except while rebuilding around two words, when crosswords
        # grow on every side of them (`edge` is 0 then).
        reach = self.cubes + 2
        self.stride = 2 * reach + 2
        self.root = reach * self.stride + reach
        size = (2 * reach + 2) * self.stride
        self.letter = [-1] * size
        self.state = ([0] * size, [0] * size)  # per direction: 0 open, 1 alone, 2 a word
        self.blocked = [0] * size
        self.need = [0] * 26
        self.short = 0  # jokers the placed letters need
        self.order: list[int] = []  # the cells with a letter, in the order they were laid
        self.edge = self.root  # cells before this are out of play
        # Which crosswords a narrow pass reaches soon depends on the corner it grows them
        # from: forwards from the top left, or with every word spelt backwards from the
        # bottom right.
        self.spellings = spellings(words)
        self.spelling: Spelling = self.spellings[0]

    # -- moves -------------------------------------------------------------------------

    def lay(self, start: int, step: int, direction: int, coded: bytes) -> Undo:
        """Put a word's letters from `start`; mark its run decided and its ends blocked."""
        undo: Undo = []
        cell = start
        for code in coded:
            if self.letter[cell] < 0:
                self.letter[cell] = code
                if self.need[code] >= self.have[code]:
                    self.short += 1
                self.need[code] += 1
                self.order.append(cell)
                undo.append(("tile", cell))
            undo.append(("state", direction, cell, self.state[direction][cell]))
            self.state[direction][cell] = 2
            cell += step
        for end in (start - step, cell):
            self.blocked[end] += 1
            undo.append(("block", end))
        return undo

    def undo(self, undo: Undo) -> None:
        for item in reversed(undo):
            assert isinstance(item, tuple)
            if item[0] == "tile":
                cell = item[1]
                code = self.letter[cell]
                self.need[code] -= 1
                if self.need[code] >= self.have[code]:
                    self.short -= 1
                self.letter[cell] = -1
                self.order.pop()
            elif item[0] == "state":
                self.state[item[1]][item[2]] = item[3]
            else:
                self.blocked[item[1]] -= 1

    def lay_first(self, number: int, direction: int) -> Undo:
        """A first word from the first cell: across, or down with the first cube alone across."""
        step = 1 if direction == 0 else self.stride
        undo: Undo = []
        if direction == 1:  # a down word whose first cube stands alone across
            undo.append(("block", self.root + 1))
            self.blocked[self.root + 1] += 1
        undo.extend(self.lay(self.root, step, direction, self.spelling.codes[number]))
        if direction == 1:
            undo.append(("state", 0, self.root, self.state[0][self.root]))
            self.state[0][self.root] = 1
        return undo

    def lay_pair(self, pair: Pair) -> Undo:
        undo: Undo = []
        for direction, row, col, coded in pair:
            step = 1 if direction == 0 else self.stride
            undo.extend(self.lay(self.root + row * self.stride + col, step, direction, coded))
        return undo

    # -- what a line can be --------------------------------------------------------------

    def options(
        self,
        cell: int,
        direction: int,
        any_word: bool = False,
        left_over: int = -1,
        most: int = 0,
    ) -> list[Option]:
        """What the line through `cell` can be: (worth, start, word number or -1 alone),
        the words that add most per cube first.

        With `any_word`, stop at the first word that fits: is there one at all? With `most`,
        stop (unsorted) once there are that many options: are there fewer?
        `left_over`, when given, is the mask of letters with a cube still to be had.
        """
        step = 1 if direction == 0 else self.stride
        letter, blocked, edge = self.letter, self.blocked, self.edge
        first = cell
        while letter[first - step] >= 0:
            first -= step
        last = cell
        while letter[last + step] >= 0:
            last += step
        options: list[Option] = []
        if first == last:
            options.append((-1, cell, -1))
        short, jokers = self.short, self.jokers
        # How far a word may reach each way: up to a blocked cell or out of play. Letters the
        # line already shows, and letters with a cube left, are what a word may use for free.
        spare = self.cubes - len(self.order)
        line = 0
        here = first
        while here <= last:
            line |= 1 << letter[here]
            here += step
        before = 0  # cells a word may take before `first`, holding at most `spare` new cubes
        left = spare
        here = first - step
        while not blocked[here] and here >= edge:
            if letter[here] >= 0:
                line |= 1 << letter[here]
            elif left:
                left -= 1
            else:
                break
            before += 1
            here -= step
        after = 0
        left = spare
        here = last + step
        while not blocked[here]:
            if letter[here] >= 0:
                line |= 1 << letter[here]
            elif left:
                left -= 1
            else:
                break
            after += 1
            here += step
        if left_over < 0:
            left_over = self.left_over()
        free = line | left_over
        missing_ok = jokers - short
        lead = (cell - first) // step + before  # positions a word may have before `cell`
        tail = (last - cell) // step + after  # and after it
        codes = self.spelling.codes
        need, have = self.need, self.have
        inside = (cell - first) // step  # a word covers the line's cells before `cell`
        beyond = (last - cell) // step  # and after it
        table = self.spelling.fitting(letter[cell], free, missing_ok)
        taken: list[int] = []
        for position in range(inside, min(lead + 1, len(table))):
            shortest = position + 1 + beyond
            longest = position + 1 + tail
            for length, number in table[position]:
                if length > longest:
                    break
                if length < shortest:
                    continue
                # Lay the word in thought: its letters must match the line, its new cells be
                # open, and its new letters be cubes still to be had or jokers.
                start = cell - position * step
                if letter[start - step] >= 0 or letter[start + length * step] >= 0:
                    continue
                extra = short
                new = crossed = 0  # the values of its new cubes, and of letters it crosses
                here = start
                fits = True
                for code in codes[number]:
                    found = letter[here]
                    if found >= 0:
                        if found != code:
                            fits = False
                            break
                        crossed += VALUES[code]
                    elif blocked[here] or here < edge:
                        fits = False
                        break
                    else:
                        if need[code] >= have[code]:
                            extra += 1
                            if extra > jokers:
                                fits = False
                                break
                        else:
                            new += VALUES[code]
                        need[code] += 1
                        taken.append(code)
                    here += step
                for code in taken:
                    need[code] -= 1
                cubes = len(taken)
                taken.clear()
                if fits:
                    # What the word adds per cube it takes: its letters once more, and its
                    # new cubes once more as they leave the unused pile.
                    options.append(((2 * new + crossed) / (cubes or 1), start, number))
                    if any_word or len(options) == most:
                        return options
        options.sort(key=lambda option: -option[0])
        return options

    def left_over(self) -> int:
        """The mask of letters with a cube not yet laid."""
        need, have = self.need, self.have
        mask = 0
        for code in range(26):
            if need[code] < have[code]:
                mask |= 1 << code
        return mask

    # -- the finished crossword ----------------------------------------------------------

    def score(self) -> tuple[int, set[int]]:
        """The finished crossword's score, and the cells left to jokers: where a letter has
        more cells than cubes, its cubes go to the cells that count most."""
        across, down, letter, need, have = *self.state, self.letter, self.need, self.have
        score = -self.total
        short: dict[int, list[tuple[int, int]]] = {}
        for cell in self.order:
            code = letter[cell]
            words = (across[cell] == 2) + (down[cell] == 2)
            if need[code] > have[code]:
                short.setdefault(code, []).append((words, cell))
            else:
                score += VALUES[code] * (words + 1)
        jokers: set[int] = set()
        for code, cells in short.items():
            cells.sort(reverse=True)
            cubes = have[code]
            for words, _cell in cells[:cubes]:
                score += VALUES[code] * (words + 1)
            jokers.update(cell for _, cell in cells[cubes:])
        return score, jokers

    def grid(self, jokers: set[int]) -> Grid:
        """The crossword laid, as a grid, with jokers in the cells `jokers`."""
        tiles = {}
        for cell in self.order:
            row, col = divmod(cell - self.root + self.stride // 2, self.stride)
            col -= self.stride // 2
            if self.spelling.backwards:  # the crossword was built turned half round
                row, col = -row, -col
            tiles[row, col] = Tile(chr(97 + self.letter[cell]), joker=cell in jokers)
        return Grid(tiles).normalised()
