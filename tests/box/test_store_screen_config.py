"""The store's durability, the screen's pixels, the configuration's sentences, the unit."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pygame
import pytest

from device.config import settings as config
from device.draw.render import View, draw_text, layout, render
from device.draw.tiles import draw_tile
from device.store.store import Store

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import sys
from device.store.events import MatchStarted, RoundStarted
from device.store.store import Store
store = Store(sys.argv[1])
match = store.new_match(0.0, MatchStarted("boggle", ("A",)))
n = 0
while True:
    n += 1
    store.record(match, n, float(n), RoundStarted(n))
    print(n, flush=True)
"""


def test_a_power_cut_between_two_events_loses_no_stored_event(tmp_path):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path)], stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert child.stdout is not None
    written = 0
    for line in child.stdout:  # each line is printed after its event was committed
        written = int(line)
        if written >= 40:
            break
    child.send_signal(signal.SIGKILL)
    child.wait()
    store = Store(tmp_path)
    assert store.notice is None and store.check() == "ok"
    rounds = [e.round for e in store.events(1) if e.kind == "round-started"]
    assert rounds[:written] == list(range(1, written + 1))
    assert store.latest_match() == 1


def test_a_corrupt_store_is_set_aside_with_a_message(tmp_path):
    Store(tmp_path).close()
    (tmp_path / "matches.db").write_bytes(b"this is not a database" * 200)
    store = Store(tmp_path)
    assert store.notice and "damaged" in store.notice
    kept = list(tmp_path.glob("matches.db.corrupt-*"))
    assert kept and kept[0].read_bytes().startswith(b"this is not")
    assert store.check() == "ok"


@pytest.fixture
def surface():
    pygame.display.init()
    try:
        yield pygame.Surface((800, 480))
    finally:
        pygame.display.quit()


def region(surface, rect):
    return pygame.surfarray.array3d(surface.subsurface(rect)).astype(np.int32)


def nearest(surface, rect, candidates, draw):
    """Which candidate, freshly drawn into a blank copy of ``rect``, matches best."""
    seen = region(surface, rect)
    scores = {}
    for text in candidates:
        blank = pygame.Surface(surface.get_size())
        blank.blit(surface, rect, rect)  # the background as it is
        draw(blank, rect, text)
        scores[text] = np.abs(region(blank, rect) - seen).sum()
    return min(scores, key=scores.__getitem__)


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_timer_screen_shows_the_board_and_the_clock(size):
    pygame.display.init()
    surface = pygame.Surface(size)
    board = "TNTB/GDAR/ELTE/SISH".replace("/", "")
    view = View(title="Boggle", faces=tuple(board), size=4, clock="2:47", big_clock=True)
    where = render(view, surface)
    letters = sorted(set("ABCDEFGHIJKLMNOPRSTUVWXYZ"))

    def tile(target, rect, text):
        target.fill((20, 24, 32), rect)
        draw_tile(target, rect, text, False)

    read = "".join(nearest(surface, cell, letters, tile) for cell in where.cells)
    assert read == board
    times = ["2:47", "2:41", "1:47", "2:17", "0:47"]

    def clock(target, rect, text):
        target.fill((20, 24, 32), rect)
        draw_text(target, text, rect, (238, 238, 232))

    assert nearest(surface, where.clock, times, clock) == "2:47"
    pygame.display.quit()


def test_czech_letters_render_with_the_bundled_font():
    pygame.display.init()
    surface = pygame.Surface((800, 480))
    render(View(title="Česká Boggle · kůň příliš žluťoučký"), surface)
    from device.draw.paint import font

    assert all(font(30).metrics(ch)[0] is not None for ch in "ČčĚěŘřŠšŽžŮůÁáÍí")
    pygame.display.quit()


def test_the_layout_fits_both_screens():
    for width, height in ((800, 480), (1920, 1080)):
        where = layout(
            width, height, View(title="x", faces=tuple("ABCDEFGHIJKLMNOPQRSTUVWXY"), size=5)
        )
        screen = pygame.Rect(0, 0, width, height)
        assert all(screen.contains(cell) for cell in where.cells)
        assert min(cell.height for cell in where.cells) >= height / 10  # readable across a table


def test_config_check_names_every_wrong_key_and_value(tmp_path):
    path = tmp_path / "box.toml"
    path.write_text(
        'game = "boggel"\ntimer_seconds = "3 min"\ncolour = "red"\n'
        '[button]\npin = 99\npull_up = 1\n[buzzer]\ntype = "loud"\n[camra]\nx = 1\n',
        encoding="utf-8",
    )
    found = config.problems(config.read_file(path))
    assert len(found) == 7
    text = " ".join(found)
    for needle in (
        "'boggel'",
        "timer_seconds",
        "colour is not a setting",
        "[button] pin = 99",
        "pull_up = 1",
        "'loud'",
        "camra is not a setting",
    ):
        assert needle in text
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "config", "--check", "--config", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert result.returncode == 2 and result.stderr.count(str(path)) == 7
    good = tmp_path / "good.toml"
    good.write_text(config_defaults_text(), encoding="utf-8")
    assert config.problems(config.read_file(good)) == []


def config_defaults_text() -> str:
    from device.commands.config import defaults_toml

    return defaults_toml()
