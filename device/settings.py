"""The box's configuration: one TOML file, every key with a default.

``SCHEMA`` declares each section's keys with their default and a check; ``load``
overlays a file on the defaults and refuses anything wrong, and ``problems`` lists
every wrong key or value (unknown ones included) as sentences, for
``cuberef config --check``.

Example (every key optional)::

    game = "boggle"
    players = ["Anna", "Ben"]
    timer_seconds = 180

    [button]
    pin = 17

    [buzzer]
    type = "passive"
"""

from __future__ import annotations

import copy
import dataclasses
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.buzzer import PASSIVE_RANGE
from device.inputs import parse_toml, read_text
from device.tunes import CATALOG, Tune, parse_tune
from engine.errors import CuberefError
from engine.games import GAMES, Game, find_game

# BCM numbers a Pi 4/5 brings out on its 40-pin header.
GPIO_PINS = range(2, 28)


@dataclass(frozen=True, slots=True)
class Key:
    default: Any
    kinds: tuple[type, ...]
    check: Callable[[Any], str | None] = lambda _value: None
    help: str = ""


def _choice(*options: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if value in options else f"must be one of {', '.join(options)}"

    return check


def _between(low: float, high: float) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if low <= value <= high else f"must be between {low:g} and {high:g}"

    return check


def _quarter_turn(value: Any) -> str | None:
    return None if value in (0, 90, 180, 270) else "must be 0, 90, 180 or 270"


def _tune(value: Any) -> str | None:
    if not value:
        return None
    try:
        parse_tune("", value)
    except CuberefError as error:
        return f"is not a tune: {str(error).rstrip('.')}"
    return None


def _gpio(value: Any) -> str | None:
    return None if value in GPIO_PINS else "must be a GPIO (BCM) number from 2 to 27"


def _players(value: Any) -> str | None:
    if not value or not all(isinstance(name, str) and name.strip() for name in value):
        return "must be a list of one or more names"
    if len(set(value)) != len(value):
        return "must not name a player twice"
    return None


def _names(value: Any) -> str | None:
    if not all(isinstance(name, str) and name.strip() for name in value):
        return "must be a list of names"
    return None


TOP: dict[str, Key] = {
    "game": Key("boggle", (str,), _choice(*GAMES), "the game the box referees"),
    "dice": Key("", (str,), help="the edition's cubes (as `cuberef roll --dice`)"),
    "players": Key(["Player 1", "Player 2"], (list,), _players, "names, in turn order"),
    "lexicon": Key("", (str,), help="the word list; empty means the game's own"),
    "timer_seconds": Key(180, (int,), _between(10, 3600), "length of a round"),
    "hold_seconds": Key(2.0, (int, float), _between(0.5, 10), "hold this long to cancel"),
    "rounds": Key(0, (int,), _between(0, 1000), "rounds in a match; 0 = no limit"),
    "target_score": Key(0, (int,), _between(0, 100000), "a match ends at this score; 0 = none"),
    "best_seconds": Key(5.0, (int, float), _between(0.1, 600), "time for the best crossword"),
    "handicap": Key([], (list,), _names, "Boggle: players who may count words from 3 letters"),
    "advanced": Key(False, (bool,), help="Big Boggle's advanced game: words of 5 letters or more"),
    "partners": Key(False, (bool,), help="Ad-Lib: players in alternate seats play as partners"),
}

SECTIONS: dict[str, dict[str, Key]] = {
    "button": {
        "backend": Key("gpio", (str,), _choice("gpio", "keys")),
        "pin": Key(17, (int,), _gpio, "BCM number; the other leg to ground"),
        "pull_up": Key(True, (bool,)),
        "bounce_ms": Key(40, (int,), _between(0, 500)),
    },
    "buzzer": {
        "type": Key("passive", (str,), _choice("passive", "active", "bell", "print", "silent")),
        "pin": Key(18, (int,), _gpio),
    },
    "camera": {
        "backend": Key("auto", (str,), _choice("auto", "picamera", "usb", "folder")),
        "usb_index": Key(0, (int,), _between(0, 63)),
        "folder": Key("", (str,), help="photos that stand in for the camera"),
        "width": Key(1920, (int,), _between(320, 9152)),
        "height": Key(1080, (int,), _between(240, 6944)),
        "focus": Key("auto", (str,), _choice("auto", "fixed")),
        "lens_position": Key(2.0, (int, float), _between(0, 32), "dioptres = 1 / metres"),
    },
    "screen": {
        "backend": Key("auto", (str,), _choice("auto", "kmsdrm", "window", "dummy")),
        "width": Key(800, (int,), _between(320, 7680)),
        "height": Key(480, (int,), _between(240, 4320)),
        "fullscreen": Key(True, (bool,)),
        "rotation": Key(0, (int,), _quarter_turn, "degrees clockwise; 90 or 270 for a portrait"),
        "wait_seconds": Key(30, (int, float), _between(0, 600), "how long to await the display"),
    },
    "store": {
        "folder": Key("", (str,), help="where matches and photos are kept"),
    },
    "tunes": {
        name: Key("", (str,), _tune, "notes as PITCH:SECONDS; empty = the built-in cue")
        for name in CATALOG
    },
    "page": {
        "enabled": Key(False, (bool,), help="the players' page: words typed on phones"),
        "port": Key(8080, (int,), _between(1024, 65535), "its port on the local network"),
        "keyboard_player": Key("", (str,), help="the player who types on the box's keyboard"),
        "keyboard_team": Key("", (str,), help="that player's team, if they play in one"),
    },
}


def defaults() -> dict[str, Any]:
    settings: dict[str, Any] = {name: copy.deepcopy(key.default) for name, key in TOP.items()}
    for section, keys in SECTIONS.items():
        settings[section] = {name: copy.deepcopy(key.default) for name, key in keys.items()}
    return settings


def read_file(path: str | Path) -> dict[str, Any]:
    return parse_toml(read_text(path, "the configuration"), str(path))


def problems(document: dict[str, Any]) -> list[str]:
    """Every wrong key or value in a parsed TOML document, one sentence each: each
    setting on its own, then the settings together (as the box will use them)."""
    found: list[str] = []
    chosen = defaults()
    for name, value in document.items():
        if name in SECTIONS:
            if not isinstance(value, dict):
                found.append(f"[{name}] must be a table of settings.")
                continue
            for key, item in value.items():
                wrong = _check(f"[{name}] {key}", SECTIONS[name].get(key), item, SECTIONS[name])
                found += wrong
                if not wrong:
                    chosen[name][key] = item
        else:
            wrong = _check(name, TOP.get(name), value, TOP)
            found += wrong
            if not wrong:
                chosen[name] = value
    return found + together(chosen)


def together(chosen: dict[str, Any]) -> list[str]:
    """What is wrong only as the box uses the settings: dice the game does not have, a
    word list that is not there, a store folder that is a file, a tune the chosen
    buzzer cannot play."""
    found: list[str] = []
    try:
        chosen_game(chosen)
    except CuberefError as error:
        found.append(f"dice = {chosen['dice']!r}: {error}")
    if chosen["lexicon"]:
        from engine.lexicon import available_lexicons, lexicon_path

        if lexicon_path(chosen["lexicon"]) is None:
            found.append(
                f"lexicon = {chosen['lexicon']!r} is not a word list here; choose one of "
                f"{', '.join(available_lexicons())}, or make one with cuberef lexicon build."
            )
    folder = state_folder(chosen)
    if folder.exists() and not folder.is_dir():
        found.append(
            f"[store] folder = {str(folder)!r} is a file; give a folder, where the box keeps "
            "matches.db and the photos."
        )
    if chosen["buzzer"]["type"] == "passive":
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


def chosen_game(chosen: dict[str, Any]) -> Game:
    """The game the settings name, its cubes the chosen ``dice`` (an edition's name or
    a .txt file of faces): what the reader settles faces by and a touch cycles through."""
    game = find_game(chosen["game"])
    dice = chosen["dice"]
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


def tunes(chosen: dict[str, Any]) -> dict[str, Tune]:
    """The cues the settings replace, by name."""
    return {name: parse_tune(name, text) for name, text in chosen["tunes"].items() if text}


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


def load(path: str | Path | None = None) -> dict[str, Any]:
    """The defaults with the file's settings over them; a wrong setting is refused."""
    settings = defaults()
    if path is None:
        return settings
    document = read_file(path)
    found = problems(document)
    if found:
        raise CuberefError(
            f"The configuration {str(path)!r} has {len(found)} problem(s): {' '.join(found)}"
        )
    for name, value in document.items():
        if name in SECTIONS:
            settings[name].update(value)
        else:
            settings[name] = value
    return settings


def state_folder(settings: dict[str, Any]) -> Path:
    """Where the store lives: the setting, systemd's StateDirectory, or the user's own."""
    if settings["store"]["folder"]:
        return Path(settings["store"]["folder"]).expanduser()
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "cuberef"
