"""The players' page's gate: who may reach the page at all, and how hard they may try.

- **The local network only**: loopback, link-local, RFC 1918 and unique-local IPv6
  (``LOCAL_NETWORKS``; systemd/cuberef.service's ``IPAddressAllow=`` is the same list).
  Not Python's ``is_private``, which takes in Teredo (2001::/32, routed on the Internet)
  and the documentation ranges.
- **Same origin**: the ``Host`` a request names must be the address and port its
  connection reached (so a name that an attacker's DNS points at the box, DNS rebinding,
  is refused), an ``Origin`` must be the page's own, and a body must be JSON (a form
  or ``text/plain`` post from another site never is).
- **Guessing**: wrong join codes are counted per client (an IPv6 client by its /64) and
  in all; past a few a minute the client waits (past 30 a minute in all, every client
  yet to join), and is told how long. Guessing one of 331,776 codes at that pace takes
  days, longer than any match; a phone already in (its token) is never held up, and a
  phone that scans the QR code sends the table's long secret, never the short code.
- **Floods**: connections are limited per client and in all (``PageServer``), with a
  deadline for a request's headers and for its body, so one client cannot hold the
  box's file handles or stall the honest phones.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import tornado.httpserver
import tornado.httputil
import tornado.iostream

from device.base.strings import say

log = logging.getLogger("cuberef.page")

#: Where a phone at the table can be.
LOCAL_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in (
        "127.0.0.0/8",
        "::1/128",
        "169.254.0.0/16",
        "fe80::/10",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "fc00::/7",
    )
)
#: Connections the page holds at once: from one client, and in all.
PER_CLIENT, IN_ALL = 8, 64
#: Seconds a client has to send a request's headers (from connecting, or from its last
#: answer on a kept-alive connection), and then its body.
HEADER_SECONDS, BODY_SECONDS = 10.0, 10.0
#: Wrong join codes: this many a minute from one client, and in all, then a wait.
WRONG_PER_CLIENT, WRONG_IN_ALL, WINDOW = 5, 30, 60.0
#: The QR code's secret: this many characters of ``SECRET_LETTERS`` (100 bits).
SECRET_LENGTH = 20
SECRET_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def address_of(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """A client's address as the page judges it: an IPv4 address carried in IPv6
    (``::ffff:10.0.0.5``) is the IPv4 one, a scope (``fe80::1%wlan0``) is dropped.

    >>> address_of("::ffff:192.168.1.5"), address_of("fe80::1%wlan0"), address_of("x")
    (IPv4Address('192.168.1.5'), IPv6Address('fe80::1'), None)
    """
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_local(text: str) -> bool:
    """Whether a client at ``text`` is on the box's local network.

    >>> [is_local(a) for a in ("192.168.1.5", "fd00::7", "2001:0::1", "192.0.2.1", "8.8.8.8")]
    [True, True, False, False, False]
    """
    address = address_of(text)
    return address is not None and any(address in network for network in LOCAL_NETWORKS)


def client_of(text: str) -> str:
    """The key a client's tries are counted under: its address, an IPv6 one by its /64
    (a phone may take a fresh address in its network at will).

    >>> client_of("fd00:1:2:3:aaaa::1"), client_of("10.0.0.7")
    ('fd00:1:2:3::/64', '10.0.0.7')
    """
    address = address_of(text)
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address) if address is not None else text


def foreign(host: str, origin: str | None, reached: tuple[str, int] | None) -> str | None:
    """Why a request is not the page's own (None when it is): its ``Host`` header, its
    ``Origin`` header, and the address and port its connection reached.

    >>> foreign("10.0.0.2:8080", None, ("10.0.0.2", 8080)) is None
    True
    >>> foreign("evil.example:8080", None, ("10.0.0.2", 8080))
    'The page answers only at its own address; open the address shown on the box.'
    >>> foreign("10.0.0.2:8080", "http://evil.example", ("10.0.0.2", 8080))
    'The page answers only its own pages, not another site; open the address shown on the box.'
    """
    wrong_host = say("own-address")
    try:
        named = urlsplit("//" + host)
        name, port = named.hostname or "", named.port or 80
    except ValueError:  # a port that is not a number
        return wrong_host
    if reached is None or port != reached[1]:
        return wrong_host
    own = address_of(reached[0])
    if address_of(name) != own and not (name == "localhost" and own and own.is_loopback):
        return wrong_host
    if origin is not None and origin.lower() != f"http://{host.lower()}":
        return say("own-pages")
    return None


def gate(request: tornado.httputil.HTTPServerRequest) -> tuple[int, str] | None:
    """Whether a request may reach the page at all: a local client, at the page's own
    address and port, from the page's own pages."""
    if not is_local(request.remote_ip or ""):
        return 403, say("local-only")
    stream = getattr(request.connection, "stream", None)
    try:
        reached = stream.socket.getsockname()[:2] if stream is not None else None
    except (OSError, AttributeError):
        reached = None
    why = foreign(request.host, request.headers.get("Origin"), reached)
    return (403, why) if why else None


def is_json(content_type: str | None) -> bool:
    """Whether a body is declared JSON (the page's own script declares it so; a form or
    ``text/plain`` post from another site cannot).

    >>> is_json("application/json; charset=utf-8"), is_json("text/plain")
    (True, False)
    """
    return (content_type or "").split(";", 1)[0].strip().lower() == "application/json"


class Tries:
    """Wrong join codes, by client and in all, in the last ``WINDOW`` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.by_client: dict[str, deque[float]] = {}
        self.all: deque[float] = deque()
        self.lock = threading.Lock()

    def wait(self, client: str) -> float:
        """How long ``client`` must wait before its next try (0: it may try now)."""
        with self.lock:
            now = self.clock()
            mine = self._recent(self.by_client.get(client, deque()), now)
            self._recent(self.all, now)
            waits = [0.0]
            if len(mine) >= WRONG_PER_CLIENT:
                waits.append(mine[0] + WINDOW - now)
            if len(self.all) >= WRONG_IN_ALL:  # a flood from many addresses: all wait
                waits.append(self.all[0] + WINDOW - now)
            return max(waits)

    def wrong(self, client: str) -> None:
        with self.lock:
            now = self.clock()
            self.by_client.setdefault(client, deque()).append(now)
            self.all.append(now)
            if len(self.by_client) > 4096:  # forget the quiet ones
                for key in [k for k, v in self.by_client.items() if not self._recent(v, now)]:
                    del self.by_client[key]

    @staticmethod
    def _recent(times: deque[float], now: float) -> deque[float]:
        while times and times[0] <= now - WINDOW:
            times.popleft()
        return times


def wait_sentence(seconds: float) -> str:
    """
    >>> wait_sentence(41.2)
    'Too many wrong join codes from this phone: wait 42 seconds, then type the code on the box.'
    """
    return say("too-many-codes", seconds=int(seconds) + 1)


def qr_secret(code: str, key: bytes) -> str:
    """The long secret the QR code carries for the join code ``code``: unguessable, and
    the same after a restart (``key`` is kept in the store's folder).

    >>> len(qr_secret("ABCD", b"k")), qr_secret("ABCD", b"k") == qr_secret("ABCD", b"k")
    (20, True)
    """
    digest = hmac.new(key, code.encode(), hashlib.sha256).digest()
    return "".join(SECRET_LETTERS[byte % len(SECRET_LETTERS)] for byte in digest[:SECRET_LENGTH])


def page_key(folder: Path | None) -> bytes:
    """The box's own key for the QR secrets, made once and kept (0600) in ``folder``;
    one for this run alone where it cannot be kept."""
    if folder is not None:
        path = folder / "page.key"
        try:
            data = path.read_bytes()
            if len(data) >= 32:
                return data
        except OSError:
            pass
        key = secrets.token_bytes(32)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "wb") as file:
                file.write(key)
            return key
        except OSError:
            pass
    return secrets.token_bytes(32)


class PageServer(tornado.httpserver.HTTPServer):
    """Tornado's server with a limit on the connections it holds: ``PER_CLIENT`` from one
    client (one over it is closed at once, before a byte is read), ``IN_ALL`` in all.
    When all are taken, a newcomer takes the oldest of the client holding the most, so
    that many addresses together cannot shut an honest phone out either."""

    def initialize(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("idle_connection_timeout", HEADER_SECONDS)
        kwargs.setdefault("body_timeout", BODY_SECONDS)
        super().initialize(*args, **kwargs)
        self.held: dict[str, list[Any]] = {}  # each client's connections, oldest first
        self.clients: dict[Any, str] = {}

    def handle_stream(self, stream: tornado.iostream.IOStream, address: Any) -> None:
        client = client_of(str(address[0])) if isinstance(address, tuple) else "local"
        mine = len(self.held.get(client, ()))
        if mine >= PER_CLIENT or (len(self.clients) >= IN_ALL and not self._evict(mine)):
            log.warning("players' page: a connection from %s refused (too many open)", client)
            stream.close()
            return
        before = set(self._connections)
        super().handle_stream(stream, address)
        for connection in set(self._connections) - before:
            self.clients[connection] = client
            self.held.setdefault(client, []).append(connection)

    def _evict(self, mine: int) -> bool:
        """Close the oldest connection of the client holding the most, if it holds more
        than the newcomer's client; whether room was made."""
        biggest = max(self.held.values(), key=len, default=[])
        if len(biggest) <= mine + 1:
            return False
        oldest = biggest[0]
        self._forget(oldest)
        oldest.stream.close()
        return True

    def _forget(self, connection: Any) -> None:
        client = self.clients.pop(connection, None)
        if client is not None:
            left = self.held.get(client, [])
            if connection in left:
                left.remove(connection)
            if not left:
                self.held.pop(client, None)

    def on_close(self, server_conn: object) -> None:
        self._forget(server_conn)
        super().on_close(server_conn)
