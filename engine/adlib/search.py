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
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.adlib.bound import Bound
from engine.adlib.grid import Grid
from engine.adlib.layout import Layout, Option, Pair, Undo
from engine.adlib.roll import Roll
from engine.adlib.tables import Move
from engine.adlib.words import VALUES, RollWords

Clock = Callable[[], float]


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
        self.layout = Layout(roll, words)
        self.bound = Bound(words, roll.total)
        self.clock = clock
        self.now = clock()  # the time at the last look at the clock
        self.deadline = self.end = self.now + seconds  # the one in force, and its own
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
            self.node()
        finally:
            self.layout.undo(undo)

    def play_pair(self, pair: Pair) -> None:
        """Search every crossword that holds these two crossing words."""
        undo = self.layout.lay_pair(pair)
        try:
            self.node()
        finally:
            self.layout.undo(undo)

    # -- the tree ------------------------------------------------------------------------

    def node(self) -> None:
        self.nodes += 1
        if self.nodes % self.clock_every == 0:
            self.now = self.clock()
            if self.now >= self.deadline:
                raise OutOfTime
            if self.exchange is not None:
                self._hear()
        if self.limit is not None and self.nodes > self.limit:
            raise EnoughHere
        forced: Undo | None = []
        if self.width is None:
            forced = self._force()
            if forced is None:
                return
        try:
            self._branch()
        finally:
            if forced:
                self.layout.undo(forced)

    def _hear(self) -> None:
        """Cut as hard as the best score of all the searches allows."""
        assert self.exchange is not None
        known = self.exchange(self.progress())
        if known > self.known:
            self.known = known
            self.floor = max(self.floor, known + 1)
            if known >= self.open_bound:
                raise Proven

    def _force(self) -> Undo | None:
        """Settle every open line that no word can ever fill: the cube stands alone there.

        A word that fits later fits now too (the cells it needs are empty or hold its
        letters, and the cubes that will fill them are still to be had), so a line with no
        word now never gets one. None when such a line already holds two cubes: a dead end.
        """
        layout = self.layout
        undo: Undo = []
        letter, blocked, state = layout.letter, layout.blocked, layout.state
        left_over = layout.left_over()
        for cell in layout.order:
            for direction in (0, 1):
                if state[direction][cell] != 0:
                    continue
                options = layout.options(cell, direction, True, left_over)
                if options and options[-1][2] >= 0:
                    continue
                step = 1 if direction == 0 else layout.stride
                if letter[cell - step] >= 0 or letter[cell + step] >= 0:
                    layout.undo(undo)
                    return None
                undo.append(("state", direction, cell, 0))
                state[direction][cell] = 1
                for end in (cell - step, cell + step):
                    blocked[end] += 1
                    undo.append(("block", end))
        return undo

    def _branch(self) -> None:
        layout = self.layout
        state0, state1 = layout.state
        for cell in layout.order:
            if state0[cell] == 0:
                direction = 0
                break
            if state1[cell] == 0:
                direction = 1
                break
        else:
            self._finish()
            return
        if self.bound(layout) < self.floor:
            return
        if self.width is not None:
            options = layout.options(cell, direction)[: self.width]
        else:
            cell, direction, options = self._fewest(cell, direction)
        step = 1 if direction == 0 else layout.stride
        for _, start, number in options:
            if number < 0:
                layout.state[direction][cell] = 1
                layout.blocked[cell - step] += 1
                layout.blocked[cell + step] += 1
                try:
                    self.node()
                finally:
                    layout.blocked[cell - step] -= 1
                    layout.blocked[cell + step] -= 1
                    layout.state[direction][cell] = 0
            else:
                undo = layout.lay(start, step, direction, layout.spelling.codes[number])
                try:
                    self.node()
                finally:
                    layout.undo(undo)

    def _fewest(self, cell: int, direction: int) -> tuple[int, int, list[Option]]:
        """The open line with the fewest options: deciding it first keeps the tree narrow."""
        layout = self.layout
        state, letter = layout.state, layout.letter
        left_over = layout.left_over()
        options = layout.options(cell, direction, left_over=left_over)
        key = len(options) * 16 - VALUES[letter[cell]]
        for other in layout.order:
            if len(options) <= 1:
                break
            for way in (0, 1):
                if state[way][other] == 0 and (other, way) != (cell, direction):
                    # Only a line with no more options than this one can be chosen.
                    found = layout.options(other, way, left_over=left_over, most=len(options) + 1)
                    mine = len(found) * 16 - VALUES[letter[other]]
                    if mine < key:
                        cell, direction, options, key = other, way, found, mine
        return cell, direction, options

    def _finish(self) -> None:
        score, jokers = self.layout.score()
        if score > self.best_score:
            self.adopt(self.layout.grid(jokers), score)
            if self.exchange is not None:
                self.exchange(self.progress())
            if score >= self.open_bound:
                raise Proven
