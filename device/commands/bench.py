"""Speed figures of this machine: the figures the issues set targets for, measured the
way the benchmarks in tests/benchmarks/ measure them, in a few seconds.

The box is a Pi 4: what costs 50 ms here costs about 200 ms there. For the long
comparisons (the PyPI solvers, the best crossword over 50 rolls, the reader over 200
scenes) run the scripts in tests/benchmarks/.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

from device.base.inputs import ranged
from device.commands.output import emit_json

#: The board whose whole-process solve issue 21 times.
STARTUP_BOARD = "RONLI/CTSSD/NMPPN/UAEQuI/HINRM"


@dataclass(frozen=True, slots=True)
class Figure:
    name: str
    median_ms: float
    target_ms: float | None
    runs: int
    #: For a whole process: the median of its peak resident memory.
    peak_mib: float | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--runs",
        type=ranged(int, 3, 1000, 30),
        default=30,
        metavar="N",
        help="runs per figure, 3 to 1000 (default 30)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run(args: argparse.Namespace) -> int:
    figures = []
    for figure in measure(args.runs):
        figures.append(figure)
        if not args.json:
            target = f"(target < {figure.target_ms:g} ms)" if figure.target_ms else ""
            peak = f", peak {figure.peak_mib:.1f} MiB" if figure.peak_mib else ""
            print(
                f"{figure.name:<44} {figure.median_ms:9.2f} ms  median of {figure.runs}"
                f"{peak} {target}"
            )
    if args.json:
        emit_json({"figures": [asdict(figure) for figure in figures]})
    return 0


def median_ms(action: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def measure(runs: int) -> Iterator[Figure]:
    yield from startup(runs)
    yield from _engine(runs)
    yield from _vision(runs)
    yield from _box(runs)


def cuberef_command() -> list[str]:
    """How to start ``cuberef`` as a player does: the script beside this Python."""
    script = Path(sys.executable).with_name("cuberef")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "device.cli"]


def startup_commands() -> dict[str, tuple[list[str], float | None]]:
    """Whole processes issue 21 times, with their targets: Python doing nothing first,
    the floor every command stands on."""
    cuberef = cuberef_command()
    return {
        "python -c pass": ([sys.executable, "-c", "pass"], None),
        "cuberef --help": ([*cuberef, "--help"], 60),
        "cuberef solve --game big-boggle": (
            [*cuberef, "solve", "--game", "big-boggle", "--board", STARTUP_BOARD],
            90,
        ),
    }


#: Starts a command as a child and reports its wall time (ns), its peak resident memory
#: (KiB) and its exit code. Linux carries a process's peak across exec, so the command
#: is started from this small Python (no site, about 8 MiB) rather than from a larger
#: benchmark, whose size it would inherit.
_LAUNCHER = """
import os, sys, time
started = time.perf_counter_ns()
pid = os.fork()
if pid == 0:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(time.perf_counter_ns() - started, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def process_costs(commands: dict[str, list[str]], runs: int) -> dict[str, tuple[float, float]]:
    """Each command's median wall time (ms) and median peak resident memory (MiB) as a
    whole process (Linux). The commands take turns, so a busy machine slows each alike."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    peaks: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            launched = subprocess.run(
                [sys.executable, "-I", "-S", "-c", _LAUNCHER, *command],
                capture_output=True,
                text=True,
                check=True,
            )
            nanoseconds, kibibytes, code = map(int, launched.stdout.split())
            if code != 0:
                raise RuntimeError(f"{' '.join(command)} exited with code {code}")
            times[name].append(nanoseconds / 1e6)
            peaks[name].append(kibibytes / 1024)
    return {
        name: (statistics.median(times[name]), statistics.median(peaks[name])) for name in commands
    }


def startup(runs: int) -> Iterator[Figure]:
    commands = startup_commands()
    costs = process_costs({name: command for name, (command, _) in commands.items()}, runs)
    for name, (took, peak) in costs.items():
        yield Figure(f"start {name}", took, commands[name][1], runs, peak)


def _engine(runs: int) -> Iterator[Figure]:
    from engine.board import Board
    from engine.games import find_game
    from engine.lexicon import Lexicon, lexicon_path
    from engine.solver import solve

    for name in ("en", "cs"):
        path = lexicon_path(name)
        yield Figure(f"open lexicon {name}", median_ms(partial(_open_fresh, path), runs), 50, runs)
    for game_id, target in (("big-boggle", 3.0), ("czech-boggle", 3.0), ("super-big-boggle", None)):
        game = find_game(game_id)
        lexicon = Lexicon.open(game.lexicon)
        rng = random.Random(2026)
        boards = [Board.from_faces(game.cube_set().roll(rng), game.size) for _ in range(runs)]
        times = []
        for board in boards:
            started = time.perf_counter()
            solve(board, game, lexicon)
            times.append((time.perf_counter() - started) * 1000)
        label = f"solve a {game.size}x{game.size} {game.title} board"
        yield Figure(label, statistics.median(times), target, runs)


def _open_fresh(path: object) -> None:
    from engine.lexicon import _open_file

    _open_file.cache_clear()
    _open_file(path)


def _vision(runs: int) -> Iterator[Figure]:
    """The model on a batch of 36 faces, and a tray photo to a reading at 1 and 12 MP (the
    demo's tray photo, scaled), on one thread as on a busy Pi."""
    from importlib import resources

    import cv2
    import numpy as np

    from engine.games import find_game
    from vision import load_image, read
    from vision.classifier import FaceClassifier

    cv2.setNumThreads(1)
    model = FaceClassifier.load()
    crops = list(np.random.default_rng(0).integers(0, 255, (36, 80, 80, 3), dtype=np.uint8))
    yield Figure(
        "read a batch of 36 faces (the model)",
        median_ms(lambda: model.classify(crops), runs),
        20,
        runs,
    )
    photo = resources.files("device") / "data" / "demo" / "boggle" / "1-roll.jpg"
    tray = load_image(str(photo))
    game = find_game("boggle")
    for label, size, target in (("1 MP", (1155, 866), 100), ("12 MP", (4000, 3000), 400)):
        image = cv2.resize(tray, size, interpolation=cv2.INTER_CUBIC)
        took = median_ms(partial(read, image, game, classifier=model), max(3, runs // 3))
        yield Figure(f"read a {label} tray photo", took, target, max(3, runs // 3))


def _box(runs: int) -> Iterator[Figure]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from device.draw.render import View, render
    from device.store.events import MatchStarted, WordTyped
    from device.store.store import Store

    pygame.display.init()
    faces = tuple("TNTBGDARELTESISH")
    view = View(title="Boggle", faces=faces, size=4, clock="2:47", big_clock=True)
    for width, height in ((800, 480), (1920, 1080)):
        surface = pygame.Surface((width, height))
        render(view, surface)
        took = median_ms(partial(render, view, surface), runs)
        yield Figure(f"draw the timer screen {width}x{height}", took, None, runs)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(folder)
        match = store.new_match(0.0, MatchStarted("boggle", ("A", "B")))
        typed = WordTyped("A", "dart")
        took = median_ms(lambda: store.record(match, 1, 0.0, typed), runs)
        store.close()
    yield Figure("store one event (SQLite WAL, synchronous=FULL)", took, None, runs)
