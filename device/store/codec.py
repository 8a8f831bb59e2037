"""Frozen dataclasses to JSON and back, every value checked against its declared type.

The store keeps each event's payload (and the reader's own ``TrayReading`` or
``LooseReading`` inside it) as JSON. ``encode`` turns a dataclass into plain JSON values;
``decode`` builds it again and raises ``Undecodable`` with a sentence naming the first
field that is missing or of the wrong type, so a damaged row is set aside and never
half-read. The types understood are those the payloads use: ``str``, ``int``,
``float``, ``bool``, ``None``, ``X | Y``, ``tuple[X, ...]``, fixed tuples, nested
dataclasses, and the engine's ``Face``, kept in its own notation (``"Qu"``).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Seen:
...     name: str
...     seconds: int
...     marks: tuple[float, ...] = ()
>>> decode(Seen, encode(Seen("Ann", 10, (0.5,))))
Seen(name='Ann', seconds=10, marks=(0.5,))
>>> decode(Seen, {"name": "Ann", "seconds": "ten"})
Traceback (most recent call last):
...
device.store.codec.Undecodable: seconds is 'ten', not a whole number
>>> decode(Seen, {"name": "Ann"})
Traceback (most recent call last):
...
device.store.codec.Undecodable: seconds is missing
"""

from __future__ import annotations

import dataclasses
import math
import sys
import types
import typing
from functools import cache
from typing import Any, TypeVar

from engine.errors import NotationError
from engine.faces import Face

T = TypeVar("T")


class Undecodable(ValueError):
    """Stored data that does not fit its type; the message names the field."""


def encode(value: Any) -> Any:
    """Plain JSON values for a dataclass, a tuple or a scalar."""
    if isinstance(value, Face):
        return value.symbol
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [encode(item) for item in value]
    return value


def decode(kind: type[T], data: Any) -> T:
    """``data`` (parsed JSON) as a ``kind``, or ``Undecodable`` saying what is wrong."""
    built: T = _value(kind, data, "")
    return built


@cache
def _hints(kind: type) -> dict[str, Any]:
    module = sys.modules.get(kind.__module__)
    return typing.get_type_hints(kind, vars(module) if module else None)


def _dataclass(kind: type, data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise Undecodable(f"{where or 'the data'} is {_shown(data)}, not a record")
    hints = _hints(kind)
    values = {}
    for item in dataclasses.fields(kind):
        if not item.init:
            continue
        name = f"{where}.{item.name}" if where else item.name
        if item.name in data:
            values[item.name] = _value(hints[item.name], data[item.name], name)
        elif item.default is dataclasses.MISSING and item.default_factory is dataclasses.MISSING:
            raise Undecodable(f"{name} is missing")
    try:
        return kind(**values)
    except (TypeError, ValueError) as error:  # the class's own checks of its values
        raise Undecodable(f"{where or kind.__name__}: {error}") from None


def _value(kind: Any, data: Any, where: str) -> Any:
    origin = typing.get_origin(kind)
    if kind is Face:
        try:
            return Face(_scalar(str, data, where))
        except NotationError:
            raise Undecodable(f"{where} is {_shown(data)}, not a cube face") from None
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return _dataclass(kind, data, where)
    if origin in (typing.Union, types.UnionType):
        problems = []
        for option in typing.get_args(kind):
            try:
                return _value(option, data, where)
            except Undecodable as error:
                problems.append(str(error))
        raise Undecodable(problems[-1])
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(data, list):
            raise Undecodable(f"{where} is {_shown(data)}, not a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(args[0], item, f"{where}[{i}]") for i, item in enumerate(data))
        if len(data) != len(args):
            raise Undecodable(f"{where} has {len(data)} items, not {len(args)}")
        return tuple(
            _value(arg, item, f"{where}[{i}]")
            for i, (arg, item) in enumerate(zip(args, data, strict=True))
        )
    return _scalar(kind, data, where)


def _scalar(kind: Any, data: Any, where: str) -> Any:
    if kind is type(None):
        if data is None:
            return None
        raise Undecodable(f"{where} is {_shown(data)}, not empty")
    if kind is bool:
        if isinstance(data, bool):
            return data
        raise Undecodable(f"{where} is {_shown(data)}, not true or false")
    if kind is int:
        if isinstance(data, int) and not isinstance(data, bool):
            return data
        raise Undecodable(f"{where} is {_shown(data)}, not a whole number")
    if kind is float:
        if isinstance(data, int | float) and not isinstance(data, bool) and math.isfinite(data):
            return float(data)
        raise Undecodable(f"{where} is {_shown(data)}, not a number")
    if kind is str:
        if isinstance(data, str):
            return data
        raise Undecodable(f"{where} is {_shown(data)}, not text")
    raise TypeError(f"the codec cannot read a {kind!r}")  # a payload declared wrongly


def _shown(data: Any) -> str:
    text = repr(data)
    return text if len(text) <= 40 else text[:37] + "..."
