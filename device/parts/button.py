"""The big button: a tap moves the round on, a hold cancels it.

Tap and hold are told apart as gpiozero's FAQ recommends: ``when_pressed`` is left
without an action, ``when_held`` raises a flag (and reports the hold at once, so the
player hears the cancel while still holding), and ``when_released`` reports a tap
only if the flag is down. gpiozero calls these on its own thread, so they do nothing
but put an event on a queue that the main loop empties.

A press shorter than the debounce time is a bounce of the contacts and is dropped
here as well as by the pin factory, whose debounce differs from one factory to the
next (gpiozero issues #378, #550, #828) and does not exist on the mock pins.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from device.base.clock import Clock, SystemClock
from device.config.sections import ButtonSettings
from device.parts.backends import pick
from device.parts.gpio import claim


class Press(StrEnum):
    """What a player does with the button (or a key, a click); the box hands each to the
    referee as its event."""

    TAP = "tap"
    HOLD = "hold"


class GpioButton:
    """A push-button between a GPIO pin and ground (or 3V3 with ``pull_up=False``)."""

    def __init__(
        self,
        events: queue.Queue[Press],
        *,
        pin: int = 17,
        pull_up: bool = True,
        bounce_seconds: float = 0.04,
        hold_seconds: float = 2.0,
        clock: Clock | None = None,
        pin_factory: Any = None,
    ) -> None:
        from gpiozero import Button as GpioZeroButton

        self.events = events
        self.clock = clock or SystemClock()
        self.bounce_seconds = bounce_seconds
        self._held = False
        self._pressed_at: float | None = None
        self.device = claim(
            lambda: GpioZeroButton(
                pin,
                pull_up=pull_up,
                bounce_time=bounce_seconds or None,
                hold_time=hold_seconds,
                pin_factory=pin_factory,
            ),
            "button",
            pin,
        )
        self.device.when_pressed = self._pressed
        self.device.when_held = self._on_held
        self.device.when_released = self._released

    def _pressed(self) -> None:
        self._pressed_at = self.clock.monotonic()

    def _on_held(self) -> None:
        # A dropped release edge can leave gpiozero reporting holds of a released
        # button (gpiozero #697, #1090); believe a hold only while the pin says pressed.
        if not self.device.is_pressed:
            return
        if not self._held:
            self._held = True
            self.events.put(Press.HOLD)

    def _released(self) -> None:
        held, self._held = self._held, False
        pressed_at, self._pressed_at = self._pressed_at, None
        if held or pressed_at is None:
            return
        if self.clock.monotonic() - pressed_at < self.bounce_seconds:
            return  # a bounce of the contacts, not a press
        self.events.put(Press.TAP)

    def close(self) -> None:
        self.device.close()


class KeyButton:
    """The space bar or a click stands in for the button (``--simulate``).

    The screen's event loop calls ``key_down``/``key_up``; a key held for the hold
    time is a hold, anything shorter a tap. Escape is a hold at once.
    """

    def __init__(
        self, events: queue.Queue[Press], *, hold_seconds: float = 2.0, clock: Clock | None = None
    ) -> None:
        self.events = events
        self.hold_seconds = hold_seconds
        self.clock = clock or SystemClock()
        self._down_at: float | None = None
        self._held = False

    def key_down(self) -> None:
        if self._down_at is None:
            self._down_at = self.clock.monotonic()
            self._held = False

    def poll(self) -> None:
        """Report a hold once the key has been down long enough."""
        down = self._down_at
        if (
            down is not None
            and not self._held
            and self.clock.monotonic() - down >= self.hold_seconds
        ):
            self._held = True
            self.events.put(Press.HOLD)

    def key_up(self) -> None:
        if self._down_at is None:
            return
        self.poll()
        if not self._held:
            self.events.put(Press.TAP)
        self._down_at = None

    def cancel(self) -> None:
        self.events.put(Press.HOLD)

    def close(self) -> None:
        pass


#: Button backend name (the ``[button] backend`` setting) -> the button its section makes,
#: given the queue its presses go to, the hold time, the clock and gpiozero's pin factory.
BACKENDS: dict[str, Callable[..., GpioButton | KeyButton]] = {
    "gpio": lambda chosen, events, **wiring: GpioButton(
        events,
        pin=chosen.pin,
        pull_up=chosen.pull_up,
        bounce_seconds=chosen.bounce_ms / 1000,
        **wiring,
    ),
    "keys": lambda _chosen, events, *, pin_factory=None, **wiring: KeyButton(events, **wiring),
}


def make_button(
    chosen: ButtonSettings,
    events: queue.Queue[Press],
    *,
    hold_seconds: float,
    clock: Clock,
    pin_factory: Any = None,
) -> GpioButton | KeyButton:
    make = pick(BACKENDS, chosen.backend, "button")
    return make(chosen, events, hold_seconds=hold_seconds, clock=clock, pin_factory=pin_factory)
