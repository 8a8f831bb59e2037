"""The box's settings as values: one frozen dataclass per section of the TOML file.

Each field is one setting, declared once with its default, its check and its help
(``setting``); its type says what TOML may give it (``float`` takes whole numbers too,
``tuple[str, ...]`` a list of names). ``device.config.settings`` reads a file onto these and
refuses what is wrong; the parts take their own section, never the whole. ``source_problem``
says what is wrong with a replay camera's source, for the settings and the camera alike.

>>> Settings().button.pin, Settings().screen.width, Settings().players
(17, 800, ())
>>> dict(sections())["page"] is PageSettings
True
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from device.base.inputs import pictures_in
from device.base.tunes import parse_tune
from device.config.club_rules import broker_address, event_problem
from engine.errors import CuberefError
from engine.games import GAMES

#: The players of a box without lists whose settings name none.
UNNAMED = ("Player 1", "Player 2")

# BCM numbers a Pi 4/5 brings out on its 40-pin header.
GPIO_PINS = range(2, 28)

Check = Callable[[Any], "str | None"]


def setting(default: Any, check: Check | None = None, help: str = "", key: str = "") -> Any:
    """A setting's default, its check (None, or what is wrong) and its help; ``key``: its
    name in the file where that is not the field's own."""
    return field(default=default, metadata={"check": check, "help": help, "key": key})


def _choice(*options: str) -> Check:
    def check(value: Any) -> str | None:
        return None if value in options else f"must be one of {', '.join(options)}"

    return check


def _between(low: float, high: float) -> Check:
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


def _port(value: Any) -> str | None:
    if value == 0 or 1024 <= value <= 65535:
        return None
    return "must be a port from 1024 to 65535, or 0 for any free one"


def _players(value: Any) -> str | None:
    if not all(isinstance(name, str) and name.strip() for name in value):
        return "must be a list of names"
    if len(set(value)) != len(value):
        return "must not name a player twice"
    return None


def _names(value: Any) -> str | None:
    if not all(isinstance(name, str) and name.strip() for name in value):
        return "must be a list of names"
    return None


def source_path(source: str) -> Path:
    """The source's path, ``~`` standing for the home folder where there is one."""
    try:
        return Path(source).expanduser()
    except RuntimeError:  # ~someone who is no user here: the name as it is
        return Path(source)


def source_problem(source: str) -> str | None:
    """What is wrong with ``source`` as a replay's (one sentence), or None."""
    if not source:
        return '[camera] backend = "replay" needs source = a folder of frames or a video file.'
    path = source_path(source)
    if path.is_dir():
        try:
            found = pictures_in(path)
        except OSError as error:
            return f"[camera] source = {source!r} cannot be read ({error.strerror})."
        if not found:
            return (
                f"[camera] source = {source!r} holds no frames; give a folder of JPEG or PNG "
                "frames, or a video file."
            )
        return None
    if not path.is_file():
        return (
            f"[camera] source = {source!r} is no folder or file here; give a folder of "
            "frames or a video file."
        )
    return None


@dataclass(frozen=True, slots=True)
class ButtonSettings:
    backend: str = setting("gpio", _choice("gpio", "keys"))
    pin: int = setting(17, _gpio, "BCM number; the other leg to ground")
    pull_up: bool = setting(True)
    bounce_ms: int = setting(40, _between(0, 500))


@dataclass(frozen=True, slots=True)
class BuzzerSettings:
    type: str = setting("passive", _choice("passive", "active", "bell", "print", "silent"))
    pin: int = setting(18, _gpio)


@dataclass(frozen=True, slots=True)
class CameraSettings:
    backend: str = setting("auto", _choice("auto", "picamera", "usb", "folder", "replay"))
    usb_index: int = setting(0, _between(0, 63))
    folder: str = setting("", help="photos that stand in for the camera")
    source: str = setting("", help="replay: a folder of frames (in name order) or a video")
    fps: float = setting(5.0, _between(0.1, 120), "replay: frames a second")
    width: int = setting(1920, _between(320, 9152))
    height: int = setting(1080, _between(240, 6944))
    focus: str = setting("auto", _choice("auto", "fixed"))
    lens_position: float = setting(2.0, _between(0, 32), "dioptres = 1 / metres")


@dataclass(frozen=True, slots=True)
class ScreenSettings:
    backend: str = setting("auto", _choice("auto", "kmsdrm", "window", "dummy"))
    width: int = setting(800, _between(320, 7680))
    height: int = setting(480, _between(240, 4320))
    fullscreen: bool = setting(True)
    rotation: int = setting(0, _quarter_turn, "degrees clockwise; 90 or 270 for a portrait")
    wait_seconds: float = setting(30.0, _between(0, 600), "how long to await the display")


@dataclass(frozen=True, slots=True)
class StoreSettings:
    folder: str = setting("", help="where matches and photos are kept")


@dataclass(frozen=True, slots=True)
class WordsSettings:
    """What the table makes of the words the word list refuses by class."""

    offensive: str = setting(
        "refuse", _choice("refuse", "allow"), "slurs and vulgar words: refuse, or allow them"
    )


_TUNE_HELP = "notes as PITCH:SECONDS; empty = the built-in cue"


@dataclass(frozen=True, slots=True)
class TuneSettings:
    """The cues the box plays, by their names in ``device.base.tunes.CATALOG``."""

    start: str = setting("", _tune, _TUNE_HELP)
    one_minute: str = setting("", _tune, _TUNE_HELP, key="one-minute")
    tick: str = setting("", _tune, _TUNE_HELP)
    alarm: str = setting("", _tune, _TUNE_HELP)
    trouble: str = setting("", _tune, _TUNE_HELP)
    cancel: str = setting("", _tune, _TUNE_HELP)
    not_taken: str = setting("", _tune, _TUNE_HELP, key="not-taken")


@dataclass(frozen=True, slots=True)
class PageSettings:
    enabled: bool = setting(False, help="the players' page: words typed on phones")
    port: int = setting(8080, _port, "its port on the local network; 0: any free one")
    keyboard_player: str = setting("", help="the player who types on the box's keyboard")
    keyboard_team: str = setting("", help="that player's team, if they play in one")
    judge: str = setting(
        "", help="the player whose phone rules on challenged words (the button does too)"
    )

    @property
    def lists(self) -> bool:
        """Whether players hand in lists (on phones, or the keyboard), so that a round is
        scored at 0:00 without waiting for a press."""
        return self.enabled or bool(self.keyboard_player)


def _language(value: Any) -> str | None:
    from device.base.strings import languages

    if value == "" or value in languages():
        return None
    return f"must be one of {', '.join(languages())}, or empty for the game's"


@dataclass(frozen=True, slots=True)
class BoxSettings:
    language: str = setting(
        "", _language, "what the screens and phones say; empty: the game's (cs for czech-boggle)"
    )


def _broker(value: Any) -> str | None:
    if not value:
        return None
    try:
        broker_address(value)
    except CuberefError:
        return "must be written mqtt://HOST:PORT"
    return None


def _event(value: Any) -> str | None:
    return event_problem(value) if value else None


@dataclass(frozen=True, slots=True)
class ClubSettings:
    """A table at a club's event (``cuberef club``); none of it set: a one-table box."""

    broker: str = setting("", _broker, "the event's broker, mqtt://HOST:PORT; empty: no club")
    event: str = setting("", _event, "the event's name, as its club.toml gives it")
    table: int = setting(0, _between(0, 500), "this box's table number")
    secret_file: str = setting("", help="the file holding this table's secret")


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting of the box: the top-level keys, then one value per section."""

    game: str = setting("boggle", _choice(*GAMES), "the game the box referees")
    dice: str = setting("", help="the edition's cubes (as `cuberef roll --dice`)")
    players: tuple[str, ...] = setting(
        (),
        _players,
        "names, in turn order (none: Player 1 and Player 2, or the phones' with the page on)",
    )
    lexicon: str = setting("", help="the word list; empty means the game's own")
    timer_seconds: int = setting(180, _between(10, 3600), "length of a round")
    hold_seconds: float = setting(2.0, _between(0.5, 10), "hold this long to cancel")
    rounds: int = setting(0, _between(0, 1000), "rounds in a match; 0 = no limit")
    target_score: int = setting(0, _between(0, 100000), "a match ends at this score; 0 = none")
    best_seconds: float = setting(5.0, _between(0.1, 600), "time for the best crossword")
    handicap: tuple[str, ...] = setting(
        (), _names, "Boggle: players who may count words from 3 letters"
    )
    advanced: bool = setting(False, help="Big Boggle's advanced game: words of 5 letters or more")
    partners: bool = setting(
        False, help="Ad-Lib: players sitting opposite play as partners (an odd one out alone)"
    )
    button: ButtonSettings = ButtonSettings()
    buzzer: BuzzerSettings = BuzzerSettings()
    camera: CameraSettings = CameraSettings()
    screen: ScreenSettings = ScreenSettings()
    store: StoreSettings = StoreSettings()
    tunes: TuneSettings = TuneSettings()
    page: PageSettings = PageSettings()
    box: BoxSettings = BoxSettings()
    words: WordsSettings = WordsSettings()
    club: ClubSettings = ClubSettings()

    @property
    def language(self) -> str:
        """What the box says things in: ``[box] language``, else the game's words'."""
        from device.base.strings import game_language
        from engine.games import find_game

        return self.box.language or game_language(find_game(self.game))


@dataclass(frozen=True, slots=True)
class Key:
    """One setting as the file names it: its field, the TOML types it takes, its check."""

    name: str
    field: str
    default: Any
    kinds: tuple[type, ...]
    check: Check
    help: str


#: What TOML may give a setting of each declared type.
_KINDS: dict[Any, tuple[type, ...]] = {
    str: (str,),
    int: (int,),
    float: (int, float),
    bool: (bool,),
    tuple[str, ...]: (list,),
}


@cache
def keys(kind: type) -> dict[str, Key]:
    """The settings of a section (or the top-level ones of ``Settings``), by file name."""
    hints = typing.get_type_hints(kind)
    found = {}
    for item in dataclasses.fields(kind):
        if dataclasses.is_dataclass(hints[item.name]):
            continue  # a section, not a setting
        name = item.metadata["key"] or item.name
        check = item.metadata["check"] or (lambda _value: None)
        kinds = _KINDS[hints[item.name]]
        found[name] = Key(name, item.name, item.default, kinds, check, item.metadata["help"])
    return found


def sections() -> Iterator[tuple[str, type]]:
    """Each section's name in the file and its dataclass, in the file's order."""
    hints = typing.get_type_hints(Settings)
    for item in dataclasses.fields(Settings):
        if dataclasses.is_dataclass(hints[item.name]):
            yield item.name, hints[item.name]


def value_of(key: Key, given: Any) -> Any:
    """A checked TOML value as the dataclass keeps it (a list as a tuple, 2 as 2.0)."""
    if list in key.kinds:
        return tuple(given)
    if float in key.kinds:
        return float(given)
    return given
