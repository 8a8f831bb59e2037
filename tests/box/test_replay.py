"""The replay camera (``[camera] backend = "replay"``): a folder of frames or a video
played by the box's clock at ``fps``, a still the frame of the moment, the last frame
staying once the source ends; its settings checked one sentence each; and a box whose
Ad-Lib turn is read live from it, by the real reader, scored at 0:00 without a press."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from live_frames import CROSSWORD, ROLL

from device.base.clock import FakeClock
from device.cli import main
from device.config.sections import CameraSettings
from device.parts.camera import open_camera
from device.referee.flow import State
from device.seams.live_turn import EVERY
from device.seams.seams import VisionReader
from engine.errors import CuberefError, MachineError
from models.sequences import Shot, laid

from .test_round import box_settings, build, run_out_the_clock, tap

#: Grey levels of the test frames: each frame tells which it is.
SHADES = (20, 90, 160, 230)


def shade(image: np.ndarray) -> int:
    """Which test frame ``image`` is (the nearest shade: a video's frames are lossy)."""
    return min(SHADES, key=lambda s: abs(float(image.mean()) - s))


@pytest.fixture
def frames(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    for number, grey in enumerate(SHADES):  # names in order: 0.png .. 3.png
        cv2.imwrite(str(folder / f"{number}.png"), np.full((48, 64, 3), grey, np.uint8))
    (folder / "notes.txt").write_text("not a frame")
    return folder


def replay(source, clock, fps=5.0):
    settings = CameraSettings(backend="replay", source=str(source), fps=fps)
    return open_camera(settings, [], clock.monotonic)


def test_a_folder_is_played_by_the_clock_at_fps_and_its_last_frame_stays(frames) -> None:
    clock = FakeClock()
    camera = replay(frames, clock)
    seen = [shade(camera.capture()), shade(camera.capture())]  # no time: the same frame
    for step in (0.19, 0.02, 0.2, 0.2, 0.2, 60.0):
        clock.advance(step)
        seen.append(shade(camera.capture_live()))
    assert seen == [20, 20, 20, 90, 160, 230, 230, 230]
    assert shade(camera.capture()) == 230  # a still is the frame of the moment too


def test_the_replay_starts_when_the_camera_opens(frames) -> None:
    clock = FakeClock()
    clock.advance(100)  # the box has been on a while before the first press
    camera = replay(frames, clock, fps=1)
    clock.advance(1.5)
    assert shade(camera.capture()) == 90


def test_a_video_is_played_by_the_clock_skipping_the_frames_in_between(tmp_path) -> None:
    path = tmp_path / "turn.avi"
    video = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 25, (64, 48))
    for grey in SHADES:
        video.write(np.full((48, 64, 3), grey, np.uint8))
    video.release()
    clock = FakeClock()
    camera = replay(path, clock, fps=2)
    seen = [shade(camera.capture())]
    for step in (1.0, 0.5, 0.5, 10.0):
        clock.advance(step)
        seen.append(shade(camera.capture()))
    assert seen == [20, 160, 230, 230, 230]
    camera.close()


def test_a_source_that_cannot_be_played_is_one_sentence(tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.txt").write_text("not a video")
    for source, says in (
        ("", "needs source"),
        (tmp_path / "empty", "holds no frames"),
        (tmp_path / "missing", "is no folder or file"),
        ("~nobody-by-this-name/turn", "is no folder or file"),  # no such home folder
        (tmp_path / "notes.txt", "is not a video"),
    ):
        with pytest.raises(CuberefError, match=says):
            replay(source, FakeClock())


@pytest.mark.parametrize(
    ("camera", "says"),
    [
        ('backend = "replay"', 'backend = "replay" needs source = a folder of frames'),
        ('backend = "replay"\nsource = "EMPTY"', "holds no frames; give a folder of JPEG"),
        ('backend = "replay"\nsource = "FRAMES"\nfps = 0', "fps = 0 must be between 0.1 and 120"),
        ('backend = "replay"\nsource = "FRAMES"\nfps = 500', "fps = 500 must be between"),
    ],
)
def test_config_check_says_what_is_wrong_with_a_replay_in_one_sentence(
    tmp_path, frames, capsys, camera, says
) -> None:
    (tmp_path / "empty").mkdir()
    camera = camera.replace("EMPTY", str(tmp_path / "empty")).replace("FRAMES", str(frames))
    path = tmp_path / "config.toml"
    path.write_text(f"[camera]\n{camera}\n")
    assert main(["config", "--check", "--config", str(path)]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and says in said[0], said
    assert said[0].count(". ") == 0 and said[0].endswith(".")  # one sentence
    path.write_text(f'[camera]\nbackend = "replay"\nsource = "{frames}"\nfps = 2.5\n')
    assert main(["config", "--check", "--config", str(path)]) == 0


def test_an_ad_lib_turn_on_the_replay_camera_is_read_live_and_scored_at_0_00(
    tmp_path, table, hand_frames
) -> None:
    # The table as a camera sees it over a turn, a frame a second, each for two: the 13
    # cubes loose (the roll, photographed at the press), MONEY laid, STEM on it, the
    # whole crossword, then a hand over it that stays until time is up (the source ends).
    stages = ([], ["MONEY"], ["S....", "T....", "E....", "MONEY"], CROSSWORD)
    folder = tmp_path / "turn"
    folder.mkdir()
    shots = [Shot(laid(table, rows)) for rows in stages for _twice in range(2)]
    images = [table.photo(shot, number) for number, shot in enumerate(shots)]
    images.append(hand_frames[3][1])
    for number, image in enumerate(images):
        cv2.imwrite(str(folder / f"{number:02d}.png"), image)
    chosen = box_settings(tmp_path, folder, "adlib")
    chosen.update(players=["Ann"], rounds=1)
    chosen["camera"] = {"backend": "replay", "source": str(folder), "fps": 1}
    made, clock, _ = build(tmp_path, folder, reader=VisionReader(), settings=chosen)
    tap(made)
    referee = made.referee
    assert referee.state is State.TIMING, referee.message
    assert sorted(map(str, referee.round.reading.roll.faces)) == sorted(ROLL.split())
    live = referee.scoring.live
    assert live is not None
    live.stop()  # read here frame by frame on the fake clock, as its thread does
    shown = []
    for _ in range(int(len(images) / EVERY) + 5):
        clock.advance(EVERY)
        live.step()
        made.box.step()
        view = made.box.screen.shown
        seen = (view.score, *(line.text for line in view.lines))
        if view.score and (not shown or shown[-1] != seen):
            shown.append(seen)
    assert shown == [
        ("-16 so far", "Laid: MONEY"),
        ("-3 so far", "Laid: MONEY · STEM"),
        ("31 so far", "Laid: MONEY · STEM · BUN · JOY"),
    ]
    assert live.view is not None and live.view.state == "hands" and live.view.unused == ("Q",)
    run_out_the_clock(made, clock)
    assert referee.state is State.SCORED, referee.message  # no press at 0:00
    assert referee.round.grid == tuple(CROSSWORD) and referee.round.verdict.score == 31
    assert any("hand was over the cubes" in note for note in referee.round.notes)
    made.close()


def test_a_frame_that_cannot_be_decoded_is_a_sentence_when_its_time_comes(frames) -> None:
    (frames / "1.png").write_bytes(b"not a picture")
    clock = FakeClock()
    camera = replay(frames, clock, fps=1)
    assert shade(camera.capture()) == 20
    clock.advance(1)
    with pytest.raises(MachineError, match="The frame '1.png' cannot be read"):
        camera.capture()
    clock.advance(1)
    assert shade(camera.capture()) == 160  # the replay goes on
