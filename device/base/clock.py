"""Time sources. The referee never reads the system clock itself: it is handed a
``Clock``, so tests and ``cuberef demo`` run whole rounds on a fake one."""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    """What the box needs to know about time."""

    def monotonic(self) -> float:
        """Seconds from an arbitrary start, never going back: for the timer."""
        ...

    def wall(self) -> float:
        """Seconds since the epoch: for what the store records and a restart resumes."""
        ...

    def sleep(self, seconds: float) -> None:
        """Wait; a fake clock just moves on."""
        ...


class SystemClock:
    """The machine's own clocks."""

    def monotonic(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class FakeClock:
    """A clock that moves only when told to (``advance``) or when slept on."""

    def __init__(self, start: float = 1_000.0, wall_start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._wall_offset = wall_start - start
        self._lock = threading.Lock()

    def monotonic(self) -> float:
        with self._lock:
            return self._now

    def wall(self) -> float:
        with self._lock:
            return self._now + self._wall_offset

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += max(0.0, seconds)
