"""Check the box's configuration file: every wrong key or value, one sentence each.

Without ``--config`` the file is ``$CUBEREF_CONFIG`` or ``/etc/cuberef/config.toml``
(what the service reads). ``--check`` names each problem on stderr (exit code 2) or
says that every setting is right, and names on stderr what is right but worth a word (a
warning: Ad-Lib partners with an odd number of players); with ``--json`` it also prints
``{"path", "ok", "problems": [sentences], "warnings": [sentences]}``. ``--defaults``
prints every setting with its default as TOML; ``--get NAME`` (``game``,
``screen.rotation``) one setting as the box will use it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from device.config import settings
from device.config.sections import keys, sections
from device.config.service import config_path
from engine.errors import CuberefError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--check", action="store_true", help="name every wrong key or value")
    parser.add_argument("--config", metavar="FILE", help="the TOML file (default: the service's)")
    parser.add_argument("--defaults", action="store_true", help="print every setting's default")
    parser.add_argument("--get", metavar="NAME", help="one setting, as SECTION.KEY or KEY")
    parser.add_argument("--json", action="store_true", help="--check's verdict as JSON")


def run(args: argparse.Namespace) -> int:
    if args.defaults:
        print(defaults_toml(), end="")
        return 0
    path = config_path(args.config)
    if args.get:
        print(_toml(setting(settings.load(path), args.get)))
        return 0
    if not args.check:
        raise CuberefError("Say what to do: cuberef config --check, --get NAME or --defaults.")
    document = settings.read_file(path)
    found, advice = settings.problems(document), settings.warnings(document)
    for sentence in found:
        print(f"{path}: {sentence}", file=sys.stderr)
    for sentence in advice:  # right, but worth a word: not a problem
        print(f"{path}: warning: {sentence}", file=sys.stderr)
    if args.json:
        from device.commands.output import emit_json

        emit_json({"path": path, "ok": not found, "problems": found, "warnings": advice})
    elif not found:
        print(f"{path}: every setting is right.")
    return 2 if found else 0


def setting(chosen: settings.Settings, name: str) -> Any:
    """The setting ``name`` (``section.key`` or a top-level key) of loaded settings."""

    section, dot, key = name.rpartition(".")
    kinds = dict(sections())
    kind = kinds.get(section) if dot else settings.Settings
    known = keys(kind) if kind is not None else {}
    if key not in known:
        raise CuberefError(
            f"There is no setting {name!r}; cuberef config --defaults lists every one."
        )
    place = getattr(chosen, section) if dot else chosen
    return getattr(place, known[key].field)


def defaults_toml() -> str:

    lines = [f"{name} = {_toml(key.default)}" for name, key in keys(settings.Settings).items()]
    for section, kind in sections():
        lines += ["", f"[{section}]"]
        lines += [f"{name} = {_toml(key.default)}" for name, key in keys(kind).items()]
    return "\n".join(lines) + "\n"


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return repr(value)
