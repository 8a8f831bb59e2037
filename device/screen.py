"""The screen: pygame-ce full screen on KMS/DRM, a window on a desktop, or the dummy
driver (tests, ``cuberef demo``). Every screen it shows can be saved as a PNG.

Backends (``BACKENDS``, the ``[screen] backend`` setting): ``kmsdrm`` (a Pi booted to
the console: SDL drives the display itself, full screen at its native size),
``window`` (a desktop session), ``dummy`` (nothing shown; screens still render and
save). ``auto`` picks ``window`` when a desktop is running, else ``kmsdrm``, and
falls back to ``dummy`` aloud if neither opens: the timer and buzzer still work.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pygame

from device.backends import first_working, pick
from device.render import Layout, View, render
from engine.errors import MachineError

log = logging.getLogger("cuberef.screen")

#: Screen backend name -> SDL video driver (None: SDL's own choice, for a desktop).
BACKENDS: dict[str, str | None] = {"kmsdrm": "kmsdrm", "window": None, "dummy": "dummy"}


class Screen:
    def __init__(
        self, backend: str, *, width: int = 800, height: int = 480, fullscreen: bool = False
    ) -> None:
        driver = pick(BACKENDS, backend, "screen")
        self.backend = backend
        if driver:
            os.environ["SDL_VIDEODRIVER"] = driver
        elif os.environ.get("SDL_VIDEODRIVER") in ("dummy", "kmsdrm"):
            del os.environ["SDL_VIDEODRIVER"]
        full = backend == "kmsdrm" or (fullscreen and backend == "window")
        flags = pygame.FULLSCREEN if full else 0
        # On KMS/DRM (0, 0) means the display's own mode; a smaller one may mode-switch.
        size = (0, 0) if backend == "kmsdrm" else (width, height)
        self.surface = _open(size, flags, backend)
        pygame.display.set_caption("cuberef")
        pygame.mouse.set_visible(backend != "kmsdrm")
        self.layout: Layout | None = None
        self.shown: View | None = None

    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    def show(self, view: View) -> Layout:
        self.layout = render(view, self.surface)
        self.shown = view
        pygame.display.flip()
        return self.layout

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
    raise MachineError(f"The {backend} screen did not open ({error}).")


def open_screen(settings: dict[str, Any], notices: list[str]) -> Screen:
    name = settings["backend"]
    width, height, full = settings["width"], settings["height"], settings["fullscreen"]
    if name != "auto":
        return Screen(name, width=width, height=height, fullscreen=full)
    desktop = os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    first = "window" if desktop else "kmsdrm"
    attempts = [
        (first, lambda: Screen(first, width=width, height=height, fullscreen=full)),
        ("dummy", lambda: Screen("dummy", width=width, height=height)),
    ]
    return first_working("screen", attempts, notices)[1]
