"""Blocking MQTT clients for the tests: connect, publish and wait for what arrives."""

from __future__ import annotations

import queue
import threading
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.reasoncodes import ReasonCode

from device.club import link
from device.club.credentials import Account

WAIT = 5.0


class Probe:
    """A connected client that records what it receives and each publish's verdict."""

    def __init__(self, url: str, account: Account, client_id: str, kept: bool = False) -> None:
        self.received: queue.Queue[mqtt.MQTTMessage] = queue.Queue()
        self.connected = threading.Event()
        self.refusal: ReasonCode | None = None
        self.acks: dict[int, ReasonCode] = {}
        self.acked = threading.Condition()
        self.client = link.client(account, client_id, kept)
        if not account.user:
            self.client.username_pw_set(None)  # anonymous: no user name at all
        self.client.on_connect = self._on_connect
        self.client.on_message = lambda _c, _u, message: self.received.put(message)
        self.client.on_publish = self._on_publish
        self.client.on_subscribe = self._on_subscribe
        self.subscribed = threading.Event()
        link.start(self.client, link.parse_broker(url))

    def _on_connect(self, _c: Any, _u: Any, _f: Any, code: ReasonCode, _p: Any) -> None:
        if code.is_failure:
            self.refusal = code
        self.connected.set()

    def _on_publish(self, _c: Any, _u: Any, mid: int, code: ReasonCode, _p: Any) -> None:
        with self.acked:
            self.acks[mid] = code
            self.acked.notify_all()

    def _on_subscribe(self, *_args: Any) -> None:
        self.subscribed.set()

    def wait_connected(self) -> ReasonCode | None:
        """None where the broker let it in, else its refusal."""
        assert self.connected.wait(WAIT), "the broker did not answer"
        return self.refusal

    def subscribe(self, topic: str) -> None:
        self.subscribed.clear()
        self.client.subscribe(topic, qos=1)
        assert self.subscribed.wait(WAIT)

    def publish(self, topic: str, payload: str, retain: bool = False) -> ReasonCode:
        """Publishes at QoS 1 and returns the broker's PUBACK reason."""
        mid = self.client.publish(topic, payload, qos=1, retain=retain).mid
        with self.acked:
            assert self.acked.wait_for(lambda: mid in self.acks, WAIT), "no PUBACK"
            return self.acks[mid]

    def next(self, timeout: float = WAIT) -> mqtt.MQTTMessage | None:
        try:
            return self.received.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        link.stop(self.client)
