"""Issue 32's ``best``: it answers or says why, never a silent wrong answer; an early
Ctrl-C is one sentence with no worker's traceback; the time left it shows never grows."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from device.cli import main
from device.seams.search import SearchFailed, _Team, best_crossword
from engine.adlib.best import PLAN, Progress
from engine.adlib.roll import Roll
from engine.faces import Face
from engine.lexicon import Lexicon

ROOT = Path(__file__).resolve().parents[1]
MANY = " ".join(["A"] * 256 + ["D", "R", "T"])


def test_a_roll_the_search_cannot_count_is_one_sentence(capsys: pytest.CaptureFixture[str]):
    for workers in ("1", "2"):
        code = main(["best", "--game", "scribbage", "--roll", MANY, "--workers", workers])
        err = capsys.readouterr().err
        assert code == 2 and "259 faces, more than the 255" in err, err
    assert main(["best", "--game", "scribbage", "--roll", MANY.split(" ", 4)[4]]) == 0
    out = capsys.readouterr().out  # 252 A's and D R T: DART-like words are found
    assert "no word can be laid" not in out and "D" in out and "R" in out


def test_a_worker_whose_search_raises_is_said_never_an_empty_answer():
    lexicon = Lexicon.open("en")
    faces = tuple(Face.parse(letter) for letter in MANY.split())
    roll = Roll("scribbage", faces)  # past Roll.parse's limit: each worker's layout fails
    with pytest.raises(SearchFailed, match="ValueError"):
        best_crossword(roll, lexicon, 2.0, workers=2)


def test_the_time_left_shown_never_grows():
    roll = Roll.parse("A T", "scribbage")
    team = _Team.__new__(_Team)  # its standing alone, from slots as the workers leave them
    team.processes, team.left = [None, None], math.inf  # type: ignore[list-item]

    class Best:
        value = 3

    team.best = Best()
    team.roll = roll
    team.slots = [-math.inf, 0, 0, 0.0] * 2  # no worker has told anything yet
    assert team._standing({}) is None  # so no bound (nor 0.0 s left) is shown
    seen = []
    for fresh, stale in ((4.0, 9.0), (3.5, 9.0), (3.0, 2.0), (1.0, 8.0)):
        team.slots = [3, 5, 10, fresh, 3, 5, 10, stale]  # one worker's slot is stale
        seen.append(team._standing({}).left)
    assert seen == [9.0, 9.0, 3.0, 3.0]  # the stale 8.0 after 3.0 is not shown
    assert isinstance(team._standing({}), Progress) and PLAN is not None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize("after", [0.0, 0.05, 0.15, 0.3, 0.6])
def test_an_early_ctrl_c_is_one_sentence_without_a_workers_traceback(after: float):
    command = [sys.executable, "-m", "device.cli", "best", "--game", "adlib"]
    command += ["--roll", "O M W P G L R N S A O I T", "--seconds", "30", "--workers", "2"]
    search = subprocess.Popen(
        command, start_new_session=True, stderr=subprocess.PIPE, text=True, cwd=ROOT
    )
    time.sleep(after + 0.4)  # the interpreter's own start, then the search's
    os.killpg(search.pid, signal.SIGINT)  # Ctrl-C reaches the whole group
    try:
        _, err = search.communicate(timeout=30)
    finally:
        if search.poll() is None:
            os.killpg(search.pid, signal.SIGKILL)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert search.returncode == 130 and err.strip() == "cuberef: stopped.", err
