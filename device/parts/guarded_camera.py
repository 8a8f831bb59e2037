"""The camera as the box uses it: opened at its first capture, and every call to it held to
a time, so that a camera that hangs (a loose cable, a stalled driver) is let go with a
sentence and opened again at the next press, and the box goes on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from device.base.strings import say
from device.parts.camera import ANSWER_SECONDS, OPEN_SECONDS, Camera, CameraError
from engine.errors import CuberefError, MachineError

log = logging.getLogger("cuberef.camera")

T = TypeVar("T")


class _Call(threading.Thread):
    """One call to a camera on a thread of its own, so that the box can stop waiting."""

    def __init__(self, call: Callable[[], Any]) -> None:
        super().__init__(daemon=True, name="cuberef-camera")
        self.call = call
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.call()
        except BaseException as error:  # handed to the caller, which decides
            self.error = error


class GuardedCamera:
    """The camera as the box uses it: opened at the first capture, every call bounded.

    An opening or capture that fails, or takes longer than ``seconds``, drops the
    camera: it is closed (once its stuck call returns, if ever) and the next capture
    opens a new one. What a dropped call returns late is thrown away, so no capture
    ever hands back a frame from an earlier press."""

    def __init__(
        self,
        opener: Callable[[], Camera],
        *,
        seconds: float = ANSWER_SECONDS,
        open_seconds: float = OPEN_SECONDS,
    ) -> None:
        self.opener = opener
        self.seconds = seconds
        self.open_seconds = open_seconds
        self.camera: Camera | None = None

    @property
    def name(self) -> str:
        return self.camera.name if self.camera is not None else "camera"

    def capture(self) -> np.ndarray:
        """A still at the full resolution."""
        return self._capture(lambda camera: camera.capture)

    def capture_live(self) -> np.ndarray:
        """A frame of the low-resolution live stream."""
        return self._capture(lambda camera: camera.capture_live)

    def _capture(self, call: Callable[[Camera], Callable[[], np.ndarray]]) -> np.ndarray:
        if self.camera is None:
            self.camera = self._within(self.opener, "open", seconds=self.open_seconds)
        camera = self.camera
        try:
            frame: np.ndarray = self._within(call(camera), "answer", camera)
        except Exception:
            if getattr(camera, "reopen_on_failure", True):
                self._drop(camera)
            raise
        return frame

    def _within(
        self,
        call: Callable[[], T],
        what: str,
        camera: Camera | None = None,
        seconds: float | None = None,
    ) -> T:
        seconds = self.seconds if seconds is None else seconds
        running = _Call(call)
        running.start()
        running.join(seconds)
        if running.is_alive():
            # The call goes on, on its own thread; close what it holds when it returns.
            threading.Thread(target=_close_after, args=(running, camera), daemon=True).start()
            name = getattr(camera, "described", "camera")
            raise CameraError(say(f"camera-did-not-{what}", name=name, seconds=f"{seconds:g}"))
        if running.error is not None:
            if isinstance(running.error, MachineError | CuberefError):
                raise running.error
            raise CameraError(say("camera-failed", error=running.error)) from None
        result: T = running.result
        return result

    def _drop(self, camera: Camera) -> None:
        self.camera = None
        log.warning("camera %s dropped; the next capture opens it again", camera.name)
        threading.Thread(target=_close_quietly, args=(camera,), daemon=True).start()

    def close(self) -> None:
        """Close the camera, waiting at most ``seconds`` for it (a stopping box goes on)."""
        camera, self.camera = self.camera, None
        if camera is not None:
            closing = _Call(camera.close)
            closing.start()
            closing.join(self.seconds)


def _close_after(running: _Call, camera: Camera | None) -> None:
    running.join()
    held = camera if camera is not None else running.result
    if held is not None:
        _close_quietly(held)


def _close_quietly(camera: Camera) -> None:
    try:
        camera.close()
    except Exception as error:  # a camera that is already gone
        log.info("closing the dropped camera: %s", error)
