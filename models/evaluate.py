"""Measure the committed face model on the held-out synthetic set and print the figures.

    python -m models.evaluate [--count N]

The held-out set uses the ``val`` fonts and colours (never seen in training) and its own seed.
The model is read through ``vision.classifier`` exactly as at run time (onnxruntime + numpy).
Face accuracy counts every sample; orientation accuracy counts the printed letters and counts a
turn right when it looks the same as the true one (``S`` turned 180 degrees is still ``S``).
"""

from __future__ import annotations

import argparse
import json
import runpy
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from models.dataset import CLASSES, FEATURELESS, FLAT, NONE, VAL_SEED, make_set
from models.gate import figures_section
from models.render import fonts
from vision.classifier import FaceClassifier

HERE = Path(__file__).resolve().parent
NOT_PRINTED = {NONE, CLASSES.index("#"), CLASSES.index("*")}


def run(
    count: int = len(CLASSES) * 200, model: Path | None = None, workers: int = 1
) -> dict[str, Any]:
    """Figures of the model on ``count`` held-out samples."""
    data = make_set(count, VAL_SEED, "val", 32, workers)
    clf = FaceClassifier.load(model)
    faces, orients = [], []
    for s in range(0, len(data), 256):
        f, o = clf.run(list(data.images[s : s + 256]))
        faces.append(f)
        orients.append(o)
    pf, po = np.concatenate(faces).argmax(1), np.concatenate(orients).argmax(1)
    tf = data.faces.argmax(1)
    face_ok = pf == tf
    printed = np.array([t not in NOT_PRINTED for t in tf])
    orient_ok = data.orientations[np.arange(len(po)), po] > 0
    unique = data.orientations.max(1) == 1.0
    both = face_ok & orient_ok
    confusions = Counter(
        f"{CLASSES[t]}->{CLASSES[p]}" for t, p in zip(tf, pf, strict=True) if t != p
    )
    return {
        "val_samples": len(data),
        "face_accuracy": round(float(face_ok.mean()), 5),
        "orientation_accuracy": round(float(orient_ok[printed].mean()), 5),
        "orientation_accuracy_unique_turn": round(float(orient_ok[printed & unique].mean()), 5),
        "face_and_orientation_accuracy": round(float(both[printed].mean()), 5),
        "none_accuracy": round(float(face_ok[tf == NONE].mean()), 5),
        "top_confusions": dict(confusions.most_common(8)),
    }


def tray_photo(model: Path | None = None) -> dict[str, Any]:
    """The tray photo check of tests/test_model_photo.py (its boxes live there): of its crops,
    the faces read right, those read right the right way up, and the lowest confidence;
    empty where the photo is not here."""
    test = HERE.parent / "tests" / "test_model_photo.py"
    spec = runpy.run_path(str(test))
    photo = spec["PHOTOS"] / spec["TRAY"]
    if not photo.is_file():
        return {}
    import cv2  # opencv is a run-time dependency of vision; only this check needs it here

    image = cv2.imread(str(photo))
    assert image is not None, photo
    rows = json.loads((spec["PHOTOS"] / "labels.json").read_text())["trays"][spec["TRAY"]]["rows"]
    truth = [face for row in rows for face in row.split()]
    turns = [t for row in spec["TURNS"] for t in row]
    crops = [image[y0:y1, x0:x1] for y0, y1 in spec["ROWS"] for x0, x1 in spec["COLUMNS"]]
    preds = FaceClassifier.load(model).classify(crops)
    return {
        "crops": len(crops),
        "faces": sum(p.face == t for p, t in zip(preds, truth, strict=True)),
        "oriented": sum(
            p.face == t and p.orientation in o for p, t, o in zip(preds, truth, turns, strict=True)
        ),
        "lowest_confidence": round(min(p.confidence for p in preds), 3),
    }


def tray_line(tray: dict[str, Any]) -> str:
    """The tray photo's figures as the card says them."""
    if not tray:
        return "not measured: the photo is not here"
    return (
        f"{tray['faces']}/{tray['crops']} faces and {tray['oriented']}/{tray['crops']} faces "
        f"with their orientation read right (lowest face confidence {tray['lowest_confidence']})"
    )


def tables(model: Path | None = None, scenes: int = 100) -> dict[str, float]:
    """The model on crops cut from 3D tables in what training never used (``models.tabletop``
    split ``unseen``, seed 3): tops read right, and sides, table and empty cells read "none"."""
    from models.tablecrops import make_table_set

    data = make_table_set(scenes, 3, "unseen", 32)
    faces, orients = FaceClassifier.load(model).run(list(data.images))
    truth, read = data.faces.argmax(1), faces.argmax(1)
    tops = truth != NONE
    turned = data.orientations[np.arange(len(data)), orients.argmax(1)] > 0
    return {
        "tops": int(tops.sum()),
        "others": int((~tops).sum()),
        "tops_right": float((read[tops] == truth[tops]).mean()),
        "tops_turn_right": float((turned & (read == truth))[tops].mean()),
        "none_right": float((read[~tops] == NONE).mean()),
    }


def latency(clf: FaceClassifier, batch: int = 36, repeats: int = 50) -> float:
    """Median seconds of one batched classify() of ``batch`` 64-pixel crops."""
    crops = [np.full((64, 64, 3), 200, np.uint8) for _ in range(batch)]
    clf.classify(crops)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        clf.classify(crops)
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def write_card(fig: dict[str, Any], path: Path) -> None:
    """The model card: what the model is, how it was made, how well it does."""
    pct = {k: f"{v:.2%}" for k, v in fig.items() if k.endswith("accuracy") or "accuracy_" in k}
    fig.setdefault("tray_photo", tray_photo())
    train_fonts = [f.stem for f in fonts("train")]
    val_fonts = [f.stem for f in fonts("val")]
    rendering = (
        f"rendering {fig['render_s']} s"
        if fig.get("rendered", True)
        else f"the training set read from the cache of an earlier run ({fig['render_s']} s)"
    )
    confused = ", ".join(f"{k} ({v})" for k, v in fig["top_confusions"].items()) or "none"
    path.write_text(
        f"""# Model card: cube_faces.onnx

The cube-face model of cuberef: it looks at the top face of one letter cube and says which face
it is and which way its print is turned. Written by `python -m models.train` (`make model`).

- **Input**: `image`, float32 (N, 3, 32, 32), BGR, values 0..1; `vision.classifier` resizes any
  crop (box average down, bilinear up). The network normalises each image by its own mean and
  spread.
- **Outputs**: `face` (N, {len(CLASSES)}) probabilities over the classes below; `orientation`
  (N, 4) probabilities over 0, 90, 180, 270 degrees clockwise (`np.rot90(crop, k)` with
  k = degrees // 90 turns the print upright).
- **Classes** (in order, as in `cube_faces.json`): {" ".join(CLASSES)}. `#` is the blank face,
  `*` the Ad-Lib joker, `none` anything that is not a cube's top face.
- **Network**: a small CNN (5 conv layers 16-32-32-64-64-96, batch norm, global average pool,
  two linear heads), {fig["params"]:,} parameters, {fig["onnx_bytes"]:,} bytes of ONNX.
- **SHA-256**: `{fig["sha256"]}` (checked by the run-time wrapper).

## Training data

Only images rendered by the project's renderers; no photo was used. {fig["train_samples"]:,}
crops drawn by `models/render.py` (balanced over the classes, seed 1) from
{len(train_fonts)} free fonts (`models/fonts/SOURCES.txt`, split `train`:
{", ".join(train_fonts)}), ink colours of real sets (blue, teal, black, red),
white/ivory/cream cubes, underline marks under M, W, Z on 85% of sets, Ad-Lib point values
on 15% (0.12-0.2 of the face high), the Ad-Lib joker as a square or a diamond, hatched or
cross-hatched; each crop turned by a quarter turn plus up to 40 degrees, in perspective, with the
cube's side and part of another letter, neighbouring cubes, tray walls, shadows, uneven
light, colour casts, blur, noise, JPEG artefacts and half of them seen at low resolution (the
top face 18-32 pixels wide). "none" crops show empty tray cells, tray walls, cube sides and
bare tables; {FEATURELESS:.0%} of them are featureless (one colour with a faint ramp and
noise, or, for {FLAT:.0%} of those, perfectly flat), whose target is split 0.6 none / 0.4
blank face; the bare tables and empty cells cut from the 3D tables outweigh them, so a
featureless image is read "none" (the blank face is learned bare and, on 40% of sets, printed
as Super Big Boggle's block).
Orientation targets are shared by the quarter turns that leave the print looking the same
(S, H, I, N, X, O...), each by its likeness to the fourth power, so a nearly symmetric print
still leans to its true turn; each quarter of a batch is turned by another quarter turn, the
target with it. Beside them, {fig["table_samples"]:,} crops cut by `models/tablecrops.py` from
{fig["table_scenes"]:,} 3D tables of `models.tabletop` (split `train`): every top as the reader
cuts it (corners a little off, a margin of 1.1-1.35), and as "none" every side the camera
sees (with its own letter), bare table, empty tray cells and, from half the tops 48 pixels
wide or more, a piece of the top a quarter to nearly half its side (mostly a corner, where
an Ad-Lib set prints the value). The tables are seen from up to 50 degrees off the vertical
(trays 45), with Ad-Lib values 0.13-0.26 of the face high and jokers in the same four looks.
Trained for {fig["epochs"]} epochs (AdamW, one-cycle) on the CPU, {fig.get("threads", 1)} thread(s):
{rendering}, training {fig["train_s"]} s in all over {fig.get("chunks", 1)} chunk(s),
{fig["total_s"]} s in all with rendering and evaluation.

## Accuracy (held-out synthetic set: `python -m models.evaluate`)

{fig["val_samples"]:,} crops, seed 2, rendered with {len(val_fonts)} fonts
({", ".join(val_fonts)}) and ink/cube colours held out of training
(split `val`). Read as the reader reads them (`vision.classifier`): each crop at its four
quarter turns, the turns' face probabilities combined by their geometric mean.

| figure | value |
|---|---|
| face accuracy | {pct["face_accuracy"]} |
| orientation accuracy (printed faces; a look-alike turn counts) | {pct["orientation_accuracy"]} |
| orientation accuracy (faces with one right turn) | {pct["orientation_accuracy_unique_turn"]} |
| face and orientation both right (printed faces) | {pct["face_and_orientation_accuracy"]} |
| "none" recognised | {pct["none_accuracy"]} |

Most frequent confusions: {confused}.

## 3D tables training never saw (`models.tabletop`, split `unseen`)

Crops cut by `models/tablecrops.py` from 100 tables in held-out fonts, colours and textures:
{fig["tables"]["tops"]:,} tops, of which {fig["tables"]["tops_right"]:.2%} read right and
{fig["tables"]["tops_turn_right"]:.2%} right and the right way up; {fig["tables"]["others"]:,}
sides the camera sees, patches of table and empty cells, of which
{fig["tables"]["none_right"]:.2%} read "none".

## A real photo

The 4x4 tray photo of `../shared/photos/dev/` (blue letters on ivory cubes, letters turned every
way; never trained on, never tuned to), cut by the fixed boxes of `tests/test_model_photo.py`:
{tray_line(fig["tray_photo"])}.

## Limits

- Without underline marks, N turned 90 degrees and Z differ only by stroke widths, and M/W
  turned 180 degrees only by their slants; the model reads marks where a set has them.
- Orientation of symmetric prints (S, H, I, N, O, X, Z without mark, blank, joker) is ambiguous
  by nature: the orientation probability is shared between look-alike turns.
- Crops are resized to a square: cut them roughly square around one cube.

## Retrain

`make model` (installs the `train` extra into `.venv`, renders, trains in chunks of 20 minutes
that resume from their checkpoint, exports, evaluates, and replaces this card and the model only
when no figure below is worse). `python -m models.train --help` lists the sizes, epochs, threads
and chunks.

{figures_section(fig)}"""
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Evaluate the face model on held-out renders.")
    ap.add_argument("--count", type=int, default=len(CLASSES) * 200)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    fig = run(args.count, workers=args.workers)
    fig["batch36_median_ms"] = round(latency(FaceClassifier.load()) * 1000, 2)
    fig["tray_photo"] = tray_photo()
    print(json.dumps(fig, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
