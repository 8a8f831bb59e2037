"""The reader: a photo and a game in, a tray reading or a loose-cube reading out.

Tops are proposed by the learned detector (``vision.tops``) and by colour and edge cuts
(``vision.detect``); a tray's are fitted to its grid (``vision.tray``), loose cubes are
vetted one by one (``vision.loose``); every face is cut from the full-resolution photo and
read by the face model in one batch, and the game's cubes settle doubtful readings
(``vision.assign``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.cubes import CubeSet
from vision import models
from vision.errors import NotAnImage
from vision.loose import read_loose
from vision.reading import LooseReading, TrayReading
from vision.steps import Classifier, GameLike, ModelLook, Steps, editions
from vision.tray import read_tray


def check_image(image: np.ndarray) -> None:
    """Refuse what is not a colour photo of some size, with the sentence saying why."""
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
        raise NotAnImage("The picture is not a colour photo; give a BGR image of 3 channels.")
    if image.dtype != np.uint8:
        raise NotAnImage("The picture is not 8 bits a channel; give a uint8 BGR image.")
    if min(image.shape[:2]) < 16:
        raise NotAnImage(
            f"The picture is only {image.shape[1]}x{image.shape[0]} pixels; give a photo "
            "of the cubes."
        )


def read(
    image: np.ndarray,
    game: GameLike,
    *,
    dice: str | CubeSet | None = None,
    upright: bool = False,
    is_word: Callable[[str], bool] | None = None,
    classifier: Classifier | None = None,
    steps: Steps | None = None,
) -> TrayReading | LooseReading:
    """Read the cubes in a BGR photo (shape: [height, width, 3], uint8) for ``game``.

    Tray games give a ``TrayReading``; Ad-Lib and Scribbage a ``LooseReading`` (with the
    crossword's grid, the right way up, when the cubes are laid out as one). ``dice`` names
    the edition of the cubes; by default the edition that explains the faces best is taken.
    ``upright`` turns a tray so that most letters stand upright. A crossword is always
    turned the right way up: by its letters, and where they disagree by which turn spells
    the most words that ``is_word`` (the game's lexicon; given words in small letters)
    knows. ``classifier`` replaces the
    face model, ``steps`` every step (for evaluations). Raises a ``ReadError`` (exit 2)
    when the photo cannot be read as the game asks.
    """
    check_image(image)
    sets = editions(game, dice)
    steps = steps or Steps(ModelLook(classifier or models.face_model()))
    if game.size > 0:
        return read_tray(image, game, sets, steps, upright)
    return read_loose(image, game, sets, steps, is_word)
