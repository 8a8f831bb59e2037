"""Rendering training data on several processes, in chunks whose order does not depend on
how many processes there are (every sample depends only on its seed and index)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

Job = TypeVar("Job")
Result = TypeVar("Result")


def run_jobs(
    work: Callable[[Job], Result],
    jobs: Sequence[Job],
    workers: int = 1,
    progress: Callable[[int], object] | None = None,
    size: Callable[[Job], int] = lambda _: 1,
) -> list[Result]:
    """``work`` on every job, results in the jobs' order, on ``workers`` processes (one:
    this one); ``progress`` hears each job's ``size`` as it ends."""
    results: list[Result] = []

    def done(job: Job, result: Result) -> None:
        results.append(result)
        if progress:
            progress(size(job))

    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            for job, result in zip(jobs, pool.map(work, jobs), strict=True):
                done(job, result)
    else:
        for job in jobs:
            done(job, work(job))
    return results


def run_ranges(
    work: Callable[[tuple[Any, ...]], Result],
    count: int,
    step: int,
    extra: tuple[Any, ...],
    workers: int = 1,
    progress: Callable[[int], object] | None = None,
) -> list[Result]:
    """``work`` on ``(start, stop, *extra)`` for each run of ``step`` of the indices below
    ``count``, in order; ``progress`` hears each run's length as it ends."""
    jobs = [(start, min(count, start + step), *extra) for start in range(0, count, step)]
    return run_jobs(work, jobs, workers, progress, lambda job: job[1] - job[0])
