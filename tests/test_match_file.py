"""`score --match FILE`: Ad-Lib turns and Boggle rounds kept in a file, safely."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from device.cli import main
from device.store.match_file import MatchFile
from engine.adlib.match import Match
from engine.errors import NotationError
from engine.match import MatchRules
from engine.sides import seat_sides

ROLL = "U O N T W V I G F E E A R T"
GRID = "...W.\nTIGER\nOF.A.\nN..V.\n...E.\n"  # 33 points
SMALL = "TIGER\n"  # 11, less 22 unused: -11
BOARD = "TNTB/GDAR/ELTE/SISH"


@pytest.fixture
def grids(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "big.txt").write_text(GRID, encoding="utf-8")
    (tmp_path / "small.txt").write_text(SMALL, encoding="utf-8")
    return {name: str(tmp_path / f"{name}.txt") for name in ("big", "small")}


def turn(file: Path, grid: str) -> list[str]:
    return ["score", "--game", "scribbage", "--roll", ROLL, "--grid", grid, "--match", str(file)]


def run_json(capsys: pytest.CaptureFixture[str], args: list[str]) -> dict[str, object]:
    assert main([*args, "--json"]) == 0, capsys.readouterr().err
    document: dict[str, object] = json.loads(capsys.readouterr().out)
    return document


def test_an_adlib_match_of_three_and_two_rounds_gives_everyone_two_turns(
    tmp_path: Path, grids: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "match.json"
    start = ["--players", "Ann,Bob,Cy", "--rounds", "2", "--first", "Bob"]
    played = []
    for number, grid in enumerate(["big", "big", "small", "small", "big", "small"]):
        args = turn(file, grids[grid]) + (start if number == 0 else [])
        document = run_json(capsys, args)
        played.append(document["player"])
    assert played == ["Bob", "Cy", "Ann", "Bob", "Cy", "Ann"]
    match = document["match"]
    assert isinstance(match, dict) and match["over"] and match["winners"] == ["Cy"]
    assert [(s["name"], s["total"], s["turns"]) for s in match["standings"]] == [
        ("Cy", 66, 2),
        ("Bob", 22, 2),
        ("Ann", -22, 2),
    ]
    before = file.read_bytes()
    assert main(turn(file, grids["big"])) == 2
    assert "over" in capsys.readouterr().err and file.read_bytes() == before


def test_the_target_is_checked_when_the_round_of_turns_is_complete(
    tmp_path: Path, grids: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "match.json"
    first = run_json(capsys, turn(file, grids["big"]) + ["--players", "Ann,Bob", "--target", "30"])
    match = first["match"]
    assert isinstance(match, dict) and not match["over"] and match["next_player"] == "Bob"
    assert main(turn(file, grids["small"])) == 0
    out = capsys.readouterr().out
    assert "Match over: Ann wins." in out and "Bob's turn scores -11." in out


def test_partners_share_a_turn_and_the_turn_is_checked(
    tmp_path: Path, grids: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "match.json"
    args = turn(file, grids["big"]) + ["--players", "Ann,Bob,Cy,Di", "--rounds", "1"]
    args += ["--team", "north=Ann,Cy", "--team", "south=Bob,Di"]
    assert run_json(capsys, args)["player"] == "north"
    before = file.read_bytes()
    assert main([*turn(file, grids["big"]), "--player", "Cy"]) == 2
    assert "south's turn, not Cy's" in capsys.readouterr().err and file.read_bytes() == before
    last = run_json(capsys, [*turn(file, grids["small"]), "--player", "Di"])
    match = last["match"]
    assert isinstance(match, dict) and match["over"] and match["winners"] == ["north"]


def test_an_adlib_match_needs_its_players_and_keeps_what_was_agreed(
    tmp_path: Path, grids: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "match.json"
    assert main(turn(file, grids["big"])) == 2
    assert "--players Ann,Bob,Cy" in capsys.readouterr().err and not file.exists()
    assert main([*turn(file, grids["big"]), "--players", "Ann,Bob", "--rounds", "3"]) == 0
    for wrong in (["--rounds", "4"], ["--first", "Bob"], ["--players", "Ann,Zed"]):
        before = file.read_bytes()
        assert main([*turn(file, grids["big"]), *wrong]) == 2
        assert capsys.readouterr().err.count("\n") == 1 and file.read_bytes() == before


def test_a_boggle_match_keeps_its_teams_for_every_round(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, words in (("a", "dart\n"), ("b", "slate\n"), ("c", "strange\n")):
        (tmp_path / f"{name}.txt").write_text(words, encoding="utf-8")
    file = tmp_path / "match.json"
    args = ["score", "--game", "boggle", "--board", BOARD, "--match", str(file)]
    args += [f"{n}={tmp_path / n}.txt" for n in "abc"]
    first = run_json(capsys, [*args, "--team", "red=a,b", "--rounds", "2"])
    second = run_json(capsys, args)  # no --team: the match's teams hold
    match = second["match"]
    assert isinstance(match, dict) and match["over"]
    assert [p["name"] for p in second["players"]] == [p["name"] for p in first["players"]]  # type: ignore[union-attr]
    assert {s["name"]: s["total"] for s in match["standings"]} == {"red": 6, "c": 10}
    assert match["winners"] == ["c"]
    saved = json.loads(file.read_text(encoding="utf-8"))
    assert all(t["best"] and t["best"] > 10 for t in saved["turns"])  # the board's maximum


@pytest.mark.parametrize("where", ["no-such-folder/match.json", "a-folder"])
def test_a_path_that_cannot_hold_a_match_is_one_sentence(
    tmp_path: Path, grids: dict[str, str], capsys: pytest.CaptureFixture[str], where: str
) -> None:
    (tmp_path / "a-folder").mkdir()
    args = [*turn(tmp_path / where, grids["big"]), "--players", "Ann"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert ("no folder" in err) if "/" in where else ("is a folder" in err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-folder", "big.txt", "small.txt"]


def test_a_damaged_match_file_is_refused_and_left_alone(
    tmp_path: Path, grids: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "match.json"
    for damage in (b"not json", b"[1, 2]", b"\xff\xfe", b'{"format": "cuberef match"}'):
        file.write_bytes(damage)
        assert main([*turn(file, grids["big"]), "--players", "Ann"]) == 2
        assert "match" in capsys.readouterr().err and file.read_bytes() == damage


def test_a_lock_held_too_long_is_one_sentence(tmp_path: Path) -> None:
    file = tmp_path / "match.json"
    with MatchFile.locked(file) as held:
        held.write({"a": 1})
        # flock belongs to each opening of the lock file, so a second one waits here too.
        with pytest.raises(NotationError) as raised, MatchFile.locked(file, timeout=0.1):
            pass
    assert "Another cuberef" in str(raised.value) and str(raised.value).endswith(".")
    assert [p.name for p in sorted(tmp_path.iterdir())] == ["match.json", "match.json.lock"]
    with MatchFile.locked(file) as again:  # released with the block
        assert again.read() == {"a": 1}


def test_concurrent_writers_all_land(tmp_path: Path) -> None:
    """Threads stand in for processes here (each opens the lock file for itself, which
    flock treats as another locker); tests/benchmarks/bench_match_file.py runs 100
    real cuberef processes."""
    file = tmp_path / "match.json"
    sides = seat_sides(["Ann", "Bob", "Cy"])

    def add_turn(points: int) -> int:
        with MatchFile.locked(file) as kept:
            data = kept.read()
            fresh = Match.start("adlib", sides, MatchRules(rounds=100))
            match = fresh if data is None else Match.from_dict(data)
            match = match.record(points)
            kept.write(match.to_dict())
            return len(match.turns)

    with ThreadPoolExecutor(8) as pool:
        saved = list(pool.map(add_turn, range(40)))
    assert sorted(saved) == list(range(1, 41))  # each saw its own turn land
    turns = Match.from_dict(json.loads(file.read_text(encoding="utf-8"))).turns
    assert sorted(turn.score for turn in turns) == list(range(40))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["match.json", "match.json.lock"]
