"""Button and buzzer on gpiozero's MockFactory: events, never sleeps."""

from __future__ import annotations

import queue

import pytest

from device.base.clock import FakeClock
from device.base.tunes import ALARM, CATALOG, START, TICK, timer_cues
from device.config.sections import BuzzerSettings
from device.parts.button import GpioButton, Press
from device.parts.buzzer import ActiveSound, Buzzer, PassiveSound
from engine.errors import CuberefError


def make_button(factory, clock, hold=0.1):
    events: queue.Queue[str] = queue.Queue()
    button = GpioButton(
        events, pin=17, bounce_seconds=0.04, hold_seconds=hold, clock=clock, pin_factory=factory
    )
    return button, events, factory.pin(17)


def test_a_tap_is_one_event(factory):
    clock = FakeClock()
    button, events, pin = make_button(factory, clock, hold=5)
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    assert events.get(timeout=1) is Press.TAP
    assert events.empty()
    button.close()


def test_a_bounce_does_not_count_twice(factory):
    clock = FakeClock()
    button, events, pin = make_button(factory, clock, hold=5)
    for _ in range(3):  # contacts chattering for a few milliseconds as they close
        pin.drive_low()
        clock.advance(0.002)
        pin.drive_high()
        clock.advance(0.002)
    pin.drive_low()
    clock.advance(0.15)
    pin.drive_high()
    clock.advance(0.002)
    pin.drive_low()  # and as they open again
    clock.advance(0.002)
    pin.drive_high()
    assert events.get(timeout=1) is Press.TAP
    assert events.empty()
    button.close()


def test_a_hold_is_a_hold_and_not_a_tap(factory):
    clock = FakeClock()
    button, events, pin = make_button(factory, clock, hold=0.1)
    pin.drive_low()
    assert events.get(timeout=2) is Press.HOLD  # gpiozero's hold thread, waited on, not slept
    clock.advance(3)
    pin.drive_high()
    assert events.empty()
    button.close()


def test_passive_buzzer_follows_the_schedule_on_a_fake_clock(factory):
    clock = FakeClock(start=0.0)
    buzzer = Buzzer(PassiveSound(18, pin_factory=factory))
    pin = factory.pin(18)
    seen: list[tuple[float, float | None]] = []
    buzzer.play(ALARM, clock.monotonic())
    for _ in range(300):
        frequency = pin.frequency if pin.state else None
        if not seen or seen[-1][1] != frequency:
            seen.append((round(clock.monotonic(), 2), frequency))
        clock.advance(0.01)
        buzzer.update(clock.monotonic())
    expected, at = [], 0.0
    for note in ALARM.notes:
        expected.append((round(at, 2), None if note.is_rest else note.hertz))
        at += note.seconds
    expected.append((round(at, 2), None))
    assert [f for _, f in seen] == [f for _, f in expected]
    for (t, _), (want, _) in zip(seen, expected, strict=True):
        assert t == pytest.approx(want, abs=0.011)  # one 10 ms step of the fake clock


def test_active_buzzer_is_on_and_off(factory):
    buzzer = Buzzer(ActiveSound(18, pin_factory=factory))
    pin = factory.pin(18)
    buzzer.play(START, 0.0)
    assert pin.state
    buzzer.update(START.seconds + 0.001)
    assert not pin.state


def test_the_round_schedule():
    cues = timer_cues(180)
    assert cues[0] == (0.0, START)
    assert [at for at, tune in cues if tune is TICK] == [float(s) for s in range(170, 180)]
    assert cues[-1] == (180.0, ALARM)
    for tune in CATALOG.values():  # every cue fits within a second, except the alarm
        assert tune is ALARM or tune.seconds < 1.0


def test_an_unknown_buzzer_is_one_sentence():
    with pytest.raises(CuberefError, match="no buzzer called 'kazoo'"):
        Buzzer.create(BuzzerSettings(type="kazoo"))
