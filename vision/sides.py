"""A cube's side seen at a slant and found as if it were a top: it lies against its own
cube's top alone, edge to edge, on the camera's side of it, and the detector is less sure
of it than of that top.

A find that continues a line of cubes a full pitch on is a word's next cube, not a side.
Another is not dropped outright (a word's last cube also touches one cube alone), but
where it takes the one die that a cube of a piece needs (the set has one die showing both
faces), the side gives way: the cube of the piece keeps its face, so a crossword is not cut
short by a side's letter.

A find that lies against another on the camera's side of it, found less surely and darker
by far (lit from above, a side is darker than its top), is that cube's side, and gives way
outright, in a loose roll as in a crossword: a cube is read once, by its top.

A photo of fewer finds than tell the camera's side by their sizes (a cube thrown alone for
who starts) is taken upright, as photos are: the table's near edge at the bottom of the
frame, so a find that lies against another, below it, is that cube's side, and gives way.
"""

from __future__ import annotations

import math
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
    """The detector's finds that touch one find alone, a find of the detector's that it is
    surer of and that lies on the camera's side of it (``near_edge``): each may be that
    cube's side. Those least sure against their top first."""
    towards = near_edge(quads)
    if towards is None:
        return []
    touch = touching(quads)
    found = []
    for k, quad in enumerate(quads):
        near = np.flatnonzero(touch[k])
        if not quad.learned or len(near) != 1:
            continue
        top = quads[int(near[0])]
        step = np.subtract(quad.center, top.center)
        beside = top.learned and quad.score < top.score and _facing(step, towards)
        if beside and not _next_in_line(quads, touch, int(near[0]), step):
            found.append((quad.score / top.score, k))
    return [k for _, k in sorted(found)]


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


def give_way(
    quads: Sequence[FaceQuad],
    probabilities: Sequence[Mapping[str, float]],
    cube_sets: Sequence[CubeSet],
    assignment: Assignment,
) -> Assignment:
    """``assignment`` (of ``probabilities``, one for each of ``quads``) with each find that
    may be a side (``side_like``) made no cube where, without it, a find left out is given a
    face: one that touches another cube, is not the side's own top (the two are one cube)
    and may be no side itself."""
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
        again = best_edition([probabilities[j] for j in others], cube_sets)
        faces = [Assigned(None, 1.0, None)] * len(quads)
        for j, assigned in zip(others, again.faces, strict=True):
            faces[j] = assigned
        if any(faces[j].face is not None and faces[j].probability >= RESCUED for j in left_out):
            assignment = replace(again, faces=tuple(faces))
            gone.add(k)
    return assignment
