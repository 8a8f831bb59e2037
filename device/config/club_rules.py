"""What a club's names and addresses must be, wherever they are given: an event's name
(it goes into MQTT topics), a broker's address and a table's secret. The box's ``[club]``
settings and the director's ``club.toml`` both check with these."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from engine.errors import CuberefError

DEFAULT_PORT = 1883
_EVENT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def event_problem(event: object) -> str | None:
    """What is wrong with an event's name, or None.

    >>> event_problem("tuesday-club"), event_problem("a/b")
    (None, "must be 1 to 64 letters, digits, '-', '_' or '.'")
    """
    if isinstance(event, str) and _EVENT_NAME.fullmatch(event):
        return None
    return "must be 1 to 64 letters, digits, '-', '_' or '.'"


def broker_address(url: str) -> tuple[str, int]:
    """The host and port of ``mqtt://host:port`` (port 1883 where none is given).

    >>> broker_address("mqtt://club.local:1884"), broker_address("mqtt://10.0.0.5")
    (('club.local', 1884), ('10.0.0.5', 1883))
    """
    try:
        split = urlsplit(url)
        port = split.port or DEFAULT_PORT
    except ValueError:
        split, port = None, 0
    if split is None or split.scheme != "mqtt" or not split.hostname or split.path not in ("", "/"):
        raise CuberefError(f"The broker {url!r} must be written mqtt://HOST:PORT.")
    return split.hostname, port


def secret_problem(text: str) -> str | None:
    """What is wrong with a secret file's text (one secret on one line), or None."""
    if not text or any(ch.isspace() or ch == ":" for ch in text):
        return "must hold one secret on one line"
    return None
