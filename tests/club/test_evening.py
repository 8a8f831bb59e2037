"""A club's evening: 24 players at 6 scripted boxes, 3 rounds of king of the hill, every
box reporting to the director's own mosquitto. Each round's seating follows the rule
(the standings so far in order, four a table), each box shows its seat, and the
director's standings are the sums of the six boxes' own ``cuberef history --json``."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from club.boxes import TRAYS, scripted_box
from club.tables import EVENT, make_event, until
from device.cli import main
from device.club import credentials, director, rounds
from device.club.serve import serving
from device.commands.club_demo import ClubBox
from device.page.phones import Phones
from engine.errors import RuleError

PLAYERS = [f"P{n:02d}" for n in range(1, 25)]


def history_of(box: ClubBox) -> dict[str, object]:
    config = box.folder / "box.toml"
    config.write_text(f"[store]\nfolder = '{box.folder / 'store'}'\n", encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["history", "--config", str(config), "--json"]) == 0
    return dict(json.loads(out.getvalue()))


def test_24_players_at_6_boxes_for_3_rounds_of_king_of_the_hill(tmp_path: Path) -> None:
    chosen = make_event(tmp_path, 6, players=PLAYERS, rounds=3, table_size=4)
    with serving(chosen, 0, "127.0.0.1") as running:
        url = f"mqtt://127.0.0.1:{chosen.port}"
        boxes = []
        for n in range(1, 7):
            secret = credentials.secret_path(chosen.folder, f"table-{n}")
            club = {"broker": url, "event": EVENT, "table": n, "secret_file": str(secret)}
            boxes.append(scripted_box(tmp_path / f"box{n}", club, TRAYS))
        try:
            until(
                lambda: all(
                    b.box.club is not None and b.box.club.reporter.connected.is_set() for b in boxes
                )
            )
            ledger = running.director.ledger
            for number in range(1, 4):
                before = [row["name"] for row in rounds.document(chosen, ledger)["standings"]]
                seating = rounds.next_seating(chosen, ledger)
                assert director.publish_seating(chosen, seating)
                if number > 1:  # king of the hill: the standings in order, four a table
                    assert [list(t) for t in seating.tables] == [
                        before[i : i + 4] for i in range(0, 24, 4)
                    ]
                for table, (box, players) in enumerate(zip(boxes, seating.tables, strict=True), 1):
                    line = f"Table {table} · round {number}: {', '.join(players)}"
                    until(lambda b=box, shown=line: shown in b.screen_text())
                    stranger = seating.tables[table % 6][0]  # seated at the next table
                    with pytest.raises(RuleError, match=f"{stranger} has no seat at this table"):
                        Phones(box.box.referee).join(stranger, "", "")
                    box.seat(list(players))
                    box.play_match(
                        {name: (int(name[1:]) * 7 + number * 3) % 6 + 1 for name in players}
                    )
                until(
                    lambda n=number: (
                        len({r.table for r in ledger.results() if r.event_round == n}) == 6
                    )
                )
            shown = rounds.document(chosen, ledger)
        finally:
            for box in boxes:
                box.close()
    summed: dict[str, list[int]] = {name: [0, 0, 0] for name in PLAYERS}
    for box in boxes:
        for row in history_of(box)["standings"]:  # type: ignore[union-attr]
            summed[row["name"]] = [
                a + b
                for a, b in zip(
                    summed[row["name"]], (row["played"], row["won"], row["points"]), strict=True
                )
            ]
    directors = {
        row["name"]: [row["played"], row["won"], row["points"]] for row in shown["standings"]
    }
    assert directors == summed
    assert all(row["played"] == 3 for row in shown["standings"])
    assert sum(row["won"] for row in shown["standings"]) >= 18  # a win a table a round, draws more
