"""Benchmark the best-crossword search over seeded rolls of the real Ad-Lib cubes.

For each time budget it prints the mean score, how many rolls were proved optimal, the mean
gap between the upper bound and the score, on how many rolls the budget found as much as the
largest budget did, and the median cost of a search node (CPU microseconds). A budget is CPU
seconds for each of the search's workers (one per core by default), so a run measures what an
idle machine of this speed with that many cores gives, whatever else shares the CPU. The full
run (50 rolls at 1, 10 and 60 s) takes about 20 minutes with two workers on two cores, and
twice that with one. It measures the compiled search where `make native` built it, else the
search as Python (``CUBEREF_NATIVE=0`` measures that anyway):

    .venv/bin/python tests/benchmarks/bench_best.py                       # the full run
    .venv/bin/python tests/benchmarks/bench_best.py --rolls 10 --budgets 1 10
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from device.seams.seams import cores
from device.seams.search import best_crossword
from engine.adlib import Lexicon, Roll, native, referee
from engine.cubes import CubeSet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=50, help="how many rolls (default 50)")
    parser.add_argument(
        "--budgets", type=float, nargs="+", default=[1, 10, 60], help="seconds per roll"
    )
    parser.add_argument("--seed", type=int, default=0, help="the first roll's seed")
    parser.add_argument(
        "--workers", type=int, default=cores(), help="search processes (default: one per core)"
    )
    parser.add_argument("--verbose", action="store_true", help="print every roll's result")
    args = parser.parse_args()
    lexicon = Lexicon.open("en")
    cubes = CubeSet.load("adlib")
    rolls = [
        Roll.parse(" ".join(map(str, cubes.roll(random.Random(seed)))), "adlib")
        for seed in range(args.seed, args.seed + args.rolls)
    ]
    results: dict[float, list[tuple[int, int, bool, float]]] = {}
    for budget in args.budgets:
        results[budget] = []
        for roll in rolls:
            found = best_crossword(
                roll, lexicon, seconds=budget, clock=time.process_time, workers=args.workers
            )
            if found.grid is not None:  # every answer must pass the referee as claimed
                assert referee(roll, found.grid, lexicon).score == found.score, roll
            cost = found.searched / max(1, found.nodes) * 1e6  # CPU microseconds a node
            results[budget].append((found.score, found.upper_bound, found.proven_optimal, cost))
            if args.verbose:
                print(
                    f"{budget:5g} s  {roll}  score {found.score:3d}  bound {found.upper_bound:3d}"
                    f"  {'proven' if found.proven_optimal else '      '}  {found.nodes} nodes"
                    f"  {found.searched:.2f} CPU-s  {cost:.2f} us a node",
                    flush=True,
                )
    top = results[max(args.budgets)]
    print(
        f"{len(rolls)} seeded Ad-Lib rolls (seeds {args.seed}-{args.seed + len(rolls) - 1}), "
        f"{args.workers} worker{'s' if args.workers > 1 else ''}, the search "
        f"{'compiled (make native)' if native.active() else 'as Python'}"
    )
    print(
        "budget  mean score  proved optimal  mean gap to bound  found the longest's score"
        "  us a node (median)"
    )
    for budget in args.budgets:
        rows = results[budget]
        mean = statistics.fmean(score for score, *_ in rows)
        proved = sum(proven for _, _, proven, _ in rows)
        gap = statistics.fmean(bound - score for score, bound, *_ in rows)
        same = sum(score >= best[0] for (score, *_), best in zip(rows, top, strict=True))
        cost = statistics.median(cost for *_, cost in rows)
        print(
            f"{budget:5g} s  {mean:10.2f}  {proved:6d}/{len(rows):<7d}  {gap:17.2f}  "
            f"{same:6d}/{len(rows):<20d}  {cost:8.2f}"
        )


if __name__ == "__main__":
    started = time.monotonic()
    main()
    print(f"({time.monotonic() - started:.0f} s in all)")
