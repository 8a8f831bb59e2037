"""The director while the event runs: subscribed to every table's state and results,
keeping each result once in the store (``Ledger``), the last state of each table in
memory, and publishing the round's seating when it connects. paho's thread does the
work; the scoreboard reads ``snapshot``."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from typing import Any

import paho.mqtt.client as mqtt

from device.club import credentials, link, results, topics
from device.club.director import broker_url, seating_messages
from device.club.event import Event
from device.club.ledger import Ledger
from engine.errors import CuberefError

log = logging.getLogger("cuberef.club")

#: How many of the latest state messages' delays the director keeps (for the benchmark).
LAGS_KEPT = 100_000


class Director:
    def __init__(self, event: Event, ledger: Ledger) -> None:
        self.event, self.ledger = event, ledger
        self.lock = threading.Lock()
        self.states: dict[int, dict[str, Any]] = {}
        self.lags: deque[float] = deque(maxlen=LAGS_KEPT)
        self.connected = threading.Event()
        account = credentials.director(event.folder)
        # A kept session: results sent while the director is away wait in the broker.
        self.client = link.client(account, f"cuberef-director-{event.name}", kept=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = lambda *_args: self.connected.clear()
        self.client.on_message = self._on_message

    def start(self) -> None:
        link.start(self.client, link.parse_broker(broker_url(self.event)))

    def stop(self) -> None:
        link.stop(self.client)

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, code: Any, _p: Any) -> None:
        if code.is_failure:
            log.error("the broker refused the director: %s", code)
            return
        name = self.event.name
        client.subscribe([(topics.every_table(name, k), 1) for k in (topics.STATE, topics.RESULTS)])
        self.publish_seating()
        self.connected.set()

    def publish_seating(self) -> None:
        """The latest round's seating, retained (again: a broker that lost it has it back)."""
        seatings = self.ledger.seatings()
        if seatings:
            for topic, payload in seating_messages(self.event, seatings[-1]):
                self.client.publish(topic, payload, qos=1, retain=True)

    def _on_message(self, _c: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        where = topics.parse_topic(self.event.name, message.topic)
        if where is None:
            return
        table, kind = where
        payload = bytes(message.payload)
        try:
            if kind == topics.RESULTS:
                self.ledger.record(results.read(table, payload))
            elif kind == topics.STATE:
                self._state(table, payload, message.retain)
        except CuberefError as error:
            log.warning("%s", error)

    def _state(self, table: int, payload: bytes, retained: bool) -> None:
        try:
            data = json.loads(payload)
        except ValueError:
            raise CuberefError(f"Table {table} sent a state that is not JSON.") from None
        if not isinstance(data, dict):
            raise CuberefError(f"Table {table} sent a state that is not an object.")
        now = time.time()
        sent = data.get("at")
        with self.lock:
            if data.get("online", True) is False:  # its last will: the rest is kept
                self.states.setdefault(table, {})["online"] = False
            else:
                self.states[table] = {**data, "online": True, "table": table}
            if isinstance(sent, (int, float)) and not retained:
                self.lags.append(now - float(sent))

    def snapshot(self) -> dict[str, Any]:
        """What the scoreboard shows: every table's last state beside its seat in the
        latest round, the seatings so far, and the standings."""
        from device.club.rounds import document

        shown = document(self.event, self.ledger)
        latest: dict[str, Any] = shown["rounds"][-1] if shown["rounds"] else {"round": 0}
        latest.setdefault("tables", [])
        seats = {t["table"]: t["players"] for t in latest["tables"]}
        with self.lock:
            states = {n: dict(s) for n, s in self.states.items()}
        numbers = sorted(set(seats) | set(states))
        tables = [
            {
                "table": n,
                "seated": seats.get(n, []),
                "online": states.get(n, {}).get("online", False),
                "phase": states.get(n, {}).get("phase"),
                "clock": states.get(n, {}).get("clock"),
                "round": states.get(n, {}).get("round"),
                "players": states.get(n, {}).get("players", []),
                "scores": states.get(n, {}).get("scores", {}),
            }
            for n in numbers
        ]
        return {**shown, "round": latest["round"], "tables": tables}

    def last_round(self, table: int) -> dict[str, Any] | None:
        """The latest result that table sent, as sent (its words for the scoreboard)."""
        mine = [r for r in self.ledger.results() if r.table == table]
        return json.loads(mine[-1].payload) if mine else None
