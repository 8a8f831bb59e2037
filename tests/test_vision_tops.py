"""The cube-top detector: its encoding of a face, and the committed model on held-out scenes."""

from __future__ import annotations

import math
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.scenes import Scene, render_scene
from models.tabletop.kinds import LAYOUTS, Arrange, Layout
from vision.detect import FaceQuad, ordered
from vision.reading import LooseReading, TrayReading
from vision.topshape import TopShape, decode, encode

MODEL = Path(str(files("models") / "cube_tops.onnx"))
needs_model = pytest.mark.skipif(not MODEL.is_file(), reason="the top detector is not built yet")


def _same_corners(a: np.ndarray, b: np.ndarray, tolerance: float) -> bool:
    """Whether two quadrilaterals have the same corners, numbered from any of them."""
    return any(np.abs(np.roll(a, k, axis=0) - b).max() < tolerance for k in range(4))


@settings(max_examples=200, deadline=None)
@given(
    cx=st.floats(-50, 500),
    cy=st.floats(-50, 500),
    half=st.floats(2, 80),
    u=st.floats(-0.6, 0.6),
    v=st.floats(-0.6, 0.6),
    turn=st.floats(-math.pi, math.pi),
    start=st.integers(0, 3),
)
def test_a_face_decodes_to_its_own_corners_from_whichever_corner_it_is_numbered(
    cx, cy, half, u, v, turn, start
):
    corners = decode(TopShape(cx, cy, half, u, v, turn))
    shape = encode(np.roll(corners, start, axis=0))
    assert math.isclose(shape.half, half, rel_tol=1e-6)
    assert _same_corners(decode(shape), corners, 1e-6 * (1 + half + abs(cx) + abs(cy)))
    # The turn is known only modulo a quarter, so what is learned is four times it.
    assert math.isclose(math.cos(4 * shape.turn), math.cos(4 * turn), abs_tol=1e-6)


def test_a_trapezoid_is_read_as_the_parallelogram_that_fits_it_best():
    # A face seen at a slant: its far edge shorter than its near one.
    trapezoid = np.array([[12.0, 10], [28, 10], [30, 30], [10, 30]])
    fitted = decode(encode(trapezoid))
    assert np.allclose(fitted.mean(0), trapezoid.mean(0))
    assert np.abs(ordered(fitted) - trapezoid).max() < 1.5


@needs_model
def test_the_detector_finds_the_tops_of_held_out_scenes():
    from vision.tops import TopDetector

    detector = TopDetector.load()
    found = total = false = 0
    for k, kind in enumerate(("tray", "loose", "crossword")):
        scene = render_scene(kind, 50_000_000 + k)
        quads = detector.find(scene.image)
        centres = np.array([cube.center for cube in scene.cubes])
        sides = np.array(
            [np.linalg.norm(np.subtract(c.corners[1], c.corners[0])) for c in scene.cubes]
        )
        hit = set()
        for quad in quads:
            distance = np.linalg.norm(centres - np.array(quad.center), axis=1) / sides
            j = int(np.argmin(distance))
            if distance[j] < 1 / 3:
                hit.add(j)
            else:
                false += 1
        found += len(hit)
        total += len(scene.cubes)
    assert found >= 0.95 * total
    assert false <= 0.05 * total


def test_every_model_file_is_small():
    """Both models ship in the repository and load on a Pi: under 2 MB each."""
    models = sorted(Path(str(files("models"))).glob("*.onnx"))
    assert {m.name for m in models} >= {"cube_faces.onnx", "cube_tops.onnx"}
    assert all(m.stat().st_size < 2_000_000 for m in models)


def test_a_missing_or_corrupt_detector_is_a_machine_error(tmp_path):
    import shutil

    from engine.errors import MachineError
    from vision.tops import TopDetector

    with pytest.raises(MachineError, match=r"missing.*make model`\.$"):
        TopDetector.load(tmp_path / "cube_tops.onnx")
    copy = tmp_path / "cube_tops.onnx"
    shutil.copy(MODEL, copy)
    shutil.copy(MODEL.with_suffix(".json"), copy.with_suffix(".json"))
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    with pytest.raises(MachineError, match=r"corrupt.*make model`\.$"):
        TopDetector.load(copy)


def test_a_face_reaching_past_the_frame_is_cut_without_failing():
    from vision.crop import cut_face

    image = np.full((100, 120, 3), 200, np.uint8)
    outside = np.array([[300.0, 300], [600, 300], [600, 600], [300, 600]])
    assert cut_face(image, outside).shape == (64, 64, 3)
    astride = np.array([[-200.0, -200], [90, -200], [90, 90], [-200, 90]])
    assert cut_face(image, astride).shape == (64, 64, 3)


def _square(x: float, y: float, side: float, learned: bool = True) -> FaceQuad:
    h = side / 2
    corners = np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]])
    return FaceQuad(corners, (x, y), side, 0.0, learned=learned)


def test_a_top_seen_whole_from_farther_stands_for_the_part_seen_near():
    from vision.tops import _wholer

    part, apart = _square(100, 100, 60), _square(400, 100, 60)
    pair = [_square(700, 100, 60), _square(762, 100, 60)]
    whole = _square(104, 96, 120)
    both = _square(731, 100, 124)  # two touching cubes seen as one from afar
    kept = _wholer([part, apart, *pair], [whole, _square(400, 100, 62), both])
    assert kept == [whole, apart, *pair]


def test_the_value_in_a_large_tops_corner_goes_with_the_top_seen_whole():
    """Near, a large top comes out as its middle and the value in its corner; from farther,
    whole: the whole stands for both, but never for two cubes of a size side by side."""
    from vision.tops import _wholer

    middle, value = _square(100, 100, 140), _square(170, 170, 40)
    whole = _square(110, 110, 230)
    assert _wholer([middle, value], [whole]) == [whole]
    pair = [_square(500, 100, 90), _square(592, 100, 90)]
    assert _wholer(pair, [_square(546, 100, 230)]) == pair


def test_a_large_top_seen_whole_from_farther_stands_for_its_halves():
    """Near, a top a fifth of the frame wide may come out as two halves; from farther, where
    the detector sees it whole surely, the whole stands for both. A whole seen less surely
    never stands for two finds of a size."""
    from vision.tops import _wholer

    halves = [_square(300, 100, 100), _square(300, 168, 110)]
    whole = _square(300, 134, 170)
    assert _wholer(halves, [whole], sure=150) == [whole]
    assert _wholer(halves, [whole]) == halves
    assert _wholer(halves, [_square(300, 134, 120)], sure=150) == halves  # no larger


@needs_model
def test_a_sharp_face_is_not_judged_by_pieces_of_it():
    """A large top read surely, in a soft photo, with two strokes of its letter proposed as
    faces of their own (read as faces, doubtfully): the photo is read, not refused as one
    of cubes too small to read (the pieces were counted as faces to judge it by)."""
    from models.tabletop import render
    from vision import models
    from vision.steps import ModelLook

    scene = render(
        "single", 64_000_014, split="val", frame=(1024, 768), arrange=_one_cube((0.12, 0.2), 45.0)
    )
    top = np.array(scene.cubes[0].corners, np.float64)
    x, y = scene.cubes[0].center
    strokes = [_square(x - 19, y + 8, 21).corners, _square(x + 17, y - 10, 21).corners]
    look = ModelLook(models.face_model())
    read = look(scene.image, [top, *strokes])
    assert read[0].is_face and str(read[0].face) == scene.cubes[0].face


def _one_cube(coverage: tuple[float, float], view: float | None = None) -> Arrange:
    """A single throw of one cube, no hand, framed to ``coverage`` (and a camera ``view``
    degrees off the vertical, where given)."""

    def arrange(rng: np.random.Generator, split: str, seed: int) -> Layout:
        layout = LAYOUTS["single"](rng, split, seed)
        layout.spots, layout.coverage, layout.hands = layout.spots[:1], coverage, 0.0
        layout.view = view if view is not None else layout.view
        return layout

    return arrange


Read = tuple[Scene, LooseReading | TrayReading | None]


def _readings(
    first_seed: int, count: int, arrange: Arrange, frame: tuple[int, int] = (1024, 768)
) -> Iterator[Read]:
    """Each scene of ``count`` single throws laid out by ``arrange`` in a photo of ``frame``
    pixels, with its reading (None where the reader refused it)."""
    from models.evaluate_reader import scene_game
    from models.tabletop import render
    from vision.errors import ReadError
    from vision.reader import read

    for k in range(count):
        scene = render("single", first_seed + k, split="val", frame=frame, arrange=arrange)
        try:
            yield scene, read(scene.image, scene_game(scene))
        except ReadError:
            yield scene, None


@needs_model
def test_a_cube_that_fills_much_of_the_frame_is_read():
    """One cube thrown to see who starts, photographed from close by (150 to 270 pixels wide
    in 1024x768): its top is read once, as its face."""
    right = sum(
        reading is not None and [str(f.face) for f in reading.faces] == [scene.cubes[0].face]
        for scene, reading in _readings(61_000_000, 24, _one_cube((0.25, 0.35)))
    )
    assert right >= 18  # 16 before the detector looked again from farther; 20 now


@needs_model
def test_a_cube_that_fills_half_a_large_photo_is_read():
    """One cube filling half the width of a 2048x1536 photo (the detector splits it in two
    near, and sees it whole from farther): its top is read once, as its face."""
    right = sum(
        reading is not None and [str(f.face) for f in reading.faces] == [scene.cubes[0].face]
        for scene, reading in _readings(61_500_000, 16, _one_cube((0.45, 0.6)), (2048, 1536))
    )
    assert right >= 14  # 11 when the halves stood for the cube; 15 now


@needs_model
def test_a_cube_at_a_slant_is_read_once_by_its_top():
    """One cube seen from 45 degrees off the vertical (a side shows as large as the top),
    letters on its sides as on its top: the top is read, once, and no side as a second cube
    (11 of these 12 while a side below its top, as large as it, was read too; 12 now)."""
    from models.evaluate_reader import _read_once

    right = sum(
        reading is not None and len(reading.faces) == 1 and _read_once(scene.cubes[0], reading)
        for scene, reading in _readings(62_000_000, 12, _one_cube((0.12, 0.2), view=45.0))
    )
    assert right >= 9


@needs_model
def test_a_cube_seen_from_low_down_gives_one_face_its_top():
    """One cube seen from 55 degrees off the vertical, as a phone held low sees it (a side
    shows larger than the top): no side is read as a second cube (2 of these 24 were
    before a find lying against another, below it, gave way: X and Y, E and E), and 20
    are read once, as their top (18 before)."""
    from models.evaluate_reader import _on_top, _read_once

    right = sides = 0
    for scene, reading in _readings(62_100_000, 24, _one_cube((0.12, 0.2), view=55.0)):
        cube = scene.cubes[0]
        faces = reading.faces if reading is not None else ()
        beside = [f for f in faces if _on_top(f.x, f.y, cube, 1.5) and not _on_top(f.x, f.y, cube)]
        sides += bool(beside)
        right += reading is not None and len(faces) == 1 and _read_once(cube, reading)
    assert sides == 0
    assert right >= 19


@needs_model
def test_a_word_written_beside_a_large_cube_is_not_read_as_cubes():
    """A score written on the photo beside one large cube (letters a seventh of its size):
    no face is read off the cube (2 of these 12 scenes read a letter of it as a cube before
    finds far smaller than the faces read surely were dropped)."""
    import cv2

    from models.evaluate_reader import scene_game
    from models.tabletop import render
    from vision.errors import ReadError
    from vision.reader import read

    strays = 0
    for k in range(12):
        scene = render(
            "single",
            63_000_000 + k,
            split="val",
            frame=(1024, 768),
            arrange=_one_cube((0.25, 0.35)),
        )
        image = np.ascontiguousarray(scene.image)
        x, y = scene.cubes[0].center
        corner = (40, 60) if y > 384 else (40, 700)  # the half of the frame the cube is not in
        cv2.putText(image, "BEST", corner, cv2.FONT_HERSHEY_SIMPLEX, 1.6, (40, 40, 40), 4)
        try:
            faces = read(image, scene_game(scene)).faces
        except ReadError:
            continue
        strays += sum(np.hypot(f.x - x, f.y - y) > 150 for f in faces)
    assert strays == 0


def test_a_small_cube_stands_out_from_a_grainy_table():
    """A pale square 40 pixels wide on a 12 MP table of grain and noise: the strongest spot
    that stands out from its neighbourhood is the square's, and the grain's ripples are
    weaker by far."""
    from vision.standout import standing_out

    rng = np.random.default_rng(5)
    rows = np.sin(np.arange(3000) / 9.0)[:, None, None] * 12
    table = np.clip(110 + rows + rng.normal(0, 8, (3000, 4000, 3)), 0, 255).astype(np.uint8)
    table[2100:2140, 3000:3040] = (215, 225, 230)
    spots = standing_out(table, 6)
    assert spots and np.hypot(spots[0][0] - 3020, spots[0][1] - 2120) < 20
    assert len(spots) == 1  # nothing else stands out a quarter as much


@pytest.fixture
def sharp_12_mp(monkeypatch):
    """Scenes framed so that a cube's top is 40-60 pixels wide in a 4000x3000 photo (1-1.5 %
    of its width: the renderer keeps tops to 2.5 % or more) and as sharp as a phone's 12 MP
    photo (a blur of a pixel or two; the renderer's grows with the frame, and at 4000 wide
    it would wipe the letters of such small cubes out)."""
    from models.tabletop import photo, scene

    blur = photo.blur
    monkeypatch.setattr(scene, "CUBE_WIDTH", (40 / 4000, 60 / 4000))
    monkeypatch.setattr(photo, "blur", lambda image, rng, scale: blur(image, rng, 1.0))


@needs_model
@pytest.mark.slow
def test_a_small_cube_far_away_in_a_12_mp_photo_is_read(sharp_12_mp):
    """One cube thrown to see who starts, 40-60 pixels wide in a 12 MP photo (4-6 pixels of
    the detector's input): where the detector's look at the whole photo finds nothing, it
    looks closer at what stands out from the table, and the cube is read once, as its face
    (2 of these 8 before the closer look; 6 now)."""
    right = sum(
        reading is not None and [str(f.face) for f in reading.faces] == [scene.cubes[0].face]
        for scene, reading in _readings(65_000_000, 8, _one_cube((0.012, 0.02)), (4000, 3000))
    )
    assert right >= 5


@pytest.fixture
def close_ups(monkeypatch):
    """Scenes framed as a phone takes a close-up: the renderer keeps tops to a quarter of the
    photo's width at most; here they may fill it."""
    from models.tabletop import scene

    monkeypatch.setattr(scene, "CUBE_WIDTH", (0.025, 0.95))


@needs_model
def test_a_close_up_of_one_cube_is_read_as_that_cube(close_ups):
    """One cube filling 60-90 % of the frame (its top 300-600 pixels wide in 1024x768): the
    detector sees parts of it near, and the whole from much farther; the top is read once, as
    its face (8 of these 16 before the look from much farther; 11 now)."""
    right = sum(
        reading is not None and [str(f.face) for f in reading.faces] == [scene.cubes[0].face]
        for scene, reading in _readings(66_000_000, 16, _one_cube((0.6, 0.9)))
    )
    assert right >= 10


@needs_model
def test_a_throw_whose_cube_is_read_surely_is_not_refused_as_blurred():
    """Single throws as the own tables render them (1-4 cubes, hands, soft and sharp): none is
    refused as too blurred or too small while the model reads a cube in view surely as its
    face, save where as many of the faces kept are soft and doubtful as not and none is both
    sharp and sure (2 of these 24 were refused, an A read surely among them, while the photo
    was judged on the median of every find the model took for a face: soft specks of table,
    pieces of a hidden cube; 1 now: four small soft cubes, Z and U read surely, B and P not)."""
    from models.evaluate_reader import VISIBLE, _on_top, scene_game
    from models.tabletop import render
    from vision import models
    from vision.errors import ReadError, TooBlurred, TooSmall
    from vision.find import find_tops
    from vision.reader import read
    from vision.steps import SURE, ModelLook

    refused = []
    for seed in range(69_000_000, 69_000_024):
        scene = render("single", seed, split="val", frame=(1024, 768))
        try:
            read(scene.image, scene_game(scene))
            continue
        except (TooBlurred, TooSmall):
            pass
        except ReadError:  # no cube found, say: not what this counts
            continue
        quads = find_tops(scene.image)
        looks = ModelLook(models.face_model())(scene.image, [q.corners for q in quads], False)
        if any(
            str(p.face) == cube.face and p.confidence >= SURE and _on_top(*q.center, cube)
            for cube in scene.cubes
            if cube.visible >= VISIBLE
            for q, p in zip(quads, looks, strict=True)
        ):
            refused.append(seed)
    assert len(refused) <= 1


@pytest.fixture
def cubes_60_to_80_in_1600(monkeypatch):
    """Single throws framed so that a cube's top is 60-80 pixels wide in 1600x1200 (15-19
    pixels of the detector's look at the whole photo)."""
    from models.tabletop import scene

    monkeypatch.setattr(scene, "CUBE_WIDTH", (60 / 1600, 80 / 1600))


@needs_model
def test_a_clear_cube_found_too_small_or_too_large_is_looked_at_again(cubes_60_to_80_in_1600):
    """One cube 60-80 pixels wide in a 1600x1200 photo, which the detector's look at the whole
    photo finds half its size (the middle of its top) or, a box drawn round it, twice it, so
    that its crop reads as no face: each find is looked at again, closer and smaller, and the
    cube is read (3 of these 24 were refused, "no cube faces were found", and 17 read right;
    none refused and 20 right now)."""

    right = refused = 0
    for scene, reading in _readings(67_200_000, 24, _one_cube((0.01, 0.05)), (1600, 1200)):
        right += reading is not None and [str(f.face) for f in reading.faces] == [
            scene.cubes[0].face
        ]
        refused += reading is None
    assert refused == 0
    assert right >= 19
