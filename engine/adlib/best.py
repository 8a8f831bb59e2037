"""The best crossword a roll allows: an anytime branch-and-bound.

The search (`engine.adlib.search`) builds each crossword from its first cell, deciding one
line at a time, on a layout of flat arrays (`engine.adlib.layout`), with the roll's words
looked up in tables (`engine.adlib.tables`) and every subtree cut whose bound
(`engine.adlib.bound`) cannot beat the best found. Good crosswords are dense blocks of dear
letters, so first words are tried dearest per letter first, and a line's words by what they
add per cube they take. This module runs that search in passes:

The search runs narrow first, for a good answer quickly: a few best options a step, then
every option but only a few nodes a first word, for the first third of the time. Each
narrow pass runs twice, with the words as they are and with every word spelt backwards,
which builds each crossword turned half round, from its bottom right corner: a crossword
that one of them reaches late, the other often reaches soon. Then it runs in full,
cutting whatever cannot beat the best found; if the full search ends in time the answer
is proven best. Where the best found leaves little room below the bound, a crossword can
beat it only with a cube of some letter in two words (a pivot: often the Q or the X):
the full search then grows every crossword from a pair of words crossing there, a few
hundred pairs where there are thousands of first words, each a far smaller tree. After
the narrow passes, and whenever the full search finds a better crossword, the search
rebuilds around the best found: it keeps two crossing words of it and searches all the
rest afresh, growing on every side of them (a large neighbourhood search). A roll's best
crossword often shares such a pair with a good one, and from the pair it is a few
thousand nodes away, where from its first cube it may be a million.

A search on several cores (`device.seams.search`) deals the first words out among worker
processes, each running `search_share` on its share; they tell each other the best score
found, so each cuts as hard as the best of all, and the answer is proven when every share
is. The narrow passes take a fixed share of the first words; the full passes take their
first words or pairs from a `Dealer`, one at a time as each worker is free, so that none
sits idle while another still has several to go.

>>> from engine.adlib.roll import Roll
>>> from engine.lexicon import Lexicon
>>> found = best_crossword(Roll.parse("A T", "scribbage"), Lexicon.open("en"), seconds=5)
>>> found.rows, found.score, found.proven_optimal
(['TA'], 3, True)
"""

from __future__ import annotations

import contextlib
import functools
import gc
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from engine.adlib.grid import ACROSS, DOWN, Grid
from engine.adlib.roll import Roll
from engine.adlib.search import (
    Clock,
    EnoughHere,
    Exchange,
    OutOfTime,
    Progress,
    Proven,
    Search,
)
from engine.adlib.tables import Move, Pair, Spelling, first_words
from engine.adlib.words import VALUES, RollWords, formable_words
from engine.lexicon import Lexicon

__all__ = [
    "PLAN",
    "BestCrossword",
    "Dealer",
    "Plan",
    "Progress",
    "Share",
    "answer",
    "best_crossword",
    "search_share",
    "unsearched",
]


@dataclass(frozen=True, slots=True)
class Plan:
    """How a search spends its time."""

    #: The narrow passes before the full search: at most `width` options a step (None: all,
    #: the fewest-options line first as in the full search) and `nodes` nodes for each first
    #: word, until `until` of the time is spent. Many first words get a look soon.
    narrow: tuple[tuple[int | None, int, float], ...] = (
        (1, 40, 0.05),
        (2, 400, 0.1),
        (3, 4000, 0.18),
        (None, 100, 0.3),
    )
    #: Rebuilding around the best found (after the narrow passes, and whenever the full
    #: search finds a better crossword): the nodes each pair of its crossing words gets,
    #: round by round, and how much each rebuild may take from its start or its last better
    #: crossword: a share of the time, and at most so many nodes, so that long searches keep
    #: time for the proof. A climb from a poor crossword to the best often takes several
    #: thousand nodes a step.
    rebuild_nodes: tuple[int, ...] = (2000, 8000, 32000, 128000)
    rebuild_share: float = 0.3
    rebuild_most: int = 150000
    #: How far above the best found each full pass aims (1: plain branch-and-bound). Aiming
    #: higher found better crosswords sooner, but rebuilding finds them early, and then each
    #: pass that aims too high costs nearly a whole proof (seed 45: 60 s left it unproven at 3).
    aspiration: int = 1
    #: How many search nodes pass between two looks at the clock.
    clock_every: int = 64
    #: Whether a full pass grows its crosswords from the pairs of words crossing at a
    #: pivot letter, where there is one (`Search.pivot`), rather than from their first cell.
    pivot: bool = True


PLAN = Plan()

#: What a full pass grows crosswords from: a first word or a pair of crossing words.
Root = TypeVar("Root", Move, Pair)

#: Deals the roots of each full pass out among the searches of one roll: told the pass's
#: key (`Passes.key`), it answers the index among the pass's roots (`first_words(words)`,
#: or the crossing pairs at the pass's pivot) of the next that this search is to take (their
#: number, or more, once none is left).
Dealer = Callable[[int], int]
#: How many kinds of roots a full pass may have: first words, or the crossing pairs at one
#: of the 26 letters. A pass's key tells the pass and its kind of roots apart.
ROOT_KINDS = 27


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
    searched: float = 0.0  # seconds of search by the search's clock, summed over its workers

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


@dataclass(frozen=True, slots=True)
class Share:
    """What one search found among its share of the first words, and the bound it proved
    for them."""

    score: int
    grid: Grid | None
    bound: int
    ceiling: int  # the bound of the empty table, for any share that comes back empty
    nodes: int
    seconds: float  # by the search's clock


def unsearched(roll: Roll, ceiling: int | None = None) -> Share:
    """A share that was never searched (its worker died): all that is known of it is the
    bound of the empty table, or, without that, that no cube is in more than two words."""
    top = 2 * roll.total if ceiling is None else ceiling
    return Share(-roll.total, None, top, top, 0, 0.0)


def best_crossword(
    roll: Roll,
    lexicon: Lexicon,
    seconds: float = 10.0,
    clock: Clock = time.monotonic,
    progress: Callable[[Progress], None] | None = None,
    plan: Plan = PLAN,
) -> BestCrossword:
    """Search for ``seconds`` (by ``clock``) and return the best crossword found, telling
    ``progress`` how the search stands at each look at the clock."""
    start = clock()
    words = formable_words(roll, lexicon)
    seconds -= clock() - start
    exchange = None
    if progress is not None:

        def exchange(now: Progress) -> int:
            progress(now)
            return now.score

    share = search_share(roll, words, clock, seconds, exchange=exchange, plan=plan)
    return answer(roll, [share], clock() - start)


def search_share(
    roll: Roll,
    words: RollWords,
    clock: Clock,
    seconds: float,
    share: tuple[int, int] = (0, 1),
    exchange: Exchange | None = None,
    plan: Plan = PLAN,
    deal: Dealer | None = None,
) -> Share:
    """Search share k of n of the first words (every n-th from the k-th) for `seconds`;
    with `deal`, the full passes search the first words it deals instead."""
    with _collector_paused():
        search = Search(roll, words, clock, seconds, exchange, plan.clock_every)
        passes = Passes(search, plan, deal, share)
        passes.run(first_words(words, share))
    # A complete share holds nothing above the best score of all the searches.
    bound = search.known if passes.complete else max(search.best_score, search.open_bound)
    spent = search.now - (search.end - seconds)  # by its last look at the clock
    return Share(search.best_score, search.best_grid, bound, search.ceiling, search.nodes, spent)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The search leaves hardly any reference cycles (some 70 objects a search), but its
    memo of line shapes holds up to some hundred thousand small arrays, which Python's
    cycle collector would walk again and again: it rests while the search runs (4-9 % of
    the search's time) and takes up its work when the search is over."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def answer(roll: Roll, shares: list[Share], seconds: float) -> BestCrossword:
    """The best of the shares' crosswords, proven when every share's bound is reached."""
    best = max(shares, key=lambda share: share.score)
    # Each share's bound covers its first words: the answer is proven when every share's is.
    bound = max(share.bound for share in shares)
    return BestCrossword(
        roll=roll,
        grid=best.grid,
        score=best.score,
        upper_bound=max(best.score, bound),
        proven_optimal=bound <= best.score,
        seconds=seconds,
        nodes=sum(share.nodes for share in shares),
        searched=sum(share.seconds for share in shares),
    )


class Passes:
    """The passes of one search over its first words: narrow, rebuilding, then in full."""

    def __init__(
        self,
        search: Search,
        plan: Plan = PLAN,
        deal: Dealer | None = None,
        share: tuple[int, int] = (0, 1),
    ) -> None:
        self.search, self.plan, self.deal, self.share = search, plan, deal, share
        self.complete = False  # the full search has been through every first word
        self.rebuilt: Grid | None = None  # the best crossword last rebuilt around

    def run(self, roots: list[Move]) -> None:
        search, plan = self.search, self.plan
        layout = search.layout
        try:
            start = search.clock()
            total = search.deadline - start
            begun = 0.0
            for width, nodes, until in plan.narrow:
                # Half the pass with the words spelt forwards, half with them backwards.
                for spelling, share in zip(layout.spellings, (0.5, 1), strict=True):
                    with search.until(start + total * (begun + (until - begun) * share)):
                        self.narrow(roots, width, nodes, spelling)
                begun = until
                if search.clock() >= search.deadline:
                    raise OutOfTime
            layout.spellings[1].lines.clear()  # only the narrow passes spell words backwards
            self.rebuild(total * plan.rebuild_share)
            full = 0
            while search.open_bound > search.known:
                # Aim a little above the best found: a full pass that cuts everything below
                # `floor` either finds such a crossword (and goes on as usual from there) or
                # proves that none exists, and the next pass aims one lower.
                search.floor = min(search.open_bound, search.known + plan.aspiration)
                for play in self.full_pass(roots, full):
                    play()
                    if search.best_grid is not self.rebuilt:
                        self.rebuild(total * plan.rebuild_share)
                search.open_bound = search.floor - 1
                full += 1
            self.complete = True
        except Proven:
            self.complete = True
        except OutOfTime:
            pass

    def full_pass(self, roots: list[Move], full: int) -> Iterator[Callable[[], None]]:
        """Full pass `full`, root by root: each searches every crossword grown from one of
        this search's first words (`roots`, or those dealt), or, where the floor makes a
        letter a pivot (`Search.pivot`), from one of the pairs of words crossing at it."""
        search = self.search
        pivot = search.pivot() if self.plan.pivot else None
        if pivot is None:
            every = first_words(search.layout.words) if self.deal is not None else roots
            for move in self.dealt(roots, every, self.key(full, None)):
                yield functools.partial(search.play_first, move)
        else:
            code, pairs = pivot
            worker, workers = self.share
            for pair in self.dealt(pairs[worker::workers], pairs, self.key(full, code)):
                yield functools.partial(search.play_pair, pair)

    def dealt(self, mine: list[Root], every: list[Root], key: int) -> Iterator[Root]:
        """The roots of a full pass this search takes: `mine`, its share of them, or those
        of `every` root that the dealer deals it under the pass's `key`."""
        if self.deal is None:
            yield from mine
            return
        index = self.deal(key)
        while index < len(every):
            yield every[index]
            index = self.deal(key)

    @staticmethod
    def key(full: int, pivot: int | None) -> int:
        """Full pass `full`'s key for the dealer: searches that chose different roots for
        the same pass (each by the floor it had) deal from different counts."""
        return full * ROOT_KINDS + (0 if pivot is None else 1 + pivot)

    def narrow(self, roots: list[Move], width: int | None, nodes: int, spelling: Spelling) -> None:
        """Give each across first word `nodes` nodes of a search that tries at most `width`
        options a step, with the words spelt `spelling`'s way."""
        search, layout = self.search, self.search.layout
        search.width, layout.spelling = width, spelling
        try:
            # A crossword and its mirror image score alike: across first words will do.
            for move in roots:
                if move[1] == 0:
                    search.limit = search.nodes + nodes
                    with contextlib.suppress(EnoughHere):
                        search.play_first(move)
        finally:
            search.width, search.limit, layout.spelling = None, None, layout.spellings[0]

    def rebuild(self, seconds: float) -> None:
        """Keep two crossing words of the best crossword found and search all the rest
        afresh, on every side of them (a large neighbourhood search): the best crosswords of
        a roll often share such a pair with a good one while differing everywhere else.
        Each round gives every pair more nodes; a better crossword starts over around it,
        with a fresh allowance of nodes and time."""
        search = self.search
        aim, search.floor = search.floor, search.known + 1
        search.width = None
        finished: set[Pair] = set()  # pairs whose every crossword has been seen
        try:
            while search.best_grid is not None and search.best_grid is not self.rebuilt:
                self.rebuilt = search.best_grid
                with search.until(search.clock() + seconds):
                    self._rebuild_around(
                        search.best_grid, finished, search.nodes + self.plan.rebuild_most
                    )
        finally:
            search.floor = max(aim, search.known + 1)
            search.limit = None

    def _rebuild_around(self, grid: Grid, finished: set[Pair], most: int) -> None:
        """Search around each pair of `grid`'s crossing words, round by round, until a better
        crossword turns up or the search has spent `most` nodes."""
        search = self.search
        pairs = crossing_pairs(grid)
        for nodes in self.plan.rebuild_nodes:
            for pair in pairs:
                if search.best_grid is not grid or search.nodes >= most:
                    return
                if pair in finished:
                    continue
                search.limit = min(search.nodes + nodes, most)
                try:
                    search.play_pair(pair)
                    finished.add(pair)
                except EnoughHere:
                    pass


def crossing_pairs(grid: Grid) -> list[Pair]:
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
