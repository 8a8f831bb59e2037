"""The demo's folder: created, reused for an earlier demo, refused when it holds
anything else, and nothing but the demo's own files ever deleted."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.cli import main
from device.commands.own_folder import MANIFEST, own_folder
from engine.errors import CuberefError


def fill(folder: Path) -> None:
    """Write what a demo writes: screens and a store in a folder per family."""
    (folder / "boggle" / "store").mkdir(parents=True)
    (folder / "boggle" / "01-idle.png").write_bytes(b"png")
    (folder / "boggle" / "store" / "matches.db").write_bytes(b"db")


def tree(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file()
    }


def test_a_missing_folder_is_created_and_its_files_listed(tmp_path: Path) -> None:
    out = tmp_path / "a" / "demo"
    with own_folder(out) as folder:
        fill(folder)
    assert MANIFEST in tree(out) and set(tree(out)) == {
        MANIFEST,
        "boggle/01-idle.png",
        "boggle/store/matches.db",
    }


def test_an_earlier_demo_is_replaced_file_for_file(tmp_path: Path) -> None:
    with own_folder(tmp_path) as folder:
        fill(folder)
        (folder / "boggle" / "02-old.png").write_bytes(b"old")
    with own_folder(tmp_path) as folder:
        assert tree(folder) == {}  # the earlier demo's files are gone before it plays
        fill(folder)
    assert "boggle/02-old.png" not in tree(tmp_path)


@pytest.mark.parametrize(
    "stray", ["notes.txt", "boggle/mine.png", "boggle/store/keep.db", "empty-folder/"]
)
def test_a_folder_with_anything_else_is_refused_and_left_as_it_is(
    tmp_path: Path, stray: str
) -> None:
    with own_folder(tmp_path) as folder:
        fill(folder)
    if stray.endswith("/"):
        (tmp_path / stray).mkdir()
    else:
        (tmp_path / stray).write_bytes(b"the player's")
    before = tree(tmp_path)
    with pytest.raises(CuberefError, match="earlier demo did not write"), own_folder(tmp_path):
        pytest.fail("the folder was taken")
    assert tree(tmp_path) == before


def test_a_folder_of_other_files_without_a_manifest_is_refused(tmp_path: Path) -> None:
    (tmp_path / "boggle").mkdir()
    (tmp_path / "boggle" / "01-idle.png").write_bytes(b"someone else's")
    with pytest.raises(CuberefError, match="did not write"), own_folder(tmp_path):
        pass
    assert tree(tmp_path) == {"boggle/01-idle.png": b"someone else's"}


def test_a_damaged_manifest_claims_nothing(tmp_path: Path) -> None:
    (tmp_path / MANIFEST).write_text('{"files": "boggle", "folders": []}')
    (tmp_path / "boggle").write_bytes(b"keep")
    with pytest.raises(CuberefError), own_folder(tmp_path):
        pass
    assert (tmp_path / "boggle").read_bytes() == b"keep"


@pytest.mark.parametrize("kind", ["file", "device"])
def test_demo_out_that_is_not_a_folder_is_a_sentence(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "screens.png" if kind == "file" else Path("/dev/null")
    if kind == "file":
        target.write_bytes(b"x")
    assert main(["demo", "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a folder" in err
    assert kind != "file" or target.read_bytes() == b"x"


def test_demo_out_a_folder_of_other_files_is_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "adlib").mkdir()
    (tmp_path / "adlib" / "thesis.tex").write_text("years of work")
    assert main(["demo", "--out", str(tmp_path)]) == 2
    assert "earlier demo did not write" in capsys.readouterr().err
    assert (tmp_path / "adlib" / "thesis.tex").read_text() == "years of work"


@pytest.mark.slow
def test_a_second_demo_replaces_the_first_and_reports_its_screens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    shown = []
    for _ in range(2):
        assert main(["demo", "--game", "boggle", "--out", str(tmp_path), "--json"]) == 0
        shown.append(json.loads(capsys.readouterr().out))
    first, second = (document["rounds"][0] for document in shown)
    assert first["problem"] is None and first["screens"] == second["screens"]
    assert {p.name for p in (tmp_path / "boggle").glob("*.png")} == {
        Path(screen).name for screen in second["screens"]
    }
    assert set(tree(tmp_path)) - {MANIFEST} == set(
        json.loads((tmp_path / MANIFEST).read_text())["files"]
    )
