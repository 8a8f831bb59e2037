"""Presses as players make them: a double press is one press, no press ends a round in its
first seconds (a hold still cancels it), and what the keyboard's player typed without
Enter is gone when the round ends."""

from __future__ import annotations

import pygame

from device.flow import State

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
