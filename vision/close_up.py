"""A cube that fills the frame: a close-up of one cube, its rounded edges cut off by the
frame, often in soft focus. With no table round it the finder tells no top there, or only
pieces of its print; the frame itself is then looked at as one face.

The face is looked for in squares about the frame's centre, from a little inside the frame
to well past it (the print of a cube held close is larger than the frame's share a top's
print takes in a crop); where a square reaches past the frame, the face continues in the
colour of the frame's edge, as the cube's own face does. The model reads the squares from
a small copy of the photo (it reads faces 32 pixels wide: a close-up's soft print is sharp
enough there), and the surest face it reads is the cube.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import FaceQuad
from vision.prediction import FacePrediction
from vision.steps import Look

#: The squares' sides, as shares of the frame's shorter side.
FILLS = (0.8, 1.0, 1.25, 1.6)
#: The squares are cut from a copy this many pixels on the frame's shorter side.
LOOK_SIDE = 192


def frame_face(
    image: np.ndarray, look: Look, small: tuple[np.ndarray, float] | None = None
) -> tuple[FaceQuad, FacePrediction] | None:
    """The face the model reads most surely in the squares about the frame's centre (in
    the photo's pixels, reaching past the frame where a square does), and what it read
    there; None where it reads no face in any of them. ``small``: a smaller copy of the
    photo and the factor back to its size, where the caller has one."""
    height, width = image.shape[:2]
    short = min(height, width)
    copy, back = small or (image, 1.0)
    shrink = min(1.0, LOOK_SIDE / min(copy.shape[:2]))
    scale = shrink / back  # from the photo's pixels to the copy's
    small_copy = cv2.resize(copy, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    # Room round the copy for the largest square, in the colour of the frame's edge.
    reach = int(np.ceil((max(FILLS) * short * scale - min(small_copy.shape[:2])) / 2)) + 2
    padded = cv2.copyMakeBorder(small_copy, reach, reach, reach, reach, cv2.BORDER_REPLICATE)
    centre = np.array([(width - 1) / 2, (height - 1) / 2])
    unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) / 2
    squares = [centre + unit * share * short for share in FILLS]
    read = look(padded, [(s + 0.5) * scale - 0.5 + reach for s in squares], check=False)
    faces = [k for k, p in enumerate(read) if p.is_face]
    if not faces:
        return None
    best = max(faces, key=lambda k: read[k].confidence)
    side = FILLS[best] * short
    centre_xy = (float(centre[0]), float(centre[1]))
    return FaceQuad(squares[best], centre_xy, side, 0.0), read[best]
