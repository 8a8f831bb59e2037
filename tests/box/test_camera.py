"""Cameras that lag, stall and break, as fakes of picamera2 and OpenCV's VideoCapture:
a stale frame is never returned, a camera that stops answering is let go in under
5 s, and the box carries on and opens it again at the next press."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from live_frames import ROLL

from device.cli import main
from device.parts import camera as cameras
from device.parts.camera import (
    ANSWER_SECONDS,
    CameraError,
    PiCamera,
    UsbCamera,
    usb_cameras,
)
from device.parts.guarded_camera import GuardedCamera
from device.referee.flow import State

from .conftest import tray_reading
from .test_round import box_settings, build, tap


def frame(number: int) -> np.ndarray:
    """A small picture that says which frame it is."""
    return np.full((12, 16, 3), number % 256, np.uint8)


class FakeVideoCapture:
    """OpenCV's V4L2 capture as a webcam drives it: frames wait in a queue of four
    buffers, each stamped (CAP_PROP_POS_MSEC) on the monotonic clock when it was
    taken; a grab takes the oldest and the camera fills a buffer with a new frame."""

    def __init__(self, device, *, stamps: bool = True, stall_after: int | None = None):
        self.device = device
        self.stamps = stamps
        self.stall_after = stall_after
        self.properties: list[tuple[int, float]] = []
        self.taken = 0
        old = time.monotonic() - 120  # four frames taken two minutes ago, at the last round
        self.queue = [(self._take(), old + i / 30) for i in range(4)]
        self.current: tuple[int, float] | None = None
        self.released = False

    def _take(self) -> int:
        self.taken += 1
        return self.taken

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        self.properties.append((prop, value))
        return True

    def get(self, prop: int) -> float:
        if prop == cv2.CAP_PROP_FOURCC:
            return float(cv2.VideoWriter.fourcc(*"MJPG"))
        if prop == cv2.CAP_PROP_POS_MSEC:
            return self.current[1] * 1000 if self.stamps and self.current else 0.0
        return 0.0

    def grab(self) -> bool:
        if self.stall_after is not None and self.taken >= self.stall_after:
            return False
        self.current = self.queue.pop(0)
        self.queue.append((self._take(), time.monotonic() + 0.001))
        return True

    def retrieve(self):
        assert self.current is not None
        return True, frame(self.current[0])

    def release(self) -> None:
        self.released = True


def test_a_usb_camera_never_returns_a_frame_that_waited_in_the_queue():
    made: list[FakeVideoCapture] = []

    def opener(device):
        made.append(FakeVideoCapture(device))
        return made[-1]

    camera = UsbCamera(index=0, opener=opener, devices=lambda: ["/dev/video2"])
    fake = made[0]
    assert fake.device == "/dev/video2"
    props = [prop for prop, _ in fake.properties]
    # MJPG is asked for before the size (a webcam chooses its sizes by format), one buffer.
    assert props.index(cv2.CAP_PROP_FOURCC) < props.index(cv2.CAP_PROP_FRAME_WIDTH)
    assert (cv2.CAP_PROP_BUFFERSIZE, 1) in fake.properties
    assert camera.fourcc == "MJPG"
    picture = camera.capture()
    assert picture[0, 0, 0] > 4  # frames 1-4 were taken before the press
    second = camera.capture()
    assert second[0, 0, 0] > picture[0, 0, 0]
    camera.close()
    assert fake.released


def test_a_usb_camera_without_timestamps_empties_the_queue_first():
    fake = FakeVideoCapture(0, stamps=False)
    camera = UsbCamera(index=0, opener=lambda device: fake, devices=lambda: [])
    assert camera.capture()[0, 0, 0] == cameras.FLUSH_GRABS
    assert fake.device == 0  # no sysfs: the index as OpenCV counts


def test_a_usb_camera_that_stops_giving_frames_is_a_sentence():
    fake = FakeVideoCapture(0, stall_after=9)  # four old, one fresh, then nothing
    camera = UsbCamera(index=0, opener=lambda device: fake, devices=lambda: [])
    camera.capture()
    with pytest.raises(CameraError, match="USB camera 0 gave no picture"):
        camera.capture()


def test_usb_cameras_are_found_on_the_usb_bus_and_not_the_pi_camera(tmp_path: Path):
    sysfs = tmp_path / "video4linux"
    devices = tmp_path / "devices"
    nodes = {  # name: (bus path, index)
        "video0": ("platform/fe801000.csi/video0", "0"),  # the Pi camera's unicam node
        "video1": ("platform/usb1/1-1/1-1.2/1-1.2:1.0", "0"),  # a webcam
        "video2": ("platform/usb1/1-1/1-1.2/1-1.2:1.0", "1"),  # its metadata node
        "video10": ("platform/usb1/1-1/1-1.3/1-1.3:1.0", "0"),  # a second webcam
    }
    for name, (bus, index) in nodes.items():
        (devices / bus).mkdir(parents=True, exist_ok=True)
        (sysfs / name).mkdir(parents=True)
        (sysfs / name / "device").symlink_to(devices / bus)
        (sysfs / name / "index").write_text(index + "\n")
    assert usb_cameras(sysfs) == ["/dev/video1", "/dev/video10"]
    with pytest.raises(CameraError, match="no USB camera number 2"):
        UsbCamera(index=2, opener=FakeVideoCapture, devices=lambda: usb_cameras(sysfs))


class FakeRequest:
    def __init__(self, number: int):
        self.number = number
        self.released = False

    def make_array(self, name: str) -> np.ndarray:
        return np.dstack([frame(self.number), np.zeros((12, 16, 1), np.uint8)])  # XBGR

    def release(self) -> None:
        self.released = True


class FakePicamera2:
    """picamera2's asynchronous calls: ``wait=False`` gives a job, ``wait(job,
    timeout)`` its result or TimeoutError. ``stalls`` makes every job hang."""

    def __init__(self, *, stalls: bool = False, autofocus: bool = True):
        self.stalls = stalls
        self.camera_controls = {"AfMode": (0, 2, 0)} if autofocus else {}
        self.calls: list[tuple[str, dict]] = []
        self.frames = 0
        self.closed = False

    def create_still_configuration(self, **kwargs):
        self.calls.append(("still", kwargs))
        return kwargs

    def configure(self, config) -> None:
        self.calls.append(("configure", config))

    def start(self) -> None:
        self.calls.append(("start", {}))

    def autofocus_cycle(self, wait=None):
        self.calls.append(("autofocus", {"wait": wait}))
        return ("focus", None)

    def capture_metadata(self, wait=None):
        self.calls.append(("metadata", {"wait": wait}))
        return ("metadata", {"AeLocked": len(self.calls) > 6})

    def capture_request(self, wait=None, flush=None):
        self.calls.append(("request", {"wait": wait, "flush": flush}))
        self.frames += 1
        return ("request", FakeRequest(self.frames))

    def wait(self, job, timeout=None):
        if self.stalls:
            time.sleep(timeout)
            raise TimeoutError
        kind, result = job
        return True if kind == "focus" else result

    def stop(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


def test_the_pi_camera_asks_for_a_frame_begun_after_the_call():
    fake = FakePicamera2()
    camera = PiCamera(width=640, height=480, maker=lambda: fake)
    picture = camera.capture()
    assert picture.shape == (12, 16, 3) and picture.flags.c_contiguous
    assert ("request", {"wait": False, "flush": True}) in fake.calls
    assert ("autofocus", {"wait": False}) in fake.calls  # bounded, not the blocking call
    assert fake.calls[0] == (
        "still",
        {
            "main": {"size": (640, 480), "format": "RGB888"},
            "lores": {"size": (640, 480), "format": "YUV420"},
        },
    )
    metadata = [i for i, (kind, _) in enumerate(fake.calls) if kind == "metadata"]
    assert len(metadata) == 4  # frames until the exposure settled, then focus and shoot
    assert metadata[-1] < fake.calls.index(("autofocus", {"wait": False}))


def test_a_pi_camera_that_stalls_is_a_sentence_within_its_time():
    fake = FakePicamera2(autofocus=False)
    camera = PiCamera(maker=lambda: fake, seconds=0.2)
    fake.stalls = True
    started = time.monotonic()
    with pytest.raises(CameraError, match="did not answer within 0.2 s"):
        camera.capture()
    assert time.monotonic() - started < 1
    stalled = FakePicamera2(stalls=True)  # even its focus cycle hangs at opening
    with pytest.raises(CameraError, match="did not start"):
        PiCamera(maker=lambda: stalled, seconds=0.1)
    assert stalled.closed  # so that the next opening finds the camera free


class HangingCamera:
    """A camera that answers ``good`` times, then hangs until ``unstick`` is set and
    returns a frame from then: the frame a careless box would show at the next press."""

    name = "usb"
    described = "USB camera"

    def __init__(self, number: int, good: int = 0):
        self.number = number
        self.good = good
        self.unstick = threading.Event()
        self.closed = threading.Event()

    def capture(self) -> np.ndarray:
        if self.good:
            self.good -= 1
            return frame(self.number)
        self.unstick.wait()
        return frame(200 + self.number)

    def close(self) -> None:
        self.closed.set()


def test_a_camera_that_stops_answering_is_let_go_and_opened_again():
    opened: list[HangingCamera] = []

    def opener():
        opened.append(HangingCamera(len(opened) + 1, good=1 if not opened else 5))
        return opened[-1]

    guarded = GuardedCamera(opener, seconds=0.3, open_seconds=0.1)
    assert guarded.capture()[0, 0, 0] == 1
    started = time.monotonic()
    with pytest.raises(CameraError, match="USB camera did not answer within 0.3 s"):
        guarded.capture()
    assert time.monotonic() - started < 1
    assert guarded.camera is None
    assert guarded.capture()[0, 0, 0] == 2  # a new camera, not the stuck one's late frame
    opened[0].unstick.set()  # the stuck call returns at last ...
    assert opened[0].closed.wait(2)  # ... and the camera it held is closed
    assert guarded.capture()[0, 0, 0] == 2
    guarded.close()
    assert opened[1].closed.is_set()


def test_a_camera_that_does_not_open_in_time_is_closed_when_it_does():
    late = HangingCamera(1)
    gate = threading.Event()

    def slow_opener():
        gate.wait()
        return late

    guarded = GuardedCamera(slow_opener, seconds=5, open_seconds=0.2)
    with pytest.raises(CameraError, match="camera did not open within 0.2 s"):
        guarded.capture()
    gate.set()
    assert late.closed.wait(2)


def test_the_box_carries_on_when_the_camera_hangs(tmp_path, photos, monkeypatch):
    """The box's own bound (under 5 s), the reason on the screen, the next press reads."""
    assert ANSWER_SECONDS < 5
    opened: list[HangingCamera] = []

    def usb(_chosen, _clock):
        opened.append(HangingCamera(len(opened) + 1, good=0 if not opened else 1))
        return opened[-1]

    monkeypatch.setitem(cameras.BACKENDS, "usb", usb)
    chosen = box_settings(tmp_path, photos)
    chosen["camera"]["backend"] = "usb"
    made, clock, beeps = build(tmp_path, photos, settings=chosen)
    started = time.monotonic()
    tap(made)
    waited = time.monotonic() - started
    assert ANSWER_SECONDS - 0.1 < waited < 5
    assert made.referee.state is State.IDLE
    shown = made.box.screen.shown.message
    assert "USB camera did not answer" in shown and "opened again at the next press" in shown
    assert "trouble" in beeps[-1]
    made.referee.parts.reader.readings.append(tray_reading())
    tap(made)
    assert made.referee.state is State.TIMING  # the second camera, opened at this press
    assert len(opened) == 2
    opened[0].unstick.set()
    made.close()
    assert opened[1].closed.is_set()


def test_opening_has_its_own_bound_apart_from_a_captures():
    """The Pi camera's import, settling and focus outlast a capture's bound (issue 32)."""
    slow = HangingCamera(1, good=5)

    def slow_opener():
        time.sleep(0.5)  # longer than a capture may take
        return slow

    guarded = GuardedCamera(slow_opener, seconds=0.2, open_seconds=2)
    assert guarded.capture()[0, 0, 0] == 1
    guarded.close()


class StreamingRequest(FakeRequest):
    """A request of a camera streaming ``picture``: its main stream as libcamera's RGB888
    (B, G, R), its lores stream as YUV420, ``shrink`` times smaller."""

    def __init__(self, number: int, picture: np.ndarray, shrink: int):
        super().__init__(number)
        self.picture = picture
        self.shrink = shrink

    def make_array(self, name: str) -> np.ndarray:
        if name == "main":
            return self.picture.copy()
        height, width = self.picture.shape[:2]
        size = (width // self.shrink, height // self.shrink)
        small = cv2.resize(self.picture, size, interpolation=cv2.INTER_AREA)
        return cv2.cvtColor(small, cv2.COLOR_BGR2YUV_I420)


class StreamingPicamera2(FakePicamera2):
    """A Pi camera whose frames are ``pictures``, in turn."""

    def __init__(self, pictures: list[np.ndarray], shrink: int = 2):
        super().__init__()
        self.pictures = pictures
        self.shrink = shrink

    def capture_request(self, wait=None, flush=None):
        self.calls.append(("request", {"wait": wait, "flush": flush}))
        self.frames += 1
        picture = self.pictures[(self.frames - 1) % len(self.pictures)]
        return ("request", StreamingRequest(self.frames, picture, self.shrink))


def test_the_pi_camera_streams_its_lores_frames_for_live_reading_and_shoots_stills_full():
    picture = np.zeros((64, 96, 3), np.uint8)
    picture[:, :, 2] = 220  # red, which a YUV stream read as RGB would make blue
    picture[10:30, 20:50] = (40, 160, 40)
    fake = StreamingPicamera2([picture])
    camera = PiCamera(width=2560, height=1440, maker=lambda: fake)
    assert fake.calls[0][1]["lores"] == {"size": (1280, 720), "format": "YUV420"}
    live = camera.capture_live()
    assert live.shape == (32, 48, 3)  # the fake's lores is half its main
    assert np.abs(live.astype(int) - cv2.resize(picture, (48, 32))).mean() < 6
    assert camera.capture().shape == (64, 96, 3)


def test_a_usb_camera_streams_at_1280x720_and_goes_back_to_full_size_for_a_still():
    fake = FakeVideoCapture(0)
    camera = UsbCamera(index=0, width=1920, height=1080, opener=lambda device: fake, devices=list)
    sizes = lambda: [  # noqa: E731 - the sizes asked for, in order
        value
        for prop, value in fake.properties
        if prop in (cv2.CAP_PROP_FRAME_WIDTH, cv2.CAP_PROP_FRAME_HEIGHT)
    ]
    assert sizes() == [1920, 1080]
    camera.capture_live()
    camera.capture_live()
    assert sizes() == [1920, 1080, 1280, 720]  # asked for once, not at every frame
    camera.capture()
    assert sizes() == [1920, 1080, 1280, 720, 1920, 1080]


def test_watch_reads_the_pi_cameras_live_stream(hand_frames, tmp_path, monkeypatch, capsys):
    """``cuberef watch`` without a source: the configured camera's lores frames."""
    fake = StreamingPicamera2([image for _, image in hand_frames], shrink=1)
    made = []

    def picamera(chosen, _clock):
        made.append(PiCamera(width=chosen.width, height=chosen.height, maker=lambda: fake))
        return made[-1]

    monkeypatch.setitem(cameras.BACKENDS, "picamera", picamera)
    config = tmp_path / "box.toml"
    config.write_text('[camera]\nbackend = "picamera"\n')
    count = len(hand_frames)
    argv = ["watch", "--game", "adlib", "--config", str(config), "--frames", str(count)]
    assert main([*argv, "--roll", ROLL, "--json"]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    assert "hands" in {line["state"] for line in lines}
    assert {line["score"] for line in lines} <= {31, None}
    assert lines[-1]["frame"] < count and lines[-1]["score"] == 31
    assert f"stopped after {count} frames, as --frames asks" in err
    assert fake.frames == count  # one frame each, none taken past the last
    assert fake.closed  # the watch let the camera go
