"""The independent renderer's own truth: consistent with the rules, the right size, and
the same photo for the same seed. (How well the reader reads these scenes is the
measure's figure, ``python -m tests.independent.measure``, not a test.)"""

from __future__ import annotations

import contextlib
import io
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from device.cli import main
from engine.cubes import CubeSet

from .faceprint import JokerStyle, joker_mark
from .scenes import SIZES, BestCrossword, Scene, crossword_score, render


def cuberef_json(*argv: str) -> dict[str, object]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0
    return json.loads(out.getvalue())  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def crossword(tmp_path_factory: pytest.TempPathFactory) -> tuple[Scene, Path]:
    cache = tmp_path_factory.mktemp("crosswords") / "cache.json"
    return render("crossword", 3, BestCrossword(seconds=0.3, cache=cache)), cache


def test_the_rulebook_score_of_the_readme_example() -> None:
    values = {str(face): value for face, value in CubeSet.load("adlib").values.items()}
    grid = ["S....", "T.B.J", "E.U.O", "MONEY"]
    assert crossword_score(grid, values, unused=[values["Q"]]) == 31
    assert crossword_score(["Mo", "E."], values, unused=[]) == 3 + 3 + 1  # a joker adds 0


def test_a_crossword_scene_is_a_valid_crossword_scored_as_cuberef_scores_it(
    crossword: tuple[Scene, Path], tmp_path: Path
) -> None:
    scene, _ = crossword
    truth = scene.truth
    assert truth.grid is not None and truth.roll is not None
    grid_file = tmp_path / "grid.txt"
    grid_file.write_text("\n".join(truth.grid) + "\n")
    scored = cuberef_json(
        "score",
        "--game",
        "adlib",
        "--roll",
        " ".join(truth.roll),
        "--grid",
        str(grid_file),
        "--json",
    )
    assert scored["valid"] is True
    assert scored["score"] == truth.score
    # every thrown cube is in the photo, and the crossword's cells are the cubes laid
    assert Counter(seen.face for seen in truth.faces) == Counter(truth.roll)
    cells = [ch for row in truth.grid for ch in row if ch not in ". "]
    laid = [seen.face for seen in truth.faces if seen.in_grid]
    assert Counter("*" if ch.islower() else ch for ch in cells) == Counter(laid)


def test_a_seed_renders_the_same_photo_again(crossword: tuple[Scene, Path]) -> None:
    scene, cache = crossword
    again = render("crossword", 3, BestCrossword(seconds=0.3, cache=cache))
    assert np.array_equal(scene.image, again.image)
    assert render("single", 8).image.tobytes() != render("single", 7).image.tobytes()


@pytest.mark.parametrize("kind", ["single", "closeup", "tray"])
def test_the_photo_has_a_camera_size_and_its_cubes_lie_in_it(kind: str) -> None:
    scene = render(kind, 11)
    h, w, channels = scene.image.shape
    assert (w, h) in SIZES and channels == 3 and scene.image.dtype == np.uint8
    for seen in scene.truth.faces:
        assert 0 <= seen.x < w and 0 <= seen.y < h
    if kind == "tray":
        rows = scene.truth.rows
        assert rows is not None and [len(row) for row in rows] == [4, 4, 4, 4]
        tops = sorted(scene.truth.faces, key=lambda seen: seen.y)[:4]
        assert sorted(rows[0]) == sorted(seen.face for seen in tops)


def test_joker_printings_differ_in_their_lines() -> None:
    one_way = JokerStyle(5, False, True, 0.04, True, 0.6, False)
    crossed = JokerStyle(5, True, True, 0.04, True, 0.6, False)
    other_way = JokerStyle(5, False, False, 0.04, True, 0.6, False)
    a, b, c = (joker_mark(style, 128) for style in (one_way, crossed, other_way))
    assert b.sum() > a.sum() * 1.3  # crossed lines carry more ink
    assert np.abs(a - c).mean() > 0.05
    assert np.abs(a - np.fliplr(c)).mean() < 0.01  # the other way is the mirror image
