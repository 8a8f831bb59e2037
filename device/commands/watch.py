"""Read an Ad-Lib or Scribbage table live, while the crossword is built: the crossword as
laid so far, its running score, the cubes not yet used with their values, and the words
the lexicon does not know.

SOURCE is a folder of frames (read in name order, as fast as they can be read), a video
file, or, left out, the camera (the ``[camera]`` settings of ``--config``, else of the
box's configuration) until Ctrl-C. A reading is shown once it is stable (the same over
consecutive frames); while a hand or an arm is over the cubes the last stable reading is
held and the state says ``hands``, and the score is shown only where it is sure. It says
what it shows each time that changes, never the same twice, and when the source ends
(or ``--frames`` or Ctrl-C stops it) says so in a line on stderr; with ``--json`` each
reading as one JSON document on a line of its own: ``{"frame", "state"
(crossword, hands, empty or loose), "grid", "score" (null while not sure), "unused",
"words": [{"word", "valid"}]}``, ``frame`` counting from 0 in the source's order.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from typing import TYPE_CHECKING

from device.base.inputs import ranged
from device.commands import options

if TYPE_CHECKING:
    from device.seams.live import LiveView

#: More frames than a day of the camera's stream.
MAX_FRAMES = 10**7


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source",
        nargs="?",
        metavar="SOURCE",
        help="a folder of frames or a video file (default: the camera)",
    )
    options.add_game(parser, trays=False)
    parser.add_argument(
        "--roll",
        help="the roll, faces separated by spaces (default: the cubes read on the table)",
    )
    options.add_lexicon(parser)
    parser.add_argument(
        "--config", metavar="FILE", help="the TOML configuration whose camera to watch"
    )
    parser.add_argument(
        "--frames",
        type=ranged(int, 1, MAX_FRAMES, 100),
        metavar="N",
        help=f"stop after N frames, 1 to {MAX_FRAMES:,} (default: the whole source, the "
        "camera until Ctrl-C)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON document a line, at each change"
    )


def run(args: argparse.Namespace) -> int:
    from device.config import settings
    from device.config.service import config_path
    from device.seams.frames import open_source
    from device.seams.live import live_view
    from device.seams.seams import VisionReader
    from engine.adlib import Roll
    from vision.live import Live, LiveReader, State

    game = options.crossword_game(args.game, "Live reading is")
    lexicon = options.game_lexicon(args, game)
    roll = Roll.parse(args.roll, game.id) if args.roll else None
    camera = None
    if args.source is None:
        path = config_path(args.config)
        given = args.config or os.path.exists(path)
        camera = settings.load(path if given else None).camera
    frames = open_source(args.source, camera)
    reader = VisionReader()
    live = LiveReader(lambda image: reader.read_table(image, game, lexicon))
    shown: LiveView | None = None
    number = -1
    stopped = "Ctrl-C"
    try:
        for number, frame in enumerate(itertools.islice(frames, args.frames)):
            if frame is None:
                continue
            seen = live.update(frame)
            view = live_view(seen, game, roll, lexicon) if seen is not None else None
            if view is not None and view != shown:
                _say(view, number, args.json)
                shown = view
        stopped = "--frames" if number + 1 == args.frames else "source"
    except KeyboardInterrupt:
        pass  # the camera has no end: Ctrl-C ends the watch
    finally:
        frames.close()  # the camera, or the video, let go
    # What the source's end settles (a reading never stable until then) is said; the
    # reading last said is not said again.
    last = live_view(live.ended() or Live(State.EMPTY, None), game, roll, lexicon)
    if last != shown:
        _say(last, max(number, 0), args.json)
    print(f"cuberef: {_ended(stopped, number + 1)}", file=sys.stderr)
    return 0


def _ended(stopped: str, frames: int) -> str:
    """The line that says why the watch ended, after how many frames.

    >>> _ended("source", 12)
    'the source ended after 12 frames; its last reading stands above.'
    """
    counted = f"{frames} frame{'' if frames == 1 else 's'}"
    if stopped == "source":
        return f"the source ended after {counted}; its last reading stands above."
    if stopped == "--frames":
        return f"stopped after {counted}, as --frames asks; the last reading stands above."
    return f"stopped by Ctrl-C after {counted}; the last reading stands above."


def _say(view: LiveView, frame: int, as_json: bool) -> None:
    if as_json:
        print(json.dumps(view.to_json(frame), ensure_ascii=False))
    else:
        print(view.describe(frame))
    sys.stdout.flush()
