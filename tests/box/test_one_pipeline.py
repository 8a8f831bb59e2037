"""The command line and the box call the same pipeline for each job: a crossword photo
is read by ``seams.VisionReader`` and refereed (jokers settled first) by
``seams.Scorer``, whether ``cuberef score PHOTO`` or the box's score step asks."""

from __future__ import annotations

import json
from importlib import resources

from device.cli import main
from device.seams.seams import Scorer, VisionReader
from engine.adlib import Roll
from engine.games import find_game

DEMO = resources.files("device") / "data" / "demo"


def counted(monkeypatch, kind, name):
    calls = []
    real = getattr(kind, name)

    def spy(self, *args, **kwargs):
        calls.append(args)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(kind, name, spy)
    return calls


def test_score_photo_reads_and_referees_through_the_seams(monkeypatch, capsys):
    reads = counted(monkeypatch, VisionReader, "read_crossword")
    referees = counted(monkeypatch, Scorer, "score_crossword")
    photo = str(DEMO / "adlib" / "2-crossword.jpg")
    assert main(["score", photo, "--game", "adlib", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    truth = json.loads((DEMO / "truth.json").read_text(encoding="utf-8"))["adlib/2-crossword.jpg"]
    assert document["score"] == truth["score"] and len(reads) == len(referees) == 1
    roll, rows, game, lexicon = referees[0][:4]
    assert tuple(rows) == tuple(truth["grid"]) and game.id == "adlib" and lexicon == "en"
    # The box's scorer gives the very same verdict for the same reading.
    refereed = Scorer().score_crossword(roll, rows, find_game("adlib"), "en")
    assert refereed.verdict.to_json() == {k: document[k] for k in refereed.verdict.to_json()}


def test_a_joker_is_settled_the_same_way_for_a_photo_and_a_typed_grid(tmp_path, capsys):
    roll = "O I R B T A E K N C W * A"
    # as a photo shows it:
    read = Scorer().score_crossword(Roll.parse(roll), ("CA*",), find_game("adlib"))
    assert read.rows == ("CAb",)  # the first letter that fits
    assert read.joker_notes()[0].startswith("The joker at row 1, column 3 stands for B or D")
    grid = tmp_path / "grid.txt"
    grid.write_text("CAb\n", encoding="utf-8")  # as a player types it
    assert main(["score", "--game", "adlib", "--roll", roll, "--grid", str(grid), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == read.verdict.to_json()
