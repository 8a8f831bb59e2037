"""Run the referee box: button, buzzer, camera and screen, round after round.

With ``--simulate`` it runs on any computer: a window, a USB webcam or the photo
folder of ``[camera] folder``, the space bar or a click as the button (hold it for a
cancel, or press Escape), the terminal bell as the buzzer."""

from __future__ import annotations

import argparse
import logging
import os

from device import settings
from device.commands.config import config_path
from device.inputs import folder_to_write

log = logging.getLogger("cuberef")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="the TOML configuration")
    parser.add_argument("--simulate", action="store_true", help="run on a laptop: window, keys")
    parser.add_argument("--photos", metavar="FOLDER", help="a folder of photos as the camera")
    parser.add_argument("--screens", metavar="FOLDER", help="save each new screen here as PNG")


def run(args: argparse.Namespace) -> int:
    from device.assemble import assemble
    from device.clock import SystemClock

    logging.getLogger("cuberef").setLevel(logging.INFO)
    path = config_path(args.config)
    chosen = settings.load(path if (args.config or os.path.exists(path)) else None)
    if args.photos:
        chosen["camera"].update(backend="folder", folder=args.photos)
    clock = SystemClock()
    screens = folder_to_write(args.screens, "--screens") if args.screens else None
    box = assemble(chosen, clock, simulate=args.simulate, screenshots=screens)
    log.info("cuberef box running: %s", chosen["game"])
    try:
        box.box.run(clock.sleep)
    finally:
        box.close()
    return 0
