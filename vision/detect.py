"""Finding cube top faces in a photo: colour segmentation, seam splitting, rectangles.

Works on a downscaled copy; the quadrilaterals it returns are in the full image's pixels so
faces can be cut at full resolution.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.image import label_box

#: Thresholds as data (chesscog's habit): each names what it measures.
SETTINGS = {
    "detect_side": 640,  # longer side of the detection copy, in pixels
    "border_ring": 0.03,  # share of the frame taken as the table around everything
    "min_area": 0.00025,  # smallest face, as a share of the frame
    "tray_area": 0.03,  # a region larger than this may be a tray holding cubes
    "max_aspect": 1.6,  # a face's long side over its short side
    "min_fill": 0.62,  # a face's area over its rectangle's
    "max_row": 5,  # the most touching faces one piece is cut into
    "row_round": 0.3,  # a piece this much past a whole number of faces long holds one more
    "partial_fill": 0.45,  # the same for a lone piece of the other faces' size
    "row_fill": 0.8,  # the same for a row of touching faces that no seam divides
    "size_low": 0.55,  # face side against the median side: smallest kept
    "size_high": 1.7,  # largest kept
    "max_side": 0.3,  # a face's side against the frame's shorter side: largest possible
    "local_lift": 12,  # grey levels a face stands above its neighbourhood's mean
    "same_size": 0.15,  # how far a face another cut found may differ in size
    "seam_depth": 4,  # grey levels a seam lies below its neighbourhood's mean
    "grow": 1.06,  # faces are trimmed by their dark rim; grow the rectangle back
    "lightness_weight": 0.35,  # shadows and uneven light change lightness more than colour
    "ring_margin": 6.0,  # MADs a face stands above the table's own spread of colour
    "carve_cover": 1.15,  # a found face's square, grown by this, is that cube's (its sides)
    "carve_apart": 3.0,  # MADs of the faces' own colour the table's colour must differ by
    "carve_area": 0.6,  # the least area of a piece of cube left over, in faces
    "carve_window": 0.85,  # the square fitted into a piece, against a face's side
    "carve_fill": 0.9,  # how much of that square must lie on the piece
}

#: A find less than this share of another as wide, inside it, is a piece of that top (the
#: value printed in its corner, a stroke of its letter), never a top of its own.
PIECE = 0.5


@dataclass(frozen=True, slots=True)
class FaceQuad:
    """One top face found in the photo (full-resolution pixels)."""

    #: Corners clockwise from the one at the top left as the image shows it (shape: [4, 2]).
    corners: np.ndarray
    center: tuple[float, float]
    side: float
    #: Edge direction nearest the image's horizontal, in degrees (-45, 45].
    angle: float
    #: How sure the finder is that this is a top (the detector's heat; 1 for a cut's find).
    score: float = 1.0
    #: Found by the learned detector (which sees the whole cube), not by a colour cut.
    learned: bool = False


def downscale(image: np.ndarray, side: int | None = None) -> tuple[np.ndarray, float]:
    """A copy whose longer side is at most ``side``, and the factor back to full size."""
    side = side or int(SETTINGS["detect_side"])
    scale = max(image.shape[:2]) / side
    if scale <= 1:
        return image, 1.0
    size = (round(image.shape[1] / scale), round(image.shape[0] / scale))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), scale


def _distances(lab: np.ndarray, ring: np.ndarray) -> np.ndarray:
    """How far each pixel's colour stands from the median colour of ``ring`` (0-255)."""
    background = np.median(pixels_at(lab, ring), axis=0).astype(np.float32)
    # OpenCV's arithmetic: a third of numpy's time on the whole frame.
    squared = squared_distance(lab, background)
    distance = np.asarray(cv2.sqrt(squared))
    top = float(distance.max())
    if top <= 0:
        return np.zeros(distance.shape, np.uint8)
    scaled = np.asarray(cv2.multiply(distance, np.full_like(distance, 255.0 / top)))
    return np.minimum(scaled, 255).astype(np.uint8)


def pixels_at(image: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``image[mask]`` for an image of several channels (shape: [n, channels]), in order:
    numpy's compress, several times faster than its boolean indexing there."""
    channels = image.shape[2]
    return np.compress(mask.ravel(), image.reshape(-1, channels), axis=0)


def median_level(gray: np.ndarray) -> float:
    """``np.median`` of a uint8 image, from its histogram: the mean of its two middle
    levels (one, for an odd count of pixels)."""
    counts = np.cumsum(_histogram(gray))
    low = int(np.searchsorted(counts, (gray.size - 1) // 2, side="right"))
    high = int(np.searchsorted(counts, gray.size // 2, side="right"))
    return (low + high) / 2


def _floor(scaled: np.ndarray, ring: np.ndarray) -> float:
    """The table's own spread of colour: median and MAD, so that cubes reaching into the
    ring do not count as table."""
    on_ring = scaled[ring].astype(np.float32)
    middle = float(np.median(on_ring))
    return middle + SETTINGS["ring_margin"] * 1.4826 * float(np.median(np.abs(on_ring - middle)))


def _thresholds(scaled: np.ndarray, region: np.ndarray | None, ring: np.ndarray) -> list[float]:
    """Candidate cuts between table and faces: two-class Otsu, and both cuts of a
    three-class Otsu (a pale face on a pale table stands apart less than its letter), over
    the pixels of ``region`` (None: all of them)."""
    values = np.ascontiguousarray(scaled if region is None else scaled[region]).reshape(-1, 1)
    two, _ = cv2.threshold(values, 0, 255, cv2.THRESH_OTSU)
    low, high = _otsu3(_histogram(values))
    floor = _floor(scaled, ring)
    return sorted({max(float(t), floor) for t in (two, low, high)})


def _distance_mask(lab: np.ndarray, region: np.ndarray, ring: np.ndarray) -> np.ndarray:
    """Pixels of ``region`` whose colour stands apart from the colour of ``ring`` (Otsu)."""
    scaled = _distances(lab, ring)
    two, _ = cv2.threshold(scaled[region].reshape(-1, 1), 0, 255, cv2.THRESH_OTSU)
    return region & (scaled > max(float(two), _floor(scaled, ring)))


def _histogram(levels: np.ndarray) -> np.ndarray:
    """How many of the uint8 ``levels`` there are of each level: ``np.bincount``'s counts,
    from OpenCV's histogram (exact as float32 below 2**24 pixels, and five times faster)."""
    return cv2.calcHist([levels], [0], None, [256], [0, 256]).ravel().astype(np.int64)


def _otsu3(histogram: np.ndarray) -> tuple[float, float]:
    """The two cuts that split a histogram into three classes best (searched on 64 bins)."""
    coarse = histogram.reshape(64, -1).sum(1).astype(np.float64)
    p = coarse / max(1.0, coarse.sum())
    levels = (np.arange(64) + 0.5) * (histogram.size / 64)
    weight = np.concatenate([[0.0], np.cumsum(p)])
    moment = np.concatenate([[0.0], np.cumsum(p * levels)])
    a = np.arange(1, 64)[:, None]
    b = np.arange(1, 64)[None, :]
    w0, w1, w2 = weight[a], weight[b] - weight[a], 1 - weight[b]
    m0, m1, m2 = moment[a], moment[b] - moment[a], moment[-1] - moment[b]
    with np.errstate(divide="ignore", invalid="ignore"):
        between = m0 * m0 / w0 + m1 * m1 / w1 + m2 * m2 / w2
    between[(b <= a) | (w0 <= 0) | (w1 <= 0) | (w2 <= 0)] = -1
    i, j = np.unravel_index(int(np.argmax(between)), between.shape)
    step = histogram.size / 64
    return float((i + 1) * step), float((j + 1) * step)


Region = tuple[int, int, np.ndarray]  # top, left, and the mask inside its bounding box


def components(
    mask: np.ndarray, min_area: float = 0, max_area: float = float("inf")
) -> list[Region]:
    """The 8-connected pieces of ``mask`` of ``min_area`` to ``max_area`` pixels."""
    count, labels, stats, (x0, y0) = label_box(mask.astype(np.uint8))
    areas = stats[1:count, cv2.CC_STAT_AREA]
    out = []
    for k in np.flatnonzero((areas >= min_area) & (areas <= max_area)) + 1:
        x, y, w, h = (int(v) for v in stats[k, :4])
        out.append((y, x, labels[y - y0 : y - y0 + h, x - x0 : x - x0 + w] == k))
    return out


def _paste(canvas: np.ndarray, region: Region) -> None:
    top, left, sub = region
    canvas[top : top + sub.shape[0], left : left + sub.shape[1]] |= sub


def fill_holes(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(
        mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    filled = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(filled, contours, -1, 1, -1)
    return filled.astype(bool)


def lab_and_ring(small: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 0] *= SETTINGS["lightness_weight"]  # light varies across a table more than colour does
    return lab, table_ring(lab.shape)


def table_ring(shape: tuple[int, ...]) -> np.ndarray:
    """The band round the frame taken as the table (a mask of ``shape[:2]``)."""
    height, width = shape[:2]
    ring = np.zeros((height, width), bool)
    band = max(2, int(SETTINGS["border_ring"] * min(height, width)))
    ring[:band] = ring[-band:] = True
    ring[:, :band] = ring[:, -band:] = True
    return ring


def enclosed(small: np.ndarray) -> np.ndarray:
    """A face the colour of its table still has edges all round (its rim, its shadow): the
    regions that edges close off, small enough to be faces."""
    return _enclosed(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))


def foreground(small: np.ndarray) -> list[np.ndarray]:
    """Candidate masks of everything that stands apart from the table, one per cut; inside
    a large region (a tray), what stands apart from that region's own rim (its cubes)."""
    return [mask for mask, _ in _foreground(small)]


def _foreground(
    small: np.ndarray, gray: np.ndarray | None = None
) -> Iterator[tuple[np.ndarray, list[Region] | None]]:
    """``foreground``'s masks one at a time, so that a caller content with one stops early,
    each with its pieces where ``_refine`` knows them. ``gray`` is ``small`` in grey where
    the caller has it."""
    lab, ring = lab_and_ring(small)
    scaled = _distances(lab, ring)
    for t in _thresholds(scaled, None, ring):
        yield _refine(lab, scaled > t)
    # Faces are also the bright things of a photo: brighter than the frame, or than their
    # own neighbourhood where the light is uneven.
    if gray is None:
        gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    _, bright = cv2.threshold(gray, 0, 1, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    yield _refine(lab, bright > 0)
    block = max(3, (min(gray.shape) // 6) | 1)
    local = cv2.adaptiveThreshold(
        gray, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, -SETTINGS["local_lift"]
    )
    yield _refine(lab, local > 0)


def _enclosed(gray: np.ndarray) -> np.ndarray:
    blurred = cv2.GaussianBlur(gray, (3, 3), 0)
    middle = median_level(blurred)
    edges = cv2.Canny(blurred, 0.4 * middle * 0.5, 0.4 * middle)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    open_ = edges == 0
    height, width = gray.shape
    out = np.zeros(gray.shape, bool)
    largest = SETTINGS["tray_area"] * height * width
    for top, left, sub in components(open_, SETTINGS["min_area"] * height * width, largest):
        _paste(out, (top, left, fill_holes(sub)))
    # Grow back what the dilated edges took off.
    return cv2.dilate(out.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0


def _refine(lab: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, list[Region] | None]:
    """The mask's pieces large enough to be faces, a tray's cut into what stands apart from
    its rim; and those pieces, where each was kept whole (the mask's 8-connected pieces are
    then just these: none touches another), None where a tray was cut up."""
    height, width = mask.shape
    mask = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0
    out = np.zeros_like(mask)
    kernel = np.ones((5, 5), np.uint8)
    min_area = SETTINGS["min_area"] * height * width
    kept: list[Region] | None = []
    for region in components(mask, min_area):
        top, left, sub = region
        if sub.sum() > SETTINGS["tray_area"] * height * width:
            solid = fill_holes(sub)
            inner = cv2.erode(solid.astype(np.uint8), kernel, iterations=2) > 0
            if inner.any() and not inner.all():
                window = lab[top : top + sub.shape[0], left : left + sub.shape[1]]
                inside = _distance_mask(window, inner, solid & ~inner)
                pieces = components(inside, min_area)
                if len(pieces) >= 4:
                    for t, l_, piece in pieces:
                        _paste(out, (top + t, left + l_, piece))
                    kept = None
                    continue
        _paste(out, region)
        if kept is not None:
            kept.append(region)
    return out, kept


def _split_seams(
    gray: np.ndarray, mask: np.ndarray, side: float, seam_depth: float
) -> list[Region]:
    """Cut touching cubes apart along the darker seams between them (one pass over the
    box that holds the mask: cheaper than one per region)."""
    block = max(3, int(side * 0.7) | 1)
    # Only the box round the mask, with half a block to spare: each pixel of the mask sees
    # the same neighbourhood (its mean, and the erosion's 3x3) as in the whole frame. The
    # box starts on an even row and column, so its pieces are labelled in the same order.
    x, y, width, height = cv2.boundingRect(mask.view(np.uint8))
    if width == 0:
        return []
    reach = block // 2 + 1
    frame_height, frame_width = mask.shape
    x0, y0 = max(0, x - reach) // 2 * 2, max(0, y - reach) // 2 * 2
    x1, y1 = min(frame_width, x + width + reach), min(frame_height, y + height + reach)
    local = cv2.adaptiveThreshold(
        gray[y0:y1, x0:x1], 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, seam_depth
    )
    bright = (local > 0) & mask[y0:y1, x0:x1]
    bright = cv2.erode(bright.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    pieces = components(bright, 0.2 * side * side)
    return [(y0 + t, x0 + l_, fill_holes(piece)) for t, l_, piece in pieces]


def _quads(
    region: Region, scale: float, grow: float, min_fill: float | None = None
) -> list[FaceQuad]:
    """The face (or, for a row of touching faces no seam divides, the faces) of a piece."""
    top, left, piece = region
    contours, _ = cv2.findContours(
        piece.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    points = max(contours, key=len) + np.array([left, top], np.int32)
    (cx, cy), (w, h), raw = cv2.minAreaRect(points)
    fill = SETTINGS["min_fill"] if min_fill is None else min_fill
    if min(w, h) < 3 or piece.sum() < fill * w * h:
        return []
    # A row of touching faces that no seam divides is cut into squares; a single face seen
    # squashed or at a slant may be half again as long as it is wide.
    count = max(1, int(max(w, h) / min(w, h) + SETTINGS["row_round"]))
    if count > SETTINGS["max_row"]:
        return []
    ratio = max(w, h) / min(w, h) / count
    if ratio > SETTINGS["max_aspect"] or 1 / ratio > SETTINGS["max_aspect"]:
        return []
    if count > 1 and piece.sum() < SETTINGS["row_fill"] * w * h:
        return []
    # The long axis, along which a row of touching faces is cut.
    along = np.radians(raw if w >= h else raw + 90)
    axis = np.array([np.cos(along), np.sin(along)])
    across = np.array([-axis[1], axis[0]])
    step = max(w, h) / count
    half_along, half_across = step / 2 * grow, min(w, h) / 2 * grow
    side = 2 * (half_along * half_across) ** 0.5
    angle = ((np.degrees(along) + 45) % 90) - 45
    out = []
    # Each corner's sum, term by term as center + i * half_along * axis + j * ..., at once.
    along_terms = (_SQUARE_I * half_along)[:, None] * axis
    across_terms = (_SQUARE_J * half_across)[:, None] * across
    for k in range(count):
        center = np.array([cx, cy]) + axis * step * (k - (count - 1) / 2)
        corners = center + along_terms + across_terms
        corners = (ordered(corners) + 0.5) * scale - 0.5
        full = (center + 0.5) * scale - 0.5
        out.append(
            FaceQuad(corners, (float(full[0]), float(full[1])), float(side * scale), float(angle))
        )
    return out


#: The corners of a square about its centre, in the order ``ordered`` leaves them.
SQUARE = ((-1, -1), (1, -1), (1, 1), (-1, 1))
_SQUARE_I = np.array([i for i, _ in SQUARE], np.float64)
_SQUARE_J = np.array([j for _, j in SQUARE], np.float64)


def ordered(corners: np.ndarray) -> np.ndarray:
    """Four corners (shape: [4, 2]) clockwise as the image shows them (y grows downwards),
    from the one nearest the top left of the quad's centre."""
    corners = np.asarray(corners, np.float64)
    offset = corners - corners.mean(0)
    turn = np.arctan2(offset[:, 1], offset[:, 0])
    first = int(np.argmin(np.abs((turn + 3 * np.pi / 4 + np.pi) % (2 * np.pi) - np.pi)))
    order = np.argsort((turn - turn[first]) % (2 * np.pi))
    return corners[order]


def _crossings(points: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """For each point (shape: [..., 2]), the cross product of each edge of the quadrilateral
    ``corners`` with the step from the edge's start to the point (shape: [..., 4])."""
    edges = np.concatenate((corners[1:], corners[:1])) - corners  # np.roll's, cheaper
    to_points = points[..., None, :] - corners
    return np.asarray(edges[:, 0] * to_points[..., 1] - edges[:, 1] * to_points[..., 0])


def inside_all(points: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Which of ``points`` ([N, 2]) lie inside the convex quadrilateral ``corners``."""
    cross = _crossings(points, corners)
    return np.asarray((cross >= 0).all(axis=-1) | (cross <= 0).all(axis=-1))


def pieces(quads: Sequence[np.ndarray], wholes: Sequence[np.ndarray]) -> np.ndarray:
    """Which of the quadrilaterals ``quads`` (corners, [4, 2] each) are pieces of one of
    ``wholes``: less than ``PIECE`` times as wide as it, their centre inside it.

    >>> large = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
    >>> pieces([large, large / 4 + 1, large / 4 + 20], [large]).tolist()
    [False, True, False]
    """
    if not len(quads):
        return np.zeros(0, bool)
    centres = np.array([q.mean(0) for q in quads], np.float64)
    widths = np.array([width(q) for q in quads])
    out = np.zeros(len(quads), bool)
    for whole in wholes:
        out |= (widths < PIECE * width(whole)) & inside_all(centres, whole)
    return out


def width(corners: np.ndarray) -> float:
    """The side of the square as large as the quadrilateral ``corners``."""
    x, y = corners[:, 0], corners[:, 1]
    # np.roll(·, -1) by slicing: the same values, without roll's cost on four numbers.
    after_x, after_y = np.concatenate((x[1:], x[:1])), np.concatenate((y[1:], y[:1]))
    return float(np.sqrt(abs(0.5 * (np.dot(x, after_y) - np.dot(y, after_x)))))


def inside(point: np.ndarray, corners: np.ndarray) -> bool:
    """Whether ``point`` lies inside the convex quadrilateral ``corners`` (either winding).

    >>> square = np.array([[0, 0], [2, 0], [2, 2], [0, 2]], float)
    >>> inside(np.array([1.0, 1.5]), square), inside(np.array([2.5, 1.0]), square)
    (True, False)
    """
    cross = _crossings(point, corners)
    return bool((cross >= 0).all() or (cross <= 0).all())


def find_faces(
    image: np.ndarray,
    accept: Callable[[list[FaceQuad]], bool] | None = None,
    small: tuple[np.ndarray, float] | None = None,
) -> list[FaceQuad]:
    """Every cube top face in a BGR photo (shape: [height, width, 3]).

    The cuts are tried in turn; ``accept`` (say, "a full tray of the game's size") ends the
    search at the first cut whose faces it accepts, so a clear photo costs one cut, not six.
    ``small`` is ``downscale(image)`` where the caller has it already.
    """
    small_image, scale = small or downscale(image)
    gray = cv2.cvtColor(small_image, cv2.COLOR_BGR2GRAY)
    found: list[list[FaceQuad]] = []
    for mask, regions in _foreground(small_image, gray):
        found.append(_faces_in(gray, mask, scale, 0, regions))
        if accept is not None:
            combined = _combine(found)
            if combined and accept(combined):
                return combined
    # Inside regions that edges already close off, the seam between a cube's top and a side
    # seen at an angle is the darker line to cut along.
    found.append(_faces_in(gray, _enclosed(gray), scale, SETTINGS["seam_depth"]))
    return _combine(found)


def _combine(found: list[list[FaceQuad]]) -> list[FaceQuad]:
    """The cut that explains the photo best, with what other cuts found that it missed."""
    # The best cut finds the most faces, weighed by their size (so letters or specks of
    # light cut out of the faces do not win).
    best = max(found, key=lambda quads: sum(q.side for q in quads))
    if not best:
        return []
    # A face another cut found, of the same size and where the best cut saw nothing, is
    # added: one cube may differ from the rest (in shadow, or the table's colour there).
    side = float(np.median([q.side for q in best]))
    kept = list(best)
    for quads in found:
        if len(quads) < len(best) / 2:  # a poor cut's finds are not trusted
            continue
        for quad in quads:
            if abs(quad.side / side - 1) > SETTINGS["same_size"]:
                continue
            if all(
                np.hypot(quad.center[0] - k.center[0], quad.center[1] - k.center[1]) > 0.7 * side
                for k in kept
            ):
                kept.append(quad)
    return kept


def _faces_in(
    gray: np.ndarray,
    mask: np.ndarray,
    scale: float,
    seam_depth: float,
    pieces_of_mask: list[Region] | None = None,
) -> list[FaceQuad]:
    """The faces in ``mask``, a cut of the detection copy (``gray``: that copy in grey).
    ``pieces_of_mask``: the mask's 8-connected pieces, where the caller has them."""
    least = SETTINGS["min_area"] * mask.size
    if pieces_of_mask is None:
        regions = components(mask, least)
    else:
        regions = [region for region in pieces_of_mask if region[2].sum() >= least]
    if not regions:
        return []
    kept = np.zeros(mask.shape, bool)
    for region in regions:
        _paste(kept, region)
    # A face's half side is the deepest point of its region; a crossword's arms are one
    # cube wide, so the median holds for them too.
    side = 2 * float(np.median(_depths(regions)))
    pieces = _split_seams(gray, kept, side, seam_depth)
    # No face is much wider than a quarter of the frame's shorter side (the smallest tray
    # holds four across): a larger square is the table, closed off by shadows.
    largest = SETTINGS["max_side"] * min(mask.shape) * scale
    per_piece = [
        [q for q in _quads(p, scale, SETTINGS["grow"]) if q.side <= largest] for p in pieces
    ]
    quads = [q for found in per_piece for q in found]
    if not quads:
        return []
    median = float(np.median([q.side for q in quads]))
    # A face partly cut away (its letter, a shaded corner) fills less of its rectangle; one
    # square piece the size of the other faces is still a face.
    for piece, found in zip(pieces, per_piece, strict=True):
        if not found:
            again = _quads(piece, scale, SETTINGS["grow"], SETTINGS["partial_fill"])
            if len(again) == 1 and abs(again[0].side / median - 1) <= SETTINGS["same_size"]:
                quads.append(again[0])
    return [
        q
        for q in quads
        if SETTINGS["size_low"] * median <= q.side <= SETTINGS["size_high"] * median
    ]


def _depths(regions: list[Region]) -> list[float]:
    """How deep each region is: its largest distance (3x3 chamfer) to a pixel outside it,
    or past the frame's edge. One transform a region: one over them all gives distances
    that differ in the last bits. The border is drawn by OpenCV (numpy's pad costs more
    than the transform)."""
    depths = []
    for _, _, sub in regions:
        padded = cv2.copyMakeBorder(sub.view(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
        depths.append(float(cv2.distanceTransform(padded, cv2.DIST_L2, 3).max()))
    return depths


def squared_distance(lab: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Each pixel's squared distance from ``colour`` (OpenCV's arithmetic, as ``_distances``)."""
    # A 4-tuple is OpenCV's scalar, subtracted from every pixel (its stubs know only arrays).
    scalar = (*(float(v) for v in colour), 0.0)
    difference = cv2.subtract(lab, scalar)  # type: ignore[call-overload]
    squared = cv2.multiply(difference, difference)
    return np.asarray(cv2.transform(squared, np.ones((1, 3), np.float32)))
