"""Speed of the reader: a 12 MP and a 1 MP photo to a reading, on one core, the cube-top
detector included, and the size of each model file.

    .venv/bin/python tests/benchmarks/bench_reader.py [--repeats N]

The photos are rendered tray scenes (5x5), and an Ad-Lib crossword and a loose roll on 3D
tables at 1600x1200 (``models.tabletop``, split ``val``), and a single throw at 1600x1200
set in a 12 MP table, where the detector looks closer; OpenCV and onnxruntime run one
thread each.
Without the face model (models/cube_faces.onnx) the figures cover finding and cutting only,
and say so.
"""

from __future__ import annotations

import argparse
import time
from importlib.resources import files
from pathlib import Path

import cv2
import numpy as np

from engine.games import find_game
from models.scenes import render_tray
from models.tabletop import render
from vision.detect import find_faces
from vision.models import top_detector
from vision.reader import read

#: The 3D tables timed: a crossword and a roll of the held-out seeds.
TABLE_SEED = 70_000_002


def _classifier():  # the model's absence is reported, not hidden
    try:
        from vision.classifier import FaceClassifier

        return FaceClassifier.load()
    except Exception as error:  # noqa: BLE001 - a benchmark reports any failure as text
        print(f"face model unavailable ({error}); timing detection only")
        return None


def _time(call, repeats: int) -> tuple[float, float, float]:
    """Median and 90th percentile wall time, and median CPU time of this process (which a
    busy shared machine disturbs less), in milliseconds."""
    call()
    times, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    ms = np.array(times) * 1000
    return float(np.median(ms)), float(np.percentile(ms, 90)), float(np.median(cpu) * 1000)


def _far_away() -> np.ndarray:
    """A 12 MP photo in which a cube's top is 40 pixels wide (a few pixels of the detector's
    look at the whole photo): a single throw at 1600x1200, shrunk so, in the middle of a
    table of its own median colour."""
    scene = render("single", TABLE_SEED, split="val", frame=(1600, 1200))
    corners = np.array(scene.cubes[0].corners)
    scale = 40 / float(np.linalg.norm(corners[1] - corners[0]))
    photo = cv2.resize(scene.image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    table = np.empty((3000, 4000, 3), np.uint8)
    table[:] = np.median(photo.reshape(-1, 3), axis=0)
    height, width = photo.shape[:2]
    table[1500 - height // 2 :][:height, 2000 - width // 2 :][:, :width] = photo
    return table


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    model = _classifier()
    game = find_game("big-boggle")
    for label, frame in (("12 MP", (4000, 3000)), ("1 MP", (1155, 866))):
        image = render_tray(31337, 5, frame=frame).image
        if model is not None:
            median, p90, cpu = _time(
                lambda image=image: read(image, game, classifier=model), args.repeats
            )
            what = "photo to reading"
        else:
            median, p90, cpu = _time(lambda image=image: find_faces(image), args.repeats)
            what = "finding faces only"
        print(
            f"{label} ({frame[0]}x{frame[1]}) {what}: median {median:.0f} ms, "
            f"p90 {p90:.0f} ms, CPU {cpu:.0f} ms"
        )
        median, p90, cpu = _time(lambda image=image: top_detector().find(image), args.repeats)
        print(f"  of which the top detector: median {median:.0f} ms, CPU {cpu:.0f} ms")
    if model is not None:
        adlib = find_game("adlib")
        image = _far_away()
        median, p90, cpu = _time(lambda: read(image, adlib, classifier=model), args.repeats)
        print(
            f"12 MP, one cube 40 pixels wide (the closer look): median {median:.0f} ms, "
            f"p90 {p90:.0f} ms, CPU {cpu:.0f} ms"
        )
        for kind in ("crossword", "loose"):
            image = render(kind, TABLE_SEED, split="val", frame=(1600, 1200)).image
            median, p90, cpu = _time(
                lambda image=image: read(image, adlib, classifier=model), args.repeats
            )
            print(
                f"Ad-Lib {kind} (1600x1200) photo to reading: median {median:.0f} ms, "
                f"p90 {p90:.0f} ms, CPU {cpu:.0f} ms"
            )
    for path in sorted(Path(str(files("models"))).glob("*.onnx")):
        print(f"{path.name}: {path.stat().st_size / 2**20:.2f} MiB")


if __name__ == "__main__":
    main()
