"""Loading photos: EXIF orientation honoured, size bounded, non-images refused."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.errors import NotAnImage

#: The largest photo accepted, in pixels (a 20 MP camera), and in bytes (such a PNG).
MAX_PIXELS = 20_000_000
MAX_BYTES = 64 * 2**20


def load_image(path: str | Path) -> np.ndarray:
    """Read a photo as a BGR uint8 array (shape: [height, width, 3]), turned upright.

    OpenCV's decoder applies the EXIF orientation tag, so a phone photo taken on its side
    comes out the way its owner saw it.
    """
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as error:
        raise NotAnImage(
            f"Cannot open {str(path)!r} ({error.strerror or error.__class__.__name__}); "
            "give the path of a JPEG or PNG photo."
        ) from None
    return decode_image(data, str(path))


def decode_image(data: bytes, name: str) -> np.ndarray:
    """A photo's bytes (the file called ``name``) as ``load_image`` returns them."""
    if len(data) > MAX_BYTES:
        raise NotAnImage(f"{name!r} is larger than {MAX_BYTES // 2**20} MB; give a smaller photo.")
    buffer = np.frombuffer(data, dtype=np.uint8)
    header = _decode(buffer, cv2.IMREAD_REDUCED_GRAYSCALE_8, name) if buffer.size else None
    if header is None:
        raise NotAnImage(f"{name!r} is not a photo that can be read; give a JPEG or PNG image.")
    # The 1/8 preview tells the size before the full image is decoded.
    if header.shape[0] * header.shape[1] * 64 > MAX_PIXELS * 1.1:
        raise NotAnImage(f"{name!r} is larger than 20 megapixels; give a smaller photo.")
    image = _decode(buffer, cv2.IMREAD_COLOR, name)
    if image is None:
        raise NotAnImage(f"{name!r} is not a photo that can be read; give a JPEG or PNG image.")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        raise NotAnImage(f"{name!r} is larger than 20 megapixels; give a smaller photo.")
    return image


def shrink(image: np.ndarray, scale: float) -> np.ndarray:
    """``image`` resized by ``scale`` (at most 1), averaging every pixel it covers.

    A whole-number factor first (OpenCV's area average is several times faster then), the
    rest on the smaller copy; the pixels lost to rounding are under one output pixel.
    """
    if scale >= 1:
        return image
    height, width = image.shape[:2]
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    whole = int(1 / scale)
    if whole >= 2:
        image = image[: height // whole * whole, : width // whole * whole]
        image = cv2.resize(image, (width // whole, height // whole), interpolation=cv2.INTER_AREA)
    if (image.shape[1], image.shape[0]) == size:
        return image
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def _decode(buffer: np.ndarray, flags: int, name: str) -> np.ndarray | None:
    try:
        return cv2.imdecode(buffer, flags)
    except cv2.error as error:  # OpenCV raises where a header promises too many pixels
        if "validateInputImageSize" in str(error):
            raise NotAnImage(
                f"{name!r} is larger than 20 megapixels; give a smaller photo."
            ) from None
        raise NotAnImage(
            f"{name!r} is not a photo that can be read; give a JPEG or PNG image."
        ) from None
