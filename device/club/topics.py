"""The event's topics and who may use them.

Every topic of an event lies under ``cuberef/<event>/tables/<n>/``:

- ``state``: retained, published by table ``n``'s box each time its screen changes:
  ``{"table", "online": true, "phase", "clock" (seconds left or null), "round" (the
  seating's round or null), "match", "players": [names], "scores": {name: points}}``; the
  box's last will puts ``{"table", "online": false}`` there, retained, when it goes away
  without saying goodbye.
- ``results``: QoS 1, one message a scored round: ``{"table", "match", "round" (the box's
  round within its match), "event_round" (the seating's round or null), "final" (the
  match is over), "players": [{"name", "score", "words": [{"word", "status", "points"}]}]}``.
  The director keeps each (table, match, round) once, however often it arrives.
- ``seating``: retained, published by the director only: ``{"table", "round", "players"}``.

A table's account (``table-<n>``) may publish only its own ``state`` and ``results`` and
read only its own ``seating``; the director's account reads and writes the whole event;
anonymous clients are refused."""

from __future__ import annotations

from device.config.club_rules import event_problem
from engine.errors import CuberefError

ROOT = "cuberef"
DIRECTOR = "director"
STATE, RESULTS, SEATING = "state", "results", "seating"


def check_event(event: str) -> str:
    """An event's name as it goes into a topic: letters, digits, ``-``, ``_`` and ``.``.

    >>> check_event("tuesday-club")
    'tuesday-club'
    """
    problem = event_problem(event)
    if problem:
        raise CuberefError(f"The event's name {event!r} {problem}.")
    return event


def table_user(table: int) -> str:
    """The broker account of table ``table``: ``table-3``."""
    return f"table-{table}"


def table_topic(event: str, table: int, kind: str) -> str:
    """``cuberef/<event>/tables/<n>/<kind>``.

    >>> table_topic("club", 3, "state")
    'cuberef/club/tables/3/state'
    """
    return f"{ROOT}/{event}/tables/{table}/{kind}"


def every_table(event: str, kind: str) -> str:
    """The wildcard that a director subscribes to for one kind of every table's messages."""
    return f"{ROOT}/{event}/tables/+/{kind}"


def parse_topic(event: str, topic: str) -> tuple[int, str] | None:
    """(table, kind) of one of the event's table topics, or None.

    >>> parse_topic("club", "cuberef/club/tables/12/results")
    (12, 'results')
    >>> parse_topic("club", "cuberef/other/tables/1/state") is None
    True
    """
    parts = topic.split("/")
    if len(parts) != 5 or parts[:3] != [ROOT, event, "tables"] or not parts[3].isdigit():
        return None
    return int(parts[3]), parts[4]


def acl(event: str, tables: list[int]) -> str:
    """Mosquitto's ACL file for the event: the director everything under the event, each
    table its own state and results to write and its own seating to read."""
    lines = [f"user {DIRECTOR}", f"topic readwrite {ROOT}/{event}/#", ""]
    for table in tables:
        lines.append(f"user {table_user(table)}")
        lines.append(f"topic write {table_topic(event, table, STATE)}")
        lines.append(f"topic write {table_topic(event, table, RESULTS)}")
        lines.append(f"topic read {table_topic(event, table, SEATING)}")
        lines.append("")
    return "\n".join(lines)
