"""Measure the cube-top detector on held-out scenes through the run-time detector.

    python -m models.evaluate_tops [--val N]

A top is found when a detection's centre lies within a third of the top's side of its
centre (each detection counts for one top at most, surest first); the corner error is the
mean distance of the corners, matched in the order that fits best, over the top's side.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from models.gate import figures_section
from models.topdata import VAL_SEED, VISIBLE, Scenes, make_scenes
from vision.tops import TopDetector

HERE = Path(__file__).resolve().parent


def measure(scenes: Scenes, model: Path | None = None) -> dict[str, Any]:
    detector = TopDetector.load(model)
    found = tops = detections = wrong = 0
    errors: list[float] = []
    times: list[float] = []
    for k in range(len(scenes)):
        image = scenes.image(k)
        corners, visible = scenes.tops(k)
        start = time.perf_counter()
        quads = detector.find(image)
        times.append(time.perf_counter() - start)
        truth = [c for c, v in zip(corners, visible, strict=True) if v >= VISIBLE]
        centres = np.array([c.mean(0) for c in truth]).reshape(-1, 2)
        sides = np.array([np.sqrt(_area(c)) for c in truth])
        taken: set[int] = set()
        detections += len(quads)
        for quad in quads:
            if not len(truth):
                wrong += 1
                continue
            distance = np.linalg.norm(centres - np.array(quad.center), axis=1) / sides
            j = int(np.argmin(distance))
            if distance[j] < 1 / 3 and j not in taken:
                taken.add(j)
                errors.append(_corner_error(quad.corners, truth[j]) / sides[j])
            elif distance[j] >= 1 / 3:
                wrong += 1
        found += len(taken)
        tops += len(truth)
    return {
        "scenes": len(scenes),
        "tops": tops,
        "recall": round(found / max(1, tops), 4),
        "precision": round(1 - wrong / max(1, detections), 4),
        "corner_error": round(statistics.median(errors), 4) if errors else None,
        "ms_per_photo": round(1000 * statistics.median(times), 1),
    }


def _area(corners: np.ndarray) -> float:
    x, y = corners[:, 0], corners[:, 1]
    return float(abs(0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))))


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    return min(
        float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).mean()) for k in range(4)
    )


def write_card(figures: dict[str, Any], path: Path) -> None:
    """The detector's model card, from the figures of a training run."""
    path.write_text(
        f"""# Model card: cube_tops.onnx

The cube-top detector of cuberef: it looks at a whole photo and finds every cube's top face,
its centre, size, stretch and turn. Written by `python -m models.train_tops` (`make model`).

- **Input**: `image`, float32 (1, 3, H, W), BGR, values 0..1, the photo shrunk so that its
  longer side is 384 pixels and padded to multiples of 32 (`vision.tops` does this).
- **Output**: `tops`, float32 (1, 8, H/4, W/4): per cell the heat (how likely a top's centre
  lies there, 0..1), the centre's place in the cell, the log of the half side, the stretch
  (u, v) and the turn times four (cos, sin); `vision.topshape` gives the encoding.
- **Network**: `models.topnet.TopNet`, a small encoder to 1/32 with dilated depthwise blocks
  and a feature-pyramid decoder back to 1/4; {figures["params"]:,} parameters,
  {figures["onnx_bytes"]:,} bytes of ONNX.
- **SHA-256**: `{figures["sha256"]}` (checked by the run-time wrapper).

## Training data

Only scenes rendered by the project's renderers; no photo was used:
{figures["tables"]:,} tables of 3D cubes from `models.tabletop` (split `train`: trays,
loose rolls, crosswords, single throws of one to four cubes, empty tables; cameras from
straight above to 50 degrees off (trays to 45), so that the sides the camera sees, each with
its own letter, may look as large as the tops, which alone are marked; each top 2.5-25 % of
the photo's longer side wide) and {figures["flat"]:,} flat scenes
from `models.scenes` and `models.sidescene` (seeds of their own). Each was seen through
{figures["steps"]:,} batches of {figures["batch"]} patches of
{figures["patch"]}x{figures["patch"]} pixels, at a random scale (0.45-2.4), turn and
squash (up to 1.35:1), with channels swapped, hues shifted, light, blur and noise changed.

Trained on the CPU ({figures["threads"]} thread(s)): rendering {figures["render_s"]} s,
training {figures["train_s"]} s in all over {figures.get("chunks", 1)} chunk(s),
{figures["total_s"]} s in all with rendering and evaluation.

## Held-out figures (`python -m models.evaluate_tops [--split unseen]`)

`val`: tabletop scenes drawn as the training ones, from their own seeds.
`unseen`: tabletop scenes in what training never used (held-out fonts, colours, textures).

{_table(figures)}

{figures_section(figures)}"""
    )


def _table(figures: dict[str, Any]) -> str:
    """The held-out figures of both splits as a Markdown table."""
    val, unseen = figures["val"], figures["unseen"]
    rows: list[tuple[str, Callable[[dict[str, Any]], str]]] = [
        ("scenes (tops)", lambda f: f"{f['scenes']} ({f['tops']:,})"),
        ("tops found (recall)", lambda f: f"{f['recall']:.2%}"),
        ("detections that are tops (precision)", lambda f: f"{f['precision']:.2%}"),
        ("median corner error (share of the side)", lambda f: f"{f['corner_error']}"),
        ("median time per photo (one thread)", lambda f: f"{f['ms_per_photo']} ms"),
    ]
    lines = ["| figure | val | unseen |", "|---|---|---|"]
    lines += [f"| {label} | {show(val)} | {show(unseen)} |" for label, show in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--val", type=int, default=300)
    ap.add_argument("--split", choices=("val", "unseen"), default="val")
    ap.add_argument("--model", type=Path, default=None)
    args = ap.parse_args(argv)
    scenes = make_scenes("tabletop", args.val, VAL_SEED, split=args.split)
    print(json.dumps(measure(scenes, args.model), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
