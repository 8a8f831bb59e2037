"""The box: the main loop that ties button, referee, buzzer and screen together.

Button events arrive on a queue (from gpiozero's thread or from the keyboard), the
screen's touches and clicks come from pygame, and each ``step`` hands them to the
referee, lets the timer run, and redraws when the view has changed. Nothing here
reads the time except through the referee's clock.
"""

from __future__ import annotations

import logging
import math
import queue
from collections.abc import Callable
from pathlib import Path

import pygame

from device.box.script import Hands, Player, Step
from device.draw.pages import pages
from device.draw.render import View
from device.draw.shots import Shots
from device.parts.button import KeyButton, Press
from device.parts.screen import Screen
from device.referee.flow import Event, State
from device.referee.referee import Referee
from device.screens.views import screens_of
from device.seams.readings import faces_of
from engine.faces import ALPHABET, Face

log = logging.getLogger("cuberef.box")

#: The button's presses as the referee's events.
PRESS_EVENTS = {Press.TAP: Event.TAP, Press.HOLD: Event.HOLD}
#: States in which touching a cube changes what the box read.
CORRECTABLE = (State.TIMING, State.TIME_UP)
#: How long each page of a screen too long for the screen is shown, in turn.
PAGE_SECONDS = 5.0
#: States whose step keeps the box busy (a reading, the scoring): their screen is saved
#: as it is shown, before the step runs.
SLOW = (State.READING, State.SCORING)


class Box:
    def __init__(
        self,
        referee: Referee,
        screen: Screen,
        events: queue.Queue[Press],
        *,
        keys: KeyButton | None = None,
        screenshots: Path | None = None,
        on_screenshot: Callable[[Path], None] = lambda _path: None,
    ) -> None:
        self.referee = referee
        self.screen = screen
        self.events = events
        self.keys = keys
        self.shots = Shots(screenshots, referee.clock.monotonic()) if screenshots else None
        self.on_screenshot = on_screenshot
        #: Called after each step of the loop (a club's table reports its screen there).
        self.on_step: Callable[[Referee], None] = lambda _referee: None
        self.saved: list[Path] = []
        self.running = True
        #: A script playing the box (``--script``), if one is.
        self.player: Player | None = None
        #: The referee's state changes seen so far (each new one is a screen to save) and
        #: the pages of its screen saved so far.
        self._changes_seen = -1
        self._pages_saved: set[int] = set()
        # A slow step (reading, scoring) shows its own screen first; the other screens
        # are saved once a state's step has run, so they show what the players see.
        referee.on_change = self._changed

    def play(self, steps: list[Step]) -> None:
        """Play ``steps`` (``device.box.script``) as the box runs; it stops at their end."""
        hands = Hands(
            press=lambda: self.events.put(Press.TAP),
            hold=lambda: self.events.put(Press.HOLD),
            keys=self.type_text,
            state=lambda: str(self.referee.state),
            message=lambda: self.referee.message,
        )
        self.player = Player(steps, hands, self.referee.clock.monotonic())

    def step(self) -> None:
        if self.player is not None and not self.player.play(self.referee.clock.monotonic()):
            self.running = False
            return
        for event in self.screen.events():
            self._pygame_event(event)
        if self.keys is not None:
            self.keys.poll()
        while True:
            try:
                pressed = self.events.get_nowait()
            except queue.Empty:
                break
            self.referee.handle(PRESS_EVENTS[pressed])
        self.referee.tick()
        self.draw()
        self.on_step(self.referee)

    def run(self, sleep: Callable[[float], None], frame_seconds: float = 0.02) -> None:
        while self.running:
            self.step()
            sleep(frame_seconds)

    def _changed(self, referee: Referee) -> None:
        if self.player is not None:
            self.player.saw(str(referee.state))
        self.draw(screenshot=False)
        if referee.state in SLOW:  # shown while its step runs, and gone once it has
            self._changes_seen, self._pages_saved = referee.machine.changes, {0}
            self.screenshot(str(referee.state))

    def draw(self, screenshot: bool = True) -> View:
        """Show the state's screen (its page due now, for one in several pages); save each
        screen, and each page of it, the first time it is shown."""
        shown = tuple(
            page for view in screens_of(self.referee) for page in pages(view, *self.screen.size)
        )
        machine = self.referee.machine
        since = self.referee.clock.monotonic() - machine.changed_at
        number = int(since // PAGE_SECONDS) % len(shown) if math.isfinite(since) else 0
        view = shown[number]
        if view != self.screen.shown:
            self.screen.show(view)
        if machine.changes != self._changes_seen:
            self._changes_seen, self._pages_saved = machine.changes, set()
        if screenshot and number not in self._pages_saved:
            self._pages_saved.add(number)
            self.screenshot(str(self.referee.state))
        return view

    def screenshot(self, name: str) -> Path | None:
        """Save the screen as it is now (drawn afresh), with its line in the journal."""
        if self.shots is None:
            return None
        view = self.draw(screenshot=False)
        path = self.screen.save(self.shots.next_path(name))
        if self.screen.layout is not None:
            code = self.referee.join_code if view.qr else ""
            now = self.referee.clock.monotonic()
            self.shots.log(path, now, str(self.referee.state), self.screen.layout, code)
        self.saved.append(path)
        self.on_screenshot(path)
        return path

    def type_text(self, text: str, enter: bool) -> None:
        """The keyboard's player types ``text`` (and Enter), as the keys would: only while
        a round's timer runs."""
        keyboard = self.referee.keyboard
        if keyboard is None or not self._typing():
            log.info("typed %r while no round runs: nothing taken", text)
            return
        keyboard.letters(text)
        if enter:
            keyboard.enter()

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
                self.events.put(Press.HOLD)
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
