"""A clock for tests, in a module of its own: a search's worker processes import it to
unpickle one, and should not have to import a test module (pytest, hypothesis and all)."""

from __future__ import annotations


class FakeClock:
    """Time that moves a fixed step each time it is read: the search's work, not the CPU's speed."""

    def __init__(self, step: float = 0.01) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now
