"""Training in chunks without torch: the chunk's bookkeeping (models.checkpoint) and the gate
that keeps a worse model from replacing the committed one (models.gate)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from models import checkpoint, evaluate, evaluate_tops, gate
from models.checkpoint import Clock, Refused, Standing, run_chunk

MODELS = Path(__file__).resolve().parent.parent / "models"
CARDS = {"CARD.md": evaluate.write_card, "CARD_TOPS.md": evaluate_tops.write_card}


class FakeTime:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _chunk(standing: Standing, minutes: float, every: float, step_s: float = 60.0) -> list[str]:
    """One chunk of a run whose every step takes ``step_s``; what happened, in order."""
    now, events = FakeTime(), []

    def step(k: int) -> None:
        events.append(f"step {k}")
        now.t += step_s

    run_chunk(
        standing,
        Clock(minutes, every, standing.trained_s, now),
        step,
        lambda: events.append("save"),
    )
    return events


def test_a_chunk_stops_after_its_minutes_saving_every_few_minutes_and_at_its_end() -> None:
    standing = Standing({"epochs": 2}, steps=100)
    events = _chunk(standing, minutes=10, every=3)
    steps = [e for e in events if e.startswith("step")]
    assert steps == [f"step {k}" for k in range(10)]
    # saved after the 3rd, 6th and 9th minute, and when the chunk ends
    assert events[3] == events[7] == events[11] == events[-1] == "save"
    assert events.count("save") == 4
    assert (standing.done, standing.trained_s, standing.chunks) == (10, 600.0, 1)
    assert not standing.finished


def test_the_next_chunk_goes_on_from_where_the_last_stopped_and_adds_its_time() -> None:
    standing = Standing({}, steps=25)
    _chunk(standing, minutes=10, every=5)
    events = _chunk(standing, minutes=10, every=5)
    assert events[0] == "step 10"
    _chunk(standing, minutes=10, every=5)
    assert (standing.done, standing.trained_s, standing.chunks) == (25, 1500.0, 3)
    assert standing.finished
    assert _chunk(standing, minutes=10, every=5) == []  # a finished run trains no more
    assert standing.chunks == 3


def test_a_chunk_of_no_minutes_still_moves_on_by_one_step() -> None:
    standing = Standing({}, steps=3)
    assert _chunk(standing, minutes=0, every=5) == ["step 0", "save"]


def test_a_resume_with_other_options_is_refused_in_one_sentence_naming_them() -> None:
    assert checkpoint.mismatch({"epochs": 14, "batch": 128}, {"epochs": 14, "batch": 128}) is None
    said = checkpoint.mismatch({"epochs": 14, "batch": 128}, {"epochs": 2, "batch": 128})
    assert said == (
        "The checkpoint was trained with --epochs 14; give the same to resume it, or start afresh."
    )


def test_a_resume_without_a_checkpoint_is_refused(tmp_path: Path) -> None:
    with pytest.raises(Refused, match=r"^There is no checkpoint to resume in .*cube_faces\.pt"):
        checkpoint.begin(checkpoint.path(tmp_path, "cube_faces"), True, {})
    assert checkpoint.begin(checkpoint.path(tmp_path, "cube_faces"), False, {}) is None


def test_a_checkpoint_of_other_training_data_is_refused() -> None:
    saved = {"standing": {"options": {}, "steps": 40, "done": 12, "trained_s": 9.0, "chunks": 1}}
    assert checkpoint.standing(saved, {}, 40) == Standing({}, 40, 12, 9.0, 1)
    assert checkpoint.standing(None, {"a": 1}, 40) == Standing({"a": 1}, 40)
    with pytest.raises(Refused, match="run of 40 steps, this one has 41"):
        checkpoint.standing(saved, {}, 41)


def test_a_stopped_chunk_says_the_command_that_continues_it() -> None:
    standing = Standing({}, steps=8000, done=2000, trained_s=1500.0, chunks=2)
    said = checkpoint.how_to_continue(
        "models.train", ["--resume", "--epochs", "3"], standing, Path("build/c.pt")
    )
    assert said == (
        "Stopped after 2,000 of 8,000 steps (25.0 minutes trained in 2 chunk(s)), checkpoint "
        "saved in build/c.pt; continue with: python -m models.train --resume --epochs 3"
    )


def _committed(card: str) -> dict[str, Any]:
    figures = gate.read_figures(MODELS / card)
    assert figures is not None, card
    return figures


@pytest.mark.parametrize("card", CARDS)
def test_every_figure_of_the_committed_cards_has_a_direction(card: str) -> None:
    figures = _committed(card)
    assert gate.worse(figures, figures) == []
    assert all(gate.direction(name) for name in gate.flatten(figures))


def test_the_gate_names_each_figure_that_is_worse() -> None:
    old = _committed("CARD.md")
    new = copy.deepcopy(old)
    new["tables"]["tops_right"] -= 0.01
    new["face_accuracy"] = 1.0  # better
    new["train_s"] = 99_999  # how long it trained is no measure of the model
    new["top_confusions"] = {"O->D": 9}
    assert gate.worse(new, old) == [
        f"tables.tops_right is {old['tables']['tops_right'] - 0.01}, worse than the committed "
        f"card's {old['tables']['tops_right']}"
    ]
    tops = _committed("CARD_TOPS.md")
    new = copy.deepcopy(tops)
    new["unseen"]["corner_error"] += 0.001  # lower is better
    new["val"]["corner_error"] -= 0.001
    new["val"]["ms_per_photo"] = 50.0  # a time on whichever machine measured it
    assert [r.split(" ")[0] for r in gate.worse(new, tops)] == ["unseen.corner_error"]


def test_figures_measured_on_other_data_or_not_at_all_or_unknown_do_not_pass() -> None:
    old = _committed("CARD.md")
    new = copy.deepcopy(old)
    new["val_samples"] = 70
    new["tray_photo"] = {}  # the photo was not here
    new["sharpness"] = 0.5
    reasons = gate.worse(new, old)
    assert [r.split(" ")[0] for r in reasons] == [
        "sharpness",
        "tray_photo.crops",
        "tray_photo.faces",
        "tray_photo.lowest_confidence",
        "tray_photo.oriented",
        "val_samples",
    ]
    assert reasons[0] == "sharpness has no direction in models.gate.DIRECTION"
    assert reasons[-1] == "val_samples is 70, not the committed card's 7000 (other data)"


def test_a_figure_the_committed_model_was_not_measured_on_cannot_be_worse() -> None:
    old = {"val": {"corner_error": None, "recall": 0.5}}
    assert gate.worse({"val": {"corner_error": 0.3, "recall": 0.5}}, old) == []
    assert gate.worse({"val": {"corner_error": None, "recall": 0.5}}, old) == []


COMPARED = [
    (card, name)
    for card in CARDS
    for name in gate.flatten(gate.read_figures(MODELS / card) or {})
    if gate.direction(name) in (gate.HIGHER, gate.LOWER)
]


@given(st.sampled_from(COMPARED), st.floats(0.0001, 0.5), st.booleans())
def test_a_model_passes_exactly_when_no_compared_figure_moved_the_wrong_way(
    which: tuple[str, str], by: float, better: bool
) -> None:
    card, name = which
    old = _committed(card)
    new = copy.deepcopy(old)
    *parents, leaf = name.split(".")
    holder = new
    for key in parents:
        holder = holder[key]
    sign = 1 if gate.direction(name) == gate.HIGHER else -1
    holder[leaf] += sign * by if better else -sign * by
    reasons = gate.worse(new, old)
    assert reasons == [] if better else [r.split(" ")[0] for r in reasons] == [name]


@pytest.mark.parametrize("card", CARDS)
def test_a_card_written_from_figures_reads_them_back(card: str, tmp_path: Path) -> None:
    figures = _committed(card)
    CARDS[card](copy.deepcopy(figures), tmp_path / card)
    assert gate.read_figures(tmp_path / card) == figures
    assert "in all over 1 chunk(s)" in (tmp_path / card).read_text()


def _model(folder: Path, figures: dict[str, Any], content: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "m.onnx").write_text(content)
    (folder / "m.json").write_text(json.dumps({"sha256": content}))
    (folder / "CARD.md").write_text(f"# {content}\n\n{gate.figures_section(figures)}")


def test_the_gate_replaces_the_committed_model_only_with_one_as_good_or_better(
    tmp_path: Path,
) -> None:
    committed, candidate = tmp_path / "models", tmp_path / "candidate"
    files = ["m.onnx", "m.json", "CARD.md"]
    _model(committed, {"val": {"recall": 0.9, "scenes": 200}}, "old")
    _model(candidate, {"val": {"recall": 0.8, "scenes": 200}}, "new")
    said = gate.judge(candidate, committed, files)
    assert said == (
        f"The new model stays in {candidate}, not committed: "
        "val.recall is 0.8, worse than the committed card's 0.9."
    )
    assert [(committed / f).read_text()[:5] for f in files] == ["old", '{"sha', "# old"]
    assert (candidate / "m.onnx").read_text() == "new"

    _model(candidate, {"val": {"recall": 0.9, "scenes": 200}}, "new")
    said = gate.judge(candidate, committed, files)
    assert (
        said
        == f"The new model replaced m.onnx, m.json, CARD.md in {committed}: no figure is worse."
    )
    assert [(committed / f).read_text() for f in files] == [
        (candidate / f).read_text() for f in files
    ]
    assert sorted(p.name for p in committed.iterdir()) == sorted(files)


def test_a_new_model_where_none_is_committed_is_installed(tmp_path: Path) -> None:
    committed, candidate = tmp_path / "models", tmp_path / "candidate"
    committed.mkdir()
    _model(candidate, {"val": {"recall": 0.1, "scenes": 2}}, "new")
    assert "replaced" in gate.judge(candidate, committed, ["m.onnx", "m.json", "CARD.md"])
    assert (committed / "m.onnx").read_text() == "new"


def test_a_committed_card_of_other_data_is_measured_again_on_the_candidates(
    tmp_path: Path,
) -> None:
    committed, candidate = tmp_path / "models", tmp_path / "candidate"
    files = ["m.onnx", "m.json", "CARD.md"]
    _model(committed, {"val": {"recall": 0.9, "scenes": 200}}, "old")
    _model(candidate, {"val": {"recall": 0.5, "scenes": 2}}, "new")
    measured: list[str] = []

    def again(recall: float) -> Any:
        def measure(model: Path) -> dict[str, Any]:
            measured.append(model.read_text())
            return {"val": {"recall": recall, "scenes": 2}}

        return measure

    said = gate.judge(candidate, committed, files, again(0.6))
    assert measured == ["old"]
    assert said == (
        f"The new model stays in {candidate}, not committed: val.recall is 0.5, worse than "
        "the committed model's, measured again, 0.6."
    )
    assert (committed / "m.onnx").read_text() == "old"
    assert "replaced" in gate.judge(candidate, committed, files, again(0.5))
    assert (committed / "m.onnx").read_text() == "new"
    # Figures of the same data compare as the card has them: nothing is measured again.
    _model(candidate, {"val": {"recall": 0.4, "scenes": 2}}, "newer")
    assert "stays" in gate.judge(candidate, committed, files, again(0.1))
    assert measured == ["old", "old"]
