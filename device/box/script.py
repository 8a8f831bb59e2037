"""A scripted box: ``cuberef run --simulate --script FILE`` plays a file of timed events, one
a line (``#`` starts a comment), as a player at the box would:

    press            the button, once
    hold             held for the hold time: cancel
    double           two presses 0.1 s apart
    keys TEXT        the keyboard's player types TEXT, without Enter
    type TEXT        ... and then Enter
    sleep SECONDS    wait
    wait STATE [S]   until the box is (or has been, since the last line) in STATE: idle,
                     reading, starter, timing, time-up, scoring, scored or match; at most
                     S seconds (30 if not given), else the box stops with exit code 1
    quit             stop here

The box exits 0 at the end of the script. The demo and bug reports use the same scripts.

>>> steps = parse("press\\nwait timing 5  # the roll read\\nkeys tas\\n", "s.txt")
>>> [(step.kind, step.text, step.seconds) for step in steps]
[('press', '', 0.0), ('wait', 'timing', 5.0), ('keys', 'tas', 0.0)]
>>> parse("wait dancing", "s.txt")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.CuberefError: s.txt, line 1: 'dancing' is not a state of the box; wait for ...
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import CuberefError, MachineError

#: The states a script may wait for (the failsafe is not one a script plays towards).
STATES = ("idle", "reading", "starter", "timing", "time-up", "scoring", "scored", "match")
#: How long ``wait`` waits when the line does not say.
WAIT_SECONDS = 30.0
#: The second press of ``double``, after the first.
DOUBLE_SECONDS = 0.1
#: Each kind of line and how many words follow it: (least, most); -1: the rest of the line.
KINDS = {
    "press": (0, 0),
    "hold": (0, 0),
    "double": (0, 0),
    "keys": (1, -1),
    "type": (1, -1),
    "sleep": (1, 1),
    "wait": (1, 2),
    "quit": (0, 0),
}


class ScriptFailed(MachineError):
    """A ``wait`` that timed out: the box did not do what the script expected."""


@dataclass(frozen=True, slots=True)
class Step:
    kind: str
    text: str = ""
    seconds: float = 0.0
    line: int = 0


def parse(text: str, name: str) -> list[Step]:
    """The script's steps; a wrong line is a sentence naming it."""
    steps = []
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        steps.append(_step(words, number, f"{name}, line {number}"))
    return steps


def _step(words: list[str], number: int, where: str) -> Step:
    kind, rest = words[0].lower(), words[1:]
    if kind not in KINDS:
        raise CuberefError(
            f"{where}: {kind!r} is not a script event; use one of {', '.join(KINDS)}."
        )
    least, most = KINDS[kind]
    if len(rest) < least or (most >= 0 and len(rest) > most):
        shape = {
            "keys": "keys TEXT",
            "type": "type TEXT",
            "sleep": "sleep SECONDS",
            "wait": "wait STATE [SECONDS]",
        }.get(kind, kind)
        raise CuberefError(f"{where}: write it as {shape}.")
    if kind in ("keys", "type"):
        return Step(kind, " ".join(rest), line=number)
    if kind == "sleep":
        return Step(kind, seconds=_seconds(rest[0], where), line=number)
    if kind == "wait":
        state = rest[0].lower()
        if state not in STATES:
            raise CuberefError(
                f"{where}: {rest[0]!r} is not a state of the box; wait for one of "
                f"{', '.join(STATES)}."
            )
        seconds = _seconds(rest[1], where) if len(rest) > 1 else WAIT_SECONDS
        return Step(kind, state, seconds, number)
    return Step(kind, line=number)


def _seconds(text: str, where: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not (0 <= seconds <= 86_400):
        raise CuberefError(f"{where}: {text!r} is not a number of seconds from 0 to 86400.")
    return seconds


@dataclass
class Hands:
    """What a script does to the box: the button, the keyboard, the state it is in."""

    press: Callable[[], None]
    hold: Callable[[], None]
    keys: Callable[[str, bool], None]
    state: Callable[[], str]
    message: Callable[[], str]


class Player:
    """Plays a script's steps, a few each frame of the box's loop (``play``), on the box's
    own clock; ``seen`` is told of every state the box enters."""

    def __init__(self, steps: list[Step], hands: Hands, now: float) -> None:
        self.steps = list(steps)
        self.hands = hands
        self.seen: set[str] = set()
        self._since = now  # when the step under way began
        self._next = 0
        self._pressed_twice_at: float | None = None

    def saw(self, state: str) -> None:
        self.seen.add(state)

    def play(self, now: float) -> bool:
        """Do what is due at ``now``; False once the script is over (or says quit)."""
        if self._pressed_twice_at is not None:
            if now < self._pressed_twice_at:
                return True
            self._pressed_twice_at = None
            self.hands.press()
            return self._begin_next(now)
        if self._next >= len(self.steps):
            return False
        step = self.steps[self._next]
        if step.kind == "sleep":
            return now - self._since < step.seconds or self._begin_next(now)
        if step.kind == "wait":
            if step.text in self.seen or self.hands.state() == step.text:
                return self._begin_next(now)
            if now - self._since >= step.seconds:
                raise ScriptFailed(
                    f"Script line {step.line}: the box was not in {step.text} within "
                    f"{step.seconds:g} s; it is in {self.hands.state()} "
                    f"({self.hands.message() or 'nothing said'})."
                )
            return True
        if step.kind == "quit":
            self._next = len(self.steps)
            return False
        if step.kind == "press":
            self.hands.press()
        elif step.kind == "hold":
            self.hands.hold()
        elif step.kind == "double":
            self.hands.press()
            self._pressed_twice_at = now + DOUBLE_SECONDS
            return True
        else:
            self.hands.keys(step.text, step.kind == "type")
        return self._begin_next(now)

    def _begin_next(self, now: float) -> bool:
        self._next += 1
        self._since = now
        self.seen = set()
        return True
