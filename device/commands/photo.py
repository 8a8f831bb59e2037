"""Reading a photo for the commands that take one (``solve PHOTO``, ``score PHOTO``),
through the box's own reader (``device.seams.seams.VisionReader``).

The reader's warnings (doubtful faces, cubes not found, a crossword turned the right way
up) go to stderr, so a guess is never passed off as certain; with ``--json`` the whole
reading goes into the document too.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from device.base.inputs import read_bytes
from engine.games import Game

if TYPE_CHECKING:
    import numpy as np

    from device.seams.readings import Reading
    from engine.cubes import CubeSet
    from vision import LooseReading


def read_photo(path: str, game: Game, dice: str | CubeSet | None = None) -> Reading:
    """The reading of ``path`` for ``game``: a TrayReading or a LooseReading."""
    from device.seams.seams import VisionReader

    reading = VisionReader().read_roll(load_photo(path), game, dice)
    _say(reading.warnings)
    return reading


def read_crossword_photo(path: str, game: Game, lexicon: str = "") -> LooseReading:
    """The finished crossword in the photo at ``path``, read as the box reads one."""
    from device.seams.seams import VisionReader

    reading = VisionReader().read_crossword(load_photo(path), game, lexicon)
    _say(reading.warnings)
    return reading


def _say(warnings: tuple[str, ...]) -> None:
    for warning in warnings:
        print(f"cuberef: {warning}", file=sys.stderr)


def load_photo(path: str) -> np.ndarray:
    """The photo at ``path``, read through the input boundary and decoded by vision."""
    from vision.image import MAX_BYTES, decode_image

    return decode_image(read_bytes(path, "the photo", MAX_BYTES), path)


def split_photo(arguments: list[str]) -> tuple[str | None, list[str]]:
    """A photo given among ``NAME=FILE`` lists: the one argument without ``=``.

    >>> split_photo(["tray.jpg", "ann=ann.txt"])
    ('tray.jpg', ['ann=ann.txt'])
    """
    photos = [item for item in arguments if "=" not in item]
    lists = [item for item in arguments if "=" in item]
    if len(photos) > 1:
        from engine.errors import NotationError

        raise NotationError(
            f"Give one photo, not {len(photos)} ({', '.join(photos)}); "
            "word lists are written NAME=FILE."
        )
    return (photos[0] if photos else None), lists
