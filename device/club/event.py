"""``club.toml``: the event a director runs. Every key, with an example::

    event = "tuesday"             # the topics' name: letters, digits, - _ .
    game = "boggle"               # any cuberef game id
    rounds = 3
    pairing = "king-of-the-hill"  # random, king-of-the-hill, swiss or round-robin
    seed = 1                      # the random order of round 1 (and of every random round)
    table_size = 4                # Boggle family 2-6 a table, Ad-Lib and Scribbage 1-4
    players = ["Ann", "Ben", "Cy", "Dee"]
    byes = { 2 = ["Ann"] }        # who sits a round out (asked for before the event)
    folder = "tuesday"            # the event's folder (default: beside the file, its name)
    broker = "mqtt://host:1883"   # another broker (default: cuberef runs its own)
    port = 1883                   # its own broker's port
    bind = "0.0.0.0"              # the address its own broker listens on

A wrong key or value is one sentence naming it."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.base.inputs import read_text
from device.club.link import parse_broker
from device.club.topics import check_event
from engine.errors import CuberefError, NotationError
from engine.games import Game, find_game

PAIRINGS = ("random", "king-of-the-hill", "swiss", "round-robin")
KEYS = (
    "event", "game", "rounds", "pairing", "seed", "table_size", "players", "byes", "folder",
    "broker", "port", "bind",
)  # fmt: skip


def table_bounds(game: Game) -> tuple[int, int]:
    """Players a table: a tray game seats 2 to 6, the Ad-Lib games 1 to 4 (solitaire too)."""
    return (2, 6) if game.is_tray else (1, 4)


@dataclass(frozen=True)
class Event:
    name: str
    game: str
    rounds: int
    pairing: str
    players: tuple[str, ...]
    table_size: int
    bounds: tuple[int, int]
    byes: tuple[tuple[int, tuple[str, ...]], ...]
    seed: int
    folder: Path
    broker: str | None
    port: int
    bind: str

    def sitting_out(self, round_number: int) -> tuple[str, ...]:
        """Who asked for a bye in that round."""
        return dict(self.byes).get(round_number, ())


def _integer(raw: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise CuberefError(f"club.toml's {key} must be a whole number from {low} to {high}.")
    return value


def _text(raw: dict[str, Any], key: str, default: str | None = None) -> str:
    value = raw.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise CuberefError(f'club.toml needs {key} as a text, such as {key} = "...".')
    return value


def _players(raw: dict[str, Any]) -> tuple[str, ...]:
    names = raw.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise CuberefError('club.toml needs players as a list of names: players = ["Ann", "Ben"].')
    cleaned = tuple(" ".join(n.split()) for n in names)
    bad = [n for n in cleaned if not n or len(n) > 40 or not n.isprintable()]
    if bad or not 2 <= len(cleaned) <= 1000:
        raise CuberefError("club.toml's players must be 2 to 1000 names of 1 to 40 characters.")
    seen: dict[str, str] = {}
    for name in cleaned:
        if name.casefold() in seen:
            raise CuberefError(f"club.toml names the player {name!r} twice.")
        seen[name.casefold()] = name
    return cleaned


def _byes(raw: dict[str, Any], rounds: int, players: tuple[str, ...]) -> dict[int, tuple[str, ...]]:
    table = raw.get("byes", {})
    if not isinstance(table, dict):
        raise CuberefError('club.toml\'s byes must be a table such as byes = { 2 = ["Ann"] }.')
    byes = {}
    for key, names in table.items():
        if not key.isdigit() or not 1 <= int(key) <= rounds:
            raise CuberefError(
                f"club.toml's byes name round {key!r}; the rounds are 1 to {rounds}."
            )
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise CuberefError(f"club.toml's byes for round {key} must be a list of names.")
        for name in names:
            if name not in players:
                raise CuberefError(f"club.toml gives a bye in round {key} to {name!r}, no player.")
        byes[int(key)] = tuple(names)
    return byes


def parse(raw: dict[str, Any], base: Path) -> Event:
    """The event that a read ``club.toml`` describes; ``base`` is the file's folder."""
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise CuberefError(
            f"club.toml has no setting {unknown[0]!r}; the settings are {', '.join(KEYS)}."
        )
    name = check_event(_text(raw, "event"))
    try:
        game = find_game(_text(raw, "game", "boggle"))
    except NotationError as error:
        raise CuberefError(f"club.toml's game: {error}") from None
    rounds = _integer(raw, "rounds", 3, 1, 100)
    pairing = _text(raw, "pairing", "king-of-the-hill")
    if pairing not in PAIRINGS:
        raise CuberefError(f"club.toml's pairing {pairing!r} is none of {', '.join(PAIRINGS)}.")
    low, high = table_bounds(game)
    size = _integer(raw, "table_size", 4 if high >= 4 else high, low, high)
    if pairing == "round-robin" and size != 2:
        raise CuberefError("A round robin seats players two to a table; set table_size = 2.")
    players = _players(raw)
    broker = raw.get("broker")
    if broker is not None:
        parse_broker(_text(raw, "broker"))
    return Event(
        name=name,
        game=game.id,
        rounds=rounds,
        pairing=pairing,
        players=players,
        table_size=size,
        bounds=(low, high),
        byes=tuple(sorted(_byes(raw, rounds, players).items())),
        seed=_integer(raw, "seed", 1, 0, 2**63 - 1),
        folder=base / _text(raw, "folder", name),
        broker=broker,
        port=_integer(raw, "port", 1883, 1, 65535),
        bind=_text(raw, "bind", "0.0.0.0"),
    )


def load(path: str | Path) -> Event:
    """``club.toml`` read and checked; one sentence where it cannot be."""
    path = Path(path)
    if not path.exists() and str(path) != "-":
        raise CuberefError(f"There is no club file {path}; write one (see the README).")
    text = read_text(path, "the club file")  # bounded: /dev/zero is one sentence too
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CuberefError(f"The club file {path} is not valid TOML ({error}).") from None
    return parse(raw, path.resolve().parent)
