"""The layers hold and are enforced: ``lint-imports`` (``make lint``) keeps pyproject.toml's
contracts (engine < vision < models | device, device's subpackages bottom to top, no circles
among a package's modules), and it fails on a copy of the code where a module imports a
layer above its own or closes a circle."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "vision", "models", "device")
LINT = Path(sys.executable).with_name("lint-imports")

#: An import that breaks each contract: a file to add it to and the line to add (one that
#: runs back up a layer, one that closes a circle as the evaluator's seed once did).
BREAKING = {
    "device's subpackages in layers": ("device/base/clock.py", "from device.referee import flow"),
    "engine, vision, models and device in layers": ("engine/games.py", "import vision.reader"),
    "no circles among a package's modules": ("models/evaluate_tops.py", "import models.train_tops"),
}


def _not_code(folder: str, names: list[str]) -> list[str]:
    return [
        name
        for name in names
        if name == "__pycache__" or not (name.endswith(".py") or (Path(folder) / name).is_dir())
    ]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """The four packages' Python files (no data, no models) and pyproject.toml, copied."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=_not_code)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT), "--no-cache", "--no-logo"],
        cwd=tree,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tree)},
    )


def test_the_code_keeps_every_contract(tree: Path) -> None:
    done = _lint(tree)
    assert done.returncode == 0, done.stdout + done.stderr
    for contract in BREAKING:
        assert f"{contract} KEPT" in done.stdout


def test_an_import_that_runs_back_up_or_round_breaks_its_contract(tree: Path) -> None:
    for path, line in BREAKING.values():
        with (tree / path).open("a", encoding="utf-8") as module:
            module.write(f"\n{line}\n")
    done = _lint(tree)
    assert done.returncode == 1, done.stdout + done.stderr
    for contract, (path, _line) in BREAKING.items():
        assert f"{contract} BROKEN" in done.stdout
        assert Path(path).stem in done.stdout  # the report names the module


def test_make_lint_runs_the_contracts() -> None:
    lint = (ROOT / "Makefile").read_text(encoding="utf-8").split("\nlint:")[1].split("\n\n")[0]
    assert "lint-imports" in lint


def test_each_subpackage_of_device_says_its_purpose_and_runs_nothing() -> None:
    """Its ``__init__`` is one docstring of one line: importing a layer imports no module
    (device's own ``__init__`` arms the stop handler, so nothing else may run at import)."""
    found = sorted((ROOT / "device").glob("*/__init__.py"))
    subpackages = [path for path in found if path.parent.name != "data"]
    assert len(subpackages) >= 10
    for path in subpackages:
        body = ast.parse(path.read_text(encoding="utf-8")).body
        assert len(body) == 1 and isinstance(body[0], ast.Expr), path
        purpose = body[0].value
        assert isinstance(purpose, ast.Constant) and isinstance(purpose.value, str), path
        assert purpose.value.strip() and "\n" not in purpose.value, path
