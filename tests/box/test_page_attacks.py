"""An attack suite for the players' page (issue 32), against the real server on a real
socket: guessing the join code, taking a player's seat, floods of connections, slow
clients, foreign origins and addresses. Each case says the answer it must get.

Small in ``make test``; ``CUBEREF_ATTACK=large`` (``make attack``) runs the sizes the
issue's attacker used (thousands of guesses, 1,100 half-sent requests) and prints the
tallies: each line is ``attack: CASES cases, ANSWER``.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import os
import random
import socket
import time
from collections import Counter
from pathlib import Path

import pytest

from device.base.inputs import MAX_DEPTH
from device.page import guard
from device.page.page import LARGEST_REQUEST
from device.referee.flow import State
from device.referee.table import MAX_PLAYERS

from .test_page import page_box, press

LARGE = os.environ.get("CUBEREF_ATTACK", "") == "large"
UNIT = Path(__file__).resolve().parents[2] / "systemd" / "cuberef.service"


def tally(what: str, cases: int, answer: str) -> None:
    print(f"\nattack: {what}: {cases} cases, {answer}")


class Client:
    """One phone (or attacker) at ``source``: JSON requests to the box's page."""

    def __init__(self, port: int, source: str = "127.0.0.1") -> None:
        self.port, self.source = port, source

    def call(
        self,
        path: str,
        body: object = None,
        *,
        host: str | None = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, dict]:
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=10, source_address=(self.source, 0)
        )
        sent = {"Host": host or f"127.0.0.1:{self.port}"}
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        if data is not None:
            sent["Content-Type"] = "application/json"
            sent["Content-Length"] = str(len(data))
        sent.update(headers or {})
        try:
            connection.putrequest("POST" if data is not None else "GET", path, skip_host=True)
            for key, value in sent.items():
                connection.putheader(key, value)
            connection.endheaders(data)
            answer = connection.getresponse()
            return answer.status, json.loads(answer.read() or b"{}")
        finally:
            connection.close()

    def join(self, code: str, name: str, **more: str) -> tuple[int, dict]:
        return self.call("/join", {"code": code, "name": name, **more})


@pytest.fixture
def box(tmp_path, photos, factory):
    made, clock, url = page_box(tmp_path, photos, factory, rounds=3)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    yield made, clock, port
    made.close()


def test_guessing_the_join_code_is_slowed_to_days(box, monkeypatch):
    made, _, port = box
    code = made.referee.join_code
    wrong = [c for c in ("ABCD", "WXYZ", "KLMN", "PQRS", "TUVW", "HJKL", "NPQR") if c != code]
    attacker = Client(port, "127.0.0.9")
    answers = [attacker.join(guess, "Mallory")[0] for guess in wrong[:6]]
    assert answers == [403] * guard.WRONG_PER_CLIENT + [429]  # then a wait ...
    status, said = attacker.join(code, "Mallory")  # ... even for the right code
    assert status == 429 and "wait" in said["error"] and "seconds" in said["error"]
    status, joined = Client(port, "127.0.0.10").join(code, "Ann")
    assert status == 200  # an honest phone
    # Many addresses, one wrong code each: past the limit in all, each waits too.
    many = [Client(port, f"127.0.1.{n}").join("ZZZZ", "Bot")[0] for n in range(1, 41)]
    judged = guard.WRONG_IN_ALL - guard.WRONG_PER_CLIENT  # the first client's five count
    assert many == [403] * judged + [429] * (40 - judged)
    status, said = Client(port, "127.0.1.99").join(code, "Cy")  # a new phone waits too ...
    assert status == 429 and "wait" in said["error"]
    token = joined["token"]
    status, _ = Client(port, "127.0.0.10").call(f"/state?code={code}&token={token}")
    assert status == 200  # ... but a phone already in is never held up
    # The QR code's secret joins without the short code; a guessed secret is wrong.
    secret = made.page.secret
    assert len(secret) == 20 and Client(port, "127.0.0.11").join(secret, "Ben")[0] == 200
    tally("join-code guesses from one address", 6, "5 x 403 then 429 with the wait in words")
    tally("join-code guesses from 40 addresses", 40, f"{many.count(429)} x 429 past 30 a minute")


@pytest.mark.skipif(not LARGE, reason="CUBEREF_ATTACK=large")
def test_guessing_at_scale():
    """At the allowed pace, how long finding one of 331,776 codes takes."""
    tries = guard.Tries(clock=lambda: now[0])
    now = [0.0]
    accepted = refused = 0
    for step in range(200_000):  # one guess every 10 ms from 64 addresses, for 2,000 s
        now[0] = step * 0.01
        client = f"10.0.{step % 64}.1"
        if tries.wait(client) > 0:
            refused += 1
            continue
        tries.wrong(client)
        accepted += 1
    per_minute = accepted / (now[0] / 60)
    days = 331_776 / 2 / per_minute / 60 / 24
    tally(
        "guesses at 100 a second from 64 addresses",
        200_000,
        f"{accepted} judged, {refused} told to wait",
    )
    print(f"attack: {per_minute:.0f} guesses a minute at most: half the codes take {days:.1f} days")
    assert per_minute <= guard.WRONG_IN_ALL + 1 and days > 1


def test_a_players_seat_cannot_be_taken(box, factory):
    made, clock, port = box
    code = made.referee.join_code
    ann, thief = Client(port, "127.0.0.20"), Client(port, "127.0.0.21")
    status, joined = ann.join(code, "Ann")
    assert status == 200
    token = joined["token"]
    cases = {
        "the same name": thief.join(code, "Ann"),
        "the same name in other letters": thief.join(code, "Ａｎｎ"),  # NFKC: it is Ann
        "a forged token": thief.join(code, "Ann", token="x" * 22),
        "another team for her": thief.join(code, "Ann", team="Owls"),
    }
    for case, (status, said) in cases.items():
        assert status == 409 and "another phone" in said["error"], (case, said)
    again = ann.join(code, "Ann", token=token)  # her own phone, reloaded
    assert again[0] == 200 and again[1]["token"] == token
    press(factory, made, clock)  # the round is under way
    assert made.referee.state is State.TIMING
    status, said = Client(port, "127.0.0.22").join(code, "Late")
    assert status == 409 and "under way" in said["error"]
    status, said = ann.join(code, "Ann", token=token, team="Owls")
    assert status == 200 and "Ann" not in made.referee.table.teams()  # her seat as it was
    # The word limit is the player's: joining again gives no fresh burst.
    words = [ann.call("/word", {"code": code, "token": token, "word": "cot"})[0] for _ in range(30)]
    ann.join(code, "Ann", token=token)
    words += [
        ann.call("/word", {"code": code, "token": token, "word": "cot"})[0] for _ in range(30)
    ]
    assert words.count(429) >= 35
    tally("seat takeovers", len(cases) + 2, "409 with a sentence; her own phone keeps its token")


def test_at_most_twelve_players_and_each_token_its_seats(box, factory):
    made, clock, port = box
    code = made.referee.join_code
    joined = [Client(port, f"127.0.2.{n}").join(code, f"P{n}") for n in range(1, 15)]
    assert [status for status, _ in joined] == [200] * MAX_PLAYERS + [409] * 2
    assert "table is full" in joined[-1][1]["error"]
    assert len(made.referee.table.names) == MAX_PLAYERS
    tally("players past twelve", 14, "12 seated, then 409: the table is full")
    token = joined[0][1]["token"]
    first = Client(port, "127.0.2.1")
    assert first.call(f"/state?code={code}&token={token}")[0] == 200
    # A token is its seat's: once its player leaves, it opens nothing (device.referee.table).
    assert first.call("/leave", {"code": code, "token": token})[0] == 200
    status, said = first.call(f"/state?code={code}&token={token}")
    assert status == 401 and "join again" in said["error"]
    assert Client(port, "127.0.2.13").join(code, "P13")[0] == 200  # the freed seat


def _half_sent(port: int, source: str, count: int) -> list[socket.socket]:
    held = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
        sock.sendall(b"POST /word HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Len")  # never ends
        held.append(sock)
    return held


def _served(sock: socket.socket) -> bool:
    """Whether the server still holds ``sock`` open (it closed those over the limit)."""
    sock.settimeout(0.05)
    try:
        return sock.recv(1) != b""
    except (TimeoutError, BlockingIOError):
        return True
    except OSError:
        return False


def test_a_flood_of_half_sent_requests_stalls_no_honest_phone(box, factory):
    made, clock, port = box
    count = 1100 if LARGE else 150
    sources = [f"127.0.3.{n}" for n in range(1, 21)]
    fds_before = len(os.listdir("/proc/self/fd"))
    held = []
    for source in sources:
        held += _half_sent(port, source, count // len(sources))
    time.sleep(0.5)
    open_ones = sum(_served(sock) for sock in held)
    assert open_ones <= guard.IN_ALL
    started = time.monotonic()
    status, _ = Client(port, "127.0.3.200").call(f"/state?code={made.referee.join_code}&token=x")
    assert status == 401 and time.monotonic() - started < 2  # answered, at once
    press(factory, made, clock)  # the camera and the store open their files as ever
    assert made.referee.state is State.TIMING
    fds_during = len(os.listdir("/proc/self/fd"))
    for sock in held:
        sock.close()
    assert fds_during - fds_before <= len(held) + guard.IN_ALL + 16  # ours, not the box's
    tally(
        "half-sent requests",
        len(held),
        f"{open_ones} held (<= {guard.IN_ALL}), the rest closed; an honest phone answered",
    )


def test_slow_clients_are_let_go(tmp_path, photos, factory, monkeypatch):
    monkeypatch.setattr(guard, "HEADER_SECONDS", 1.0)
    monkeypatch.setattr(guard, "BODY_SECONDS", 1.0)
    made, clock, url = page_box(tmp_path, photos, factory, rounds=1)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    headers = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.30", 0))
    headers.sendall(b"GET /state HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and then one byte a while
    body = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.31", 0))
    body.sendall(
        f"POST /word HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Content-Length: 400\r\n\r\n{".encode()
    )
    deadline = time.monotonic() + 5
    for sock in (headers, body):
        sock.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            while sock.recv(4096):  # a 4xx answer, then the close, or just the close
                pass
        except TimeoutError:
            pytest.fail("a slow client was held past its deadline")
        sock.close()
    assert time.monotonic() < deadline
    made.close()
    tally(
        "slow clients (headers, body)",
        2,
        "closed within the 1 s deadlines set here (10 s on the box)",
    )


FOREIGN = [
    ("a foreign Host (DNS rebinding)", {"host": "evil.example:{port}"}, None, 403),
    ("the box's address, another port", {"host": "127.0.0.1:1"}, None, 403),
    ("another local address", {"host": "127.0.0.2:{port}"}, None, 403),
    ("a foreign Origin", {"headers": {"Origin": "http://evil.example"}}, None, 403),
    ("an Origin of null", {"headers": {"Origin": "null"}}, None, 403),
    ("a text/plain body", {"headers": {"Content-Type": "text/plain"}}, None, 415),
    ("a form body", {"headers": {"Content-Type": "application/x-www-form-urlencoded"}}, None, 415),
    ("no Content-Type", {"headers": {"Content-Type": ""}}, None, 415),
    ("its own origin", {"headers": {"Origin": "http://127.0.0.1:{port}"}}, None, 200),
    ("localhost on loopback", {"host": "localhost:{port}"}, None, 200),
]


def test_foreign_origins_and_hosts_are_refused(box):
    made, _, port = box
    code = made.referee.join_code
    client = Client(port, "127.0.0.40")
    for n, (case, how, _, want) in enumerate(FOREIGN):
        host = how.get("host")
        headers = {k: v.format(port=port) for k, v in how.get("headers", {}).items()}
        status, said = client.call(
            "/join",
            {"code": code, "name": f"Ann{n}"},
            host=host.format(port=port) if host else None,
            headers=headers,
        )
        assert status == want, (case, status, said)
        if want != 200:
            assert said["ok"] is False and said["error"].endswith("."), case
    status, _ = client.call("/", host="evil.example")  # the page itself too
    assert status == 403
    tally(
        "foreign hosts, origins and bodies",
        len(FOREIGN) + 1,
        "403 or 415 with a sentence; the page's own 200",
    )


ADDRESSES = {
    # address: whether it is the local network
    "127.0.0.1": True,
    "::1": True,
    "10.1.2.3": True,
    "172.16.0.1": True,
    "172.31.255.255": True,
    "192.168.1.20": True,
    "169.254.7.7": True,
    "fe80::1%wlan0": True,
    "fd12:3456::1": True,
    "::ffff:192.168.1.5": True,
    "2001:0::1": False,  # Teredo, routed on the Internet (Python calls 2001::/23 private)
    "2001:db8::1": False,  # documentation
    "192.0.2.1": False,  # documentation (TEST-NET-1), private to Python
    "198.51.100.1": False,
    "203.0.113.9": False,
    "100.64.0.1": False,  # carrier-grade NAT: another customer's
    "172.32.0.1": False,
    "8.8.8.8": False,
    "::ffff:8.8.8.8": False,
    "2a00:1450::1": False,
    "0.0.0.0": False,
    "255.255.255.255": False,
    "not an address": False,
}


def test_only_the_local_network_is_let_in_in_the_code_and_in_the_unit():
    judged = {address: guard.is_local(address) for address in ADDRESSES}
    assert judged == ADDRESSES
    rng = random.Random(32)
    count = 100_000 if LARGE else 2_000
    for _ in range(count):  # any address: local exactly when one of the listed networks has it
        bits = rng.getrandbits(128) if rng.random() < 0.5 else rng.getrandbits(32)
        address = ipaddress.ip_address(bits if bits >= 2**32 else bits)
        want = any(address in network for network in guard.LOCAL_NETWORKS)
        assert guard.is_local(str(address)) is want
    text = UNIT.read_text(encoding="utf-8")
    allowed = next(line for line in text.splitlines() if line.startswith("IPAddressAllow="))
    unit = {ipaddress.ip_network(n) for n in allowed.split("=", 1)[1].split()}
    assert unit == set(guard.LOCAL_NETWORKS)
    assert "IPAddressDeny=any" in text
    tally(
        "client addresses",
        len(ADDRESSES) + count,
        "local exactly for loopback, RFC 1918, link-local, ULA",
    )


NESTINGS = (10, 1_000, 2_000, 100_000)


def nested(depth: int, code: str, token: str) -> list[tuple[str, bytes]]:
    """Bodies nested ``depth`` deep, in arrays, objects and inside a real request's
    fields, closed and left open."""
    arrays = "[" * depth + "]" * depth
    objects = '{"a":' * depth + "1" + "}" * depth
    return [
        ("arrays", arrays.encode()),
        ("objects", objects.encode()),
        ("open", ("[" * depth).encode()),
        ("strings and escapes", ('["\\"[", ' * depth + '"x"' + "]" * depth).encode()),
        ("in a word", f'{{"code": "{code}", "token": "{token}", "word": {arrays}}}'.encode()),
    ]


def test_bodies_nested_deeply_are_refused_with_a_sentence_never_500(box, factory):
    """Under the size limit, a body nested past any real request is 400 and a sentence
    (it reached the parser's recursion: 500); past the limit, 413."""
    made, clock, port = box
    code = made.referee.join_code
    client = Client(port, "127.0.0.40")
    status, joined = client.join(code, "Ann")
    assert status == 200
    press(factory, made, clock)  # a round: words are taken
    answers: Counter = Counter()
    for depth in NESTINGS:
        for what, body in nested(depth, code, joined["token"]):
            for padded in (body, body + b" " * (LARGEST_REQUEST + 1 - len(body))):
                for path in ("/join", "/word", "/dispute", "/rule", "/leave"):
                    status, said = client.call(path, raw=padded)
                    answers[status] += 1
                    assert status != 500 and (said["ok"] or said["error"].endswith(".")), said
                    if len(padded) > LARGEST_REQUEST:
                        assert status == 413, (depth, what, status)
                    elif depth > MAX_DEPTH:
                        assert status == 400 and "nested too deeply" in said["error"], said
    assert client.call("/hello")[0] == 200  # the page answers as ever
    assert 500 not in answers
    cases = sum(answers.values())
    tally("bodies nested 10 to 100,000 deep", cases, f"no 500: {dict(sorted(answers.items()))}")


RANDOM_BODIES = 5_000 if LARGE else 200
SIGNS = '[]{}"\\:,-.0123456789 eEtrufalsn\x00\u00e9\ud800'


def random_value(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(8 if depth < 40 else 5)
    if kind < 5:
        return [None, True, rng.randint(-(10**30), 10**30), rng.random(), "cot"][kind]
    if kind == 5:
        return "".join(rng.choice(SIGNS) for _ in range(rng.randrange(12)))
    if kind == 6:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {rng.choice(["code", "token", "word", "name", "allow", "remove", "x"]): (
        random_value(rng, depth + 1)) for _ in range(rng.randrange(4))}  # fmt: skip


def random_body(rng: random.Random, code: str, token: str) -> bytes:
    """Bytes, signs, JSON of any shape, and real requests with fields of any kind."""
    kind = rng.randrange(4)
    if kind == 0:
        return rng.randbytes(rng.randrange(LARGEST_REQUEST + 64))
    if kind == 1:
        signs = "".join(rng.choice(SIGNS) for _ in range(rng.randrange(LARGEST_REQUEST + 64)))
        return signs.encode("utf-8", "surrogatepass")
    if kind == 2:
        return json.dumps(random_value(rng)).encode()
    request = {"code": code, "token": token, "word": "cot", "name": "Cy"}
    request[rng.choice(list(request) + ["allow", "remove"])] = random_value(rng)
    return json.dumps(request).encode()


def test_random_bodies_never_make_the_page_answer_500(box, factory):
    made, clock, port = box
    code = made.referee.join_code
    client = Client(port, "127.0.0.41")
    status, joined = client.join(code, "Ann")
    assert status == 200
    press(factory, made, clock)
    rng = random.Random(42)
    answers: Counter = Counter()
    for _ in range(RANDOM_BODIES):
        body = random_body(rng, code, joined["token"])
        path = rng.choice(["/join", "/word", "/dispute", "/rule", "/leave", "/state"])
        status, said = client.call(path, raw=body)
        answers[status] += 1
        assert status != 500 and (said["ok"] or said["error"].endswith(".")), (body[:80], said)
    tally("random bodies", RANDOM_BODIES, f"no 500: {dict(sorted(answers.items()))}")


def test_answers_in_all(box):
    """Every refusal above is a JSON sentence; nothing reached the store."""
    made, _, port = box
    kinds = Counter(e.kind for e in made.store.events(1)) if made.referee.match else Counter()
    assert kinds["word-typed"] == 0
