"""The director's client of the event's broker: publishing each table's seating
(retained, QoS 1, so that a box that connects later still finds it)."""

from __future__ import annotations

import json
import logging
import threading
from typing import Any

from device.club import credentials, link, topics
from device.club.event import Event
from device.club.pairing import Seating
from engine.errors import MachineError

log = logging.getLogger("cuberef.club")


def broker_url(event: Event) -> str:
    """The broker named in ``club.toml``, else the director's own on this machine."""
    return event.broker or f"mqtt://127.0.0.1:{event.port}"


def seating_messages(event: Event, seating: Seating) -> list[tuple[str, str]]:
    """(topic, payload) for every table with credentials: its seat in the round, or no
    one where the round seats fewer tables (so no old seating stays on a box)."""
    made = credentials.tables_of(credentials.accounts(event.folder))
    numbers = sorted(set(made) | set(range(1, len(seating.tables) + 1)))
    messages = []
    for number in numbers:
        players = list(seating.tables[number - 1]) if number <= len(seating.tables) else []
        payload = {"table": number, "round": seating.round, "players": players}
        messages.append(
            (topics.table_topic(event.name, number, topics.SEATING), json.dumps(payload))
        )
    return messages


def publish_seating(event: Event, seating: Seating, timeout: float = 5.0) -> bool:
    """Publishes the round's seating and waits for the broker to take every message;
    False where the broker cannot be reached (the seating is kept in the store anyway)."""
    client = link.client(credentials.director(event.folder), f"cuberef-pair-{event.name}")
    try:
        link.connect_now(client, link.parse_broker(broker_url(event)), timeout)
    except MachineError as error:
        log.info("seating not published: %s", error)
        return False
    acked = threading.Semaphore(0)

    def on_publish(*_args: Any) -> None:
        acked.release()

    client.on_publish = on_publish
    try:
        sent = seating_messages(event, seating)
        for topic, payload in sent:
            client.publish(topic, payload, qos=1, retain=True)
        return all(acked.acquire(timeout=timeout) for _ in sent)
    finally:
        link.stop(client)
