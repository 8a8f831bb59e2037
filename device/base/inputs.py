"""The input boundary: every file a command reads and every number it is given pass
through here, so that a wrong one is one sentence (exit code 2), never a traceback.

Only a regular file is read, and it is opened without blocking and checked before a
byte is read: a FIFO, a device (/dev/zero, /dev/kmsg) or a file of the kernel's /proc
would hang or never end. A file is read with a size limit (so a stray video is refused,
not loaded), and each way it can be wrong has its own sentence: missing, a folder,
unreadable, too large, not UTF-8, not text. A UTF-8 byte-order mark (as Windows editors
write) is accepted and dropped, and text is put in Unicode's NFKC form, so full-width
letters are letters. A number option has a range, checked as it is parsed.
"""

from __future__ import annotations

import argparse
import codecs
import json
import math
import os
import re
import stat
import sys
import tomllib
import unicodedata
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from engine.errors import CuberefError

if TYPE_CHECKING:
    import numpy as np

#: Word lists, grids, cube sets, the configuration: far more than any of them needs.
TEXT_LIMIT = 4 * 2**20
#: A player's own word list for ``lexicon build --from`` (all Czech forms: ~40 MB).
WORD_LIST_LIMIT = 64 * 2**20
#: How deep lists and tables may nest in JSON and TOML (a match file needs four), and
#: how many parts a TOML key may have: bounds on the work, as the sizes bound the bytes.
MAX_DEPTH, MAX_KEY_PARTS = 32, 16
#: The picture formats a folder of photos or frames holds, and ``--annotate`` can write.
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
            with open_regular(path, what) as file:
                data = file.read(limit + 1)
    except CuberefError:
        raise
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


def pictures_in(folder: Path) -> list[Path]:
    """A folder's photos or frames, in name order."""
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in PICTURE_SUFFIXES)


def read_picture(path: Path, what: str) -> np.ndarray:
    """``path`` decoded, within the same bounds as a photo given on the command line;
    a sentence (CuberefError) where it cannot be."""
    from vision.image import MAX_BYTES, decode_image

    return decode_image(read_bytes(path, what, MAX_BYTES), path.name)


def not_regular(path: str | Path) -> str | None:
    """What ``path`` is when it is there but not a regular file ("a FIFO"), else None.

    >>> not_regular("/dev/null"), not_regular("/no/such/file")
    ('a device', None)
    """
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    return _kind(mode)


def _kind(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def open_regular(path: str | Path, what: str) -> BinaryIO:
    """``path`` opened for reading once it is known to be a regular file outside /proc:
    opened without blocking (a FIFO would wait for a writer), then checked."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        found = os.fstat(descriptor)
        odd = _kind(found.st_mode)
        if odd == "a folder":
            raise IsADirectoryError(path)
        if odd is None and _on_proc(found):
            odd = "a kernel file in /proc"
        if odd is not None:
            raise CuberefError(f"{path} is {odd}, not a regular file; give {what} as a file.")
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def _on_proc(found: os.stat_result) -> bool:
    try:
        return found.st_dev == os.stat("/proc/self").st_dev
    except OSError:
        return False


def read_text(path: str | Path, what: str, limit: int = TEXT_LIMIT) -> str:
    """The UTF-8 text of ``path`` (a byte-order mark dropped) in NFKC form, or a
    sentence naming the line that is not UTF-8 or the file that is not text."""
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
    return unicodedata.normalize("NFKC", text)


def typed(text: str, what: str = "a name") -> str:
    """A name or word as a person typed it, in NFKC form (full-width ｄａｒｔ is dart),
    or a sentence where it holds bytes that are not text (a non-UTF-8 command line).

    >>> typed("ｄａｒｔ")
    'dart'
    """
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        raise CuberefError(f"{what} holds bytes that are not UTF-8 text; type it again as text.")
    return unicodedata.normalize("NFKC", text)


def parse_json(data: bytes | str, what: str) -> Any:
    """JSON text as Python values, or None where it is not JSON, not UTF-8 or nested
    deeper than ``MAX_DEPTH`` (the caller says what it expected)."""
    try:
        return load_json(data)
    except ValueError:  # JSONDecodeError, UnicodeDecodeError and TooDeep
        return None


class TooDeep(ValueError):
    """JSON nested deeper than the reader allows (it is not parsed at all)."""


def load_json(data: bytes | str, limit: int = MAX_DEPTH) -> Any:
    """``json.loads`` with a bound on nesting as well as the size the caller bounds: the
    depth is counted first, in one pass without recursion, so a body of a few thousand
    ``[`` never reaches the parser's recursion (a ``RecursionError``, or a crash in a
    thread's smaller stack). ``TooDeep`` past ``limit``; ``ValueError`` where not JSON.

    >>> load_json(b'{"a": ["[[[", 1]}', 2)
    {'a': ['[[[', 1]}
    >>> load_json("[" * 100 + "]" * 100)
    Traceback (most recent call last):
    ...
    device.base.inputs.TooDeep: JSON nested more than 32 deep
    """
    text = (
        data if isinstance(data, str) else data.decode(json.detect_encoding(data), "surrogatepass")
    )
    if json_depth(text) > limit:
        raise TooDeep(f"JSON nested more than {limit} deep")
    return json.loads(text)


_ESCAPE, _STRING = re.compile(r"\\.", re.DOTALL), re.compile(r'"[^"]*"?')
_BRACKETS, _STEP = re.compile(r"[\[\]{}]"), {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """How deep ``[`` and ``{`` nest in ``text`` outside its strings, counted in linear
    time: escapes, then whole strings (an unclosed one runs to the end), are taken out
    first. Exact for JSON, and never less than a parser meets before it fails.

    >>> json_depth('[{"x": "]]"}, [["["]]]'), json_depth("7"), json_depth('"[[')
    (3, 0, 0)
    """
    bare = _STRING.sub("", _ESCAPE.sub("", text))
    steps = (_STEP[bracket] for bracket in _BRACKETS.findall(bare))
    return max(0, max(accumulate(steps), default=0))


def parse_toml(text: str, shown: str) -> dict[str, Any]:
    """A TOML document whose work is bounded: at most ``MAX_KEY_PARTS`` parts in a
    dotted key (tomllib takes time in the square of them) and ``MAX_DEPTH`` levels."""
    for number, line in enumerate(text.splitlines(), 1):
        key = line.split("=", 1)[0] if "=" in line else line
        if _unquoted(key).count(".") >= MAX_KEY_PARTS:
            raise CuberefError(
                f"Line {number} of {shown} has a key of more than {MAX_KEY_PARTS} parts; "
                "a cuberef configuration has two at most."
            )
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CuberefError(f"The configuration file {shown!r} is not TOML: {error}.") from None
    except RecursionError:
        document = None
    if document is None or not depth_within(document):
        raise CuberefError(
            f"The configuration file {shown!r} is nested more than {MAX_DEPTH} levels deep; "
            "a cuberef configuration has two."
        )
    return document


def _unquoted(key: str) -> str:
    return re.sub(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'', "", key)


def depth_within(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether lists and tables nest at most ``limit`` deep (walked without recursion).

    >>> depth_within([[1]], 2), depth_within([[[1]]], 2)
    (True, False)
    """
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= limit:
                return False
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return True


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
