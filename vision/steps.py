"""The reader's steps and what they need, each replaceable (an evaluation replaces them;
the product uses the defaults): finding tops, carving tops out of blobs, and looking at a
face (cutting it out and asking the face model).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from engine.cubes import CubeSet
from vision.carve import carve_faces
from vision.crop import CROP, cut_face, sharpness
from vision.detect import FaceQuad, pieces
from vision.errors import TooBlurred, TooSmall
from vision.find import find_tops
from vision.narrow import look_again
from vision.prediction import FacePrediction

#: Below this sharpness (the Laplacian's variance over the grey levels' variance, on a
#: 64-pixel crop) a face is too blurred to read; a photo most of whose faces are, is.
MIN_SHARPNESS = 0.02
#: ... and where the faces are narrower than this many pixels, it is too small, not blurred.
SMALLEST = 32
#: ... unless the model reads it with near certainty all the same (as sure as a face
#: looked for in a gap must be read).
SURE = 0.97


class GameLike(Protocol):
    """What the reader needs of a game (``engine.games.Game`` has it)."""

    @property
    def id(self) -> str: ...

    @property
    def size(self) -> int: ...

    #: (name ``--dice`` takes, cube set) for each edition the game was sold in, default first.
    @property
    def dice(self) -> tuple[tuple[str, str], ...]: ...

    def cube_set(self, dice: str | CubeSet | None = None) -> CubeSet: ...


class Classifier(Protocol):
    """What the reader needs of the face model (``vision.classifier.FaceClassifier``)."""

    @property
    def input_size(self) -> int: ...

    def classify(self, crops: Sequence[np.ndarray]) -> list[FacePrediction]: ...


def editions(game: GameLike, dice: str | CubeSet | None) -> list[CubeSet]:
    """The cube sets a reading may come from: the one asked for, else every edition."""
    if dice is not None:
        return [game.cube_set(dice)]
    return [game.cube_set(name) for name, _ in game.dice]


Accept = Callable[[list[FaceQuad]], bool]
Small = tuple[np.ndarray, float]


class Find(Protocol):
    """Proposes the tops in a photo (``vision.find.find_tops``)."""

    def __call__(
        self, image: np.ndarray, accept: Accept | None = None, small: Small | None = None
    ) -> list[FaceQuad]: ...


class Carve(Protocol):
    """Proposes tops in blobs of cube left over (``vision.carve.carve_faces``)."""

    def __call__(
        self, image: np.ndarray, quads: list[FaceQuad], small: Small | None = None
    ) -> list[list[FaceQuad]]: ...


class Look(Protocol):
    """Reads the face in each quadrilateral of a photo; with ``check``, refuses a photo too
    blurred, or whose cubes are too small, to read; with ``cubes``, each quadrilateral is
    known to hold a cube (a tray's cell), so a face taken for none is in doubt."""

    def __call__(
        self,
        image: np.ndarray,
        corners: Sequence[np.ndarray],
        check: bool = True,
        cubes: bool = False,
    ) -> list[FacePrediction]: ...


@dataclass(frozen=True, slots=True)
class ModelLook:
    """Looking with the face model: each face cut from the full photo, one batch."""

    model: Classifier

    def __call__(
        self,
        image: np.ndarray,
        corners: Sequence[np.ndarray],
        check: bool = True,
        cubes: bool = False,
    ) -> list[FacePrediction]:
        crops = [cut_face(image, c, CROP) for c in corners]
        read = self._classify(crops) if crops else []
        # A doubted face of a narrow print (a condensed O) is looked at again, widened.
        read = look_again(self._classify, crops, read, cubes)
        if check:
            judge(crops, corners, read)
        return read

    def _classify(self, crops: Sequence[np.ndarray]) -> list[FacePrediction]:
        """The model's reading of crops cut at ``CROP``, sized to its input."""
        size = self.model.input_size
        if size != CROP:
            crops = [cv2.resize(c, (size, size), interpolation=cv2.INTER_AREA) for c in crops]
        return self.model.classify(crops)


def judge(
    crops: Sequence[np.ndarray], corners: Sequence[np.ndarray], read: Sequence[FacePrediction]
) -> None:
    """Refuse a photo too blurred, or whose cubes are too small, to read (``TooBlurred``,
    ``TooSmall``), judged on the faces read in ``crops`` (cut at ``corners``)."""
    # Judged on what the model takes for faces: a speck of table may be soft anyway. A
    # face the model reads surely is readable however soft (a large plain face has little
    # fine detail), and so is a sharp one; the photo is refused where most faces are
    # neither, or half are and none is both. Each face counts for itself: a sharp cube read
    # surely is not refused because a doubtful, soft find beside it (a piece of a hidden
    # cube, the value in its corner) pulls a median down.
    # A piece of a face (a stroke of its letter, read as a face of its own) is no face
    # to judge by: a large sharp face with two such pieces is no small, blurred one.
    faces = [k for k, p in enumerate(read) if p.is_face]
    whole = ~pieces([corners[k] for k in faces], [corners[k] for k in faces])
    faces = [k for k, w in zip(faces, whole, strict=True) if w]
    sharp = {k: sharpness([crops[k]]) >= MIN_SHARPNESS for k in faces}
    unreadable = [k for k in faces if read[k].confidence < SURE and not sharp[k]]
    # A tie goes to the photo where a face in it is both sharp and read surely.
    focused = any(read[k].confidence >= SURE and sharp[k] for k in faces)
    most, half = 2 * len(unreadable) > len(faces), 2 * len(unreadable) == len(faces) > 0
    if most or (half and not focused):
        wide = float(np.median([np.linalg.norm(corners[k][1] - corners[k][0]) for k in unreadable]))
        if wide < SMALLEST:
            raise TooSmall(
                f"The cubes are only about {wide:.0f} pixels wide in the photo, too small "
                "to read their letters; come closer or zoom in, then take it again."
            )
        raise TooBlurred(
            "The photo is too blurred to read the letters; hold the camera still and "
            "let it focus, then take it again."
        )


@dataclass(frozen=True, slots=True)
class Steps:
    """The reader's steps."""

    look: Look
    find: Find = field(default=find_tops)
    carve: Carve = field(default=carve_faces)
