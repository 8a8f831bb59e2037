"""Play one full round of each game family on built-in defaults, with no hardware.

Bundled photos (rendered by the project's scene renderer) stand in for the camera, a
fast clock runs the 3-minute timer in a moment, the buzzer's cues are printed, and
every screen is saved as a PNG in the output folder, named as it is written.

The folder (cuberef-demo in the current folder unless --out names another) is the
demo's own: it is created when missing, an earlier demo in it is replaced, and a folder
that holds anything else is refused and left as it is."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from device.commands import options
from device.output import emit_json
from device.own_folder import own_folder
from engine.errors import MachineError

if TYPE_CHECKING:
    from device.assemble import Assembled
    from device.clock import FakeClock
    from device.referee import Referee

#: Game family -> (game id, the folder of bundled photos).
FAMILIES = {"boggle": ("boggle", "boggle"), "adlib": ("adlib", "adlib")}
STEP_SECONDS = 0.25


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        default="cuberef-demo",
        metavar="FOLDER",
        help="the demo's folder for its screens (PNG) and match stores: new, empty or an "
        "earlier demo's (default cuberef-demo)",
    )
    parser.add_argument(
        "--game", choices=sorted(FAMILIES), help="only this family: " + ", ".join(FAMILIES)
    )
    options.add_json(parser)


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    say = (lambda _line: None) if args.json else print
    played = []
    with own_folder(Path(args.out)) as out:
        for family in [args.game] if args.game else list(FAMILIES):
            screens: list[str] = []
            problem = play(family, out / family, say, screens)
            played.append({"family": family, "screens": screens, "problem": problem})
    failures = [f"{p['family']}: {p['problem']}" for p in played if p["problem"]]
    if failures:
        raise MachineError("The demo could not finish every round (" + "; ".join(failures) + ").")
    if args.json:
        emit_json({"out": str(out), "rounds": played})
    else:
        print(f"Demo finished; the screens are in {out}/.")
    return 0


def play(family: str, out: Path, say: Callable[[str], None], screens: list[str]) -> str | None:
    """Play one round; returns why it stopped short, or None when it went all the way."""
    from device import settings as config
    from device.assemble import assemble
    from device.buzzer import Buzzer, PrintedSound
    from device.clock import FakeClock

    game, folder = FAMILIES[family]
    clock = FakeClock()
    settings = config.defaults()
    settings["game"] = game
    settings["best_seconds"] = 2.0
    settings["players"] = ["Player 1"]
    settings["store"]["folder"] = str(out / "store")
    settings["screen"].update(backend="dummy", fullscreen=False)
    settings["button"]["backend"] = "keys"
    photos = resources.files("device") / "data" / "demo" / folder
    with resources.as_file(photos) as real_folder:
        settings["camera"].update(backend="folder", folder=str(real_folder))
        say(f"== {family}: photos from {real_folder}")
        box = assemble(
            settings,
            clock,
            screenshots=out,
            buzzer=Buzzer(PrintedSound(say, clock=lambda: clock.monotonic() - 1000.0)),
        )

        def saved(path: Path) -> None:
            screens.append(str(path))
            say(f"screen: {path}")

        box.box.on_screenshot = saved
        try:
            return _round(box, clock, say)
        finally:
            box.close()


def _round(box: Assembled, clock: FakeClock, say: Callable[[str], None]) -> str | None:
    from device.referee import State

    referee, main = box.referee, box.box
    main.draw()
    main.events.put("tap")
    main.step()
    if referee.state is not State.TIMING:
        say(f"reading: {referee.message}")
        return referee.message.replace(" Press the button to try again.", "")
    from device.readings import roll_of

    reading = referee.round.reading if referee.round else None
    say(f"read: {roll_of(reading) if reading else ''}")
    shot_last_ten = False
    while referee.state is State.TIMING:
        clock.advance(STEP_SECONDS)
        main.step()
        if not shot_last_ten and 0 < referee.seconds_left <= 9.5:
            main.screenshot("last-ten-seconds")
            shot_last_ten = True
    for _next in ("score", "match table"):
        main.events.put("tap")
        main.step()
        if referee.state is State.TIME_UP:
            say(f"scoring: {referee.message}")
            return referee.message.replace(" Press the button to try again.", "")
        if referee.state is State.SCORED:
            say(f"scored: {_summary(referee)}")
    return None


def _summary(referee: Referee) -> str:
    done = referee.round
    assert done is not None
    if done.verdict is None:
        return f"{len(done.found)} words, {done.maximum} points at most"
    best = f"best {done.best.score}" if done.best else "no best crossword"
    verdict = "valid" if done.verdict.valid else "not valid: " + " ".join(done.verdict.errors)
    return f"crossword {'/'.join(done.grid)} scores {done.verdict.score} ({verdict}); {best}"
