"""The best crossword a roll allows: an anytime branch-and-bound.

The search builds a crossword from its first cell (its top row's leftmost cube, put at
the origin) by deciding, for one cube at a time, what its across or down line is: the
cube alone, or a formable word laid through it. A decided word's two end cells are
marked to stay empty, so every crossword is built exactly once and every run is checked
as it is made. Letters are placed, not cubes: when the crossword is done, each letter's
cubes go to the cells that count most (crossings first) and jokers fill the rest.

A crossword scores ``sum over placed cubes of value * (words it is in + 1) - roll total``.
The bound counts, letter by letter, each cube at the most words it can still be in:
two if that letter can sit in two words at once with this roll, one if it fits a word,
none otherwise, and none for a cube that no word can take any more. Crossings on letters
other than the hubs (letters that every word holds one of, such as the vowels and Y) are
capped by how many words the hub cubes can serve (see `_Search._crossing_cap`): a roll short
of vowels cannot cross all its consonants. A subtree whose bound cannot beat the best found
is cut; in the full search, a line that no word can fill is settled at once (the cube
stands alone there, or the subtree is dead), and the open line with the fewest options is
decided first (fail-first: forced lines cost no branching, and a dead end shows before
work is spent around it). Good crosswords are dense blocks of dear letters, so first
words are tried dearest per letter first, and a line's words by what they add per cube
they take.

The search runs narrow first, for a good answer quickly: a few best options a step, then
every option but only a few nodes a first word, for the first third of the time. Each
narrow pass runs twice, with the words as they are and with every word spelt backwards,
which builds each crossword turned half round, from its bottom right corner: a crossword
that one of them reaches late, the other often reaches soon. Then it runs in full,
cutting whatever cannot beat the best found; if the full search ends in time the answer
is proven best. After the narrow passes, and whenever the full search finds a better
crossword, the search rebuilds around the best found: it keeps two crossing words of it
and searches all the rest afresh, growing on every side of them (a large neighbourhood
search). A roll's best crossword often shares such a pair with a good one, and from the
pair it is a few thousand nodes away, where from its first cube it may be a million.

Searches on several cores deal the first words out among worker processes, each running the
passes above on its share; they tell each other the best score found, so each cuts as hard
as the best of all, and the answer is proven when every share is.

>>> from engine.adlib.roll import Roll
>>> from engine.lexicon import Lexicon
>>> found = best_crossword(Roll.parse("A T", "scribbage"), Lexicon.open("en"), seconds=5)
>>> found.rows, found.score, found.proven_optimal
(['TA'], 3, True)
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Protocol

from engine.adlib.grid import ACROSS, DOWN, Grid, Tile
from engine.adlib.roll import Roll
from engine.adlib.words import VALUES, RollWords, formable_words
from engine.lexicon import Lexicon

if TYPE_CHECKING:
    from multiprocessing.context import ForkServerContext, SpawnContext

Clock = Callable[[], float]
#: How many search nodes pass between two looks at the clock.
CLOCK_EVERY = 64
#: The narrow passes before the full search: at most `width` options a step (None: all, the
#: fewest-options line first as in the full search) and `nodes` nodes for each first word,
#: until `until` of the time is spent. Many first words get a look soon.
NARROW = ((1, 40, 0.05), (2, 400, 0.1), (3, 4000, 0.18), (None, 100, 0.3))
#: Rebuilding around the best found (after the narrow passes, and whenever the full search
#: finds a better crossword): the nodes each pair of its crossing words gets, round by round,
#: and how much each rebuild may take from its start or its last better crossword: a share
#: of the time, and at most so many nodes, so that long searches keep time for the proof.
#: A climb from a poor crossword to the best often takes several thousand nodes a step.
REBUILD_NODES = (2000, 8000, 32000, 128000)
REBUILD_SHARE = 0.3
REBUILD_MOST = 150000
#: How many filtered word lists `_fitting` keeps before it starts afresh.
FITS_KEPT = 50000
#: The vowels as a mask of letter codes: where the search for hub letters starts.
VOWELS = sum(1 << (ord(letter) - 97) for letter in "aeiou")
#: How far above the best found each full pass aims (1: plain branch-and-bound). Aiming
#: higher found better crosswords sooner, but rebuilding now finds them early, and then each
#: pass that aims too high costs nearly a whole proof (seed 45: 60 s left it unproven at 3).
ASPIRATION = 1


@dataclass(frozen=True, slots=True)
class BestCrossword:
    """The best crossword found for a roll, and what the search could prove about it."""

    roll: Roll
    grid: Grid | None
    score: int
    upper_bound: int
    proven_optimal: bool
    seconds: float
    nodes: int

    @property
    def rows(self) -> list[str]:
        return self.grid.rows() if self.grid is not None else []

    def to_json(self) -> dict[str, object]:
        return {
            "roll": str(self.roll),
            "grid": self.rows,
            "score": self.score,
            "proven_optimal": self.proven_optimal,
            "seconds": round(self.seconds, 3),
            "upper_bound": self.upper_bound,
            "nodes": self.nodes,
        }


class _OutOfTime(Exception):
    pass


class _Proven(Exception):
    """The best found reaches the bound of the empty table: nothing can beat it."""


class _EnoughHere(Exception):
    """This first word has had its share of a narrow pass."""


def best_crossword(
    roll: Roll,
    lexicon: Lexicon,
    seconds: float = 10.0,
    clock: Clock = time.monotonic,
    workers: int = 1,
) -> BestCrossword:
    """Search for ``seconds`` (by ``clock``) and return the best crossword found.

    With ``workers`` above 1, the first words are dealt out among that many processes (one
    per core is best), which share the best score found so that each cuts as hard as the best.
    """
    start = clock()
    words = formable_words(roll, lexicon)
    seconds -= clock() - start
    if workers > 1:
        shares = _search_in_parallel(roll, words, clock, seconds, workers)
    else:
        shares = [_search_share(roll, words, clock, seconds, (0, 1), None)]
    best = max(shares, key=lambda share: share.score)
    # Each share's bound covers its first words: the answer is proven when every share's is.
    bound = max(share.bound for share in shares)
    return BestCrossword(
        roll=roll,
        grid=best.grid,
        score=best.score,
        upper_bound=max(best.score, bound),
        proven_optimal=bound <= best.score,
        seconds=clock() - start,
        nodes=sum(share.nodes for share in shares),
    )


@dataclass(frozen=True, slots=True)
class _Share:
    """What one worker found among its first words, and the bound it proved for them."""

    score: int
    grid: Grid | None
    bound: int
    ceiling: int  # the bound of the empty table, for any share that comes back empty
    nodes: int


class _SharedScore(Protocol):
    """The best score of all the workers (a `multiprocessing.Value`)."""

    value: int

    def get_lock(self) -> contextlib.AbstractContextManager[object]: ...


def _search_share(
    roll: Roll,
    words: RollWords,
    clock: Clock,
    seconds: float,
    share: tuple[int, int],
    shared: _SharedScore | None,
) -> _Share:
    search = _Search(roll, words, clock, clock() + seconds, share, shared)
    search.run()
    # A complete share holds nothing above the best score of all the workers.
    bound = search.known if search.complete else max(search.best_score, search.open_bound)
    return _Share(search.best_score, search.best_grid, bound, search.ceiling, search.nodes)


def _search_in_parallel(
    roll: Roll, words: RollWords, clock: Clock, seconds: float, workers: int
) -> list[_Share]:
    """Search each share of the first words in a process of its own, this one included."""
    context = _processes()
    shared = context.Value("i", -roll.total)
    children = []
    try:
        for k in range(1, workers):
            reader, writer = context.Pipe(duplex=False)
            child = context.Process(
                target=_child,
                args=(writer, roll, words, clock, seconds, time.monotonic(), (k, workers), shared),
                daemon=True,
            )
            children.append((child, reader))
            child.start()
            writer.close()
    except (OSError, RuntimeError):  # no processes to be had here: search alone
        for child, _ in children:
            if child.is_alive():
                child.kill()
        return [_search_share(roll, words, clock, seconds, (0, 1), None)]
    shares = [_search_share(roll, words, clock, seconds, (0, workers), shared)]
    for child, reader in children:
        try:
            shares.append(reader.recv())
        except (EOFError, OSError):  # a worker that died leaves its first words unsearched
            shares.append(_Share(-roll.total, None, shares[0].ceiling, shares[0].ceiling, 0))
        child.join()
    return shares


def _processes() -> SpawnContext | ForkServerContext:
    """Where workers come from: never a fork of this process, whose other threads (a box's
    camera, its pins) may hold locks; forked from a clean server where there is one."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])  # workers start with the search imported
        return context
    return multiprocessing.get_context("spawn")


def _child(
    pipe: Connection,
    roll: Roll,
    words: RollWords,
    clock: Clock,
    seconds: float,
    sent: float,
    share: tuple[int, int],
    shared: _SharedScore,
) -> None:
    # Ctrl-C reaches the whole process group: the parent answers it, and ends its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    seconds -= time.monotonic() - sent  # the time this worker took to start is spent
    pipe.send(_search_share(roll, words, clock, seconds, share, shared))


class _Search:
    """The state of one search: a board of letter codes with undoable moves."""

    def __init__(
        self,
        roll: Roll,
        words: RollWords,
        clock: Clock,
        deadline: float,
        share: tuple[int, int] = (0, 1),
        shared: _SharedScore | None = None,
    ) -> None:
        self.clock, self.deadline = clock, deadline
        self.share, self.shared = share, shared
        self.words = words
        self.have = list(words.have)
        self.jokers = words.jokers
        self.cubes = sum(self.have) + self.jokers
        self.total = roll.total
        # Cells are ints: row * stride + col, the first cell at `root`. Rows above the root's
        # and cells left of it on its row are smaller than `root`, so they are out of play,
        # except while rebuilding around two words, when crosswords grow on every side of
        # them (`edge` is 0 then).
        reach = self.cubes + 2
        self.stride = 2 * reach + 2
        self.root = reach * self.stride + reach
        size = (2 * reach + 2) * self.stride
        self.letter = [-1] * size
        self.state = ([0] * size, [0] * size)  # per direction: 0 open, 1 alone, 2 a word
        self.blocked = [0] * size
        self.need = [0] * 26
        self.short = 0  # jokers the placed letters need
        self.order: list[int] = []
        counts = [[0] * 26 for _ in words.codes]  # per word, how many of each letter
        for coded, counted in zip(words.codes, counts, strict=True):
            for code in coded:
                counted[code] += 1
        self.cross = self._crossable(counts)
        self.hub, self.crossings = self._crossing_cap(counts)
        self.base = -self.total + sum(
            VALUES[code] * count * (self.cross[code] + 1 if self.cross[code] else 0)
            for code, count in enumerate(self.have)
        )
        # The words forwards, and backwards: the same search with every word spelt backwards
        # builds each crossword turned half round, from its other corner. Which crosswords
        # a narrow pass reaches soon depends on the corner it grows them from.
        self.spellings = (
            _Spelling(words.codes),
            _Spelling(tuple(coded[::-1] for coded in words.codes), backwards=True),
        )
        self.spelling = self.spellings[0]
        # Per letter, the sets of letters of the words with it, fewest letters first, for a
        # memo of which letters can still join a word.
        sets: list[set[int]] = [set() for _ in range(26)]
        for coded in words.codes:
            mask = _mask(coded)
            for code in coded:
                sets[code].add(mask)
        self.masks = [sorted(masks, key=int.bit_count) for masks in sets]
        self.memo: dict[tuple[int, int, int], bool] = {}
        self.joinable: dict[tuple[int, int], int] = {}
        self.rolled = sum(1 << code for code in range(26) if self.have[code])
        self.crossable = [code for code in range(26) if self.cross[code]]
        self.best_score = -self.total  # nothing laid: every cube counts against
        self.known = self.best_score  # the best score of all the workers
        self.best_grid: Grid | None = None
        self.nodes = 0
        self.complete = False
        self.open_bound = self.ceiling = -self.total
        self.floor = self.best_score + 1  # what a subtree's bound must reach to be searched
        self.width: int | None = None
        self.limit: int | None = None
        self.edge = self.root  # cells before this are out of play
        self.rebuilt: Grid | None = None  # the best crossword last rebuilt around

    # -- the driver --------------------------------------------------------------------

    def run(self) -> None:
        roots = self._root_moves()
        # Until the full search has been through every first word, the bound of the empty
        # table is all that is known: every crossword of this roll lies under it.
        self.open_bound = self.ceiling = self._bound()
        try:
            start = self.clock()
            total = self.deadline - start
            begun = 0.0
            for width, nodes, until in NARROW:
                # Half the pass with the words spelt forwards, half with them backwards.
                for spelling, share in zip(self.spellings, (0.5, 1), strict=True):
                    with self._until(start + total * (begun + (until - begun) * share)):
                        self._narrow(roots, width, nodes, spelling)
                begun = until
                if self.clock() >= self.deadline:
                    raise _OutOfTime
            self._rebuild(total * REBUILD_SHARE)
            while self.open_bound > self.known:
                # Aim a little above the best found: a full pass that cuts everything below
                # `floor` either finds such a crossword (and goes on as usual from there) or
                # proves that none exists, and the next pass aims one lower.
                self.floor = min(self.open_bound, self.known + ASPIRATION)
                for move in roots:
                    self._play_root(move)
                    if self.best_grid is not self.rebuilt:
                        self._rebuild(total * REBUILD_SHARE)
                self.open_bound = self.floor - 1
            self.complete = True
        except _Proven:
            self.complete = True
        except _OutOfTime:
            pass

    def _narrow(
        self, roots: list[tuple[int, int]], width: int | None, nodes: int, spelling: _Spelling
    ) -> None:
        """Give each across first word `nodes` nodes of a search that tries at most `width`
        options a step, with the words spelt `spelling`'s way."""
        self.width, self.spelling = width, spelling
        try:
            # A crossword and its mirror image score alike: across first words will do.
            for move in roots:
                if move[1] == 0:
                    self.limit = self.nodes + nodes
                    with contextlib.suppress(_EnoughHere):
                        self._play_root(move)
        finally:
            self.width, self.limit, self.spelling = None, None, self.spellings[0]

    def _rebuild(self, seconds: float) -> None:
        """Keep two crossing words of the best crossword found and search all the rest
        afresh, on every side of them (a large neighbourhood search): the best crosswords of
        a roll often share such a pair with a good one while differing everywhere else.
        Each round gives every pair more nodes; a better crossword starts over around it,
        with a fresh allowance of nodes and time."""
        aim, self.floor = self.floor, self.known + 1
        self.edge, self.width = 0, None
        finished: set[_Pair] = set()  # pairs whose every crossword has been seen
        try:
            while self.best_grid is not None and self.best_grid is not self.rebuilt:
                self.rebuilt = self.best_grid
                with self._until(self.clock() + seconds):
                    self._rebuild_around(self.best_grid, finished, self.nodes + REBUILD_MOST)
        finally:
            self.floor = max(aim, self.known + 1)
            self.edge = self.root
            self.limit = None

    def _rebuild_around(self, grid: Grid, finished: set[_Pair], most: int) -> None:
        """Search around each pair of `grid`'s crossing words, round by round, until a better
        crossword turns up or the search has spent `most` nodes."""
        pairs = _crossing_pairs(grid)
        for nodes in REBUILD_NODES:
            for pair in pairs:
                if self.best_grid is not grid or self.nodes >= most:
                    return
                if pair in finished:
                    continue
                self.limit = min(self.nodes + nodes, most)
                undo = self._lay_pair(pair)
                try:
                    self._search()
                    finished.add(pair)
                except _EnoughHere:
                    pass
                finally:
                    self._undo(undo)

    @contextlib.contextmanager
    def _until(self, deadline: float) -> Iterator[None]:
        """Search no later than `deadline` (nor the search's own), then go back to the old one."""
        saved, self.deadline = self.deadline, min(self.deadline, deadline)
        try:
            yield
        except _OutOfTime:
            pass
        finally:
            self.deadline = saved

    def _lay_pair(self, pair: _Pair) -> list[object]:
        undo: list[object] = []
        for direction, row, col, coded in pair:
            step = 1 if direction == 0 else self.stride
            undo.extend(self._lay(self.root + row * self.stride + col, step, direction, coded))
        return undo

    def _root_moves(self) -> list[tuple[int, int]]:
        """This worker's first words, across or down from the origin, the dearest per letter
        first: the best crosswords are dense blocks of dear letters, often topped by a short
        word. Worker k of n takes every n-th word from the k-th, so each gets dear ones."""
        have = self.have
        ranked = []
        for number, coded in enumerate(self.words.codes):
            counts: dict[int, int] = {}
            value = 0
            for code in coded:
                counts[code] = counts.get(code, 0) + 1
                if counts[code] <= have[code]:
                    value += VALUES[code]
            ranked.append((value / len(coded), value, len(coded), number))
        ranked.sort(reverse=True)
        worker, workers = self.share
        mine = ranked[worker::workers]
        return [(number, direction) for *_, number in mine for direction in (0, 1)]

    def _lay_root(self, number: int, direction: int) -> list[object]:
        step = 1 if direction == 0 else self.stride
        undo: list[object] = []
        if direction == 1:  # a down word whose first cube stands alone across
            undo.append(("block", self.root + 1))
            self.blocked[self.root + 1] += 1
        undo.extend(self._lay(self.root, step, direction, self.spelling.codes[number]))
        if direction == 1:
            undo.append(("state", 0, self.root, self.state[0][self.root]))
            self.state[0][self.root] = 1
        return undo

    def _play_root(self, move: tuple[int, int]) -> None:
        undo = self._lay_root(*move)
        try:
            self._search()
        finally:
            self._undo(undo)

    # -- moves ---------------------------------------------------------------------------

    def _lay(self, start: int, step: int, direction: int, coded: bytes) -> list[object]:
        """Put a word's letters from `start`; mark its run decided and its ends blocked."""
        undo: list[object] = []
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

    def _undo(self, undo: list[object]) -> None:
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

    def _options(
        self,
        cell: int,
        direction: int,
        any_word: bool = False,
        left_over: int = -1,
        most: int = 0,
    ) -> list[tuple[float, int, int]]:
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
        options: list[tuple[float, int, int]] = []
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
            left_over = self._left_over()
        free = line | left_over
        missing_ok = jokers - short
        lead = (cell - first) // step + before  # positions a word may have before `cell`
        tail = (last - cell) // step + after  # and after it
        codes = self.spelling.codes
        need, have = self.need, self.have
        inside = (cell - first) // step  # a word covers the line's cells before `cell`
        beyond = (last - cell) // step  # and after it
        table = self._fitting(letter[cell], free, missing_ok)
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

    def _fitting(self, code: int, free: int, missing: int) -> list[list[tuple[int, int]]]:
        """Per position of `code`: (length, word number) of the words with that letter there
        whose other letters are `free` or among `missing` jokers, shortest first (memoised)."""
        key = (code, free, missing)
        fits = self.spelling.fits
        found = fits.get(key)
        if found is None:
            if len(fits) > FITS_KEPT:
                fits.clear()
            outside = ~free
            if missing:
                found = [
                    [
                        (length, number)
                        for length, number, mask in entries
                        if (mask & outside).bit_count() <= missing
                    ]
                    for entries in self.spelling.by_position[code]
                ]
            else:  # the usual case, no joker to spare: no letters to count
                found = [
                    [(length, number) for length, number, mask in entries if not mask & outside]
                    for entries in self.spelling.by_position[code]
                ]
            while found and not found[-1]:
                found.pop()
            fits[key] = found
        return found

    def _left_over(self) -> int:
        """The mask of letters with a cube not yet laid."""
        need, have = self.need, self.have
        mask = 0
        for code in range(26):
            if need[code] < have[code]:
                mask |= 1 << code
        return mask

    # -- the search ------------------------------------------------------------------------

    def _search(self) -> None:
        self.nodes += 1
        if self.nodes % CLOCK_EVERY == 0:
            if self.clock() >= self.deadline:
                raise _OutOfTime
            if self.shared is not None:
                self._hear()
        if self.limit is not None and self.nodes > self.limit:
            raise _EnoughHere
        forced: list[object] | None = []
        if self.width is None:
            forced = self._force()
            if forced is None:
                return
        try:
            self._branch()
        finally:
            if forced:
                self._undo(forced)

    def _hear(self) -> None:
        """Cut as hard as the best score of all the workers allows."""
        assert self.shared is not None
        known = self.shared.value
        if known > self.known:
            self.known = known
            self.floor = max(self.floor, known + 1)
            if known >= self.open_bound:
                raise _Proven

    def _force(self) -> list[object] | None:
        """Settle every open line that no word can ever fill: the cube stands alone there.

        A word that fits later fits now too (the cells it needs are empty or hold its
        letters, and the cubes that will fill them are still to be had), so a line with no
        word now never gets one. None when such a line already holds two cubes: a dead end.
        """
        undo: list[object] = []
        letter, blocked = self.letter, self.blocked
        left_over = self._left_over()
        for cell in self.order:
            for direction in (0, 1):
                if self.state[direction][cell] != 0:
                    continue
                options = self._options(cell, direction, True, left_over)
                if options and options[-1][2] >= 0:
                    continue
                step = 1 if direction == 0 else self.stride
                if letter[cell - step] >= 0 or letter[cell + step] >= 0:
                    self._undo(undo)
                    return None
                undo.append(("state", direction, cell, 0))
                self.state[direction][cell] = 1
                for end in (cell - step, cell + step):
                    blocked[end] += 1
                    undo.append(("block", end))
        return undo

    def _branch(self) -> None:
        state0, state1 = self.state
        for cell in self.order:
            if state0[cell] == 0:
                direction = 0
                break
            if state1[cell] == 0:
                direction = 1
                break
        else:
            self._finish()
            return
        if self._bound() < self.floor:
            return
        if self.width is not None:
            options = self._options(cell, direction)[: self.width]
        else:
            cell, direction, options = self._fewest(cell, direction)
        step = 1 if direction == 0 else self.stride
        for _, start, number in options:
            if number < 0:
                self.state[direction][cell] = 1
                self.blocked[cell - step] += 1
                self.blocked[cell + step] += 1
                try:
                    self._search()
                finally:
                    self.blocked[cell - step] -= 1
                    self.blocked[cell + step] -= 1
                    self.state[direction][cell] = 0
            else:
                undo = self._lay(start, step, direction, self.spelling.codes[number])
                try:
                    self._search()
                finally:
                    self._undo(undo)

    def _fewest(self, cell: int, direction: int) -> tuple[int, int, list[tuple[float, int, int]]]:
        """The open line with the fewest options: deciding it first keeps the tree narrow."""
        state, letter = self.state, self.letter
        left_over = self._left_over()
        options = self._options(cell, direction, left_over=left_over)
        key = len(options) * 16 - VALUES[letter[cell]]
        for other in self.order:
            if len(options) <= 1:
                break
            for way in (0, 1):
                if state[way][other] == 0 and (other, way) != (cell, direction):
                    # Only a line with no more options than this one can be chosen.
                    found = self._options(other, way, left_over=left_over, most=len(options) + 1)
                    mine = len(found) * 16 - VALUES[letter[other]]
                    if mine < key:
                        cell, direction, options, key = other, way, found, mine
        return cell, direction, options

    def _finish(self) -> None:
        score, jokers = self._score()
        if score > self.best_score:
            self.best_score = score
            self.known = max(self.known, score)
            self.floor = max(self.floor, score + 1)
            if self.shared is not None:
                with self.shared.get_lock():
                    self.shared.value = max(self.shared.value, score)
            tiles = {}
            for cell in self.order:
                row, col = divmod(cell - self.root + self.stride // 2, self.stride)
                col -= self.stride // 2
                if self.spelling.backwards:  # the crossword was built turned half round
                    row, col = -row, -col
                tiles[row, col] = Tile(chr(97 + self.letter[cell]), joker=cell in jokers)
            self.best_grid = Grid(tiles).normalised()
            if score >= self.open_bound:
                raise _Proven

    def _score(self) -> tuple[int, set[int]]:
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

    def _bound(self) -> int:
        """No crossword grown from here scores more than this.

        From the bound of the empty table (every cube in as many words as its letter can
        be), take off what the cubes already laid can no longer reach.
        """
        letter, blocked, edge, stride = self.letter, self.blocked, self.edge, self.stride
        across, down = self.state
        cross, have, need = self.cross, self.have, self.need
        spare = self.cubes - len(self.order)
        loss = 0
        over: dict[int, list[int]] = {}
        # The letters a new word could still use: those with a cube left, those already on
        # the table, and up to `missing` more for the jokers left. Every rolled letter is one
        # or the other; a letter not rolled is on the table only as a joker.
        free = self.rolled
        if self.short:
            for code in range(26):
                if need[code] > have[code]:
                    free |= 1 << code
        missing = self.jokers - self.short
        joins = self._joinable(free, missing)
        hub = self.hub
        fixed = 0  # cells off the hub letters that already are crossings
        maybe: list[int] = []  # the value of each crossing off the hub letters still credited
        for code in self.crossable:
            left = have[code] - need[code]
            if left > 0:
                if not joins >> code & 1:
                    loss += VALUES[code] * left * (cross[code] + 1)  # such cubes cannot be laid
                elif cross[code] == 2 and not hub >> code & 1:
                    maybe.extend([VALUES[code]] * left)
        for cell in self.order:
            code = letter[cell]
            top = cross[code]
            words = more = 0
            decided = across[cell]
            if decided == 2:
                words = 1
            elif decided == 0:
                if letter[cell - 1] >= 0 or letter[cell + 1] >= 0:
                    words = 1
                elif spare and (
                    not blocked[cell - 1] and cell - 1 >= edge or not blocked[cell + 1]
                ):
                    more = 1
            decided = down[cell]
            if decided == 2:
                words += 1
            elif decided == 0:
                if letter[cell - stride] >= 0 or letter[cell + stride] >= 0:
                    words += 1
                elif spare and (
                    not blocked[cell - stride]
                    and cell - stride >= edge
                    or not blocked[cell + stride]
                ):
                    more += 1
            reach = words
            if more and joins >> code & 1 and words < top:
                reach = min(words + more, top)
            if not hub >> code & 1 and need[code] <= have[code]:  # a joker is a hub cell
                if words == 2:
                    fixed += 1
                elif reach == 2:
                    maybe.append(VALUES[code])
            if need[code] > have[code]:
                over.setdefault(code, []).append(top - reach)
            elif reach < top:
                loss += VALUES[code] * (top - reach)
        for code, shortfalls in over.items():
            # More cells than cubes of this letter: the cubes go where they lose least.
            shortfalls.sort()
            loss += VALUES[code] * sum(shortfalls[: have[code]])
        excess = fixed + len(maybe) - self.crossings
        if excess > 0:  # more crossings credited than a crossword can have: drop the least
            maybe.sort()
            loss += sum(maybe[:excess])
        return self.base - loss

    def _joinable(self, free: int, missing: int) -> int:
        """The mask of letters that can join some word spelt from `free` letters and `missing`
        jokers (memoised)."""
        key = (free, missing)
        found = self.joinable.get(key)
        if found is None:
            found = 0
            for code in range(26):
                if self._joins(code, free, missing):
                    found |= 1 << code
            self.joinable[key] = found
        return found

    def _joins(self, code: int, free: int, missing: int) -> bool:
        """Can some word with this letter be spelt from `free` letters and `missing` jokers?"""
        key = (code, free, missing)
        found = self.memo.get(key)
        if found is None:
            found = False
            for mask in self.masks[code]:
                outside = mask & ~free
                if not outside or outside.bit_count() <= missing:
                    found = True
                    break
            self.memo[key] = found
        return found

    def _crossing_cap(self, counts: list[list[int]]) -> tuple[int, int]:
        """Hub letters (a mask) that every word holds one of, and how many cells of other
        letters a crossword of this roll can have as crossings.

        Every run of two or more cells is a word, so the cells' adjacencies are the words'
        inner links: with N cells, W words and C crossings, the cell graph has N + C - W
        edges and H = C - W + 1 independent cycles (H = 0 for a tree of words). Each word
        holds a hub cell; a hub cell is in at most two words, so W <= s + c_hub with s the
        hub cells. Hence the crossings off the hubs, C - c_hub, are at most s - 1 + H and
        at most W*W/4 - (W - s) (an across and a down word cross at most once). H is at
        most N - ceil(2 sqrt N) + 1 (a polyomino of N cells has at most 2N - ceil(2 sqrt N)
        adjacencies). Jokers count as hub cells: a word that needs one holds one, so only
        the words spelt from cubes alone must hold a hub letter. Any set of letters that
        every such word holds will do; of those found, the one that caps hardest is kept.
        """
        have, words = self.have, self.words
        sets: set[int] = set()
        for coded, counted in zip(words.codes, counts, strict=True):
            if not words.excess(counted):
                sets.add(sum(1 << code for code in set(coded)))
        # A hub set that holds a letter of a word's set holds one of every wider set's.
        needed: list[int] = []
        for mask in sorted(sets, key=int.bit_count):
            if not any(inner & mask == inner for inner in needed):
                needed.append(mask)
        best = (-1, 0, 0)  # (what the cap cuts from the bound of the empty table, cap, hub)
        for hub in _hitting_sets(needed):
            hubs = sum(have[code] for code in range(26) if hub >> code & 1) + self.jokers
            cap = _off_hub_cap(hubs, self.cubes)
            values = sorted(
                VALUES[code]
                for code in range(26)
                if self.cross[code] == 2 and not hub >> code & 1
                for _ in range(have[code])
            )
            cut = sum(values[: max(0, len(values) - cap)])
            best = max(best, (cut, -cap, hub))
        return best[2], -best[1]

    def _crossable(self, counts: list[list[int]]) -> list[int]:
        """Per letter: 2 if two words can share a cube of it, 1 if it fits a word, else 0."""
        have, jokers = self.have, self.jokers
        with_letter: list[list[list[int]]] = [[] for _ in range(26)]
        for coded, counted in zip(self.words.codes, counts, strict=True):
            for code in set(coded):
                with_letter[code].append(counted)
        cross = [0] * 26
        budget = 20000  # pair checks per letter before it is simply assumed crossable
        for code in range(26):
            found = with_letter[code]
            if not have[code] or not found:
                continue
            cross[code] = 1
            found = sorted(found, key=sum)
            checks = 0
            for i, first in enumerate(found):
                for second in found[i:]:
                    checks += 1
                    short = 0
                    for k in range(26):
                        n = first[k] + second[k] - (k == code)
                        if n > have[k]:
                            short += n - have[k]
                    if short <= jokers or checks > budget:
                        cross[code] = 2
                        break
                if cross[code] == 2:
                    break
        return cross


class _Spelling:
    """The roll's words spelt one way, forwards or backwards, and the tables that find the
    words fitting a line."""

    def __init__(self, codes: tuple[bytes, ...], backwards: bool = False) -> None:
        self.codes = codes
        self.backwards = backwards
        # Per letter and position: (length, word number, set of letters as a mask) of the
        # words with that letter there, shortest first.
        longest = max(map(len, codes), default=0)
        self.by_position: list[list[list[tuple[int, int, int]]]] = [
            [[] for _ in range(longest)] for _ in range(26)
        ]
        for number, coded in enumerate(codes):
            mask = _mask(coded)
            for position, code in enumerate(coded):
                self.by_position[code][position].append((len(coded), number, mask))
        for positions in self.by_position:
            for entries in positions:
                entries.sort()
        # `_Search._fitting`'s memo: per (letter, free letters, jokers to spare).
        self.fits: dict[tuple[int, int, int], list[list[tuple[int, int]]]] = {}


def _mask(coded: bytes) -> int:
    """The set of letters of a word, as a mask of letter codes."""
    return sum(1 << code for code in set(coded))


#: Two crossing words: (direction, row, column, letter codes) each, the first at (0, 0).
_Pair = tuple[tuple[int, int, int, bytes], tuple[int, int, int, bytes]]


def _crossing_pairs(grid: Grid) -> list[_Pair]:
    """Each across word of `grid` with each down word it crosses, the dearest pairs first."""
    runs = grid.runs()
    coded = {run: bytes(ord(tile.letter) - 97 for tile in run.tiles) for run in runs}
    pairs = []
    for across in (run for run in runs if run.direction == ACROSS):
        for down in (run for run in runs if run.direction == DOWN):
            if set(across.cells) & set(down.cells):
                row, col = down.start[0] - across.start[0], down.start[1] - across.start[1]
                value = sum(VALUES[code] for code in coded[across] + coded[down])
                pairs.append((value, ((0, 0, 0, coded[across]), (1, row, col, coded[down]))))
    pairs.sort(key=lambda found: -found[0])
    return [pair for _, pair in pairs]


def _off_hub_cap(hubs: int, cells: int) -> int:
    """How many crossings off the hub letters a crossword of `cells` cubes with `hubs` hub
    cells can have (see `_Search._crossing_cap`)."""
    cycles = max(0, cells - (math.isqrt(4 * cells - 1) + 1) + 1) if cells else 0
    cap = 0
    for words in range(2, 2 * hubs + 1):
        crossings = min(words * words // 4, words - 1 + cycles)
        cap = max(cap, crossings - max(0, words - hubs))
    return cap


def _hitting_sets(needed: list[int], most: int = 2000) -> list[int]:
    """Sets of letters (masks) holding a letter of each of the `needed` masks, at most
    `most`: those grown from the vowels first, then those grown from nothing, each grown by
    adding, for the first mask not yet held, one of its letters."""
    found: list[int] = []

    def grow(held: int) -> None:
        if len(found) >= most:
            return
        for mask in needed:
            if not mask & held:
                break
        else:
            found.append(held)
            return
        for code in range(26):
            if mask >> code & 1:
                grow(held | 1 << code)

    grow(VOWELS)
    grow(0)
    return found
