"""The director's page, a projector view: every table live (clock, players, scores,
offline), the standings, the round's pairings, and a table's last round with its words on
a click. Tornado on a thread of its own; the page asks for ``/scoreboard.json`` twice a
second. The players' page's gate keeps it to the local network and its own origin."""

from __future__ import annotations

import logging
from importlib import resources
from typing import Any

import tornado.httpserver
import tornado.netutil
import tornado.web

from device.club.live import Director
from device.page import guard
from device.page.served import Guarded, Served

log = logging.getLogger("cuberef.club")

FILES = {
    "": "text/html",
    "scoreboard.js": "text/javascript",
    "scoreboard.css": "text/css",
}


class Handler(Guarded):
    director: Director

    def initialize(self, director: Director) -> None:
        self.director = director

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


class Scoreboard(Served):
    """The page's server on a thread of its own (``device.page.served``)."""

    name = "scoreboard"

    def __init__(self, director: Director, port: int, host: str = "") -> None:
        super().__init__(port, host, max_body_size=4096)
        self.director = director

    def app(self) -> tornado.web.Application:
        shared: dict[str, Any] = {"director": self.director}
        return tornado.web.Application(
            [
                (r"/scoreboard\.json", Board, shared),
                (r"/tables/([0-9]{1,4})/last\.json", LastRound, shared),
                (r"/(scoreboard\.js|scoreboard\.css|)", Files, shared),
            ]
        )
