"""The buzzer's vocabulary: every cue the box sounds, as data.

A *note* is a pitch in hertz (0 for a rest) held for some seconds; a *tune* is a
sequence of notes. An active buzzer has one pitch of its own and only hears "on" and
"off"; a passive one plays the pitches. This module imports no hardware, so the
referee and the tests can name a cue without gpiozero.

The ``[tunes]`` settings replace a cue by name, written as notes ``PITCH:SECONDS``
apart by spaces: a pitch is a note name (``A5``, ``C#6``, ``Bb4``; A4 is 440 Hz), a
number of hertz, or ``-`` for a rest::

    [tunes]
    alarm = "A6:0.5 -:0.15 A6:0.5 -:0.15 E6:1"
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import CuberefError

#: A passive buzzer plays A5 (880 Hz) +- 2 octaves: 220-3520 Hz, where small piezos are loud.
MID_HERTZ = 880.0
OCTAVES = 2
PASSIVE_RANGE = (MID_HERTZ / 2**OCTAVES, MID_HERTZ * 2**OCTAVES)


@dataclass(frozen=True, slots=True)
class Note:
    hertz: float
    seconds: float

    @property
    def is_rest(self) -> bool:
        return self.hertz <= 0


@dataclass(frozen=True, slots=True)
class Tune:
    name: str
    notes: tuple[Note, ...]

    @property
    def seconds(self) -> float:
        return sum(note.seconds for note in self.notes)


#: The round starts: one short, bright beep.
START = Tune("start", (Note(1760, 0.15),))
#: One minute left: two short beeps.
ONE_MINUTE = Tune("one-minute", (Note(1320, 0.12), Note(0, 0.08), Note(1320, 0.12)))
#: Each of the last ten seconds: a tick short enough not to run into the next one.
TICK = Tune("tick", (Note(1320, 0.06),))
#: Time is up: a long alarm, three long tones that a noisy table still hears.
ALARM = Tune(
    "alarm",
    (Note(1760, 0.5), Note(0, 0.15), Note(1760, 0.5), Note(0, 0.15), Note(1760, 1.0)),
)
#: Something went wrong (a failed reading, a pulled camera): a low double buzz.
TROUBLE = Tune("trouble", (Note(440, 0.2), Note(0, 0.1), Note(440, 0.4)))
#: A round was cancelled by holding the button.
CANCEL = Tune("cancel", (Note(880, 0.1), Note(0, 0.05), Note(440, 0.2)))
#: A press the box did not take (the same press again, or too early in a round): a click.
NOT_TAKEN = Tune("not-taken", (Note(2640, 0.03),))

CATALOG: dict[str, Tune] = {
    tune.name: tune for tune in (START, ONE_MINUTE, TICK, ALARM, TROUBLE, CANCEL, NOT_TAKEN)
}


def timer_cues(seconds: int) -> list[tuple[float, Tune]]:
    """When each cue sounds in a round of ``seconds``, as (seconds after the start, tune).

    >>> [(at, tune.name) for at, tune in timer_cues(12)][:3]
    [(0.0, 'start'), (2.0, 'tick'), (3.0, 'tick')]
    >>> [(at, tune.name) for at, tune in timer_cues(180)][1]
    (120.0, 'one-minute')
    """
    cues: list[tuple[float, Tune]] = [(0.0, START)]
    if seconds > 60:
        cues.append((float(seconds - 60), ONE_MINUTE))
    cues += [(float(seconds - left), TICK) for left in range(10, 0, -1) if seconds - left > 0]
    cues.append((float(seconds), ALARM))
    return cues


#: Semitones of each note name above A in its octave (scientific pitch: C4 is middle C).
_SEMITONES = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2}
_NOTE = re.compile(r"([A-G])([#b]?)(-?\d)")
#: How long one note may last, in seconds.
NOTE_SECONDS = (0.01, 5.0)


def pitch(text: str) -> float:
    """A pitch in hertz from a note name, a number, or ``-`` (a rest, 0).

    >>> pitch("A4"), pitch("A5"), round(pitch("C#6"), 1), pitch("1760"), pitch("-")
    (440.0, 880.0, 1108.7, 1760.0, 0.0)
    """
    if text == "-":
        return 0.0
    named = _NOTE.fullmatch(text)
    if named:
        letter, accidental, octave = named.groups()
        semitones = _SEMITONES[letter] + {"#": 1, "b": -1, "": 0}[accidental]
        return 440.0 * 2 ** ((int(octave) - 4) + semitones / 12)
    try:
        hertz = float(text)
    except ValueError:
        raise CuberefError(
            f"{text!r} is not a pitch; write a note name such as A5, a number of hertz, or -."
        ) from None
    if not 0 <= hertz < float("inf"):
        raise CuberefError(f"{text!r} is not a pitch; hertz are a positive number.")
    return hertz


def parse_tune(name: str, text: str) -> Tune:
    """A tune written as ``PITCH:SECONDS`` notes apart by spaces (see the module's text)."""
    notes: list[Note] = []
    for written in text.replace(",", " ").split():
        sound, colon, length = written.partition(":")
        if not colon:
            raise CuberefError(f"{written!r} is not a note; write PITCH:SECONDS, as A5:0.2.")
        try:
            seconds = float(length)
        except ValueError:
            raise CuberefError(f"{written!r} does not say how many seconds it lasts.") from None
        low, high = NOTE_SECONDS
        if not low <= seconds <= high:
            raise CuberefError(f"{written!r} must last from {low:g} to {high:g} seconds.")
        notes.append(Note(pitch(sound), seconds))
    if not any(not note.is_rest for note in notes):
        raise CuberefError("a tune needs at least one note that sounds.")
    return Tune(name, tuple(notes))
