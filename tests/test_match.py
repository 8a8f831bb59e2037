"""Match play: rounds add up; a match ends at its number of rounds or its target."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.cli import main
from engine.errors import NotationError, RuleError
from engine.match import Match


def test_totals_and_standings() -> None:
    match = Match("boggle").add({"a": 3, "b": 5}).add({"a": 4, "c": 1})
    assert match.totals() == {"a": 7, "b": 5, "c": 1}
    assert match.standings() == [("a", 7), ("b", 5), ("c", 1)]
    assert not match.over and match.leaders() == ["a"]


def test_ends_after_its_rounds_and_refuses_more() -> None:
    match = Match("boggle", rounds_to_play=2).add({"a": 1}).add({"a": 1})
    assert match.over
    with pytest.raises(RuleError, match="ended"):
        match.add({"a": 1})


def test_ends_at_its_target() -> None:
    match = Match("big-boggle", target=10).add({"a": 9, "b": 2})
    assert not match.over
    assert match.add({"a": 1, "b": 0}).over


def test_round_trips_through_json_and_rejects_garbage() -> None:
    match = Match("boggle", target=50).add({"a": 3})
    assert Match.from_dict(json.loads(json.dumps(match.to_dict()))) == match
    with pytest.raises(NotationError):
        Match.from_dict({"rounds": 3})
    with pytest.raises(RuleError):
        Match("boggle", target=0)


def test_score_adds_rounds_to_a_match_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.txt").write_text("slate\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("strange\n", encoding="utf-8")
    file = tmp_path / "match.json"
    args = ["score", "--game", "boggle", "--board", "TNTB/GDAR/ELTE/SISH"]
    args += [f"a={tmp_path / 'a.txt'}", f"b={tmp_path / 'b.txt'}", "--match", str(file)]
    assert main([*args, "--rounds", "2"]) == 0
    capsys.readouterr()
    assert main([*args, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)["match"]
    assert document["rounds"] == 2 and document["over"] and document["leaders"] == ["b"]
    assert document["standings"] == [{"name": "b", "total": 10}, {"name": "a", "total": 4}]
    assert main(args) == 2
    assert "ended" in capsys.readouterr().err
    file.write_text("not json", encoding="utf-8")
    assert main(args) == 2
