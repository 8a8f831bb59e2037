"""The committed face model and its run-time wrapper: loads, checks itself, reads faces."""

from __future__ import annotations

import dataclasses
import shutil
from importlib.resources import files
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import MachineError
from engine.faces import ALPHABET
from models.render import ORIENTATIONS, Style, fonts, render_face, symmetric_orientations
from vision.classifier import FaceClassifier, FacePrediction, _resize

MODEL = Path(str(files("models") / "cube_faces.onnx"))


@pytest.fixture(scope="module")
def clf() -> FaceClassifier:
    return FaceClassifier.load()


def test_model_loads_with_the_engines_faces_and_none(clf: FaceClassifier) -> None:
    assert clf.classes == (*ALPHABET, "none")
    assert clf.orientations == (0, 90, 180, 270)
    assert MODEL.stat().st_size < 2_000_000


def test_missing_model_is_a_machine_error(tmp_path: Path) -> None:
    with pytest.raises(MachineError, match=r"missing.*make model`\.$"):
        FaceClassifier.load(tmp_path / "cube_faces.onnx")


def test_corrupt_model_is_a_machine_error(tmp_path: Path) -> None:
    copy = tmp_path / "cube_faces.onnx"
    shutil.copy(MODEL, copy)
    shutil.copy(MODEL.with_suffix(".json"), copy.with_suffix(".json"))
    FaceClassifier.load(copy)  # an intact copy loads
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    with pytest.raises(MachineError, match=r"corrupt.*make model`\.$"):
        FaceClassifier.load(copy)


def test_every_face_is_read_back_in_every_orientation(clf: FaceClassifier) -> None:
    """Clean renders in a held-out font and colours: face always right, orientation too."""
    style = Style(fonts("val")[0], ink=(160, 70, 25), cube=(215, 235, 242), block=True)
    cases = [(f, o) for f in ALPHABET for o in ORIENTATIONS]
    preds = clf.classify([render_face(f, o, 64, style) for f, o in cases])
    wrong = [
        (f, o, p.face, p.orientation)
        for (f, o), p in zip(cases, preds, strict=True)
        if p.face != f
        or (f not in "#*" and (p.orientation - o) % 360 not in symmetric_orientations(f, style))
    ]
    assert wrong == []


def test_a_crop_turned_a_quarter_reads_the_same_face_a_quarter_round(
    clf: FaceClassifier,
) -> None:
    """Each crop is read at its four quarter turns: turning it first changes nothing but
    its orientation, by exactly that quarter (counter-clockwise turns read lower)."""
    style = Style(fonts("val")[2], ink=(40, 40, 40), cube=(225, 235, 240))
    crops = [render_face(f, 90, 48, style) for f in ("A", "Qu", "M", "*")]
    faces, orients = clf.run(crops)
    for k in (1, 2, 3):
        turned_faces, turned_orients = clf.run([np.rot90(c, k).copy() for c in crops])
        np.testing.assert_allclose(turned_faces, faces, atol=1e-5)
        np.testing.assert_allclose(np.roll(turned_orients, k, axis=1), orients, atol=1e-5)


@pytest.mark.parametrize("value", [0, 128, 230, 255])
def test_a_featureless_image_is_none_with_no_way_up(clf: FaceClassifier, value: int) -> None:
    (p,) = clf.classify([np.full((48, 48, 3), value, np.uint8)])
    assert p.face is None
    assert p.orientation_confidence < 0.5  # nothing printed, so no way up


def test_predictions_are_frozen_values_and_batches_keep_order(clf: FaceClassifier) -> None:
    style = Style(fonts("val")[1])
    crops = [render_face("Qu", 0, 40, style), np.full((20, 30, 3), 90, np.uint8)]
    crops.append(cv2.cvtColor(render_face("K", 90, 80, style), cv2.COLOR_BGR2GRAY))
    preds = clf.classify(crops)
    assert [p.face for p in preds] == ["Qu", None, "K"]
    assert preds[2].orientation == 90
    assert len(preds[0].probabilities) == len(ALPHABET) + 1
    assert abs(sum(preds[0].probabilities) - 1) < 1e-4
    with pytest.raises(dataclasses.FrozenInstanceError):
        preds[0].face = "A"  # type: ignore[misc]
    assert isinstance(preds[0], FacePrediction)
    assert clf.classify([]) == []


@settings(max_examples=30, deadline=None)
@given(
    h=st.integers(1, 120),
    w=st.integers(1, 120),
    seed=st.integers(0, 2**31),
)
def test_resize_agrees_with_opencv(h: int, w: int, seed: int) -> None:
    """The numpy resize is OpenCV's INTER_AREA for whole-pixel boxes and INTER_LINEAR up."""
    img = np.random.default_rng(seed).uniform(0, 255, (h, w, 3)).astype(np.float32)
    ours = _resize(img, 32)
    assert ours.shape == (32, 32, 3)
    if h % 32 == 0 and w % 32 == 0:
        ref = cv2.resize(img, (32, 32), interpolation=cv2.INTER_AREA)
        np.testing.assert_allclose(ours, ref, atol=1e-2)
    elif h <= 32 and w <= 32:
        ref = cv2.resize(img, (32, 32), interpolation=cv2.INTER_LINEAR)
        np.testing.assert_allclose(ours, ref, atol=1e-2)
    assert ours.min() >= img.min() - 1e-2 and ours.max() <= img.max() + 1e-2
