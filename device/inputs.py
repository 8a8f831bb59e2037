"""The input boundary: every file a command reads and every number it is given pass
through here, so that a wrong one is one sentence (exit code 2), never a traceback.

A file is read with a size limit (so /dev/zero or a stray video is refused, not loaded),
and each way it can be wrong has its own sentence: missing, a folder, unreadable, too
large, not UTF-8, not text. A UTF-8 byte-order mark (as Windows editors write) is
accepted and dropped. A number option has a range, checked as it is parsed.
"""

from __future__ import annotations

import argparse
import codecs
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from engine.errors import CuberefError

#: Word lists, grids, cube sets, the configuration: far more than any of them needs.
TEXT_LIMIT = 4 * 2**20
#: A player's own word list for ``lexicon build --from`` (all Czech forms: ~40 MB).
WORD_LIST_LIMIT = 64 * 2**20
#: The picture formats ``--annotate`` can write.
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")

Number = TypeVar("Number", int, float)


def read_bytes(path: str | Path, what: str, limit: int = TEXT_LIMIT) -> bytes:
    """The bytes of ``path`` (``-``: standard input), at most ``limit`` of them.

    ``what`` names the file for the sentence: "Ann's word list", "the grid".
    """
    shown = "standard input" if str(path) == "-" else str(path)
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(path, "rb") as file:
                data = file.read(limit + 1)
    except FileNotFoundError:
        raise CuberefError(f"There is no file {shown} for {what}; check the path.") from None
    except IsADirectoryError:
        raise CuberefError(f"{shown} is a folder; give {what} as a file.") from None
    except PermissionError:
        raise CuberefError(
            f"{shown} may not be read (permission denied); give {what} as a file you can read."
        ) from None
    except (OSError, ValueError) as error:  # ValueError: a path with a NUL in it
        reason = getattr(error, "strerror", None) or str(error)
        raise CuberefError(f"Cannot read {what} from {shown} ({reason}).") from None
    if len(data) > limit:
        raise CuberefError(
            f"{shown} is larger than {limit // 2**20} MiB, too large for {what}; "
            "check that it is the right file."
        )
    return data


def read_text(path: str | Path, what: str, limit: int = TEXT_LIMIT) -> str:
    """The UTF-8 text of ``path`` (a byte-order mark dropped), or a sentence naming the
    line that is not UTF-8 or the file that is not text."""
    data = read_bytes(path, what, limit)
    shown = "standard input" if str(path) == "-" else str(path)
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise CuberefError(
            f"Line {line} of {shown} is not UTF-8 text; save {what} as UTF-8 and try again."
        ) from None
    if "\0" in text:
        raise CuberefError(f"{shown} is not a text file; give {what} as UTF-8 text.")
    return text


def ranged(
    kind: type[Number], low: Number, high: Number, example: Number
) -> Callable[[str], Number]:
    """An argparse ``type`` for a number from ``low`` to ``high``, or a sentence.

    >>> seconds = ranged(float, 0.1, 3600.0, 10.0)
    >>> seconds("2.5")
    2.5
    >>> seconds("inf")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: inf is not a number from 0.1 to 3600, such as 10
    """
    noun = "a whole number" if kind is int else "a number"

    def parse(text: str) -> Number:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value) or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{text} is not {noun} from {_shown(low)} to {_shown(high)}, "
                f"such as {_shown(example)}"
            )
        return value

    return parse


def _shown(number: float) -> str:
    return str(number) if isinstance(number, int) else f"{number:g}"


def picture_to_write(path: str, option: str) -> Path:
    """A path a picture can be written to, checked before any work is done."""
    out = Path(path)
    if out.is_dir():
        raise CuberefError(f"{option} {path} is a folder; give a file name such as out.png.")
    if out.suffix.lower() not in PICTURE_SUFFIXES:
        raise CuberefError(
            f"{option} {path} is not a picture's name; end it in "
            f"{', '.join(PICTURE_SUFFIXES)}, such as out.png."
        )
    if not out.parent.is_dir():
        raise CuberefError(
            f"There is no folder {out.parent} for {option} {path}; create it or give another."
        )
    if not os.access(out.parent, os.W_OK) or (out.exists() and not os.access(out, os.W_OK)):
        raise CuberefError(f"{path} may not be written (permission denied); give another {option}.")
    return out


def folder_to_write(path: str, option: str) -> Path:
    """A folder to write into, created when missing, or a sentence."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise CuberefError(f"{option} {path} is a file, not a folder; give a folder.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CuberefError(
            f"Cannot create the folder {path} for {option} ({error.strerror or error})."
        ) from None
    return folder
