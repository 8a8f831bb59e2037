"""The reader's geometry, matching and refusals: nothing here needs the face model."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.cli import main
from engine.board import Board
from engine.cubes import CubeSet
from engine.faces import Face
from engine.games import find_game
from models.evaluate_reader import evaluate
from models.scenes import render_scene, render_tray
from vision import (
    NoCubesFound,
    NotAnImage,
    TooBlurred,
    TooSmall,
    TrayCutOff,
    WrongGame,
    load_image,
    read,
)
from vision.assign import assign_faces, hungarian
from vision.lattice import fit_lattice


@settings(max_examples=40, deadline=None)
@given(
    rows=st.integers(1, 6),
    cols=st.integers(2, 6),
    turn=st.floats(-180, 180),
    skew=st.floats(-0.12, 0.12),
    seed=st.integers(0, 2**16),
)
def test_lattice_recovers_every_cell_under_perspective(rows, cols, turn, skew, seed):
    rng = np.random.default_rng(seed)
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    homography = np.array([[60 * c, -60 * s, 400], [60 * s, 60 * c, 400], [skew / 10, 0.0, 1]])
    grid = np.array([[x, y] for y in range(rows) for x in range(cols)], float)
    points = cv2.perspectiveTransform(grid[None], homography)[0] + rng.normal(0, 1.5, grid.shape)
    order = rng.permutation(len(points))
    lattice = fit_lattice(points[order], 60)
    found = [lattice.cells[i] for i in range(len(order))]
    assert all(cell is not None for cell in found)
    # Cells are named as the image shows them; the same neighbours must stay neighbours.
    truth = {tuple(grid[order[i]].astype(int)): found[i] for i in range(len(order))}
    for (x, y), cell in truth.items():
        if (x + 1, y) in truth:
            other = truth[(x + 1, y)]
            assert abs(other[0] - cell[0]) + abs(other[1] - cell[1]) == 1
    assert {lattice.rows, lattice.cols} == {rows, cols} or rows == 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 9), min_size=5, max_size=5), min_size=1, max_size=5))
def test_hungarian_finds_the_cheapest_assignment(cost):
    columns = hungarian(cost)
    assert len(set(columns)) == len(cost)
    best = min(
        sum(cost[r][c] for r, c in enumerate(perm))
        for perm in itertools.permutations(range(5), len(cost))
    )
    assert sum(cost[r][c] for r, c in enumerate(columns)) == best


def test_a_second_qu_is_read_as_its_next_best_face():
    cubes = CubeSet.load("boggle-1987")
    readings = [{"Qu": 0.9, "O": 0.1}, {"Qu": 0.6, "O": 0.4}] + [{"E": 1.0}] * 14
    faces = [a.face for a in assign_faces(readings, cubes).faces]
    assert faces[:2] == ["Qu", "O"]
    assert faces.count("Qu") == 1


def test_a_file_that_is_not_a_photo_is_refused(tmp_path):
    path = tmp_path / "notes.jpg"
    path.write_text("not a photo")
    with pytest.raises(NotAnImage, match=r"not a photo.*\.$"):
        load_image(path)
    assert main(["read", str(path), "--game", "boggle"]) == 2


def test_exif_orientation_is_honoured(tmp_path):
    pil = pytest.importorskip("PIL.Image")
    array = np.zeros((40, 80, 3), np.uint8)
    array[:, :40] = 255
    image = pil.fromarray(array)
    exif = image.getexif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to view
    path = tmp_path / "side.jpg"
    image.save(path, exif=exif)
    loaded = load_image(path)
    assert loaded.shape[:2] == (80, 40)
    assert loaded[:40].mean() > 200  # the white half now lies on top


def test_an_empty_table_has_no_cubes():
    table = np.full((480, 640, 3), (60, 90, 140), np.uint8)
    table += np.random.default_rng(1).integers(0, 6, table.shape, dtype=np.uint8)
    with pytest.raises(NoCubesFound, match=r"\.$"):
        read(table, find_game("boggle"), classifier=object())


@given(turn=st.floats(-180, 180), lone=st.integers(0, 3), seed=st.integers(0, 2**16))
def test_a_row_of_one_cube_between_two_words_keeps_its_row(turn, lone, seed):
    # SLEW over ELSE, joined by one E: across a row the nearest cube is mostly two rows away.
    rng = np.random.default_rng(seed)
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    grid = np.array([[x, y] for y in (0, 2) for x in range(4)] + [[lone, 1]], float)
    points = grid @ (60 * np.array([[c, s], [-s, c]])) + 400 + rng.normal(0, 1.5, grid.shape)
    lattice = fit_lattice(points, 58)
    assert all(cell is not None for cell in lattice.cells)
    assert sorted((lattice.rows, lattice.cols)) == [3, 4]


def test_wrong_game_cut_off_tray_and_blur_are_refused():
    scene = render_tray(2024, 4)
    with pytest.raises(WrongGame, match="4x4"):
        read(scene.image, find_game("big-boggle"), classifier=object())
    # Sharpness is judged on what the model takes for faces, so the blur is read by it.
    blurred = cv2.GaussianBlur(scene.image, (0, 0), 6)
    with pytest.raises((TooBlurred, NoCubesFound)):
        read(blurred, find_game("boggle"))
    corners = np.array([c.corners for c in scene.cubes]).reshape(-1, 2)
    cut = int(corners[:, 0].min() + np.ptp(corners[:, 0]) * 0.45)
    with pytest.raises((TrayCutOff, NoCubesFound)):
        read(np.ascontiguousarray(scene.image[:, cut:]), find_game("boggle"), classifier=object())


def test_a_tray_too_small_to_read_says_so_not_that_it_is_blurred():
    scene = render_tray(2024, 4)
    readable = cv2.resize(scene.image, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    board = read(readable, find_game("boggle")).board
    assert board == Board(tuple(tuple(map(Face, row)) for row in scene.board))
    # Cubes 13 pixels wide, soft as they are, whose faces the model reads surely, are read;
    # at 7 it cannot, and the sentence says they are too small, not that it is blurred.
    small = cv2.resize(scene.image, None, fx=0.2, fy=0.2, interpolation=cv2.INTER_AREA)
    assert read(small, find_game("boggle")).board == board
    tiny = cv2.resize(scene.image, None, fx=0.11, fy=0.11, interpolation=cv2.INTER_AREA)
    with pytest.raises(TooSmall, match=r"^The cubes are only about \d+ pixels wide .* again\.$"):
        read(tiny, find_game("boggle"))


def test_scenes_are_deterministic():
    a = render_scene("crossword", 7)
    b = render_scene("crossword", 7)
    assert np.array_equal(a.image, b.image) and a.grid == b.grid


@pytest.mark.slow
def test_geometry_on_held_out_scenes():
    tally = evaluate(6, geometry=True, first_seed=20_000_000)
    assert tally.trays_found == tally.trays
    assert tally.cells_right == tally.cells


def _shared() -> Path:
    return Path(__file__).resolve().parents[1] / ".." / "shared"


def test_reader_finds_the_real_tray_grid():
    photo = _shared() / "photos" / "dev" / "kristianhentschel-boogle-boogle-1-original.jpg"
    if not photo.exists():
        pytest.skip("../shared/photos/dev is absent")
    from vision.detect import find_faces

    quads = find_faces(load_image(photo))
    lattice = fit_lattice(np.array([q.center for q in quads]), np.median([q.side for q in quads]))
    assert (lattice.rows, lattice.cols) == (4, 4)


@pytest.mark.slow
def test_reader_with_the_model_on_held_out_scenes():
    """The evaluation command's figures at a small size (the full run: 200 scenes)."""
    from importlib.resources import files

    if not Path(str(files("models") / "cube_faces.onnx")).is_file():
        pytest.skip("the face model is not built yet")
    tally = evaluate(6, first_seed=30_000_000)
    assert tally.trays_found == tally.trays
    assert tally.cells_right >= 0.95 * tally.cells
    assert tally.loose_right >= 0.95 * tally.loose_cubes
    assert tally.crosswords_right >= 1


def test_upright_turns_the_board_against_the_letters():
    from engine.faces import Face
    from vision.reading import FaceReading
    from vision.tray import upright_turn

    def face(symbol: str, orientation: int) -> FaceReading:
        return FaceReading(Face(symbol), 0.0, 0.0, 1.0, orientation, ((0, 0),) * 4)

    # Letters turned a quarter clockwise stand up when the board turns a quarter back.
    faces = [face("A", 90), face("B", 90), face("C", 0), face("*", 180)]
    assert upright_turn(faces) == 270
    assert upright_turn([face("A", 0)]) == 0


def test_the_finder_stops_at_the_first_cut_it_is_told_to_accept():
    from vision.detect import find_faces

    image = render_tray(5, 4, frame=(1024, 768)).image
    seen: list[int] = []

    def accept(quads):
        seen.append(len(quads))
        return len(quads) >= 12

    quads = find_faces(image, accept)
    assert seen and seen[-1] == len(quads) >= 12
    assert len(seen) < 5  # the six cuts were not all tried
    every = find_faces(image)
    assert len(every) >= len(quads)


def test_a_row_end_face_found_small_still_joins_the_crossword():
    from vision.crossword import touching_group
    from vision.detect import FaceQuad

    def face(x: float, side: float) -> FaceQuad:
        corners = np.array([[x - 28, 72], [x + 28, 72], [x + 28, 128], [x - 28, 128]], float)
        return FaceQuad(corners, (x, 100.0), side, 0.0)

    # Steps of 74 px between faces found 56 px wide (1.32 sides), along their edges.
    row = [face(100 + 74 * k, 56) for k in range(4)]
    assert touching_group(row) == [0, 1, 2, 3]
    # The same gap on the diagonal is not touching.
    diagonal = [
        FaceQuad(q.corners + 52 * k, (q.center[0] + 52 * k - 74 * k, 100 + 52 * k), 56, 0.0)
        for k, q in enumerate(row)
    ]
    assert touching_group(diagonal) == []


def test_one_cube_found_twice_is_kept_once_as_its_surest_reading():
    """Two cuts may find one cube twice (its top, and its top with a side): they are one cube."""
    from vision.detect import FaceQuad
    from vision.loose import one_per_cube
    from vision.prediction import FacePrediction

    def quad(x: float, y: float, side: float) -> FaceQuad:
        h = side / 2
        corners = np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]])
        return FaceQuad(corners, (x, y), side, 0.0)

    def read_as(face: str | None, confidence: float) -> FacePrediction:
        return FacePrediction(face, 0, confidence, 1.0, (), ())

    quads = [quad(100, 100, 97), quad(101, 104, 62), quad(170, 100, 62), quad(300, 300, 62)]
    reads = [read_as("M", 0.8), read_as("N", 1.0), read_as("E", 0.6), read_as(None, 0.99)]
    assert one_per_cube(quads, reads) == [1, 2, 3]  # the sure N, and the cubes apart
    # A find read as "not a face" never beats one read as a face.
    assert one_per_cube(quads[:2], [read_as("M", 0.4), read_as(None, 0.99)]) == [0]
    # A find under half as wide as a detector's find it lies in is a piece of that cube (the
    # value in its corner, a stroke of its letter): the cube is the detector's, even where
    # the model takes the piece for a face and the whole for none.
    whole = replace(quad(100, 100, 60), learned=True)
    corner, stroke = quad(118, 82, 14), quad(96, 104, 9)
    reads = [read_as(None, 0.7), read_as("O", 0.3), read_as("I", 0.5)]
    assert one_per_cube([whole, corner, stroke], reads) == [0]
    # ... a cut's find of the same size is no detector's: the face read in it is kept.
    assert one_per_cube([quad(100, 100, 60), corner], reads[:2]) == [1]


def _one_face_a_die(cubes: CubeSet, chosen: dict[str, str]) -> list[dict[str, float]]:
    """A sure reading of one face of every die: ``chosen`` names it for the dice whose
    faces (as text) are its keys, the first face elsewhere."""
    readings = []
    for die in cubes.dice:
        faces = " ".join(str(f) for f in die.faces)
        readings.append({chosen.get(faces, str(die.faces[0])): 1.0})
    return readings


def test_a_sure_face_stands_against_the_set_and_a_doubtful_one_gives_way():
    cubes = CubeSet.load("big-boggle-1979")  # K and Z share one die, B J K Qu X Z
    readings = _one_face_a_die(cubes, {"B J K Qu X Z": "K", "A E E E E M": "M"})
    at = readings.index({"M": 1.0})
    sure = [{"Z": 0.9995, "M": 0.0005} if k == at else r for k, r in enumerate(readings)]
    chosen = assign_faces(sure, cubes).faces
    k = readings.index({"K": 1.0})
    # Both stand; one of them (no matter which) on a die the set does not know, flagged.
    assert (chosen[at].face, chosen[k].face) == ("Z", "K")
    assert chosen[at].probability > 0.99
    assert [a.off_set for a in chosen].count(True) == 1 and (
        chosen[at].off_set or chosen[k].off_set
    )
    doubtful = [{"Z": 0.55, "M": 0.45} if k == at else r for k, r in enumerate(readings)]
    chosen = assign_faces(doubtful, cubes).faces
    assert chosen[at].face == "M" and not any(a.off_set for a in chosen)


def test_a_face_of_another_game_never_stands_against_the_set():
    from vision.assign import best_edition

    cubes = CubeSet.load("super-big-boggle-2011")
    readings = _one_face_a_die(cubes, {"E I O # # #": "#"})
    at = readings.index({"#": 1.0})
    readings[at] = {"*": 1.0}  # a blank printed as a square, which the model reads as a joker
    chosen = best_edition(readings, [cubes]).faces
    assert chosen[at].face == "#" and not chosen[at].off_set


def test_the_edition_that_explains_the_faces_is_chosen():
    from vision.assign import best_edition

    game = find_game("big-boggle")
    sets = [game.cube_set(name) for name, _ in game.dice]
    master = CubeSet.load("boggle-master-1993")
    # Master/Deluxe has a W beside C C N S T and an H beside I P R R Y: 1979 has neither.
    readings = _one_face_a_die(master, {"C C N S T W": "W", "H I P R R Y": "H"})
    chosen = best_edition(readings, sets)
    assert chosen.cube_set.name == "boggle-master-1993"
    assert not any(a.off_set for a in chosen.faces)
    # Faces every edition can show keep the default.
    plain = best_edition(_one_face_a_die(CubeSet.load("big-boggle-1979"), {}), sets)
    assert plain.cube_set.name == "big-boggle-1979"


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_a_crossword_lying_turned_is_read_the_right_way_up(turns):
    from engine.lexicon import Lexicon
    from models.evaluate_reader import SceneGame
    from models.scenes import render_crossword

    lexicon = Lexicon.open("en")
    grid = ("S....", "T.B.J", "E.U.O", "MONEY")  # README's crossword; the Q left unused
    scene = render_crossword(31_000_004, layout=(grid, ("Q",)))
    photo = np.ascontiguousarray(np.rot90(scene.image, -turns))  # turned clockwise
    reading = read(photo, SceneGame("adlib", 0), is_word=lexicon.__contains__)
    assert reading.grid == grid
    assert reading.turned == (4 - turns) % 4 * 90
    assert any("right way up" in w for w in reading.warnings) == (turns != 0)


@pytest.mark.parametrize("degrees", [28, 38, 44, 46, 52, 136, 224, 316])
def test_a_crossword_lying_near_45_degrees_is_read_the_right_way_up(degrees):
    # Near 45 degrees a face's own frame and the crossword's columns may be chosen a
    # quarter apart; the letters' turns must still be compared in one frame.
    from models.scenes import render_crossword

    grid = ("MILK", "A...", "LAIR", "E...")
    scene = render_crossword(4, frame=(1024, 768), layout=(grid, []))
    turn = cv2.getRotationMatrix2D((512, 384), degrees, 1.0)
    photo = cv2.warpAffine(scene.image, turn, (1024, 768), borderMode=cv2.BORDER_REFLECT)
    assert read(photo, find_game("adlib")).grid == grid


@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_a_crossword_at_45_degrees_with_a_joker_is_read_whole(seed):
    """The README's crossword with a joker for the J of JOY, its cubes touching, the table
    turned 45 degrees each way: every cube in its cell, the joker found like any other."""
    from models.scenes import render_crossword

    grid = ("S....", "T.B.*", "E.U.O", "MONEY")
    scene = render_crossword(seed, frame=(1024, 768), layout=(grid, ["Q"]))
    table = tuple(float(v) for v in np.median(scene.image.reshape(-1, 3), axis=0))
    for degrees in (45, 135, 225, 315):
        turn = cv2.getRotationMatrix2D((512, 384), degrees, 1.0)
        photo = cv2.warpAffine(
            scene.image, turn, (1024, 768), borderMode=cv2.BORDER_CONSTANT, borderValue=table
        )
        reading = read(photo, find_game("adlib"))
        assert reading.grid == grid, degrees
        assert reading.pieces == (12,)


def test_faces_that_touch_off_any_lattice_are_no_crossword():
    # A damaged photo: one large find touching two small ones, no two of them a step apart.
    from vision.crossword import crossword_cells, gaps
    from vision.detect import FaceQuad

    def square(x: float, y: float, side: float) -> FaceQuad:
        h = side / 2
        corners = np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]])
        return FaceQuad(corners, (x, y), side, 0.0)

    quads = [square(0, 0, 100), square(60, 0, 10), square(0, 60, 10)]
    assert crossword_cells(quads) == ([None, None, None], [0, 0, 0])
    assert gaps(quads) == []
