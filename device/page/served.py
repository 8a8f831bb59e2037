"""A tornado application served on a thread of its own, behind the players' page's gate
server (``guard.PageServer``): the players' page and a club's scoreboard both are.
``start`` returns once it listens (on ``port``, or with port 0 on one the system
chooses, which ``port`` then says); ``stop`` closes every connection."""

from __future__ import annotations

import asyncio
import errno
import logging
import threading
from typing import Any

import tornado.httpserver
import tornado.netutil
import tornado.web

from device.page import guard

log = logging.getLogger("cuberef.page")


class Guarded(tornado.web.RequestHandler):
    """A handler of such a server: nothing cached, no type guessed, no other origin's
    scripts or frames."""

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")


class Served:
    #: The thread's name and what the log calls the server.
    name = "page"

    def __init__(self, port: int, host: str = "", **limits: Any) -> None:
        self.port, self.host, self.limits = port, host, limits
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: tornado.httpserver.HTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def app(self) -> tornado.web.Application:
        raise NotImplementedError

    def start(self) -> None:
        self._thread = threading.Thread(
            target=self._serve, name=f"cuberef-{self.name}", daemon=True
        )
        self._thread.start()
        self._ready.wait(10)
        if self._error is not None:
            raise self._error

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._loop = loop
        try:
            self._server = guard.PageServer(self.app(), **self.limits)
            sockets = tornado.netutil.bind_sockets(self.port, self.host or None)
            if not sockets:  # tornado skips each family the system refuses
                raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
            self._server.add_sockets(sockets)
            self.port = sockets[0].getsockname()[1]  # the one the system chose, for port 0
        except OSError as error:
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        log.info("%s on port %d", self.name, self.port)
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
