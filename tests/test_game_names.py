"""A game's name is a game's name (issue 50, item 2): every command run in a folder that
holds a folder named after every game, edition and bundled cube set reads the bundled set,
never the folder; a path is taken only where it plainly is one, and a folder given as a
cube-set file is one sentence."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from device.cli import main
from engine.cubes import CubeSet, bundled_sets
from engine.errors import NotationError
from engine.games import GAMES

DEMO = resources.files("device") / "data" / "demo"
ROLL = "G L M E A C L A I S N K N"
GRID = "..S.\n..LA\n.GIN\nMAC.\nELK.\nN...\n"


@pytest.fixture
def crowded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder holding a folder named after every game, edition and cube set."""
    names = set(GAMES) | set(bundled_sets())
    names |= {edition for game in GAMES.values() for edition, _ in game.dice}
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / f"{name}.txt").mkdir()  # even one that ends .txt
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return dict(json.loads(out))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_roll_check_and_solve_read_the_bundled_sets(crowded, capsys, game):
    for edition, _ in GAMES[game].dice:
        rolled = run(["roll", "--game", game, "--dice", edition, "--seed", "3", "--json"], capsys)
        assert rolled
    word = "money" if not GAMES[game].is_tray else "tent"
    checked = run(["check", "--game", game, word, "--json"], capsys)
    assert [result["word"].lower() for result in checked["results"]] == [word]
    if GAMES[game].is_tray:
        board = run(["roll", "--game", game, "--seed", "3", "--json"], capsys)["board"]
        solved = run(["solve", "--game", game, "--board", board, "--json"], capsys)
        assert solved["board"] == board and solved["total"] >= 0


def test_the_adlib_commands_read_the_bundled_set(crowded, capsys):
    grid = crowded / "grid.txt"
    grid.write_text(GRID, encoding="utf-8")
    scored = run(
        ["score", "--game", "adlib", "--roll", ROLL, "--grid", str(grid), "--json"], capsys
    )
    assert scored["score"] == 58
    best = run(["best", "--game", "adlib", "--roll", ROLL, "--seconds", "1", "--json"], capsys)
    assert best["roll"].split() == sorted(ROLL.split()) or best["grid"]
    with resources.as_file(DEMO / "adlib" / "2-crossword.jpg") as photo:
        read = run(["read", str(photo), "--game", "adlib", "--json"], capsys)
        assert read["faces"]
        from_photo = run(["score", str(photo), "--game", "adlib", "--json"], capsys)
        assert from_photo["score"] == 58
    with resources.as_file(DEMO / "replay") as frames:
        code = main(["watch", str(frames), "--game", "adlib", "--json"])
        out, err = capsys.readouterr()
        assert code == 0, err
        assert out.splitlines()


def test_the_box_plays_adlib_in_such_a_folder(crowded, capsys):
    store = crowded / "store"
    config = crowded / "box.toml"
    config.write_text(
        f'game = "adlib"\nplayers = ["Ann", "Ben"]\n[store]\nfolder = "{store}"\n'
        '[screen]\nbackend = "dummy"\n',
        encoding="utf-8",
    )
    script = crowded / "script.txt"
    # Ann and Ben each throw a cube for who starts (the bundled photos), then the roll is read.
    steps = ["wait idle 10", "press", "wait starter 30", "sleep 2", "press", "sleep 3"]
    script.write_text("\n".join([*steps, "press", "wait timing 60", "quit", ""]), encoding="utf-8")
    with resources.as_file(DEMO / "adlib") as photos:
        argv = ["run", "--simulate", "--config", str(config), "--photos", str(photos)]
        assert main([*argv, "--script", str(script)]) == 0, capsys.readouterr().err


def test_a_path_is_taken_only_where_it_plainly_is_one(crowded):
    own = crowded / "mine.txt.d"
    own.mkdir()
    dice = own / "dice.txt"
    dice.write_text("A B C D E F\n" * 16, encoding="utf-8")
    assert len(CubeSet.load(str(dice)).dice) == 16
    assert CubeSet.load("adlib").value(CubeSet.load("adlib").dice[0].faces[0]) > 0
    with pytest.raises(NotationError, match="is a folder, not a cube-set file"):
        CubeSet.load("./adlib")
    with pytest.raises(NotationError, match="no cube set called 'nothing-here'"):
        CubeSet.load("nothing-here")


def test_a_folder_given_as_the_dice_is_one_sentence(crowded, capsys):
    code = main(["roll", "--game", "boggle", "--dice", "./boggle-1987"])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
