"""The reader on the real photos of ``../shared/photos`` as other cameras and hands would
have taken them: squashed exports, turned, tilted, drawn over, from afar, badly compressed.

    .venv/bin/python tests/benchmarks/bench_photo_changes.py [CHANGE ...]

Prints, for each change, how many trays are read exactly (any quarter turn of the labels:
a turned photo shows the tray turned) and how many loose letters are read, with every
miss. A measure of generality, not a target: the changes are plain image operations, the
same for every photo.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from engine.games import find_game
from vision import LooseReading, ReadError, TrayReading, load_image, read

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_vision_photos import TRAY_GAMES, _QLessDice  # noqa: E402

SHARED = Path(__file__).resolve().parents[3] / "shared" / "photos"


def _squash(fx: float, fy: float) -> Callable[[np.ndarray], np.ndarray]:
    return lambda im: cv2.resize(im, None, fx=fx, fy=fy, interpolation=cv2.INTER_AREA)


def _turn(degrees: float) -> Callable[[np.ndarray], np.ndarray]:
    def turn(im: np.ndarray) -> np.ndarray:
        h, w = im.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
        c, s = abs(m[0, 0]), abs(m[0, 1])
        size = (int(h * s + w * c), int(h * c + w * s))
        m[0, 2] += size[0] / 2 - w / 2
        m[1, 2] += size[1] / 2 - h / 2
        return cv2.warpAffine(im, m, size, borderMode=cv2.BORDER_REPLICATE)

    return turn


def _tilt(im: np.ndarray) -> np.ndarray:
    h, w = im.shape[:2]
    square = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    leaning = np.float32([[w * 0.15, 0], [w * 0.85, 0], [w, h], [0, h]])
    matrix = cv2.getPerspectiveTransform(square, leaning)
    return cv2.warpPerspective(im, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE)


def _lines(im: np.ndarray) -> np.ndarray:
    out = im.copy()
    h, w = im.shape[:2]
    rng = np.random.default_rng(0)
    for _ in range(4):
        (x0, y0), (x1, y1) = rng.integers(0, [w, h], size=(2, 2))
        cv2.line(out, (int(x0), int(y0)), (int(x1), int(y1)), (30, 30, 200), max(2, w // 150))
    return out


def _afar(im: np.ndarray) -> np.ndarray:
    """The photo in the middle ninth of a frame of its own size (its table's colour round it)."""
    h, w = im.shape[:2]
    table = np.empty((3 * h, 3 * w, 3), np.uint8)
    table[:] = np.median(im.reshape(-1, 3), axis=0)
    table[h : 2 * h, w : 2 * w] = im
    return cv2.resize(table, (w, h), interpolation=cv2.INTER_AREA)


def _jpeg(im: np.ndarray) -> np.ndarray:
    _, data = cv2.imencode(".jpg", im, [cv2.IMWRITE_JPEG_QUALITY, 25])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


CHANGES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "none": lambda im: im,
    "squashed-tall": _squash(1, 0.7),
    "squashed-wide": _squash(0.7, 1),
    "turned-15": _turn(15),
    "turned-30": _turn(30),
    "turned-45": _turn(45),
    "turned-90": _turn(90),
    "tilted": _tilt,
    "drawn-over": _lines,
    "from-afar": _afar,
    "jpeg-25": _jpeg,
}


def _tray_right(reading: TrayReading, rows: list[str]) -> bool:
    want = np.array([row.split() for row in rows], dtype=object)
    got = np.array([[str(f) for f in row] for row in reading.rows], dtype=object)
    return any(
        np.rot90(got, k).shape == want.shape and (np.rot90(got, k) == want).all() for k in range(4)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("changes", nargs="*", metavar="CHANGE", help=", ".join(CHANGES))
    args = parser.parse_args()
    unknown = [c for c in args.changes if c not in CHANGES]
    if unknown:
        parser.error(f"{', '.join(unknown)} is not a change; the changes are {', '.join(CHANGES)}.")
    photos = []
    for folder in ("dev", "field"):
        labels = json.loads((SHARED / folder / "labels.json").read_text())
        photos += [(folder, name, "tray", label) for name, label in labels["trays"].items()]
        photos += [(folder, name, "loose", label) for name, label in labels["loose"].items()]
    for change in args.changes or CHANGES:
        trays = letters = tray_count = letter_count = 0
        for folder, name, kind, label in photos:
            photo = CHANGES[change](load_image(SHARED / folder / name))
            try:
                if kind == "tray":
                    tray_count += 1
                    game = find_game(TRAY_GAMES[label.get("size", 4)])
                    reading = read(photo, game)
                    assert isinstance(reading, TrayReading)
                    right = _tray_right(reading, label["rows"])
                    trays += right
                    if not right:
                        print(f"  {change}: {name}: read wrong")
                else:
                    truth = Counter(label["letters"])
                    letter_count += sum(truth.values())
                    loose = read(photo, _QLessDice())
                    assert isinstance(loose, LooseReading)
                    found = sum((truth & Counter(str(f.face) for f in loose.faces)).values())
                    letters += found
                    if found < sum(truth.values()):
                        print(f"  {change}: {name}: {found} of {sum(truth.values())} letters")
            except ReadError as error:
                print(f"  {change}: {name}: {error}")
        print(f"{change:14s} trays {trays}/{tray_count}  loose letters {letters}/{letter_count}")


if __name__ == "__main__":
    main()
