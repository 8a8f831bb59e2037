"""Cameras: each gives ``capture() -> numpy.ndarray`` (BGR, uint8, height x width x 3),
a still at the full resolution, and ``capture_live()``, a frame of the low-resolution
stream that live reading watches (``live_size``: picamera2's lores stream, a USB camera's
MJPG at 1280x720 for a 16:9 camera).

Backends (``BACKENDS``): ``picamera`` (the Pi camera through picamera2, imported only
when this backend is built), ``usb`` (a USB camera through OpenCV), ``folder`` (a
folder of photos, one per capture, in name order, round and round), ``replay`` (a folder
of frames or a video played in real time by the box's clock: ``device.parts.replay``).
``auto`` tries the first three in that order and announces each fallback.

Every capture is of the moment it was asked for: the Pi camera waits for a frame
that began after the call (picamera2's ``flush``), a USB camera grabs until a frame's
own timestamp is later than the call (OpenCV's V4L2 backend queues four old ones).
``GuardedCamera`` is what the box uses: it opens the camera at the first press,
bounds every opening and capture in time, and drops a camera that fails or stops
answering, so that the next press opens it afresh.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np

from device.base.inputs import pictures_in, read_picture
from device.base.strings import say
from device.config.sections import CameraSettings
from device.parts.backends import first_working, pick
from device.parts.replay import ReplayCamera
from engine.errors import CuberefError, MachineError

log = logging.getLogger("cuberef.camera")


#: A camera that has not answered in this many seconds is dropped (the box waits no longer).
ANSWER_SECONDS = 4.0
#: Opening has a bound of its own: the Pi camera's import, start, settling and focus take
#: several seconds on a Pi 4, which a capture's bound must not count.
OPEN_SECONDS = 20.0
#: The longest the Pi camera's exposure is given to settle after it starts.
SETTLE_SECONDS = 1.0
#: Without usable frame timestamps, this many grabs empty OpenCV's queue (four buffers).
FLUSH_GRABS = 5
#: The live stream's width: a multiple of 64, so that the rows of a YUV420 frame are not
#: padded.
LIVE_WIDTH = 1280

T = TypeVar("T")


class CameraError(MachineError):
    """The camera gave no picture."""


class Camera(Protocol):
    @property
    def name(self) -> str: ...

    def capture(self) -> np.ndarray: ...

    def capture_live(self) -> np.ndarray: ...

    def close(self) -> None: ...


def live_size(width: int, height: int) -> tuple[int, int]:
    """The size a camera streams at for live reading: ``LIVE_WIDTH`` wide with the
    still's shape (an even height), or the still's own size where that is smaller.

    >>> live_size(1920, 1080), live_size(1600, 1200), live_size(640, 480)
    ((1280, 720), (1280, 960), (640, 480))
    """
    if width <= LIVE_WIDTH:
        return width, height
    return LIVE_WIDTH, 2 * round(LIVE_WIDTH * height / width / 2)


class PiCamera:
    """The Raspberry Pi camera through picamera2 (from the Pi's system packages)."""

    name = "picamera"
    described = "Pi camera"

    def __init__(
        self,
        *,
        width: int = 1920,
        height: int = 1080,
        lens_position: float | None = None,
        seconds: float = ANSWER_SECONDS,
        maker: Callable[[], Any] | None = None,
    ) -> None:
        self.seconds = seconds
        try:
            if maker is None:
                from picamera2 import Picamera2  # only on a Pi; see systemd/install.sh

                maker = Picamera2
            self.camera = maker()
        except ImportError:
            raise CameraError(
                "picamera2 is not installed; on a Pi run sudo apt install python3-picamera2."
            ) from None
        except Exception as error:  # libcamera's own words: no camera, camera busy
            raise CameraError(say("pi-camera-not-open", error=error)) from None
        try:
            # libcamera's "RGB888" is B, G, R in memory: what OpenCV and vision expect.
            # The lores stream beside it is YUV420, the one format a Pi 4's ISP gives there.
            config = self.camera.create_still_configuration(
                main={"size": (width, height), "format": "RGB888"},
                lores={"size": live_size(width, height), "format": "YUV420"},
            )
            self.camera.configure(config)
            self.camera.start()
            self._settle()
            if "AfMode" in self.camera.camera_controls:
                self._focus(lens_position)
        except BaseException:
            self.camera.close()  # else libcamera keeps the camera and the next opening fails
            raise

    def _settle(self) -> None:
        """Let exposure settle (the box opens the camera at a press, and shoots at once)."""
        until = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < until:
            metadata = self._wait(self.camera.capture_metadata(wait=False), "start")
            if metadata.get("AeLocked"):
                return

    def _focus(self, lens_position: float | None) -> None:
        if lens_position is not None:
            from libcamera import controls

            # Fixed height above the table: focus once, by dioptres (1 / metres).
            self.camera.set_controls(
                {"AfMode": controls.AfModeEnum.Manual, "LensPosition": lens_position}
            )
            return
        focused = self._wait(self.camera.autofocus_cycle(wait=False), "focus")
        if not focused:
            log.warning("the Pi camera could not focus; the photo may be soft")

    def _wait(self, job: Any, what: str) -> Any:
        try:
            return self.camera.wait(job, timeout=self.seconds)
        except TimeoutError:
            said = say(f"pi-camera-slow-{what}", seconds=f"{self.seconds:g}")
            raise CameraError(said) from None

    def capture(self) -> np.ndarray:
        return np.ascontiguousarray(self._take("main")[:, :, :3])

    def capture_live(self) -> np.ndarray:
        import cv2

        return np.asarray(cv2.cvtColor(self._take("lores"), cv2.COLOR_YUV2BGR_I420))

    def _take(self, stream: str) -> np.ndarray:
        try:
            # flush: a frame whose exposure began after this call, never one queued earlier.
            request = self._wait(self.camera.capture_request(wait=False, flush=True), "answer")
            try:
                frame: np.ndarray = request.make_array(stream)
            finally:
                request.release()
        except CameraError:
            raise
        except Exception as error:
            raise CameraError(say("pi-camera-no-picture", error=error)) from None
        return frame

    def close(self) -> None:
        self.camera.stop()
        self.camera.close()


def usb_cameras(sysfs: Path = Path("/sys/class/video4linux")) -> list[str]:
    """The capture nodes of USB cameras (``/dev/videoN``), in number order.

    A Pi's own camera and codecs are video devices too (with a CSI camera attached,
    ``/dev/video0`` is not a webcam), and a UVC webcam has a second, metadata node;
    a USB camera's capture node is the one whose ``index`` is 0 on a USB device."""
    found: list[tuple[int, str]] = []
    for node in sysfs.glob("video[0-9]*"):
        try:
            on_usb = "/usb" in str((node / "device").resolve())
            first = (node / "index").read_text().strip() == "0"
        except OSError:
            continue
        if on_usb and first:
            found.append((int(node.name[5:]), f"/dev/{node.name}"))
    return [path for _, path in sorted(found)]


def _open_v4l2(device: str | int) -> Any:
    import cv2

    return cv2.VideoCapture(device, cv2.CAP_V4L2)


class UsbCamera:
    """A USB camera through OpenCV's ``VideoCapture``: MJPG where offered, fresh frames."""

    name = "usb"
    described = "USB camera"

    def __init__(
        self,
        *,
        index: int = 0,
        width: int = 1920,
        height: int = 1080,
        seconds: float = ANSWER_SECONDS,
        opener: Callable[[str | int], Any] = _open_v4l2,
        devices: Callable[[], list[str]] = usb_cameras,
    ) -> None:
        import cv2

        # OpenCV's V4L2 backend waits 10 s for a frame by default; the box waits less.
        os.environ.setdefault(
            "OPENCV_VIDEOIO_V4L_SELECT_TIMEOUT", str(max(1, math.floor(seconds) - 1))
        )
        self.index = index
        self.seconds = seconds
        found = devices()
        if found and index >= len(found):
            raise CameraError(say("no-usb-camera", index=index))
        device: str | int = found[index] if found else index
        self.device = opener(device)
        if not self.device.isOpened():
            raise CameraError(say("no-usb-camera", index=index))
        # The format first: a webcam gives 1080p at full speed only as MJPG.
        self.device.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*"MJPG"))
        self.still = (width, height)
        self.size = (0, 0)
        self._size(self.still)
        self.device.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        code = int(self.device.get(cv2.CAP_PROP_FOURCC))
        self.fourcc = "".join(chr((code >> shift) & 0xFF) for shift in (0, 8, 16, 24))
        log.info("USB camera %s opened as %s", device, self.fourcc)

    def _size(self, size: tuple[int, int]) -> None:
        """Stream at ``size`` (OpenCV restarts the stream when it changes)."""
        import cv2

        if size != self.size:
            self.device.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self.device.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
            self.size = size

    def capture(self) -> np.ndarray:
        self._size(self.still)
        return self._take()

    def capture_live(self) -> np.ndarray:
        self._size(live_size(*self.still))
        return self._take()

    def _take(self) -> np.ndarray:
        import cv2

        asked = time.monotonic()
        grabs = 0
        while True:
            if not self.device.grab():
                raise CameraError(say("usb-camera-no-picture", index=self.index))
            grabs += 1
            # V4L2 stamps each frame on the monotonic clock; one stamped before the call
            # waited in the queue. A driver with other stamps: grab the queue empty.
            stamp = self.device.get(cv2.CAP_PROP_POS_MSEC) / 1000
            stamped = abs(stamp - time.monotonic()) < 60
            if (stamp >= asked) if stamped else grabs >= FLUSH_GRABS:
                break
            if time.monotonic() - asked > self.seconds:
                raise CameraError(say("usb-camera-old-pictures", index=self.index))
        ok, frame = self.device.retrieve()
        if not ok or frame is None:
            raise CameraError(say("usb-camera-no-picture", index=self.index))
        return np.ascontiguousarray(frame)

    def close(self) -> None:
        self.device.release()


class FolderCamera:
    """A folder of photos stands in for the camera: each capture is the next photo."""

    name = "folder"
    described = "photo folder"
    #: A photo that cannot be read is skipped, not a reason to read the folder again.
    reopen_on_failure = False

    def __init__(self, *, folder: str | Path) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise CameraError(say("no-photo-folder", folder=repr(str(self.folder))))
        self.photos = pictures_in(self.folder)
        if not self.photos:
            raise CameraError(say("no-photos", folder=repr(str(self.folder))))
        self.taken = 0

    @property
    def next_photo(self) -> Path:
        return self.photos[self.taken % len(self.photos)]

    def capture(self) -> np.ndarray:
        path = self.next_photo
        self.taken += 1
        return self._load(path)

    def capture_live(self) -> np.ndarray:
        """The photo last taken, again: between two presses the table a folder shows
        stands still (the first photo before any was taken)."""
        return self._load(self.photos[max(0, self.taken - 1) % len(self.photos)])

    @staticmethod
    def _load(path: Path) -> np.ndarray:
        try:
            return read_picture(path, "the photo")
        except CuberefError as error:
            raise CameraError(say("photo-unreadable", name=repr(path.name), error=error)) from None

    def close(self) -> None:
        pass


def _folder(settings: CameraSettings) -> str:
    if not settings.folder:
        raise CuberefError('The folder camera needs [camera] folder = "a folder of photos".')
    return settings.folder


#: The clock a camera is opened with: the box's (a replay plays by it).
Monotonic = Callable[[], float]


def _replay(settings: CameraSettings, monotonic: Monotonic) -> Camera:
    return ReplayCamera(source=settings.source, fps=settings.fps, monotonic=monotonic)


#: Camera backend name (the ``[camera] backend`` setting) -> the camera its section makes,
#: given the box's clock.
BACKENDS: dict[str, Callable[[CameraSettings, Monotonic], Camera]] = {
    "picamera": lambda chosen, _clock: PiCamera(
        width=chosen.width,
        height=chosen.height,
        lens_position=chosen.lens_position if chosen.focus == "fixed" else None,
    ),
    "usb": lambda chosen, _clock: UsbCamera(
        index=chosen.usb_index, width=chosen.width, height=chosen.height
    ),
    "folder": lambda chosen, _clock: FolderCamera(folder=_folder(chosen)),
    "replay": _replay,
}


def open_camera(
    settings: CameraSettings, notices: list[str], monotonic: Monotonic = time.monotonic
) -> Camera:
    """The camera the settings ask for; ``auto`` falls back Pi -> USB -> folder, aloud.
    ``monotonic``: the box's clock, by which a replay plays."""
    if settings.backend == "auto":
        names = ["picamera", "usb"] + (["folder"] if settings.folder else [])
        attempts = [
            (name, functools.partial(BACKENDS[name], settings, monotonic)) for name in names
        ]
        return first_working("camera", attempts, notices)[1]
    return pick(BACKENDS, settings.backend, "camera")(settings, monotonic)
