"""The fuzz suite (issue 22): random and hypothesis-made command lines over every
subcommand, mutated photos and mutated configuration files. Each case must end with
exit code 0, 1 or 2, no traceback, a sentence on stderr with every 2, and the match
file and store untouched by a refusal (see tests/fuzzing.py).

Small in ``make test``; ``CUBEREF_FUZZ=large python -m pytest tests/test_fuzz.py -s``
runs issue 22's sizes and prints the tallies.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fuzzing import (
    LARGE,
    SEED,
    CommandLines,
    Sandbox,
    Tally,
    base_config,
    mutated_config,
    mutated_photos,
    run_case,
    stdin_for,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.cli import COMMANDS

#: Cases per subcommand in each round of the seeded loop: the quick ones more often.
WEIGHTS = {
    "solve": 4,
    "check": 4,
    "score": 6,
    "best": 1,
    "roll": 3,
    "read": 1,
    "watch": 1,
    "lexicon": 2,
    "run": 1,
    "config": 3,
    "doctor": 1,
    "history": 1,
    "club": 2,
    "demo": 2,
    "bench": 2,
}
COMMAND_LINES = 21_000 if LARGE else 150
HYPOTHESIS_EXAMPLES = 3_000 if LARGE else 40
PHOTOS = 1_000 if LARGE else 6
CONFIGURATIONS = 1_000 if LARGE else 20


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    root = tmp_path_factory.mktemp("fuzz")
    patch = pytest.MonkeyPatch()
    patch.chdir(root)  # a relative path a case names lands in the sandbox
    patch.setenv("CUBEREF_DATA", str(root / "data"))
    patch.setenv("XDG_STATE_HOME", str(root / "state"))
    patch.setenv("SDL_VIDEODRIVER", "dummy")
    patch.setenv("SDL_AUDIODRIVER", "dummy")
    box = Sandbox(root)
    patch.setenv("CUBEREF_CONFIG", box.configs[0])
    # The box's loop waits for the button for ever: here it takes one step and returns.
    from device.box.box import Box

    patch.setattr(Box, "run", lambda self, sleep, frame_seconds=0.02: self.step())
    # A bare `lexicon build` rebuilds the bundled lexicons: the command lines never ask
    # for one, and this makes sure.
    from device.commands import lexicon

    def refuse(*_args: object) -> int:
        raise AssertionError("the fuzz must not rebuild the bundled lexicons")

    patch.setattr(lexicon, "_build_bundled", refuse)
    yield box
    patch.undo()


def check(tally: Tally) -> None:
    print("\n" + tally.report())
    assert not tally.failures, tally.report()


def test_random_command_lines_over_every_subcommand(sandbox: Sandbox) -> None:
    rng = random.Random(SEED)
    lines = CommandLines(sandbox, rng)
    rota = [name for name, weight in WEIGHTS.items() for _ in range(weight)]
    assert set(rota) == set(COMMANDS)
    tally = Tally("random command lines")
    for number in range(COMMAND_LINES):
        command = rota[number % len(rota)]
        argv = lines.command_line(command)
        tally.add(run_case(argv, sandbox, stdin_for(argv)), command)
    assert set(tally.cases) == set(COMMANDS)
    check(tally)


TOKENS = [
    "--game",
    "--board",
    "--json",
    "--dice",
    "--lexicon",
    "--min-length",
    "--seconds",
    "--workers",
    "--roll",
    "--grid",
    "--match",
    "--seed",
    "--config",
    "--check",
    "--since",
    "--csv",
    "--out",
    "--runs",
    "--annotate",
    "--from",
    "--name",
    "list",
    "dump",
    "build",
    "boggle",
    "adlib",
    "big-boggle",
    "TNTB/GDAR/ELTE/SISH",
    "M O N E Y S T E B U J O Q",
    "ann=-",
    "-1",
    "0",
    "inf",
    "-",
    "--help",
]


@settings(
    max_examples=HYPOTHESIS_EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(
    command=st.sampled_from(list(COMMANDS)),
    rest=st.lists(st.sampled_from(TOKENS) | st.text(max_size=12), max_size=8),
)
def test_hypothesis_command_lines(sandbox: Sandbox, command: str, rest: list[str]) -> None:
    # A whole demo, bench or bundled-lexicon build takes long: each case ends with an
    # option that stops it early, as the seeded loop's do (a later option wins).
    if command == "lexicon" and "build" in rest:
        rest = [*rest, "--from", sandbox.texts[0]]
    ending = {
        "best": ["--seconds", "0.1"],
        "demo": ["--out", str(sandbox.match)],
        "bench": ["--runs", "0"],
        "watch": ["--frames", "2"],
    }
    argv = [command, *rest, *ending.get(command, [])]
    outcome = run_case(argv, sandbox, b"S....\nMONEY\n")
    assert outcome.failure is None, (argv, outcome.failure)


def test_mutated_photos(sandbox: Sandbox) -> None:
    rng = random.Random(SEED + 1)
    tally = Tally("mutated photos")
    for kind, argv in mutated_photos(sandbox, rng, PHOTOS):
        tally.add(run_case(argv, sandbox), kind)
    check(tally)


def test_mutated_configuration_files(sandbox: Sandbox) -> None:
    rng = random.Random(SEED + 2)
    base = base_config(sandbox)
    tally = Tally("mutated configurations")
    for number in range(CONFIGURATIONS):
        kind, data = mutated_config(base, rng)
        path = Path(sandbox.root / f"config-{number % 20}.toml")
        path.write_bytes(data)
        tally.add(run_case(["config", "--check", "--config", str(path)], sandbox), "config")
        tally.add(run_case(["run", "--simulate", "--config", str(path)], sandbox), "run")
        if number % 10 == 0:
            tally.add(run_case(["doctor", "--config", str(path)], sandbox), "doctor")
    check(tally)


STORES = 300 if LARGE else 12
#: The columns of each table a cuberef made, and some it never did.
TABLES = {
    "events": ["id INTEGER PRIMARY KEY AUTOINCREMENT", "match INTEGER NOT NULL",
               "round INTEGER NOT NULL", "kind TEXT NOT NULL", "at REAL NOT NULL",
               "data TEXT NOT NULL"],
    "house": ["language TEXT NOT NULL", "word TEXT NOT NULL", "allowed INTEGER NOT NULL",
              "at REAL NOT NULL", "match INTEGER"],
    "quarantine": ["id INTEGER PRIMARY KEY", "match", "round", "kind", "at", "data",
                   "reason TEXT NOT NULL", "moved REAL NOT NULL"],
}  # fmt: skip
ODD = ["who TEXT", "at TEXT", "id TEXT", "match BLOB", "data INTEGER", "x"]


def mutated_store(folder: Path, rng: random.Random) -> str:
    """A store of a random shape: the tables a cuberef made, each with columns dropped,
    added or retyped, or not; now and then a table, index, view or trigger of its own."""
    import sqlite3

    folder.mkdir(parents=True)
    db = sqlite3.connect(folder / "matches.db")
    kinds = []
    for table, columns in TABLES.items():
        if rng.random() < 0.2:
            continue
        chosen = [c for c in columns if rng.random() > 0.1 or c.startswith("id ")]
        if rng.random() < 0.3:  # a column added, or one retyped
            odd = rng.choice(ODD)
            named = [c for c in chosen if c.split()[0] != odd.split()[0]]
            chosen = [*named, odd]
            kinds.append("column")
        db.execute(f"CREATE TABLE {table} ({', '.join(chosen)})")
    extra = rng.choice(["", "", "table", "index", "view", "trigger"])
    if extra and "events" in {r[0] for r in db.execute("SELECT name FROM sqlite_master")}:
        db.executescript(
            {
                "table": "CREATE TABLE notes (text);",
                "index": "CREATE UNIQUE INDEX one ON events (id);",
                "view": "CREATE VIEW every AS SELECT * FROM events;",
                "trigger": "CREATE TRIGGER never BEFORE INSERT ON events BEGIN SELECT 1; END;",
            }[extra]
        )
        kinds.append(extra)
    db.execute(f"PRAGMA user_version = {rng.choice([0, 0, 1, 2, 2, -1, 3])}")
    db.commit()
    db.close()
    return "+".join(kinds) or "tables"


def test_mutated_stores(sandbox: Sandbox) -> None:
    """A store of any shape: the box and the doctor end with a sentence, and a store the
    box set aside is kept byte for byte."""
    rng = random.Random(SEED + 3)
    base = base_config(sandbox)
    tally = Tally("mutated stores")
    for number in range(STORES):
        folder = sandbox.root / "stores" / str(number)
        kind = mutated_store(folder, rng)
        before = (folder / "matches.db").read_bytes()
        path = sandbox.root / f"store-{number % 20}.toml"
        path.write_text(base.replace(str(sandbox.store), str(folder)), encoding="utf-8")
        if number % 3 == 0:
            tally.add(run_case(["doctor", "--config", str(path)], sandbox), f"doctor {kind}")
        outcome = run_case(["run", "--simulate", "--config", str(path)], sandbox)
        tally.add(outcome, kind)
        assert outcome.code == 0, (kind, outcome.err)  # no store stops the box
        kept = list(folder.glob("matches.db.corrupt-*"))
        assert all(aside.read_bytes() == before for aside in kept), kind
    check(tally)
