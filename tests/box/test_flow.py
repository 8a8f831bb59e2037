"""The flow's edges: cancel from every state, the failsafe, simulate keys, each screen."""

from __future__ import annotations

import queue
from pathlib import Path

import numpy as np
import pygame
import pytest

from device.base.clock import FakeClock
from device.config.sections import CameraSettings
from device.draw.render import draw_text
from device.draw.tiles import draw_tile
from device.parts.button import KeyButton, Press
from device.parts.camera import FolderCamera, open_camera
from device.referee.flow import OWN, TRANSITIONS, Event, State
from device.screens.views import view_of
from device.seams.readings import doubtful_of
from device.seams.seams import Scorer
from device.store.store import Store
from engine.errors import CuberefError

from .conftest import BOARD, ListReader, tray_reading
from .test_round import box_settings, build, run_out_the_clock, tap


def drive_to(made, clock, state):
    """Tap and let time pass until the referee is in ``state``."""
    for _ in range(6):
        if made.referee.state is state:
            return
        if made.referee.state is State.TIMING:
            run_out_the_clock(made, clock)
        else:
            tap(made)
    assert made.referee.state is state


@pytest.mark.parametrize("state", [State.TIMING, State.TIME_UP, State.SCORED, State.MATCH])
def test_a_hold_cancels_from_every_state(tmp_path, photos, state):
    made, clock, beeps = build(tmp_path, photos, reader=ListReader([tray_reading()] * 3))
    drive_to(made, clock, state)
    made.referee.handle(Event.HOLD)
    assert made.referee.state is State.IDLE
    assert "cancel" in beeps[-1]
    kinds = [e.kind for e in made.store.events(1)]
    assert (kinds[-1] == "round-cancelled") == (state in (State.TIMING, State.TIME_UP))
    tap(made)  # and the next round reads a new roll
    assert made.referee.state is State.TIMING
    made.close()


def test_the_table_holds_every_move_and_reaches_every_state():
    assert {target for target in TRANSITIONS.values()} == set(State)
    for state in State:  # a hold cancels (but where a state says otherwise) and an error
        # is the failsafe's, from everywhere
        assert TRANSITIONS[(state, Event.HOLD)] is OWN.get((state, Event.HOLD), State.IDLE)
        assert TRANSITIONS[(state, Event.ERROR)] is State.FAILSAFE
    resumed = {TRANSITIONS[(State.IDLE, e)] for e in Event if e.startswith("resume-")}
    assert resumed == {State.STARTER, State.TIMING, State.TIME_UP, State.SCORED, State.MATCH}


def test_an_unexpected_error_goes_to_the_failsafe_and_a_tap_recovers(tmp_path, photos):
    class Broken(Scorer):
        def solve(self, board, game, lexicon=""):
            raise ZeroDivisionError("division by zero")

    made, clock, _ = build(
        tmp_path, photos, scorer=Broken(), reader=ListReader([tray_reading()] * 2)
    )
    drive_to(made, clock, State.TIME_UP)
    tap(made)
    assert made.referee.state is State.FAILSAFE
    assert "division by zero" in made.box.screen.shown.notice
    tap(made)
    assert made.referee.state is State.IDLE


def test_a_match_ends_after_its_rounds(tmp_path, photos):
    chosen = box_settings(tmp_path, photos)
    chosen["rounds"] = 2
    made, clock, _ = build(
        tmp_path, photos, reader=ListReader([tray_reading()] * 3), settings=chosen
    )
    for _ in range(2):
        tap(made)
        run_out_the_clock(made, clock)
        tap(made)
        tap(made)
    assert made.referee.match.ended
    assert made.store.events(1)[-1].kind == "match-ended"
    assert made.store.latest_match() == 1
    tap(made)
    assert made.referee.match.number == 2
    made.close()


def test_a_corrupt_store_is_said_on_the_screen(tmp_path, photos):
    store = Store(tmp_path / "store")
    store.close()
    (tmp_path / "store" / "matches.db").write_bytes(b"\0garbage" * 500)
    made, _, _ = build(tmp_path, photos)
    made.box.step()
    assert "damaged" in made.box.screen.shown.notice
    made.close()


def test_space_bar_and_escape_work_as_the_button(tmp_path, photos):
    made, clock, _ = build(tmp_path, photos)
    assert isinstance(made.button, KeyButton)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_SPACE, mod=0))
    made.box.step()
    assert made.referee.state is State.TIMING
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0))
    made.box.step()
    assert made.referee.state is State.IDLE
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    made.box.run(clock.sleep)  # returns once the window is closed
    assert not made.box.running
    made.close()


def test_a_long_key_press_is_a_hold():
    clock = FakeClock()
    events: queue.Queue[str] = queue.Queue()
    keys = KeyButton(events, hold_seconds=2, clock=clock)
    keys.key_down()
    clock.advance(1.0)
    keys.poll()
    assert events.empty()
    clock.advance(1.1)
    keys.poll()
    keys.key_up()
    assert [events.get_nowait() for _ in range(events.qsize())] == [Press.HOLD]
    keys.key_down()
    clock.advance(0.3)
    keys.key_up()
    assert events.get_nowait() is Press.TAP


def test_each_screen_is_saved_and_the_timer_screen_shows_board_and_clock(tmp_path, photos):
    shots = tmp_path / "shots"
    made, clock, _ = build(tmp_path, photos, screenshots=shots)
    made.box.draw()
    tap(made)
    clock.advance(13.2)
    made.box.step()
    timer_png = made.box.screenshot("timer")
    layout = made.box.screen.layout
    doubtful = doubtful_of(made.referee.round.reading)
    run_out_the_clock(made, clock)
    tap(made)
    tap(made)
    names = [path.stem.split("-", 1)[1] for path in made.box.saved]
    assert names == ["idle", "reading", "timing", "timer", "time-up", "scoring", "scored", "match"]
    image = pygame.image.load(str(timer_png))
    letters = sorted(set("ABCDEFGHIJKLMNOPRSTUVWYZ"))
    read = ""
    for index, cell in enumerate(layout.cells):
        mark = index in doubtful

        def tile(surface, rect, text, mark=mark):
            draw_tile(surface, rect, text, mark)

        read += _nearest(image, cell, letters, tile)
    assert read == BOARD.replace("/", "")
    clocks = ["2:47", "2:46", "2:48", "1:47", "2:17"]
    assert _nearest(image, layout.clock, clocks, _clock) == "2:47"
    made.close()


def _clock(surface, rect, text):
    draw_text(surface, text, rect, (238, 238, 232))


def _nearest(image, rect, candidates, draw):
    """The candidate that, drawn afresh on the screen's background, best matches ``rect``."""
    seen = pygame.surfarray.array3d(image.subsurface(rect)).astype(np.int32)
    background = image.get_at((1, image.get_height() // 2))
    scores = {}
    for text in candidates:
        fresh = pygame.Surface(image.get_size())
        fresh.fill(background)
        draw(fresh, rect, text)
        drawn = pygame.surfarray.array3d(fresh.subsurface(rect)).astype(np.int32)
        scores[text] = int(np.abs(drawn - seen).sum())
    return min(scores, key=scores.__getitem__)


def test_doubtful_faces_are_marked_in_orange(tmp_path, photos):
    made, clock, _ = build(tmp_path, photos)
    tap(made)
    surface = made.box.screen.surface
    cells = made.box.screen.layout.cells
    orange = (255, 150, 30)

    def has_orange(cell):
        pixels = pygame.surfarray.array3d(surface.subsurface(cell)).reshape(-1, 3)
        return bool((np.abs(pixels - orange).sum(axis=1) < 10).any())

    assert has_orange(cells[3]) and not has_orange(cells[0])
    made.close()


def test_cameras_are_chosen_by_name_and_fallbacks_are_said(photos):
    with pytest.raises(CuberefError, match="no camera called 'webcam'"):
        open_camera(CameraSettings(backend="webcam", width=640, height=480), [])
    camera = FolderCamera(folder=photos)
    first, second = camera.capture(), camera.capture()
    assert first.shape == (60, 80, 3) and first.dtype == np.uint8
    assert not np.array_equal(first, second)
    notices: list[str] = []
    settings = CameraSettings(width=640, height=480, usb_index=63, folder=str(photos))
    chosen = open_camera(settings, notices)
    assert chosen.name == "folder"
    assert notices and "picamera" in notices[0] and "usb" in notices[0]


def test_scores_are_listed_longest_first(tmp_path, photos):
    made, clock, _ = build(tmp_path, photos)
    drive_to(made, clock, State.SCORED)
    lines = [str(line) for line in view_of(made.referee).lines]  # on every page
    lengths = [len(line.split()[0]) for line in lines]
    assert lengths == sorted(lengths, reverse=True) and "DART  1" in lines
    found = made.referee.round.found
    assert f"{len(found)} words on the tray, {sum(w.points for w in found)} points" in (
        made.box.screen.shown.message
    )
    assert "Page 1 of " in made.box.screen.shown.message  # every word, page after page
    made.close()


def test_a_tap_pressed_during_a_slow_reading_is_dropped(tmp_path, photos):
    made, clock, _ = build(tmp_path, photos)

    class SlowReader(ListReader):
        def read_roll(self, image, game):
            clock.advance(2.0)  # the reading takes two seconds...
            made.box.events.put(Press.TAP)  # ...and an impatient player presses again
            return tray_reading()

    made.referee.parts = made.referee.parts.__class__(
        **{**made.referee.parts.__dict__, "reader": SlowReader([])}
    )
    tap(made)
    assert made.referee.state is State.TIMING
    assert made.box.events.empty()
    made.close()


def test_doctor_says_what_works_and_the_fix_for_what_does_not(tmp_path, photos):
    import os
    import subprocess
    import sys

    config = tmp_path / "box.toml"
    config.write_text(
        f'[camera]\nbackend = "folder"\nfolder = "{photos}"\n'
        f'[screen]\nbackend = "dummy"\n[store]\nfolder = "{tmp_path / "store"}"\n',
        encoding="utf-8",
    )
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy"}
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "doctor", "--config", str(config)],
        capture_output=True,
        text=True,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
    )
    lines = result.stdout.splitlines()
    assert any(line.startswith("ok   camera: folder gave a 80x60 picture") for line in lines)
    assert any(line.startswith("ok   pins: button on GPIO17") for line in lines)
    assert any(line.startswith("ok   screen: dummy opened at 800x480") for line in lines)
    assert any(line.startswith("ok   lexicons: en opens") for line in lines)
    assert any(line.startswith("ok   store:") for line in lines)
    failed = [line for line in lines if line.startswith("FIX")]
    assert result.returncode == (1 if failed else 0)
    assert all(line.rstrip().endswith(".") for line in lines)


def test_a_cancelled_round_keeps_its_number_and_its_photo(tmp_path, photos):
    made, clock, _ = build(tmp_path, photos, reader=ListReader([tray_reading()] * 2))
    tap(made)
    made.referee.handle(Event.HOLD)
    tap(made)
    assert made.referee.round.number == 2
    reads = [e for e in made.store.events(1) if e.kind == "roll-read"]
    assert [e.round for e in reads] == [1, 2]
    assert len({e.payload.photo for e in reads}) == 2
    assert all((made.store.photos / e.payload.photo).is_file() for e in reads)
    made.close()


def test_a_photo_name_taken_twice_keeps_both(tmp_path):
    store = Store(tmp_path)
    first = store.save_photo("round1.jpg", b"one")
    second = store.save_photo("round1.jpg", b"two")
    assert first != second
    assert (store.photos / first).read_bytes() == b"one"
    assert (store.photos / second).read_bytes() == b"two"


def test_the_failsafe_notice_goes_once_the_box_is_back(tmp_path, photos):
    made, clock, _ = build(tmp_path, photos)
    made.referee.handle(Event.ERROR)  # as a step that failed answers
    assert made.referee.state is State.FAILSAFE
    made.referee.notices.say("failsafe", "Something went wrong.")
    tap(made)
    assert made.referee.state is State.IDLE and made.referee.notice is None
    made.close()
