"""Evidence that adds up over a live reading: a cube that has not moved keeps what every
frame it was read in said of it, so that a print the model doubts in one frame (a hand's
shadow, a reflection) is made sure by the frames that saw it clearly, or stays flagged.

The frames' face probabilities are pooled as a logarithmic opinion pool: their geometric
mean, made to add up to one again. A face that every frame puts first, while what it
might otherwise be changes from frame to frame (noise), becomes sure; a doubt that every
frame shares (an O printed so narrow that it looks like a D in each) stays as large, for
the frames are views of one print by one camera, not independent witnesses: the same
view seen twice is no surer than once. Only a cube's confidence changes, never its face
(each frame's reading settles faces against the cube set as a whole).

Cubes are followed by where they lie, as shares of the frame's width, so that a still at
full resolution (at 0:00) meets the stream's frames; a cube whose top changed since the
frame last read (picked up, turned, swapped) starts afresh.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.detect import width as quad_width
from vision.reading import FaceReading, LooseReading

#: Frames a cube remembers, the newest: older ones were taken in another light.
KEEP = 8
#: The probability taken for a face a frame did not list (it lists those from 0.01 up).
FLOOR = 0.005
#: A face in a new frame is the same cube where its centre lies within this share of its
#: side of the remembered centre.
NEAR = 0.3

#: Whether a cube's top (its corners in the frame's pixels) changed since the last read.
Moved = Callable[[np.ndarray], bool]


@dataclass(frozen=True, slots=True)
class _Cube:
    """A cube remembered: where it lies (shares of the frame's width) and the face
    probabilities of each frame it was read in."""

    centre: tuple[float, float]
    side: float
    seen: tuple[dict[str, float], ...]


#: Everything a frame did not list, as one more outcome.
REST = ""


def probabilities(face: FaceReading) -> dict[str, float]:
    """What one frame said of a cube: the model's probabilities of the faces it listed
    (else of the face read alone), and of everything else as ``REST``."""
    said = dict(face.evidence)
    said.setdefault(str(face.face), face.confidence)
    said[REST] = max(FLOOR, 1.0 - sum(said.values()))
    return said


def pooled(seen: Sequence[dict[str, float]], face: str) -> float:
    """How likely ``face`` is, by the frames ``seen`` pooled: the geometric mean of each
    outcome's probabilities, made to add up to one.

    >>> round(pooled([{"O": 0.7, "Q": 0.2, "": 0.1}], "O"), 3)
    0.7
    >>> frames = [{"O": 0.7, "Q": 0.25}, {"O": 0.72, "D": 0.23}, {"O": 0.7, "C": 0.25}]
    >>> round(pooled([dict(f, **{"": 0.05}) for f in frames], "O"), 2)
    0.87
    >>> round(pooled([{"D": 0.7, "O": 0.25, "": 0.05}] * 3, "D"), 2)
    0.7
    """
    outcomes = {name for said in seen for name in said}
    logs = {name: np.mean([np.log(said.get(name, FLOOR)) for said in seen]) for name in outcomes}
    top = max(logs.values())
    weights = {name: float(np.exp(value - top)) for name, value in logs.items()}
    return weights.get(face, 0.0) / sum(weights.values())


class Evidence:
    """The cubes of a live reading and what the frames said of each."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._cubes: list[_Cube] = []

    def combine(
        self, reading: LooseReading, width: int, moved: Moved, *, remember: bool = True
    ) -> LooseReading:
        """``reading`` (of a frame ``width`` pixels wide) with each cube's confidence that of
        every frame it was read in since it last moved (``moved``), this one included;
        ``remember``: keep this frame's evidence for the frames to come."""
        kept = [cube for cube in self._cubes if not moved(_corners(cube, width))]
        faces, cubes = [], []
        for face in reading.faces:
            side = quad_width(np.asarray(face.corners, np.float64)) / width if face.corners else 0.0
            centre = (face.x / width, face.y / width)
            same = _nearest(kept, centre, side)
            seen = (*(same.seen if same else ()), probabilities(face))[-self.keep :]
            if same is not None:
                kept.remove(same)
            cubes.append(_Cube(centre, side, seen))
            if len(seen) > 1:  # one frame's word stands as it was said
                face = replace(face, confidence=pooled(seen, str(face.face)))
            faces.append(face)
        if remember:
            self._cubes = cubes
        return replace(reading, faces=tuple(faces))

    def forget(self) -> None:
        """Start afresh (the view changed as a whole: the camera moved)."""
        self._cubes = []


def given_roll(reading: LooseReading, roll: Sequence[str]) -> LooseReading:
    """``reading`` with each doubtful cube as sure as the roll (its faces) makes it: a face
    the roll has no free cube for (every one of them read surely elsewhere, or none in the
    roll) is no rival. A narrow O that the model might take for a D is sure where the roll's
    only D lies in a word, read surely.

    Only confidences change, never faces, and only where every cube read doubtfully as a
    face may be one (the roll has as many of it free): two cubes read as its one free O are
    left in doubt. A table that shows, surely, a face the roll lacks settles nothing.

    >>> from engine.faces import Face
    >>> def cube(face, sure, said=()):
    ...     return FaceReading(Face(face), 0, 0, sure, 0, (), (0, 0), evidence=said)
    >>> narrow_o = cube("O", 0.7, (("O", 0.7), ("D", 0.25)))
    >>> reading = LooseReading("adlib", (cube("D", 0.99), narrow_o), ("DO",), ())
    >>> round(given_roll(reading, ["D", "O"]).faces[1].confidence, 2)
    0.93
    >>> round(given_roll(reading, ["D", "O", "D"]).faces[1].confidence, 2)
    0.7
    """
    left = Counter(roll)
    left.subtract(str(f.face) for f in reading.faces if not f.doubtful)
    if any(count < 0 for count in left.values()):
        return reading
    doubted = Counter(str(f.face) for f in reading.faces if f.doubtful)
    faces = tuple(
        replace(f, confidence=_given(f, left))
        if f.doubtful and not f.off_set and doubted[str(f.face)] <= left[str(f.face)]
        else f
        for f in reading.faces
    )
    return replace(reading, faces=faces)


def _given(face: FaceReading, free: Counter[str]) -> float:
    """The face's confidence once the rivals the roll has no free cube for are set aside:
    what it leaves to others (as the frame shared it out among the faces it listed and
    everything else) shrinks to the share of the rivals still possible."""
    own = str(face.face)
    rivals = {name: p for name, p in face.evidence if name != own}
    rest = max(FLOOR, 1.0 - sum(p for _, p in face.evidence))  # may be any free face
    possible = sum(p for name, p in rivals.items() if free[name] > 0) + rest
    others = (1.0 - face.confidence) * possible / (sum(rivals.values()) + rest)
    return face.confidence / (face.confidence + others)


def _nearest(cubes: Sequence[_Cube], centre: tuple[float, float], side: float) -> _Cube | None:
    """The remembered cube that lies where ``centre`` is, if one does."""
    reach = NEAR * max(side, 1e-9)
    near = [
        (float(np.hypot(c.centre[0] - centre[0], c.centre[1] - centre[1])), k)
        for k, c in enumerate(cubes)
    ]
    near = [(d, k) for d, k in near if d <= reach and d <= NEAR * cubes[k].side]
    return cubes[min(near)[1]] if near else None


def _corners(cube: _Cube, width: int) -> np.ndarray:
    """The cube's top as a square in the frame's pixels, about its centre."""
    half = cube.side * width / 2
    x, y = cube.centre[0] * width, cube.centre[1] * width
    return np.array(
        [[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]]
    )
