"""A cube's side seen at a slant and found as if it were a top: it lies against its own
cube's top, edge to edge, on the camera's side of it, and the detector is less sure of it
than of that top. It may touch a neighbour's cube too (a side below a word's cube lies
beside the next word's), but never a find further on in line with its top.

A find that continues a line of cubes a full pitch on is a word's next cube, not a side.
Another is not dropped outright (a word's last cube also touches one cube alone), but
where it takes the one die that a cube of a piece needs (the set has one die showing both
faces), the side gives way: the cube of the piece keeps its face, so a crossword is not cut
short by a side's letter. A side that lies beside a neighbour's cube too would take a cell
of the crossword even where no die is short: it is made no cube where it is seen smaller
than its top (a cube in front, nearer the camera, is seen as large or larger) and shows a
face that its top's die, and no other die of the set, shows with the top's.

A find that lies against another on the camera's side of it, found less surely and darker
by far (lit from above, a side is darker than its top), is that cube's side, and gives way
outright, in a loose roll as in a crossword: a cube is read once, by its top.

A photo of fewer finds than tell the camera's side by their sizes (a cube thrown alone for
who starts) is taken upright, as photos are: the table's near edge at the bottom of the
frame, so a find that lies against another, below it, is that cube's side, and gives way.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

import cv2
import numpy as np

from engine.cubes import CubeSet
from vision.assign import Assigned, Assignment, best_edition
from vision.detect import FaceQuad
from vision.pieces import touching

#: The camera's near edge is where the finds grow larger across the photo; a side shows
#: towards it from its top, within this many degrees.
TOWARDS = 60.0
#: ... told only where the finds grow by at least this factor across the photo (else the
#: photo is taken from nearly straight above, and no side is large enough to be found).
GROWTH = 1.05
#: A find in line with a word's cubes (within this many degrees), a step from the last as
#: long as theirs or more (this share of it), is that word's next cube: a side lies closer
#: to its top than the next cube would, being seen foreshortened.
IN_LINE, PITCH = 25.0, 0.9
#: A side is seen smaller than its top (at a slant under 45 degrees off the vertical, its
#: height foreshortened more than the top's depth), a cube in front of another, nearer the
#: camera, as large or larger: a find less than this share of the top's side may be its side.
SMALLER = 0.9
#: A side lit from above is darker than its top: the median grey of its pixels at most this
#: share of its top's (a cube beside another, lit alike, is as light as it).
DARKER = 0.8
#: ... and one darker still is a side however sure the detector is of it (a top seen at a
#: steep slant is found less surely than its side).
FAR_DARKER = 0.7
#: ... told only in a photo taken at a slant: its finds grow at least this many times across
#: its longer side (a camera some 30 degrees off the vertical or more, as the lens goes; a
#: photo from nearly above, where no side shows, has a cube in its neighbours' shade for a
#: darker one).
SLANTED = 2.0
#: Fewer of the detector's finds than this cannot tell which way their sizes grow.
FEW = 4
#: A side lies against its top: their centres at most this many of their sides apart (the
#: detector's outline of a face seen at a slant is loose; two cubes thrown lie apart).
AGAINST = 1.2
#: A photo's bottom: towards the camera where the photo is taken upright.
DOWN = np.array([0.0, 1.0])
#: A find left out is given its face in a side's place only where the model reads it at
#: least this surely (a find that is the model's guess is no cube worth a side's die).
RESCUED = 0.5


def near_edge(quads: Sequence[FaceQuad]) -> np.ndarray | None:
    """The direction in the photo (a unit vector) in which the detector's finds grow larger:
    towards the camera, where a photo is taken at a slant (None where they do not grow)."""
    gradient = growth(quads)
    if gradient is None:
        return None
    return np.asarray(gradient / np.linalg.norm(gradient))


def growth(quads: Sequence[FaceQuad]) -> np.ndarray | None:
    """How fast the detector's finds grow across the photo: the gradient of their sizes'
    logarithm, per pixel (None where they do not grow, or are too few to tell)."""
    learned = [q for q in quads if q.learned]
    if len(learned) < FEW:
        return None
    centres = np.array([q.center for q in learned], np.float64)
    sizes = np.log([max(q.side, 1.0) for q in learned])
    design = np.column_stack([np.ones(len(learned)), centres])
    gradient = np.linalg.lstsq(design, sizes, rcond=None)[0][1:]
    along = centres @ gradient
    if float(np.linalg.norm(gradient)) == 0 or float(along.max() - along.min()) < math.log(GROWTH):
        return None
    return np.asarray(gradient)


def seen_sides(image: np.ndarray, quads: Sequence[FaceQuad]) -> set[int]:
    """The finds that are a cube's side found beside its own top: below it in a single
    throw (``below_their_tops``), or on the camera's side of it and darker by far
    (``darker_sides``)."""
    return set(below_their_tops(quads)) | set(darker_sides(image, quads))


def darker_sides(image: np.ndarray, quads: Sequence[FaceQuad]) -> list[int]:
    """In a BGR photo taken at a slant (its finds grow ``SLANTED`` times across its longer
    side), the finds that touch a find on the camera's side of it, are darker by far than it
    (the median grey of their pixels) and found less surely, or darker still, and continue
    no line of cubes through it: each is that cube's side."""
    gradient = growth(quads)
    if gradient is None or np.linalg.norm(gradient) * max(image.shape[:2]) < math.log(SLANTED):
        return []
    towards = gradient / np.linalg.norm(gradient)
    greys = [grey(image, quad) for quad in quads]
    touch = touching(quads)
    sides = []
    for k, quad in enumerate(quads):
        for top in np.flatnonzero(touch[k]):
            other = quads[int(top)]
            step = np.subtract(quad.center, other.center)
            if (
                greys[k] < DARKER * greys[int(top)]
                and (quad.score < other.score or greys[k] < FAR_DARKER * greys[int(top)])
                and _facing(step, towards)
                and not _next_in_line(quads, touch, int(top), step)
            ):
                sides.append(k)
                break
    return sides


def grey(image: np.ndarray, quad: FaceQuad) -> float:
    """The median grey of a find's pixels in a BGR photo (a face's ground: its ink is the
    lesser part of it)."""
    x0, y0 = np.maximum(np.floor(quad.corners.min(0)).astype(int), 0)
    x1, y1 = np.ceil(quad.corners.max(0)).astype(int) + 1
    crop = np.ascontiguousarray(image[y0:y1, x0:x1])
    if not crop.size:
        return 0.0
    patch = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    mask = np.zeros(patch.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad.corners - (x0, y0)).astype(np.int32), 1)
    inside = patch[mask > 0]
    return float(np.median(inside)) if inside.size else 0.0


def below_their_tops(quads: Sequence[FaceQuad]) -> list[int]:
    """In a photo of too few of the detector's finds to tell the camera's side by their
    sizes (a single throw), the finds that lie against another, below it (within
    ``TOWARDS`` of the photo's bottom): each is that cube's side, seen at a slant from an
    upright camera."""
    if sum(q.learned for q in quads) >= FEW:
        return []
    below = []
    for k, quad in enumerate(quads):
        for j, top in enumerate(quads):
            step = np.subtract(quad.center, top.center)
            reach = AGAINST * (quad.side + top.side) / 2
            if j != k and np.linalg.norm(step) <= reach and _facing(step, DOWN):
                below.append(k)
                break
    return below


def _facing(step: np.ndarray, towards: np.ndarray) -> bool:
    """Whether ``step`` points within ``TOWARDS`` degrees of the unit vector ``towards``."""
    return bool(step @ towards >= math.cos(math.radians(TOWARDS)) * np.linalg.norm(step))


def side_like(quads: Sequence[FaceQuad]) -> list[int]:
    """The detector's finds that touch a find of the detector's that it is surer of, on the
    camera's side of it (``near_edge``), and lie in no line of cubes through it: each may
    be that cube's side. Those least sure against their top first."""
    towards = near_edge(quads)
    if towards is None:
        return []
    touch = touching(quads)
    found = []
    for k, quad in enumerate(quads):
        top = _its_top(quads, touch, towards, k) if quad.learned else None
        if top is not None:
            found.append((quad.score / quads[top].score, k))
    return [k for _, k in sorted(found)]


def _its_top(
    quads: Sequence[FaceQuad], touch: np.ndarray, towards: np.ndarray, k: int
) -> int | None:
    """The find whose side the find ``k`` may be (None where none): one of the detector's
    that ``k`` touches, surer than it, with ``k`` on the camera's side of it and in no line
    of cubes through it."""
    for found in np.flatnonzero(touch[k]):
        t = int(found)
        top = quads[t]
        step = np.subtract(quads[k].center, top.center)
        beside = top.learned and quads[k].score < top.score and _facing(step, towards)
        in_line = _next_in_line(quads, touch, t, step) or _between(quads, touch, k, step)
        if beside and not in_line:
            return t
    return None


def _next_in_line(quads: Sequence[FaceQuad], touch: np.ndarray, top: int, step: np.ndarray) -> bool:
    """Whether a find ``step`` from the find ``top`` continues a line of cubes through it
    (a word's last cube), a full pitch on."""
    for other in np.flatnonzero(touch[top]):
        pitch = np.subtract(quads[top].center, quads[int(other)].center)
        length = float(np.linalg.norm(pitch))
        if length == 0:
            continue
        cos = float(step @ pitch) / (float(np.linalg.norm(step)) * length)
        if cos >= math.cos(math.radians(IN_LINE)) and np.linalg.norm(step) >= PITCH * length:
            return True
    return False


def _between(quads: Sequence[FaceQuad], touch: np.ndarray, k: int, step: np.ndarray) -> bool:
    """Whether the find ``k``, ``step`` on from the find it may be a side of, touches a
    find further on in that line: a cube between two in line is a word's, not a side."""
    for other in np.flatnonzero(touch[k]):
        on = np.subtract(quads[int(other)].center, quads[k].center)
        length = float(np.linalg.norm(on)) * float(np.linalg.norm(step))
        if length and float(on @ step) / length >= math.cos(math.radians(IN_LINE)):
            return True
    return False


def give_way(
    quads: Sequence[FaceQuad],
    probabilities: Sequence[Mapping[str, float]],
    cube_sets: Sequence[CubeSet],
    assignment: Assignment,
) -> Assignment:
    """``assignment`` (of ``probabilities``, one for each of ``quads``) with each find that
    may be a side (``side_like``) made no cube where, without it, a find left out is given a
    face: one that touches another cube, is not the side's own top (the two are one cube)
    and may be no side itself; and, where it lies beside a neighbour's cube too, where it is
    seen smaller than its top and read as a face that the top's die may show (``_own_side``)."""
    sides = side_like(quads)
    if not sides:
        return assignment
    touch = touching(quads)
    gone: set[int] = set()
    for k in sides:
        if assignment.faces[k].face is None:
            continue
        others = [j for j in range(len(quads)) if j != k and j not in gone]
        left_out = [
            j
            for j in others
            if assignment.faces[j].face is None
            and j not in sides
            and not touch[j, k]
            and touch[j, others].any()
        ]
        if not left_out:
            continue
        # The die goes to no side left out (one read better than the find it should go to).
        idle = {j for j in sides if assignment.faces[j].face is None}
        again = _without(probabilities, cube_sets, gone | {k}, idle, assignment)
        if any(
            again.faces[j].face is not None and again.faces[j].probability >= RESCUED
            for j in left_out
        ):
            assignment = again
            gone.add(k)
    # A side seen smaller than its top, showing a face of its top's own die, is that side
    # whatever die it took. Only one lying beside a neighbour's cube as well: it would take
    # a cell of the lattice. The die it gives up goes to no find left out (another side).
    towards = near_edge(quads)
    assert towards is not None  # side_like finds sides only where the finds grow
    tops = {k: _its_top(quads, touch, towards, k) for k in sides if touch[k].sum() >= 2}
    out = {j for j, a in enumerate(assignment.faces) if a.face is None}
    while own := {k for k in tops if k not in gone and _own_side(quads, assignment, k, tops[k])}:
        gone |= own
        assignment = _without(probabilities, cube_sets, gone, out, assignment)
    return assignment


def _own_side(quads: Sequence[FaceQuad], assignment: Assignment, k: int, top: int | None) -> bool:
    """Whether the find ``k``, which may be the side of the find ``top``, is seen smaller
    than it and read as a face that one die of the set, and only one, shows with the top's
    face."""
    if top is None or quads[k].side >= SMALLER * quads[top].side:
        return False
    faces = Counter([assignment.faces[k].face, assignment.faces[top].face])
    if None in faces:
        return False
    # Both on one die (the same letter twice only where it shows it twice), and on one die
    # alone: two faces that several dice show together lie on two cubes as often.
    dice = assignment.cube_set.dice
    return sum(faces <= Counter(str(f) for f in die.faces) for die in dice) == 1


def _without(
    probabilities: Sequence[Mapping[str, float]],
    cube_sets: Sequence[CubeSet],
    gone: set[int],
    out: frozenset[int] | set[int] = frozenset(),
    before: Assignment | None = None,
) -> Assignment:
    """The assignment of every find but those ``gone``, which are made no cube, and those
    ``out``, which stay as ``before`` left them (out)."""
    others = [j for j in range(len(probabilities)) if j not in gone | out]
    again = best_edition([probabilities[j] for j in others], cube_sets)
    faces = [Assigned(None, 1.0, None)] * len(probabilities)
    if before is not None:
        for j in out:
            faces[j] = before.faces[j]
    for j, assigned in zip(others, again.faces, strict=True):
        faces[j] = assigned
    return replace(again, faces=tuple(faces))
