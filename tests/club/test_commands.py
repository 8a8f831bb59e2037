"""``cuberef club tables``, ``pair`` and ``standings`` on an event with a real broker:
credentials made once, rounds seated and published retained, the standings' JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from club.clients import Probe
from club.conftest import EVENT
from device.cli import command
from device.club import credentials, results, topics
from device.club.broker import Mosquitto
from device.club.event import load
from device.club.ledger import Ledger
from device.club.rounds import document

PLAYERS = ["Ann", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def club_file(folder: Path, port: int, **more: object) -> Path:
    lines = [f'event = "{EVENT}"', 'game = "boggle"', "rounds = 2", f"port = {port}",
             "table_size = 4", f"players = {json.dumps(PLAYERS)}"]  # fmt: skip
    lines += [f"{key} = {json.dumps(value)}" for key, value in more.items()]
    path = folder / "club.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_tables_makes_credentials_once_and_prints_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = club_file(tmp_path, 1883)
    assert command(["club", "tables", "2", "--config", str(config)]) == 0
    first = credentials.accounts(tmp_path / EVENT)
    said = capsys.readouterr().out
    assert "Table 2: user table-2" in said and 'event = "tuesday"' in said and "▀" in said
    assert command(["club", "tables", "3", "--config", str(config), "--no-qr"]) == 0
    again = {a.user: a.secret for a in credentials.accounts(tmp_path / EVENT)}
    assert all(again[a.user] == a.secret for a in first) and "table-3" in again
    assert (tmp_path / EVENT / "credentials" / "table-1.secret").stat().st_mode & 0o077 == 0


def test_pair_seats_publishes_and_standings_follow(
    mosquitto: Mosquitto, event_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = club_file(event_folder.parent, mosquitto.port)
    assert command(["club", "pair", "--config", str(config), "--json"]) == 0
    seated = json.loads(capsys.readouterr().out)
    assert seated["round"] == 1 and [len(t["players"]) for t in seated["tables"]] == [4, 4]
    # A box that connects afterwards still finds its seat (retained); table 3 sits no one.
    secret = credentials.read_secret(credentials.secret_path(event_folder, "table-2"))
    box = Probe(mosquitto.url, credentials.Account("table-2", secret), "box-2")
    try:
        assert box.wait_connected() is None
        box.subscribe(topics.table_topic(EVENT, 2, topics.SEATING))
        got = box.next()
        assert (
            got is not None and json.loads(got.payload)["players"] == seated["tables"][1]["players"]
        )
    finally:
        box.close()
    assert command(["club", "pair", "--config", str(config)]) == 2
    assert "has no result from table 1, 2 yet" in capsys.readouterr().err
    ledger = Ledger(event_folder)
    for table in seated["tables"]:
        scores = [{"name": n, "score": i} for i, n in enumerate(table["players"])]
        payload = {"match": 1, "round": 1, "event_round": 1, "players": scores}
        ledger.record(results.read(table["table"], json.dumps(payload)))
    ledger.close()
    assert command(["club", "standings", "--config", str(config), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["event"] == EVENT and shown["rounds"][0]["tables"] == seated["tables"]
    assert [row["won"] for row in shown["standings"]] == [1, 1, 0, 0, 0, 0, 0, 0]
    assert set(shown["standings"][0]) == {"name", "played", "won", "points", "spread"}
    assert command(["club", "pair", "--config", str(config)]) == 0
    second = capsys.readouterr().out
    # King of the hill: the two winners (3 points each) sit at table 1.
    winners = [row["name"] for row in shown["standings"][:2]]
    assert all(name in second.splitlines()[0] for name in winners)
    assert second.startswith("Table 1 · round 2: ")
    assert command(["club", "pair", "--config", str(config), "--force"]) == 2
    assert "All 2 rounds of tuesday are seated already." in capsys.readouterr().err
    assert command(["club", "standings", "--config", str(config), "--csv"]) == 0
    assert capsys.readouterr().out.startswith("name,played,won,points,spread\n")
    ledger = Ledger(event_folder)
    assert len(document(load(config), ledger)["rounds"]) == 2
    ledger.close()


def test_a_wrong_club_file_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = club_file(tmp_path, 1883, pairing="ladder")
    assert command(["club", "standings", "--config", str(config)]) == 2
    assert "pairing 'ladder' is none of" in capsys.readouterr().err
