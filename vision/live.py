"""Reading the table live, frame after frame, as the cubes are laid (``cuberef watch``,
and the box's screen during an Ad-Lib turn).

A reading is shown only once it is stable: read the same (every face, its cell and
whether it is doubtful) in ``AGREE`` frames in a row, with nothing changed since the last
stable reading but cubes (``vision.motion``). Where something else changed, a hand, an
arm or its shadow, the last stable reading is held and the state says ``hands``, so that
cubes half hidden are never shown as read. A change that stays put, apart from every cube
(a phone laid on the table), is taken into the picture after ``AGREE`` frames; one over
the cubes only after ``SETTLE`` frames that read as before.

Frames are compared after the view's own shift is taken out (a camera nudged on its
stand); where more than ``WHOLE`` of the view changed (the light, the camera moved), the
frames no longer compare and only the readings must agree until the next stable one.

Each cube that has not moved keeps what every frame it was read in said of it
(``vision.evidence``): a cube the model doubts in one frame is made sure by frames that
read it clearly, and one it doubts in all stays flagged.

What did not move is not read again: a frame that shows what the last stable reading was
taken from, or what the frame last read showed, keeps that reading, and a frame in which
far more than a cube moved since the frame before (a hand on its way) is not read at all.
Only a frame that changed and came to rest costs a reading, and that reading is the
reader's own, whole: nothing of an earlier frame goes into it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from vision.errors import NoCubesFound, ReadError
from vision.evidence import Evidence
from vision.motion import (
    SPECK,
    WHOLE,
    Small,
    area,
    blobs,
    changed,
    cube_side,
    footprint,
    share,
    small_copy,
)
from vision.reading import LooseReading

#: Frames in a row that must read the same before a reading is shown.
AGREE = 2
#: More than this many cubes' area moved since the frame before: something is on its way.
MOVING = 6.0
#: A change of at least this many cubes' area where no cube lies is a hand (or an arm).
HAND = 1.0
#: A still change this far from every cube (its top grown by this factor) is not over them.
APART = 4.0
#: Frames a still change over the cubes must read as before to be taken as the table's.
SETTLE = 25
#: The share of a top (about its centre) whose change means the cube moved.
CENTRE = 0.6

Read = Callable[[np.ndarray], LooseReading]


class State(StrEnum):
    """What the table shows: a crossword (with loose cubes, maybe), only loose cubes,
    nothing, or a hand over it (the last stable reading held)."""

    CROSSWORD = "crossword"
    LOOSE = "loose"
    EMPTY = "empty"
    HANDS = "hands"


@dataclass(frozen=True, slots=True)
class Live:
    """What the live reading shows: the state and the stable reading it shows (held while
    a hand is over the cubes); None for a bare table, or before anything was stable."""

    state: State
    reading: LooseReading | None


@dataclass(frozen=True, slots=True)
class _Sight:
    """What one frame was read as: a reading, None for no cubes, or unreadable."""

    reading: LooseReading | None
    readable: bool = True


Key = tuple[object, ...]


def key_of(reading: LooseReading | None) -> Key:
    """What must stay the same for a reading to be stable: the crossword and each face,
    its cell and whether it is doubtful (not where exactly it lies)."""
    if reading is None:
        return ()
    faces = sorted((str(f.face), f.cell or (-1, -1), f.doubtful) for f in reading.faces)
    return (reading.grid, tuple(faces))


def _tops(reading: LooseReading | None) -> list[np.ndarray]:
    return [] if reading is None else [np.array(f.corners) for f in reading.faces]


class LiveReader:
    """Feed it frames in order (``update``); it answers what to show after each."""

    def __init__(self, read: Read, *, agree: int = AGREE) -> None:
        self.read = read
        self.agree = agree
        #: The stable reading shown (its key and itself), None before the first.
        self.held: tuple[Key, LooseReading | None] | None = None
        #: How many frames each kind of look cost: read, reused, skipped while moving.
        self.counts = {"read": 0, "reused": 0, "moving": 0}
        self._base: Small | None = None  # the frame the held reading was taken from
        self._last: Small | None = None  # the frame before
        self._seen: tuple[Small, _Sight] | None = None  # the frame last read, as read
        self._pending: tuple[Key, LooseReading | None, int] | None = None
        self._settling = 0
        self._side: float | None = None
        self._hand_shown = False
        self._evidence = Evidence()
        #: This frame's comparisons so far (several questions ask the same one).
        self._changes: dict[tuple[int, int], tuple[Small, Small, np.ndarray]] = {}

    @property
    def stable(self) -> LooseReading | None:
        """The last stable reading (None: a bare table, or none yet)."""
        return self.held[1] if self.held is not None else None

    def update(self, image: np.ndarray) -> Live | None:
        """What to show after ``image`` (BGR), the next frame; None while nothing has been
        stable yet and no hand is in the way."""
        small = small_copy(image)
        previous, self._last = self._last, small
        self._changes = {}
        side = self._side or cube_side([], 1.0, small.pixels.shape)
        cube = side * side
        speck = max(3.0, SPECK * cube)
        if self._base is not None and self.held is not None and not self._moved(small, self._base):
            # The table as it was when the held reading was taken: that reading, as stable.
            self.counts["reused"] += 1
            self._pending = (self.held[0], self.held[1], self.agree)
            return self._show(hands=False)
        moved = self._changed(small, previous) if previous is not None else None
        if moved is not None and share(moved) < WHOLE and area(moved, speck) > MOVING * cube:
            self.counts["moving"] += 1
            self._pending = None
            return self._show(hands=True)
        if self._seen is not None and not self._moved(small, self._seen[0]):
            self.counts["reused"] += 1
            sight = self._seen[1]
        else:
            self.counts["read"] += 1
            sight = self._sight(image)
            if sight.reading is not None:
                sight = _Sight(self._combined(image, small, sight.reading, remember=True))
            self._seen = (small, sight)
        hands = self._hands(small, previous, sight)
        if hands or not sight.readable:
            self._pending = None
            return self._show(hands)
        key = key_of(sight.reading)
        count = self._pending[2] + 1 if self._pending and self._pending[0] == key else 1
        self._pending = (key, sight.reading, count)
        if count < self.agree:
            # Just after a hand, a new reading is not yet shown: the hand's state stays.
            return self._show(self._hand_shown and self.held is not None and key != self.held[0])
        self.held = (key, sight.reading)
        self._base = small
        if sight.reading is not None and sight.reading.faces:
            self._side = cube_side(_tops(sight.reading), small.scale, small.pixels.shape)
        return self._show(hands=False)

    def _changed(self, small: Small, before: Small) -> np.ndarray:
        """``changed(small, before)``, worked out once a frame."""
        key = (id(small), id(before))  # both kept beside it, so neither id is reused
        if key not in self._changes:
            self._changes[key] = (small, before, changed(small, before))
        return self._changes[key][2]

    def _moved(self, small: Small, before: Small) -> bool:
        side = self._side or cube_side([], 1.0, small.pixels.shape)
        return area(self._changed(small, before), max(3.0, SPECK * side * side)) > 0

    def _combined(
        self, image: np.ndarray, small: Small, reading: LooseReading, *, remember: bool
    ) -> LooseReading:
        """``reading`` of ``image`` with what the frames read before said of its cubes that
        have not moved since the frame last read."""
        if self._seen is None:
            return self._evidence.combine(
                reading, image.shape[1], lambda _: True, remember=remember
            )
        change = self._changed(small, self._seen[0])
        if share(change) > WHOLE:  # the camera moved, or the light: nothing is where it was
            self._evidence.forget()
        side = self._side or cube_side([], 1.0, small.pixels.shape)
        moving = np.zeros(change.shape, bool)
        for blob in blobs(change, max(3.0, SPECK * side * side)):
            moving |= blob.astype(bool)
        shape = small.pixels.shape

        def moved(corners: np.ndarray) -> bool:
            # The middle of its top: a cube laid beside it changes its edge, not its print.
            top = footprint(shape, [corners], small.scale, CENTRE).astype(bool)
            return bool((top & moving).any())

        return self._evidence.combine(reading, image.shape[1], moved, remember=remember)

    def confirmed(self, image: np.ndarray, reading: LooseReading) -> LooseReading:
        """``reading`` of ``image``, a photo of the same view at any size (the still taken
        at 0:00), with what the frames read before said of its cubes that have not moved."""
        return self._combined(image, small_copy(image), reading, remember=False)

    def _sight(self, image: np.ndarray) -> _Sight:
        try:
            return _Sight(self.read(image))
        except NoCubesFound:
            return _Sight(None)
        except ReadError:  # blurred by motion, say: nothing to go by in this frame
            return _Sight(None, readable=False)

    def _hands(self, small: Small, previous: Small | None, sight: _Sight) -> bool:
        """Whether something other than cubes changed since the held reading's frame."""
        if self._base is None or self.held is None:
            return False
        if share(self._changed(small, self._base)) > WHOLE:
            # The whole view changed (the light, the camera): frames compare no more, and
            # until the next stable reading only the readings themselves must agree.
            self._base = None
            return False
        found = self._unexplained(small, sight.reading)
        if not found:
            self._settling = 0
            return False
        # A change that stays while the table reads as before is the table's now: at once
        # where it lies apart from the cubes, after a while where it lies over them.
        still = previous is not None and not self._moved(small, previous)
        if not (still and sight.readable and key_of(sight.reading) == self.held[0]):
            self._settling = 0
            return True
        self._settling += 1
        near = footprint(small.pixels.shape, _tops(self.held[1]), self._base.scale, APART)
        apart = not any((blob & near).any() for blob in found)
        if (apart and self._settling >= self.agree) or self._settling >= SETTLE:
            self._base, self._settling = small, 0
            return False
        return True

    def _unexplained(self, small: Small, reading: LooseReading | None) -> list[np.ndarray]:
        """The changes since the held reading's frame where neither its cubes nor those of
        ``reading`` (read from the frame ``small`` was made of) lie: hands."""
        assert self._base is not None and self.held is not None
        shape = small.pixels.shape
        cubes = footprint(shape, _tops(self.held[1]), self._base.scale)
        cubes |= footprint(shape, _tops(reading), small.scale)
        side = self._side or cube_side([], 1.0, shape)
        return blobs(self._changed(small, self._base) & (1 - cubes), HAND * side * side)

    def covered(self, image: np.ndarray, reading: LooseReading | None) -> bool:
        """Whether ``image``, a photo of the same view at any size (the still taken at
        0:00), shows something besides cubes changed since the last stable reading was
        taken, ``reading`` being what it was read as: a hand over the cubes."""
        if self._base is None or self.held is None:
            return False
        return bool(self._unexplained(small_copy(image), reading))

    def ended(self) -> Live | None:
        """What to show once the source has ended: as after its last frame, but where
        nothing was ever stable, what the last frame read (a source of one frame)."""
        if self.held is None and self._pending is not None:
            self.held = self._pending[:2]
        return self._show(self._hand_shown)

    def _show(self, hands: bool) -> Live | None:
        self._hand_shown = hands
        if self.held is None:
            return Live(State.HANDS, None) if hands else None
        reading = self.held[1]
        if hands:
            return Live(State.HANDS, reading)
        if reading is None:
            return Live(State.EMPTY, None)
        return Live(State.CROSSWORD if reading.grid else State.LOOSE, reading)


def watch(read: Read, frames: Iterable[np.ndarray], *, agree: int = AGREE) -> list[Live | None]:
    """What the live reading shows after each of ``frames``: for tests and tools."""
    live = LiveReader(read, agree=agree)
    return [live.update(frame) for frame in frames]
