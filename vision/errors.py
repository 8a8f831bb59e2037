"""What can go wrong when reading a photo, each as one sentence a player understands.

All are ``CuberefError`` subclasses, so the command line prints the sentence and exits 2.
"""

from __future__ import annotations

from engine.errors import CuberefError


class ReadError(CuberefError):
    """The photo cannot be read as the game asks."""


class NotAnImage(ReadError):
    """The file is not a photo (or is too large to be one)."""


class NoCubesFound(ReadError):
    """Nothing that looks like a tray or a cube is in the photo."""


class TooBlurred(ReadError):
    """The photo is too blurred for the letters to be read."""


class TooSmall(ReadError):
    """The cubes take too few pixels of the photo for the letters to be read."""


class TrayCutOff(ReadError):
    """Part of the tray lies outside the photo."""


class WrongGame(ReadError):
    """The photo shows a different tray or number of cubes than the game needs."""
