"""The box's code as parts with one job each: device/'s modules import one another without a
circle and stay short; the settings are values, one frozen dataclass per section, that
each part takes its own section of; ``--simulate`` is one overlay; each part's backends
are one table of factories of its section; device/'s doctests run with the tests."""

from __future__ import annotations

import ast
import dataclasses
import queue
import tomllib
from pathlib import Path

import pytest

from device.base.clock import FakeClock
from device.base.tunes import CATALOG
from device.config import settings as config
from device.config.sections import (
    ButtonSettings,
    BuzzerSettings,
    CameraSettings,
    ScreenSettings,
    Settings,
    keys,
    sections,
)
from device.parts.button import BACKENDS as BUTTONS
from device.parts.button import KeyButton
from device.parts.buzzer import BACKENDS as BUZZERS
from device.parts.buzzer import PrintedSound
from device.parts.camera import BACKENDS as CAMERAS
from device.parts.camera import FolderCamera
from device.parts.screen import BACKENDS as SCREENS

ROOT = Path(__file__).resolve().parents[2]
DEVICE = ROOT / "device"


def imports_of(path: Path) -> set[str]:
    """Every device module ``path`` imports, wherever the import stands (inside a
    function or under TYPE_CHECKING too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in found if name.startswith("device.")}


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_device_imports_itself_without_a_circle():
    paths = sorted(DEVICE.rglob("*.py"))
    modules = {module_of(path): path for path in paths}
    graph = {name: imports_of(path) & set(modules) - {name} for name, path in modules.items()}
    done: set[str] = set()

    def walk(name: str, trail: list[str]) -> None:
        if name in trail:
            pytest.fail("device/ imports in a circle: " + " -> ".join([*trail, name]))
        if name in done:
            return
        for imported in sorted(graph[name]):
            walk(imported, [*trail, name])
        done.add(name)

    for name in sorted(graph):
        walk(name, [])
    assert len(graph) > 40 and graph["device.referee.referee"]  # it did look


def test_every_device_module_is_short():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in DEVICE.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 400
    }
    assert not long


def test_device_doctests_run_with_the_tests():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_options = options["tool"]["pytest"]["ini_options"]
    assert "device" in pytest_options["testpaths"]
    assert "--doctest-modules" in pytest_options["addopts"]


def test_the_settings_are_one_frozen_value_per_section(tmp_path):
    path = tmp_path / "box.toml"
    path.write_text('game = "adlib"\nplayers = ["Ann", "Ben"]\n[screen]\nrotation = 90\n')
    chosen = config.load(path)
    assert isinstance(chosen, Settings) and chosen.players == ("Ann", "Ben")
    assert chosen.screen == ScreenSettings(rotation=90) and chosen.game == "adlib"
    for name, kind in sections():
        section = getattr(chosen, name)
        assert isinstance(section, kind) and dataclasses.is_dataclass(section)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(section, dataclasses.fields(section)[0].name, None)
    assert set(keys(config.TuneSettings)) == set(CATALOG)  # a setting for every cue
    from device.commands.config import defaults_toml

    path.write_text(defaults_toml())
    assert config.load(path) == Settings()  # every default as the file writes it


def test_simulate_is_one_overlay_of_the_settings():
    chosen = config.overlay(
        Settings(), {"buzzer": {"type": "active"}, "camera": {"backend": "picamera"}}
    )
    simulated = config.simulated(chosen)
    changed = {
        name for name, _kind in sections() if getattr(simulated, name) != getattr(chosen, name)
    }
    assert changed == {"button", "buzzer", "screen", "camera"}
    assert simulated.button.backend == "keys" and simulated.buzzer.type == "bell"
    assert simulated.screen.fullscreen is False and simulated.camera.backend == "auto"
    assert config.simulated(simulated) == simulated  # once is all it takes
    quiet = config.overlay(Settings(), {"buzzer": {"type": "silent"}})
    assert config.simulated(quiet).buzzer.type == "silent"  # a chosen stand-in is kept


def test_each_backend_table_maps_a_name_to_a_factory_of_its_section(photos, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    camera = CAMERAS["folder"](
        CameraSettings(backend="folder", folder=str(photos)), FakeClock().monotonic
    )
    assert isinstance(camera, FolderCamera)
    screen = SCREENS["dummy"](ScreenSettings(width=640, height=400, rotation=90))
    assert screen.size == (640, 400) and screen.rotation == 90
    screen.close()
    assert isinstance(BUZZERS["print"](BuzzerSettings(type="print")), PrintedSound)
    events: queue.Queue = queue.Queue()
    button = BUTTONS["keys"](
        ButtonSettings(backend="keys"), events, hold_seconds=1.0, clock=FakeClock()
    )
    assert isinstance(button, KeyButton) and button.hold_seconds == 1.0
    for table, kind in ((CAMERAS, "camera"), (SCREENS, "screen"), (BUZZERS, "buzzer")):
        options = keys(
            {"camera": CameraSettings, "screen": ScreenSettings, "buzzer": BuzzerSettings}[kind]
        )
        backend = options.get("backend") or options["type"]
        named = backend.check("no such backend")
        assert named and all(name in named for name in table), (kind, named)
