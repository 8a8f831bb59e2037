"""Where something stands out from the table: small bright or coloured spots, far from the
colour of their neighbourhood, that may be cubes too small for the detector's look at the
whole photo (a cube 40 pixels wide in a 12 MP photo is 4 pixels of the detector's input).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.image import shrink

#: The copy looked at: its longer side, in pixels (a 40-pixel cube of a 12 MP photo is 6 of
#: them), the neighbourhood each pixel is set against, the spot it is averaged over and the
#: least distance between two spots (in the copy's pixels).
SIDE, AROUND, SPOT, APART = 640, 27, 5, 19
#: Light varies across a table more than colour does.
LIGHTNESS = 0.5
#: A spot is kept where it stands out at least this share as much as the strongest does,
#: and at least this many times as much as the copy's typical pixel.
SHARE, TYPICAL = 0.25, 3.0


def standing_out(
    image: np.ndarray, most: int, small: tuple[np.ndarray, float] | None = None
) -> list[tuple[float, float]]:
    """The centres (x, y in the photo's pixels) of at most ``most`` spots that stand out from
    their neighbourhood in a BGR photo, the strongest first. ``small``: a copy of the photo
    ``SIDE`` pixels long and the factor back to full size (``vision.detect.downscale``'s),
    where the caller has it."""
    if small is None:
        small = (shrink(image, min(1.0, SIDE / max(image.shape[:2]))), 0.0)
    copy = small[0]
    lab = cv2.cvtColor(copy, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] *= LIGHTNESS
    difference = cv2.subtract(lab, cv2.blur(lab, (AROUND, AROUND)))
    squared = cv2.transform(cv2.multiply(difference, difference), np.ones((1, 3), np.float32))
    spots = cv2.blur(cv2.sqrt(squared), (SPOT, SPOT))
    peaks = spots >= cv2.dilate(spots, np.ones((APART, APART), np.uint8))
    ys, xs = np.nonzero(peaks)
    values = spots[ys, xs]
    if not len(values):
        return []
    least = max(SHARE * float(values.max()), TYPICAL * float(np.median(spots)))
    order = [k for k in np.argsort(-values)[:most] if values[k] >= least]
    back = copy.shape[1] / image.shape[1]
    return [(float((xs[k] + 0.5) / back - 0.5), float((ys[k] + 0.5) / back - 0.5)) for k in order]
