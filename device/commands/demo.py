"""Play one full round of each game family on built-in defaults, with no hardware.

Bundled photos (rendered by the project's scene renderer) stand in for the camera, a
fast clock runs the 3-minute timer in a moment, the buzzer's cues are printed, and
every screen is saved as a PNG in the output folder, named as it is written."""

from __future__ import annotations

import argparse
import os
import shutil
from importlib import resources
from pathlib import Path

from device import settings as config
from device.assemble import assemble
from device.buzzer import Buzzer, PrintedSound
from device.clock import FakeClock
from device.referee import Referee, State
from engine.errors import MachineError

HELP = "one full round of each game family on built-in defaults"

#: Game family -> (game id, the folder of bundled photos).
FAMILIES = {"boggle": ("boggle", "boggle"), "adlib": ("adlib", "adlib")}
STEP_SECONDS = 0.25


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default="cuberef-demo", help="folder for the screens (PNG)")
    parser.add_argument("--game", choices=sorted(FAMILIES), help="only this family")


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    out = Path(args.out)
    failures = []
    for family in [args.game] if args.game else list(FAMILIES):
        problem = play(family, out / family)
        if problem:
            failures.append(f"{family}: {problem}")
    if failures:
        raise MachineError("The demo could not finish every round (" + "; ".join(failures) + ").")
    print(f"Demo finished; the screens are in {out}/.")
    return 0


def play(family: str, out: Path) -> str | None:
    """Play one round; returns why it stopped short, or None when it went all the way."""
    game, folder = FAMILIES[family]
    if out.exists():
        shutil.rmtree(out)
    clock = FakeClock()
    settings = config.defaults()
    settings["game"] = game
    settings["best_seconds"] = 2.0
    settings["store"]["folder"] = str(out / "store")
    settings["screen"].update(backend="dummy", fullscreen=False)
    settings["button"]["backend"] = "keys"
    photos = resources.files("device") / "data" / "demo" / folder
    with resources.as_file(photos) as real_folder:
        settings["camera"].update(backend="folder", folder=str(real_folder))
        print(f"== {family}: photos from {real_folder}")
        box = assemble(
            settings,
            clock,
            screenshots=out,
            buzzer=Buzzer(PrintedSound(clock=lambda: clock.monotonic() - 1000.0)),
        )
        box.box.on_screenshot = lambda path: print(f"screen: {path}")
        try:
            return _round(box, clock)
        finally:
            box.close()


def _round(box: object, clock: FakeClock) -> str | None:
    from device.assemble import Assembled

    assert isinstance(box, Assembled)
    referee, main = box.referee, box.box
    main.draw()
    main.events.put("tap")
    main.step()
    if referee.state is not State.TIMING:
        print(f"reading: {referee.message}")
        return referee.message.replace(" Press the button to try again.", "")
    print(f"read: {referee.round.reading.roll if referee.round else ''}")
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
            print(f"scoring: {referee.message}")
            return referee.message.replace(" Press the button to try again.", "")
        if referee.state is State.SCORED:
            print(f"scored: {_summary(referee)}")
    return None


def _summary(referee: Referee) -> str:
    done = referee.round
    assert done is not None
    if done.crossword is None:
        return f"{len(done.words)} words, {done.maximum} points at most"
    best = f"best {done.best.score}" if done.best else "no best crossword"
    verdict = "valid" if done.crossword.valid else "not valid: " + " ".join(done.crossword.errors)
    grid = "/".join(done.crossword.grid)
    return f"crossword {grid} scores {done.crossword.score} ({verdict}); {best}"
