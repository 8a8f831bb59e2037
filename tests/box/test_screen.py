"""The screen on SDL's dummy driver: a late display is waited for, a missing one stops
the box with a sentence (only --simulate falls back), and a turned screen turns the
picture and the touches alike."""

from __future__ import annotations

import pygame
import pytest

from device.base.clock import FakeClock
from device.cli import main
from device.config.sections import ScreenSettings
from device.parts.screen import RETRY_SECONDS, Screen, open_screen, wait_for
from device.referee.flow import State
from engine.errors import CuberefError, MachineError

from .test_round import box_settings, build, tap

NO_DESKTOP = {"backend": "auto", "width": 800, "height": 480, "fullscreen": False}


def screen_settings(**given) -> ScreenSettings:
    return ScreenSettings(**{**NO_DESKTOP, **given})


@pytest.fixture
def no_desktop(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv(
        "SDL_VIDEODRIVER", raising=False
    )  # what the tests' driver is, put back after
    monkeypatch.setenv("SDL_KMSDRM_DEVICE_INDEX", "99")  # no such card, here or anywhere


def test_only_simulate_falls_back_to_the_dummy_screen_and_says_so(no_desktop):
    notices: list[str] = []
    screen = open_screen(screen_settings(wait_seconds=0), notices, fallback=True)
    assert screen.backend == "dummy" and "kmsdrm" in notices[0]
    screen.close()
    with pytest.raises(CuberefError, match="no screen called 'hdmi'"):
        open_screen(screen_settings(backend="hdmi"), [])


def test_simulate_without_a_desktop_takes_the_dummy_screen_without_waiting(no_desktop, monkeypatch):
    clock = FakeClock()
    started, notices = clock.monotonic(), []
    screen = open_screen(
        screen_settings(wait_seconds=30),
        notices,
        fallback=True,
        monotonic=clock.monotonic,
        sleep=clock.sleep,
    )
    assert screen.backend == "dummy" and clock.monotonic() == started  # tried once
    assert "kmsdrm" in notices[0]
    screen.close()
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # asked for: no notice at all
    notices.clear()
    screen = open_screen(screen_settings(wait_seconds=30), notices, fallback=True)
    assert screen.backend == "dummy" and notices == []
    screen.close()


def test_a_display_that_never_comes_stops_the_box_after_waiting(no_desktop):
    clock = FakeClock()
    started = clock.monotonic()
    with pytest.raises(MachineError, match="kmsdrm screen did not open") as failure:
        open_screen(
            screen_settings(wait_seconds=30), [], monotonic=clock.monotonic, sleep=clock.sleep
        )
    assert 29 <= clock.monotonic() - started <= 30
    assert "waited for 30 s" in str(failure.value)
    assert "boot to the console" in str(failure.value)


def test_a_late_display_is_waited_for():
    clock = FakeClock()
    tries: list[float] = []

    def make() -> Screen:
        tries.append(clock.monotonic())
        if len(tries) < 4:
            raise MachineError("The kmsdrm screen did not open (no connected display).")
        return Screen("dummy")

    screen = wait_for(make, 30, monotonic=clock.monotonic, sleep=clock.sleep)
    assert screen.size == (800, 480) and len(tries) == 4
    assert tries[-1] - tries[0] == 3 * RETRY_SECONDS
    screen.close()


def test_run_without_its_screen_exits_1_with_a_sentence(no_desktop, tmp_path, capsys):
    config = tmp_path / "box.toml"
    config.write_text(
        '[button]\nbackend = "keys"\n[buzzer]\ntype = "silent"\n'
        f'[store]\nfolder = "{tmp_path / "store"}"\n'
        '[screen]\nbackend = "kmsdrm"\nwait_seconds = 0\n'
    )
    assert main(["run", "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("cuberef: The kmsdrm screen did not open") and "Traceback" not in err
    assert err.count("\n") == 1


def turned(point: tuple[int, int], rotation: int, size: tuple[int, int]) -> tuple[int, int]:
    """Where a pixel of an upright picture of ``size`` lands when turned clockwise."""
    (u, v), (width, height) = point, size
    return {
        90: (height - 1 - v, u),
        180: (width - 1 - u, height - 1 - v),
        270: (v, width - 1 - u),
    }[rotation]


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_a_turned_screen_shows_the_picture_turned_and_a_touch_finds_its_cube(
    tmp_path, photos, rotation
):
    chosen = box_settings(tmp_path, photos)
    chosen["screen"]["rotation"] = rotation
    made, clock, _ = build(tmp_path, photos, settings=chosen)
    screen = made.box.screen
    assert screen.size == (800, 480)  # the players' picture stays landscape
    display = screen.display.get_size()
    assert display == ((480, 800) if rotation in (90, 270) else (800, 480))
    tap(made)
    assert made.referee.state is State.TIMING
    cells = screen.layout.cells
    # The picture on the display is the upright one, turned: sample it all over.
    for x in range(5, 800, 97):
        for y in range(3, 480, 53):
            assert screen.display.get_at(turned((x, y), rotation, (800, 480))) == (
                screen.surface.get_at((x, y))
            )
    target = 6
    before = made.referee.round.reading.faces
    x, y = turned(cells[target].center, rotation, (800, 480))
    pygame.event.post(
        pygame.event.Event(
            pygame.FINGERDOWN,
            x=(x + 0.5) / display[0],
            y=(y + 0.5) / display[1],
            dx=0.0,
            dy=0.0,
            touch_id=1,
            finger_id=0,
            pressure=1.0,
        )
    )
    made.box.step()
    after = made.referee.round.reading.faces
    changed = [i for i in range(len(before)) if before[i] != after[i]]
    assert changed == [target]
    made.close()


def test_a_click_is_turned_back_too():
    screen = Screen("dummy", rotation=90)
    # The display's top-right corner is the picture's top-left one.
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(479, 0), button=1)
    assert screen.position(click) == (0, 0)
    screen.close()
