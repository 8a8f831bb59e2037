"""A box killed (SIGKILL, as a power cut) while phones are typing loses no word a phone
was told is kept, and no round: the restarted box resumes the round with every list."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

from device.referee.flow import State

from .test_page import free_port, page_box, post

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import sys, time
sys.path.insert(0, sys.argv[3])
from pathlib import Path
from box.test_page import page_box
made, clock, url = page_box(Path(sys.argv[1]), Path(sys.argv[2]), rounds=1, port=int(sys.argv[4]))
print(made.referee.join_code, flush=True)
sys.stdin.readline()  # the phones have joined: the round begins
made.box.events.put("tap")
made.box.step()
print(made.referee.state, flush=True)
while True:
    time.sleep(0.05)
"""

WORDS = [
    "cot",
    "hunt",
    "humane",
    "happen",
    "aunts",
    "equips",
    "huntsman",
    "amen",
    "cons",
    "cost",
    "cots",
    "cross",
    "emptor",
    "equip",
    "hamper",
    "hams",
    "human",
    "hump",
]


def test_a_kill_while_phones_type_loses_no_kept_word_and_no_round(tmp_path, photos):
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path), str(photos), str(ROOT / "tests"), str(port)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert child.stdout is not None and child.stdin is not None
    code = child.stdout.readline().strip()
    kept: dict[str, list[str]] = {"Ann": [], "Ben": []}
    tokens = {name: post(url, "join", {"code": code, "name": name})[1]["token"] for name in kept}
    child.stdin.write("go\n")
    child.stdin.flush()
    assert child.stdout.readline().strip() == "timing"
    killed = threading.Event()

    def typist(name: str) -> None:
        for word in WORDS:
            if killed.is_set():
                return
            try:
                status, answer = post(
                    url, "word", {"code": code, "token": tokens[name], "word": word}
                )
            except (urllib.error.URLError, ConnectionError, json.JSONDecodeError):
                return  # the box is gone: this word was never said to be kept
            if status == 200:
                kept[name].append(answer["word"])

    threads = [threading.Thread(target=typist, args=(name,)) for name in kept]
    for thread in threads:
        thread.start()
    while len(kept["Ann"]) + len(kept["Ben"]) < 12:
        threading.Event().wait(0.01)
    child.send_signal(signal.SIGKILL)  # mid-round, with both phones typing
    killed.set()
    child.wait()
    for thread in threads:
        thread.join()
    made, _, _ = page_box(tmp_path, photos, rounds=1)
    assert made.referee.state is State.TIMING and made.referee.round.number == 1
    desk = made.referee.desk
    for name, words in kept.items():
        listed = [typed.word for typed in desk.words(name)]
        assert listed[: len(words)] == words  # every kept word, in order (perhaps one more)
        assert len(listed) - len(words) <= 1
    made.close()
