"""Build the compiled best-crossword search (`engine.adlib.native`): ``make native``.

    python -m engine.adlib.build_native

It needs a C compiler, Python's C headers and mypyc (in mypy, a development dependency);
where one is missing it says so and the search runs as plain Python.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

from engine.adlib.native import COMPILED, FOLDER, RECORD, built, record, source


class Unavailable(Exception):
    """The compiled search cannot be built here; the message says why and what to do."""


def build(folder: Path = FOLDER) -> None:
    """Compile `COMPILED` with mypyc into `folder` and record their sources; raises
    `Unavailable` when this machine has no compiler, Python headers or mypyc."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        raise Unavailable(f"there is no C compiler ({compiler}); install gcc")
    headers = Path(sysconfig.get_paths()["include"], "Python.h")
    if not headers.exists():
        raise Unavailable(f"Python's C headers are missing ({headers}); install python3-dev")
    try:
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError as error:
        raise Unavailable(f"{error.name} is not installed; pip install mypy setuptools") from None
    folder.parent.mkdir(parents=True, exist_ok=True)
    started = Path.cwd()
    # Built beside the old modules and then swapped in: a running box keeps the files it
    # has loaded, and modules half built are never used.
    with tempfile.TemporaryDirectory(dir=folder.parent) as work:
        fresh, old = Path(work, "built"), Path(work, "old")
        # mypyc checks the engine's types from a copy of its Python files: installed, they
        # lie among other packages, which mypy would take for the engine's own.
        engine = source(COMPILED[0]).parents[1]
        copy = Path(work, "src", "engine")
        shutil.copytree(engine, copy, ignore=_not_python)
        sources = [str(copy / "adlib" / f"{name}.py") for name in COMPILED]
        os.chdir(work)  # setuptools reads the configuration of the folder it runs in
        try:
            setup(
                name="cuberef-native",
                ext_modules=mypycify(sources, group_name="engine.adlib.native_search"),
                script_args=["--quiet", "build_ext", "--build-lib", str(fresh)],
            )
        except (SystemExit, Exception) as error:
            said: object = error
            if isinstance(error, SystemExit):  # mypy prints its errors; setuptools says its
                said = error.code if isinstance(error.code, str) else "its messages are above"
            raise Unavailable(f"mypyc could not compile the search ({said})") from None
        finally:
            os.chdir(started)
        (fresh / RECORD).write_text(record(), encoding="ascii")
        if folder.exists():
            folder.rename(old)
        fresh.rename(folder)


def _not_python(folder: str, names: list[str]) -> list[str]:
    return [
        name
        for name in names
        if name == "__pycache__" or not (name.endswith(".py") or Path(folder, name).is_dir())
    ]


def main() -> int:
    if built():
        print(f"The compiled search in {FOLDER} is up to date.")
        return 0
    try:
        build()
    except Unavailable as why:
        print(
            f"The best-crossword search runs as plain Python, three to four times slower: {why},"
            " then build it again (make native, or the Pi's installer).",
            file=sys.stderr,
        )
        return 0  # a slower search, not a broken install
    print(f"Compiled the best-crossword search with mypyc into {FOLDER}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
