"""Standings from the tables' results (wins, then points, then spread), and the director's
store keeping each result once however often it arrives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.club import results
from device.club.ledger import Ledger
from device.club.pairing import Seating
from engine.errors import CuberefError


def message(table: int, match: int, number: int, event_round: int | None, **scores: int) -> str:
    players = [{"name": n, "score": s, "words": []} for n, s in scores.items()]
    return json.dumps(
        {"table": table, "match": match, "round": number, "event_round": event_round,
         "final": False, "players": players}
    )  # fmt: skip


def test_standings_order_wins_then_points_then_spread() -> None:
    got = [
        results.read(1, message(1, 7, 1, 1, Ann=10, Ben=4)),
        results.read(1, message(1, 7, 2, 1, Ann=1, Ben=5)),  # Ann 11, Ben 9: Ann wins
        results.read(2, message(2, 3, 1, 1, Cy=20, Dee=2, Eve=20)),  # a draw: both win
        results.read(2, message(2, 9, 1, None, Cy=99)),  # not seated: counts nothing
    ]
    rows = {s.name: s for s in results.standings(got, ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"])}
    assert rows["Ann"] == results.Standing("Ann", 1, 1, 11, 2)
    assert rows["Ben"] == results.Standing("Ben", 1, 0, 9, -2)
    assert rows["Cy"] == results.Standing("Cy", 1, 1, 20, 0)
    assert rows["Dee"].spread == -18 and rows["Fay"] == results.Standing("Fay", 0, 0, 0, 0)
    order = [s.name for s in results.standings(got, ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay"])]
    assert order == ["Cy", "Eve", "Ann", "Ben", "Dee", "Fay"]


@pytest.mark.parametrize(
    "payload",
    [b"not json", b"[]", b'{"players": [{"score": 1}]}', b'{"players": [], "round": 1}',
     b'{"players": [], "match": 1, "round": 0}', b'{"players": [{"name": "A", "score": "9"}]}'],
)  # fmt: skip
def test_a_result_that_is_not_one_is_one_sentence(payload: bytes) -> None:
    with pytest.raises(CuberefError, match=r"^Table 4 sent|^A result's"):
        results.read(4, payload)


def test_the_ledger_keeps_a_result_once_and_outlives_a_restart(tmp_path: Path) -> None:
    ledger = Ledger(tmp_path)
    first = results.read(2, message(2, 5, 1, 1, Ann=3, Ben=4))
    assert ledger.record(first) is True
    assert ledger.record(first) is False  # delivered twice
    assert ledger.record(results.read(2, message(2, 5, 2, 1, Ann=3, Ben=4))) is True
    assert ledger.record(results.read(3, message(3, 5, 1, 1, Cy=1))) is True  # another table
    ledger.seat(Seating(1, (("Ann", "Ben"), ("Cy",)), ("Dee",)))
    ledger.close()
    again = Ledger(tmp_path)
    assert [r.key for r in again.results()] == [(2, "5", 1), (2, "5", 2), (3, "5", 1)]
    assert again.results()[0] == first
    assert again.seatings() == [Seating(1, (("Ann", "Ben"), ("Cy",)), ("Dee",))]
    with pytest.raises(Exception, match="UNIQUE"):
        again.seat(Seating(1, (("Ann", "Ben"),)))  # a round is seated once
    again.close()
