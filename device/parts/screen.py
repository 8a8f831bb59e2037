"""The screen: pygame-ce full screen on KMS/DRM, a window on a desktop, or the dummy
driver (tests, ``cuberef demo``). Every screen it shows can be saved as a PNG.

Backends (``BACKENDS``, the ``[screen] backend`` setting, with their SDL ``DRIVERS``):
``kmsdrm`` (a Pi booted to the console: SDL drives the display itself, full screen at
its native size), ``window`` (a desktop session), ``dummy`` (nothing shown; screens
still render and save). ``auto`` picks ``window`` when a desktop is running, else
``kmsdrm``.

A display that is late (a monitor switched on after the Pi, a DSI panel still
probing) is waited for, ``[screen] wait_seconds``; then the box stops with a
sentence rather than run blind, and systemd starts it again. Only ``--simulate``
falls back to the dummy screen, aloud.

SDL on KMS ignores the kernel's display rotation (the Touch Display 2 is a 720x1280
portrait panel), so ``[screen] rotation`` turns the picture and the touches itself:
the box draws upright on a canvas, which is turned onto the display, and a touch on
the display is turned back onto the canvas.
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

import pygame

from device.base.strings import say
from device.config.sections import ScreenSettings
from device.draw.render import Layout, View, render
from device.parts.backends import pick
from engine.errors import MachineError

log = logging.getLogger("cuberef.screen")

#: Screen backend name -> SDL video driver (None: SDL's own choice, for a desktop).
DRIVERS: dict[str, str | None] = {"kmsdrm": "kmsdrm", "window": None, "dummy": "dummy"}
#: Quarter turns the picture may be given, in degrees clockwise.
ROTATIONS = (0, 90, 180, 270)
#: How often a late display is tried again.
RETRY_SECONDS = 1.0


class Screen:
    def __init__(
        self,
        backend: str,
        *,
        width: int = 800,
        height: int = 480,
        fullscreen: bool = False,
        rotation: int = 0,
    ) -> None:
        driver = pick(DRIVERS, backend, "screen")
        if rotation not in ROTATIONS:
            raise ValueError(f"rotation must be one of {ROTATIONS}")
        self.backend = backend
        self.rotation = rotation
        if driver:
            os.environ["SDL_VIDEODRIVER"] = driver
        elif os.environ.get("SDL_VIDEODRIVER") in ("dummy", "kmsdrm"):
            del os.environ["SDL_VIDEODRIVER"]
        full = backend == "kmsdrm" or (fullscreen and backend == "window")
        flags = pygame.FULLSCREEN if full else 0
        # On KMS/DRM (0, 0) means the display's own mode; a smaller one may mode-switch.
        size = (0, 0) if backend == "kmsdrm" else self._turned((width, height))
        self.display = _open(size, flags, backend)
        #: What the box draws on, upright; the display itself when it is not turned.
        self.surface = (
            self.display if not rotation else pygame.Surface(self._turned(self.display.get_size()))
        )
        pygame.display.set_caption("cuberef")
        pygame.mouse.set_visible(backend != "kmsdrm")
        self.layout: Layout | None = None
        self.shown: View | None = None

    @classmethod
    def of(cls, backend: str, chosen: ScreenSettings) -> Screen:
        """The ``backend`` screen as the ``[screen]`` section describes it."""
        return cls(
            backend,
            width=chosen.width,
            height=chosen.height,
            fullscreen=chosen.fullscreen,
            rotation=chosen.rotation,
        )

    def _turned(self, size: tuple[int, int]) -> tuple[int, int]:
        return (size[1], size[0]) if self.rotation in (90, 270) else size

    @property
    def size(self) -> tuple[int, int]:
        """The size of the picture as the players see it (upright)."""
        return self.surface.get_size()

    def show(self, view: View) -> Layout:
        self.layout = render(view, self.surface)
        self.shown = view
        if self.rotation:
            # pygame turns anticlockwise; the setting is clockwise.
            self.display.blit(pygame.transform.rotate(self.surface, -self.rotation), (0, 0))
        pygame.display.flip()
        return self.layout

    def upright(self, x: float, y: float) -> tuple[int, int]:
        """A point of the display (in pixels from its top-left corner, as fractions of a
        pixel) as the pixel of the upright picture under it."""
        width, height = self.size
        if self.rotation == 90:
            x, y = y, height - x
        elif self.rotation == 180:
            x, y = width - x, height - y
        elif self.rotation == 270:
            x, y = width - y, x
        return min(max(int(x), 0), width - 1), min(max(int(y), 0), height - 1)

    def position(self, event: pygame.event.Event) -> tuple[int, int]:
        """Where a finger or a click landed on the upright picture.

        SDL gives a finger as fractions of the touch panel, which lies as the display
        does; a click in display pixels."""
        if event.type in (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION):
            width, height = self.display.get_size()
            return self.upright(event.x * width, event.y * height)
        x, y = event.pos
        return self.upright(x + 0.5, y + 0.5)  # the middle of the pixel clicked

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.surface, str(path))
        return path

    def events(self) -> list[pygame.event.Event]:
        return pygame.event.get()

    def close(self) -> None:
        pygame.display.quit()


def _open(size: tuple[int, int], flags: int, backend: str) -> pygame.Surface:
    """Open the display; on KMS/DRM try each /dev/dri card in turn, since a Pi 5 has
    several and which one drives the screen can change across boots (SDL #13705)."""
    cards: list[int | None] = [None]
    if backend == "kmsdrm" and "SDL_KMSDRM_DEVICE_INDEX" not in os.environ:
        cards += sorted(int(p.name[4:]) for p in Path("/dev/dri").glob("card[0-9]*"))
    error: pygame.error | None = None
    for card in cards:
        if card is not None:
            os.environ["SDL_KMSDRM_DEVICE_INDEX"] = str(card)
        pygame.display.quit()
        try:
            pygame.display.init()
            return pygame.display.set_mode(size, flags)
        except pygame.error as failure:
            error = failure
    pygame.display.quit()
    if len(cards) > 1:
        del os.environ["SDL_KMSDRM_DEVICE_INDEX"]  # set only by the probing above
    raise MachineError(f"The {backend} screen did not open ({str(error).rstrip('.')}).")


def wait_for(
    make: Callable[[], Screen],
    seconds: float,
    *,
    monotonic: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Screen:
    """``make()`` once it works, trying again each second for up to ``seconds``."""
    until = monotonic() + seconds
    tries = 0
    while True:
        tries += 1
        try:
            return make()
        except MachineError as error:
            if monotonic() + RETRY_SECONDS > until:
                waited = f", waited for {seconds:g} s" if tries > 1 else ""
                raise MachineError(f"{str(error).rstrip('.')}{waited}.") from None
            if tries == 1:
                log.warning("%s Waiting up to %g s for the display.", error, seconds)
        sleep(RETRY_SECONDS)


#: Screen backend name (the ``[screen] backend`` setting) -> the screen its section opens.
BACKENDS: dict[str, Callable[[ScreenSettings], Screen]] = {
    name: functools.partial(Screen.of, name) for name in DRIVERS
}


def open_screen(
    settings: ScreenSettings,
    notices: list[str],
    *,
    fallback: bool = False,
    wait: bool = True,
    monotonic: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> Screen:
    """The screen the settings ask for, once it is there.

    ``fallback`` (``--simulate``): a screen that does not open gives way to the dummy
    one, with a notice. ``wait=False`` (the doctor) tries the display once."""
    name = settings.backend
    chosen = _automatic() if name == "auto" else name
    make = pick(BACKENDS, chosen, "screen")
    # Only the box waits for a display that comes late; --simulate goes on without it.
    seconds = settings.wait_seconds if wait and chosen == "kmsdrm" and not fallback else 0

    try:
        return wait_for(lambda: make(settings), seconds, monotonic=monotonic, sleep=sleep)
    except MachineError as error:
        if not fallback or chosen == "dummy":
            raise MachineError(f"{str(error).rstrip('.')}; {_fix(chosen)}") from None
        notice = say("fallback-screen", name=chosen, reason=str(error).rstrip("."))
        log.warning(notice)
        notices.append(notice)
        return BACKENDS["dummy"](settings)


def _automatic() -> str:
    """The screen ``auto`` means here: the dummy one where SDL is told so (a test, a
    headless run), a window on a desktop, else the display itself."""
    if os.environ.get("SDL_VIDEODRIVER") == "dummy":
        return "dummy"
    return "window" if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") else "kmsdrm"


def _fix(backend: str) -> str:
    if backend == "kmsdrm":
        return (
            "boot to the console (no desktop), check that the display is plugged in and "
            "switched on, and that the user is in the video and render groups."
        )
    return 'check the desktop session, or set [screen] backend = "dummy".'
