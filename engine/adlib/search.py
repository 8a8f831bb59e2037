"""The best-crossword search's tree: a branch-and-bound over a `Layout`.

The search builds a crossword from its first cell (its top row's leftmost cube, put at the
origin) by deciding, for one cube at a time, what its across or down line is: the cube
alone, or a formable word laid through it. A decided word's two end cells are marked to stay
empty, so every crossword is built exactly once and every run is checked as it is made.

A subtree whose bound cannot reach `Search.floor` is cut. In the full search (no `width`), a
line that no word can fill is settled at once (the cube stands alone there, or the subtree
is dead), and the open line with the fewest options is decided first (fail-first: forced
lines cost no branching, and a dead end shows before work is spent around it). A narrow
search tries only the `width` best options of the first open line. The passes that set
these knobs are in `engine.adlib.best`.

Of crosswords that differ only in the letter a joker stands for in one word, which score
alike, only one is searched (`engine.adlib.twins`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.adlib import finish, twins
from engine.adlib.bound import Bound
from engine.adlib.grid import Grid
from engine.adlib.layout import OPTIONS, Layout, Option
from engine.adlib.roll import Roll
from engine.adlib.tables import Move, Pair, crossing_pairs_at
from engine.adlib.words import VALUES, RollWords

Clock = Callable[[], float]

#: How many pairs of words `Search.pivot` may check for each first word: a pivot that
#: takes more has many pairs, and its crosswords grow about as fast from their first cells.
PIVOT_CHECKS = 10


@dataclass(frozen=True, slots=True)
class Progress:
    """How a search stands: the best score it has found, the most that any crossword it
    covers can still score, its nodes so far, and its time left by its clock."""

    score: int
    bound: int
    nodes: int
    left: float


#: Told how a search stands (at each look at the clock and at each better crossword), it
#: answers the best score that any search of the same roll has found.
Exchange = Callable[[Progress], int]


class OutOfTime(Exception):
    """The search's deadline has passed."""


class Proven(Exception):
    """The best found reaches the bound of what is left to search: nothing can beat it."""


class EnoughHere(Exception):
    """The search has spent the nodes it was allowed here (`Search.limit`)."""


class Search:
    """One branch-and-bound search of a roll: a layout, its bound, the best found, the knobs."""

    def __init__(
        self,
        roll: Roll,
        words: RollWords,
        clock: Clock,
        seconds: float,
        exchange: Exchange | None = None,
        clock_every: int = 64,
    ) -> None:
        self.clock = clock
        self.now = clock()  # the time at the last look at the clock
        self.deadline = self.end = self.now + seconds  # the one in force, and its own
        self.layout = Layout(roll, words)
        self.bound = Bound(words, roll.total, self.layout.joins)
        self.exchange = exchange
        self.clock_every = clock_every  # nodes between two looks at the clock
        self.best_score = -roll.total  # nothing laid: every cube counts against
        self.known = self.best_score  # the best score of all the searches of this roll
        self.best_grid: Grid | None = None
        self.nodes = 0
        # Until a full search has been through every first word, the bound of the empty
        # table is all that is known: every crossword of this roll lies under it.
        self.open_bound = self.ceiling = self.bound(self.layout)
        self.floor = self.best_score + 1  # what a subtree's bound must reach to be searched
        self.width: int | None = None  # try at most this many options a step (None: all)
        self.limit: int | None = None  # stop here (`EnoughHere`) after this many nodes
        # Per letter, the bound of the empty table where no cube of it is in two words.
        self.uncrossed: dict[int, int] = {}

    def adopt(self, grid: Grid, score: int) -> None:
        """Take `grid`, scoring `score`, as the best found so far."""
        self.best_grid, self.best_score = grid, score
        self.known = max(self.known, score)
        self.floor = max(self.floor, score + 1)

    def progress(self) -> Progress:
        """How this search stands, by its last look at the clock."""
        bound = max(self.best_score, self.open_bound)
        return Progress(self.best_score, bound, self.nodes, self.end - self.now)

    @contextlib.contextmanager
    def until(self, deadline: float) -> Iterator[None]:
        """Search no later than `deadline` (nor the search's own), then go back to the old one."""
        saved, self.deadline = self.deadline, min(self.deadline, deadline)
        try:
            yield
        except OutOfTime:
            pass
        finally:
            self.deadline = saved

    def play_first(self, move: Move) -> None:
        """Search every crossword that starts with this first word."""
        undo = self.layout.lay_first(*move)
        try:
            if not (move[1] and twins.alone(self.layout, self.layout.root, 0)):
                self.node()
        finally:
            undo()

    def play_pair(self, pair: Pair) -> None:
        """Search every crossword that holds these two crossing words, the first at the
        first cell, growing on every side of them."""
        layout = self.layout
        edge, layout.edge = layout.edge, 0
        undo = layout.lay_pair(pair)
        try:
            self.node()
        finally:
            undo()
            layout.edge = edge

    def pivot(self) -> tuple[int, list[Pair]] | None:
        """A pivot for the floor, with the pairs of words crossing at it; asked with the
        table empty. A pivot is a letter that every crossword reaching the floor has a
        cube of in two words: the bound of the crosswords with none of its cubes in two is
        below the floor. Each such crossword, or the same mirrored on its diagonal (its
        across words down), which scores alike, holds one of those pairs, and grows from
        it in far fewer nodes than from its first cell.

        Of the pivots, the letter in the fewest places in words is taken: it has the
        fewest pairs. None when no letter is a pivot, or when finding its pairs takes more
        than `PIVOT_CHECKS` checks a first word.
        """
        words, bound, have = self.layout.words, self.bound, self.layout.have
        pivots = []
        for code in range(26):
            # A quick look first: with none of its cubes in two words, a crossword loses
            # about their value against the bound of the empty table.
            if bound.cross[code] == 2 and self.ceiling - VALUES[code] * have[code] < self.floor:
                uncrossed = self.uncrossed.get(code)
                if uncrossed is None:
                    uncrossed = self.uncrossed[code] = bound.uncrossed(code)(self.layout)
                if uncrossed < self.floor:
                    pivots.append(code)
        if not pivots:
            return None
        places = [sum(coded.count(code) for coded in words.codes) for code in pivots]
        code = pivots[places.index(min(places))]
        pairs = crossing_pairs_at(words, code, PIVOT_CHECKS * 2 * len(words.codes))
        return None if pairs is None else (code, pairs)

    # -- the tree ------------------------------------------------------------------------

    def node(self) -> None:
        """Search every crossword grown from the layout as it stands."""
        self.nodes += 1
        if self.nodes % self.clock_every == 0:
            self.now = self.clock()
            if self.now >= self.deadline:
                raise OutOfTime
            if self.exchange is not None:
                self._hear()
        if self.limit is not None and self.nodes > self.limit:
            raise EnoughHere
        layout = self.layout
        # The first open line, in the order the cubes were laid: the one a narrow search
        # decides, and where the full search starts looking for the fewest options.
        if self.width is None:
            forced = self._force()
            if forced is None:
                return
            settled, lines = forced
        else:
            settled = []
            across, down = layout.state
            lines = [
                cell << 1 | direction
                for cell in layout.order
                for direction, state in ((0, across), (1, down))
                if state[cell] == 0
            ]
        try:
            if not lines:
                self._finish()
                return
            if self.bound.anchored(layout, lines, self.floor) < self.floor:
                return
            if self.bound(layout) < self.floor:
                return
            if self.width is not None:
                cell, direction = lines[0] >> 1, lines[0] & 1
                options = layout.options(cell, direction)[: self.width]
            else:
                cell, direction, options = self._fewest(lines)
            step = 1 if direction == 0 else layout.stride
            codes = layout.spelling.codes
            for start, number in options:
                if number < 0:
                    if twins.alone(layout, cell, direction):
                        continue
                    layout.settle(cell, direction)
                    try:
                        self.node()
                    finally:
                        layout.unsettle(cell, direction)
                else:
                    coded = codes[number]
                    new = layout.lay(start, step, direction, coded)
                    try:
                        if not twins.crossed(layout, start, step, len(coded)):
                            self.node()
                    finally:
                        layout.unlay(start, step, direction, coded, new)
        finally:
            if settled:
                layout.unsettle_all(settled)

    def _hear(self) -> None:
        """Cut as hard as the best score of all the searches allows."""
        assert self.exchange is not None
        known = self.exchange(self.progress())
        if known > self.known:
            self.known = known
            self.floor = max(self.floor, known + 1)
            if known >= self.open_bound:
                raise Proven

    def _force(self) -> tuple[list[int], list[int]] | None:
        """Settle every open line that no word can ever fill: the cube stands alone there.
        Returns the lines settled and the lines left open (each as cell * 2 + direction, in
        the order the cubes were laid), or None when a line that no word fills already
        holds two cubes: a dead end.

        A word that fits later fits now too (the cells it needs are empty or hold its
        letters, and the cubes that will fill them are still to be had), so a line with no
        word now never gets one.
        """
        layout = self.layout
        letter, blocked, fills, stride = layout.letter, layout.blocked, layout.fills, layout.stride
        across, down = layout.state
        jokered = layout.joker_only and layout.short  # a joker may have a twin (`twins`)
        settled: list[int] = []
        lines: list[int] = []
        for cell in layout.order:
            if not across[cell]:
                if fills(cell, 0):
                    lines.append(cell << 1)
                elif (
                    letter[cell - 1] >= 0
                    or letter[cell + 1] >= 0
                    or jokered
                    and twins.alone(layout, cell, 0)
                ):
                    layout.unsettle_all(settled)
                    return None
                else:
                    layout.seen.clear()
                    across[cell] = 1
                    blocked[cell - 1] += 1
                    blocked[cell + 1] += 1
                    settled.append(cell << 1)
            if not down[cell]:
                if fills(cell, 1):
                    lines.append(cell << 1 | 1)
                elif (
                    letter[cell - stride] >= 0
                    or letter[cell + stride] >= 0
                    or jokered
                    and twins.alone(layout, cell, 1)
                ):
                    layout.unsettle_all(settled)
                    return None
                else:
                    layout.seen.clear()
                    down[cell] = 1
                    blocked[cell - stride] += 1
                    blocked[cell + stride] += 1
                    settled.append(cell << 1 | 1)
        return settled, lines

    def _fewest(self, lines: list[int]) -> tuple[int, int, list[Option]]:
        """The open line with the fewest options: deciding it first keeps the tree narrow."""
        layout = self.layout
        letter, line = layout.letter, layout.line
        best, key, count = lines[0], 0, 0
        for index, open_line in enumerate(lines):
            cell = open_line >> 1
            options = (len(line(cell, open_line & 1)) - OPTIONS) >> 1
            mine = options * 16 - VALUES[letter[cell]]
            if not index or mine < key:
                best, key, count = open_line, mine, options
            if count <= 1:  # a line of one option: none has fewer
                break
        cell, direction = best >> 1, best & 1
        return cell, direction, layout.options(cell, direction)

    def _finish(self) -> None:
        score, jokers = finish.score(self.layout)
        if score > self.best_score:
            self.adopt(finish.grid(self.layout, jokers), score)
            if self.exchange is not None:
                self.exchange(self.progress())
            if score >= self.open_bound:
                raise Proven
