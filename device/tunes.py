"""The buzzer's vocabulary: every cue the box sounds, as data.

A *note* is a pitch in hertz (0 for a rest) held for some seconds; a *tune* is a
sequence of notes. An active buzzer has one pitch of its own and only hears "on" and
"off"; a passive one plays the pitches. This module imports no hardware, so the
referee and the tests can name a cue without gpiozero.
"""

from __future__ import annotations

from dataclasses import dataclass


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

CATALOG: dict[str, Tune] = {
    tune.name: tune for tune in (START, ONE_MINUTE, TICK, ALARM, TROUBLE, CANCEL)
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
