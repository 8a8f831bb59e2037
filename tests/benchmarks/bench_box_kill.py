"""kill -9 of the headless box at random moments (issue 22): nothing it said it saved is lost.

Each cycle starts a box (the real referee, store, screen on SDL's dummy driver, a keyboard
player typing words, a fake clock that races through rounds) on the same match store,
lets it resume whatever the last one left and play on at random (taps, words, faces
corrected, time passing), and kills it with SIGKILL after a random delay, often before
it has even finished starting. The box prints each event the moment the store's
``record`` returns it (the point at which the box treats it as kept: a phone is told its
word is kept only then). After all cycles every printed event must be in the store,
byte for byte. Figures: cycles, boxes that started, events reported saved, found, lost,
rows set aside as unreadable, boxes that died on their own (with a traceback), and the
states the boxes resumed in.

Run: ``nice .venv/bin/python tests/benchmarks/bench_box_kill.py [--cycles 200] [--passes 2]``
(about 2 s a cycle here).
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, os, random, sys, time
os.environ["SDL_VIDEODRIVER"] = "dummy"
sys.path.insert(0, sys.argv[3])
from pathlib import Path
from box.conftest import tray_reading
from box.test_round import box_settings, settings_of
from device.box.assemble import assemble
from device.base.clock import FakeClock
from device.referee.flow import State
from device.store.store import Store

real_record = Store.record

def record(self, match, round_, at, payload):
    event = real_record(self, match, round_, at, payload)
    from device.store.events import dumps
    said = [event.id, event.match, event.round, str(event.kind), dumps(payload)]
    print(json.dumps(said), flush=True)  # reported as saved only once it is committed
    return event

Store.record = record

class Tray:
    def read_roll(self, image, game):
        return tray_reading()

    def read_crossword(self, image, game, lexicon=""):
        raise AssertionError("a Boggle box reads no crossword")

    def read_table(self, image, game, lexicon=""):
        raise AssertionError("a Boggle box reads no table live")

chosen = box_settings(Path(sys.argv[1]), Path(sys.argv[2]))
chosen["button"]["backend"] = "keys"
chosen["buzzer"]["type"] = "silent"
chosen["players"] = ["Ann"]
chosen["page"]["keyboard_player"] = "Ann"
chosen["target_score"] = 40
clock = FakeClock(wall_start=time.time())
made = assemble(settings_of(chosen), clock, reader=Tray())
referee = made.referee
made.box.step()  # the first screen: the cubes a touch may correct are laid out
print(json.dumps(["ready", str(referee.state)]), flush=True)
rng = random.Random(int(sys.argv[4]))
words = ["dart", "slate", "tnt", "zzz", "art", "dare", "gel", "tart", "stile", "his"]
while True:
    action = rng.random()
    if action < 0.45 and referee.state is State.TIMING:
        referee.keyboard.letters(rng.choice(words) + rng.choice(["", "s", "e"]))
        referee.keyboard.enter()
    elif action < 0.55 and referee.state is State.TIMING:
        made.box.touch(made.box.screen.layout.cells[rng.randrange(16)].center)
    elif action < 0.8:
        made.box.events.put("tap")
    else:
        clock.advance(rng.uniform(1, 60))
    made.box.step()
    time.sleep(rng.uniform(0, 0.004))
"""


def cycle(store: Path, photos: Path, seed: int, wait: float) -> dict[str, Any]:
    """One box, started on ``store`` and killed after ``wait`` seconds."""
    command = [sys.executable, "-c", CHILD, str(store), str(photos), str(ROOT / "tests"), str(seed)]
    with tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT)
        time.sleep(wait)
        died = child.poll() is not None  # on its own, before the kill
        child.send_signal(signal.SIGKILL)
        out, _ = child.communicate()
        err.seek(0)
        errors = err.read()
    lines = []
    for line in out.splitlines():
        try:
            lines.append(json.loads(line))
        except json.JSONDecodeError:  # the line the kill cut short: never reported whole
            continue
    ready = [line[1] for line in lines if line[0] == "ready"]
    return {
        "saved": [line for line in lines if line[0] != "ready"],
        "resumed": ready[0] if ready else None,
        "died": died or "Traceback" in errors,
        "errors": errors if "Traceback" in errors else "",
    }


def stored(folder: Path) -> tuple[dict[int, list[Any]], int]:
    """Every event row in the store (id -> what it says), and the rows set aside."""
    with sqlite3.connect(folder / "store" / "matches.db") as db:
        rows = db.execute("SELECT id, match, round, kind, data FROM events").fetchall()
        aside = db.execute("SELECT COUNT(*) FROM quarantine").fetchone()[0]
    return {row[0]: list(row) for row in rows}, int(aside)


def run_pass(cycles: int, number: int, rng: random.Random) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        photos = folder / "photos"
        photos.mkdir()
        (photos / "0.png").write_bytes(_png())
        reported: dict[int, list[Any]] = {}
        resumed: collections.Counter[str] = collections.Counter()
        died, started = [], 0
        began = time.perf_counter()
        for k in range(cycles):
            seen = cycle(folder, photos, rng.randrange(2**31), rng.uniform(0.3, 3.0))
            for event in seen["saved"]:
                reported[event[0]] = event
            if seen["resumed"] is not None:
                started += 1
                resumed[seen["resumed"]] += 1
            if seen["died"]:
                died.append(seen["errors"][-600:])
            if (k + 1) % 20 == 0:
                print(f"  pass {number}: {k + 1} cycles, {len(reported)} events", flush=True)
        rows, aside = stored(folder)
        lost = [event for key, event in reported.items() if rows.get(key) != event]
    return {
        "pass": number,
        "cycles": cycles,
        "started": started,
        "reported_saved": len(reported),
        "in_store": len(rows),
        "lost": len(lost),
        "lost_examples": lost[:5],
        "set_aside": aside,
        "died_on_their_own": len(died),
        "died_examples": died[:2],
        "resumed_in": dict(resumed),
        "seconds": round(time.perf_counter() - began, 1),
    }


def _png() -> bytes:
    import cv2
    import numpy as np

    ok, data = cv2.imencode(".png", np.full((60, 80, 3), 90, np.uint8))
    assert ok
    return data.tobytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results = [run_pass(args.cycles, n, rng) for n in range(1, args.passes + 1)]
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for r in results:
        print(
            f"pass {r['pass']}: {r['cycles']} kill -9 cycles ({r['started']} boxes had started),"
            f" {r['reported_saved']} events reported saved, {r['in_store']} in the store,"
            f" {r['lost']} lost, {r['set_aside']} set aside, {r['died_on_their_own']} died on"
            f" their own; resumed in {r['resumed_in']}; {r['seconds']} s"
        )
        for example in r["lost_examples"] + r["died_examples"]:
            print("   ", example)


if __name__ == "__main__":
    main()
