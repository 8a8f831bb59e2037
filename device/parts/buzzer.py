"""The buzzer: plays tunes from ``device.base.tunes`` without blocking the main loop.

``Buzzer`` keeps the notes still to play and, on each ``update(now)``, switches the
sound backend to the note due at ``now``. Timing comes from the box's clock, not from
gpiozero's background threads, so a fake clock drives the pin exactly as the real one.

Backends (``BACKENDS``): ``passive`` (gpiozero ``TonalBuzzer``, a piezo fed PWM),
``active`` (gpiozero ``Buzzer``, on/off), ``bell`` (the terminal bell, for
``--simulate``), ``print`` (one line per cue, for ``cuberef demo``) and ``silent``.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from device.base.tunes import MID_HERTZ, OCTAVES, PASSIVE_RANGE, Note, Tune
from device.config.sections import BuzzerSettings
from device.parts.backends import pick
from device.parts.gpio import claim

log = logging.getLogger("cuberef.buzzer")


class Sound(Protocol):
    """A sound backend: sound one pitch (0 = any, for an active buzzer) or be quiet."""

    def tone(self, hertz: float) -> None: ...

    def quiet(self) -> None: ...

    def cue(self, tune: Tune) -> None:
        """Called once as a tune starts (for backends that announce, not sound)."""
        ...

    def close(self) -> None: ...


class PassiveSound:
    """A passive piezo on a GPIO pin through gpiozero's ``TonalBuzzer``."""

    def __init__(self, pin: int, pin_factory: Any = None) -> None:
        from gpiozero import TonalBuzzer
        from gpiozero.tones import Tone

        self.tone_of = Tone
        self.device = claim(
            lambda: TonalBuzzer(
                pin, mid_tone=Tone(frequency=MID_HERTZ), octaves=OCTAVES, pin_factory=pin_factory
            ),
            "buzzer",
            pin,
        )

    def tone(self, hertz: float) -> None:
        low, high = PASSIVE_RANGE
        if not low <= hertz <= high:
            raise ValueError(f"{hertz:g} Hz is outside the buzzer's {low:g}-{high:g} Hz")
        # A Tone, not a bare number: TonalBuzzer reads a number below 128 as a MIDI note.
        self.device.play(self.tone_of(frequency=hertz))

    def quiet(self) -> None:
        self.device.stop()

    def cue(self, tune: Tune) -> None:
        pass

    def close(self) -> None:
        self.device.close()


class ActiveSound:
    """An active buzzer (its own oscillator) on a GPIO pin through gpiozero's ``Buzzer``."""

    def __init__(self, pin: int, pin_factory: Any = None) -> None:
        from gpiozero import Buzzer as GpioBuzzer

        self.device = claim(lambda: GpioBuzzer(pin, pin_factory=pin_factory), "buzzer", pin)

    def tone(self, hertz: float) -> None:
        self.device.on()

    def quiet(self) -> None:
        self.device.off()

    def cue(self, tune: Tune) -> None:
        pass

    def close(self) -> None:
        self.device.close()


class BellSound:
    """The terminal bell, once per sounding note: ``--simulate`` on a laptop."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr

    def tone(self, hertz: float) -> None:
        self.stream.write("\a")
        self.stream.flush()

    def quiet(self) -> None:
        pass

    def cue(self, tune: Tune) -> None:
        pass

    def close(self) -> None:
        pass


class PrintedSound:
    """One printed line per cue: what ``cuberef demo`` uses instead of a buzzer."""

    def __init__(
        self, write: Callable[[str], None] = print, clock: Callable[[], float] | None = None
    ) -> None:
        self.write = write
        self.clock = clock

    def tone(self, hertz: float) -> None:
        pass

    def quiet(self) -> None:
        pass

    def cue(self, tune: Tune) -> None:
        when = f" at {self.clock():.2f} s" if self.clock else ""
        self.write(f"buzzer: {tune.name} ({tune.seconds:.2f} s){when}")

    def close(self) -> None:
        pass


class SilentSound(PrintedSound):
    def __init__(self) -> None:
        super().__init__(write=lambda _line: None)


#: Buzzer type (the ``[buzzer] type`` setting) -> the sound its section makes (given
#: gpiozero's pin factory, for the buzzers on a pin).
BACKENDS: dict[str, Callable[..., Sound]] = {
    "passive": lambda chosen, pin_factory=None: PassiveSound(chosen.pin, pin_factory=pin_factory),
    "active": lambda chosen, pin_factory=None: ActiveSound(chosen.pin, pin_factory=pin_factory),
    "bell": lambda _chosen, pin_factory=None: BellSound(),
    "print": lambda _chosen, pin_factory=None: PrintedSound(),
    "silent": lambda _chosen, pin_factory=None: SilentSound(),
}


class Buzzer:
    """Plays tunes on a sound backend, one note at a time, as the clock moves on.

    ``tunes`` replace the built-in cues of the same name (the ``[tunes]`` settings).
    A sound backend that fails never stops the box: the note is dropped and logged."""

    def __init__(self, sound: Sound, tunes: dict[str, Tune] | None = None) -> None:
        self.sound = sound
        self.tunes = dict(tunes or {})
        self._queue: list[tuple[float, Note]] = []  # (start time, note), in order
        self._sounding: Note | None = None

    @classmethod
    def create(
        cls,
        chosen: BuzzerSettings,
        *,
        tunes: dict[str, Tune] | None = None,
        pin_factory: Any = None,
    ) -> Buzzer:
        """The buzzer the ``[buzzer]`` section names, playing ``tunes`` for its cues."""
        backend = pick(BACKENDS, chosen.type, "buzzer")
        return cls(backend(chosen, pin_factory=pin_factory), tunes)

    def play(self, tune: Tune, now: float) -> None:
        """Start ``tune`` at ``now``, cutting short whatever was playing."""
        tune = self.tunes.get(tune.name, tune)
        self._queue = []
        at = now
        for note in tune.notes:
            self._queue.append((at, note))
            at += note.seconds
        self._queue.append((at, Note(0, 0)))
        log.info("buzzer: %s", tune.name)
        self.sound.cue(tune)
        self.update(now)

    @property
    def busy(self) -> bool:
        return bool(self._queue)

    def update(self, now: float) -> None:
        """Switch the backend to the note due at ``now``."""
        due: Note | None = None
        while self._queue and self._queue[0][0] <= now:
            due = self._queue.pop(0)[1]
        if due is None:
            return
        try:
            if due.is_rest:
                if self._sounding is not None:
                    self.sound.quiet()
                self._sounding = None
            else:
                self.sound.tone(due.hertz)
                self._sounding = due
        except Exception as error:  # the buzzer is a cue, never a reason to stop the round
            log.error("the buzzer failed: %s", error)
            self._sounding = None

    def close(self) -> None:
        """Quiet first: an active buzzer stopped mid-beep must not stay on."""
        self._queue = []
        try:
            self.sound.quiet()
        finally:
            self.sound.close()
