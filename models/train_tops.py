"""Train the cube-top detector on rendered scenes and export it to ONNX with its card.

    python -m models.train_tops            # what `make model` runs after the face model
    python -m models.train_tops --resume   # go on from the checkpoint where the last chunk stopped

Needs the ``train`` extra (torch, onnx). Steps: render the training scenes and the held-out
ones (their own seeds), train ``models.topnet.TopNet`` on the CPU with a progress bar in
chunks of ``--minutes`` (``models.checkpoint``, as ``models.train``), and when training is
done export ``cube_tops.onnx``, ``cube_tops.json`` (SHA-256) and ``CARD_TOPS.md`` into
``build/model-candidate/``, measured through the run-time detector (``vision.tops``); the
gate (``models.gate``) then replaces ``models/cube_tops.onnx``, its JSON and
``models/CARD_TOPS.md`` only when no figure of the committed card is better.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from models.checkpoint import Chunk, Standing
from models.topdata import TRAIN_SEED, VAL_SEED, Scenes, batches, make_scenes
from models.topnet import TopNet
from models.train import Progress, export_onnx, finish, refusing, run_options
from vision.topshape import CHANNELS, HEAT, INPUT_SIDE, STRIDE

HERE = Path(__file__).resolve().parent
DATA_VERSION = 4
PATCH = 256


def focal_loss(logit: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """CenterNet's focal loss on the heat: peaks are 1, their surroundings count less."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    peak = target >= 0.999
    positive = -torch.log(p) * (1 - p) ** 2 * peak
    negative = -torch.log(1 - p) * p**2 * (1 - target) ** 4 * ~peak * weight
    return (positive.sum() + negative.sum()) / peak.sum().clamp(min=1)


def shape_loss(out: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """L1 on the shape channels, at and beside each centre."""
    difference = (out[:, HEAT + 1 :] - target[:, HEAT + 1 :]).abs().sum(1)
    return (difference * weight).sum() / weight.sum().clamp(min=1)


def train(net: TopNet, scenes: Scenes, steps: int, batch: int, seed: int, chunk: Chunk) -> Standing:
    """Train ``net`` for one chunk of the run (all of it where the chunk is long enough),
    from the chunk's checkpoint where it resumes one; where the run stands after it."""
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    rng = np.random.default_rng(seed)
    parts = {"net": net, "opt": opt, "sched": sched, "rng": rng}
    standing, saved = chunk.start(steps, parts)
    totals: list[float] = saved.get("loss", [0.0, 0.0])  # the running heat and shape losses
    bar = Progress(steps - standing.done, "train")
    net.train()
    source = batches(scenes, batch, PATCH, rng)

    def step(k: int) -> None:
        images, target, heat_weight, shape_weight = (torch.from_numpy(a) for a in next(source))
        raw = net.raw(images)
        heat = focal_loss(raw[:, HEAT], target[:, HEAT], heat_weight)
        shape = shape_loss(raw, target, shape_weight)
        loss = heat + shape
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
        sched.step()
        for i, part in enumerate((heat.item(), shape.item())):
            totals[i] = 0.98 * totals[i] + 0.02 * part if k else part
        bar(1, f"heat {totals[0]:.3f} shape {totals[1]:.3f}")

    chunk.run(standing, step, lambda: {**parts, "loss": totals})
    return standing


def export(net: TopNet, path: Path) -> dict[str, Any]:
    """Write the ONNX file and, beside it, the JSON with its input and its hash."""
    meta: dict[str, Any] = {
        "input": {"side": INPUT_SIDE, "layout": "NCHW", "channels": "BGR", "scale": 1 / 255},
        "output": {"stride": STRIDE, "channels": CHANNELS},
    }
    axes = {"image": {0: "n", 2: "h", 3: "w"}, "tops": {0: "n", 2: "gh", 3: "gw"}}
    dummy = torch.zeros(1, 3, INPUT_SIDE * 3 // 4, INPUT_SIDE)
    return export_onnx(net, dummy, path, axes, meta)


def _scenes(
    cache: Path, source: str, count: int, seed: int, workers: int, split: str = "train"
) -> tuple[Scenes, bool]:
    path = cache / f"tops-{source}-{split}-v{DATA_VERSION}-seed{seed}-n{count}.npz"
    if path.is_file():
        return Scenes.open(path), False
    bar = Progress(count, f"{source}")
    scenes = make_scenes(source, count, seed, workers, bar, split)
    scenes.save(path)
    return scenes, True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--tables", type=int, default=6000, help="3D training scenes to render")
    ap.add_argument("--flat", type=int, default=3000, help="flat training scenes to render")
    ap.add_argument("--val", type=int, default=200, help="held-out 3D scenes of each split")
    ap.add_argument("--steps", type=int, default=12000, help="training batches")
    ap.add_argument("--batch", type=int, default=16)
    run_options(ap, HERE / "cube_tops.onnx", threads=2, kept="scenes")
    args = ap.parse_args(argv)
    given = sys.argv[1:] if argv is None else argv
    return refusing(lambda: _run(args, given))


def measure(model: Path, held_out: Scenes, unseen: Scenes) -> dict[str, Any]:
    """The figures of ``model`` that the gate compares, on both held-out splits, read
    through the run-time detector."""
    from models import evaluate_tops  # it runs the run-time detector

    return {
        "val": evaluate_tops.measure(held_out, model),
        "unseen": evaluate_tops.measure(unseen, model),
    }


def _run(args: argparse.Namespace, argv: list[str]) -> int:
    options = {k: vars(args)[k] for k in ("tables", "flat", "steps", "batch")}
    chunk = Chunk.open(args, "cube_tops", options)
    torch.set_num_threads(args.threads)
    torch.manual_seed(TRAIN_SEED)
    t0 = time.monotonic()
    tables, rendered = _scenes(args.cache, "tabletop", args.tables, TRAIN_SEED, args.workers)
    flat, _ = _scenes(args.cache, "flat", args.flat, TRAIN_SEED, args.workers)
    scenes = Scenes.join([tables, flat])
    held_out, _ = _scenes(args.cache, "tabletop", args.val, VAL_SEED, args.workers, "val")
    unseen, _ = _scenes(args.cache, "tabletop", args.val, VAL_SEED, args.workers, "unseen")
    render_s = time.monotonic() - t0
    net = TopNet()
    standing = train(net, scenes, args.steps, args.batch, TRAIN_SEED, chunk)
    if not standing.finished:
        return chunk.stop("models.train_tops", argv, standing)
    from models import evaluate_tops

    settings = {
        "scenes": len(scenes),
        "tables": args.tables,
        "flat": args.flat,
        "steps": args.steps,
        "batch": args.batch,
        "patch": PATCH,
    }
    card = ("CARD_TOPS.md", evaluate_tops.write_card)
    return finish(
        net,
        args,
        chunk,
        standing,
        export,
        lambda m: measure(m, held_out, unseen),
        card,
        settings,
        render_s,
        rendered,
    )


if __name__ == "__main__":
    raise SystemExit(main())
