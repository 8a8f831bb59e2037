"""The fuzz suite's parts: a sandbox of good and bad files, random command lines for
every subcommand, mutated photos and mutated configuration files, and the one check
every case must pass.

The check: nothing escapes ``main`` (no traceback, nothing logged with one), the exit
code is 0, 1 or 2, a 2 comes with a sentence on stderr, and after a refusal the match
file and the match store are as they were.

``CUBEREF_FUZZ=large`` runs the sizes issue 22 asks for (20,000 command lines, 1,000
photos, 1,000 configurations); without it each test runs a few dozen cases.
``CUBEREF_FUZZ_SEED`` changes the seed of the random loops.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import random
import re
import signal
import sqlite3
import struct
import sys
import traceback
import zlib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from device.cli import UNEXPECTED, main
from device.commands.config import defaults_toml
from engine.games import GAMES

LARGE = os.environ.get("CUBEREF_FUZZ", "") == "large"
SEED = int(os.environ.get("CUBEREF_FUZZ_SEED", "2026"))
DEMO = Path(__file__).resolve().parents[1] / "device" / "data" / "demo"
ROLL = "M O N E Y S T E B U J O Q"
BOARDS = {
    4: "TNTB/GDAR/ELTE/SISH",
    5: "RONLI/CTSSD/NMPPN/UAEQuI/HINRM",
    6: "ABCDEF/GHIJKL/MNOPQR/STUVWX/YZAEIO/UTHEIN",
}
#: A sentence: words that end with a full stop (a quote or a bracket may follow).
SENTENCE = re.compile(r"^\S.* .*[.!?]['\")]*$")


# -- the sandbox ------------------------------------------------------------------------


class Sandbox:
    """A folder of files for the cases to name: good ones and every kind of bad one, a
    match file and a match store whose contents a refusal must leave alone."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.match = root / "club.json"
        self.store = root / "store"
        write = self._write
        self.texts = [
            write("ann.txt", b"dart\ntrash\nrated\n"),
            write("bob.txt", b"dart\n# a comment\n\ntread\n"),
            write("bom.txt", b"\xef\xbb\xbfdart\nstar\n"),
            write("latin.txt", "kočka\n".encode("iso8859_2")),
            write("nul.txt", b"dart\0\0"),
            write("empty.txt", b""),
            write("digits.txt", b"dart\nc4t\n"),
            write("long.txt", b"a" * 100_000 + b"\n"),
            write("crlf.txt", b"dart\r\ntrash\r\n"),
            write("grid.txt", b"S....\nT.B.J\nE.U.O\nMONEY\n"),
            write("badgrid.txt", b"MONEY\n....J\n"),
            write("cubes.txt", _cube_set()),
            write("badcubes.txt", b"A B C\n"),
            str(root / "missing.txt"),
            str(root),
            "/dev/zero",
            "/dev/null",
            "-",
            str(root / "no" / "such" / "folder.txt"),
        ]
        zero = root / "zero.txt"
        if not zero.exists():
            zero.symlink_to("/dev/zero")
        self.texts.append(str(zero))
        loop = root / "loop.txt"
        if not loop.is_symlink():
            loop.symlink_to(loop)
        self.texts.append(str(loop))
        self.photos = [
            str(DEMO / "boggle" / "1-roll.jpg"),
            str(DEMO / "adlib" / "1-roll.jpg"),
            str(DEMO / "adlib" / "2-crossword.jpg"),
            write("tiny.png", _encoded(np.zeros((1, 1, 3), np.uint8), ".png")),
            write("huge.png", huge_png(40_000, 40_000)),
            write("text.jpg", b"not a photo at all\n"),
            write("cut.jpg", (DEMO / "boggle" / "1-roll.jpg").read_bytes()[:5000]),
            *self.texts[:4],
            str(root / "missing.jpg"),
            str(root),
            "/dev/zero",
        ]
        self.folders = [str(root / "screens"), str(self.match), "/dev/null", str(root / "sub")]
        foreign = root / "foreign"
        foreign.mkdir(exist_ok=True)
        (foreign / "thesis.tex").write_text("years of work")
        self.outs = [str(self.match), "/dev/null", str(foreign), str(root / "ann.txt" / "x")]
        # Configurations that are refused or name the dummy screen: with none, `run`
        # waits 30 s for a display that this machine does not have.
        self.configs = [
            write("good.toml", base_config(self).encode()),
            write("bad.toml", b"game = 'chess'\n"),
            write("broken.toml", b"[button\npin = \n"),
            write("latin.toml", 'players = ["Tomáš"]\n'.encode("iso8859_2")),
            *(str(root / name) for name in ("missing.txt", "zero.txt", "loop.txt", "")),
            "/dev/zero",
        ]
        # club.toml files: an event whose broker's port is closed here (``club pair`` seats
        # a round and says the broker was not reached), and refused ones.
        event = b'event = "fuzz"\nplayers = ["Ann", "Ben", "Cy"]\nport = 9\nrounds = 100\n'
        self.clubs = [
            write("event.toml", event),
            write("badevent.toml", b'event = "a/b"\nplayers = []\n'),
            *self.configs[1:3],
            "/dev/zero",
            str(root / "missing.txt"),
        ]
        self.matches = [str(self.match), str(root / "new.json"), *self.texts[:6]]
        # Lexicons of a player's own that are damaged: one without its card, one of noise.
        own = root / "data" / "lexicons"
        own.mkdir(parents=True, exist_ok=True)
        (own / "cardless.dawg").write_bytes(b"CUBEDAWG" + bytes(64))
        (own / "noise.dawg").write_bytes(bytes(range(256)) * 4)
        (own / "noise.json").write_text('{"name": "noise"}')
        if not self.match.exists():  # a match of two rounds, for cases to add to or spoil
            two = ["score", "--game", "boggle", "--board", BOARDS[4], f"ann={self.texts[0]}"]
            with contextlib.redirect_stdout(io.StringIO()):
                for _ in range(2):
                    main([*two, f"bob={self.texts[1]}", "--match", str(self.match)])

    def _write(self, name: str, data: bytes) -> str:
        path = self.root / name
        if not path.exists():
            path.write_bytes(data)
        return str(path)

    def state(self) -> dict[str, object]:
        """What a refusal must not change: the match file's bytes, the store's rows."""
        found: dict[str, object] = {}
        if self.match.is_file():
            found["match"] = self.match.read_bytes()
        database = self.store / "matches.db"
        if database.is_file():
            with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
                found["store"] = list(db.iterdump())
        return found


def _cube_set() -> bytes:
    return (Path(__file__).resolve().parents[1] / "engine/data/cubes/boggle-1987.txt").read_bytes()


def base_config(sandbox: Sandbox) -> str:
    """Every default, with the store in the sandbox and a screen that needs no display, and
    two players named (names for the byte mutations to spoil)."""
    text = defaults_toml().replace("players = []", 'players = ["Player 1", "Player 2"]')
    text = text.replace('[store]\nfolder = ""', f'[store]\nfolder = "{sandbox.store}"')
    return text.replace('[screen]\nbackend = "auto"', '[screen]\nbackend = "dummy"')


# -- one case and its check --------------------------------------------------------------


@dataclass
class Outcome:
    argv: list[str]
    code: object
    out: str
    err: str
    failure: str | None = None


class _Tracebacks(logging.Handler):
    """Every log record that carries a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.records.append(record)


class TookTooLong(BaseException):
    """A case ran past its deadline: a hang is a failure as much as a traceback."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    def stop(_signum: int, _frame: object) -> None:
        raise TookTooLong(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_case(argv: list[str], sandbox: Sandbox, stdin: bytes = b"", seconds: float = 60) -> Outcome:
    """Run ``cuberef ARGV`` in this process and say what, if anything, went wrong."""
    before = sandbox.state()
    out, err = io.StringIO(), io.StringIO()
    handler = _Tracebacks()
    logging.getLogger().addHandler(handler)
    fake_stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    code: object = None
    escaped = None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            saved_stdin, sys.stdin = sys.stdin, fake_stdin
            try:
                with deadline(seconds):
                    code = main(argv)
            finally:
                sys.stdin = saved_stdin
    except BaseException:  # anything that escapes main is what the fuzz looks for
        escaped = traceback.format_exc()
    finally:
        logging.getLogger().removeHandler(handler)
    outcome = Outcome(argv, code, out.getvalue(), err.getvalue())
    outcome.failure = _failure(outcome, escaped, handler.records, before, sandbox.state())
    return outcome


def _failure(
    outcome: Outcome,
    escaped: str | None,
    logged: list[logging.LogRecord],
    before: dict[str, object],
    after: dict[str, object],
) -> str | None:
    if escaped:
        return "traceback: " + escaped.strip().splitlines()[-1] + "\n" + escaped
    if logged:
        record = logged[0]
        return "logged a traceback: " + "".join(traceback.format_exception(*record.exc_info))
    if "Traceback (most recent call last)" in outcome.err + outcome.out:
        return "printed a traceback"
    if UNEXPECTED in outcome.err:
        return "an unexpected failure: " + outcome.err
    if outcome.code not in (0, 1, 2):
        return f"exit code {outcome.code!r}"
    if outcome.code == 2:
        lines = [line for line in outcome.err.split("\n") if line.strip()]
        if not lines or not SENTENCE.match(lines[-1]):
            return f"exit 2 without a sentence on stderr: {outcome.err!r}"
        if before != after:
            return "a refusal changed the match file or the store"
    return None


@dataclass
class Tally:
    """What a fuzz run did: cases per subcommand, exit codes, failures."""

    name: str
    cases: Counter[str] = field(default_factory=Counter)
    codes: Counter[object] = field(default_factory=Counter)
    failures: list[Outcome] = field(default_factory=list)

    def add(self, outcome: Outcome, label: str) -> None:
        self.cases[label] += 1
        self.codes[outcome.code] += 1
        if outcome.failure:
            self.failures.append(outcome)

    def report(self) -> str:
        total = sum(self.cases.values())
        per = ", ".join(f"{name} {count}" for name, count in sorted(self.cases.items()))
        codes = ", ".join(
            f"exit {code}: {count}" for code, count in sorted(self.codes.items(), key=str)
        )
        lines = [f"{self.name}: {total} cases ({per}); {codes}; {len(self.failures)} failures"]
        for outcome in self.failures[:5]:
            lines.append(f"  cuberef {' '.join(map(repr, outcome.argv))}\n    {outcome.failure}")
        report = "\n".join(lines)
        if os.environ.get("CUBEREF_FUZZ_REPORT"):
            with open(os.environ["CUBEREF_FUZZ_REPORT"], "a", encoding="utf-8") as file:
                file.write(report + "\n")
        return report


# -- command lines ----------------------------------------------------------------------

GAME_IDS = list(GAMES)
#: Numbers no option takes, then numbers of every kind.
# fmt: off
REFUSED = ["", " ", "-1", "99999999999999999999", "1e3", "inf", "-inf", "nan", "x", "0x10",
           "1e9", "-0.5", "1,5"]
NUMBERS = ["0", "1", "2", "3", "5", "25", "26", "100", "1000", "1.5", "٣", "-0", "+4", "1_000",
           *REFUSED]
# fmt: on
WORDS = [
    "dart",
    "trash",
    "zeal",
    "Qua",
    "kočka",
    "DART",
    "c4t",
    "",
    " ",
    "don't",
    "a" * 300,
    "ice cream",
    "\u200b",
    "dárt",
    "-",
    "--",
    "x" * 5,
]


class CommandLines:
    """Random command lines for each subcommand, from its options and values of every
    kind: right, wrong, empty, out of range, files that are not what they should be."""

    def __init__(self, sandbox: Sandbox, rng: random.Random) -> None:
        self.box = sandbox
        self.rng = rng

    def pick(self, options: list[str]) -> str:
        return self.rng.choice(options)

    def game(self, trays: bool | None = None) -> str:
        games = [g.id for g in GAMES.values() if trays is None or g.is_tray == trays]
        if self.rng.random() < 0.85:
            return self.pick(games)
        return self.pick(["chess", "", "BOGGLE", " boggle ", "adlib", "big_boggle", "ž"])

    def board(self) -> str:
        if self.rng.random() < 0.6:
            return self.pick(list(BOARDS.values()))
        garbage = [
            "",
            "/",
            "////",
            "TNTB/GDAR/ELTE",
            "t n t b/g d a r/e l t e/s i s h",
            "ŽNTB/GDAR/ELTE/SISH",
            "TNTB/GDAR/ELTE/SIS1",
            "##########",
            "Q" * 36,
            "QuQuQuQu/QuQuQuQu/QuQuQuQu/QuQuQuQu",
            "A" * 1000,
            "TNTBGDARELTESISH",
        ]
        return self.pick(garbage)

    def rolled(self, game: str) -> str:
        """A roll of the game's own cubes: a board for a tray, faces for Ad-Lib."""
        faces = GAMES[game].cube_set().roll(self.rng)
        size = GAMES[game].size
        if not size:
            return " ".join(map(str, faces))
        return "/".join("".join(map(str, faces[r * size : (r + 1) * size])) for r in range(size))

    def roll(self) -> str:
        if self.rng.random() < 0.5:
            return self.rolled("adlib")
        options = [
            ROLL,
            "A T",
            "* * *",
            "U O N T W V I G F E E A R * *",
            "",
            "A B C",
            ROLL + " Z",
            "m o n e y s t e b u j o q",
            "Q U",
            "1 2 3",
            "_ # *",
            "Ž",
        ]
        return self.pick(options)

    def number(self, good: list[str], others: list[str] = NUMBERS) -> str:
        return self.pick(good) if self.rng.random() < 0.6 else self.pick(others)

    def text_file(self) -> str:
        """Half the time a good word list, else any file at all."""
        good = self.box.texts[:3] + self.box.texts[8:9]
        return self.pick(good if self.rng.random() < 0.5 else self.box.texts)

    def lists(self) -> list[str]:
        specs = []
        for _ in range(self.rng.randrange(1, 4) if self.rng.random() < 0.9 else 0):
            name = self.pick(["ann", "bob", "cy", "ann", "bob", "", " ", "a=b", "žofie"])
            specs.append(f"{name}={self.text_file()}")
        if self.rng.random() < 0.1:
            specs.append(self.pick(["noequals", "=", "ann=", "=x.txt"]))
        return specs

    def maybe(self, probability: float, *words: str) -> list[str]:
        return list(words) if self.rng.random() < probability else []

    def tray(self, trays: bool | None = True) -> list[str]:
        game = self.game(trays)
        argv = ["--game", game] if self.rng.random() < 0.95 else []
        rolled = game in GAMES and GAMES[game].is_tray and self.rng.random() < 0.75
        argv += self.maybe(0.9, "--board", self.rolled(game) if rolled else self.board())
        argv += self.maybe(
            0.15,
            "--dice",
            self.pick(
                [
                    "new",
                    "old",
                    "1979",
                    "master",
                    "x",
                    *self.box.texts[:13:3],
                    str(self.box.root / "zero.txt"),
                ]
            ),
        )
        argv += self.maybe(
            0.1,
            "--lexicon",
            self.pick(["en", "cs", "nosuch", "../x", "", "mine", "cardless", "noise"]),
        )
        argv += self.maybe(0.3, "--json")
        return argv

    # One method per subcommand ----------------------------------------------------------

    def solve(self) -> list[str]:
        return [*self.maybe(0.05, self.pick(self.box.photos)), *self.tray()]

    def check(self) -> list[str]:
        words = [self.pick(WORDS) for _ in range(self.rng.randrange(0, 4))]
        length = self.maybe(0.2, "--min-length", self.number(["3", "4"]))
        return [*self.tray(), *length, "--", *words] if words else [*self.tray(), *length]

    def score(self) -> list[str]:
        if self.rng.random() < 0.3:
            grid = self.rng.random() < 0.5
            roll = ROLL if grid else self.roll()
            argv = ["--game", self.game(False), *self.maybe(0.9, "--roll", roll)]
            argv += self.maybe(0.9, "--grid", self.box.texts[9] if grid else self.text_file())
            argv += self.maybe(0.3, "--json")
        else:
            argv = [*self.tray(trays=None), *self.lists()]
        argv += self.maybe(0.03, self.pick(self.box.photos))
        argv += self.maybe(0.1, "--min-length", self.number(["3", "4"]))
        argv += self.maybe(
            0.1, "--challenge", self.pick(["2,3", "1,1", "0,0", "9,9", "x", "1,2,3"])
        )
        argv += self.maybe(0.1, "--challenge-bonus", self.number(["5", "0"]))
        argv += self.maybe(0.1, "--handicap", self.pick(["ann", "zed", ""]))
        argv += self.maybe(0.1, "--team", self.pick(["red=ann,bob", "red=", "=ann", "blue=zed"]))
        argv += self.maybe(0.1, "--advanced")
        argv += self.maybe(0.25, "--match", self.pick(self.box.matches))
        argv += self.maybe(0.1, "--rounds", self.number(["3"]))
        argv += self.maybe(0.1, "--target", self.number(["50"]))
        return argv

    def best(self) -> list[str]:
        argv = ["--game", self.game(False), "--roll", self.roll()]
        # A valid time is kept short: the search's own tests give it longer.
        too_long = ["inf", "nan", "-1", "0", "3601", "1e9", "", "x", "0.05"]
        argv += ["--seconds", self.number(["0.1", "0.2", "0.1"], too_long)]
        argv += self.maybe(0.4, "--workers", self.number(["1", "2", "5"], [*REFUSED, "0", "257"]))
        return argv + self.maybe(0.3, "--json")

    def roll_(self) -> list[str]:
        argv = ["--game", self.game()]
        argv += self.maybe(0.5, "--seed", self.number(["7", "0", "123456789"]))
        argv += self.maybe(0.2, "--dice", self.pick(["new", "old", "x", *self.box.texts[:13:3]]))
        return argv + self.maybe(0.3, "--json")

    def read(self) -> list[str]:
        argv = [self.pick(self.box.photos), "--game", self.game()]
        argv += self.maybe(
            0.2,
            "--annotate",
            self.pick(
                [
                    str(self.box.root / "out.png"),
                    str(self.box.root / "out.txt"),
                    str(self.box.root),
                    str(self.box.root / "no" / "out.png"),
                    "/dev/null",
                ]
            ),
        )
        return argv + self.maybe(0.3, "--json") + self.maybe(0.2, "--upright")

    def watch(self) -> list[str]:
        # A folder, a photo or a video as the source, or the camera: always a few frames,
        # since a camera (a folder camera too) streams until it is stopped.
        sources = [*self.box.photos, str(self.box.root), *self.box.folders, str(DEMO / "adlib")]
        argv = self.maybe(0.8, self.pick(sources)) + ["--game", self.game(trays=None)]
        argv += self.maybe(0.3, "--roll", self.roll())
        argv += self.maybe(0.3, "--config", self.pick(self.box.configs))
        argv += ["--frames", self.number(["1", "2", "3"])]
        return argv + self.maybe(0.5, "--json")

    def lexicon(self) -> list[str]:
        action = self.pick(["list", "dump", "build", "build", "nosuch"])
        if action == "list":
            return ["list", *self.maybe(0.5, "--json")]
        if action == "dump":
            return [
                "dump",
                self.pick(["en", "nosuch", "", "../etc", "mine", "cardless", "noise"]),
                *self.maybe(0.3, "--json"),
            ]
        if action == "build":
            # Always with --from: a bare build rebuilds the bundled lexicons.
            argv = ["build", "--from", self.text_file()]
            argv += self.maybe(
                0.9, "--name", self.pick(["mine", "en", "../x", "", "Mine", "a" * 50])
            )
            argv += self.maybe(0.3, "--language", self.pick(["en", "cs", "de"]))
            return argv + self.maybe(0.3, "--json")
        return [action]

    def run(self) -> list[str]:
        argv = ["--config", self.pick(self.box.configs)]
        argv += self.maybe(0.8, "--simulate")
        argv += self.maybe(0.2, "--screens", self.pick(self.box.folders))
        return argv + self.maybe(0.2, "--photos", self.pick([str(self.box.root), "/dev/null"]))

    def config(self) -> list[str]:
        argv = self.maybe(0.8, "--check") + self.maybe(0.1, "--defaults")
        return argv + self.maybe(0.9, "--config", self.pick(self.box.configs))

    def doctor(self) -> list[str]:
        return ["--config", self.pick(self.box.configs)]

    def history(self) -> list[str]:
        since = self.pick(["2026-12-04", "2026-13-01", "yesterday", "", "2026-2-30", "ž"])
        shown = self.pick([[], ["--json"], ["--csv"], ["--json", "--csv"]])
        return self.maybe(0.5, "--config", self.pick(self.box.configs)) + [
            *self.maybe(0.6, "--since", since),
            *shown,
        ]

    def club(self) -> list[str]:
        # Never ``serve``: it runs until stopped (the club tests start it).
        action = self.pick(["tables", "pair", "standings"])
        argv = [action, *self.maybe(0.9, "--config", self.pick(self.box.clubs))]
        if action == "tables":
            argv.append(self.pick(["2", "0", "-1", "x", "501", "1e3"]))
            return argv + self.maybe(0.5, "--no-qr")
        if action == "pair":
            return argv + self.maybe(0.5, "--force") + self.maybe(0.3, "--json")
        return argv + self.pick([[], ["--json"], ["--csv"], ["--json", "--csv"]])

    def demo(self) -> list[str]:
        # Only folders the demo must refuse: a whole demo is the demo test's job.
        argv = ["--out", self.pick(self.box.outs)]
        return (
            argv
            + self.maybe(0.2, "--game", self.pick(["boggle", "chess"]))
            + self.maybe(0.2, "--json")
        )

    def bench(self) -> list[str]:
        # Only counts it must refuse: a whole bench takes seconds.
        return ["--runs", self.pick(["0", "1", "2", "-5", "x", "1e9", "inf", "1001"])]

    def command_line(self, command: str) -> list[str]:
        argv = getattr(self, "roll_" if command == "roll" else command)()
        if self.rng.random() < 0.05:
            argv.insert(
                self.rng.randrange(len(argv) + 1),
                self.pick(["--nosuch", "-x", "--json=1", "--game", "\x00", "ž", "--", "-"]),
            )
        if self.rng.random() < 0.05 and argv:
            del argv[self.rng.randrange(len(argv))]
        return [command, *argv]


def stdin_for(argv: list[str]) -> bytes:
    return b"S....\nT.B.J\nE.U.O\nMONEY\n" if "-" in argv else b""


# -- photos -----------------------------------------------------------------------------


def _encoded(image: np.ndarray, suffix: str, *params: int) -> bytes:
    ok, data = cv2.imencode(suffix, image, list(params))
    assert ok
    return data.tobytes()


def huge_png(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` and whose data is a few bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 64))
        + chunk(b"IEND", b"")
    )


def _claims(data: bytes, rng: random.Random) -> bytes:
    """A JPEG whose frame header claims other dimensions than its data holds."""
    marker = data.find(b"\xff\xc0")
    if marker < 0:
        return data
    size = struct.pack(">HH", rng.choice([0, 1, 65535]), rng.choice([0, 1, 65535]))
    return data[: marker + 5] + size + data[marker + 9 :]


PHOTO_MUTATIONS: dict[str, Callable[[bytes, np.ndarray, random.Random], bytes]] = {
    "truncated": lambda data, image, rng: data[: rng.randrange(len(data))],
    "bit-flipped": lambda data, image, rng: _flip(data, rng, rng.choice([1, 10, 100, 1000])),
    "resized": lambda data, image, rng: _encoded(
        cv2.resize(image, (rng.randrange(1, 3000), rng.randrange(1, 3000))), ".jpg"
    ),
    "noise": lambda data, image, rng: _encoded(
        np.clip(
            image.astype(np.int16)
            + np.random.default_rng(rng.randrange(2**32)).normal(
                0, rng.choice([5, 40, 120]), image.shape
            ),
            0,
            255,
        ).astype(np.uint8),
        ".png",
    ),
    "tiny": lambda data, image, rng: _encoded(
        cv2.resize(image, (rng.randrange(1, 17), rng.randrange(1, 17))),
        rng.choice([".png", ".jpg"]),
    ),
    "huge dimensions": lambda data, image, rng: rng.choice(
        [
            huge_png(rng.choice([20_000, 65_535, 2**31 - 1]), rng.choice([1, 20_000, 65_535])),
            _claims(data, rng),
        ]
    ),
    "grey": lambda data, image, rng: _encoded(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), ".png"),
    "alpha, 16 bits": lambda data, image, rng: _encoded(
        cv2.cvtColor(image, cv2.COLOR_BGR2BGRA).astype(np.uint16) * 257, ".png"
    ),
    "blank": lambda data, image, rng: _encoded(
        np.full((rng.randrange(1, 1200), rng.randrange(1, 1200), 3), rng.randrange(256), np.uint8),
        ".png",
    ),
    "cropped": lambda data, image, rng: _encoded(_crop(image, rng), ".jpg"),
    "scrambled": lambda data, image, rng: bytes(
        rng.randrange(256) for _ in range(rng.randrange(1, 4000))
    ),
}


def _flip(data: bytes, rng: random.Random, flips: int) -> bytes:
    mutable = bytearray(data)
    for _ in range(flips):
        mutable[rng.randrange(len(mutable))] ^= 1 << rng.randrange(8)
    return bytes(mutable)


def _crop(image: np.ndarray, rng: random.Random) -> np.ndarray:
    height, width = image.shape[:2]
    top, left = rng.randrange(height), rng.randrange(width)
    return image[
        top : rng.randrange(top + 1, height + 1), left : rng.randrange(left + 1, width + 1)
    ]


def mutated_photos(
    sandbox: Sandbox, rng: random.Random, count: int
) -> Iterator[tuple[str, list[str]]]:
    """(the mutation, a command line that reads the mutated photo), ``count`` of them."""
    sources = [
        DEMO / "boggle" / "1-roll.jpg",
        DEMO / "adlib" / "1-roll.jpg",
        DEMO / "adlib" / "2-crossword.jpg",
    ]
    originals = [(path.read_bytes(), cv2.imread(str(path))) for path in sources]
    names = list(PHOTO_MUTATIONS)
    for number in range(count):
        kind = names[number % len(names)]
        data, image = rng.choice(originals)
        path = sandbox.root / f"photo-{number % 50}{rng.choice(['.jpg', '.png', '.bmp', ''])}"
        path.write_bytes(PHOTO_MUTATIONS[kind](data, image, rng))
        command = rng.choice(["read", "read", "solve", "score"])
        if command == "read":
            argv = [
                "read",
                str(path),
                "--game",
                rng.choice(GAME_IDS),
                *(["--json"] if rng.random() < 0.5 else []),
            ]
            if rng.random() < 0.2:
                argv += ["--annotate", str(sandbox.root / "annotated.png")]
        elif command == "solve":
            argv = [
                "solve",
                str(path),
                "--game",
                rng.choice([g for g in GAME_IDS if GAMES[g].is_tray]),
            ]
        else:
            argv = ["score", str(path), "--game", rng.choice(["adlib", "scribbage"])]
        yield kind, argv


# -- configuration files ----------------------------------------------------------------

VALUES = [
    "0",
    "-1",
    "17",
    "2",
    "99999999999999999999",
    "1.5",
    "nan",
    "inf",
    "-inf",
    "1e308",
    "true",
    "false",
    '""',
    '"boggle"',
    '"nosuch"',
    '"adlib"',
    '"dummy"',
    '"folder"',
    '"gpio"',
    '"keys"',
    '"passive"',
    '"print"',
    '"cs"',
    '"en"',
    '"xq"',
    '"/dev/zero"',
    '"/dev/null"',
    '"ž" ',
    '"a\\u0000b"',
    "[]",
    '["a", "b"]',
    '[1, "a"]',
    "[[]]",
    "{}",
    "{a = 1}",
    "1979-05-27T07:32:00Z",
    "07:32:00",
    '"c4 e4 g4"',
    '"x" "y"',
    "",
    "=",
    '"' + "a" * 5000 + '"',
]
LINES = [
    "[button",
    "x = ",
    "= 1",
    "[[button]]",
    "a.b.c = 1",
    '"key with space" = 1',
    "[screen.extra]",
    "[nosuch]",
    "game.x = 1",
    "[button]",
    "[]",
    "\\",
    "#",
    "[store]",
]


def mutated_config(base: str, rng: random.Random) -> tuple[str, bytes]:
    """(the mutation, the file's bytes): one to three changes to a good configuration."""
    lines = base.splitlines()
    kinds = []
    for _ in range(rng.randrange(1, 4)):
        kind = rng.choice(["value", "value", "value", "delete", "duplicate", "insert", "swap"])
        kinds.append(kind)
        at = rng.randrange(len(lines))
        if kind == "value":
            settings = [
                i for i, line in enumerate(lines) if " = " in line and "[store]" not in lines[i - 1]
            ]
            at = rng.choice(settings)
            lines[at] = lines[at].split(" = ")[0] + " = " + rng.choice(VALUES)
        elif kind == "delete":
            del lines[at]
        elif kind == "duplicate":
            lines.insert(at, lines[at])
        elif kind == "insert":
            lines.insert(at, rng.choice(LINES))
        else:
            other = rng.randrange(len(lines))
            lines[at], lines[other] = lines[other], lines[at]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    if rng.random() < 0.2:
        kinds.append(
            byte_kind := rng.choice(["flip", "truncate", "nul", "bom", "latin-1", "utf-16"])
        )
        data = {
            "flip": lambda: _flip(data, rng, rng.choice([1, 5, 50])),
            "truncate": lambda: data[: rng.randrange(len(data))],
            "nul": lambda: data.replace(b"\n", b"\n\0", 1),
            "bom": lambda: b"\xef\xbb\xbf" + data,
            "latin-1": lambda: data.replace(b'"Player 1"', '"Tomáš"'.encode("iso8859_2")),
            "utf-16": lambda: data.decode("utf-8", "replace").encode("utf-16"),
        }[byte_kind]()
    return "+".join(kinds), data
