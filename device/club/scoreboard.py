"""The director's page, a projector view: every table live (clock, players, scores,
offline), the standings, the round's pairings, and a table's last round with its words on
a click. Tornado on a thread of its own; the page asks for ``/scoreboard.json`` twice a
second. The players' page's gate keeps it to the local network and its own origin; the
director's own machine (loopback) may also seat the next round from it (``POST /pair``,
as ``cuberef club pair`` does)."""

from __future__ import annotations

import ipaddress
import json
import logging
from importlib import resources
from typing import Any

import tornado.web

from device.club.live import Director
from device.page import guard
from device.page.served import Guarded, Served
from engine.errors import CuberefError

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


def is_loopback(address: str) -> bool:
    """Whether a client is the director's own machine (only it seats a round).

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("192.168.1.20")
    (True, True, False)
    """
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


class Board(Handler):
    def get(self) -> None:
        can_pair = is_loopback(self.request.remote_ip or "")
        self.finish({**self.director.snapshot(), "can_pair": can_pair})


class Pair(Handler):
    """Seats the next round (``{"force": true}``: before every table has reported)."""

    def post(self) -> None:
        from device.club import rounds

        if not is_loopback(self.request.remote_ip or ""):
            self.set_status(403)
            self.finish({"ok": False, "error": "Only the director's own machine seats a round."})
            return
        if not guard.is_json(self.request.headers.get("Content-Type")):
            self.set_status(415)
            self.finish({"ok": False, "error": "Send the request as JSON."})
            return
        try:
            asked = json.loads(self.request.body or b"{}")
            force = bool(asked.get("force")) if isinstance(asked, dict) else False
        except ValueError:
            force = False
        try:
            seating = rounds.next_seating(self.director.event, self.director.ledger, force)
        except CuberefError as error:
            self.set_status(409)
            self.finish({"ok": False, "error": str(error)})
            return
        self.director.publish_seating()
        tables = [{"table": n, "players": list(p)} for n, p in enumerate(seating.tables, 1)]
        self.finish({"ok": True, "round": seating.round, "tables": tables})


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
                (r"/pair", Pair, shared),
                (r"/tables/([0-9]{1,4})/last\.json", LastRound, shared),
                (r"/(scoreboard\.js|scoreboard\.css|)", Files, shared),
            ]
        )
