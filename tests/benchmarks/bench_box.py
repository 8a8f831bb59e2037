"""How long the box takes to draw a screen and to store an event on this machine.

    SDL_VIDEODRIVER=dummy python tests/benchmarks/bench_box.py

Prints the median of each over many runs. The main loop redraws about once a second
(when the clock changes), so a draw well under 100 ms leaves the loop responsive.
"""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from device.commands.bench import median_ms  # noqa: E402
from device.draw.lines import Line  # noqa: E402
from device.draw.render import View, render  # noqa: E402
from device.store.events import MatchStarted, WordTyped  # noqa: E402
from device.store.store import Store  # noqa: E402

BOARD = tuple("TNTBGDARELTESISH")


def main() -> None:
    pygame.display.init()
    words = tuple(Line(f"WORD{i}", str(i % 5 + 1)) for i in range(200))
    timer = View(title="Boggle", faces=BOARD, size=4, clock="2:47", big_clock=True)
    scored = View(title="Boggle", faces=BOARD, size=4, message="200 words.", lines=words)
    for width, height in ((800, 480), (1920, 1080)):
        surface = pygame.Surface((width, height))
        for name, view in (("timer", timer), ("score", scored)):
            render(view, surface)  # warm the font cache, as after the box's first screen
            took = median_ms(lambda v=view, s=surface: render(v, s), 50)
            print(f"draw {name} screen {width}x{height}: {took:.1f} ms median of 50")
    with tempfile.TemporaryDirectory() as folder:
        store = Store(folder)
        match = store.new_match(0.0, MatchStarted("boggle", ("A", "B")))
        typed = WordTyped("A", "dart")
        took = median_ms(lambda: store.record(match, 1, 0.0, typed), 200)
        print(f"store one event (WAL, synchronous=FULL): {took:.2f} ms median of 200")
        store.close()


if __name__ == "__main__":
    main()
