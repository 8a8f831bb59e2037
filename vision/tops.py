"""Find cube tops with the committed detector model (ONNX, run by onnxruntime).

The detector answers, for every cell of a grid four times coarser than its input, how
likely a top face's centre lies there and the face's shape (``models.tops``); its peaks
are the faces. It sees tops the colour cuts of ``vision.detect`` cannot: in touching
clusters, beside lit sides that show letters too, at a slant, under a hand or a drawn line.
"""

from __future__ import annotations

import math
from dataclasses import replace
from importlib.resources import files
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.detect import PIECE, FaceQuad, inside, ordered, width
from vision.image import shrink
from vision.onnx import open_model
from vision.standout import standing_out
from vision.topshape import (
    COS4,
    DX,
    DY,
    HEAT,
    INPUT_SIDE,
    SIN4,
    SIZE,
    TopShape,
    U,
    V,
    decode,
    from_grid,
)
from vision.topshape import input_size as network_size

MODEL_NAME = "cube_tops.onnx"
#: A peak of the heat at least this high is a face the reader looks at.
MIN_HEAT = 0.3
#: Tops found narrower than this many input pixels, in a part of the photo at most this share
#: of it, are looked at again there, closer (tops a few pixels wide come out too large).
ZOOM_BELOW, ZOOM_AREA = 24.0, 0.5
#: The photo is looked at again from this much farther (the zoom; a large top comes out too
#: small, and vague); where a top was found at least this many input pixels wide, each top
#: seen from there is weighed against the nearer look's, else only those ``FAR_WHOLE`` wide.
ZOOM_OUT, ZOOM_OUT_ABOVE = 0.5, 24.0
#: ... where a top found from farther is this much wider, it is the whole of the nearer one
#: (and of the pieces of it found beside it).
WHOLER = 1.25
#: A top found from farther at least this many input pixels wide is one the detector sees
#: whole there, and surely (it is sure of tops 8 to 45 input pixels wide, and splits larger
#: ones): it is the whole of whatever the nearer look found inside it, halves as well as
#: pieces.
FAR_WHOLE = 16.0
#: Where the detector found no top, or tops narrower than this many input pixels over much of
#: the photo (it is unsure of tops under 8 wide), it looks closer at what stands out from the
#: table: at most ``CLOSER_CROPS`` squares this share of the photo's longer side (a 40-pixel
#: cube of a 12 MP photo comes out 19 input pixels wide there), never smaller than its input.
SPECK, CLOSER, CLOSER_CROPS = 8.0, 0.2, 6
#: One cube may fill much of the frame, as in a close-up: the detector also looks from much
#: farther, the photo shrunk to ``AFAR`` of its input on the table's colour all round (a top
#: filling most of the frame's height comes out 35-70 input pixels wide there), and a top
#: seen there ``AFAR_WHOLE`` input pixels wide or more (a quarter of the photo) stands for
#: the parts of it seen nearer. Smaller ones are not trusted: an ordinary top, a few input
#: pixels wide there, comes out two or three times too large.
AFAR, AFAR_WHOLE = 1 / 3, 32.0


class TopDetector:
    """The detector in an onnxruntime session; ``find`` returns the tops in a photo."""

    def __init__(self, session: ort.InferenceSession) -> None:
        self._session = session

    @classmethod
    def load(cls, path: Path | None = None) -> TopDetector:
        """Open the committed model (or the ONNX file at ``path``), checking its SHA-256."""
        session, _ = open_model(
            path or Path(str(files("models") / MODEL_NAME)), "The cube-top detector"
        )
        return cls(session)

    def heat(
        self, image: np.ndarray, zoom: float = 1.0, small: np.ndarray | None = None
    ) -> tuple[np.ndarray, float]:
        """The network's raw answer for a BGR photo (shape: [CHANNELS, h, w]) and the factor
        from photo pixels to input pixels (``zoom`` times the usual one). ``small``: the
        photo shrunk to the network's input, where the caller has it."""
        height, width, scale = network_size(image.shape[0], image.shape[1], zoom)
        if small is None:
            small = shrink(image, scale)
        batch = np.zeros((1, 3, height, width), np.float32)
        # The photo fills the top left; the rest repeats its edges (no false border).
        padded = cv2.copyMakeBorder(
            small,
            0,
            height - small.shape[0],
            0,
            width - small.shape[1],
            cv2.BORDER_REPLICATE,
        )
        batch[0] = padded.transpose(2, 0, 1) * np.float32(1 / 255)
        (out,) = self._session.run(None, {"image": batch})
        used = np.asarray(out[0])[
            :, : math.ceil(small.shape[0] / 4), : math.ceil(small.shape[1] / 4)
        ]
        return used, small.shape[1] / image.shape[1]

    def find(
        self,
        image: np.ndarray,
        min_heat: float = MIN_HEAT,
        small: tuple[np.ndarray, float] | None = None,
    ) -> list[FaceQuad]:
        """Every top face in a BGR photo, in its pixels, surest first.

        Cubes that take only a part of the frame (a tray a tenth of it, a roll seen from
        afar) come out a few input pixels wide, and too large as well as vague; the part of
        the photo they lie in is then looked at again, closer. A cube that fills much of
        the frame comes out whole from farther, where the photo is looked at too. Where
        nothing is found, or specks over much of the photo, what stands out from the table
        is looked at closer (``small``: ``vision.detect.downscale``'s copy, where the caller
        has it).
        """
        height, width = image.shape[:2]
        scale = network_size(height, width)[2]
        # The photo as the detector sees it, shrunk once for the look from much farther too.
        copy = shrink(image, scale)
        quads = self._find(image, min_heat, small=copy)
        if not quads:
            afar = self._afar(image, min_heat, copy)
            return afar or self._closer(image, quads, min_heat, small)
        # A cube that fills much of the frame comes out too small (the middle of its top),
        # or in halves: seen from twice as far, it comes out whole.
        far = self._find(image, min_heat, ZOOM_OUT)
        sure = FAR_WHOLE / (scale * ZOOM_OUT)
        if max(q.side for q in quads) * scale < ZOOM_OUT_ABOVE:
            far = [q for q in far if q.side >= sure]
        quads = _wholer(quads, far, sure)
        # One cube filling much of the frame, seen whole from much farther, stands for every
        # part of it found nearer.
        quads = _wholer(quads, self._afar(image, min_heat, copy), AFAR_WHOLE / (scale * AFAR))
        side = float(np.median([q.side for q in quads]))
        if side * scale >= ZOOM_BELOW:
            return quads
        corners = np.concatenate([q.corners for q in quads])
        # A part under half a closer look's square is grown to one: specks close together
        # are too few pixels to look at alone (a cube 40 pixels wide of a 12 MP photo comes
        # out as a cluster of 10-pixel specks). A larger part, a crossword of small cubes,
        # is looked at as it is: grown, its cubes came out too small to tell apart.
        low, high = corners.min(0) - side, corners.max(0) + side
        square = _closer_side(height, width)
        grow = np.maximum(square - (high - low), 0) / 2 if max(high - low) < square / 2 else 0.0
        x0, y0 = np.maximum(np.floor(low - grow), 0).astype(int)
        x1, y1 = np.ceil(high + grow).astype(int)
        x1, y1 = min(x1, width), min(y1, height)
        if (x1 - x0) * (y1 - y0) > ZOOM_AREA * height * width:
            # Specks over much of the photo: each looked at closer where it lies.
            return self._closer(image, quads, min_heat, small) if side * scale < SPECK else quads
        closer = [_moved(q, x0, y0) for q in self._find(image[y0:y1, x0:x1], min_heat)]
        quads = _beside(closer, quads)
        if side * scale >= SPECK:
            return quads
        # Specks: other cubes as small may lie beyond them, missed as well.
        return self._closer(image, quads, min_heat, small, (x0, y0, x1, y1))

    def _afar(self, image: np.ndarray, min_heat: float, copy: np.ndarray) -> list[FaceQuad]:
        """The tops seen whole (``AFAR_WHOLE`` input pixels wide or more) in the photo shrunk
        to ``AFAR`` of the detector's input, in the middle of a frame of the colour round its
        edge (as a table round a close-up). ``copy``: the photo as the detector's look at
        all of it sees it."""
        height, width = image.shape[:2]
        copy = shrink(copy, AFAR * INPUT_SIDE / max(copy.shape[:2]))
        rows, cols = copy.shape[:2]
        top, left = round(rows * (1 / AFAR - 1) / 2), round(cols * (1 / AFAR - 1) / 2)
        edge = np.concatenate((copy[0], copy[-1], copy[:, 0], copy[:, -1]))
        colour = [float(v) for v in np.median(edge, axis=0)]
        canvas = cv2.copyMakeBorder(copy, top, top, left, left, cv2.BORDER_CONSTANT, value=colour)
        back = width / cols
        out = []
        for quad in self._find(canvas, min_heat):
            if quad.side < AFAR_WHOLE:
                continue
            corners = (quad.corners - np.array([left, top]) + 0.5) * back - 0.5
            centre = corners.mean(0)
            out.append(
                replace(
                    quad,
                    corners=corners,
                    center=(float(centre[0]), float(centre[1])),
                    side=quad.side * back,
                )
            )
        return out

    def _closer(
        self,
        image: np.ndarray,
        quads: list[FaceQuad],
        min_heat: float,
        small: tuple[np.ndarray, float] | None,
        looked: tuple[int, int, int, int] | None = None,
    ) -> list[FaceQuad]:
        """``quads`` (none, or specks) with what a closer look finds around each of them and
        around what stands out from the table, outside the box ``looked`` at closer already
        (x0, y0, x1, y1): squares of ``CLOSER`` of the photo, each centred on a spot no other
        square holds well inside it. A top the square's edge cuts is left to the square
        centred on it."""
        height, width = image.shape[:2]
        crop = _closer_side(height, width)
        spots = [q.center for q in quads] + standing_out(image, CLOSER_CROPS, small)
        if looked is not None:
            spots = [
                (x, y)
                for x, y in spots
                if not (looked[0] <= x < looked[2] and looked[1] <= y < looked[3])
            ]
        corners: list[tuple[int, int]] = []
        for x, y in spots:
            if len(corners) == CLOSER_CROPS:
                break
            if any(
                abs(x - (x0 + crop / 2)) < crop / 3 and abs(y - (y0 + crop / 2)) < crop / 3
                for x0, y0 in corners
            ):
                continue
            x0 = int(min(max(round(x - crop / 2), 0), width - crop))
            y0 = int(min(max(round(y - crop / 2), 0), height - crop))
            corners.append((x0, y0))
        found = []
        for x0, y0 in corners:
            for quad in self._find(image[y0 : y0 + crop, x0 : x0 + crop], min_heat):
                low, high = quad.corners.min(0), quad.corners.max(0)
                # Each edge of the square: the top lies within it, or it is the photo's.
                whole = (
                    low[0] >= 0 or x0 == 0,
                    low[1] >= 0 or y0 == 0,
                    high[0] <= crop or x0 + crop >= width,
                    high[1] <= crop or y0 + crop >= height,
                )
                if all(whole):
                    found.append(_moved(quad, x0, y0))
        # Squares overlap: the surest find of a top stands for it.
        return _beside(_surest(found), quads)

    def _find(
        self,
        image: np.ndarray,
        min_heat: float,
        zoom: float = 1.0,
        small: np.ndarray | None = None,
    ) -> list[FaceQuad]:
        out, scale = self.heat(image, zoom, small)
        heat = np.ascontiguousarray(out[HEAT])
        peaks = (heat >= min_heat) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
        quads = []
        for y, x in zip(*np.nonzero(peaks), strict=True):
            cell = out[:, y, x]
            shape = TopShape(
                float(x + cell[DX]),
                float(y + cell[DY]),
                float(math.exp(min(float(cell[SIZE]), 8.0))),
                float(cell[U]),
                float(cell[V]),
                math.atan2(float(cell[SIN4]), float(cell[COS4])) / 4,
            )
            corners = (np.asarray(from_grid(decode(shape))) + 0.5) / scale - 0.5
            corners = ordered(corners)
            centre = corners.mean(0)
            side = width(corners)
            edge = corners[1] - corners[0]
            angle = (math.degrees(math.atan2(edge[1], edge[0])) + 45) % 90 - 45
            quads.append(
                FaceQuad(
                    corners,
                    (float(centre[0]), float(centre[1])),
                    side,
                    angle,
                    float(heat[y, x]),
                    learned=True,
                )
            )
        # A large face may show several peaks: the surest stands for it.
        return _surest(quads)


def _surest(quads: list[FaceQuad]) -> list[FaceQuad]:
    """Of finds that lie on one cube (cubes cannot overlap), the surest, surest first."""
    kept: list[FaceQuad] = []
    for quad in sorted(quads, key=lambda q: -q.score):
        if not any(_overlap(quad, other) for other in kept):
            kept.append(quad)
    return kept


def _wholer(near: list[FaceQuad], far: list[FaceQuad], sure: float = math.inf) -> list[FaceQuad]:
    """``near``, each top that a top of ``far`` holds whole, and larger, in its stead: a
    part of a face is inside it, with at most pieces of that part beside it, and no other
    top lies there (cubes cannot overlap). A top of ``far`` at least ``sure`` pixels wide
    is seen whole surely: it stands for every part inside it, halves of it as well."""
    out = list(near)
    for whole in far:
        held = [k for k, q in enumerate(out) if _overlap(q, whole)]
        if not held:
            continue
        # The largest part stands for the top; smaller ones beside it inside the whole are
        # pieces of it (the value in its corner), where another top would be as large.
        largest = max(held, key=lambda k: out[k].side)
        part = out[largest]
        pieces = whole.side >= sure or all(
            out[k].side < PIECE * part.side and inside(np.array(out[k].center), whole.corners)
            for k in held
            if k != largest
        )
        if (
            pieces
            and whole.side >= WHOLER * part.side
            and inside(np.array(part.center), whole.corners)
        ):
            out = [
                whole if k == largest else q
                for k, q in enumerate(out)
                if k not in held or k == largest
            ]
    return out


def _closer_side(height: int, width: int) -> int:
    """The side of a closer look's square in a photo of ``height`` by ``width`` pixels."""
    return min(max(INPUT_SIDE, round(CLOSER * max(height, width))), height, width)


def _beside(closer: list[FaceQuad], quads: list[FaceQuad]) -> list[FaceQuad]:
    """The tops a closer look found, with those of ``quads`` on none of them."""
    return closer + [q for q in quads if not any(_overlap(q, c) for c in closer)]


def _moved(quad: FaceQuad, dx: int, dy: int) -> FaceQuad:
    """``quad`` found in a part of the photo, in the whole photo's pixels."""
    x, y = quad.center
    return replace(quad, corners=quad.corners + np.array([dx, dy]), center=(x + dx, y + dy))


def _overlap(a: FaceQuad, b: FaceQuad) -> bool:
    """Whether two tops found lie on one cube: a centre within the other's face."""
    distance = float(np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]))
    return distance < 0.5 * max(a.side, b.side)
