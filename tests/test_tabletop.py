"""The 3D tabletop renderer: its truth lands on what it paints, the same every time, and its
splits keep apart what training must never see."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.render import fonts
from models.tabletop import KINDS, SPLITS, backgrounds, looks, overlays, render
from models.tabletop.__main__ import main
from models.tabletop.camera import look_at
from models.tabletop.photo import Lens
from models.tabletop.raster import OCCLUDER
from models.tabletop.scene import compose
from models.tabletop.stage import SIDE, turned

SMALL = (320, 240)


@pytest.mark.parametrize("kind", KINDS)
def test_a_scene_is_the_same_for_the_same_kind_seed_and_split(kind: str) -> None:
    a, b = render(kind, 11, frame=SMALL), render(kind, 11, frame=SMALL)
    assert a.image.shape == (240, 320, 3) and a.image.dtype == np.uint8
    np.testing.assert_array_equal(a.image, b.image)
    assert a.cubes == b.cubes and a.board == b.board and a.grid == b.grid
    other = render(kind, 11, split="val", frame=SMALL)
    assert not np.array_equal(a.image, other.image)


def _polygon_mask(shape: tuple[int, ...], corners: np.ndarray) -> np.ndarray:
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(corners * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    return mask.astype(bool)


@pytest.mark.parametrize("kind", ["tray", "loose", "crossword", "single"])
def test_every_top_quad_covers_the_pixels_its_cube_painted(kind: str) -> None:
    """In the drawn view, the pixels showing cube k's top lie inside its true quad and fill
    it as far as its visible share says."""
    checked = 0
    for seed in range(3):
        shot = compose(kind, seed, "train", SMALL)
        ids = shot.canvas.ids
        for k, cube in enumerate(shot.stage.cubes):
            uv, _ = shot.camera.project(turned(cube.box.top(), cube.spot.turn).corners)
            painted = ids == k
            if painted.sum() < 30:
                continue
            grown = uv.mean(0) + (uv - uv.mean(0)) * 1.08 + np.sign(uv - uv.mean(0))
            inside = _polygon_mask(ids.shape, grown)
            assert (painted & ~inside).sum() <= 0.02 * painted.sum()
            checked += 1
    assert checked >= 3


def test_sides_in_view_are_where_their_pixels_are() -> None:
    """Each side the truth lists shows its own pixels inside its quad, in the share it
    says; sides pressed against a neighbour show next to nothing."""
    seen = hidden = 0
    for seed in range(4):
        shot = compose("loose", seed, "train", SMALL)
        scene = render("loose", seed, frame=SMALL)
        ids = shot.canvas.ids
        for k, (cube, placed) in enumerate(zip(shot.stage.cubes, scene.cubes, strict=True)):
            facing = [
                (j, side)
                for j, side in enumerate(cube.box.sides())
                if side.facing(shot.camera.position)
            ]
            assert [cube.spot.sides[j] for j, _ in facing] == [s.face for s in placed.sides]
            for (j, side), truth in zip(facing, placed.sides, strict=True):
                painted = ids == SIDE + 4 * k + j
                uv, _ = shot.camera.project(side.corners)
                area = abs(cv2.contourArea(uv.astype(np.float32)))
                if area > 40:  # not seen edge on
                    near = cv2.dilate(
                        _polygon_mask(ids.shape, uv).astype(np.uint8), np.ones((5, 5))
                    )
                    outside = painted & ~near.astype(bool)
                    assert outside.sum() <= 3 + 0.03 * painted.sum()
                    assert abs(truth.visible - min(1, painted.sum() / area)) < 0.2
                seen += truth.visible > 0.6
                hidden += truth.visible < 0.05
    assert seen >= 10 and hidden >= 1


def test_true_corners_follow_the_tops_through_lens_and_squash() -> None:
    """Where the photo bows or was squashed, each top's painted pixels, carried into the
    photo as the image is, still lie within its true corners."""
    bent = 0
    for seed in range(40):
        shot = compose("tray", seed, "train", SMALL)
        if shot.lens.plain:
            continue
        scene = render("tray", seed, frame=SMALL)
        ids = shot.lens.apply(shot.canvas.ids.astype(np.float32), nearest=True)
        for k, cube in enumerate(scene.cubes):
            painted = np.abs(ids - k) < 0.01
            if painted.sum() < 30:
                continue
            corners = np.array(cube.corners)
            centre = corners.mean(0)
            inside = _polygon_mask(
                ids.shape, centre + (corners - centre) * 1.08 + np.sign(corners - centre)
            )
            assert (painted & ~inside).sum() <= 0.03 * painted.sum()
        bent += 1
        if bent == 4:
            break
    assert bent == 4


def test_tray_rows_and_columns_are_as_the_image_shows_them() -> None:
    for seed in range(6):
        scene = render("tray", seed, frame=SMALL)
        assert scene.board is not None
        size = len(scene.board)
        assert size == (4, 5, 6)[seed % 3] and len(scene.cubes) == size * size
        for cube in scene.cubes:
            assert cube.cell is not None and scene.board[cube.cell[0]][cube.cell[1]] == cube.face
        if scene.ambiguous_axes:
            continue
        centres = {cube.cell: cube.center for cube in scene.cubes}
        rows = [np.mean([centres[(r, c)][1] for c in range(size)]) for r in range(size)]
        cols = [np.mean([centres[(r, c)][0] for r in range(size)]) for c in range(size)]
        assert rows == sorted(rows) and cols == sorted(cols)


def test_a_crossword_says_which_way_it_is_turned() -> None:
    """Letters laid upright in the crossword read, in the image, within 45 degrees (and a
    little jitter) of the turn ``grid_turn`` gives, the median of them (a camera tilted up
    to 50 degrees bends the far ones further); crosswords lie at every turn."""
    turns = set()
    for seed in range(8):
        scene = render("crossword", seed, frame=SMALL)
        shot = compose("crossword", seed, "train", SMALL)
        assert scene.grid is not None
        apart = []
        for cube, placed in zip(shot.stage.cubes, scene.cubes, strict=True):
            if placed.cell is None:
                continue
            assert scene.grid[placed.cell[0]][placed.cell[1]] == placed.face
            if cube.spot.turn == 0:
                apart.append(abs((placed.angle - 90 * scene.grid_turn + 180) % 360 - 180))
        if not scene.ambiguous_axes:
            assert np.median(apart) < 48
        turns.add(scene.grid_turn)
    assert len(turns) >= 3


def test_loose_rolls_have_touching_clusters() -> None:
    touching = 0
    for seed in range(6):
        scene = render("loose", seed, frame=SMALL)
        assert 12 <= len(scene.cubes) <= 16
        centres = np.array([cube.center for cube in scene.cubes])
        sides = np.array([np.linalg.norm(np.subtract(*cube.corners[:2])) for cube in scene.cubes])
        gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2) + np.eye(len(centres)) * 1e9
        touching += int((gaps.min(1) < 1.25 * sides).sum())
    assert touching >= 10


def test_a_hand_over_a_top_lowers_its_visible_share() -> None:
    """Hands take the occluder id: a top they cover counts as partly hidden, and the share
    matches the pixels the hand left of it."""
    covered = 0
    for seed in range(12):
        shot = compose("single", seed, "train", SMALL)
        scene = render("single", seed, frame=SMALL)
        hands = shot.canvas.ids == OCCLUDER
        for k, cube in enumerate(scene.cubes):
            uv, _ = shot.camera.project(turned(shot.stage.cubes[k].box.top(), 0).corners)
            under = hands[_polygon_mask(hands.shape, uv)].mean()
            if not under >= 0.1:  # (marks drawn over the photo may hide a top too)
                continue
            assert cube.visible < 1 - under + 0.1
            covered += 1
    assert covered >= 1


def test_a_mark_drawn_over_a_top_is_counted_as_hiding_it() -> None:
    cover = np.zeros((100, 100), np.float32)
    cover[:, :50] = 1.0
    square = np.array([[20, 20], [80, 20], [80, 80], [20, 80]], float)
    assert abs(overlays.hidden(cover, square) - 0.5) < 0.03
    assert overlays.hidden(cover, square + (60, 0)) == 0.0
    image = np.full((120, 160, 3), 128, np.float32)
    marks = overlays.draw(image, np.random.default_rng(3), [square], 1.0)
    assert marks.max() > 0.5 and np.abs(image - 128).max() > 20


def test_empty_scenes_have_no_cubes_and_single_ones_one_or_two() -> None:
    assert all(render("empty", s, frame=SMALL).cubes == () for s in range(3))
    assert all(1 <= len(render("single", s, frame=SMALL).cubes) <= 2 for s in range(3))


@settings(max_examples=30, deadline=None)
@given(
    slant=st.floats(0, 45),
    azimuth=st.floats(0, 6.28),
    roll=st.floats(0, 6.28),
    x=st.floats(-80, 80),
    y=st.floats(-80, 80),
)
def test_a_table_point_projects_and_back(
    slant: float, azimuth: float, roll: float, x: float, y: float
) -> None:
    camera = look_at(np.zeros(3), math.radians(slant), azimuth, roll, 400, 500, (640, 480))
    point = np.array([[x, y, 0.0]])
    uv, depth = camera.project(point)
    assert depth[0] > 0
    np.testing.assert_allclose(camera.on_plane(uv), point, atol=1e-6)
    homography = camera.plane_homography(np.zeros(3), np.array([1.0, 0, 0]), np.array([0, 1.0, 0]))
    mapped = cv2.perspectiveTransform(np.array([[[x, y]]]), homography)[0]
    np.testing.assert_allclose(mapped, uv, atol=1e-6)


def test_no_slant_looks_straight_down_with_the_near_side_below() -> None:
    camera = look_at(np.zeros(3), math.radians(30), -math.pi / 2, 0.0, 400, 500, (640, 480))
    (near, far), _ = camera.project(np.array([[0, -20, 0.0], [0, 20, 0.0]]))
    assert near[1] > far[1]  # the camera stands on -y: the near side is the image's bottom


@pytest.mark.parametrize(
    "lens",
    [
        Lens(0.12, (640, 480), (640, 480)),
        Lens(-0.05, (640, 480), (640, 480)),
        Lens(0.0, (640, 853), (640, 480)),
        Lens(0.08, (853, 480), (640, 480)),
    ],
)
def test_lens_points_follow_the_image_it_warps(lens: Lens) -> None:
    """A dot drawn in the ideal image lands, in the photo, where ``Lens.points`` says."""
    width, height = lens.ideal
    for x, y in [(0.5, 0.5), (0.15, 0.2), (0.85, 0.8), (0.1, 0.9)]:
        ideal = np.zeros((height, width), np.float32)
        point = np.array([[x * width, y * height]])
        cv2.circle(
            ideal,
            (round(point[0, 0] * 16), round(point[0, 1] * 16)),
            5 * 16,
            1.0,
            -1,
            cv2.LINE_AA,
            4,
        )
        photo = lens.apply(ideal)
        assert photo.shape == (480, 640)
        ys, xs = np.nonzero(photo > 0.05)
        weights = photo[ys, xs]
        found = np.array([(xs * weights).sum(), (ys * weights).sum()]) / weights.sum()
        np.testing.assert_allclose(found, lens.points(point)[0], atol=0.35)


def test_splits_keep_fonts_apart() -> None:
    trained = set(fonts(looks.font_split("train"))) | set(fonts(looks.font_split("val")))
    assert not trained & set(fonts(looks.font_split("unseen")))
    assert looks.font_split("train") == looks.font_split("val")
    with pytest.raises(ValueError):
        render("tray", 0, split="test")


def test_textures_come_with_their_sources_and_keep_their_splits_apart() -> None:
    train, unseen = backgrounds.textures("train"), backgrounds.textures("unseen")
    assert backgrounds.textures("val") == train
    assert len(train) >= 20 and len(unseen) >= 8
    assert not {t.path for t in train} & {t.path for t in unseen}
    assert {t.kind for t in train} >= {"wood", "paper", "cloth", "stone", "carpet", "cork"}
    total = 0
    for texture in train + unseen:
        assert texture.path.suffix == ".jpg" and texture.mm > 0
        total += texture.path.stat().st_size
        package = texture.path.parent / f"{_package(texture)}.copyright.txt"
        assert package.is_file()
    assert total < 4_000_000


def _package(texture: backgrounds.Texture) -> str:
    rows = (texture.path.parent / "SOURCES.txt").read_text().splitlines()
    return next(r.split("\t")[0] for r in rows if r.split("\t")[2:3] == [texture.path.name])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), split=st.sampled_from(SPLITS))
def test_splits_keep_colours_apart(seed: int, split: str) -> None:
    """Every hue and cube-body tone a split draws falls in bins of its own parity: unseen
    colours are never trained on."""
    rng = np.random.default_rng(seed)
    parity = int(split == "unseen")
    for family in looks.INKS + looks.TRAYS:
        assert looks.hue_bin(looks.draw_hue(rng, *family.hue, split)) % 2 == parity
    assert looks.tone_bin(looks.draw_tone(rng, 0.0, 1.0, split)) % 2 == parity


def test_the_command_draws_a_scene_with_its_truth(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "scene.png"
    assert main(["--kind", "tray", "--seed", "3", "--size", "320x240", "--out", str(out)]) == 0
    image = cv2.imread(str(out))
    assert image is not None and image.shape == (240, 320, 3)
    assert "/" in capsys.readouterr().out
    assert main(["--kind", "tray", "--size", "big", "--out", str(out)]) == 2
