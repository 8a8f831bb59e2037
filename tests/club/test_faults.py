"""Faults at a club's evening, with nothing lost and nothing counted twice: a box killed
with SIGKILL mid-round and started again, the broker stopped and started mid-round, a box
cut off from the broker for a whole round and then back, the director restarted between
rounds."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from club.boxes import ROOT, TRAYS, scripted_box
from club.proxy import Relay
from club.tables import EVENT, make_event, until
from device.club import credentials, director, rounds
from device.club.broker import Mosquitto
from device.club.event import Event
from device.club.serve import serving
from device.commands.club_demo import ClubBox, history

SEATS = ["P01", "P02", "P03", "P04"]


def club_of(chosen: Event, table: int, port: int | None = None) -> dict[str, Any]:
    secret = credentials.secret_path(chosen.folder, f"table-{table}")
    url = f"mqtt://127.0.0.1:{port or chosen.port}"
    return {"broker": url, "event": EVENT, "table": table, "secret_file": str(secret)}


def seated(chosen: Event, ledger: Any, boxes: list[ClubBox], skip: int = 0) -> None:
    """The next round seated, published, and shown on every box (but table ``skip``'s)."""
    seating = rounds.next_seating(chosen, ledger, force=True)
    assert director.publish_seating(chosen, seating)
    for table, (box, players) in enumerate(zip(boxes, seating.tables, strict=False), 1):
        if table == skip:
            continue
        line = rounds.seating_line(table, seating.round, players)
        until(lambda b=box, shown=line: shown in b.screen_text())
        box.seat(players)


def kept_once(ledger: Any, boxes: dict[int, Path]) -> None:
    """The director holds every round each box's own history holds (the box's folder by
    its table), with its scores, and nothing else."""
    expected = set()
    for table, folder in boxes.items():
        for match in history(folder)["matches"]:
            for done in match["rounds"]:
                scores = tuple((s["name"], s["score"]) for s in done["sides"])
                expected.add((table, str(match["id"]), done["round"], scores))
    held = [(r.table, r.match, r.round, r.scores) for r in ledger.results()]
    assert len(held) == len(set(held)) and set(held) == expected


def test_the_broker_stopped_mid_round_then_started(tmp_path: Path) -> None:
    chosen = make_event(tmp_path, 1, table_size=4, players=SEATS)
    with serving(chosen, 0, "127.0.0.1") as running:
        assert running.mosquitto is not None
        box = scripted_box(tmp_path / "box1", club_of(chosen, 1), TRAYS)
        try:
            until(lambda: box.box.club is not None and box.box.club.reporter.connected.is_set())
            seated(chosen, running.director.ledger, [box])
            box.start_round(dict.fromkeys(SEATS, 3))
            running.mosquitto.stop()
            box.finish_match()  # scored while the broker is away: kept in the outbox
            assert box.box.club is not None
            until(lambda: box.box.club.reporter.outbox.pending())  # type: ignore[union-attr]
            running.mosquitto.start()
            until(lambda: len(running.director.ledger.results()) == 1, 15)
            until(lambda: not box.box.club.reporter.outbox.pending())  # type: ignore[union-attr]
            kept_once(running.director.ledger, {1: box.folder})
        finally:
            box.close()


def test_a_box_cut_off_for_a_whole_round_then_back(tmp_path: Path) -> None:
    chosen = make_event(tmp_path, 2, table_size=4, players=[f"P{n:02d}" for n in range(1, 9)])
    relay = Relay(("127.0.0.1", chosen.port))
    with serving(chosen, 0, "127.0.0.1") as running:
        boxes = [
            scripted_box(tmp_path / "box1", club_of(chosen, 1, relay.port), TRAYS),
            scripted_box(tmp_path / "box2", club_of(chosen, 2), TRAYS),
        ]
        try:
            seated(chosen, running.director.ledger, boxes)
            relay.cut()
            for box in boxes:
                box.play_match({name: 3 for name in box.phones})
            until(lambda: [r.table for r in running.director.ledger.results()] == [2])
            until(lambda: not running.director.snapshot()["tables"][0]["online"])
            seated(chosen, running.director.ledger, boxes, skip=1)  # round 2 goes on without it
            relay.mend()
            until(lambda: {r.table for r in running.director.ledger.results()} == {1, 2}, 15)
            until(lambda: running.director.snapshot()["tables"][0]["online"])
            assert [r.event_round for r in running.director.ledger.results() if r.table == 1] == [1]
            kept_once(running.director.ledger, {1: boxes[0].folder, 2: boxes[1].folder})
        finally:
            for box in boxes:
                box.close()
            relay.close()


def test_the_director_restarted_between_rounds(tmp_path: Path) -> None:
    chosen = make_event(tmp_path, 1, table_size=4, players=SEATS)
    own = Mosquitto(chosen.folder, chosen.name, chosen.port)
    own.start()
    elsewhere = Event(**{**chosen.__dict__, "broker": own.url, "rounds": 2})
    box = scripted_box(tmp_path / "box1", club_of(chosen, 1), TRAYS)
    try:
        with serving(elsewhere, 0, "127.0.0.1") as running:
            seated(elsewhere, running.director.ledger, [box])
            box.play_match(dict.fromkeys(SEATS, 2))
            until(lambda: len(running.director.ledger.results()) == 1)
            seated(elsewhere, running.director.ledger, [box])
        box.play_match(dict.fromkeys(SEATS, 4))  # its result waits in the broker for him
        until(lambda: not box.box.club.reporter.outbox.pending())  # type: ignore[union-attr]
        with serving(elsewhere, 0, "127.0.0.1") as running:
            until(lambda: len(running.director.ledger.results()) == 2)
            kept_once(running.director.ledger, {1: box.folder})
            assert [r.event_round for r in running.director.ledger.results()] == [1, 2]
    finally:
        box.close()
        own.stop()


KILLED = """
import json, sys, time
sys.path.insert(0, {tests!r})
from pathlib import Path
from club.boxes import scripted_box, TRAYS
box = scripted_box(Path({folder!r}), json.loads({club!r}), TRAYS)
while box.box.club.reporter.seat is None:
    time.sleep(0.01)
box.screen_text()
box.seat({seats!r})
box.start_round(dict.fromkeys({seats!r}, 3))
print("mid-round", flush=True)
time.sleep(60)
"""


def test_a_box_killed_mid_round_and_started_again(tmp_path: Path) -> None:
    chosen = make_event(tmp_path, 1, table_size=4, players=SEATS)
    club = club_of(chosen, 1)
    with serving(chosen, 0, "127.0.0.1") as running:
        ledger = running.director.ledger
        assert director.publish_seating(chosen, rounds.next_seating(chosen, ledger))
        script = KILLED.format(
            tests=str(ROOT / "tests"), folder=str(tmp_path / "box1"), club=json.dumps(club),
            seats=SEATS,
        )  # fmt: skip
        child = subprocess.Popen(
            [sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True,
            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
        )  # fmt: skip
        assert child.stdout is not None and child.stdout.readline() == "mid-round\n"
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        until(lambda: not running.director.snapshot()["tables"][0]["online"])
        # Started again on its store: the round resumes, is scored and sent once.
        box = scripted_box(tmp_path / "box1", club, TRAYS[1:])
        try:
            assert str(box.box.referee.state) == "timing"  # resumed mid-round
            box.finish_match()
            until(lambda: len(ledger.results()) == 1)
            until(lambda: box.box.club is not None and box.box.club.settled())
            kept_once(ledger, {1: tmp_path / "box1"})
            assert any(points > 0 for _name, points in ledger.results()[0].scores)  # its words
            until(lambda: running.director.snapshot()["tables"][0]["online"])
        finally:
            box.close()
