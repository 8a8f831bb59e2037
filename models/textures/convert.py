"""Convert one texture (a GIMP/Krita .pat pattern or a PNG) to a small JPEG.

    python models/textures/convert.py SOURCE OUT.jpg

Images wider or taller than 512 pixels are cut to their middle 512 x 512 (the felt of a
card table, not its rim).
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import numpy as np
from PIL import Image

LARGEST = 512


def read_pattern(path: Path) -> Image.Image:
    """A GIMP pattern (.pat): a header (its size, version, width, height, channels,
    'GPAT', the name), then the pixels row by row."""
    data = path.read_bytes()
    header, _version, width, height, channels = struct.unpack(">5I", data[:20])
    if data[20:24] != b"GPAT":
        raise ValueError(f"{path} is not a GIMP pattern")
    pixels = np.frombuffer(data[header : header + width * height * channels], np.uint8)
    pixels = pixels.reshape(height, width, channels)
    if channels in (1, 2):  # grey, or grey and alpha: the grey is what a table shows
        return Image.fromarray(np.ascontiguousarray(pixels[..., 0]))
    return Image.fromarray(np.ascontiguousarray(pixels[..., :3]))


def main(source: str, out: str) -> None:
    path = Path(source)
    image = read_pattern(path) if path.suffix == ".pat" else Image.open(path)
    grey = image.mode in ("L", "LA", "I", "I;16")
    image = image.convert("L" if grey else "RGB")
    width, height = image.size
    if width > LARGEST or height > LARGEST:
        left, top = max(0, (width - LARGEST) // 2), max(0, (height - LARGEST) // 2)
        image = image.crop((left, top, left + min(width, LARGEST), top + min(height, LARGEST)))
    image.save(out, "JPEG", quality=88, optimize=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])
