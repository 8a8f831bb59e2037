"""The sign a press the box does not take gives (the same press again, a press too early
in a round): a click on the buzzer and a flash of the screen's edge, so that a player
never wonders whether the box heard them."""

from __future__ import annotations

import logging
import math

from device.base.tunes import NOT_TAKEN
from device.parts.buzzer import Buzzer

log = logging.getLogger("cuberef.sign")

#: How long the screen's edge flashes.
FLASH_SECONDS = 0.3


class Sign:
    def __init__(self, buzzer: Buzzer) -> None:
        self.buzzer = buzzer
        self.until = -math.inf

    def give(self, now: float) -> None:
        """Flash, and click unless the buzzer is sounding a cue that matters more."""
        log.info("a press not taken: a click and a flash")
        self.until = now + FLASH_SECONDS
        self.buzzer.update(now)  # a cue over by now is not sounding
        if not self.buzzer.busy:
            self.buzzer.play(NOT_TAKEN, now)

    def flashing(self, now: float) -> bool:
        return now < self.until
