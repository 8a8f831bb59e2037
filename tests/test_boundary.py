"""Issue 32's input cases: the work a file asks for is bounded as well as its bytes
(nesting, dotted keys, grid and board sizes, a photo's declared size), typed text is
NFKC, and no refusal leaves a temporary file. Each failed before the boundary knew it."""

from __future__ import annotations

import os
import resource
import struct
import time
import zlib
from pathlib import Path

import pytest

from device.cli import main
from device.parts.camera import CameraError, FolderCamera

BOARD = ["--game", "boggle", "--board", "TNTB/GDAR/ELTE/SISH"]
ROLL = "M O N E Y S T E B U J O Q"


def refused(argv: list[str], capsys: pytest.CaptureFixture[str], says: str) -> float:
    """Run ``argv``: exit 2 with one sentence holding ``says``; the CPU seconds it took."""
    started = time.process_time()
    code = main(argv)
    spent = time.process_time() - started
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert says in err, err
    return spent


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("a = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested more than 32 levels"),
        ("a = " + "[" * 40 + "]" * 40 + "\n", "nested more than 32 levels"),
        ("[" + ".".join(["a"] * 100_000) + "]\nx = 1\n", "a key of more than 16 parts"),
        ("x." * 5000 + "y = 1\n", "a key of more than 16 parts"),
    ],
    ids=["deep array", "40 levels", "100,000-part header", "dotted key"],
)
@pytest.mark.parametrize("command", ["config --check", "doctor", "run"])
def test_a_configuration_that_asks_for_endless_work_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, says: str, command: str
) -> None:
    config = tmp_path / "box.toml"
    config.write_text(text, encoding="utf-8")
    spent = refused([*command.split(), "--config", str(config)], capsys, says)
    assert spent < 2


def test_a_deeply_nested_match_file_is_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lists = tmp_path / "ann.txt"
    lists.write_text("dart\n")
    for depth in (100_000, 40):
        match = tmp_path / f"deep{depth}.json"
        match.write_text('{"a": ' + "[" * depth + "]" * depth + "}")
        argv = ["score", *BOARD, f"ann={lists}", "--match", str(match)]
        refused(argv, capsys, "is not a cuberef match file")


def test_a_name_that_is_not_text_leaves_no_temporary_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lists = tmp_path / "ann.txt"
    lists.write_text("dart\n")
    match = tmp_path / "club.json"
    name = b"\xffann".decode("utf-8", "surrogateescape")  # as Python reads such an argv
    for _ in range(3):
        argv = ["score", *BOARD, f"{name}={lists}", "--match", str(match)]
        refused(argv, capsys, "not UTF-8 text")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ann.txt"]


def test_full_width_letters_are_letters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", *BOARD, "ｄａｒｔ"]) == 0
    out = capsys.readouterr().out
    assert "not on the board" not in out and "dart" in out.lower()
    lists = tmp_path / "ann.txt"
    lists.write_text("ｄａｒｔ\n", encoding="utf-8")
    assert main(["score", *BOARD, f"Ａｎｎ={lists}", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"name": "Ann"' in out and '"word": "dart"' in out and '"status": "scored"' in out


def test_a_huge_grid_and_a_huge_board_are_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text(("A" * 2000 + "\n") * 2000)
    argv = ["score", "--game", "adlib", "--roll", ROLL, "--grid", str(grid)]
    assert refused(argv, capsys, "larger than 64 by 64 cells") < 1
    board = "/".join(["A" * 300] * 300)
    argv = ["solve", "--game", "boggle", "--board", board]
    assert refused(argv, capsys, "characters long") < 1


def png_declaring(width: int, height: int) -> bytes:
    """A small PNG whose header declares ``width`` x ``height`` pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\0" * (1 + width) * 64, 9)  # some rows of a grey picture
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows)


def test_a_small_photo_declaring_a_huge_picture_is_refused_before_decoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photo = tmp_path / "huge.png"
    photo.write_bytes(png_declaring(32000, 32000))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    spent = refused(["read", str(photo), "--game", "boggle"], capsys, "32000x32000 pixels")
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert spent < 1 and grown_mb < 100


def test_the_folder_camera_reads_through_the_same_boundary(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "1-fifo.jpg")  # would block a plain imread for ever
    (tmp_path / "2-huge.png").write_bytes(png_declaring(32000, 32000))
    camera = FolderCamera(folder=tmp_path)
    with pytest.raises(CameraError, match="is a FIFO, not a regular file"):
        camera.capture()
    with pytest.raises(CameraError, match="larger than 20 megapixels"):
        camera.capture()
