"""Building a box from its settings: the parts each setting names, wired together."""

from __future__ import annotations

import errno
import logging
import queue
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.base.clock import Clock
from device.base.strings import say
from device.box.box import Box
from device.club.table import ClubTable, club_of
from device.config import settings as config
from device.config.sections import Settings
from device.page.guard import page_key
from device.page.page import Page, page_address
from device.page.phones import Phones
from device.parts.button import GpioButton, KeyButton, Press, make_button
from device.parts.buzzer import Buzzer
from device.parts.camera import Camera, open_camera
from device.parts.guarded_camera import GuardedCamera
from device.parts.screen import open_screen
from device.referee.referee import Parts, Referee
from device.seams.seams import Reader, Scorer, VisionReader
from device.store.store import Store, StoreError
from engine.errors import CuberefError

log = logging.getLogger("cuberef.box")


@dataclass
class Assembled:
    box: Box
    referee: Referee
    store: Store | None
    button: GpioButton | KeyButton
    camera: GuardedCamera
    notices: list[str] = field(default_factory=list)
    page: Page | None = None
    club: ClubTable | None = None

    def close(self) -> None:
        """Close every part, the buzzer first; one that fails to close stops no other."""
        parts: list[tuple[str, Callable[[], None]]] = [
            ("buzzer", self.referee.parts.buzzer.close),
            ("button", self.button.close),
            ("camera", self.camera.close),
            ("screen", self.box.screen.close),
        ]
        if self.page is not None:
            parts.insert(0, ("players' page", self.page.stop))
        if self.club is not None:
            parts.insert(0, ("club's reporter", self.club.stop))
        if self.store is not None:
            parts.append(("store", self.store.close))
        for name, close in parts:
            try:
                close()
            except Exception as error:  # the process is ending; say so and go on
                log.error("closing the %s failed: %s", name, error)


def page_refused(port: int, error: OSError) -> str:
    """Why the players' page is off although the settings turn it on: the box plays on
    without it (never a crash loop of the service)."""
    why = error.strerror or str(error)
    if error.errno in (errno.EAFNOSUPPORT, errno.EPERM, errno.EACCES):
        return say("page-no-network", why=why)
    return say("page-port", port=port, why=why)


def assemble(
    settings: Settings,
    clock: Clock,
    *,
    simulate: bool = False,
    reader: Reader | None = None,
    scorer: Scorer | None = None,
    screenshots: Path | None = None,
    buzzer: Buzzer | None = None,
    pin_factory: Any = None,
    page_host: str = "",
) -> Assembled:
    """The box the settings describe (``simulate``: as ``--simulate`` runs it, the one
    overlay of ``settings.simulated``). ``page_host``: the one address the players' page
    listens on (the demo's own phones use 127.0.0.1); every interface when empty."""
    if simulate:
        settings = config.simulated(settings)
    notices: list[str] = []
    game = config.chosen_game(settings)
    events: queue.Queue[Press] = queue.Queue()
    button = make_button(
        settings.button,
        events,
        hold_seconds=settings.hold_seconds,
        clock=clock,
        pin_factory=pin_factory,
    )
    if buzzer is None:
        buzzer = Buzzer.create(
            settings.buzzer, tunes=config.tunes(settings), pin_factory=pin_factory
        )
    screen = open_screen(
        settings.screen, notices, fallback=simulate, monotonic=clock.monotonic, sleep=clock.sleep
    )
    store: Store | None = None
    try:
        store = Store(config.state_folder(settings))
    except StoreError as error:
        notices.append(str(error))

    def open_chosen() -> Camera:
        before = len(notices)
        opened = open_camera(settings.camera, notices, clock.monotonic)
        if len(notices) > before:
            referee.say("start-up", notices[-1])  # a fallback is said on the screen too
        return opened

    camera = GuardedCamera(open_chosen)

    parts = Parts(
        game=game,
        settings=settings,
        clock=clock,
        camera=lambda: camera,
        reader=reader or VisionReader(),
        scorer=scorer or Scorer(),
        store=store,
        buzzer=buzzer,
    )
    referee = Referee(parts)
    if notices:
        referee.say("start-up", *notices)
    referee.resume()
    keys = button if isinstance(button, KeyButton) else None
    box = Box(referee, screen, events, keys=keys, screenshots=screenshots)
    page = None
    if settings.page.enabled:
        writable = store is not None and not store.read_only
        key = page_key(store.folder if store is not None and writable else None)
        page = Page(Phones(referee), settings.page.port, page_host, key)
        try:
            page.start()
            port = page.port
            address = f"http://{page_host}:{port}/" if page_host else page_address(port)
        except OSError as error:  # a port in use, or a sandbox without the network
            page.stop()
            referee.say("page", page_refused(settings.page.port, error))
            page = None
        else:
            referee.page_address, referee.page_key = address, key
    club = join_club(settings, box)
    return Assembled(box, referee, store, button, camera, notices, page, club)


def join_club(settings: Settings, box: Box) -> ClubTable | None:
    """A club's table (``[club]``): its reporter started, the box's screen reported after
    each step. The box referees its table whatever becomes of the club."""
    try:
        found = club_of(settings)
        if found is None:
            return None
        table = ClubTable(settings, found, config.state_folder(settings))
        table.start()
    except (CuberefError, OSError, sqlite3.Error) as error:
        box.referee.say("club", say("club-off", why=str(error).rstrip(".")))
        return None
    box.on_step = table.shown
    return table
