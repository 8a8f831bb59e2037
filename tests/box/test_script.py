"""``cuberef run --simulate --script FILE --screens FOLDER`` as it is run from outside: the
script's events played on the real box (the bundled photos read by the real reader, the
real clock), exit 0 at its end, exit 1 with a sentence when a wait times out, exit 2 for
a wrong script; ``screens.jsonl`` one line a saved screen, numbered on after a restart."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from device.cli import main

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = resources.files("device") / "data" / "demo" / "boggle"

SCRIPT = """\
# a round on the bundled tray, the keyboard's player typing
wait idle 10
press
wait reading 20
wait timing 30
keys tas          # and no Enter
sleep 3.2         # past a round's first seconds
type t            # TAST: not a word, but handed in
press             # the players call time
wait scored 30
sleep 1.2         # a press right after a change of screen would be the same press
double            # to the match table, once
wait match 5
sleep 1.2
press             # the next round
wait timing 30
"""


def run_box(tmp_path: Path, script: str, screens: Path) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "box.toml"
    config.write_text(
        f'timer_seconds = 60\n[store]\nfolder = "{tmp_path / "store"}"\n'
        '[page]\nkeyboard_player = "Dee"\n[screen]\nbackend = "dummy"\n',
        encoding="utf-8",
    )
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    with resources.as_file(PHOTOS) as photos:
        command = [
            *(sys.executable, "-m", "device.cli", "run", "--simulate", "--config", str(config)),
            *("--photos", str(photos), "--script", str(path), "--screens", str(screens)),
        ]
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        return subprocess.run(
            command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120
        )


def journal(screens: Path) -> list[dict]:
    lines = (screens / "screens.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


@pytest.mark.slow
def test_a_script_plays_the_box_and_every_screen_is_in_the_journal(tmp_path):
    screens = tmp_path / "screens"
    result = run_box(tmp_path, SCRIPT, screens)
    assert result.returncode == 0, result.stderr
    shown = journal(screens)
    states = [entry["state"] for entry in shown]
    assert states[:3] == ["idle", "reading", "timing"]
    assert states[3:6] == ["scoring", "scored", "match"]  # time up: the lists scored at once
    assert states[6:] == ["reading", "timing"]  # the double press was one press
    for entry in shown:
        assert set(entry) == {"t", "file", "state", "text", "code"}
        assert (screens / entry["file"]).is_file() and entry["file"].endswith(".png")
        assert entry["text"] and all(isinstance(text, str) for text in entry["text"])
        assert entry["code"] is None  # no players' page here
    times = [entry["t"] for entry in shown]
    assert times == sorted(times) and times[-1] > 3.2
    scored = next(entry for entry in shown if entry["state"] == "scored")
    assert "Dee" in scored["text"] and "TAST" in scored["text"]
    timing = shown[-1]["text"]
    assert "Dee: _" in timing  # what was typed in the first round is gone
    numbers = [int(entry["file"].split("-")[0]) for entry in shown]
    assert numbers == list(range(1, len(shown) + 1))

    again = run_box(tmp_path, "wait timing 10\nsleep 0.5\n", screens)  # the box restarted
    assert again.returncode == 0, again.stderr
    after = journal(screens)[len(shown) :]
    assert after[0]["state"] == "timing"  # the round resumed
    assert int(after[0]["file"].split("-")[0]) == len(shown) + 1  # numbered on


def test_a_wait_that_times_out_exits_1_with_a_sentence(tmp_path):
    result = run_box(tmp_path, "wait scored 0.5\n", tmp_path / "screens")
    assert result.returncode == 1
    assert "line 1: the box was not in scored within 0.5 s; it is in idle" in result.stderr
    assert result.stderr.count("\n") == 1 + result.stderr.count("INFO")
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("script", "said"),
    [
        ("press\nwait dancing\n", "line 2: 'dancing' is not a state of the box"),
        ("sleep soon\n", "line 1: 'soon' is not a number of seconds"),
        ("jump\n", "line 1: 'jump' is not a script event"),
        ("keys\n", "line 1: write it as keys TEXT"),
    ],
)
def test_a_wrong_script_is_one_sentence_and_exit_2(tmp_path, capsys, script, said):
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    store = tmp_path / "store"
    config = tmp_path / "box.toml"
    config.write_text(f'[store]\nfolder = "{store}"\n[screen]\nbackend = "dummy"\n')
    assert main(["run", "--simulate", "--config", str(config), "--script", str(path)]) == 2
    assert said in capsys.readouterr().err
    assert not store.exists()  # refused before the box began


def test_a_script_that_types_needs_the_keyboards_player(tmp_path, capsys):
    path = tmp_path / "script.txt"
    path.write_text("press\ntype dart\n", encoding="utf-8")
    assert main(["run", "--simulate", "--script", str(path), "--photos", str(tmp_path)]) == 2
    assert "line 2 types on the box's keyboard" in capsys.readouterr().err
