"""Training in chunks with torch (the ``train`` extra): a run stopped after each chunk, or
killed between checkpoints, and resumed gives the weights of one uninterrupted run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from models import checkpoint, gate, train, train_tops  # noqa: E402
from models.checkpoint import Chunk  # noqa: E402
from models.dataset import CLASSES, Samples  # noqa: E402
from models.topdata import make_scenes  # noqa: E402
from models.topnet import TopNet  # noqa: E402

OPTIONS = {"size": "tiny"}


def _faces(n: int = 96) -> Samples:
    """Random crops with random targets: enough for the steps to differ from one another."""
    rng = np.random.default_rng(5)
    faces = np.eye(len(CLASSES), dtype=np.float32)[rng.integers(len(CLASSES), size=n)]
    turns = np.eye(4, dtype=np.float32)[rng.integers(4, size=n)]
    return Samples(rng.integers(0, 256, (n, 32, 32, 3), dtype=np.uint8), faces, turns)


def _in_chunks(
    make_net: Callable[[], Any],
    train_chunk: Callable[[Any, Chunk], checkpoint.Standing],
    where: Path,
    minutes: float,
    save_every: float = 5,
) -> tuple[dict[str, Any], checkpoint.Standing]:
    """Train chunk after chunk, each in a fresh net resumed from the checkpoint, to the end."""
    resumed = None
    while True:
        net = make_net()
        standing = train_chunk(net, Chunk(where, OPTIONS, minutes, save_every, resumed))
        if standing.finished:
            return net.state_dict(), standing
        resumed = checkpoint.begin(where, True, OPTIONS)


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert a.keys() == b.keys()
    for name in a:
        torch.testing.assert_close(a[name], b[name], rtol=1e-6, atol=1e-7, msg=name)


def _face_net() -> train.FaceNet:
    torch.manual_seed(1)
    return train.FaceNet()


def _face_chunk(data: Samples) -> Callable[[Any, Chunk], checkpoint.Standing]:
    return lambda net, chunk: train.train(net, data, 2, 16, 1, chunk)


def test_face_training_stopped_after_every_chunk_gives_the_uninterrupted_weights(
    tmp_path: Path,
) -> None:
    torch.set_num_threads(1)
    data = _faces()
    whole, once = _in_chunks(_face_net, _face_chunk(data), tmp_path / "a.pt", minutes=60)
    assert (once.done, once.chunks) == (12, 1)
    # A chunk of no minutes trains one step: here each chunk ends mid-epoch but the last.
    parts, chunked = _in_chunks(_face_net, _face_chunk(data), tmp_path / "b.pt", minutes=0)
    assert (chunked.done, chunked.chunks) == (12, 12)
    _same(whole, parts)
    assert chunked.trained_s > once.trained_s * 0.5  # every chunk's seconds added up
    assert not torch.equal(whole["face.weight"], _face_net().face.weight)  # it did train


def test_a_killed_face_run_resumes_from_its_last_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    torch.set_num_threads(1)
    data = _faces()
    whole, _ = _in_chunks(_face_net, _face_chunk(data), tmp_path / "a.pt", minutes=60)
    where = tmp_path / "killed.pt"
    losses = train._soft_ce
    calls = 0

    def dies_in_step_8(*args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls > 2 * 7:  # two losses a step
            raise KeyboardInterrupt
        return losses(*args)

    monkeypatch.setattr(train, "_soft_ce", dies_in_step_8)
    with pytest.raises(KeyboardInterrupt):
        train.train(_face_net(), data, 2, 16, 1, Chunk(where, OPTIONS, 60, save_every=0))
    monkeypatch.setattr(train, "_soft_ce", losses)
    resumed = checkpoint.begin(where, True, OPTIONS)
    assert resumed is not None and resumed["standing"]["done"] == 7  # saved after each step
    net = _face_net()
    assert train.train(net, data, 2, 16, 1, Chunk(where, OPTIONS, 60, 5, resumed)).finished
    _same(whole, net.state_dict())


def test_top_training_stopped_after_every_chunk_gives_the_uninterrupted_weights(
    tmp_path: Path,
) -> None:
    torch.set_num_threads(1)
    scenes = make_scenes("flat", 2, 11)

    def net() -> TopNet:
        torch.manual_seed(11)
        return TopNet()

    def chunk(net: Any, chunk: Chunk) -> checkpoint.Standing:
        return train_tops.train(net, scenes, 4, 1, 11, chunk)

    whole, _ = _in_chunks(net, chunk, tmp_path / "a.pt", minutes=60)
    parts, chunked = _in_chunks(net, chunk, tmp_path / "b.pt", minutes=0)
    assert chunked.chunks == 4
    _same(whole, parts)


def test_a_face_chunk_stops_says_how_to_continue_and_a_resume_must_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    given = ["--train", "64", "--tables", "1", "--epochs", "1", "--batch", "16"]
    given += ["--minutes", "0", "--cache", str(tmp_path)]
    assert train.main(given) == checkpoint.NOT_FINISHED
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert said.startswith("Stopped after 1 of ")
    assert said.endswith(
        f"checkpoint saved in {tmp_path}/checkpoints/cube_faces.pt; continue with: "
        f"python -m models.train --resume {' '.join(given)}"
    )
    assert train.main([*given, "--resume", "--epochs", "2"]) == 2
    assert capsys.readouterr().err == (
        "The checkpoint was trained with --epochs 1; give the same to resume it, or start afresh.\n"
    )
    assert train.main(["--resume", "--cache", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err.startswith("There is no checkpoint to resume in ")
    (tmp_path / "checkpoints" / "cube_faces.pt").write_bytes(b"not a checkpoint")
    assert train.main([*given, "--resume"]) == 2
    assert capsys.readouterr().err == (
        f"The checkpoint {tmp_path}/checkpoints/cube_faces.pt cannot be read "
        "(UnpicklingError); start afresh without --resume.\n"
    )


def test_a_top_run_in_chunks_is_judged_installed_and_then_has_nothing_to_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    models, candidate = tmp_path / "models", tmp_path / "candidate"
    models.mkdir()  # no model committed yet: the first is as good as any
    given = ["--out", str(models / "cube_tops.onnx"), "--candidate", str(candidate)]
    given += ["--cache", str(tmp_path / "cache"), "--tables", "1", "--flat", "1", "--val", "1"]
    given += ["--steps", "2", "--batch", "1", "--threads", "1"]
    assert train_tops.main([*given, "--minutes", "0"]) == checkpoint.NOT_FINISHED
    assert not (candidate / "cube_tops.onnx").exists()  # only a finished run is exported
    capsys.readouterr()
    assert train_tops.main([*given, "--resume"]) == 0
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert said == (
        f"The new model replaced cube_tops.onnx, cube_tops.json, CARD_TOPS.md in {models}: "
        "no figure is worse."
    )
    card = (models / "CARD_TOPS.md").read_text()
    assert "in all over 2 chunk(s)" in card
    figures = gate.read_figures(models / "CARD_TOPS.md")
    assert figures is not None and figures["chunks"] == 2 and figures["steps"] == 2
    assert train_tops.main([*given, "--resume"]) == 0
    assert capsys.readouterr().err == (
        f"The run of {tmp_path}/cache/checkpoints/cube_tops.pt is trained and judged already; "
        "start afresh without --resume.\n"
    )
    # A fresh run measured on more scenes than the card it would replace: the committed
    # model is measured again on them (the same weights here, so none is worse).
    more = [*given, "--val", "2"]
    assert train_tops.main(more) == 0
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("The new model replaced")
    figures = gate.read_figures(models / "CARD_TOPS.md")
    assert figures is not None and figures["val"]["scenes"] == 2
