"""`cuberef demo` and the real seams: the bundled photos, the solver and crossword seams,
and the whole demo as a user runs it (its Ad-Lib turn read live from the replay camera
too)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from device.seams.seams import Scorer
from engine.adlib import Roll
from engine.board import Board
from engine.games import find_game

ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_photos_and_their_truth_are_bundled():
    demo = resources.files("device") / "data" / "demo"
    truth = json.loads((demo / "truth.json").read_text(encoding="utf-8"))
    for name in truth:
        assert (demo / name).is_file()
        assert (demo / name).stat().st_size < 200_000  # small enough to commit
    Board.parse(truth["boggle/1-roll.jpg"]["board"])


def test_the_solver_seam_lists_words_with_points():
    words = Scorer().solve(Board.parse("TNTB/GDAR/ELTE/SISH"), find_game("boggle"))
    assert words and all(w.points >= 1 and len(w.word) >= 3 for w in words)


def test_the_crossword_seams_score_and_better_a_crossword():
    scorer, game = Scorer(), find_game("adlib")
    roll = Roll.parse("M O N E Y S T E B U J O Q")
    refereed = scorer.score_crossword(roll, ("S....", "T.B.J", "E.U.O", "MONEY"), game)
    verdict, rows = refereed.verdict, refereed.rows
    assert verdict.valid and verdict.score == 31 and rows[-1] == "MONEY"
    best = scorer.best_crossword(roll, game, 0.5)
    assert best.score >= verdict.score or not best.proven_optimal


def test_the_phones_typing_screen_shows_the_clock_at_its_moment(tmp_path):
    """The phones type while the timer runs: the screen saved after their words shows the
    time then left, not the 3:00 the round started with."""
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "demo", "--game", "boggle", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    journal = (tmp_path / "boggle" / "screens.jsonl").read_text(encoding="utf-8").splitlines()
    shots = [json.loads(line) for line in journal]
    typing = [
        k
        for k, shot in enumerate(shots)
        if shot["state"] == "timing" and "phones-typing" in shot["file"]
    ]
    assert len(typing) == 2
    for k in typing:
        started = next(
            shots[j] for j in range(k, -1, -1) if shots[j]["file"].endswith("-timing.png")
        )
        assert "3:00" in started["text"] and "Words: Ann 0 · Ben 0" in started["text"]
        left = math.ceil(180 - (shots[k]["t"] - started["t"]))
        assert 0 < left < 180
        assert f"{left // 60}:{left % 60:02d}" in shots[k]["text"]
        assert "Words: Ann 5 · Ben 5" in shots[k]["text"]


@pytest.mark.slow
def test_the_demo_plays_boggle_on_two_phones_an_ad_lib_match_and_a_turn_read_live(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "demo", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    said = result.stdout
    live_reading(said, tmp_path / "adlib-live")
    for phone in ("Ann", "Ben"):
        assert f"phone: {phone} joined" in said
    assert "phone: Ann typed cat: not on the board" in said
    assert "phone: Ben typed ox: too short" in said
    # two matches on the same two phones, each phone scored in both
    assert said.count("scored: Ann 9, Ben 5") == 2 and said.count("phone: Ann sees 9 points") == 2
    assert said.count("phone: Ann joined") == 1 and "match 2: Winner: Ann." in said
    assert "who starts: Ann threw T = 2" in said and "who starts: Ben threw E = 1" in said
    assert "Ann: crossword ..S./..LA/.GIN/MAC./ELK./N... scores 58 (valid)" in said
    assert "Ben: crossword MILK/A.../LAIR/E... scores 20 (valid)" in said
    # Boggle's first match, the Ad-Lib match and the Ad-Lib turn on the replay camera
    assert said.count("match 1: Winner: Ann. Press the button for a new match.") == 3
    shots = {
        family: [p.stem.split("-", 1)[1] for p in sorted((tmp_path / family).glob("*.png"))]
        for family in ("boggle", "adlib")
    }
    match = [
        "reading", "timing", "phones-typing", "last-ten-seconds", "scoring", "scored", "match"
    ]  # fmt: skip
    assert shots["boggle"] == ["idle", *match, *match]
    journal = (tmp_path / "boggle" / "screens.jsonl").read_text(encoding="utf-8").splitlines()
    typing = [json.loads(line) for line in journal if "phones-typing" in line]
    assert len(typing) == 2 and all("Words: Ann 5 · Ben 5" in t["text"] for t in typing)
    assert shots["adlib"] == [
        "idle", *["reading", "starter"] * 2,
        *["reading", "timing", "last-ten-seconds", "time-up", "scoring", "scored", "match"] * 2,
    ]  # fmt: skip


def live_reading(said: str, out: Path) -> None:
    """The Ad-Lib turn on the replay camera: the table read live as the crossword grows,
    a screen for each new reading (its running score, the words laid, the unused cubes
    standing out), and at 0:00 the last reading scored without a press."""
    shots = [p.stem.split("-", 1)[1] for p in sorted(out.glob("*.png"))]
    assert shots == [
        "idle", "reading", "timing", *["live-reading"] * 4,
        "last-ten-seconds", "scoring", "scored", "match",
    ]  # fmt: skip
    journal = [json.loads(line) for line in (out / "screens.jsonl").read_text().splitlines()]
    live = [entry["text"] for entry in journal if "live-reading" in entry["file"]]
    scores = [next(n for n, text in enumerate(texts) if text.endswith(" so far")) for texts in live]
    # the running score, then the words laid (a line wrapped on the screen joined again)
    assert [
        (texts[n], " ".join(texts[n + 1 :])) for texts, n in zip(live, scores, strict=True)
    ] == [
        ("-16 so far", "Laid: MONEY"),
        ("-3 so far", "Laid: MONEY · STEM"),
        ("13 so far", "Laid: MONEY · STEM · BUN"),
        ("31 so far", "Laid: MONEY · STEM · BUN · JOY"),
    ]
    assert "live: S..../T.B.J/E.U.O/MONEY scores 31 so far; unused: Q 8" in said
    assert "Ann: crossword S..../T.B.J/E.U.O/MONEY scores 31 (valid)" in said
