"""Where live reading takes its frames from: a folder of frames (in name order, each read
as soon as the last was seen), a video file, or the camera's live stream (until stopped).

``open_source`` checks the source before anything is read: a folder that is missing or
holds no frames, a file that is no video, or no camera at all is one sentence (exit 2).
A frame of a folder that cannot be decoded is skipped with a warning, keeping its number;
a camera that fails while it streams is a failure of the machine (exit 1).
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from pathlib import Path
from typing import Any

import numpy as np

from device.base.inputs import pictures_in
from device.config.sections import CameraSettings
from device.parts.camera import Camera, open_camera
from device.parts.guarded_camera import GuardedCamera
from engine.errors import CuberefError, MachineError

log = logging.getLogger("cuberef.frames")

#: Frames in order: each an image, or None for one that could not be decoded.
Frames = Generator[np.ndarray | None, None, None]


def open_source(source: str | None, camera: CameraSettings | None = None) -> Frames:
    """The frames of ``source``: a folder, a video file, or (None) the camera that the
    ``[camera]`` settings ``camera`` describe."""
    if source is None:
        from device.config.settings import defaults

        return _camera_frames(camera or defaults().camera)
    path = Path(source)
    if path.is_dir():
        return _folder_frames(path)
    if path.is_file():
        return _video_frames(path)
    raise CuberefError(
        f"There is no folder or video file {source!r}; give a folder of frames, a video "
        "file, or no source to watch the camera."
    )


def _folder_frames(folder: Path) -> Frames:
    photos = pictures_in(folder)
    if not photos:
        raise CuberefError(
            f"The folder {str(folder)!r} holds no frames; give a folder of JPEG or PNG photos."
        )
    return _decoded(photos)


def _decoded(photos: list[Path]) -> Frames:
    from vision.errors import NotAnImage
    from vision.image import load_image

    for photo in photos:
        try:
            yield load_image(photo)
        except NotAnImage as error:
            log.warning("frame %s skipped: %s", photo.name, error)
            yield None


def _video_frames(path: Path) -> Frames:
    import cv2

    video = cv2.VideoCapture(str(path))
    ok, first = video.read() if video.isOpened() else (False, None)
    if not ok or first is None:
        video.release()
        raise CuberefError(
            f"{str(path)!r} is not a video that can be read; give a video file (MP4, AVI, "
            "MKV) or a folder of frames."
        )
    return _played(video, first)


def _played(video: Any, first: np.ndarray) -> Frames:
    try:
        frame: np.ndarray | None = first
        while frame is not None:
            yield np.ascontiguousarray(frame[:, :, :3])
            ok, frame = video.read()
            if not ok:
                frame = None
    finally:
        video.release()


def _camera_frames(settings: CameraSettings) -> Frames:
    notices: list[str] = []
    try:
        first: Camera | None = open_camera(settings, notices)
    except MachineError as error:  # no camera at all: the source is wrong, not the machine
        raise CuberefError(
            f"{str(error).rstrip('.')}; give a folder of frames or a video file to watch."
        ) from None
    for notice in notices:
        log.warning(notice)

    def opener() -> Camera:
        # The camera opened above first; one dropped after a failure is opened afresh.
        nonlocal first
        opened, first = first, None
        return opened or open_camera(settings, [])

    return _streamed(GuardedCamera(opener))


def _streamed(camera: GuardedCamera) -> Frames:
    try:
        while True:
            yield camera.capture_live()
    finally:
        camera.close()
