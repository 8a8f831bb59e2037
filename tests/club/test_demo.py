"""``cuberef demo --club``: two tables, eight players, two rounds of king of the hill on
the bundled photos and phones over HTTP; its standings are ``club standings --json``'s
and the sums of the two boxes' own histories. Without mosquitto it says how to get it."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from device.cli import main
from device.club import broker


def test_the_club_demo_plays_an_evening(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--club", "--out", str(tmp_path / "demo"), "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    club = tmp_path / "demo" / "club"
    standings = json.loads((club / "standings.json").read_text())
    assert said["club"] == standings
    assert [len(r["tables"]) for r in standings["rounds"]] == [2, 2]
    cwd = os.getcwd()
    os.chdir(club)
    try:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["club", "standings", "--json"]) == 0
    finally:
        os.chdir(cwd)
    assert json.loads(out.getvalue()) == standings
    summed: dict[str, list[int]] = {}
    for table in ("table-1", "table-2"):
        for row in json.loads((club / table / "history.json").read_text())["standings"]:
            mine = summed.setdefault(row["name"], [0, 0, 0])
            mine[:] = [mine[0] + row["played"], mine[1] + row["won"], mine[2] + row["points"]]
    shown = {r["name"]: [r["played"], r["won"], r["points"]] for r in standings["standings"]}
    assert shown == summed and all(row[0] == 2 for row in shown.values())


def test_without_mosquitto_the_club_demo_says_how_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(broker, "available", lambda: False)
    assert main(["demo", "--club", "--out", str(tmp_path / "demo")]) == 1
    assert "sudo apt-get install mosquitto" in capsys.readouterr().err
