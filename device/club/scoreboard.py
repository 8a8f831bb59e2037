"""The director's page, a projector view: every table live (clock, players, scores,
offline), the standings, the round's pairings, and a table's last round with its words on
a click. Tornado on a thread of its own; the page asks for ``/scoreboard.json`` twice a
second. The players' page's gate keeps it to the local network and its own origin."""

from __future__ import annotations

import asyncio
import logging
import threading
from importlib import resources
from typing import Any

import tornado.httpserver
import tornado.netutil
import tornado.web

from device.club.live import Director
from device.page import guard

log = logging.getLogger("cuberef.club")

FILES = {
    "": "text/html",
    "scoreboard.js": "text/javascript",
    "scoreboard.css": "text/css",
}


class Handler(tornado.web.RequestHandler):
    director: Director

    def initialize(self, director: Director) -> None:
        self.director = director

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")

    def prepare(self) -> None:
        refused = guard.gate(self.request)
        if refused is not None:
            self.set_status(refused[0])
            self.finish({"ok": False, "error": refused[1]})


class Board(Handler):
    def get(self) -> None:
        self.finish(self.director.snapshot())


class LastRound(Handler):
    def get(self, table: str) -> None:
        found = self.director.last_round(int(table))
        if found is None:
            raise tornado.web.HTTPError(404)
        self.finish(found)


class Files(Handler):
    def get(self, name: str) -> None:
        if name not in FILES:
            raise tornado.web.HTTPError(404)
        self.set_header("Content-Type", f"{FILES[name]}; charset=utf-8")
        file = name or "scoreboard.html"
        self.finish((resources.files("device.club") / "data" / file).read_bytes())


class Scoreboard:
    """The page's server; ``start`` returns once it listens (port 0: one the system
    chooses, which ``port`` then says)."""

    def __init__(self, director: Director, port: int, host: str = "") -> None:
        self.director, self.port, self.host = director, port, host
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: tornado.httpserver.HTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def app(self) -> tornado.web.Application:
        shared: dict[str, Any] = {"director": self.director}
        return tornado.web.Application(
            [
                (r"/scoreboard\.json", Board, shared),
                (r"/tables/([0-9]{1,4})/last\.json", LastRound, shared),
                (r"/(scoreboard\.js|scoreboard\.css|)", Files, shared),
            ]
        )

    def start(self) -> None:
        self._thread = threading.Thread(target=self._serve, name="cuberef-scoreboard", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._error is not None:
            raise self._error

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._loop = loop
        try:
            self._server = guard.PageServer(self.app(), max_body_size=4096)
            sockets = tornado.netutil.bind_sockets(self.port, self.host or None)
            self._server.add_sockets(sockets)
            self.port = sockets[0].getsockname()[1]
        except OSError as error:
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        log.info("the scoreboard on port %d", self.port)
        loop.run_forever()
        loop.close()

    def stop(self) -> None:
        loop, server = self._loop, self._server
        if loop is None or server is None or not loop.is_running():
            return

        async def close() -> None:
            server.stop()
            await server.close_all_connections()
            loop.stop()

        asyncio.run_coroutine_threadsafe(close(), loop)
        if self._thread is not None:
            self._thread.join(5)
