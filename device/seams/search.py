"""The best-crossword search on several cores: worker processes, their signals, their end.

The engine searches one share of a roll's first words at a time (`engine.adlib.best`);
here each share gets a worker process of its own, and this process watches them: it
gathers their shares into the answer, tells `progress` how they stand, and ends them when
it stops (Ctrl-C). Each worker ends by itself too, within a look at its clock (a few
milliseconds of search), once this process ends, however it ends: it holds the reading end
of a pipe whose other end only this process holds, and the kernel closes that end when
this process dies, even by ``kill -9``.

Workers come from a fork server (or are spawned where there is none), never from a fork of
this process, whose other threads (a box's camera, its pins) may hold locks.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import TYPE_CHECKING, Any

from engine.adlib.best import (
    PLAN,
    ROOT_KINDS,
    BestCrossword,
    Plan,
    Progress,
    Share,
    answer,
    search_share,
    unsearched,
)
from engine.adlib.best import best_crossword as search_alone
from engine.adlib.roll import Roll
from engine.adlib.search import Clock
from engine.adlib.words import RollWords, formable_words
from engine.errors import MachineError
from engine.lexicon import Lexicon

if TYPE_CHECKING:
    from multiprocessing.context import ForkServerContext, SpawnContext

#: How often this process looks at its workers' progress while they search, in seconds.
LOOK_EVERY = 0.1
#: Full passes whose roots are dealt from a count the workers share, one count per pass
#: and kind of roots; any later one (a search aiming high makes several) deals them out
#: every n-th from the k-th.
SHARED_PASSES = 16
#: Clocks that every process reads alike: a budget on them is the search's, not a worker's.
WALL_CLOCKS = (time.monotonic, time.time, time.perf_counter)


def best_crossword(
    roll: Roll,
    lexicon: Lexicon,
    seconds: float = 10.0,
    clock: Clock = time.monotonic,
    workers: int = 1,
    progress: Callable[[Progress], None] | None = None,
    plan: Plan = PLAN,
) -> BestCrossword:
    """Search for ``seconds`` (by ``clock``, in each worker) and return the best crossword
    found; with ``workers`` above 1, the first words are dealt out among that many worker
    processes (one per core is best). ``progress`` hears how the search stands, about every
    tenth of a second."""
    if workers <= 1:
        return search_alone(roll, lexicon, seconds, clock, progress, plan)
    start = clock()
    words = formable_words(roll, lexicon)
    seconds -= clock() - start
    try:
        team = _Team(roll, words, clock, seconds, workers, plan)
    except (OSError, RuntimeError):  # no processes to be had here: search alone
        return search_alone(roll, lexicon, seconds, clock, progress, plan)
    with team:
        shares = team.gather(progress)
        spent = clock() - start  # the workers' ends are not the search's
    return answer(roll, shares, spent)


class SearchFailed(MachineError):
    """A worker's search raised: the answer would miss its share, so none is given."""


@dataclass(frozen=True, slots=True)
class Failed:
    """What a worker sends instead of its share when its search raised."""

    reason: str


@dataclass(frozen=True, slots=True)
class _Task:
    """What a worker is sent: its share of the search, and its ends of the pipes."""

    roll: Roll
    words: RollWords
    clock: Clock
    seconds: float
    begun: float  # time.monotonic() when its time began: starting up is part of it
    share: tuple[int, int]
    plan: Plan
    results: Connection  # where it sends its share
    lifeline: Connection  # readable once the parent ends (or stops it)
    best: Any  # a multiprocessing.Value: the best score of all the workers
    slots: Any  # a multiprocessing.Array: each worker's score, bound, nodes and time left
    dealt: Any  # a multiprocessing.Array: per full pass and kind of roots, those dealt so far


class _Team:
    """The worker processes of one search, started as it is made; a context manager that
    ends them all when it is left."""

    def __init__(
        self, roll: Roll, words: RollWords, clock: Clock, seconds: float, workers: int, plan: Plan
    ) -> None:
        context = _processes()
        # On the wall's clock, every worker's time began with the search's, however long the
        # others took to start; on a clock of its own (CPU time), when it was started.
        begun = time.monotonic() if clock in WALL_CLOCKS else None
        self.roll = roll
        self.best = context.Value("i", -roll.total)
        self.slots = context.Array("d", [-math.inf] * (4 * workers), lock=False)
        self.dealt = context.Array("i", SHARED_PASSES * ROOT_KINDS)
        self.processes: list[multiprocessing.process.BaseProcess] = []
        self.results: list[Connection] = []
        self.lifelines: list[Connection] = []
        self.workers = workers
        self.left = math.inf  # the time left last told: it never grows
        # Ctrl-C is held back while workers (and their fork server) start: they begin with
        # it blocked, so an early one never prints a worker's traceback; the parent takes
        # it once they are started, and ends them.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            for k in range(workers):
                if begun is not None and time.monotonic() - begun >= seconds:
                    break  # the time is up before this worker could start: its share stays
                    # unsearched
                results, sending = context.Pipe(duplex=False)
                lifeline, holding = context.Pipe(duplex=False)
                task = _Task(
                    roll, words, clock, seconds, time.monotonic() if begun is None else begun,
                    (k, workers), plan,
                    sending, lifeline, self.best, self.slots, self.dealt,
                )  # fmt: skip
                process = context.Process(target=_work, args=(task,), daemon=True)
                self.processes.append(process)
                self.results.append(results)
                self.lifelines.append(holding)
                process.start()
                sending.close()
                lifeline.close()
        except BaseException:
            self.end()
            raise
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)

    def __enter__(self) -> _Team:
        return self

    def __exit__(self, *_: object) -> None:
        self.end()

    def gather(self, progress: Callable[[Progress], None] | None) -> list[Share]:
        """Each worker's share, as they come in; a worker that died, or never started,
        leaves its first words unsearched."""
        shares: dict[int, Share | Failed | None] = {}
        waiting = dict(enumerate(self.results))
        while waiting:
            ready = wait(list(waiting.values()), LOOK_EVERY if progress else None)
            for k, reader in list(waiting.items()):
                if reader in ready:
                    del waiting[k]
                    try:
                        shares[k] = reader.recv()
                    except (EOFError, OSError):
                        shares[k] = None
            if progress is not None and waiting:
                standing = self._standing(shares)
                if standing is not None:
                    progress(standing)
        failed = [share for share in shares.values() if isinstance(share, Failed)]
        if failed or (self.processes and not any(shares.values())):
            why = failed[0].reason if failed else "each ended without an answer"
            raise SearchFailed(
                f"The best-crossword search failed in its worker processes ({why}); "
                "run it again with --workers 1 to search in one process."
            )
        ceilings = [share.ceiling for share in shares.values() if isinstance(share, Share)]
        ceiling = max(ceilings) if ceilings else None
        return [
            found if isinstance(found := shares.get(k), Share) else unsearched(self.roll, ceiling)
            for k in range(self.workers)
        ]

    def _standing(self, shares: dict[int, Share | Failed | None]) -> Progress | None:
        """How the workers stand together: the best of all, the highest of their bounds,
        and the time left as the latest reports tell it (never more than told before: a
        slow worker's last report is older than the others'); None until a worker has
        told anything, as there is no bound to show before."""
        slots = list(self.slots)
        score, bound, nodes, left = self.best.value, -math.inf, 0, 0.0
        for k in range(len(self.processes)):
            share = shares.get(k)
            if isinstance(share, Share):
                bound, nodes = max(bound, share.bound), nodes + share.nodes
            elif slots[4 * k] > -math.inf:  # it has reported
                bound = max(bound, slots[4 * k + 1])
                nodes += int(slots[4 * k + 2])
                left = max(left, slots[4 * k + 3])
        if bound == -math.inf:
            return None
        self.left = min(self.left, left)
        return Progress(score, int(max(score, bound)), nodes, self.left)

    def end(self) -> None:
        """End every worker: each sees its lifeline close, and one that does not stop
        within a second is killed."""
        for holding in self.lifelines:
            holding.close()
        for reader in self.results:
            reader.close()
        for process in self.processes:
            if process.pid is not None:  # it was started
                process.join(timeout=1)
                if process.is_alive():
                    process.kill()
                    process.join()


def _processes() -> SpawnContext | ForkServerContext:
    """Where workers come from: never a fork of this process, whose other threads (a box's
    camera, its pins) may hold locks; forked from a clean server where there is one."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])  # workers start with the search imported
        return context
    return multiprocessing.get_context("spawn")


class _Watched:
    """A worker's clock: the search's own, until the parent ends (or ends the worker): then
    the time is up."""

    def __init__(self, clock: Clock, lifeline: Connection) -> None:
        self.clock, self.lifeline = clock, lifeline.fileno()

    def __call__(self) -> float:
        if select.select([self.lifeline], [], [], 0)[0]:  # closed at the other end
            return math.inf
        return self.clock()


def _work(task: _Task) -> None:
    """A worker: search its share, telling the others the best score as it goes."""
    # Ctrl-C reaches the whole process group: the parent answers it, and ends its workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    seconds = task.seconds - (time.monotonic() - task.begun)  # starting up is time spent
    best, slots, k = task.best, task.slots, task.share[0]

    def exchange(now: Progress) -> int:
        if now.score > best.value:
            with best.get_lock():
                best.value = max(best.value, now.score)
        slots[4 * k : 4 * k + 4] = (now.score, now.bound, now.nodes, now.left)
        return int(best.value)

    clock = _Watched(task.clock, task.lifeline)
    deal = _Dealer(task.dealt, task.share)
    try:
        share: Share | Failed = search_share(
            task.roll, task.words, clock, seconds, task.share, exchange, task.plan, deal
        )
    except Exception as error:  # told to the parent, which says it: never a silent answer
        share = Failed(f"{type(error).__name__}: {error}")
    with contextlib.suppress(OSError):  # the parent has gone: nobody is waiting for it
        task.results.send(share)


class _Dealer:
    """A worker's dealer (`engine.adlib.best.Dealer`): each full pass's next root, from a
    count that all the workers share, so that whichever is free takes it."""

    def __init__(self, dealt: Any, share: tuple[int, int]) -> None:
        self.dealt, (self.worker, self.workers) = dealt, share
        self.own: dict[int, int] = {}  # per later pass's key, this worker's next root

    def __call__(self, key: int) -> int:
        if key < len(self.dealt):
            with self.dealt.get_lock():
                index = self.dealt[key]
                self.dealt[key] = index + 1
            return int(index)
        index = self.own.get(key, self.worker)
        self.own[key] = index + self.workers
        return index
