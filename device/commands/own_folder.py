"""A folder that a command fills with files of its own and empties again on its next
run (the demo's screens and stores).

A missing folder is created. A folder that holds anything the command did not write is
refused with a sentence, and nothing in it is touched. What the command wrote is listed
in a manifest inside the folder, so that the next run deletes exactly those files.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

from device.base.inputs import load_json
from engine.errors import CuberefError

#: The manifest's name inside the folder.
MANIFEST = "cuberef-demo.json"


@contextlib.contextmanager
def own_folder(folder: Path, option: str = "--out") -> Iterator[Path]:
    """Make ``folder`` an empty folder of ours, yield it, then list what is in it."""
    _empty_of_our_files(folder, option)
    try:
        yield folder
    finally:
        files, folders = _contents(folder)
        listed = {"files": sorted(files - {MANIFEST}), "folders": sorted(folders)}
        (folder / MANIFEST).write_text(json.dumps(listed, indent=1) + "\n", encoding="utf-8")


def _empty_of_our_files(folder: Path, option: str) -> None:
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise CuberefError(f"{option} {folder} is not a folder; give a new or empty folder.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        files, folders = _contents(folder)
    except OSError as error:
        raise CuberefError(
            f"Cannot use the folder {folder} ({error.strerror or error}); give another {option}."
        ) from None
    if not files and not folders:
        return
    ours = _listed(folder / MANIFEST) if MANIFEST in files else None
    if ours is None:
        raise CuberefError(
            f"{folder} already holds files that an earlier demo did not write "
            f"({_first(files | folders)}); give a new or empty folder with {option}."
        )
    foreign = (files - ours[0] - {MANIFEST}) | (folders - ours[1])
    if foreign:
        raise CuberefError(
            f"{folder} holds {_first(foreign)}, which an earlier demo did not write; "
            f"move it away or give another folder with {option}."
        )
    try:
        for name in files:
            (folder / name).unlink()
        for name in sorted(folders, key=len, reverse=True):
            (folder / name).rmdir()
    except OSError as error:
        raise CuberefError(
            f"Cannot clear the earlier demo in {folder} ({error.strerror or error}); "
            f"give another folder with {option}."
        ) from None


def _contents(folder: Path) -> tuple[set[str], set[str]]:
    """Every file (links too, never followed) and every folder below ``folder``, as
    relative POSIX paths."""
    files: set[str] = set()
    folders: set[str] = set()
    for top, subfolders, names in os.walk(folder):
        below = Path(top).relative_to(folder)
        for name in subfolders[:]:
            path = (below / name).as_posix()
            if (Path(top) / name).is_symlink():
                files.add(path)
                subfolders.remove(name)
            else:
                folders.add(path)
        files.update((below / name).as_posix() for name in names)
    return files, folders


def _listed(manifest: Path) -> tuple[set[str], set[str]] | None:
    """The files and folders a manifest lists, or None where it is not one of ours."""
    try:
        listed = load_json(manifest.read_text(encoding="utf-8"))
        files, folders = listed["files"], listed["folders"]
    except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError):
        return None
    if not (isinstance(files, list) and isinstance(folders, list)):
        return None
    if not all(isinstance(name, str) for name in [*files, *folders]):
        return None
    return set(files), set(folders)


def _first(names: set[str]) -> str:
    return min(names, key=lambda name: (name.count("/"), name))
