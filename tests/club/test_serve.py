"""The director serving an event on its own mosquitto and boxes reporting to it: each
result kept once, the seating shown on the box, results kept in the box's outbox while
the broker is away and sent when it is back. (A box killed is marked offline by its
will: tests/club/test_faults.py.)"""

from __future__ import annotations

import time
from pathlib import Path

from club.tables import make_event, reporter, scored, until
from device.club import director, rounds
from device.club.ledger import Ledger
from device.club.outbox import Outbox
from device.club.serve import serving

ROOT = Path(__file__).resolve().parents[2]


def test_results_are_kept_once_and_the_box_shows_its_seat(tmp_path: Path) -> None:
    chosen = make_event(tmp_path, pairing="king-of-the-hill", table_size=4)
    with serving(chosen, 0, "127.0.0.1") as running:
        box = reporter(chosen, 2, tmp_path / "box2")
        box.start()
        try:
            until(running.director.connected.is_set)
            until(box.connected.is_set)
            ledger = Ledger(chosen.folder)
            seating = rounds.next_seating(chosen, ledger)
            ledger.close()
            assert director.publish_seating(chosen, seating)
            until(lambda: box.seat is not None)
            assert box.seat is not None and box.seat.line == (
                f"Table 2 · round 1: {', '.join(seating.tables[1])}"
            )
            names = dict.fromkeys(seating.tables[1], 0)
            box.state({"phase": "playing", "clock": 170, "players": list(names), "scores": names})
            box.result(scored(7, 1, **dict(zip(seating.tables[1], [5, 3, 2, 1], strict=True))))
            box.result(scored(7, 1, **dict(zip(seating.tables[1], [5, 3, 2, 1], strict=True))))
            box.result(scored(7, 2, final=True, **dict.fromkeys(seating.tables[1], 1)))
            until(lambda: len(running.director.ledger.results()) == 2)
            until(lambda: not box.outbox.pending())
            board = running.director.snapshot()
            table = next(t for t in board["tables"] if t["table"] == 2)
            assert table["online"] and table["clock"] == 170 and table["round"] == 1
            assert table["seated"] == list(seating.tables[1])
            top = board["standings"][0]
            assert (top["name"], top["played"], top["won"], top["points"]) == (
                seating.tables[1][0], 1, 1, 6,
            )  # fmt: skip
            # Sent again (a box restarted before the PUBACK): still counted once.
            box.outbox.add(
                "7/1", box.topic("results"), running.director.ledger.results()[0].payload
            )
            box.wake.set()
            until(lambda: not box.outbox.pending())
            time.sleep(0.2)
            assert len(running.director.ledger.results()) == 2
        finally:
            box.stop()
        until(lambda: not running.director.snapshot()["tables"][0]["online"])


def test_results_wait_in_the_outbox_while_the_broker_is_away(tmp_path: Path) -> None:
    chosen = make_event(tmp_path)
    box = reporter(chosen, 1, tmp_path / "box1")
    box.start()  # no broker yet
    try:
        began = time.monotonic()
        box.state({"phase": "playing", "clock": 12, "players": ["P01"], "scores": {"P01": 0}})
        box.result(scored(3, 1, P01=9, P02=4))
        assert time.monotonic() - began < 0.1  # the referee never waits on the broker
        assert [key for key, _t, _p in box.outbox.pending()] == ["3/1"]
        with serving(chosen, 0, "127.0.0.1") as running:
            until(lambda: len(running.director.ledger.results()) == 1, 15)
            until(lambda: not box.outbox.pending())
            assert running.director.snapshot()["tables"][0]["clock"] == 12
    finally:
        box.stop()
    # The outbox is the box's store: a box restarted finds nothing left to send.
    assert Outbox(tmp_path / "box1" / "matches.db").pending() == []
