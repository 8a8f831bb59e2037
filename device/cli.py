"""The ``cuberef`` command: one subcommand a module in ``device.commands``.

Each command module has ``add_arguments(parser)`` and ``run(args) -> int``; its
docstring is the description its ``--help`` shows. A command's module is imported only
when that command is given, and imports what it needs only when it runs, so that
``cuberef --help`` and ``cuberef solve`` load none of numpy, OpenCV, pygame or
onnxruntime. Errors a player can cause become one sentence on stderr and exit code 2;
failures of the machine exit 1. No traceback reaches the player.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import signal
import sys
import textwrap
from collections.abc import Iterable, Sequence
from typing import NoReturn

from device.base import logs, stopping
from engine.errors import CuberefError, MachineError

#: Subcommand -> (its module, its line in ``cuberef --help``), in the order listed there.
COMMANDS: dict[str, tuple[str, str]] = {
    "solve": ("device.commands.solve", "all words on a tray, with points and the maximum score"),
    "check": ("device.commands.check", "is each word valid on a tray, and why not"),
    "score": (
        "device.commands.score",
        "score a round: players' word lists on a tray, or an Ad-Lib crossword",
    ),
    "best": ("device.commands.best", "the best crossword for an Ad-Lib or Scribbage roll"),
    "roll": ("device.commands.roll", "a virtual roll of a game's cubes"),
    "read": ("device.commands.read", "what the camera sees: read the cubes in a photo"),
    "watch": (
        "device.commands.watch",
        "read an Ad-Lib table live as the crossword is built: camera, frames or video",
    ),
    "lexicon": ("device.commands.lexicon", "list, dump or build the lexicons"),
    "run": ("device.commands.run", "run the referee box"),
    "config": (
        "device.commands.config",
        "check the configuration file (--check) or print the defaults",
    ),
    "doctor": ("device.commands.doctor", "check camera, pins, screen, model and lexicons"),
    "history": (
        "device.commands.history",
        "read the evening back: every stored match, its rounds and words, the standings",
    ),
    "club": (
        "device.commands.club",
        "a club's tables as one event: credentials, pairings, standings, the scoreboard",
    ),
    "demo": (
        "device.commands.demo",
        "two Boggle matches on two phones and an Ad-Lib match, on built-in defaults",
    ),
    "bench": ("device.commands.bench", "speed figures of this machine"),
}

log = logging.getLogger("cuberef")

#: What the player reads when cuberef itself fails; the fuzz suite looks for it.
UNEXPECTED = "something went wrong inside cuberef"


class Parser(argparse.ArgumentParser):
    """argparse with its refusals as one sentence (and where to look) on stderr, exit 2."""

    def error(self, message: str) -> NoReturn:
        sentence = printable(message[:1].upper() + message[1:].rstrip("."))
        self.exit(2, f"{self.prog}: {sentence}; see '{self.prog} --help'.\n")


class PlainHelp(argparse.RawDescriptionHelpFormatter):
    """Descriptions keep their paragraphs, names are not split at their hyphens, and the
    docstrings' ``code`` marks are dropped."""

    def _format_text(self, text: str) -> str:
        return super()._format_text(plain(text))

    def _expand_help(self, action: argparse.Action) -> str:
        return plain(super()._expand_help(action))

    def _split_lines(self, text: str, width: int) -> list[str]:
        # Whole words only: "big-boggle" is a name, not two halves to wrap.
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


def printable(text: str) -> str:
    """A message on one line: what a player typed may hold a newline or a control
    character, shown escaped.

    >>> printable("no game called 'x\\ny'")
    "no game called 'x\\\\ny'"
    """
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)


def plain(text: str) -> str:
    """Docstring text as a terminal shows it.

    >>> plain("``cuberef score --match``: a *match* file")
    'cuberef score --match: a *match* file'
    """
    return text.replace("``", "")


class ShowVersion(argparse.Action):
    """``--version``: the installed package's version (read only when asked for)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print cuberef's version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_args: object) -> NoReturn:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("cuberef")
        except PackageNotFoundError:
            number = "(not installed)"
        print(f"cuberef {number}")
        parser.exit(0)


def build_parser(commands: Iterable[str] = COMMANDS) -> Parser:
    """The command line; the options of ``commands`` only (the rest are listed in
    ``--help`` but their modules are not imported)."""
    wanted = set(commands)
    parser = Parser(
        prog="cuberef",
        description="A referee box for letter-cube word games: Boggle, Big Boggle, "
        "Super Big Boggle, Czech Boggle, Ad-Lib and Scribbage.",
        epilog="Each command's own options: cuberef COMMAND --help.",
        formatter_class=PlainHelp,
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    parser.add_argument("--version", action=ShowVersion)
    subcommands = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=Parser
    )
    for name, (module_name, summary) in COMMANDS.items():
        sub = subcommands.add_parser(name, help=summary, formatter_class=PlainHelp)
        if name in wanted:
            module = importlib.import_module(module_name)
            sub.description = module.__doc__
            module.add_arguments(sub)
            sub.set_defaults(run=module.run)
    return parser


def chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv``: its first word that is not an option (the
    options before it take no values).

    >>> chosen_command(["-v", "solve", "--game", "boggle"]), chosen_command(["--help"])
    ('solve', None)
    """
    return next((word for word in argv if not word.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    program = argv is None  # the process itself, not a caller in Python
    try:
        if program:  # from here each command unwinds a stop, closing what it opened
            stopping.answer_signals()
        return command(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        return stopped(signal.SIGINT, program)
    except stopping.Stopped:
        return stopped(signal.SIGTERM, program)
    except BaseException:
        signum = stopping.received()  # a stop Python made into another exception
        if signum is None:
            raise
        return stopped(signum, program)


def stopped(signum: signal.Signals, program: bool) -> int:
    """A command stopped by Ctrl-C or SIGTERM: its sentence, and its exit code; the
    process itself then ends (``device.base.stopping.end``)."""
    if program:  # said once: no second Ctrl-C interrupts the way out
        stopping.hold()
    sentence, code = stopping.SAID[signum]
    print(sentence, file=sys.stderr)
    if program:
        stopping.end(code)
    return code


def command(argv: list[str]) -> int:
    """The command ``argv`` names, run: its exit code, or the sentence for what failed."""
    if any("\0" in word for word in argv):  # no shell passes one; a caller in Python may
        print("cuberef: An argument holds a NUL character; remove it.", file=sys.stderr)
        return 2
    parser = build_parser(command for command in [chosen_command(argv)] if command in COMMANDS)
    try:
        args, rest = parser.parse_known_args(argv)
        # argparse fills a positional list once: ``score PHOTO --game boggle a=a.txt``
        # leaves ``a=a.txt`` over. A command that names its list in ``more`` takes it.
        more = getattr(args, "more", None)
        if rest and (more is None or any(word.startswith("-") for word in rest)):
            parser.error("unrecognized arguments: " + " ".join(rest))
        if rest and more is not None:
            getattr(args, more).extend(rest)
    except SystemExit as stop:  # --help, --version, or a refusal already said
        return stop.code if isinstance(stop.code, int) else 0
    logs.set_up(args.verbose)
    try:
        code: int = args.run(args)
    except Exception as error:
        if stopping.received() is not None:
            raise  # a stop, whatever Python or a library made of it: main says so
        return failure(error)
    return code


def failure(error: Exception) -> int:
    """What failed, in one sentence: the player's (2), the machine's (1), or a bug (1)."""
    if isinstance(error, BrokenPipeError):
        return 0
    if isinstance(error, CuberefError | MachineError):
        print(f"{logs.prefix(logging.ERROR)}cuberef: {printable(str(error))}", file=sys.stderr)
        return 2 if isinstance(error, CuberefError) else 1
    log.info("where it went wrong:", exc_info=True)  # a bug: the trace on -v
    print(
        f"{logs.prefix(logging.CRITICAL)}cuberef: {UNEXPECTED} "
        f"({type(error).__name__}: {printable(str(error))}); "
        "run it again with -v to see where, and report it.",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
