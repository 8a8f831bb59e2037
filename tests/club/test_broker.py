"""The director's own mosquitto: a table's secret publishes only that table's topics, only
the director seats, anonymous and wrong secrets are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from club.clients import Probe
from club.conftest import EVENT
from device.club import credentials, topics
from device.club.broker import Mosquitto
from device.club.credentials import Account


def account(folder: Path, user: str) -> Account:
    return Account(user, credentials.read_secret(credentials.secret_path(folder, user)))


def test_a_table_publishes_its_own_state_and_the_director_receives_it(
    mosquitto: Mosquitto, event_folder: Path
) -> None:
    director = Probe(mosquitto.url, credentials.director(event_folder), "director")
    table = Probe(mosquitto.url, account(event_folder, "table-2"), "box-2")
    try:
        assert director.wait_connected() is None and table.wait_connected() is None
        director.subscribe(topics.every_table(EVENT, topics.STATE))
        code = table.publish(topics.table_topic(EVENT, 2, topics.STATE), '{"phase": "idle"}')
        assert not code.is_failure
        got = director.next()
        assert got is not None and got.topic == "cuberef/tuesday/tables/2/state"
    finally:
        director.close()
        table.close()


@pytest.mark.parametrize(
    ("table", "kind"),
    [(1, topics.STATE), (1, topics.RESULTS), (3, topics.SEATING), (2, topics.SEATING)],
)
def test_another_tables_secret_cannot_publish_there(
    mosquitto: Mosquitto, event_folder: Path, table: int, kind: str
) -> None:
    director = Probe(mosquitto.url, credentials.director(event_folder), "director")
    stranger = Probe(mosquitto.url, account(event_folder, "table-2"), "box-2")
    try:
        assert director.wait_connected() is None and stranger.wait_connected() is None
        director.subscribe(f"cuberef/{EVENT}/#")
        code = stranger.publish(topics.table_topic(EVENT, table, kind), '{"forged": true}')
        assert code.getName() == "Not authorized"
        # The director's own message after it arrives, and the forged one never did.
        director.publish(topics.table_topic(EVENT, 3, topics.SEATING), '{"round": 1}')
        got = director.next()
        assert got is not None and got.payload == b'{"round": 1}'
        assert director.next(0.3) is None
    finally:
        director.close()
        stranger.close()


def test_a_table_cannot_read_another_tables_results(
    mosquitto: Mosquitto, event_folder: Path
) -> None:
    reader = Probe(mosquitto.url, account(event_folder, "table-2"), "box-2")
    writer = Probe(mosquitto.url, account(event_folder, "table-1"), "box-1")
    try:
        assert reader.wait_connected() is None and writer.wait_connected() is None
        reader.subscribe(topics.every_table(EVENT, topics.RESULTS))
        assert not writer.publish(topics.table_topic(EVENT, 1, topics.RESULTS), "{}").is_failure
        assert reader.next(0.5) is None
    finally:
        reader.close()
        writer.close()


@pytest.mark.parametrize(
    "who", [Account("", ""), Account("table-1", "not-the-secret"), Account("stranger", "x")]
)
def test_anonymous_and_wrong_secrets_are_refused(mosquitto: Mosquitto, who: Account) -> None:
    probe = Probe(mosquitto.url, who, "stranger")
    try:
        refusal = probe.wait_connected()
        assert refusal is not None and refusal.is_failure
    finally:
        probe.close()


def test_the_password_file_holds_no_secret_in_the_clear(
    mosquitto: Mosquitto, event_folder: Path
) -> None:
    text = (event_folder / "broker" / "passwords").read_text()
    for made in credentials.accounts(event_folder):
        assert made.user in text and made.secret not in text
