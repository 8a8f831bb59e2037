"""Check each part of the box: camera, pins, screen, model, lexicons, store, page, search.

Each line says the part works (``ok``), or what is wrong and the fix (``FIX``). While
the cuberef service runs it holds the camera, the pins and the screen: a part that
does not open then is reported as held by the service (``busy``), not as broken.
With the service's configuration the store checked is the service's own
(/var/lib/cuberef). The doctor only reads: it creates no store, no folder, no photo.
It says where the store is: the same file for every command and the box.
``--json`` prints ``{"ok", "config", "service", "store", "checks": [{"part", "status",
"line"}]}``. ``--service`` runs the same checks inside the installed service's sandbox
(``device.commands.sandbox``), where a device or an address the unit refuses shows. Exit code
0 when no part needs a fix, 1 when one does."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import warnings
from collections.abc import Callable
from pathlib import Path

from device.config import settings as config
from device.config.sections import Settings
from device.config.service import box_settings, config_path
from engine.errors import CuberefError

Check = Callable[[Settings], str]

STOP = "sudo systemctl stop cuberef"
#: Parts the running service holds open.
HELD = ("camera", "pins", "screen")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="the TOML configuration")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    parser.add_argument(
        "--service",
        action="store_true",
        help="run the checks inside the installed service's sandbox (its user, devices and "
        "network), as root",
    )


def run(args: argparse.Namespace) -> int:
    if args.service:
        from device.commands.sandbox import run_in_service

        return run_in_service(["doctor", *(["--json"] if args.json else [])])
    path = config_path(args.config)
    given = bool(args.config) or os.path.exists(path)
    chosen = box_settings(args.config)
    stored = config.state_folder(chosen) / "matches.db"  # where every command finds it
    service = service_state()
    quiet_libraries()
    checks = []
    for name, check in CHECKS:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # each check says in its own line what it found
                line, status = check(chosen), "ok"
        except Exception as error:  # each part's own failure, reported as its line
            line, status = str(error), "fix"
            if service == "running" and name in HELD:
                status = "busy"
                line = f"held by the running cuberef service; to test it: {STOP}."
        checks.append({"part": name, "status": status, "line": line})
    failed = any(check["status"] == "fix" for check in checks)
    if args.json:
        from device.commands.output import emit_json

        document = {"ok": not failed, "config": path if given else None, "service": service}
        emit_json({**document, "store": str(stored), "checks": checks})
    else:
        print(f"     config: {path if given else 'none; every setting at its default'}.")
        print(f"     service: {service}.")
        print(f"     matches: {stored}.")
        for found in checks:
            print(
                f"{found['status'] if found['status'] != 'fix' else 'FIX':5}{found['part']}: "
                f"{found['line']}"
            )
    return 1 if failed else 0


def service_state() -> str:
    """``running``, ``stopped``, ``not installed``, or ``no systemd`` (a chroot, a
    container, a laptop without it): what systemd says of cuberef.service."""
    systemctl = shutil.which("systemctl")
    if systemctl is None or not Path("/run/systemd/system").is_dir():
        return "no systemd"
    try:
        answer = subprocess.run(
            [systemctl, "is-active", "cuberef.service"], capture_output=True, text=True, timeout=5
        ).stdout.strip()
        known = subprocess.run(
            [systemctl, "cat", "cuberef.service"], capture_output=True, text=True, timeout=5
        ).returncode
    except (OSError, subprocess.SubprocessError):
        return "not installed"
    if answer in ("active", "activating", "reloading", "deactivating"):
        return "running"
    return "stopped" if known == 0 else "not installed"


def quiet_libraries() -> None:
    """OpenCV logs each camera it fails to open; the doctor's own lines say it plainly."""
    import cv2

    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


def camera(settings: Settings) -> str:
    from device.parts.camera import open_camera
    from device.parts.guarded_camera import GuardedCamera

    notices: list[str] = []
    opened = GuardedCamera(lambda: open_camera(settings.camera, notices))
    try:
        image = opened.capture()  # bounded in time, as the box's
        name = opened.name
    finally:
        opened.close()
    extra = f" ({' '.join(notices)})" if notices else ""
    return f"{name} gave a {image.shape[1]}x{image.shape[0]} picture{extra}."


def pins(settings: Settings) -> str:
    from gpiozero import Button, Device

    from device.parts.gpio import claim

    pin = settings.button.pin
    button = claim(lambda: Button(pin, pull_up=settings.button.pull_up), "button", pin)
    try:
        state = "pressed" if button.is_pressed else "not pressed"
        factory = type(Device.pin_factory).__name__
    finally:
        button.close()
    return f"button on GPIO{pin} reads {state} ({factory})."


def screen(settings: Settings) -> str:
    from device.parts.screen import open_screen

    opened = open_screen(settings.screen, [], wait=False)
    width, height = opened.size
    display = opened.display.get_size()
    opened.close()
    portrait = display[1] > display[0] and opened.rotation in (0, 180)
    hint = " The display is portrait: set [screen] rotation = 90 (or 270)." if portrait else ""
    return f"{opened.backend} opened at {width}x{height}.{hint}"


def model(settings: Settings) -> str:
    from device.seams.seams import load_face_model

    return f"{load_face_model()} loads."


def lexicons(settings: Settings) -> str:
    from engine.lexicon import Lexicon

    name = settings.lexicon or config.chosen_game(settings).lexicon
    lexicon = Lexicon.open(name)
    return f"{name} opens ({lexicon.card.words} words)."


def store(settings: Settings) -> str:
    from device.store.store import Store

    folder = config.state_folder(settings)
    if not (folder / "matches.db").exists():
        return f"no match stored yet; {folder} will hold them."
    opened = Store(folder, read_only=True)  # the doctor only looks
    try:
        result = opened.check()
        layout = opened.layout.words()  # a foreign one is refused above, in words
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
    return f"{Path(folder) / 'matches.db'} is {result}, {layout}, {megabytes} MB free.{note}"


def page(settings: Settings) -> str:
    from device.page.page import page_address

    port = settings.page.port
    on = settings.page.enabled
    return f"{page_address(port)} for phones." if on else "off ([page] enabled = true)."


def search(settings: Settings) -> str:
    from engine.adlib import native

    if native.active():
        return f"the best crossword is searched compiled ({native.FOLDER})."
    why = (
        "turned off by CUBEREF_NATIVE=0"
        if os.environ.get("CUBEREF_NATIVE") == "0"
        else ("not compiled from these sources")
    )
    return (
        f"the best crossword is searched as Python, {why}: three to four times slower; "
        "make native (or the Pi's installer) compiles it."
    )


CHECKS: list[tuple[str, Check]] = [
    ("camera", camera),
    ("pins", pins),
    ("screen", screen),
    ("model", model),
    ("lexicons", lexicons),
    ("store", store),
    ("page", page),
    ("search", search),
]
