"""The gate a retrained model passes before it replaces the committed one.

A model's card ends with the figures its evaluation measured, as JSON (``figures_section``).
When training is done the new model, its JSON and its card are written to a candidate folder
(``build/model-candidate/``); ``judge`` then compares the candidate card's figures with the
committed card's, each in the direction ``DIRECTION`` gives it, and copies the candidate over
the committed files only when no figure is worse (where the committed card was measured on other
data, the committed model is measured again on the candidate's). Otherwise the candidate
stays where it is and one sentence names each figure that is worse. Needs no torch.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HIGHER, LOWER = "higher is better", "lower is better"
SAME = "must be equal"  # the size of what was measured: figures on other data do not compare
NOT_COMPARED = "not compared"  # how the run was made, or a time on whichever machine ran it

# Every figure of either card, by its path in the card's figures ("tables.tops_right": the
# key tops_right of the figure tables); "name.*" stands for every figure under name.
DIRECTION: dict[str, str] = {
    # The face model (models/CARD.md): the held-out crops ...
    "val_samples": SAME,
    "face_accuracy": HIGHER,
    "orientation_accuracy": HIGHER,
    "orientation_accuracy_unique_turn": HIGHER,
    "face_and_orientation_accuracy": HIGHER,
    "none_accuracy": HIGHER,
    "top_confusions.*": NOT_COMPARED,  # which confusions; the accuracies count them
    # ... the real tray photo of ../shared/photos/dev ...
    "tray_photo.crops": SAME,
    "tray_photo.faces": HIGHER,
    "tray_photo.oriented": HIGHER,
    "tray_photo.lowest_confidence": HIGHER,
    # ... and the own 3D tables in what training never saw.
    "tables.tops": SAME,
    "tables.others": SAME,
    "tables.tops_right": HIGHER,
    "tables.tops_turn_right": HIGHER,
    "tables.none_right": HIGHER,
    # The top detector (models/CARD_TOPS.md), on held-out 3D tables of two splits.
    **{
        f"{split}.{name}": direction
        for split in ("val", "unseen")
        for name, direction in {
            "scenes": SAME,
            "tops": SAME,
            "recall": HIGHER,
            "precision": HIGHER,
            "corner_error": LOWER,
            "ms_per_photo": NOT_COMPARED,
        }.items()
    },
    # How either model was made.
    **dict.fromkeys(
        (
            *("train_samples", "table_scenes", "table_samples", "epochs"),  # the face model
            *("scenes", "tables", "flat", "steps", "batch", "patch"),  # the top detector
            *("threads", "rendered", "render_s", "train_s", "total_s", "chunks"),
            *("onnx_bytes", "sha256", "params"),
        ),
        NOT_COMPARED,
    ),
}


def flatten(figures: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Every figure by its path: nested figures joined with dots."""
    flat: dict[str, Any] = {}
    for key, value in figures.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten(value, f"{name}."))
        else:
            flat[name] = value
    return flat


def direction(name: str) -> str | None:
    """How ``name`` compares (``DIRECTION``), or None for a figure the gate does not know."""
    return DIRECTION.get(name) or DIRECTION.get(name.split(".")[0] + ".*")


def other_data(new: dict[str, Any], old: dict[str, Any]) -> bool:
    """Whether the two were measured on data of other sizes (a ``SAME`` figure differs)."""
    new_flat, old_flat = flatten(new), flatten(old)
    return any(
        direction(name) == SAME and new_flat.get(name) != was for name, was in old_flat.items()
    )


def worse(new: dict[str, Any], old: dict[str, Any], of: str = "the committed card's") -> list[str]:
    """What keeps the new figures from replacing the old (``of`` says whose they are): each
    figure that is worse, measured on other data, not measured, or of no known direction.
    Empty when every one is as good or better."""
    new_flat, old_flat = flatten(new), flatten(old)
    reasons = []
    for name in sorted(new_flat.keys() | old_flat.keys()):
        way = direction(name)
        if way is None:
            reasons.append(f"{name} has no direction in models.gate.DIRECTION")
            continue
        if way == NOT_COMPARED or name not in old_flat:
            continue
        was, now = old_flat[name], new_flat.get(name)
        if not isinstance(was, int | float):
            continue  # the committed model was not measured there: nothing to be worse than
        if not isinstance(now, int | float):
            reasons.append(f"{name} was not measured ({of} is {was})")
        elif way == SAME and now != was:
            reasons.append(f"{name} is {now}, not {of} {was} (other data)")
        elif (way == HIGHER and now < was) or (way == LOWER and now > was):
            reasons.append(f"{name} is {now}, worse than {of} {was}")
    return reasons


def figures_section(figures: dict[str, Any]) -> str:
    """The end of a card: its figures as ``models.gate`` reads them."""
    return (
        "## Figures\n\n"
        "Everything above as the gate of `models.gate` reads it: a retrained model replaces\n"
        "this one only when none of its figures is worse.\n\n"
        f"```json\n{json.dumps(figures, indent=1, sort_keys=True)}\n```\n"
    )


def read_figures(card: Path) -> dict[str, Any] | None:
    """The figures at the end of a card, or None where it records none."""
    found = re.search(r"^## Figures\n.*?^```json\n(.*?)^```", card.read_text(), re.M | re.S)
    return json.loads(found.group(1)) if found else None


def judge(
    candidate: Path,
    committed: Path,
    files: Sequence[str],
    measure: Callable[[Path], dict[str, Any]] | None = None,
) -> str:
    """Copy ``files`` (the model, its JSON, its card last) from the ``candidate`` folder over
    the ``committed`` folder's when no figure of the candidate's card is worse; the sentence
    says which happened and, if the candidate stays, which figures are worse.

    Where the committed card's figures were measured on other data (an older renderer, other
    sizes), ``measure`` (the candidate's evaluation, for a model file) measures the committed
    model again on the candidate's data, and the two compare on that."""
    card = files[-1]
    new = read_figures(candidate / card)
    if new is None:
        raise ValueError(f"{candidate / card} records no figures")
    old_card, old_model = committed / card, committed / files[0]
    old = read_figures(old_card) if old_card.is_file() else {}
    of = "the committed card's"
    if old is not None and measure and old_model.is_file() and other_data(new, old):
        old, of = {**old, **measure(old_model)}, "the committed model's, measured again,"
    unknown = ["the committed card records no figures to compare with"]
    reasons = unknown if old is None else worse(new, old, of)
    if reasons:
        return f"The new model stays in {candidate}, not committed: {'; '.join(reasons)}."
    for name in files:
        partial = committed / f".{name}.partial"
        shutil.copyfile(candidate / name, partial)
        os.replace(partial, committed / name)
    return f"The new model replaced {', '.join(files)} in {committed}: no figure is worse."
