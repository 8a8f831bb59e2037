"""Choosing a hardware backend by name, from one explicit table per part.

An unknown name is one sentence (exit 2); falling back from one backend to another is
announced through the log and kept as a notice the screen shows, never silent.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from engine.errors import CuberefError, MachineError

log = logging.getLogger("cuberef.device")

T = TypeVar("T")


def pick(table: Mapping[str, T], name: str, part: str) -> T:
    """The entry called ``name`` in ``table``, or a sentence naming the choices."""
    try:
        return table[name]
    except KeyError:
        raise CuberefError(
            f"There is no {part} called {name!r}; choose one of {', '.join(table)}."
        ) from None


def first_working(
    part: str, attempts: Sequence[tuple[str, Callable[[], T]]], notices: list[str]
) -> tuple[str, T]:
    """Try each backend in turn; every fallback is logged and added to ``notices``."""
    reasons: list[str] = []
    for name, make in attempts:
        try:
            made = make()
        except Exception as error:  # the backend's own failure, reported below
            reasons.append(f"{name}: {str(error).rstrip('.')}")
            continue
        if reasons:
            notice = f"Using the {name} {part}: {'; '.join(reasons)}."
            log.warning(notice)
            notices.append(notice)
        return name, made
    raise MachineError(f"No {part} works ({'; '.join(reasons)}); check its cable and settings.")
