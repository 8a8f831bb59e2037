"""The players' page: each player types their words on a phone during a Boggle round.

A tornado server on its own thread, beside the pygame loop. It serves the local network
only (a client from a public address is refused) and only with the match's join code,
which the screen shows with a QR code of the page's address. A player joins with a name
(and a team, if they play in one) and gets a token; each word goes to the round's desk,
which checks it at once and stores it before the phone hears it is kept. The phone
shows only its own words until the lists lock at 0:00, then everyone's scores.

Every answer is JSON: ``{"ok": true, ...}`` or ``{"ok": false, "error": sentence}`` with
a 4xx status, and a refused request changes nothing. What a player types reaches other
pages only as JSON text, which the page puts in with ``textContent``, never as HTML.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import secrets
import threading
import time
from importlib import resources
from typing import TYPE_CHECKING, Any

import tornado.httpserver
import tornado.web

from device.lists import LONGEST_WORD
from device.results import page_state
from engine.errors import CuberefError

if TYPE_CHECKING:
    from device.referee import Referee

log = logging.getLogger("cuberef.page")

#: Requests larger than this are refused with a sentence; the server reads no more
#: than ``MOST_READ`` of any request.
LARGEST_REQUEST, MOST_READ = 4096, 2 * 2**20
LONGEST_NAME = 24
#: Words a phone may send: a burst of this many, then this many a second.
BURST, PER_SECOND = 20, 5.0


def page_address(port: int) -> str:
    """The page's address as a phone on the local network reaches it: the box's first
    private IPv4 address (read from its network interfaces; nothing is sent)."""
    import fcntl
    import socket
    import struct

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _index, interface in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(
                    probe.fileno(), 0x8915, struct.pack("256s", interface.encode()[:15])
                )  # SIOCGIFADDR
            except OSError:
                continue
            address = ipaddress.ip_address(socket.inet_ntoa(packed[20:24]))
            if address.is_private and not address.is_loopback:
                found.append(str(address))
    return f"http://{found[0] if found else '127.0.0.1'}:{port}/"


def make_code() -> str:
    """A join code: four letters a player reads off the screen and types without doubt."""
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"  # no I or O, which read as 1 and 0
    return "".join(secrets.choice(letters) for _ in range(4))


class Refusal(Exception):
    """A request the page turns down, with its status and its sentence."""

    def __init__(self, status: int, sentence: str) -> None:
        super().__init__(sentence)
        self.status = status


class Bucket:
    """A token bucket: how fast one phone may send words."""

    def __init__(self) -> None:
        self.tokens, self.at = float(BURST), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.at) * PER_SECOND)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Phones:
    """Who holds which token; tokens live in memory, so after a restart a phone joins
    again on its own with the name it keeps."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.buckets: dict[str, Bucket] = {}
        self.lock = threading.Lock()

    def add(self, name: str) -> str:
        token = secrets.token_urlsafe(16)
        with self.lock:
            self.names[token] = name
            self.buckets[token] = Bucket()
        return token

    def name(self, token: str) -> str:
        with self.lock:
            name = self.names.get(token)
        if name is None:
            raise Refusal(401, "This phone has not joined this match; join again.")
        return name

    def allow(self, token: str) -> bool:
        with self.lock:
            return self.buckets[token].take()


class Handler(tornado.web.RequestHandler):
    """Shared checks: a local client, a small body, the join code; JSON in and out."""

    referee: Referee
    phones: Phones

    def initialize(self, referee: Referee, phones: Phones) -> None:
        self.referee, self.phones = referee, phones

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")

    def prepare(self) -> None:
        try:
            address = ipaddress.ip_address(self.request.remote_ip or "")
        except ValueError:
            address = None
        if address is None or not (address.is_private or address.is_loopback):
            self.refuse(403, "The players' page answers only on the box's local network.")
        if len(self.request.body) > LARGEST_REQUEST:
            self.refuse(413, "That is far longer than any word; send one word at a time.")

    def refuse(self, status: int, sentence: str) -> None:
        self.set_status(status)
        self.finish({"ok": False, "error": sentence})
        raise tornado.web.Finish()

    def data(self) -> dict[str, Any]:
        try:
            parsed = json.loads(self.request.body or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError):
            parsed = None
        if not isinstance(parsed, dict):
            raise Refusal(400, "The page sent something that is not a request; reload it.")
        return parsed

    def text(self, data: dict[str, Any], key: str, longest: int) -> str:
        value = data.get(key, "")
        if not isinstance(value, str):
            raise Refusal(400, f"The {key} must be text.")
        value = value.strip()
        if len(value) > longest:
            raise Refusal(413, f"The {key} is too long: {longest} letters at most.")
        return value

    def check_code(self, code: str) -> None:
        if not code:
            raise Refusal(403, "Give the join code shown on the box.")
        if code.upper() != self.referee.join_code:
            raise Refusal(403, "That is not this match's join code; look at the box again.")

    def answer(self, work: Any) -> None:
        try:
            self.finish({"ok": True, **work()})
        except Refusal as refusal:
            self.refuse(refusal.status, str(refusal))
        except CuberefError as error:
            self.refuse(409, str(error))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish({"ok": False, "error": f"The page could not answer ({status_code})."})


class Join(Handler):
    def post(self) -> None:
        def work() -> dict[str, Any]:
            data = self.data()
            self.check_code(self.text(data, "code", 8))
            name = self.text(data, "name", LONGEST_NAME)
            team = self.text(data, "team", LONGEST_NAME)
            if not name or not all(ch.isprintable() and ch not in '<>&"`' for ch in name + team):
                raise Refusal(400, "Give your name in letters, without signs such as < > &.")
            joined = self.referee.join(name, team)
            return {"token": self.phones.add(joined), "name": joined}

        self.answer(work)


class Word(Handler):
    def post(self) -> None:
        def work() -> dict[str, Any]:
            data = self.data()
            self.check_code(self.text(data, "code", 8))
            name = self.phones.name(self.text(data, "token", 64))
            word = self.text(data, "word", LONGEST_WORD)
            if not self.phones.allow(self.text(data, "token", 64)):
                raise Refusal(429, "Too fast: send one word at a time.")
            desk = self.referee.desk
            if desk is None:
                raise Refusal(409, "No round is running: wait for the timer.")
            if data.get("remove"):
                desk.remove(name, word)
                return {"removed": word}
            typed = desk.add(name, word)
            return {"word": typed.word, "status": typed.ruling.status, "why": typed.ruling.reason}

        self.answer(work)


class State(Handler):
    def get(self) -> None:
        def work() -> dict[str, Any]:
            self.check_code(self.get_argument("code", ""))
            name = self.phones.name(self.get_argument("token", ""))
            return page_state(self.referee, name)

        self.answer(work)


class Files(tornado.web.RequestHandler):
    """The page itself: one HTML file, its script and its style, from ``device/data/page``."""

    TYPES = {"index.html": "text/html", "page.js": "text/javascript", "page.css": "text/css"}

    def get(self, name: str) -> None:
        name = name or "index.html"
        if name not in self.TYPES:
            raise tornado.web.HTTPError(404)
        self.set_header("Content-Type", f"{self.TYPES[name]}; charset=utf-8")
        self.set_header("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
        self.finish((resources.files("device") / "data" / "page" / name).read_bytes())


class Page:
    """The page's server on a thread of its own; ``start`` returns once it listens."""

    def __init__(self, referee: Referee, port: int, host: str = "") -> None:
        self.referee = referee
        self.port = port
        self.host = host
        self.phones = Phones()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: tornado.httpserver.HTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def app(self) -> tornado.web.Application:
        shared = {"referee": self.referee, "phones": self.phones}
        return tornado.web.Application(
            [
                (r"/join", Join, shared),
                (r"/word", Word, shared),
                (r"/state", State, shared),
                (r"/(index\.html|page\.js|page\.css|)", Files),
            ],
            compress_response=False,
        )

    def start(self) -> None:
        self._thread = threading.Thread(target=self._serve, name="cuberef-page", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._error is not None:
            raise self._error

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._loop = loop
        try:
            self._server = tornado.httpserver.HTTPServer(
                self.app(),
                max_body_size=MOST_READ,
                max_header_size=16384,
                idle_connection_timeout=60,
            )
            self._server.listen(self.port, self.host)
        except OSError as error:
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        log.info("players' page on port %d", self.port)
        loop.run_forever()
        loop.close()

    def stop(self) -> None:
        loop, server = self._loop, self._server
        if loop is None or server is None:
            return

        async def close() -> None:
            server.stop()
            await server.close_all_connections()
            loop.stop()

        asyncio.run_coroutine_threadsafe(close(), loop)
        if self._thread is not None:
            self._thread.join(5)
