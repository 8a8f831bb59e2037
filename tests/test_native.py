"""The compiled search (`engine.adlib.native`): used only while built from the sources as
they are, and the very search that its Python sources make."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import engine.adlib.bound
import engine.adlib.layout
import engine.adlib.search
import engine.adlib.twins
from engine.adlib import build_native, native

ROOT = Path(__file__).resolve().parent.parent
compiled = pytest.mark.skipif(
    not native.active(),
    reason="no compiled search here (make native needs a C compiler and Python's headers)",
)

# A full search of one roll from its first cube, nothing cut but by the bound: its nodes,
# best score and the grid it found.
_SEARCH = """
import json, time
from engine.adlib import Lexicon, Roll, native
from engine.adlib.search import Proven, Search
from engine.adlib.tables import first_words
from engine.adlib.words import formable_words
roll = Roll.parse("B G V A D L V W T T N I S", "adlib")
words = formable_words(roll, Lexicon.open("en"))
search = Search(roll, words, time.process_time, 1e9)
search.floor = 40  # the best is 43 (with the lexicon of 138,850 words)
try:
    for move in first_words(words):
        search.play_first(move)
except Proven:
    pass
print(json.dumps([native.active(), search.nodes, search.best_score, search.best_grid.rows()]))
"""


def _python(code: str, *args: str, native_on: bool) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, CUBEREF_NATIVE="1" if native_on else "0")
    return subprocess.run(
        [sys.executable, *(["-c", code] if code else []), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_the_compiled_modules_are_used_only_while_built_from_the_sources_as_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CUBEREF_NATIVE", raising=False)
    path: list[str] = []
    assert not native.use(path, tmp_path) and path == []  # never built
    record = native.record()
    lines = record.splitlines()
    assert lines[0] == EXTENSION_SUFFIXES[0] and [line.split()[0] for line in lines[1:]] == list(
        native.COMPILED
    )
    edited = record.replace(lines[2].split()[1], "0" * 64)  # one source changed since
    (tmp_path / native.RECORD).write_text(edited, encoding="ascii")
    assert not native.use(path, tmp_path) and path == []
    (tmp_path / native.RECORD).write_text(record, encoding="ascii")
    assert native.use(path, tmp_path) and path == [str(tmp_path / "engine" / "adlib")]
    monkeypatch.setenv("CUBEREF_NATIVE", "0")  # turned off
    assert not native.use([], tmp_path)


@compiled
def test_where_built_the_search_runs_compiled() -> None:
    assert native.built()
    for module in (
        engine.adlib.layout,
        engine.adlib.twins,
        engine.adlib.search,
        engine.adlib.bound,
    ):
        assert module.__file__ is not None and module.__file__.endswith(EXTENSION_SUFFIXES[0])


@compiled
def test_compiled_and_as_python_the_search_walks_the_same_tree() -> None:
    """The same nodes, the same best score, the same crossword: what mypyc compiled is the
    search its sources describe."""
    runs = [_python(_SEARCH, native_on=on) for on in (True, False)]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
    (on, *found_on), (off, *found_off) = (json.loads(run.stdout) for run in runs)
    assert on and not off
    assert found_on == found_off and found_on[:2] == [88333, 43]


def test_the_compiled_modules_doctests_run_as_python() -> None:
    """Compiled, the modules hold no doctests that pytest finds, so the test run leaves them
    out (pyproject.toml) and their sources' doctests run here, as Python."""
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    ignored = [word for word in options["ini_options"]["addopts"].split() if "--ignore" in word]
    doctests = [f"engine/adlib/{name}.py" for name in native.COMPILED]
    assert ignored == [f"--ignore={path}" for path in doctests]
    run = _python(
        "",
        "-m",
        "pytest",
        "-o",
        "addopts=",
        "-p",
        "no:cacheprovider",
        "--doctest-modules",
        *doctests,
        native_on=False,
    )
    assert run.returncode == 0 and " 6 passed" in run.stdout, run.stdout[-3000:] + run.stderr


@compiled
def test_as_python_the_search_passes_its_tests() -> None:
    """Where the compiled modules run, the tests test them: here the search's tests run as
    Python too, as on a machine without a compiler."""
    run = _python(
        "", "-m", "pytest", "-p", "no:cacheprovider", "tests/test_adlib_best.py", native_on=False
    )
    assert run.returncode == 0 and "passed" in run.stdout, run.stdout[-3000:] + run.stderr


def test_without_a_compiler_the_build_says_why_and_the_install_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(build_native.shutil, "which", lambda name: None)
    with pytest.raises(build_native.Unavailable, match="no C compiler"):
        build_native.build(tmp_path / "native")
    assert not (tmp_path / "native").exists()
    monkeypatch.setattr(build_native, "built", lambda: False)
    assert build_native.main() == 0  # a slower search, not a failed make
    said = capsys.readouterr().err
    assert said.startswith("The best-crossword search runs as plain Python")
    assert "no C compiler" in said and said.count("\n") == 1


def test_the_doctor_says_how_the_best_crossword_is_searched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from device.commands import doctor

    running = doctor.search({})
    assert ("searched compiled" in running) == native.active()
    monkeypatch.setattr(native, "active", lambda: False)
    monkeypatch.setenv("CUBEREF_NATIVE", "0")
    assert "as Python, turned off by CUBEREF_NATIVE=0" in doctor.search({})
    monkeypatch.delenv("CUBEREF_NATIVE")
    assert "as Python, not compiled from these sources" in doctor.search({})
    assert doctor.search({}).endswith("make native (or the Pi's installer) compiles it.")
