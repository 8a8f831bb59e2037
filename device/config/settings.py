"""The box's configuration: one TOML file, every key with a default.

The settings are values (``device.config.sections``: ``Settings`` and a frozen dataclass for
each section, each key declared there once with its default and its check). ``load``
lays a file over the defaults and refuses anything wrong; ``problems`` lists every wrong
key or value (unknown ones included) as sentences, for ``cuberef config --check``;
``overlay`` lays a document of changes over settings the same checked way, which is how
``--simulate`` (``simulated``) changes them, once.

Example (every key optional)::

    game = "boggle"
    players = ["Anna", "Ben"]
    timer_seconds = 180

    [button]
    pin = 17

    [buzzer]
    type = "passive"

>>> chosen = overlay(Settings(), {"game": "adlib", "screen": {"rotation": 90}})
>>> chosen.game, chosen.screen.rotation, chosen.screen.width
('adlib', 90, 800)
>>> overlay(chosen, {"screen": {"rotation": 45}})
Traceback (most recent call last):
...
engine.errors.CuberefError: [screen] rotation = 45 must be 0, 90, 180 or 270.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from device.base.inputs import parse_toml, read_text
from device.base.tunes import PASSIVE_RANGE, Tune, parse_tune
from device.base.wording import names_and, unpartnered_line
from device.config.club_rules import secret_problem
from device.config.sections import (
    UNNAMED,
    ButtonSettings,
    BuzzerSettings,
    CameraSettings,
    Key,
    PageSettings,
    ScreenSettings,
    Settings,
    StoreSettings,
    TuneSettings,
    keys,
    sections,
    source_problem,
    value_of,
)
from engine.errors import CuberefError
from engine.games import GAMES, Game, find_game
from engine.sides import partners, seat_sides, unpartnered

__all__ = [
    "ButtonSettings",
    "BuzzerSettings",
    "CameraSettings",
    "PageSettings",
    "ScreenSettings",
    "Settings",
    "StoreSettings",
    "TuneSettings",
    "chosen_game",
    "defaults",
    "load",
    "overlay",
    "problems",
    "simulated",
    "state_folder",
    "tunes",
    "warnings",
]

Document = Mapping[str, Any]


def defaults() -> Settings:
    return Settings()


def read_file(path: str | Path) -> dict[str, Any]:
    return parse_toml(read_text(path, "the configuration"), str(path))


def problems(document: Document, base: Settings | None = None) -> list[str]:
    """Every wrong key or value in a parsed TOML document, one sentence each: each
    setting on its own, then the settings together (as the box will use them)."""
    found, _chosen = _laid(base or Settings(), document)
    return found


def warnings(document: Document, base: Settings | None = None) -> list[str]:
    """What is right but worth a word before a match, one sentence each: Ad-Lib partners
    with an odd number of players, one of whom plays as a side of one."""
    _found, chosen = _laid(base or Settings(), document)
    game = GAMES.get(chosen.game)
    if game is None or game.is_tray or not chosen.partners:
        return []
    players = chosen.players or UNNAMED
    lone = unpartnered(players)
    if lone is None:
        return []
    sides = names_and([side.name for side in seat_sides(players, partners(players))])
    return [
        f"partners = true with {len(players)} players: {unpartnered_line(lone)} The sides: {sides}."
    ]


def _laid(base: Settings, document: Document) -> tuple[list[str], Settings]:
    """The document's problems, and ``base`` with every right value of it laid over."""
    found: list[str] = []
    top = keys(Settings)
    named = dict(sections())
    changes: dict[str, Any] = {}
    for name, value in document.items():
        if name in named:
            if not isinstance(value, dict):
                found.append(f"[{name}] must be a table of settings.")
                continue
            section = named[name]
            known = keys(section)
            fields = {}
            for key, item in value.items():
                wrong = _check(f"[{name}] {key}", known.get(key), item, known)
                found += wrong
                if not wrong:
                    fields[known[key].field] = value_of(known[key], item)
            changes[name] = dataclasses.replace(getattr(base, name), **fields)
        else:
            wrong = _check(name, top.get(name), value, top)
            found += wrong
            if not wrong:
                changes[top[name].field] = value_of(top[name], value)
    chosen = dataclasses.replace(base, **changes)
    return found + together(chosen), chosen


def together(chosen: Settings) -> list[str]:
    """What is wrong only as the box uses the settings: dice the game does not have, a
    word list that is not there, a replay camera with nothing to play, a store folder
    that is a file, a tune the chosen buzzer cannot play."""
    found: list[str] = club_problems(chosen)
    try:
        chosen_game(chosen)
    except CuberefError as error:
        found.append(f"dice = {chosen.dice!r}: {error}")
    if chosen.lexicon:
        from engine.lexicon import available_lexicons, lexicon_path

        if lexicon_path(chosen.lexicon) is None:
            found.append(
                f"lexicon = {chosen.lexicon!r} is not a word list here; choose one of "
                f"{', '.join(available_lexicons())}, or make one with cuberef lexicon build."
            )
    if chosen.camera.backend == "replay" and (wrong := source_problem(chosen.camera.source)):
        found.append(wrong)
    folder = state_folder(chosen)
    if folder.exists() and not folder.is_dir():
        found.append(
            f"[store] folder = {str(folder)!r} is a file; give a folder, where the box keeps "
            "matches.db and the photos."
        )
    if chosen.buzzer.type == "passive":
        low, high = PASSIVE_RANGE
        for name, tune in tunes(chosen).items():
            for note in tune.notes:
                if not note.is_rest and not low <= note.hertz <= high:
                    found.append(
                        f"[tunes] {name} has a note of {note.hertz:g} Hz; a passive buzzer "
                        f"plays {low:g} to {high:g} Hz."
                    )
                    break
    return found


def club_problems(chosen: Settings) -> list[str]:
    """A ``[club]`` needs all four of its keys, and its secret file readable."""
    club = chosen.club
    given = {"broker": club.broker, "event": club.event, "table": club.table}
    given["secret_file"] = club.secret_file
    missing = [key for key, value in given.items() if not value]
    if len(missing) == len(given):
        return []
    if missing:
        return [f"[club] needs {', '.join(missing)} as well; cuberef club tables prints them."]
    try:
        problem = secret_problem(read_text(club.secret_file, "the secret file", 4096).strip())
    except CuberefError as error:
        return [f"[club] secret_file: {error}"]
    return [f"[club] secret_file {club.secret_file} {problem}."] if problem else []


def chosen_game(chosen: Settings) -> Game:
    """The game the settings name, its cubes the chosen ``dice`` (an edition's name or
    a .txt file of faces): what the reader settles faces by and a touch cycles through."""
    game = find_game(chosen.game)
    dice = chosen.dice
    if not dice:
        return game
    cubes = game.cube_set(dice)  # the engine's sentence for dice this game does not have
    wanted = game.size**2 if game.is_tray else len(game.cube_set().dice)
    if len(cubes.dice) != wanted:
        raise CuberefError(
            f"{game.title} is played with {wanted} dice and {dice!r} has {len(cubes.dice)}."
        )
    own = [edition for edition in game.dice if edition[0] == dice] or [(Path(dice).stem, dice)]
    return dataclasses.replace(game, dice=(*own, *(e for e in game.dice if e not in own)))


def tunes(chosen: Settings) -> dict[str, Tune]:
    """The cues the settings replace, by name."""
    return {
        key.name: parse_tune(key.name, text)
        for key in keys(TuneSettings).values()
        if (text := getattr(chosen.tunes, key.field))
    }


def _check(label: str, key: Key | None, value: Any, known: dict[str, Key]) -> list[str]:
    if key is None:
        return [f"{label} is not a setting; the known ones here are {', '.join(known)}."]
    # bool is an int in Python; a number setting must not take true/false, nor the reverse.
    wrong_type = not isinstance(value, key.kinds) or (
        isinstance(value, bool) and bool not in key.kinds
    )
    if wrong_type:
        kinds = " or ".join(_kind_name(kind) for kind in key.kinds)
        return [f"{label} = {value!r} must be {kinds}."]
    reason = key.check(value)
    return [f"{label} = {value!r} {reason}."] if reason else []


def _kind_name(kind: type) -> str:
    return {str: "text", int: "a whole number", float: "a number", bool: "true or false"}.get(
        kind, "a list" if kind is list else kind.__name__
    )


def overlay(base: Settings, document: Document) -> Settings:
    """``base`` with the document's settings over it, each checked as ``load`` checks a
    file's; anything wrong is refused with every problem named."""
    found, chosen = _laid(base, document)
    if found:
        raise CuberefError(" ".join(found))
    return chosen


def load(path: str | Path | None = None) -> Settings:
    """The defaults with the file's settings over them; a wrong setting is refused."""
    if path is None:
        return Settings()
    found, chosen = _laid(Settings(), read_file(path))
    if found:
        raise CuberefError(
            f"The configuration {str(path)!r} has {len(found)} problem(s): {' '.join(found)}"
        )
    return chosen


def simulated(chosen: Settings) -> Settings:
    """The settings as ``--simulate`` runs them on any computer: the keys (space, a click)
    as the button, the terminal bell for a buzzer on pins, a window for the screen (the
    dummy one, said on the screen, where there is no desktop), and no Pi camera."""
    changes: dict[str, Any] = {"button": {"backend": "keys"}}
    if chosen.buzzer.type in ("passive", "active"):
        changes["buzzer"] = {"type": "bell"}
    if chosen.screen.backend in ("auto", "kmsdrm"):
        changes["screen"] = {"backend": "auto", "fullscreen": False}
    if chosen.camera.backend == "picamera":
        changes["camera"] = {"backend": "auto"}
    return overlay(chosen, changes)


def state_folder(settings: Settings) -> Path:
    """Where the store lives: the setting, systemd's StateDirectory, or the user's own."""
    if settings.store.folder:
        return Path(settings.store.folder).expanduser()
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cuberef"
