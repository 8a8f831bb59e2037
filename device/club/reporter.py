"""A box's side of a club's event: its screen's state (retained, as it changes), each
scored round's result (QoS 1, kept in the outbox until the broker takes it, sent again
after any restart or reconnect), a last will that marks the table offline, and the
table's seating as the director publishes it.

The box never waits on the broker: paho connects and reconnects in its own thread, and
``state`` and ``result`` only hand a message to paho (and a result to the outbox first),
whether the broker is there or not."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt

from device.club import link, topics
from device.club.credentials import Account
from device.club.outbox import Outbox
from device.club.rounds import seating_line

log = logging.getLogger("cuberef.club")


@dataclass(frozen=True)
class Seat:
    table: int
    round: int
    players: tuple[str, ...]

    @property
    def line(self) -> str:
        """``Table 3 · round 2: Ann, Ben, Cy, Dee``."""
        return seating_line(self.table, self.round, self.players)


@dataclass(frozen=True)
class Club:
    """A box's ``[club]``: its broker, the event, its table and that table's secret."""

    broker: str
    event: str
    table: int
    secret: str


class Reporter:
    """The box's client. Results leave from a thread of the reporter's own, out of the
    outbox: paho calls ``on_publish`` holding its own lock, so nothing that waits on the
    reporter may run there, and the referee's thread only ever adds to the outbox."""

    def __init__(
        self, club: Club, outbox: Outbox, on_seat: Callable[[Seat | None], None] | None = None
    ) -> None:
        self.club, self.outbox, self.on_seat = club, outbox, on_seat
        self.seat: Seat | None = None
        self.last_state: str | None = None
        self.acks: dict[int, Any] = {}  # paho's message id -> the broker's reason
        self.connected = threading.Event()
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.sender = threading.Thread(target=self._send_results, name="cuberef-club", daemon=True)
        table, event = club.table, club.event
        self.client = link.client(
            Account(topics.table_user(table), club.secret), f"cuberef-{event}-table-{table}"
        )
        self.client.will_set(self.topic(topics.STATE), self._offline(), qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message

    def topic(self, kind: str) -> str:
        return topics.table_topic(self.club.event, self.club.table, kind)

    def _offline(self) -> str:
        return json.dumps({"table": self.club.table, "online": False})

    def start(self) -> None:
        self.sender.start()
        link.start(self.client, link.parse_broker(self.club.broker))

    def stop(self) -> None:
        """Says the table is offline (a box stopped on purpose sends no will) and closes."""
        self.stopping.set()
        self.wake.set()
        if self.connected.is_set():
            sent = self.client.publish(
                self.topic(topics.STATE), self._offline(), qos=1, retain=True
            )
            sent.wait_for_publish(1.0)
        link.stop(self.client)
        if self.sender.is_alive():
            self.sender.join(2.0)

    # What the box calls: neither waits -----------------------------------------------------

    def state(self, shown: dict[str, Any]) -> None:
        """The screen as it is now: ``phase``, ``clock``, ``match``, ``players``, ``scores``."""
        seat = self.seat
        fields = {**shown, "table": self.club.table, "online": True}
        fields["round"] = seat.round if seat else None
        if json.dumps(fields) == self.last_state:
            return
        self.last_state = json.dumps(fields)
        if self.connected.is_set():
            payload = json.dumps({**fields, "at": time.time()})
            self.client.publish(self.topic(topics.STATE), payload, qos=0, retain=True)

    def result(self, scored: dict[str, Any]) -> None:
        """A scored round: ``match``, ``round``, ``final``, ``players`` with their words.
        Kept in the outbox first, so that nothing is lost if the box stops now."""
        seat = self.seat
        event_round = self.outbox.event_round(str(scored["match"]), seat.round if seat else None)
        payload = {**scored, "table": self.club.table, "event_round": event_round}
        key = f"{scored['match']}/{scored['round']}"
        self.outbox.add(key, self.topic(topics.RESULTS), json.dumps(payload))
        self.wake.set()

    # The reporter's own thread ---------------------------------------------------------------

    def _send_results(self) -> None:
        flying: dict[str, mqtt.MQTTMessageInfo] = {}
        while not self.stopping.is_set():
            self.wake.wait(1.0)
            self.wake.clear()
            if not self.connected.is_set():
                flying.clear()  # sent again from the outbox once the broker is back
                continue
            for key, topic, payload in self.outbox.pending():
                if key not in flying:
                    flying[key] = self.client.publish(topic, payload, qos=1)
            for key, info in list(flying.items()):
                if not info.is_published():
                    continue
                del flying[key]
                code = self.acks.pop(info.mid, None)
                if code is not None and code.is_failure:
                    log.error(
                        "the broker refused table %d's result %s: %s", self.club.table, key, code
                    )
                else:
                    self.outbox.done(key)

    # paho's thread: nothing here waits ----------------------------------------------------

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, code: Any, _p: Any) -> None:
        if code.is_failure:
            log.error("the broker refused table %d: %s", self.club.table, code)
            return
        self.connected.set()
        client.subscribe(self.topic(topics.SEATING), qos=1)
        state = self.last_state
        if state is not None:
            payload = json.dumps({**json.loads(state), "at": time.time()})
            client.publish(self.topic(topics.STATE), payload, qos=0, retain=True)
        self.wake.set()

    def _on_disconnect(self, *_args: Any) -> None:
        self.connected.clear()
        self.wake.set()

    def _on_publish(self, _c: mqtt.Client, _u: Any, mid: int, code: Any, _p: Any) -> None:
        self.acks[mid] = code
        self.wake.set()

    def _on_message(self, _c: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        try:
            data = json.loads(message.payload)
            players = tuple(str(p) for p in data["players"])
            seat = Seat(self.club.table, int(data["round"]), players) if players else None
        except (ValueError, KeyError, TypeError):
            log.warning("table %d: a seating that cannot be read", self.club.table)
            return
        self.seat = seat
        if self.on_seat is not None:
            self.on_seat(seat)
