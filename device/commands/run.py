"""Run the referee box: button, buzzer, camera and screen, round after round.

With ``--simulate`` it runs on any computer: a window, a USB webcam or the photo
folder of ``[camera] folder``, the space bar or a click as the button (hold it for a
cancel, or press Escape), the terminal bell as the buzzer. ``--script FILE`` plays a
file of timed events on it (press, hold, double, keys TEXT, type TEXT, sleep SECONDS,
wait STATE [SECONDS], quit; see ``device.box.script``) and exits at its end; ``--screens
FOLDER`` saves every screen there as a PNG, with a line of ``screens.jsonl`` each."""

from __future__ import annotations

import argparse
import logging
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING

from device.base import stopping
from device.base.inputs import folder_to_write, read_text
from device.base.stopping import Stopped, terminated
from device.box import restarts, script
from device.config import settings
from device.config.service import box_settings
from engine.errors import CuberefError

if TYPE_CHECKING:
    from device.box.assemble import Assembled

log = logging.getLogger("cuberef")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="the TOML configuration")
    parser.add_argument("--simulate", action="store_true", help="run on a laptop: window, keys")
    parser.add_argument("--photos", metavar="FOLDER", help="a folder of photos as the camera")
    parser.add_argument(
        "--screens",
        metavar="FOLDER",
        help="save each new screen here as PNG, each with a line of FOLDER/screens.jsonl",
    )
    parser.add_argument(
        "--script",
        metavar="FILE",
        help="play a file of timed events (press, hold, double, keys, type, sleep, wait, "
        "quit), then exit",
    )


def run(args: argparse.Namespace) -> int:
    from device.base.clock import SystemClock
    from device.box.assemble import assemble

    logging.getLogger("cuberef").setLevel(logging.INFO)
    chosen = box_settings(args.config)  # its store is the one every command names
    if args.photos:
        chosen = settings.overlay(chosen, {"camera": {"backend": "folder", "folder": args.photos}})
    steps = script.parse(read_text(args.script, "the script"), args.script) if args.script else []
    typing = next((step for step in steps if step.kind in ("keys", "type")), None)
    if typing is not None and not chosen.page.keyboard_player:
        raise CuberefError(
            f"{args.script}, line {typing.line} types on the box's keyboard, but no player "
            "does: set [page] keyboard_player in the configuration."
        )
    clock = SystemClock()
    screens = folder_to_write(args.screens, "--screens") if args.screens else None
    folder = settings.state_folder(chosen)
    again = restarts.wait(folder, clock.sleep)
    try:
        box = assemble(chosen, clock, simulate=args.simulate, screenshots=screens)
        if again:  # on the screen, until a roll is read
            box.referee.say("restart", again)
        if args.script:
            box.box.play(steps)
        log.info("cuberef box running: %s", chosen.game)
        code = serve(box, clock.sleep)
    except (CuberefError, script.ScriptFailed):
        raise  # a wrong setting (exit 2), or a script the box did not follow: no back-off
    except BaseException as error:
        told = isinstance(error, KeyboardInterrupt | SystemExit | Stopped) or stopping.received()
        if not told:  # a failure, not a stop: counted for the back-off
            restarts.failed(folder, str(error) or type(error).__name__)
        raise
    restarts.forget(folder)
    return code


def serve(box: Assembled, sleep: Callable[[float], None]) -> int:
    """Run the box until it is stopped, then close every part, the buzzer first.

    SIGTERM ends the box at once, even in the middle of a slow step (a reading, the
    best crossword): every event is already committed as it happens, so there is
    nothing to finish, only parts to close. Ctrl-C (SIGINT) ends it the same way,
    through KeyboardInterrupt. Further signals wait until the parts are closed."""
    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        box.box.run(sleep)
    except Stopped as stopped:
        log.info("cuberef box stopped by %s", stopped)
    finally:
        held = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            box.close()
        finally:
            held[signal.SIGTERM] = previous
            for sig, handler in held.items():
                signal.signal(sig, handler)
    return 0
