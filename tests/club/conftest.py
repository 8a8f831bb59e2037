"""A real mosquitto for the club tests, on a free loopback port, with an event of three
tables. ``make test`` installs mosquitto (``make mosquitto``); a machine without it fails
these tests with that sentence rather than skipping them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from device.club import broker, credentials
from device.club.broker import Mosquitto

EVENT = "tuesday"


@pytest.fixture
def event_folder(tmp_path: Path) -> Path:
    folder = tmp_path / EVENT
    credentials.make_tables(folder, 3)
    return folder


@pytest.fixture
def mosquitto(event_folder: Path) -> Iterator[Mosquitto]:
    if not broker.available():
        pytest.fail("The club tests need Debian's mosquitto: make mosquitto")
    with Mosquitto(event_folder, EVENT, broker.free_port()) as running:
        yield running
