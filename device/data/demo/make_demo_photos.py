"""Render the photos ``cuberef demo`` uses in place of a camera, with the project's own
scene renderer (``models.scenes``), and record what each shows in ``truth.json``.

    python -m device.data.demo.make_demo_photos

The loose roll and the finished crossword show the same 13 cubes; the crossword is the
best one the engine finds for that roll, so the demo scores a real play.
The photos are small JPEGs (1024x768 frame, quality 80) so that they can be committed.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from engine.adlib import Roll, best_crossword
from engine.lexicon import Lexicon
from models.scenes import render_crossword, render_loose, render_tray

HERE = Path(__file__).resolve().parent
SEED_TRAY = 11
SEED_ADLIB = 7
BEST_SECONDS = 20


def main() -> None:
    truth: dict[str, object] = {}
    tray = render_tray(SEED_TRAY, 4)
    _write(HERE / "boggle" / "1-roll.jpg", tray.image)
    truth["boggle/1-roll.jpg"] = {"board": "/".join("".join(row) for row in tray.board or ())}
    loose = render_loose(SEED_ADLIB)
    _write(HERE / "adlib" / "1-roll.jpg", loose.image)
    truth["adlib/1-roll.jpg"] = {"roll": " ".join(cube.face for cube in loose.cubes)}
    # The finished crossword is a real one: the best the engine finds for the same roll.
    roll = " ".join(cube.face for cube in loose.cubes)
    best = best_crossword(Roll.parse(roll, "adlib"), Lexicon.open("en"), seconds=BEST_SECONDS)
    laid = ["*" if ch.islower() else ch for row in best.rows for ch in row if ch != "."]
    unused = list((Counter(cube.face for cube in loose.cubes) - Counter(laid)).elements())
    crossword = render_crossword(SEED_ADLIB, layout=(best.rows, unused))
    if sorted(cube.face for cube in crossword.cubes) != sorted(laid + unused):
        raise SystemExit("The roll and the crossword no longer show the same cubes.")
    _write(HERE / "adlib" / "2-crossword.jpg", crossword.image)
    truth["adlib/2-crossword.jpg"] = {
        "grid": list(best.rows),
        "score": best.score,
        "unused": unused,
    }
    (HERE / "truth.json").write_text(json.dumps(truth, indent=2) + "\n", encoding="utf-8")


def _write(path: Path, image: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 80])
    print(path)


if __name__ == "__main__":
    main()
