"""One paho-mqtt client for the event (MQTT 5, so that the broker says why it refused a
publish), its broker's address, and a blocking wait for tests and commands."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from device.club.credentials import Account
from device.config.club_rules import broker_address
from engine.errors import CuberefError, MachineError

#: A session the broker keeps while its client is away, messages queued (MQTT 5's most).
KEPT = 0xFFFFFFFF


@dataclass(frozen=True)
class Address:
    host: str
    port: int


def parse_broker(url: str) -> Address:
    """``mqtt://host:port`` (``device.config.club_rules.broker_address``) as an Address."""
    return Address(*broker_address(url))


def client(account: Account, client_id: str, kept: bool = False) -> mqtt.Client:
    """A client logging in as ``account``; ``kept``: its session (subscriptions, queued
    QoS 1 messages) outlives a disconnect."""
    made = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    made.username_pw_set(account.user, account.secret)
    made.reconnect_delay_set(min_delay=0.5, max_delay=2)  # type: ignore[arg-type]
    made.user_data_set({"kept": kept})
    return made


def connect_properties(kept: bool) -> Properties | None:
    if not kept:
        return None
    properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
    properties.SessionExpiryInterval = KEPT
    return properties


def start(made: mqtt.Client, address: Address) -> None:
    """Connects in paho's own thread and keeps reconnecting there: the caller never waits."""
    kept = bool(made.user_data_get()["kept"])
    made.connect_async(
        address.host,
        address.port,
        keepalive=5,
        clean_start=not kept,
        properties=connect_properties(kept),
    )
    made.loop_start()


def connect_now(made: mqtt.Client, address: Address, timeout: float = 10.0) -> None:
    """Connects and waits for the broker's answer: for commands that cannot go on without
    it (``club pair``). One sentence where the broker refuses or cannot be reached."""
    answered = threading.Event()
    reason: list[Any] = []

    def on_connect(_c: mqtt.Client, _u: Any, _f: Any, code: Any, _p: Any) -> None:
        reason.append(code)
        answered.set()

    def on_connect_fail(_c: mqtt.Client, _u: Any) -> None:
        answered.set()  # refused or unreachable: said at once, not after the timeout

    made.on_connect = on_connect
    made.on_connect_fail = on_connect_fail
    start(made, address)
    if not answered.wait(timeout) or not reason:
        made.loop_stop()
        raise MachineError(f"The broker at {address.host}:{address.port} cannot be reached.")
    if reason[0].is_failure:
        made.loop_stop()
        raise CuberefError(f"The broker at {address.host}:{address.port} refused: {reason[0]}.")


def stop(made: mqtt.Client) -> None:
    made.disconnect()
    made.loop_stop()
