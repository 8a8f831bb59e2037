"""Check the box's configuration file: every wrong key or value, one sentence each.

Without ``--config`` the file is ``$CUBEREF_CONFIG`` or ``/etc/cuberef/config.toml``
(what the service reads); with ``--defaults`` the defaults are printed as TOML."""

from __future__ import annotations

import argparse
import os

from device import settings
from engine.errors import CuberefError

DEFAULT_PATH = "/etc/cuberef/config.toml"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--check", action="store_true", help="name every wrong key or value")
    parser.add_argument("--config", metavar="FILE", help="the TOML file (default: the service's)")
    parser.add_argument("--defaults", action="store_true", help="print every setting's default")


def config_path(given: str | None) -> str:
    return given or os.environ.get("CUBEREF_CONFIG") or DEFAULT_PATH


def run(args: argparse.Namespace) -> int:
    if args.defaults:
        print(defaults_toml(), end="")
        return 0
    if not args.check:
        raise CuberefError("Say what to do: cuberef config --check, or --defaults.")
    path = config_path(args.config)
    found = settings.problems(settings.read_file(path))
    if found:
        for sentence in found:
            print(f"{path}: {sentence}")
        return 2
    print(f"{path}: every setting is right.")
    return 0


def defaults_toml() -> str:
    lines = [f"{name} = {_toml(key.default)}" for name, key in settings.TOP.items()]
    for section, keys in settings.SECTIONS.items():
        lines += ["", f"[{section}]"]
        lines += [f"{name} = {_toml(key.default)}" for name, key in keys.items()]
    return "\n".join(lines) + "\n"


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return repr(value)
