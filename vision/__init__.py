"""The reader: image in, faces with positions and confidences out.

>>> from vision import read, load_image          # doctest: +SKIP
>>> reading = read(load_image("tray.jpg"), find_game("boggle"))  # doctest: +SKIP
>>> reading.board, reading.min_confidence        # doctest: +SKIP
"""

from vision.errors import (
    NoCubesFound,
    NotAnImage,
    ReadError,
    TooBlurred,
    TooSmall,
    TrayCutOff,
    WrongGame,
)
from vision.image import load_image
from vision.reader import read
from vision.reading import FaceReading, LooseReading, TrayReading

__all__ = [
    "FaceReading",
    "LooseReading",
    "NoCubesFound",
    "NotAnImage",
    "ReadError",
    "TooBlurred",
    "TooSmall",
    "TrayCutOff",
    "TrayReading",
    "WrongGame",
    "load_image",
    "read",
]
