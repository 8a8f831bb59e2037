"""Letters that are one another turned: an N turned a quarter is a Z, an M turned half is a
W. A cube lying loose may lie at any turn, so its print alone cannot tell them apart; its
own marks can. A Boggle kit underlines M, W and Z (some N too), and an Ad-Lib face prints
its value small in its lower right corner: either shows which way is up.

The mark is the ink beside the letter (the letter being the largest piece of ink on the
face): where it lies from the letter, below it or towards a corner, is the face's up. The
model's reading of the print's turn then says which of the two letters stands that way up;
where no mark shows, or the turns do not tell, the face stays either, and the reader flags
it (``vision.loose``).
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from engine.faces import ALPHABET
from vision.crop import CROP_MARGIN
from vision.prediction import FacePrediction

#: Each letter that another letter turned looks like: that letter, and the clockwise turn.
LOOK_ALIKE = {"N": ("Z", 90), "Z": ("N", 90), "M": ("W", 180), "W": ("M", 180)}
#: The share of the face (about its centre) looked at for ink: a little past the face found
#: (a value printed near its corner lies at its edge), short of a neighbour's print.
INSIDE = 1.05
#: A mark is at least this share of the letter's ink (a speck of dust is less) ...
LEAST_MARK = 0.04
#: ... and of this many pieces at most (a value's digits, an underline's dots): more is noise.
MOST_PIECES = 3
#: The print stands out from its face by at least this many grey levels (ink from ground,
#: their medians): a face too dark or soft for that shows no mark to trust.
CONTRAST = 60
#: ... and lies at least this far from the letter's centre (in the letter's sizes).
APART = 0.35
#: Where it lies is read within this many degrees of below the letter (an underline) or of
#: its lower right (a value); between the two nothing is read.
WITHIN = 15.0
#: One turn of the print tells the letter where the model puts this many times as much
#: likelihood on it as on the other letter's: to confirm the letter the model read ...
DECIDES = 3.0
#: ... and to overturn it, far more (a mark misread must not undo a sure reading).
OVERTURNS = 10.0


def look_alikes(face: str) -> tuple[str, ...]:
    """``face`` and the letter it is turned, where it is one of two alike but for their
    turn; () where it is not.

    >>> look_alikes("N"), look_alikes("A")
    (('N', 'Z'), ())
    """
    return (face, LOOK_ALIKE[face][0]) if face in LOOK_ALIKE else ()


def mark_up(crop: np.ndarray) -> int | None:
    """The clockwise turn (0, 90, 180 or 270) of the print on a face cut with
    ``CROP_MARGIN`` that its mark shows: an underline below the letter, or a value towards
    the letter's lower right, as the print stands upright. None where no mark shows.

    >>> face = np.full((64, 64, 3), 230, np.uint8)
    >>> face[16:42, 22:42] = 20  # the letter
    >>> print(mark_up(face))
    None
    >>> face[46:50, 22:42] = 20  # an underline
    >>> mark_up(face), mark_up(np.ascontiguousarray(np.rot90(face)))
    (0, 270)
    """
    size = crop.shape[0]
    side = size / CROP_MARGIN * INSIDE
    start, end = round((size - side) / 2), round((size + side) / 2)
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)[start:end, start:end]
    _, ink = cv2.threshold(grey, 0, 1, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if ink.mean() > 0.5:  # the print is the lesser part of the face, dark or light
        ink = 1 - ink
    if not ink.any() or ink.all():
        return None
    if abs(float(np.median(grey[ink == 0])) - float(np.median(grey[ink > 0]))) < CONTRAST:
        return None
    count, _, stats, centres = cv2.connectedComponentsWithStats(ink.astype(np.uint8))
    if count < 3:
        return None
    left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    right = left + stats[:, cv2.CC_STAT_WIDTH]
    bottom = top + stats[:, cv2.CC_STAT_HEIGHT]
    # What touches the edge of the part looked at is the cube's edge (its rounded corner,
    # the table past it), neither letter nor mark.
    edge = (left == 0) | (top == 0) | (right == ink.shape[1]) | (bottom == ink.shape[0])
    areas = np.where(edge, 0, stats[:, cv2.CC_STAT_AREA])
    areas[0] = 0  # the ground
    letter = int(np.argmax(areas))
    if not areas[letter]:
        return None
    extent = float(max(stats[letter, cv2.CC_STAT_WIDTH], stats[letter, cv2.CC_STAT_HEIGHT]))
    # A mark lies beside the letter, its centre outside the letter's box (a piece of the
    # letter itself, cut off by a soft stroke, lies inside it).
    beside = (
        (centres[:, 0] < left[letter])
        | (centres[:, 0] > right[letter])
        | (centres[:, 1] < top[letter])
        | (centres[:, 1] > bottom[letter])
    )
    marks = [
        k
        for k in range(1, count)
        if k != letter
        and beside[k]
        and not edge[k]
        and stats[k, cv2.CC_STAT_AREA] >= LEAST_MARK * stats[letter, cv2.CC_STAT_AREA]
    ]
    if not marks or len(marks) > MOST_PIECES:
        return None
    weights = stats[marks, cv2.CC_STAT_AREA].astype(np.float64)
    where = (centres[marks] * weights[:, None]).sum(0) / weights.sum() - centres[letter]
    if np.hypot(*where) < APART * extent:
        return None
    angle = math.degrees(math.atan2(where[1], where[0]))  # y grows downwards
    # Below the letter (90 degrees) or towards its lower right (45), as it stands upright;
    # the print turned clockwise turns them with it.
    for turn in (0, 90, 180, 270):
        for towards in (90.0, 45.0):
            if abs((angle - towards - turn + 180) % 360 - 180) <= WITHIN:
                return turn
    return None


def settled(prediction: FacePrediction, up: int | None) -> FacePrediction:
    """``prediction`` of a face whose mark shows it turned ``up`` (None: no mark), with a
    letter that another turned looks like settled: all the likelihood of the two put on
    the one whose print stands that way up, where the model's turns tell (``marked``)."""
    if up is None or prediction.face not in LOOK_ALIKE:
        return prediction
    other, turn = LOOK_ALIKE[prediction.face]
    turns = prediction.orientation_probabilities

    def support(offset: int) -> float:
        # A letter alike turned half (N, Z) stands as well upside down.
        ways = (offset, offset + 180) if turn == 90 else (offset,)
        return sum(turns[(up + way) // 90 % 4] for way in ways)

    own, others = support(0), support(turn)
    if own >= DECIDES * others:
        chosen = prediction.face
    elif others >= OVERTURNS * own:
        chosen = other
    else:
        return prediction
    probabilities = list(prediction.probabilities)
    mine, theirs = ALPHABET.index(chosen), ALPHABET.index(LOOK_ALIKE[chosen][0])
    probabilities[mine] += probabilities[theirs]
    probabilities[theirs] = 0.0
    return replace(
        prediction,
        face=chosen,
        orientation=up,
        confidence=probabilities[mine],
        probabilities=tuple(probabilities),
        marked=True,
    )
