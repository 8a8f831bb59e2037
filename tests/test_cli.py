"""The command line itself: what each command loads, its help, its refusals."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from device.cli import COMMANDS, build_parser, main
from engine.games import GAMES

ROOT = Path(__file__).resolve().parents[1]

#: What no command's help, nor building the parser, nor a solve may load.
HEAVY = (
    "numpy",
    "cv2",
    "pygame",
    "onnxruntime",
    "gpiozero",
    "vision",
    "engine.adlib",
    "device.seams.search",
)


def loaded_after(code: str) -> list[str]:
    """The heavy modules a fresh Python holds after running ``code``."""
    script = f"""
import contextlib, io, json, sys
from device.cli import build_parser, main
{code}
print(json.dumps(sorted(name for name in sys.modules if name.startswith({HEAVY!r}))))
"""
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return list(json.loads(done.stdout.splitlines()[-1]))


def test_building_the_whole_parser_loads_nothing_heavy() -> None:
    assert loaded_after("build_parser()") == []


def test_no_command_s_help_loads_anything_heavy() -> None:
    helps = "".join(
        f"""
with contextlib.redirect_stdout(io.StringIO()):
    assert main([{name!r}, "--help"]) == 0
"""
        for name in ["--help", *COMMANDS]
    )
    assert loaded_after(helps) == []


def test_the_word_commands_load_only_the_engine(tmp_path: Path) -> None:
    words = tmp_path / "ann.txt"
    words.write_text("dart\n")
    tray = ["--game", "big-boggle", "--board", "RONLI/CTSSD/NMPPN/UAEQuI/HINRM"]
    commands = [
        ["solve", *tray],
        ["check", *tray, "dart"],
        ["score", *tray, f"ann={words}"],
        ["roll", "--game", "boggle"],
        ["lexicon", "list"],
        ["config", "--defaults"],
    ]
    run = "".join(
        f"""
with contextlib.redirect_stdout(io.StringIO()):
    assert main({argv!r}) == 0
"""
        for argv in commands
    )
    assert loaded_after(run) == []


def every_option() -> list[tuple[str, argparse.Action]]:
    parser = build_parser()
    found = []
    for command, sub in _subparsers(parser).items():
        nested = _subparsers(sub)
        for name, parser_ in [(command, sub), *((f"{command} {n}", p) for n, p in nested.items())]:
            found += [(name, action) for action in parser_._actions if action.option_strings]
    return found


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


@pytest.mark.parametrize(
    ("command", "action"),
    [
        pytest.param(command, action, id=f"{command} {action.option_strings[-1]}")
        for command, action in every_option()
        if action.default not in (None, False, [], argparse.SUPPRESS)
    ],
)
def test_every_default_is_in_the_help(command: str, action: argparse.Action) -> None:
    assert action.help and "default" in action.help, f"{command} {action.option_strings}"


def test_help_is_plain_text_and_lists_every_choice(capsys: pytest.CaptureFixture[str]) -> None:
    for name in COMMANDS:
        assert main([name, "--help"]) == 0
        shown = capsys.readouterr().out
        assert "``" not in shown, name
    assert main(["score", "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())
    assert all(game in shown for game in GAMES)
    for game in GAMES.values():
        if len(game.dice) > 1:
            assert f"{game.id}: {', '.join(name for name, _ in game.dice)}" in shown


def test_version_says_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("cuberef 0.")


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["nosuch"],
        ["solve"],
        ["solve", "--game"],
        ["roll", "--game", "boggle", "--seed", "x"],
        ["demo", "--game", "chess"],
    ],
)
def test_a_command_line_argparse_refuses_is_one_sentence(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.endswith("--help'.\n")


def test_a_fault_of_cuberef_itself_is_a_sentence_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from device.commands import roll

    def broken(args: argparse.Namespace) -> int:
        raise KeyError("faces")

    monkeypatch.setattr(roll, "run", broken)
    assert main(["roll", "--game", "boggle"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "KeyError" in err and "-v" in err


def test_lexicon_chooses_a_lexicon_built_from_a_player_s_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CUBEREF_DATA", str(tmp_path))
    words = tmp_path / "club.txt"
    words.write_text("dart\nbreadths\nzzzz\n")
    assert main(["lexicon", "build", "--from", str(words), "--name", "club"]) == 0
    capsys.readouterr()
    board = ["--game", "boggle", "--board", "TNTB/GDAR/ELTE/SISH", "--json"]
    assert main(["solve", *board, "--lexicon", "club"]) == 0
    assert [w["word"] for w in json.loads(capsys.readouterr().out)["words"]] == ["breadths", "dart"]
    assert main(["check", *board, "--lexicon", "club", "dart", "rated"]) == 0
    valid = [r["valid"] for r in json.loads(capsys.readouterr().out)["results"]]
    assert valid == [True, False]
    assert main(["solve", *board, "--lexicon", "nosuch"]) == 2
    assert "no lexicon called 'nosuch'" in capsys.readouterr().err


def test_every_command_that_reports_prints_one_json_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CUBEREF_DATA", str(tmp_path))
    words = tmp_path / "ann.txt"
    words.write_text("dart\ntrash\n")
    grid = tmp_path / "grid.txt"
    grid.write_text("S....\nT.B.J\nE.U.O\nMONEY\n")
    tray = ["--game", "boggle", "--board", "TNTB/GDAR/ELTE/SISH"]
    roll = ["--game", "adlib", "--roll", "M O N E Y S T E B U J O Q"]
    photo = str(ROOT / "device" / "data" / "demo" / "boggle" / "1-roll.jpg")
    for argv in [
        ["solve", *tray],
        ["check", *tray, "dart"],
        ["score", *tray, f"ann={words}"],
        ["score", *roll, "--grid", str(grid)],
        ["best", *roll, "--seconds", "0.2", "--workers", "1"],
        ["roll", "--game", "big-boggle"],
        ["read", photo, "--game", "boggle"],
        ["lexicon", "build", "--from", str(words), "--name", "mine"],
        ["lexicon", "list"],
        ["lexicon", "dump", "mine"],
    ]:
        assert main([*argv, "--json"]) == 0, argv
        json.loads(capsys.readouterr().out)


def test_the_command_line_s_doctests() -> None:
    import doctest

    import device.base.inputs
    import device.cli

    for module in (device.cli, device.base.inputs):
        assert doctest.testmod(module).failed == 0, module.__name__
