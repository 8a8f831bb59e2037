"""Speed of live reading (``cuberef watch``): milliseconds of CPU a frame, median and 90th
percentile, at 1600x1200 and at 1 MP, over a crossword built on a rendered table.

    .venv/bin/python tests/benchmarks/bench_watch.py [--rest N]

The frames (``models.sequences.building``) show the README's crossword laid word by word:
the cubes loose, then for each word a hand that comes in over three frames, lays it and
goes out over two, and ``--rest`` still frames after it (4: at 2.5 readings a second, a
little under two seconds between one word and the next). Each frame's cost is the
process's CPU time (all its threads) for the live reader's update and the referee's view
of it, as ``cuberef watch`` spends it on a frame it has in memory (a camera's frame; a
JPEG's decoding is apart and printed beside). It also says how each frame was looked at
(read whole, its reading reused, skipped while a hand moved) and whether every score shown
was the true one.
"""

from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from device.seams.live import live_view
from device.seams.seams import VisionReader
from engine.adlib import Grid, Lexicon, Roll, referee
from engine.games import find_game
from models.sequences import Table, building
from vision.live import LiveReader

FACES = ["M", "O", "N", "E", "Y", "S", "T", "E", "B", "U", "J", "O", "Q"]
STAGES = [
    [".....", ".....", ".....", "MONEY"],
    [".....", "....J", "....O", "MONEY"],
    [".....", "..B.J", "..U.O", "MONEY"],
    ["S....", "T.B.J", "E.U.O", "MONEY"],
]


def measure(frame: tuple[int, int], rest: int) -> None:
    game = find_game("adlib")
    roll = Roll.parse(" ".join(FACES), "adlib")
    lexicon = Lexicon.open("en")
    table = Table(3, FACES, frame=frame)
    shots = building(table, STAGES, rest)
    images = [table.photo(shot, n) for n, shot in enumerate(shots)]
    reader = VisionReader()
    reader.read_table(images[0], game)  # the models loaded before the clock starts
    live = LiveReader(lambda image: reader.read_table(image, game))
    costs, shown = [], []
    for image in images:
        start = time.process_time()
        seen = live.update(image)
        view = live_view(seen, game, roll) if seen is not None else None
        costs.append((time.process_time() - start) * 1000)
        if view is not None and view.score is not None and view.score not in shown:
            shown.append(view.score)
    truths = [referee(roll, Grid.from_rows(rows), lexicon).score for rows in STAGES]
    ok, jpeg = cv2.imencode(".jpg", images[-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
    decode = time.process_time()
    for _ in range(10):
        cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    decode = (time.process_time() - decode) * 100
    ms = np.array(costs)
    width, height = frame
    print(
        f"{width}x{height} ({width * height / 1e6:.1f} MP), {len(ms)} frames: "
        f"median {np.median(ms):.1f} ms, p90 {np.percentile(ms, 90):.1f} ms, "
        f"mean {ms.mean():.1f} ms, max {ms.max():.1f} ms of CPU a frame "
        f"(a JPEG frame's decoding: {decode:.1f} ms more)"
    )
    looks = ", ".join(f"{kind} {count}" for kind, count in live.counts.items())
    print(f"  frames {looks}; scores shown in turn {shown}, the stages' true scores {truths}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rest", type=int, default=4, help="still frames after each word")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    for frame in ((1600, 1200), (1152, 864)):
        measure(frame, args.rest)


if __name__ == "__main__":
    main()
