"""Cameras: each gives ``capture() -> numpy.ndarray`` (BGR, uint8, height x width x 3).

Backends (``BACKENDS``): ``picamera`` (the Pi camera through picamera2, imported only
when this backend is built), ``usb`` (the first USB camera through OpenCV), ``folder``
(a folder of photos, one per capture, in name order, round and round). ``auto`` tries
them in that order and announces each fallback.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from device.backends import first_working, pick
from engine.errors import CuberefError, MachineError

log = logging.getLogger("cuberef.camera")

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


class CameraError(MachineError):
    """The camera gave no picture."""


class Camera(Protocol):
    name: str

    def capture(self) -> np.ndarray: ...

    def close(self) -> None: ...


class PiCamera:
    """The Raspberry Pi camera through picamera2 (from the Pi's system packages)."""

    name = "picamera"

    def __init__(
        self, *, width: int = 1920, height: int = 1080, lens_position: float | None = None
    ) -> None:
        from picamera2 import Picamera2  # only on a Pi; see systemd/install.sh

        self.camera = Picamera2()
        # libcamera's "RGB888" is B, G, R in memory: what OpenCV and vision expect.
        config = self.camera.create_still_configuration(
            main={"size": (width, height), "format": "RGB888"}
        )
        self.camera.configure(config)
        self.camera.start()
        if "AfMode" in self.camera.camera_controls:
            from libcamera import controls

            if lens_position is None:
                self.camera.autofocus_cycle()
            else:
                # Fixed height above the table: focus once, by dioptres (1 / metres).
                self.camera.set_controls(
                    {"AfMode": controls.AfModeEnum.Manual, "LensPosition": lens_position}
                )

    def capture(self) -> np.ndarray:
        try:
            frame = self.camera.capture_array("main")
        except Exception as error:
            raise CameraError(
                f"The Pi camera took no picture ({error}); check its ribbon cable."
            ) from None
        return np.ascontiguousarray(frame[:, :, :3])

    def close(self) -> None:
        self.camera.stop()
        self.camera.close()


class UsbCamera:
    """A USB camera through OpenCV's ``VideoCapture``."""

    name = "usb"

    def __init__(self, *, index: int = 0, width: int = 1920, height: int = 1080) -> None:
        import cv2

        self.index = index
        self.capture_device = cv2.VideoCapture(index)
        if not self.capture_device.isOpened():
            raise CameraError(f"There is no USB camera number {index}; plug one in.")
        self.capture_device.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self.capture_device.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def capture(self) -> np.ndarray:
        # The first frames after a pause can be stale; read a few and keep the last.
        ok, frame = False, None
        for _ in range(3):
            ok, frame = self.capture_device.read()
        if not ok or frame is None:
            raise CameraError(
                f"USB camera {self.index} gave no picture; check its cable and press again."
            )
        return np.ascontiguousarray(frame)

    def close(self) -> None:
        self.capture_device.release()


class FolderCamera:
    """A folder of photos stands in for the camera: each capture is the next photo."""

    name = "folder"

    def __init__(self, *, folder: str | Path) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(f"The photo folder {str(self.folder)!r} does not exist.")
        self.photos = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        if not self.photos:
            raise CameraError(f"The photo folder {str(self.folder)!r} holds no photos.")
        self.taken = 0

    @property
    def next_photo(self) -> Path:
        return self.photos[self.taken % len(self.photos)]

    def capture(self) -> np.ndarray:
        import cv2

        path = self.next_photo
        self.taken += 1
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise CameraError(f"The photo {path.name!r} cannot be read; it may be damaged.")
        return image

    def close(self) -> None:
        pass


#: Camera backend name (the ``[camera] backend`` setting) -> class.
BACKENDS: dict[str, Callable[..., Camera]] = {
    "picamera": PiCamera,
    "usb": UsbCamera,
    "folder": FolderCamera,
}


def open_camera(settings: dict[str, Any], notices: list[str]) -> Camera:
    """The camera the settings ask for; ``auto`` falls back Pi -> USB -> folder, aloud."""
    name = settings["backend"]
    width, height = settings["width"], settings["height"]
    makers: dict[str, Callable[[], Camera]] = {
        "picamera": lambda: PiCamera(
            width=width,
            height=height,
            lens_position=settings["lens_position"] if settings["focus"] == "fixed" else None,
        ),
        "usb": lambda: UsbCamera(index=settings["usb_index"], width=width, height=height),
        "folder": lambda: FolderCamera(folder=_folder(settings)),
    }
    if name == "auto":
        attempts = [(n, makers[n]) for n in ("picamera", "usb")]
        if settings.get("folder"):
            attempts.append(("folder", makers["folder"]))
        return first_working("camera", attempts, notices)[1]
    pick(BACKENDS, name, "camera")
    return makers[name]()


def _folder(settings: dict[str, Any]) -> str:
    if not settings.get("folder"):
        raise CuberefError('The folder camera needs [camera] folder = "a folder of photos".')
    return str(settings["folder"])
