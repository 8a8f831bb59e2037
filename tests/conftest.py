"""Fixtures several test modules share, each made once a session."""

from __future__ import annotations

import signal

import numpy as np
import pytest
from hypothesis import settings
from live_frames import hand_frames as render_hand_frames
from live_frames import make_table

from models.sequences import Shot, Table

# A shell without job control starts a background job with Ctrl-C ignored, and a program
# inherits that: the tests that press Ctrl-C on a command would see it ignored. Python's
# own handler here gives every child the default again.
signal.signal(signal.SIGINT, signal.default_int_handler)

# Properties are checked for what they say, not for how fast a busy two-core machine runs
# an example: hypothesis's 200 ms deadline failed there on a slow example, never on a rule.
settings.register_profile("cuberef", deadline=None)
settings.load_profile("cuberef")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules with slow tests first: ``make test``'s workers (pytest-xdist, a module
    to a worker) start on them, so that none is left to run alone at the end. Each
    module's tests keep their order."""
    slow_modules = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_modules)


@pytest.fixture(scope="session")
def table() -> Table:
    """The live-reading tests' rendered table (``models.sequences``), 800x600."""
    return make_table()


@pytest.fixture(scope="session")
def hand_frames(table: Table) -> list[tuple[Shot, np.ndarray]]:
    """The crossword on that table with a hand over it for a while."""
    return render_hand_frames(table)
