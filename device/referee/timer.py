"""The round's timer and its cues on the buzzer: a short beep at the start, beeps at 1:00
and each of the last ten seconds (the alarm at 0:00 is the time-up step's). A timer
resumed after a restart sounds only the cues still to come.

>>> from device.parts.buzzer import Buzzer, PrintedSound
>>> heard = []
>>> timer = Timer(Buzzer(PrintedSound(write=heard.append)))
>>> timer.start(now=0.0, total=12, left=12)
>>> timer.tick(now=2.5), timer.left(now=2.5)
(False, 9.5)
>>> [line.split()[1] for line in heard]
['start', 'tick']
"""

from __future__ import annotations

from device.base.tunes import ALARM, Tune, timer_cues
from device.parts.buzzer import Buzzer


class Timer:
    def __init__(self, buzzer: Buzzer) -> None:
        self.buzzer = buzzer
        self.deadline = 0.0
        self._cues: list[tuple[float, Tune]] = []

    def start(self, now: float, total: int, left: float) -> None:
        """Run the last ``left`` seconds of a ``total``-second round from ``now``."""
        start = now - (total - left)
        self.deadline = now + left
        self._cues = [
            (start + at, tune)
            for at, tune in timer_cues(total)
            if tune is not ALARM and start + at >= now - 0.5
        ]
        self.tick(now)

    def tick(self, now: float) -> bool:
        """Sound the cues that are due; whether the time is up."""
        while self._cues and self._cues[0][0] <= now:
            self.buzzer.play(self._cues.pop(0)[1], now)
        return now >= self.deadline

    def left(self, now: float) -> float:
        return max(0.0, self.deadline - now)

    def stop(self, now: float) -> float:
        """Stop, silencing the cues to come; the seconds that were left."""
        self._cues = []
        left = self.left(now)
        self.deadline = now
        return left
