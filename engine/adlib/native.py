"""The best-crossword search compiled to C by mypyc, where a C compiler is to be had.

The search's inner modules (`COMPILED`) are plain, fully typed Python, and mypyc compiles
those very files to C extension modules that search the same tree of nodes three to four
times faster. ``python -m engine.adlib.build_native`` (run by ``make``) builds them into
this Python environment (`FOLDER`) with a record of the sources they were built from. `use`,
called as `engine.adlib` loads, puts them first on the package's path only while that
record matches the sources: an edited module runs as Python until it is built again, and
``CUBEREF_NATIVE=0`` runs all of it as Python. Without a compiler only the speed differs.
"""

from __future__ import annotations

import hashlib
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

#: The modules compiled, in `engine.adlib`: the search's tree, its layout, twins, bound and
#: tables.
COMPILED = ("tables", "layout", "twins", "bound", "search")
#: Where the compiled modules are built: in the Python environment that runs them.
FOLDER = Path(sys.prefix) / "cuberef-native"
RECORD = "sources.sha256"


def source(name: str) -> Path:
    """The Python source of compiled module `name`."""
    return Path(__file__).resolve().parent / f"{name}.py"


def record() -> str:
    """What the compiled modules must have been built from: each source's SHA-256, for
    this interpreter's kind of extension module."""
    lines = [f"{name} {hashlib.sha256(source(name).read_bytes()).hexdigest()}" for name in COMPILED]
    return "\n".join([EXTENSION_SUFFIXES[0], *lines]) + "\n"


def built(folder: Path = FOLDER) -> bool:
    """Were the modules in `folder` built from the sources as they are now?"""
    try:
        return (folder / RECORD).read_text(encoding="ascii") == record()
    except (OSError, UnicodeDecodeError):
        return False


def use(path: list[str], folder: Path = FOLDER) -> bool:
    """Put the compiled modules first on `path` (the package's) where they are built from
    these sources and not turned off; say whether they are."""
    if os.environ.get("CUBEREF_NATIVE") == "0" or not built(folder):
        return False
    path.insert(0, str(folder / "engine" / "adlib"))
    return True


def active() -> bool:
    """Does this process search with the compiled modules?"""
    import engine.adlib.search

    return not engine.adlib.search.__file__.endswith(".py")
