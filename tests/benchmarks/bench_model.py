"""Latency of the face model: one batch of 36 crops through FaceClassifier.classify.

    .venv/bin/python tests/benchmarks/bench_model.py [--repeats N]

Prints the median, the 90th percentile and the model's size.
"""

from __future__ import annotations

import argparse
import os
import time
from importlib.resources import files
from pathlib import Path

import numpy as np

from models.render import ALPHABET, Style, fonts, render_face
from vision.classifier import FaceClassifier


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=200)
    ap.add_argument("--size", type=int, default=80, help="side of each crop in pixels")
    args = ap.parse_args()
    clf = FaceClassifier.load()
    style = Style(fonts("val")[0])
    crops = [render_face(ALPHABET[i % len(ALPHABET)], 0, args.size, style) for i in range(36)]
    for _ in range(5):
        clf.classify(crops)
    times, cpu = [], []
    for _ in range(args.repeats):
        t, c = time.perf_counter(), time.process_time()
        clf.classify(crops)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    ms = np.array(times) * 1000
    size = Path(str(files("models") / "cube_faces.onnx")).stat().st_size
    print(
        f"batch of 36 crops ({args.size}px): median {np.median(ms):.2f} ms, "
        f"p90 {np.percentile(ms, 90):.2f} ms over {args.repeats} runs; CPU time median "
        f"{np.median(cpu) * 1000:.2f} ms (wall time includes waiting on a busy machine: load "
        f"average {os.getloadavg()[0]:.1f}); model {size:,} bytes"
    )


if __name__ == "__main__":
    main()
