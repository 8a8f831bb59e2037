"""A crossword as the best-crossword search builds it: flat arrays of cells, undoable moves,
and what each line through a cube can still be.

Cells are ints, ``row * stride + col``, the first cell at ``root``. Each cell holds a letter
code (or -1), per direction whether its line is open, the cube alone, or a word (0, 1, 2),
and how many decided words or lone cubes bar it from holding a letter (``blocked``).
Letters are placed, not cubes: `engine.adlib.finish` gives each letter's cubes to the
cells that count most, and jokers fill the rest.

>>> from engine.adlib.roll import Roll
>>> from engine.adlib.words import formable_words
>>> from engine.lexicon import Lexicon
>>> roll = Roll.parse("C A T S", "scribbage")
>>> layout = Layout(roll, formable_words(roll, Lexicon.open("en")))
>>> undo = layout.lay_first(layout.words.text.index("cat"), 0)
>>> from engine.adlib import finish
>>> finish.score(layout)[0], finish.grid(layout, set()).rows()
(5, ['CAT'])
>>> undo()
>>> layout.order
[]
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

from engine.adlib.roll import Roll
from engine.adlib.tables import Joins, Line, Pair, Spelling, doubled_values, spellings
from engine.adlib.words import VALUES, RollWords

#: A line's option: (start cell, word number or -1 for the cube alone).
Option = tuple[int, int]
#: An option as it is worked out: with what it adds per cube it takes, first.
_Worked = tuple[float, int, int]


#: How many line shapes `Layout.line` keeps worked out before it starts afresh (some 65
#: MiB when full; a few seconds of search on a Pi fill a fraction).
LINES_KEPT = 1 << 18


#: Where a `tables.Line` holds its count of words, its richest value and its options.
WORDS, RICHEST, OPTIONS = 0, 1, 2


def _worth(option: _Worked) -> float:
    return option[0]


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
        self.spared = bytearray(self.have)  # per letter, its cubes still to be had
        # The cubes and jokers still to be had, as `line` keys them (None: changed since).
        self.stock: bytes | None = None
        # The lines worked out since the layout last changed (cell * 2 + direction).
        self.seen: dict[int, Line] = {}
        self.short = 0  # jokers the placed letters need
        self.left = sum(1 << code for code in range(26) if self.have[code])  # a cube to be had
        # The letters that only a joker can stand for (none when there is no joker).
        self.joker_only = (
            0 if not self.jokers else sum(1 << code for code in range(26) if not self.have[code])
        )
        self.value = 0  # the score of the cubes laid, less the roll's total, with no jokers
        self.order: list[int] = []  # the cells with a letter, in the order they were laid
        self.edge = self.root  # cells before this are out of play
        # Which crosswords a narrow pass reaches soon depends on the corner it grows them
        # from: forwards from the top left, or with every word spelt backwards from the
        # bottom right.
        self.spellings = spellings(words)
        self.joins = Joins(words)
        self.spelling: Spelling = self.spellings[0]
        # Per word: twice the value of its letters, the most that laying it can add.
        self.doubled = doubled_values(words)

    # -- moves -------------------------------------------------------------------------

    def lay(self, start: int, step: int, direction: int, coded: bytes) -> int:
        """Put a word's letters from `start`; mark its run decided and its ends blocked.
        Returns how many of its cells were empty (`unlay` takes it back)."""
        letter, need, have, order = self.letter, self.need, self.have, self.order
        state = self.state[direction]
        self.seen.clear()
        self.stock = None
        cell = start
        new = added = 0
        for code in coded:
            value = VALUES[code]
            added += value  # the cube is in one more word
            if letter[cell] < 0:
                letter[cell] = code
                count = need[code]
                if count >= have[code]:
                    self.short += 1
                else:
                    self.spared[code] -= 1
                    if count + 1 == have[code]:
                        self.left &= ~(1 << code)  # its last cube
                need[code] = count + 1
                order.append(cell)
                new += 1
                added += value  # and on the table
            state[cell] = 2
            cell += step
        self.blocked[start - step] += 1
        self.blocked[cell] += 1
        self.value += added
        return new

    def unlay(self, start: int, step: int, direction: int, coded: bytes, new: int) -> None:
        """Take back `lay(start, step, direction, coded)`, which laid `new` cubes. A word
        is laid only along an open line, so each of its cells was open that way before."""
        letter, need, have, order = self.letter, self.need, self.have, self.order
        state = self.state[direction]
        self.seen.clear()
        self.stock = None
        cell = start
        removed = 0
        for code in coded:
            removed += VALUES[code]
            state[cell] = 0
            cell += step
        self.blocked[start - step] -= 1
        self.blocked[cell] -= 1
        for _ in range(new):
            cell = order.pop()
            code = letter[cell]
            letter[cell] = -1
            count = need[code] - 1
            need[code] = count
            if count >= have[code]:
                self.short -= 1
            else:
                self.spared[code] += 1
                if count + 1 == have[code]:
                    self.left |= 1 << code
            removed += VALUES[code]
        self.value -= removed

    def settle(self, cell: int, direction: int) -> None:
        """The cube at `cell` stands alone that way: its neighbours there stay empty."""
        step = 1 if direction == 0 else self.stride
        self.seen.clear()
        self.state[direction][cell] = 1
        self.blocked[cell - step] += 1
        self.blocked[cell + step] += 1

    def unsettle(self, cell: int, direction: int) -> None:
        step = 1 if direction == 0 else self.stride
        self.seen.clear()
        self.state[direction][cell] = 0
        self.blocked[cell - step] -= 1
        self.blocked[cell + step] -= 1

    def unsettle_all(self, lines: list[int]) -> None:
        """Take back the lines settled alone, each as cell * 2 + direction."""
        blocked, stride = self.blocked, self.stride
        across, down = self.state
        self.seen.clear()
        for line in lines:
            cell = line >> 1
            if line & 1:
                down[cell] = 0
                blocked[cell - stride] -= 1
                blocked[cell + stride] -= 1
            else:
                across[cell] = 0
                blocked[cell - 1] -= 1
                blocked[cell + 1] -= 1

    def lay_first(self, number: int, direction: int) -> Callable[[], None]:
        """A first word from the first cell: across, or down with the first cube alone
        across. Returns what takes it back."""
        coded = self.spelling.codes[number]
        step = 1 if direction == 0 else self.stride
        if direction == 1:  # the cell left of the first is out of play: blocking it is moot
            self.settle(self.root, 0)
        new = self.lay(self.root, step, direction, coded)

        def undo() -> None:
            self.unlay(self.root, step, direction, coded, new)
            if direction == 1:
                self.unsettle(self.root, 0)

        return undo

    def lay_pair(self, pair: Pair) -> Callable[[], None]:
        """Two crossing words, the first at the first cell. Returns what takes them back."""
        laid = []
        for direction, row, col, coded in pair:
            step = 1 if direction == 0 else self.stride
            start = self.root + row * self.stride + col
            laid.append((start, step, direction, coded, self.lay(start, step, direction, coded)))

        def undo() -> None:
            for word in reversed(laid):
                self.unlay(*word)

        return undo

    # -- what a line can be --------------------------------------------------------------

    def line(self, cell: int, direction: int) -> Line:
        """What the line through `cell` can be (see `Line`).

        The answer depends only on the line's shape: the letters and empty cells each way
        up to a blocked cell, the edge of play or as many empty cells as there are cubes
        left, and the cubes and jokers still to be had. Deep in a search the same shapes
        come back again and again, so each is worked out once (`Spelling.lines`).
        """
        seen = self.seen
        known = seen.get(cell << 1 | direction)
        if known is not None:
            return known
        stock = self.stock
        if stock is None:
            stock = self.stock = bytes(self.spared) + bytes((self.jokers - self.short,))
        step = 1 if direction == 0 else self.stride
        letter, blocked, edge = self.letter, self.blocked, self.edge
        spare = self.cubes - len(self.order)
        shape = [letter[cell]]
        for way in (-step, step):  # 26 an empty cell, 27 where the line stops
            left = spare
            here = cell + way
            while True:
                found = letter[here]
                if found >= 0:
                    shape.append(found)
                elif blocked[here] or here < edge:
                    shape.append(27)
                    break
                else:
                    shape.append(26)
                    if not left:
                        break
                    left -= 1
                here += way
        key = stock + bytes(shape)
        lines = self.spelling.lines
        known = lines.get(key)
        if known is None:
            if len(lines) >= LINES_KEPT:
                lines.clear()
            worked = self._work_out(cell, direction)
            doubled = [self.doubled[number] for _, _, number in worked if number >= 0]
            known = lines[key] = array("i", (len(doubled), max(doubled, default=0)))
            for _, start, number in worked:
                known.append((start - cell) // step)
                known.append(number)
        seen[cell << 1 | direction] = known
        return known

    def options(self, cell: int, direction: int) -> list[Option]:
        """What the line through `cell` can be: (start, word number or -1 alone), the words
        that add most per cube first."""
        step = 1 if direction == 0 else self.stride
        flat = self.line(cell, direction)
        return [(cell + flat[i] * step, flat[i + 1]) for i in range(OPTIONS, len(flat), 2)]

    def _work_out(self, cell: int, direction: int) -> list[_Worked]:
        """`options`, worked out from the word tables, each with its worth first."""
        step = 1 if direction == 0 else self.stride
        letter, blocked, edge = self.letter, self.blocked, self.edge
        first = last = cell
        while letter[first - step] >= 0:
            first -= step
        while letter[last + step] >= 0:
            last += step
        spare = self.cubes - len(self.order)
        missing = self.jokers - self.short
        spelling = self.spelling
        if first == last:
            options: list[_Worked] = [(-1, cell, -1)]
            if not spare:  # a word would need a cube more than this one
                return options
            line = 1 << letter[cell]
        else:
            options = []
            line = 0
            here = first
            while here <= last:
                line |= 1 << letter[here]
                here += step
        # How far a word may reach each way: up to a blocked cell or out of play, over at
        # most `spare` empty cells. Letters the line already shows, and letters with a cube
        # left, are what a word may use for free.
        before = after = 0
        left = spare
        here = first - step
        while not blocked[here] and here >= edge:
            found = letter[here]
            if found >= 0:
                line |= 1 << found
            elif left:
                left -= 1
            else:
                break
            before += 1
            here -= step
        left = spare
        here = last + step
        while not blocked[here]:
            found = letter[here]
            if found >= 0:
                line |= 1 << found
            elif left:
                left -= 1
            else:
                break
            after += 1
            here += step
        if first == last and not before and not after:  # no room for a second letter
            return options
        code = letter[cell]
        free = line | self.left
        if not self.joins(free, missing) >> code & 1:  # no word at all spelt from these
            return options
        inside = (cell - first) // step  # a word covers the line's cells before `cell`
        beyond = (last - cell) // step  # and after it
        lead = inside + before  # positions a word may have before `cell`
        tail = beyond + after  # and after it
        fit = self.fit
        slots = spelling.fits.get((free, missing))
        if slots is None:
            slots = spelling.fitting(free, missing)
        slot = code * spelling.positions
        for position in range(inside, min(lead + 1, len(spelling.by_position[code]))):
            start = cell - position * step
            if letter[start - step] >= 0:
                continue
            shortest = position + 1 + beyond
            longest = position + 1 + tail
            entries = slots[slot + position]
            if entries is None:
                entries = spelling.fitting_at(code, position, free, missing, slots)
            for length, number in entries:
                if length > longest:
                    break
                if length < shortest:
                    continue
                if letter[start + length * step] >= 0:
                    continue
                worth = fit(start, step, number)
                if worth >= 0:
                    options.append((worth, start, number))
        options.sort(key=_worth, reverse=True)
        return options

    def fills(self, cell: int, direction: int) -> bool:
        """Can a word fill the line through `cell`? A cube alone on its line takes a word
        only with a new cube beside it, which few letters allow."""
        step = 1 if direction == 0 else self.stride
        letter, blocked = self.letter, self.blocked
        if letter[cell - step] < 0 and letter[cell + step] < 0 and self.jokers == self.short:
            # With no joker to spare, the cube beside it is a letter with a cube left that
            # some word has next to this letter.
            spelling = self.spelling
            code = letter[cell]
            if blocked[cell - step] or cell - step < self.edge:
                beside = 0 if blocked[cell + step] else spelling.starts[code]
            else:
                beside = spelling.ends[code] if blocked[cell + step] else spelling.beside[code]
            if not beside & self.left:
                return False
        return self.line(cell, direction)[WORDS] > 0

    def fit(self, start: int, step: int, number: int) -> float:
        """Lay word `number` from `start` in thought (its ends are empty): what it adds per
        cube it takes (its letters once more, and its new cubes once more as they leave the
        unused pile), or -1 if its letters do not match the line's, one of its new cells is
        not free, or its new letters are neither cubes still to be had nor jokers."""
        letter, blocked, edge = self.letter, self.blocked, self.edge
        need, have = self.need, self.have
        counted = self.spelling.repeats[number]  # a letter twice: count its cubes as it goes
        taken = []
        extra = self.short
        jokers = self.jokers
        new = crossed = cubes = 0  # the values of its new cubes and of the letters it crosses,
        # and how many new cubes it takes
        here = start
        worth = 0.0
        for code in self.spelling.codes[number]:
            found = letter[here]
            if found >= 0:
                if found != code:
                    worth = -1.0
                    break
                crossed += VALUES[code]
            elif blocked[here] or here < edge:
                worth = -1.0
                break
            else:
                if need[code] >= have[code]:
                    extra += 1
                    if extra > jokers:
                        worth = -1.0
                        break
                else:
                    new += VALUES[code]
                cubes += 1
                if counted:
                    need[code] += 1
                    taken.append(code)
            here += step
        for code in taken:
            need[code] -= 1
        if worth < 0:
            return worth
        return (2 * new + crossed) / (cubes or 1)
