"""Cubes seen with their sides: a lit side merges with the top into one blob, and the reader
carves the top out of it (rendered scenes from ``models.sidescene``, never the photos)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest

from models.evaluate_reader import evaluate
from models.sidescene import render_loose_sides
from vision.carve import carve_faces
from vision.detect import FaceQuad, find_faces
from vision.sides import below_their_tops

MODEL = Path(str(files("models") / "cube_faces.onnx"))
needs_model = pytest.mark.skipif(not MODEL.is_file(), reason="the face model is not built yet")

# Seeds of their own: not the evaluation's held-out ones, not those the carving was tried on.
SEEDS = range(40_000_000, 40_000_003)


def _side(cube) -> float:
    return float(np.linalg.norm(np.subtract(cube.corners[1], cube.corners[0])))


def _true_finds(scene, quads):
    """The finds that lie on a cube's top, each with its cube."""
    centers = np.array([cube.center for cube in scene.cubes])
    out = []
    for quad in quads:
        distances = np.linalg.norm(centers - np.array(quad.center), axis=1)
        k = int(np.argmin(distances))
        if distances[k] < _side(scene.cubes[k]) / 3:
            out.append((quad, scene.cubes[k]))
    return out


def test_side_scenes_are_deterministic_and_keep_their_cubes_apart():
    a, b = render_loose_sides(5), render_loose_sides(5)
    assert np.array_equal(a.image, b.image) and len(a.cubes) == 13
    centers = np.array([cube.center for cube in a.cubes])
    gaps = np.linalg.norm(centers[:, None] - centers[None], axis=2) + np.eye(13) * 1e9
    assert gaps.min() > max(_side(cube) for cube in a.cubes)


def test_a_top_the_finder_left_out_is_carved_from_its_blob():
    """Hide each found top in turn: carving, from the others, puts a candidate on it."""
    hidden = carved = 0
    for seed in SEEDS:
        scene = render_loose_sides(seed)
        finds = _true_finds(scene, find_faces(scene.image))
        for k in range(0, len(finds), 3):
            others = [quad for j, (quad, _) in enumerate(finds) if j != k]
            cube = finds[k][1]
            groups = carve_faces(scene.image, others)
            near = [
                group
                for group in groups
                if any(
                    np.hypot(*np.subtract(q.center, cube.center)) < _side(cube) / 4 for q in group
                )
            ]
            hidden += 1
            carved += len(near) == 1
    assert hidden >= 10 and carved >= 0.9 * hidden


def _square(x: float, y: float, side: float) -> FaceQuad:
    h = side / 2
    corners = np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]])
    return FaceQuad(corners, (x, y), side, 0.0, learned=True)


def test_in_a_photo_of_few_finds_the_one_against_another_below_it_is_its_side():
    """A single throw's top and the side found below it: the side gives way, whichever of
    the two the detector is surer of; a find beside another, or below it but apart (a second
    cube thrown), is a cube of its own; among four finds or more, which grow larger towards
    the camera, ``near_edge`` tells the camera's side instead."""
    top, side = _square(300, 200, 80), _square(320, 280, 90)
    assert below_their_tops([side, top]) == [0]
    assert below_their_tops([top, _square(385, 210, 80)]) == []  # beside it
    assert below_their_tops([top, _square(300, 360, 80)]) == []  # two cubes apart
    many = [top, side, _square(600, 200, 80), _square(600, 400, 90)]
    assert below_their_tops(many) == []


def test_carving_finds_nothing_without_faces_to_learn_from():
    scene = render_loose_sides(3)
    assert carve_faces(scene.image, []) == []


@needs_model
@pytest.mark.slow
def test_the_reader_reads_tops_the_finder_missed():
    """A third of the tops hidden from the finder: the reader still reads nearly every cube,
    where without carving it reads about two thirds."""
    carving = evaluate(len(SEEDS), first_seed=SEEDS[0], sides=True, hide=3)
    plain = evaluate(len(SEEDS), first_seed=SEEDS[0], sides=True, hide=3, carve=False)
    assert carving.loose_right >= 0.9 * carving.loose_cubes
    assert plain.loose_right <= 0.8 * plain.loose_cubes


@needs_model
@pytest.mark.slow
def test_the_reader_on_side_scenes():
    """``python -m models.evaluate_reader --sides`` at a small size."""
    tally = evaluate(3, first_seed=41_000_000, sides=True)
    assert tally.loose_right >= 0.95 * tally.loose_cubes
