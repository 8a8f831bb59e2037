"""The ``cuberef`` command: one subcommand a module in ``device.commands``.

Each command module has ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Errors a player can cause become one sentence on stderr and
exit code 2; failures of the machine exit 1. No traceback reaches the player.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

from engine.errors import CuberefError, MachineError

#: Subcommand name -> module, in the order ``cuberef --help`` lists them.
COMMANDS: dict[str, str] = {
    "solve": "device.commands.solve",
    "check": "device.commands.check",
    "score": "device.commands.score",
    "best": "device.commands.best",
    "roll": "device.commands.roll",
    "read": "device.commands.read",
    "lexicon": "device.commands.lexicon",
    "run": "device.commands.run",
    "config": "device.commands.config",
    "doctor": "device.commands.doctor",
    "demo": "device.commands.demo",
    "bench": "device.commands.bench",
}

log = logging.getLogger("cuberef")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cuberef",
        description="A referee box for letter-cube word games: Boggle, Big Boggle, "
        "Super Big Boggle, Czech Boggle, Ad-Lib and Scribbage.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in COMMANDS.items():
        module = importlib.import_module(module_name)
        sub = commands.add_parser(name, help=module.HELP, description=module.__doc__)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        code: int = args.run(args)
    except CuberefError as error:
        print(f"cuberef: {error}", file=sys.stderr)
        return 2
    except MachineError as error:
        print(f"cuberef: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("cuberef: stopped.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
