"""The replay camera (``[camera] backend = "replay"``): a folder of frames (in name order)
or a video file played as the camera's stream, ``fps`` frames a second by the box's
clock from the moment the camera opens, so that a laptop sees a table change as the box
on a Pi would. A still and the live stream's frame are both the frame of the moment, as
recorded; when the source ends its last frame stays (a table that stopped moving).

``device.config.sections.source_problem`` is the sentence for a source that cannot be played,
which ``cuberef config --check`` says before the box opens the camera.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from device.base.inputs import pictures_in, read_picture
from device.base.strings import say
from device.config.sections import source_path, source_problem
from engine.errors import CuberefError, MachineError

log = logging.getLogger("cuberef.camera")


class ReplayCamera:
    """Frames of a folder or a video served by the clock: frame ``n`` from ``n / fps``
    seconds after opening, the last one from then on."""

    name = "replay"
    described = "replay camera"
    #: A frame that cannot be decoded is its own failure, not a reason to start again.
    reopen_on_failure = False

    def __init__(self, *, source: str, fps: float, monotonic: Callable[[], float]) -> None:
        problem = source_problem(source)
        if problem:  # the settings are wrong, not the machine
            raise CuberefError(problem)
        self.fps = fps
        self.monotonic = monotonic
        path = source_path(source)
        self.frames: _Frames = _Folder(path) if path.is_dir() else _Video(path)
        self.started = monotonic()
        # The live reading's thread and the box's still may ask at once.
        self._lock = threading.Lock()

    @property
    def number(self) -> int:
        """The number of the frame the clock has come to (the last may be sooner)."""
        return int((self.monotonic() - self.started) * self.fps + 1e-9)

    def capture(self) -> np.ndarray:
        """A still: the frame of this moment, as it is."""
        with self._lock:
            return self.frames.at(self.number)

    def capture_live(self) -> np.ndarray:
        """The live stream's frame: the same, as recorded (live reading takes any size)."""
        return self.capture()

    def close(self) -> None:
        with self._lock:
            self.frames.close()


class _Frames:
    def at(self, number: int) -> np.ndarray:
        """Frame ``number``, or the last where the source ended before it."""
        raise NotImplementedError

    def close(self) -> None:
        pass


class _Folder(_Frames):
    def __init__(self, folder: Path) -> None:
        self.paths = pictures_in(folder)
        self._held: tuple[int, np.ndarray] | None = None

    def at(self, number: int) -> np.ndarray:
        number = min(number, len(self.paths) - 1)
        if self._held is None or self._held[0] != number:
            self._held = (number, self._load(self.paths[number]))
        return self._held[1]

    @staticmethod
    def _load(path: Path) -> np.ndarray:
        try:
            return read_picture(path, "the frame")
        except CuberefError as error:
            raise MachineError(say("frame-unreadable", name=repr(path.name), error=error)) from None


class _Video(_Frames):
    """A video read forward only (the clock never goes back), frame by frame."""

    def __init__(self, path: Path) -> None:
        import cv2

        self.video: Any = cv2.VideoCapture(str(path))
        self.number = -1
        self.frame: np.ndarray | None = None
        self.ended = False
        if self.video.isOpened():
            self._next()
        if self.frame is None:
            self.video.release()
            raise CuberefError(
                f"{str(path)!r} is not a video that can be read; give a video file (MP4, "
                "AVI, MKV) or a folder of frames."
            )

    def at(self, number: int) -> np.ndarray:
        while self.number < number and not self.ended:
            self._next()
        assert self.frame is not None
        return self.frame

    def _next(self) -> None:
        ok, frame = self.video.read()
        if not ok or frame is None:
            self.ended = True
            self.video.release()
            log.info("the replay ended at frame %d; it stays", self.number)
            return
        self.number += 1
        self.frame = np.ascontiguousarray(frame[:, :, :3])

    def close(self) -> None:
        self.video.release()
