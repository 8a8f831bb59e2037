"""`cuberef demo` and the real seams, once the reader, the model and the solvers are
installed beside the box (they live on other branches until the lead merges them)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from device.seams import Scorer
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
    roll = "M O N E Y S T E B U J O Q"
    verdict, rows = scorer.score_crossword(roll, ("S....", "T.B.J", "E.U.O", "MONEY"), game)
    assert verdict.valid and verdict.score == 31 and rows[-1] == "MONEY"
    best = scorer.best_crossword(roll, game, 0.5)
    assert best.score >= verdict.score or not best.proven_optimal


@pytest.mark.slow
def test_the_demo_plays_a_round_of_each_family(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "demo", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    for family in ("boggle", "adlib"):
        names = sorted(p.name for p in (tmp_path / family).glob("*.png"))
        assert any("scored" in n for n in names) and any("match" in n for n in names)
