"""Backing off after failures: the unit starts a failed box again two seconds later, for
ever (a Pi is never given up on); the box itself waits longer each time it failed in a
row, 2, 4, 8 ... up to ``LONGEST`` seconds, so that a hard failure (a display that is
gone, a card that cannot be read) neither spins nor floods the journal, and says on its
screen why it was started again.

The failures are kept in the store's folder (``restarts.json``), the one place the box
writes; a clean stop, or a quiet spell of ``FORGET`` seconds, starts the count afresh.
systemd 254 and newer could do this with ``RestartSteps=``; Raspberry Pi OS bookworm
has systemd 252.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from device.base.inputs import load_json
from device.base.strings import say

log = logging.getLogger("cuberef")

NAME = "restarts.json"
LONGEST, FORGET = 60.0, 600.0


@dataclass(frozen=True)
class Failures:
    """The failures in a row: how many, when the last was, and what it said."""

    count: int = 0
    last: float = 0.0
    reason: str = ""

    def delay(self, now: float) -> float:
        """How long to wait before starting, from now.

        >>> Failures(3, 100.0, "x").delay(101.0)
        7.0
        >>> Failures(9, 100.0, "x").delay(100.0), Failures(3, 100.0, "x").delay(900.0)
        (60.0, 0.0)
        """
        if not self.count or now - self.last > FORGET:
            return 0.0
        return max(0.0, min(LONGEST, 2.0**self.count) - (now - self.last))


def read(folder: Path) -> Failures:
    try:
        data = load_json((folder / NAME).read_text(encoding="utf-8"))
        return Failures(int(data["count"]), float(data["last"]), str(data["reason"]))
    except (OSError, ValueError, KeyError, TypeError):  # none yet, or not ours: no count
        return Failures()


def failed(folder: Path, reason: str, clock: Callable[[], float] = time.time) -> None:
    """Count a failure (the box is about to exit 1)."""
    now = clock()
    before = read(folder)
    count = before.count + 1 if before.count and now - before.last <= FORGET else 1
    with contextlib.suppress(OSError):  # a full or read-only card: no back-off, no harm
        (folder / NAME).write_text(
            json.dumps({"count": count, "last": now, "reason": reason}), encoding="utf-8"
        )


def forget(folder: Path) -> None:
    """A clean stop: the next start is at once."""
    with contextlib.suppress(OSError):
        (folder / NAME).unlink(missing_ok=True)


def wait(
    folder: Path, sleep: Callable[[float], None], clock: Callable[[], float] = time.time
) -> str:
    """Wait out the back-off; the sentence the screen shows about it ("" if none)."""
    failures = read(folder)
    if not failures.count or clock() - failures.last > FORGET:
        return ""
    seconds = failures.delay(clock())
    times = "once" if failures.count == 1 else f"{failures.count} times in a row"
    log.warning(
        "cuberef failed %s (last: %s); starting again in %.0f s", times, failures.reason, seconds
    )
    if seconds:
        sleep(seconds)
    if failures.count == 1:
        return say("restarted-once", reason=failures.reason)
    return say("restarted", count=failures.count, reason=failures.reason)
