"""Check each part of the box: camera, pins, screen, model, lexicons, store.

Each line says the part works, or what is wrong and the fix. Exit code 0 when every
part works, 1 when one does not."""

from __future__ import annotations

import argparse
import os
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from device import settings as config
from device.commands.config import config_path
from engine.errors import CuberefError

Check = Callable[[dict[str, Any]], str]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="the TOML configuration")


def run(args: argparse.Namespace) -> int:
    path = config_path(args.config)
    chosen = config.load(path if (args.config or os.path.exists(path)) else None)
    failed = 0
    quiet_libraries()
    for name, check in CHECKS:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # each check says in its own line what it found
                line = check(chosen)
            ok = True
        except Exception as error:  # each part's own failure, reported as its line
            line, ok = str(error), False
        failed += not ok
        print(f"{'ok  ' if ok else 'FIX '} {name}: {line}")
    return 1 if failed else 0


def quiet_libraries() -> None:
    """OpenCV logs each camera it fails to open; the doctor's own lines say it plainly."""
    import cv2

    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


def camera(settings: dict[str, Any]) -> str:
    from device.camera import open_camera

    notices: list[str] = []
    opened = open_camera(settings["camera"], notices)
    try:
        image = opened.capture()
    finally:
        opened.close()
    extra = f" ({' '.join(notices)})" if notices else ""
    return f"{opened.name} gave a {image.shape[1]}x{image.shape[0]} picture{extra}."


def pins(settings: dict[str, Any]) -> str:
    from gpiozero import Button, Device

    try:
        button = Button(settings["button"]["pin"], pull_up=settings["button"]["pull_up"])
    except Exception as error:
        raise CuberefError(
            f"GPIO{settings['button']['pin']} cannot be used ({error.__class__.__name__}: "
            f"{error}); stop the service first (sudo systemctl stop cuberef), add the user "
            "to the gpio group, or off a Pi use cuberef run --simulate."
        ) from None
    state = "pressed" if button.is_pressed else "not pressed"
    factory = type(Device.pin_factory).__name__
    button.close()
    return f"button on GPIO{settings['button']['pin']} reads {state} ({factory})."


def screen(settings: dict[str, Any]) -> str:
    from device.screen import open_screen

    notices: list[str] = []
    opened = open_screen(settings["screen"], notices, wait=False)
    width, height = opened.size
    opened.close()
    if notices:
        raise CuberefError(" ".join(notices) + " Boot to the console and add the user to video.")
    return f"{opened.backend} opened at {width}x{height}."


def model(settings: dict[str, Any]) -> str:
    from device.seams import load_face_model

    return f"{load_face_model()} loads."


def lexicons(settings: dict[str, Any]) -> str:
    from engine.games import find_game
    from engine.lexicon import Lexicon

    name = settings["lexicon"] or find_game(settings["game"]).lexicon
    lexicon = Lexicon.open(name)
    return f"{name} opens ({lexicon.card.words} words)."


def store(settings: dict[str, Any]) -> str:
    from device.store import Store

    folder = config.state_folder(settings)
    if not (folder / "matches.db").exists():
        return f"no match stored yet; {folder} will hold them."
    opened = Store(folder, read_only=True)  # the doctor only looks
    try:
        result = opened.check()
        skipped = opened.quarantined() + opened.unreadable()
    finally:
        opened.close()
    free = os.statvfs(folder)
    megabytes = free.f_bavail * free.f_frsize // 2**20
    note = ""
    if skipped:
        listed = "; ".join(str(s) for s in skipped[:3])
        note = f" {len(skipped)} stored event(s) cannot be read and are skipped ({listed})."
    if megabytes < 50:
        raise CuberefError(f"only {megabytes} MB free in {folder}; free some space.{note}")
    return f"{Path(folder) / 'matches.db'} is {result}, {megabytes} MB free.{note}"


CHECKS: list[tuple[str, Check]] = [
    ("camera", camera),
    ("pins", pins),
    ("screen", screen),
    ("model", model),
    ("lexicons", lexicons),
    ("store", store),
]
