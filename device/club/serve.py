"""``cuberef club serve``: the event running on the director's machine. Its own mosquitto
(unless ``club.toml`` names a broker), the director subscribed to every table, and the
scoreboard page; all stopped again, in the reverse order, however serving ends."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass

from device.club import broker, credentials
from device.club.event import Event
from device.club.ledger import Ledger
from device.club.live import Director
from device.club.scoreboard import Scoreboard
from engine.errors import CuberefError


@dataclass
class Serving:
    director: Director
    scoreboard: Scoreboard
    mosquitto: broker.Mosquitto | None


@contextlib.contextmanager
def serving(event: Event, page_port: int, page_host: str = "") -> Iterator[Serving]:
    credentials.director(event.folder)  # its sentence where no tables were made yet
    with contextlib.ExitStack() as stack:
        own = None
        if event.broker is None:
            own = stack.enter_context(
                broker.Mosquitto(event.folder, event.name, event.port, event.bind)
            )
        ledger = Ledger(event.folder)
        stack.callback(ledger.close)
        director = Director(event, ledger)
        director.start()
        stack.callback(director.stop)
        board = Scoreboard(director, page_port, page_host)
        try:
            board.start()
        except OSError as error:
            raise CuberefError(
                f"The scoreboard cannot listen on port {page_port} ({error.strerror})."
            ) from None
        stack.callback(board.stop)
        yield Serving(director, board, own)


def serve_until_stopped(event: Event, page_port: int) -> None:
    """Serves until Ctrl-C or SIGTERM (``device.base.stopping`` raises them here)."""
    from device.page.page import page_address

    with serving(event, page_port) as running:
        where = running.mosquitto.url if running.mosquitto else event.broker
        print(f"Event {event.name}: broker {where}; results kept in {event.folder / 'club.db'}")
        print(f"Scoreboard: {page_address(running.scoreboard.port)}", flush=True)
        while True:
            time.sleep(3600)
