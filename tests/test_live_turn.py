"""The live reading of a box's Ad-Lib turn (``device.seams.live_turn``): frame by frame from a
stream, and at 0:00 the crossword to score, the full-resolution still confirming the
last stable reading unless a hand is in it."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest
from live_frames import CROSSWORD, ROLL

from device.seams.live_turn import LiveTurn
from device.seams.seams import NoCrossword, VisionReader
from engine.adlib import Roll
from engine.errors import MachineError
from engine.games import find_game
from vision.live import State

GAME = find_game("adlib")


def read(image: np.ndarray):  # noqa: ANN201 - the reader's own value
    return VisionReader().read_table(image, GAME)


def read_crossword(image: np.ndarray):  # noqa: ANN201
    return VisionReader().read_crossword(image, GAME)


def still(image: np.ndarray) -> np.ndarray:
    """A still of the same view at twice the stream's size."""
    return cv2.resize(
        image, (image.shape[1] * 2, image.shape[0] * 2), interpolation=cv2.INTER_CUBIC
    )


def turn(frames: list[np.ndarray]) -> LiveTurn:
    stream = iter(frames)
    return LiveTurn(lambda: next(stream), read, GAME, lambda: Roll.parse(ROLL, "adlib"))


def test_the_turn_shows_the_stable_reading_and_holds_it_under_a_hand(hand_frames) -> None:
    images = [image for _, image in hand_frames]
    live = turn(images)
    changes = [live.step() for _ in images[:4]]
    assert changes[:2] == [False, True]  # nothing stable after one frame, then the crossword
    assert live.view is not None and live.view.state is State.HANDS and live.view.score == 31
    assert live.stable is not None and live.stable.grid == tuple(CROSSWORD)


def test_at_0_00_a_still_that_shows_the_crossword_clear_is_scored(hand_frames) -> None:
    images = [image for _, image in hand_frames]
    live = turn(images)
    for _ in range(3):
        live.step()
    scored, note = live.final(still(images[-1]), read_crossword)
    assert scored.grid == tuple(CROSSWORD) and note == ""
    assert (
        scored.faces[0].corners[0][0] > 2 * min(f.x for f in live.stable.faces) - 1
    )  # the still's


def test_at_0_00_a_hand_in_the_still_leaves_the_last_stable_reading_scored(hand_frames) -> None:
    images = [image for _, image in hand_frames]
    live = turn(images)
    for _ in range(3):
        live.step()
    scored, note = live.final(still(images[4]), read_crossword)  # the hand, held still
    assert scored is live.stable and scored.grid == tuple(CROSSWORD)
    assert "hand" in note


def test_at_0_00_without_a_stable_reading_or_a_crossword_it_is_a_sentence(table) -> None:
    from models.sequences import Shot

    loose = table.photo(Shot(), 0)
    live = turn([loose])
    with pytest.raises(NoCrossword):
        live.final(still(loose), read_crossword)


def test_a_camera_that_fails_is_said_and_the_reading_goes_on_in_a_thread(hand_frames) -> None:
    images = iter([image for _, image in hand_frames[:3]])
    read_three = threading.Event()

    def frame() -> np.ndarray:
        try:
            return next(images)
        except StopIteration:
            read_three.set()
            raise MachineError("The camera is gone.") from None

    live = LiveTurn(frame, read, GAME, lambda: Roll.parse(ROLL, "adlib"), every=0.0)
    live.start()
    assert read_three.wait(10)
    live.stop()
    assert live.failure == "The camera is gone."
    assert live.view is not None and live.view.score == 31
