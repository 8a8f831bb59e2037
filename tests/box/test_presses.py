"""Presses as players make them: a double press is one press, no press ends a round in its
first seconds (a hold still cancels it), a screen the timer changed takes the next press
at once, a press the box does not take clicks and flashes, and what the keyboard's player
typed without Enter is gone when the round ends."""

from __future__ import annotations

import pygame

from device.referee.flow import State

from .conftest import ListReader, tray_reading
from .test_round import box_settings, build, run_out_the_clock


def press(made, clock, after: float = 2.0) -> None:
    """A press ``after`` seconds (of the fake clock) from now."""
    clock.advance(after)
    made.box.events.put("tap")
    made.box.step()


def to_the_match_table(made, clock) -> None:
    press(made, clock)
    assert made.referee.state is State.TIMING
    run_out_the_clock(made, clock)
    press(made, clock)  # scored
    press(made, clock)
    assert made.referee.state is State.MATCH


def test_a_double_press_at_the_match_table_starts_one_round(tmp_path, photos):
    made, clock, _ = build(tmp_path, photos, reader=ListReader([tray_reading()] * 2))
    to_the_match_table(made, clock)
    press(made, clock)
    press(made, clock, after=0.1)  # the second of two presses 0.1 s apart
    assert made.referee.state is State.TIMING
    assert made.referee.round.number == 2 and not made.referee.round.ended
    assert [e.kind for e in made.store.events(1)].count("round-ended") == 1
    made.close()


def test_no_press_ends_a_round_in_its_first_seconds_but_a_hold_cancels_it(tmp_path, photos):
    made, clock, _ = build(tmp_path, photos, reader=ListReader([tray_reading()] * 2))
    press(made, clock)
    assert made.referee.state is State.TIMING
    press(made, clock, after=1.5)  # meant for the screen before: the round goes on
    assert made.referee.state is State.TIMING
    press(made, clock, after=2.0)  # three and a half seconds in: the players call time
    assert made.referee.state is State.TIME_UP
    press(made, clock)  # scored
    press(made, clock)  # the table
    press(made, clock)  # the next round
    clock.advance(0.3)
    made.referee.handle("hold")
    assert made.referee.state is State.IDLE
    assert made.store.events(1)[-1].kind == "round-cancelled"
    made.close()


def keys(made, text: str, enter: bool = False) -> None:
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
    if enter:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
    made.box.step()


def test_letters_typed_without_enter_are_gone_when_the_round_ends(tmp_path, photos):
    chosen = box_settings(tmp_path, photos)
    chosen["players"] = ["Dee"]
    chosen["page"]["keyboard_player"] = "Dee"
    board = "SEET/ABEH/CDFG/IJKL"  # SEETHE is on it
    readings = ListReader([tray_reading(board), tray_reading(board)])
    made, clock, _ = build(tmp_path, photos, reader=readings, settings=chosen)
    press(made, clock)
    keys(made, "tas")  # and no Enter
    run_out_the_clock(made, clock)
    assert made.referee.state is State.SCORED
    press(made, clock)
    press(made, clock)
    assert made.referee.state is State.TIMING
    assert made.box.screen.shown.message.startswith("Dee: _")
    keys(made, "seethe", enter=True)
    assert [typed.word for typed in made.referee.desk.words("Dee")] == ["seethe"]
    run_out_the_clock(made, clock)
    scored = made.store.events(1)[-1].payload
    assert dict(scored.scores) == {"Dee": 3}  # SEETHE, six letters
    made.close()


def keyboard_box(tmp_path, photos, rounds: int = 2):
    """A box whose one player types on its keyboard: the round is scored at 0:00 by itself."""
    chosen = box_settings(tmp_path, photos)
    chosen["players"] = ["Dee"]
    chosen["page"]["keyboard_player"] = "Dee"
    readings = ListReader([tray_reading()] * rounds)
    return build(tmp_path, photos, reader=readings, settings=chosen)


def test_a_press_just_after_the_timer_brought_the_scores_is_taken(tmp_path, photos):
    made, clock, beeps = keyboard_box(tmp_path, photos)
    press(made, clock)
    run_out_the_clock(made, clock)  # 0:00: the lists are scored without a press
    assert made.referee.state is State.SCORED
    press(made, clock, after=0.3)  # the players' own press, not the timer's change again
    assert made.referee.state is State.MATCH
    assert not any("not-taken" in line for line in beeps)
    made.close()


def test_a_press_the_box_does_not_take_clicks_and_flashes(tmp_path, photos):
    made, clock, beeps = keyboard_box(tmp_path, photos)
    press(made, clock)
    assert made.referee.state is State.TIMING and not made.box.screen.shown.flash
    press(made, clock, after=1.5)  # too early in the round: not taken, and the box says so
    assert made.referee.state is State.TIMING
    assert beeps[-1].startswith("buzzer: not-taken")
    assert made.box.screen.shown.flash
    clock.advance(0.5)
    made.box.step()
    assert not made.box.screen.shown.flash  # a flash, not a change of screen
    heard = len(beeps)
    run_out_the_clock(made, clock)
    press(made, clock)  # the table
    press(made, clock)  # the next round
    press(made, clock, after=0.2)  # the same press again: one with it, and a sign
    assert made.referee.round.number == 2 and made.referee.state is State.TIMING
    assert [line.split()[1] for line in beeps[heard:]][-1] == "not-taken"
    assert made.box.screen.shown.flash
    made.close()
