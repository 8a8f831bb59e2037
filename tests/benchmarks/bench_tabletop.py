"""How long the tabletop renderer takes per scene, by kind, on one core.

    .venv/bin/python tests/benchmarks/bench_tabletop.py [--frame 640x480] [--scenes 40]

Prints the median and the 90th percentile of the process time per scene (process time, so
that other work on the machine counts less), after a warm-up that fills the glyph caches
(a training run renders tens of thousands of scenes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402

from models.tabletop import KINDS, render  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frame", default="640x480")
    parser.add_argument("--scenes", type=int, default=40)
    args = parser.parse_args()
    frame = tuple(int(v) for v in args.frame.split("x"))
    cv2.setNumThreads(1)
    for seed in range(150):  # warm-up: every font's glyphs drawn once, as in a long run
        render(KINDS[seed % len(KINDS)], 10_000 + seed, split=("train", "unseen")[seed % 2])
    everything = []
    for kind in KINDS:
        times = []
        for seed in range(args.scenes):
            start = time.process_time()
            render(kind, seed, frame=frame)  # type: ignore[arg-type]
            times.append(time.process_time() - start)
        everything += times
        times.sort()
        p90 = times[int(0.9 * (len(times) - 1))]
        median = 1000 * statistics.median(times)
        print(f"{kind:10s} median {median:6.1f} ms   p90 {1000 * p90:6.1f} ms")
    print(f"{'all':10s} median {1000 * statistics.median(everything):6.1f} ms  ({args.frame})")


if __name__ == "__main__":
    main()
