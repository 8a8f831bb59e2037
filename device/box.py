"""The box: the main loop that ties button, referee, buzzer and screen together.

Button events arrive on a queue (from gpiozero's thread or from the keyboard), the
screen's touches and clicks come from pygame, and each ``step`` hands them to the
referee, lets the timer run, and redraws when the view has changed. Nothing here
reads the time except through the referee's clock.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from pathlib import Path

import pygame

from device.button import KeyButton
from device.flow import Event, State
from device.readings import faces_of
from device.referee import Referee
from device.render import View
from device.screen import Screen
from device.views import view_of
from engine.faces import ALPHABET, Face

log = logging.getLogger("cuberef.box")

#: States in which touching a cube changes what the box read.
CORRECTABLE = (State.TIMING, State.TIME_UP)


class Box:
    def __init__(
        self,
        referee: Referee,
        screen: Screen,
        events: queue.Queue[Event],
        *,
        keys: KeyButton | None = None,
        screenshots: Path | None = None,
        on_screenshot: Callable[[Path], None] = lambda _path: None,
    ) -> None:
        self.referee = referee
        self.screen = screen
        self.events = events
        self.keys = keys
        self.screenshots = screenshots
        self.on_screenshot = on_screenshot
        self.saved: list[Path] = []
        self.running = True
        #: The referee's state changes seen so far: each new one is a screen to save.
        self._changes_seen = -1
        # A slow step (reading, scoring) shows its own screen first; screenshots are
        # taken once a state's step has run, so they show what the players see.
        referee.on_change = self._changed

    def step(self) -> None:
        for event in self.screen.events():
            self._pygame_event(event)
        if self.keys is not None:
            self.keys.poll()
        while True:
            try:
                pressed = self.events.get_nowait()
            except queue.Empty:
                break
            self.referee.handle(pressed)
        self.referee.tick()
        self.draw()

    def run(self, sleep: Callable[[float], None], frame_seconds: float = 0.02) -> None:
        while self.running:
            self.step()
            sleep(frame_seconds)

    def _changed(self, _referee: Referee) -> None:
        self.draw(screenshot=False)

    def draw(self, screenshot: bool = True) -> View:
        view = view_of(self.referee)
        if view != self.screen.shown:
            self.screen.show(view)
        if screenshot and self.referee.machine.changes != self._changes_seen:
            self._changes_seen = self.referee.machine.changes
            self.screenshot(str(self.referee.state))
        return view

    def screenshot(self, name: str) -> Path | None:
        if self.screenshots is None:
            return None
        path = self.screen.save(self.screenshots / f"{len(self.saved) + 1:02d}-{name}.png")
        self.saved.append(path)
        self.on_screenshot(path)
        return path

    # Touch, click and keys ------------------------------------------------------------

    def _typing(self) -> bool:
        return self.referee.keyboard is not None and self.referee.state is State.TIMING

    def _type(self, event: pygame.event.Event) -> bool:
        """A key for the keyboard's player: letters build a word, Enter hands it in."""
        keyboard = self.referee.keyboard
        assert keyboard is not None
        if event.type == pygame.TEXTINPUT:
            return keyboard.letters(event.text)
        if event.key == pygame.K_BACKSPACE:
            keyboard.backspace()
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            keyboard.enter()
        else:
            return False
        return True

    def _pygame_event(self, event: pygame.event.Event) -> None:
        if (
            event.type in (pygame.TEXTINPUT, pygame.KEYDOWN)
            and self._typing()
            and self._type(event)
        ):
            return
        if event.type == pygame.QUIT:
            self.running = False
        elif event.type in (pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN):
            if getattr(event, "touch", False):
                return  # SDL's mouse copy of a finger: the finger event is handled
            position = self.screen.position(event)  # on the upright picture
            if not self.touch(position) and self.keys is not None:
                self.keys.key_down()
        elif event.type in (pygame.MOUSEBUTTONUP, pygame.FINGERUP):
            if self.keys is not None and not getattr(event, "touch", False):
                self.keys.key_up()
        elif event.type == pygame.KEYDOWN and self.keys is not None:
            if event.key == pygame.K_SPACE:
                self.keys.key_down()
            elif event.key == pygame.K_ESCAPE:
                self.events.put(Event.HOLD)
            elif event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
                self.running = False
        elif event.type == pygame.KEYUP and self.keys is not None and event.key == pygame.K_SPACE:
            self.keys.key_up()

    def touch(self, position: tuple[int, int]) -> bool:
        """A touch on a cube while it may be corrected: show the next possible face."""
        layout = self.screen.layout
        done = self.referee.round
        if layout is None or self.referee.state not in CORRECTABLE or done is None:
            return False
        if done.reading is None:
            return False
        for index, cell in enumerate(layout.cells):
            if cell.collidepoint(position):
                face = faces_of(done.reading)[index]
                self.referee.correct(index, next_face(self.referee, face))
                return True
        return False


def next_face(referee: Referee, face: Face) -> Face:
    """The face after ``face`` among those the game's cubes carry, round and round."""
    try:
        choices = sorted(referee.game.cube_set().faces())
    except Exception:  # a game whose cube set is not bundled: any face
        choices = [Face(symbol) for symbol in ALPHABET]
    if face not in choices:
        return choices[0]
    return choices[(choices.index(face) + 1) % len(choices)]
