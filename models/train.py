"""Train the cube-face model on rendered faces and export it to ONNX with its card.

    python -m models.train            # what `make model` runs (about 25 minutes on two cores)
    python -m models.train --resume   # go on from the checkpoint where the last chunk stopped

Needs the ``train`` extra (torch, onnx). Steps: render the training set (train fonts and
colours) and the held-out set (val fonts and colours), train a small CNN on the CPU with a
progress bar in chunks of ``--minutes`` (``models.checkpoint``: a chunk that stops before
training is done saves its checkpoint, says how to continue and exits 3), and when training
is done export ``cube_faces.onnx`` and ``cube_faces.json`` (classes, input, SHA-256) and
``CARD.md`` into ``build/model-candidate/``, evaluating it through the run-time classifier;
the gate (``models.gate``) then replaces ``models/cube_faces.onnx``, its JSON and
``models/CARD.md`` only when no figure of the committed card is better.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from models import checkpoint, gate
from models.checkpoint import Chunk, Standing
from models.dataset import CLASSES, DATA_VERSION, TRAIN_SEED, Samples, make_set
from models.render import ORIENTATIONS

HERE = Path(__file__).resolve().parent
SIZE = 32


class Progress:
    """A one-line text progress bar on stderr."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.done, self.start = total, label, 0, time.monotonic()
        self.note = ""

    def __call__(self, n: int = 1, note: str = "") -> None:
        self.done += n
        self.note = note or self.note
        frac = min(1.0, self.done / max(1, self.total))
        spent = time.monotonic() - self.start
        eta = spent / frac - spent if frac > 0 else 0.0
        bar = "#" * int(frac * 30)
        sys.stderr.write(
            f"\r{self.label:<10} [{bar:<30}] {frac:6.1%} {spent:5.0f}s eta {eta:4.0f}s {self.note}"
        )
        if self.done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _block(cin: int, cout: int) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]


class FaceNet(nn.Module):
    """Input: (N, 3, 32, 32) BGR in 0..1. Output: face and orientation probabilities.

    Each image is normalised by its own mean and spread first, so that light and exposure
    matter less; a featureless image becomes all zeros.
    """

    def __init__(self, classes: int = len(CLASSES), widths: tuple[int, ...] = (16, 32, 64, 96)):
        super().__init__()
        a, b, c, d = widths
        self.features = nn.Sequential(
            *_block(3, a),
            nn.MaxPool2d(2),
            *_block(a, b),
            *_block(b, b),
            nn.MaxPool2d(2),
            *_block(b, c),
            *_block(c, c),
            nn.MaxPool2d(2),
            *_block(c, d),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.face = nn.Linear(d, classes)
        self.orientation = nn.Linear(d, len(ORIENTATIONS))

    def logits(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        std = x.std(dim=(1, 2, 3), keepdim=True)
        h = self.features((x - mean) / (std + 0.02))
        return self.face(h), self.orientation(h)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f, o = self.logits(x)
        return torch.softmax(f, dim=1), torch.softmax(o, dim=1)


def _tensor(images: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(images).permute(0, 3, 1, 2).float().div_(255.0)


def _soft_ce(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    return -(target * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()


def _quarter_turns(
    x: torch.Tensor, orient: torch.Tensor, first: int
) -> tuple[torch.Tensor, torch.Tensor]:
    """Turn each quarter of a batch a different number of quarter turns, targets with it.

    Exact and free: a crop turned counter-clockwise by r quarter turns shows the print turned
    r quarter turns less, so its orientation target moves r places back. Each rendered crop is
    then seen in every orientation over the epochs, not only the one it was drawn in.
    """
    parts = torch.tensor_split(torch.arange(len(x)), 4)
    xs, os = [], []
    for i, part in enumerate(parts):
        r = (first + i) % 4
        xs.append(torch.rot90(x[part], r, dims=(2, 3)))
        os.append(torch.roll(orient[part], -r, dims=1))
    return torch.cat(xs), torch.cat(os)


def train(
    net: FaceNet, data: Samples, epochs: int, batch: int, seed: int, chunk: Chunk
) -> Standing:
    """Train ``net`` for one chunk of the run (all of it where the chunk is long enough),
    from the chunk's checkpoint where it resumes one; where the run stands after it."""
    gen = torch.Generator().manual_seed(seed)
    x, yf, yo = (
        _tensor(data.images),
        torch.from_numpy(data.faces),
        torch.from_numpy(data.orientations),
    )
    per_epoch = len(data) // batch
    steps = epochs * per_epoch
    opt = torch.optim.AdamW(net.parameters(), lr=4e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=4e-3, total_steps=steps, pct_start=0.15)
    parts = {"net": net, "opt": opt, "sched": sched, "gen": gen}
    standing, saved = chunk.start(steps, parts)
    # This epoch's data order and running loss, saved with the rest when a chunk ends mid-epoch.
    order: torch.Tensor = saved.get("order", torch.arange(len(data)))
    loss_sum: list[float] = saved.get("loss", [0.0, 0.0])
    bar = Progress(steps - standing.done, "train")
    net.train()

    def step(k: int) -> None:
        nonlocal order
        epoch, s = divmod(k, per_epoch)
        if s == 0:
            order = torch.randperm(len(data), generator=gen)
            loss_sum[:] = [0.0, 0.0]
        idx = order[s * batch : (s + 1) * batch]
        xb, ob = _quarter_turns(x[idx], yo[idx], int(torch.randint(4, (1,), generator=gen)))
        f, o = net.logits(xb)
        loss = _soft_ce(f, yf[idx]) + 0.5 * _soft_ce(o, ob)
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        opt.step()
        sched.step()
        loss_sum[0], loss_sum[1] = loss_sum[0] + loss.item(), loss_sum[1] + 1
        bar(1, f"epoch {epoch + 1}/{epochs} loss {loss_sum[0] / loss_sum[1]:.3f}")

    chunk.run(standing, step, lambda: {**parts, "order": order, "loss": loss_sum})
    return standing


def export(net: FaceNet, path: Path) -> dict[str, Any]:
    """Write the ONNX file and, beside it, the JSON that names its classes and its hash."""
    meta = {
        "classes": list(CLASSES),
        "none": "none",
        "orientations": list(ORIENTATIONS),
        "input": {"size": SIZE, "layout": "NCHW", "channels": "BGR", "scale": 1 / 255},
    }
    axes = {"image": {0: "n"}, "face": {0: "n"}, "orientation": {0: "n"}}
    return export_onnx(net, torch.zeros(1, 3, SIZE, SIZE), path, axes, meta)


def export_onnx(
    net: nn.Module,
    dummy: torch.Tensor,
    path: Path,
    axes: dict[str, dict[int, str]],
    meta: dict[str, Any],
) -> dict[str, Any]:
    """Write ``net`` as ONNX (its input "image" like ``dummy``, its outputs and their
    dynamic axes ``axes``) and, beside it, the JSON of ``meta`` with the file's SHA-256,
    which the run-time wrapper checks."""
    net.eval()
    torch.onnx.export(
        net,
        (dummy,),
        str(path),
        dynamo=False,
        input_names=["image"],
        output_names=[name for name in axes if name != "image"],
        dynamic_axes=axes,
        opset_version=17,
    )
    meta = {**meta, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
    return meta


def run_options(ap: argparse.ArgumentParser, out: Path, threads: int, kept: str) -> None:
    """The options of every training command: threads, rendering processes, the committed
    model that a better one replaces, the folder of the new one, the folder that keeps what
    was rendered and the checkpoints, and the chunks (``models.checkpoint``)."""
    ap.add_argument("--threads", type=int, default=threads)
    ap.add_argument("--workers", type=int, default=2, help="processes that render")
    ap.add_argument(
        "--out", type=Path, default=out, help="the committed model, replaced only by a better one"
    )
    ap.add_argument(
        "--candidate",
        type=Path,
        default=HERE.parent / "build" / "model-candidate",
        help="folder of the new model, its JSON and card, before the gate (models.gate)",
    )
    ap.add_argument(
        "--cache",
        type=Path,
        default=HERE.parent / "build" / "model-data",
        help=f"folder that keeps the rendered {kept} and the checkpoints between runs",
    )
    checkpoint.chunk_options(ap)


def refusing(run: Callable[[], int]) -> int:
    """``run()``'s exit status, or, where a resume is refused, its sentence and status."""
    try:
        return run()
    except checkpoint.Refused as refused:
        sys.stderr.write(f"{refused}\n")
        return refused.status


def finish(
    net: nn.Module,
    args: argparse.Namespace,
    chunk: Chunk,
    standing: Standing,
    export: Callable[[Any, Path], dict[str, Any]],
    measure: Callable[[Path], dict[str, Any]],
    card: tuple[str, Callable[[dict[str, Any], Path], None]],
    settings: dict[str, Any],
    render_s: float,
    rendered: bool,
) -> int:
    """A finished run's last steps, the same for each model: export the new model into
    ``args.candidate``, measure it, write its card (``card``: its name and writer) with the
    run's ``settings`` and times, and let the gate (``models.gate``) judge it: it replaces
    ``args.out``, its JSON and its card only when none of its figures is worse (``measure``
    measures the committed model too, where its card's figures are of other data). The
    chunk's checkpoint then records that its run has nothing left to do."""
    trained_at = time.monotonic()
    args.candidate.mkdir(parents=True, exist_ok=True)
    candidate = args.candidate / args.out.name
    meta = export(net, candidate)
    figures = measure(candidate)
    figures.update(settings)
    figures.update(
        threads=args.threads,
        rendered=rendered,
        render_s=round(render_s),
        train_s=round(standing.trained_s),
        chunks=standing.chunks,
        # in all: every chunk's training, this run's rendering and what it did since
        total_s=round(render_s + standing.trained_s + time.monotonic() - trained_at),
        onnx_bytes=candidate.stat().st_size,
        sha256=meta["sha256"],
        params=sum(p.numel() for p in net.parameters()),
    )
    name, write_card = card
    write_card(figures, args.candidate / name)
    print(json.dumps(figures, indent=1))
    files = [args.out.name, args.out.with_suffix(".json").name, name]
    sys.stderr.write(gate.judge(args.candidate, args.out.parent, files, measure) + "\n")
    checkpoint.mark_judged(chunk.where)
    return 0


def _table_crops(cache: Path, scenes: int, workers: int) -> Samples:
    """The crops of the 3D training tables (``models.tablecrops``), rendered once."""
    from models.tablecrops import CROPS_VERSION, make_table_set

    path = cache / f"tables-v{DATA_VERSION}.{CROPS_VERSION}-seed{TRAIN_SEED}-n{scenes}-s{SIZE}.npz"
    if path.is_file():
        with np.load(path) as z:
            return Samples(z["images"], z["faces"], z["orientations"])
    bar = Progress(scenes, "tables")
    data = make_table_set(scenes, TRAIN_SEED, "train", SIZE, workers, bar)
    cache.mkdir(parents=True, exist_ok=True)
    np.savez(path, images=data.images, faces=data.faces, orientations=data.orientations)
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--train", type=int, default=len(CLASSES) * 3000, help="training samples")
    ap.add_argument("--val", type=int, default=len(CLASSES) * 200, help="held-out samples")
    ap.add_argument(
        "--tables", type=int, default=1500, help="3D tables whose faces are cut as well"
    )
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--batch", type=int, default=128)
    # One thread: on a shared two-core machine a second thread costs more than it brings
    # (measured: 514 samples/s with one thread, 71 with two, while other jobs ran).
    run_options(ap, HERE / "cube_faces.onnx", threads=1, kept="training set")
    args = ap.parse_args(argv)
    given = sys.argv[1:] if argv is None else argv
    return refusing(lambda: _run(args, given))


def measure(model: Path, val: int, workers: int) -> dict[str, Any]:
    """The figures of ``model`` that the gate compares: ``val`` held-out crops, the real tray
    photo and the own 3D tables, read through the run-time classifier."""
    from models import evaluate  # it reads the model through the run-time wrapper

    figures = evaluate.run(val, model, workers=workers)
    figures["tray_photo"] = evaluate.tray_photo(model)
    figures["tables"] = evaluate.tables(model)
    return figures


def _run(args: argparse.Namespace, argv: list[str]) -> int:
    options = {k: vars(args)[k] for k in ("train", "tables", "epochs", "batch")}
    chunk = Chunk.open(args, "cube_faces", options)
    torch.set_num_threads(args.threads)
    torch.manual_seed(TRAIN_SEED)
    t0 = time.monotonic()
    cached = args.cache / f"train-v{DATA_VERSION}-seed{TRAIN_SEED}-n{args.train}-s{SIZE}.npz"
    rendered = not cached.is_file()
    if not rendered:
        with np.load(cached) as z:
            data = Samples(z["images"], z["faces"], z["orientations"])
    else:
        bar = Progress(args.train, "render")
        data = make_set(args.train, TRAIN_SEED, "train", SIZE, args.workers, bar)
        args.cache.mkdir(parents=True, exist_ok=True)
        np.savez(cached, images=data.images, faces=data.faces, orientations=data.orientations)
    tables = _table_crops(args.cache, args.tables, args.workers)
    data = Samples.join([data, tables])
    render_s = time.monotonic() - t0
    net = FaceNet()
    standing = train(net, data, args.epochs, args.batch, TRAIN_SEED, chunk)
    if not standing.finished:
        return chunk.stop("models.train", argv, standing)
    from models import evaluate

    settings = {
        "train_samples": args.train,
        "table_scenes": args.tables,
        "table_samples": len(tables),
        "epochs": args.epochs,
    }
    card = ("CARD.md", evaluate.write_card)
    return finish(
        net,
        args,
        chunk,
        standing,
        export,
        lambda m: measure(m, args.val, args.workers),
        card,
        settings,
        render_s,
        rendered,
    )


if __name__ == "__main__":
    raise SystemExit(main())
