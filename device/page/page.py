"""The players' page: each player types their words on a phone during a Boggle round.

A tornado server on its own thread, beside the pygame loop. It serves the local network
only, at its own address, to its own pages, and only with the match's join code, which
the screen shows with a QR code of the page's address and the table's long secret
(``device.page.guard`` keeps the gate: addresses, origins, guessing, floods). A player joins
with a name (and a team, if they play in one) and gets a token, the phone's own secret; each word
goes to the round's lists, which check it at once and store it before the phone hears
it is kept. The phone shows only its own words until the lists lock at 0:00, then
everyone's scores, its own first; before the scoring, words challenged and their rulings.
``/history`` answers the evening read back: its matches, rounds, words and standings.

The page knows the box only through ``Front``: the join code, the box's language, and
what a phone may do (join, leave, hand in a word, see the round); ``device.page.phones``
answers it from the referee. Every answer is JSON: ``{"ok": true, ...}`` or
``{"ok": false, "error": sentence}`` (in the box's language) with a 4xx status, and a
refused request changes nothing. What a player types reaches other pages only as JSON
text, which the page puts in with ``textContent``, never as HTML.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from importlib import resources
from typing import Any, Protocol

import tornado.httpserver
import tornado.netutil
import tornado.web

from device.base.inputs import TooDeep, load_json, typed
from device.base.strings import page_texts, say, translated
from device.page import guard
from device.page.buckets import Buckets
from device.page.served import Guarded, Served
from device.referee.lists import LONGEST_WORD
from engine.errors import CuberefError

log = logging.getLogger("cuberef.page")

#: Requests larger than this are refused with a sentence; the server reads no more
#: than ``MOST_READ`` of any request.
LARGEST_REQUEST, MOST_READ = 4096, 2 * 2**20
LONGEST_NAME = 24
#: A join code as typed (four letters) or as the QR code carries it (the long secret).
CODE_LENGTH = guard.SECRET_LENGTH


class Front(Protocol):
    """What the page asks of the box, and all it knows of it. Each call raises
    ``Refusal`` (or the engine's ``CuberefError``) with a sentence for the phone."""

    @property
    def join_code(self) -> str: ...

    @property
    def language(self) -> str:
        """The box's language (``[box] language``: ``en``, ``cs``), the page's too."""
        ...

    def join(self, name: str, team: str, token: str) -> tuple[str, str]:
        """``name`` joins (``token``: the phone's own, if it has one): its token and name."""
        ...

    def leave(self, token: str) -> None: ...

    def player(self, token: str) -> str:
        """The name of the player holding ``token``; ``Refusal`` (401) if none."""
        ...

    def hand_in(self, token: str, word: str, remove: bool) -> dict[str, Any]:
        """A word handed in (or taken back): how the lists took it, as the phone shows it."""
        ...

    def state(self, token: str) -> dict[str, Any]:
        """Everything the phone shows now."""
        ...

    def dispute(self, token: str, word: str, allow: object) -> dict[str, Any]:
        """A word challenged (None: what the table is shown), or the judge's ruling."""
        ...

    def history(self, token: str) -> dict[str, Any]:
        """The evening's matches and standings, as ``cuberef history --json`` prints them."""
        ...


def page_address(port: int) -> str:
    """The page's address as a phone on the local network reaches it: the box's first
    local IPv4 address, not loopback (read from its network interfaces; nothing is sent)."""
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
            address = socket.inet_ntoa(packed[20:24])
            if guard.is_local(address) and not address.startswith("127."):
                found.append(address)
    return f"http://{found[0] if found else '127.0.0.1'}:{port}/"


class Refusal(Exception):
    """A request the page turns down, with its status and its sentence."""

    def __init__(self, status: int, sentence: str) -> None:
        super().__init__(sentence)
        self.status = status


class Handler(Guarded):
    """Shared checks: a local client, a small body, the join code; JSON in and out."""

    front: Front
    buckets: Buckets
    tries: guard.Tries
    key: bytes

    def initialize(self, front: Front, buckets: Buckets, tries: guard.Tries, key: bytes) -> None:
        self.front, self.buckets, self.tries, self.key = front, buckets, tries, key

    def prepare(self) -> None:
        refused = guard.gate(self.request)
        if refused is not None:
            self.refuse(*refused)
        if len(self.request.body) > LARGEST_REQUEST:
            self.refuse(413, say("far-too-long"))
        if self.request.method == "POST" and not guard.is_json(
            self.request.headers.get("Content-Type")
        ):
            self.refuse(415, say("not-a-request"))

    def refuse(self, status: int, sentence: str, **more: Any) -> None:
        """Refuse with ``sentence`` (English, said in the page's language) and ``more``."""
        self.set_status(status)
        self.finish({"ok": False, "error": translated(sentence, self.front.language), **more})
        raise tornado.web.Finish()

    def data(self) -> dict[str, Any]:
        try:  # its size bounded in ``prepare``, its depth here, before it is parsed
            parsed = load_json(self.request.body or b"{}")
        except TooDeep:
            raise Refusal(400, say("nested-too-deep")) from None
        except ValueError:  # not JSON, or not UTF-8
            parsed = None
        if not isinstance(parsed, dict):
            raise Refusal(400, say("not-a-request"))
        return parsed

    def text(self, data: dict[str, Any], key: str, longest: int) -> str:
        value = data.get(key, "")
        if not isinstance(value, str) or any("\ud800" <= ch <= "\udfff" for ch in value):
            raise Refusal(400, say("must-be-text", key=key))  # JSON's "\ud800" is not
        value = value.strip()
        if len(value) > longest:
            raise Refusal(413, say("too-long", key=key, longest=longest))
        return value

    def check_code(self, code: str, token: str = "") -> None:
        """The join code typed, or the QR code's long secret; wrong ones are counted per
        client, and past a few a minute the client waits (``device.page.guard.Tries``), unless
        it is a phone already in (the right code with its token) or one that scanned."""
        if not code:
            raise Refusal(403, say("give-code"))
        right = self.front.join_code
        scanned = bool(right) and code.upper() == guard.qr_secret(right, self.key)
        good = scanned or (bool(right) and code.upper() == right)
        if scanned or (good and self.holds(token)):
            return  # 100 bits no one guesses, or a phone already in: never held up
        client = guard.client_of(self.request.remote_ip or "")
        wait = self.tries.wait(client)
        if wait > 0:
            self.set_header("Retry-After", str(int(wait) + 1))
            raise Refusal(429, guard.wait_sentence(wait))
        if not good:
            self.tries.wrong(client)
            raise Refusal(403, say("wrong-code"))

    def holds(self, token: str) -> bool:
        if not token:
            return False
        try:
            self.front.player(token)
        except Refusal:
            return False
        return True

    def answer(
        self, work: Callable[[], dict[str, Any]], refused: Callable[[], dict[str, Any]] = dict
    ) -> None:
        """``work``'s answer, or the sentence it was refused with (and ``refused``'s)."""
        try:
            self.finish({"ok": True, **work()})
        except Refusal as refusal:
            self.refuse(refusal.status, str(refusal), **refused())
        except CuberefError as error:
            self.refuse(409, str(error), **refused())

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        said = translated(say("could-not-answer", status=status_code), self.front.language)
        self.finish({"ok": False, "error": said})


class Hello(Handler):  # the box's language, and the page's own words in it (phone-*)
    def get(self) -> None:
        language = self.front.language
        self.answer(lambda: {"language": language, "texts": page_texts(language)})


class Join(Handler):
    def post(self) -> None:
        held = {"token": ""}

        def work() -> dict[str, Any]:
            data = self.data()
            held["token"] = token = self.text(data, "token", 64)
            self.check_code(self.text(data, "code", CODE_LENGTH), token)
            name = typed(self.text(data, "name", LONGEST_NAME), "The name")
            team = typed(self.text(data, "team", LONGEST_NAME), "The team")
            if not name or not all(ch.isprintable() and ch not in '<>&"`' for ch in name + team):
                raise Refusal(400, say("name-in-letters"))
            token, joined = self.front.join(name, team, token)
            return {"token": token, "name": joined}

        # A phone refused a change (a team during a match) keeps its seat, and is told so.
        self.answer(work, lambda: {"seated": self.holds(held["token"])})


class Leave(Handler):
    def post(self) -> None:
        def work() -> dict[str, Any]:
            data = self.data()
            token = self.text(data, "token", 64)
            self.check_code(self.text(data, "code", CODE_LENGTH), token)
            self.front.leave(token)
            return {}

        self.answer(work)


class Word(Handler):
    """A word handed in (``/word``), challenged (``/dispute``) or ruled on (``/rule``)."""

    def post(self, what: str) -> None:
        def work() -> dict[str, Any]:
            data = self.data()
            token = self.text(data, "token", 64)
            self.check_code(self.text(data, "code", CODE_LENGTH), token)
            player = self.front.player(token)  # a phone that has not joined is told so first
            word = typed(self.text(data, "word", LONGEST_WORD), "The word")
            if not self.buckets.allow(player):
                raise Refusal(429, say("too-fast"))
            if what == "word":
                return self.front.hand_in(token, word, bool(data.get("remove")))
            return self.front.dispute(token, word, data.get("allow") if what == "rule" else None)

        self.answer(work)


class State(Handler):
    def get(self) -> None:
        def work() -> dict[str, Any]:
            token = self.get_argument("token", "")[:64]
            self.check_code(self.get_argument("code", "")[:CODE_LENGTH], token)
            return self.front.state(token)

        self.answer(work)


class History(Handler):
    """The evening read back: every match since the box started, its rounds and words,
    and the standings (``device.referee.history``), for a phone that has joined."""

    def get(self) -> None:
        def work() -> dict[str, Any]:
            token = self.get_argument("token", "")[:64]
            self.check_code(self.get_argument("code", "")[:CODE_LENGTH], token)
            return self.front.history(token)

        self.answer(work)


class Files(tornado.web.RequestHandler):
    """The page itself: one HTML file, its script and its style, from ``device/data/page``."""

    TYPES = {"index.html": "text/html", "page.js": "text/javascript", "page.css": "text/css"}

    def prepare(self) -> None:
        refused = guard.gate(self.request)
        if refused is not None:
            self.set_status(refused[0])
            self.finish({"ok": False, "error": refused[1]})

    def get(self, name: str) -> None:
        name = name or "index.html"
        if name not in self.TYPES:
            raise tornado.web.HTTPError(404)
        self.set_header("Content-Type", f"{self.TYPES[name]}; charset=utf-8")
        self.set_header("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
        self.finish((resources.files("device") / "data" / "page" / name).read_bytes())


class Page(Served):
    """The page's server on a thread of its own (``device.page.served``)."""

    name = "players' page"

    def __init__(self, front: Front, port: int, host: str = "", key: bytes | None = None) -> None:
        super().__init__(port, host, max_body_size=MOST_READ, max_header_size=16384)
        self.front = front
        self.buckets = Buckets()
        self.tries = guard.Tries()
        self.key = key if key is not None else guard.page_key(None)

    def app(self) -> tornado.web.Application:
        shared = {"front": self.front, "buckets": self.buckets, "tries": self.tries}
        shared["key"] = self.key
        return tornado.web.Application(
            [
                (r"/hello", Hello, shared),
                (r"/join", Join, shared),
                (r"/leave", Leave, shared),
                (r"/(word|dispute|rule)", Word, shared),
                (r"/state", State, shared),
                (r"/history", History, shared),
                (r"/(index\.html|page\.js|page\.css|)", Files),
            ],
            compress_response=False,
        )

    @property
    def secret(self) -> str:
        """The long secret the QR code carries in place of the join code."""
        return guard.qr_secret(self.front.join_code, self.key)
