"""The face renderer: reproducible, the right shapes, the print turned the right way."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.faces import ALPHABET
from models.dataset import CLASSES, make_set
from models.render import Style, face_ink, fonts, render_face, render_sample, symmetric_orientations


def test_fonts_are_split_into_train_and_held_out() -> None:
    train, val = set(fonts("train")), set(fonts("val"))
    assert len(train) >= 6 and len(val) >= 3
    assert not train & val
    assert all(f.is_file() for f in train | val)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cls=st.sampled_from(CLASSES), k=st.integers(0, 3))
def test_samples_are_reproducible_from_their_seed(seed: int, cls: str, k: int) -> None:
    face = None if cls == "none" else cls
    a = render_sample(face, 90 * k, np.random.default_rng(seed))
    b = render_sample(face, 90 * k, np.random.default_rng(seed))
    assert a.shape == (32, 32, 3) and a.dtype == np.uint8
    np.testing.assert_array_equal(a, b)


def test_sets_do_not_depend_on_the_number_of_workers() -> None:
    one = make_set(len(CLASSES) * 2, seed=5, split="val", workers=1)
    assert one.faces.argmax(1).tolist() == list(range(len(CLASSES))) * 2
    np.testing.assert_allclose(one.orientations.sum(1), 1.0, atol=1e-6)
    again = make_set(len(CLASSES) * 2, seed=5, split="val", workers=1)
    np.testing.assert_array_equal(one.images, again.images)


@pytest.mark.parametrize("face", ["A", "M", "Qu", "Th"])
def test_orientation_turns_the_print_clockwise(face: str) -> None:
    """np.rot90(image, orientation // 90) turns the print upright, as the classifier says."""
    style = Style(fonts()[0])
    upright = render_face(face, 0, 48, style)
    for o in (90, 180, 270):
        np.testing.assert_array_equal(np.rot90(render_face(face, o, 48, style), o // 90), upright)


def test_marks_are_drawn_under_m_w_z_only_when_the_set_has_them() -> None:
    marked, plain = Style(fonts()[0], marks=True), Style(fonts()[0], marks=False)
    for face in "MWZ":
        assert not np.array_equal(face_ink(face, marked, 64), face_ink(face, plain, 64))
    np.testing.assert_array_equal(face_ink("N", marked, 64), face_ink("N", plain, 64))


def test_look_alike_turns() -> None:
    style = Style(fonts()[0], marks=True)
    assert symmetric_orientations("A", style) == (0,)
    assert symmetric_orientations("H", style) == (0, 180)
    assert symmetric_orientations("Z", style) == (0,)  # the mark tells Z from Z turned over
    assert symmetric_orientations("Z", Style(fonts()[0], marks=False)) == (0, 180)
    assert symmetric_orientations(None, style) == (0, 90, 180, 270)


def test_render_face_refuses_what_is_not_a_face() -> None:
    with pytest.raises(ValueError, match="not a face"):
        render_face("Ü")
    with pytest.raises(ValueError, match="orientation"):
        render_face("A", 45)
    assert {render_face(f).shape for f in ALPHABET} == {(64, 64, 3)}


def test_dotted_marks_are_dots_where_the_bar_would_be() -> None:
    bar, dots = Style(fonts()[0], marks=True), Style(fonts()[0], marks=True, dots=True)
    for face in "MWZ":
        a, b = face_ink(face, bar, 64), face_ink(face, dots, 64)
        assert not np.array_equal(a, b)
        # Same letter above; the dots lie in the bar's band (a pixel's edge either side).
        rows = np.nonzero(a.sum(1) > 0)[0]
        assert b[rows.max() + 3 :].sum() == 0
        band = slice(rows.max() - 6, rows.max() + 3)
        np.testing.assert_array_equal(a[: band.start], b[: band.start])
    np.testing.assert_array_equal(face_ink("A", bar, 64), face_ink("A", dots, 64))


def test_wider_styles_keep_the_draws_they_share() -> None:
    for seed in range(20):
        plain = Style.random(np.random.default_rng(seed))
        wider = Style.random(np.random.default_rng(seed), wider=True)
        assert (plain.font, plain.cube, plain.marks, plain.adlib) == (
            wider.font,
            wider.cube,
            wider.marks,
            wider.adlib,
        )
        assert not plain.dots
    assert any(Style.random(np.random.default_rng(s), wider=True).dots for s in range(20))
