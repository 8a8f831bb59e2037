"""The input boundary: each way a file or a number can be wrong is one sentence, exit 2,
whichever command reads it."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.base.inputs import TooDeep, json_depth, load_json, parse_json, read_text
from device.cli import main

BOARD = ["--game", "boggle", "--board", "TNTB/GDAR/ELTE/SISH"]
ROLL = "M O N E Y S T E B U J O Q"


def as_root() -> bool:
    return os.geteuid() == 0


def bad_files(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Each way a file can be wrong -> (its path, what the sentence says)."""
    latin = tmp_path / "latin.txt"
    latin.write_bytes("dart\nkočka\n".encode("iso8859_2"))
    binary = tmp_path / "nul.txt"
    binary.write_bytes(b"dart\0\0\0")
    locked = tmp_path / "locked.txt"
    locked.write_text("dart\n")
    locked.chmod(0)
    cases = {
        "missing": (str(tmp_path / "nope.txt"), "There is no file"),
        "folder": (str(tmp_path), "is a folder"),
        "not utf-8": (str(latin), "Line 2 of"),
        "not text": (str(binary), "is not a text file"),
        "endless": ("/dev/zero", "is a device, not a regular file"),
        "fifo": (_fifo(tmp_path), "is a FIFO, not a regular file"),  # would block for ever
        "kernel log": ("/dev/kmsg", "is a device"),
        "proc": ("/proc/kmsg", "is a kernel file in /proc"),  # blocks as it is read
    }
    for name, (path, _) in list(cases.items()):
        if not os.path.exists(path):
            del cases[name]
    if not as_root():
        cases["unreadable"] = (str(locked), "permission denied")
    return cases


def _fifo(tmp_path: Path) -> str:
    fifo = tmp_path / "fifo.txt"
    if not fifo.exists():
        os.mkfifo(fifo)
    return str(fifo)


def file_commands(path: str, tmp_path: Path) -> dict[str, list[str]]:
    """Every command that reads a file of the player's, given ``path`` as that file."""
    good = tmp_path / "good.txt"
    good.write_text("dart\n")
    return {
        "score list": ["score", *BOARD, f"ann={path}"],
        "score grid": ["score", "--game", "adlib", "--roll", ROLL, "--grid", path],
        "dice": ["solve", "--game", "boggle", "--board", "TNTB/GDAR/ELTE/SISH", "--dice", path],
        "lexicon build": ["lexicon", "build", "--from", path, "--name", "mine"],
        "config": ["config", "--check", "--config", path],
        "photo": ["read", path, "--game", "boggle"],
        "match file": ["score", *BOARD, f"ann={good}", "--match", path],
    }


@pytest.mark.parametrize(
    "kind",
    ["missing", "folder", "not utf-8", "not text", "endless", "unreadable"]
    + ["fifo", "kernel log", "proc"],
)
def test_every_file_a_command_reads_is_refused_with_a_sentence(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CUBEREF_DATA", str(tmp_path / "data"))
    cases = bad_files(tmp_path)
    if kind not in cases:
        pytest.skip("root reads every file")
    path, says = cases[kind]
    for name, argv in file_commands(path, tmp_path).items():
        if name == "dice" and not path.endswith(".txt"):
            continue  # --dice takes a file only by its .txt name
        if name == "match file" and kind not in ("fifo", "endless", "kernel log"):
            continue  # a match file that is not there is a new match
        photo_of_text = name == "photo" and kind in ("not utf-8", "not text")
        says_here = "not a photo" if photo_of_text else says
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 2, (name, err)
        assert err.count("\n") == 1 and "Traceback" not in err, (name, err)
        assert says_here in err, (name, err)


def test_a_byte_order_mark_is_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    marked = tmp_path / "ann.txt"
    marked.write_bytes(b"\xef\xbb\xbfdart\nrated\n")
    assert read_text(marked, "a list") == "dart\nrated\n"
    assert main(["score", *BOARD, f"ann={marked}", "--json"]) == 0
    assert '"status": "scored"' in capsys.readouterr().out
    monkeypatch.setenv("CUBEREF_DATA", str(tmp_path / "data"))
    assert main(["lexicon", "build", "--from", str(marked), "--name", "marked"]) == 0
    config = tmp_path / "config.toml"
    config.write_bytes(b'\xef\xbb\xbfgame = "boggle"\n')
    assert main(["config", "--check", "--config", str(config)]) == 0


@pytest.mark.parametrize(
    "argv",
    [
        ["check", *BOARD, "--min-length", "-1", "dart"],
        ["score", *BOARD, "--min-length", "0", "a=b"],
        ["score", *BOARD, "--challenge-bonus", "-5", "a=b"],
        ["score", *BOARD, "--rounds", "0", "a=b"],
        ["score", *BOARD, "--target", "1e9", "a=b"],
        ["best", "--game", "adlib", "--roll", ROLL, "--seconds", "inf"],
        ["best", "--game", "adlib", "--roll", ROLL, "--seconds", "nan"],
        ["best", "--game", "adlib", "--roll", ROLL, "--seconds", "0"],
        ["best", "--game", "adlib", "--roll", ROLL, "--workers", "1000"],
        ["best", "--game", "adlib", "--roll", ROLL, "--workers", "0"],
        ["roll", "--game", "boggle", "--seed", "-1"],
        ["bench", "--runs", "1"],
    ],
)
def test_every_number_outside_its_range_is_one_sentence(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and " from " in err and "such as" in err


def test_more_workers_than_cores_are_cut_to_the_cores_with_a_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from device.seams.seams import cores

    argv = ["best", "--game", "adlib", "--roll", ROLL, "--seconds", "0.2", "--json"]
    assert main([*argv, "--workers", str(cores() + 5)]) == 0
    assert f"searching with {cores()}" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["folder", "text", "no folder"])
def test_annotate_where_no_picture_can_go_is_a_sentence_before_any_work(
    tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = {
        "folder": str(tmp_path),
        "text": str(tmp_path / "out.txt"),
        "no folder": str(tmp_path / "nope" / "out.png"),
    }[where]
    assert main(["read", "/no/such/photo.jpg", "--game", "boggle", "--annotate", target]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--annotate" in err


def test_screens_that_is_a_file_is_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    screens = tmp_path / "screens"
    screens.write_text("mine")
    assert main(["run", "--simulate", "--screens", str(screens)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert screens.read_text() == "mine"


def test_a_photo_whose_header_claims_a_huge_size_is_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 40_000, 40_000, 8, 2, 0, 0, 0)
    photo = tmp_path / "huge.png"
    photo.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 100))
        + chunk(b"IEND", b"")
    )
    assert main(["read", str(photo), "--game", "boggle"]) == 2
    assert "larger than 20 megapixels" in capsys.readouterr().err


@pytest.mark.parametrize("damage", ["no card", "empty card", "empty", "cut short", "too short"])
def test_a_damaged_lexicon_of_one_s_own_is_a_sentence(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    damage: str,
) -> None:
    import struct

    from engine.lexicon import _open_file

    monkeypatch.setenv("CUBEREF_DATA", str(tmp_path))
    words = tmp_path / "club.txt"
    words.write_text("dart\nbreadths\n")
    assert main(["lexicon", "build", "--from", str(words), "--name", "club"]) == 0
    dawg = tmp_path / "lexicons" / "club.dawg"
    whole = dawg.read_bytes()
    if damage == "no card":
        dawg.with_suffix(".json").unlink()
    elif damage == "empty card":
        dawg.with_suffix(".json").write_text("{}")
    elif damage == "empty":
        dawg.write_bytes(b"")
    elif damage == "cut short":
        dawg.write_bytes(whole[:20])
    else:  # the header promises a million states
        magic, version, _, *rest = struct.unpack_from("<8sIIIIIQ", whole)
        dawg.write_bytes(struct.pack("<8sIIIIIQ", magic, version, 10**6, *rest) + whole[36:])
    _open_file.cache_clear()
    capsys.readouterr()
    assert main(["solve", *BOARD, "--lexicon", "club"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is damaged" in err and "build" in err


def test_a_word_list_with_a_word_longer_than_any_tray_spells_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CUBEREF_DATA", str(tmp_path / "data"))
    source = tmp_path / "long.txt"
    source.write_text("dart\n" + "a" * 100_000 + "\n")
    assert main(["lexicon", "build", "--from", str(source), "--name", "long"]) == 2
    err = capsys.readouterr().err
    assert "Line 2 of long.txt has a word of 100,000 letters" in err and len(err) < 200


def test_a_lexicon_rebuilt_while_open_is_replaced_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The box keeps its lexicon mapped; a rebuild beside it must not cut that file short.
    from engine.lexicon import Lexicon, _open_file

    monkeypatch.setenv("CUBEREF_DATA", str(tmp_path))
    source = tmp_path / "club.txt"
    source.write_text(
        "\n".join(
            f"w{a}{b}{c}"
            for a in "abcdefghij"
            for b in "klmnopqrst"
            for c in "uvwxyzabcdefghijklmn"
        )
    )
    assert main(["lexicon", "build", "--from", str(source), "--name", "club"]) == 0
    _open_file.cache_clear()
    before = Lexicon.open("club")
    source.write_text("cat\n")
    assert main(["lexicon", "build", "--from", str(source), "--name", "club"]) == 0
    assert len(list(before)) == 2000  # the old file, whole, under the old mapping
    dawg = tmp_path / "lexicons" / "club.dawg"
    assert dawg.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in dawg.parent.iterdir()) == ["club.dawg", "club.json"]


@pytest.mark.parametrize("size", [(1, 1), (1, 4), (15, 200)])
def test_a_photo_of_a_few_pixels_is_a_sentence(
    tmp_path: Path, size: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    import cv2
    import numpy as np

    photo = tmp_path / "tiny.png"
    cv2.imwrite(str(photo), np.full((*size, 3), 128, np.uint8))
    for game in ("boggle", "scribbage"):
        assert main(["read", str(photo), "--game", game]) == 2
        assert "pixels" in capsys.readouterr().err


def test_lexicon_list_names_a_damaged_lexicon_and_lists_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    monkeypatch.setenv("CUBEREF_DATA", str(tmp_path))
    (tmp_path / "lexicons").mkdir()
    (tmp_path / "lexicons" / "broken.dawg").write_bytes(b"CUBEDAWG")
    assert main(["lexicon", "list", "--json"]) == 0
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert {row["name"] for row in document["lexicons"]} >= {"en", "cs"}
    assert [row["name"] for row in document["damaged"]] == ["broken"]
    assert "broken.json is damaged" in captured.err


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab\n\u00e9'),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text(alphabet='[]{}"\\a', max_size=4), inner, max_size=3)
    ),
    max_leaves=20,
)


def nesting(value: object) -> int:
    if isinstance(value, list | dict):
        children = value.values() if isinstance(value, dict) else value
        return 1 + max((nesting(child) for child in children), default=0)
    return 0


@given(JSON_VALUES, st.booleans())
def test_the_depth_counted_before_parsing_is_the_json_s_own(value, ascii_only):
    """Brackets inside strings and escaped quotes never count; every real level does."""
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert json_depth(text) == nesting(value)
    assert load_json(text.encode(), nesting(value)) == value
    if nesting(value):
        with pytest.raises(TooDeep):
            load_json(text, nesting(value) - 1)


@pytest.mark.parametrize("depth", [1_000, 100_000, 2_000_000])
def test_json_nested_past_any_limit_is_refused_before_the_parser_in_any_thread(depth):
    """The parser's recursion is never reached: no RecursionError, and no crash of a
    thread's smaller stack, however deep (arrays, objects, open or closed)."""
    bodies = ["[" * depth, "[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth]
    found: list[object] = []

    def read() -> None:
        for body in bodies:
            try:
                load_json(body.encode())
            except TooDeep as error:
                found.append(error)
            assert parse_json(body, "the match") is None

    thread = threading.Thread(target=read)
    started = time.monotonic()
    thread.start()
    thread.join()
    assert len(found) == len(bodies) and time.monotonic() - started < 10
