"""Live reading (``cuberef watch``) on frame sequences of one rendered table: a crossword
with a hand over it for a while, a cube laid between two frames, a cube swapped for
another in its cell; read by the real reader, refereed by the engine, through the command
on a folder of frames and on a video file.

The sequences (``models.sequences``) are rendered once for the session, at 800x600
(``tests/conftest.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from live_frames import CROSSWORD
from live_frames import ROLL as ROLL_TEXT

from device.cli import main
from device.seams.live import LiveView, live_view
from device.seams.seams import VisionReader
from engine.adlib import Grid, Lexicon, Roll, referee
from engine.games import find_game
from models.sequences import Shot, Table, laid
from vision.live import State, watch

GAME = find_game("adlib")
ROLL = Roll.parse(ROLL_TEXT, "adlib")
JOY = [".....", "....J", "....O", "MONEY"]


def true_score(rows: tuple[str, ...]) -> int | None:
    return referee(ROLL, Grid.from_rows(rows), Lexicon.open("en")).score


def read(image: np.ndarray):  # noqa: ANN201 - the reader's own value
    return VisionReader().read_table(image, GAME)


def views(frames: list[np.ndarray]) -> list[LiveView | None]:
    return [None if s is None else live_view(s, GAME, ROLL) for s in watch(read, frames)]


def test_the_frames_show_what_the_test_needs(table: Table, hand_frames) -> None:
    # The crossword alone reads exactly; under the hand it does not, so only the live
    # reading's holding keeps its score right.
    (clear, image), (covered, hidden) = hand_frames[0], hand_frames[3]
    assert read(image).grid == tuple(CROSSWORD) and true_score(table.rows(clear)) == 31
    assert covered.hand is not None
    assert read(hidden).grid != tuple(CROSSWORD)


def test_a_hand_over_the_crossword_never_shows_a_score_but_the_true_one(hand_frames) -> None:
    shown = views([image for _, image in hand_frames])
    assert {v.score for v in shown if v is not None and v.score is not None} == {31}
    for (shot, _), view in zip(hand_frames, shown, strict=True):
        if shot.hand is not None:
            assert view is not None and view.state is State.HANDS
            assert view.grid == tuple(CROSSWORD)  # the last stable reading, held
    last = shown[-1]
    assert last is not None and last.state is State.CROSSWORD and last.score == 31
    assert last.unused == ("Q",) and all(word.valid for word in last.words)


def test_a_cube_laid_between_two_frames_changes_the_reading_within_three(table: Table) -> None:
    before = Shot(laid(table, JOY))
    after = Shot(laid(table, [row + "." for row in JOY[:-1]] + ["MONEYS"], before.cells))
    assert len(after.cells) == len(before.cells) + 1
    shots = [before] * 3 + [after] * 4
    shown = views([table.photo(shot, 20 + n) for n, shot in enumerate(shots)])
    grids = [view.grid if view is not None else None for view in shown]
    assert grids[1:3] == [table.rows(before)] * 2
    first = next(n for n, grid in enumerate(grids) if grid == table.rows(after))
    assert first <= 3 + 2  # the frame it was laid in, or one of the next two
    assert all(grid == table.rows(after) for grid in grids[first:])
    assert [v.score for v in shown[first:] if v] == [true_score(table.rows(after))] * (7 - first)


def test_a_cube_swapped_for_another_in_its_cell_is_read_again(table: Table) -> None:
    # The J of JOY and the loose S change places: SOY. Nothing else moves.
    joy = laid(table, JOY)
    j = next(k for k, cell in joy.items() if table.faces[k] == "J")
    s = next(k for k, face in enumerate(table.faces) if face == "S" and k not in joy)
    soy = {(s if k == j else k): cell for k, cell in joy.items()}
    shots = [Shot(joy)] * 3 + [Shot(soy)] * 3
    shown = views([table.photo(shot, 40 + n) for n, shot in enumerate(shots)])
    last = shown[-1]
    assert last is not None and last.grid == ("....S", "....O", "MONEY")
    assert last.score == true_score(last.grid) and "J" in last.unused


def _lines(out: str) -> list[dict[str, object]]:
    lines = [json.loads(line) for line in out.splitlines()]
    assert all(
        set(line) == {"frame", "state", "grid", "score", "unused", "words", "unseen"}
        for line in lines
    )
    return lines


def _watched(
    source: Path, capsys: pytest.CaptureFixture[str], frames: int
) -> list[dict[str, object]]:
    """``cuberef watch SOURCE --json`` with the table's roll: its lines, once the source's
    end was said on stderr, and stderr alone."""
    assert main(["watch", str(source), "--game", "adlib", "--roll", ROLL_TEXT, "--json"]) == 0
    out, err = capsys.readouterr()
    ended = f"cuberef: the source ended after {frames} frames; its last reading stands above."
    assert err.splitlines() == [ended]
    return _lines(out)


def _check_hand_lines(lines: list[dict[str, object]], frames: int) -> None:
    numbers = [int(str(line["frame"])) for line in lines]
    assert numbers == sorted(numbers) and numbers[-1] < frames
    # Each line says a change: the end of the source never repeats the last reading.
    said = [{key: value for key, value in line.items() if key != "frame"} for line in lines]
    assert all(before != after for before, after in zip(said, said[1:], strict=False))
    assert {line["score"] for line in lines} <= {31, None}
    assert "hands" in {line["state"] for line in lines}
    assert lines[-1]["state"] == "crossword" and lines[-1]["score"] == 31
    assert lines[-1]["grid"] == CROSSWORD and lines[-1]["unused"] == ["Q"]
    assert {"word": "MONEY", "valid": True} in lines[-1]["words"]  # type: ignore[operator]


def test_watch_reads_a_folder_of_frames_in_name_order(
    hand_frames, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for number, (_, image) in enumerate(hand_frames):
        cv2.imwrite(str(tmp_path / f"frame{number:03d}.png"), image)
    (tmp_path / "notes.txt").write_text("not a frame")
    _check_hand_lines(_watched(tmp_path, capsys, len(hand_frames)), len(hand_frames))


def test_watch_reads_a_video_file(
    hand_frames, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 5, (800, 600))
    for _, image in hand_frames:
        writer.write(image)
    writer.release()
    _check_hand_lines(_watched(video, capsys, len(hand_frames)), len(hand_frames))


def test_watch_without_json_says_each_change_for_a_player(
    hand_frames, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for number, (_, image) in enumerate(hand_frames[:2]):
        cv2.imwrite(str(tmp_path / f"{number}.jpg"), image)
    assert main(["watch", str(tmp_path), "--game", "adlib"]) == 0
    out, err = capsys.readouterr()
    assert "frame 1: crossword, score 31" in out and "unused: Q 8" in out
    # Said once, and the source's end said apart, on stderr.
    assert out.count("frame 1: crossword, score 31") == 1 and out.count("frame ") == 1
    assert err == "cuberef: the source ended after 2 frames; its last reading stands above.\n"
    assert main(["watch", str(tmp_path), "--game", "adlib", "--frames", "1"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("frame 0: ") and out.count("frame ") == 1
    assert (
        err == "cuberef: stopped after 1 frame, as --frames asks; the last reading stands above.\n"
    )


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["watch", "{tmp}/nowhere", "--game", "adlib"], "no folder or video file"),
        (["watch", "{tmp}", "--game", "adlib"], "holds no frames"),
        (["watch", "{tmp}/notes.mp4", "--game", "adlib"], "not a video"),
        (["watch", "{tmp}", "--game", "boggle"], "adlib or scribbage"),
        (["watch", "{tmp}", "--game", "adlib", "--roll", "A B C"], "13"),
        (["watch", "--game", "adlib", "--config", "{tmp}/none.toml"], "photo folder"),
        (["watch", "{tmp}", "--game", "adlib", "--frames", "0"], "from 1"),
    ],
)
def test_a_bad_source_is_one_sentence_and_exit_2(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.mp4").write_text("not a video")
    (tmp_path / "none.toml").write_text(f'[camera]\nbackend = "folder"\nfolder = "{tmp_path}/x"\n')
    assert main([word.replace("{tmp}", str(tmp_path)) for word in argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0]


def _nudged(image: np.ndarray) -> np.ndarray:
    shift = np.array([[1, 0, 3], [0, 1, -2]], np.float32)
    return cv2.warpAffine(image, shift, image.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)


def _relit(image: np.ndarray) -> np.ndarray:
    ramp = np.linspace(0.65, 1.25, image.shape[1], dtype=np.float32)[None, :, None]
    return np.clip(image * ramp, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("change", [_nudged, _relit], ids=["camera nudged", "light changed"])
def test_a_camera_nudged_or_the_light_changed_is_not_a_hand_for_long(
    change, table: Table, hand_frames
) -> None:
    clear = [image for shot, image in hand_frames if shot.hand is None][:3]
    full = Shot(laid(table, CROSSWORD))
    later = [change(table.photo(full, 60 + n)) for n in range(4)]
    shown = views(clear + later)
    assert {v.score for v in shown if v is not None and v.score is not None} == {31}
    assert [v.state for v in shown[-2:] if v is not None] == [State.CROSSWORD] * 2
