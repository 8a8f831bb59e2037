"""club.toml read and checked: each wrong key or value is one sentence naming it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from device.club import event
from engine.errors import CuberefError

GOOD = {"event": "tuesday", "game": "boggle", "players": ["Ann", "Ben", "Cy", "Dee"]}


def test_defaults_and_the_events_folder_beside_the_file(tmp_path: Path) -> None:
    chosen = event.parse(dict(GOOD), tmp_path)
    assert (chosen.rounds, chosen.pairing, chosen.table_size, chosen.bounds) == (
        3, "king-of-the-hill", 4, (2, 6),
    )  # fmt: skip
    assert chosen.folder == tmp_path / "tuesday" and chosen.broker is None
    assert event.parse({**GOOD, "game": "adlib"}, tmp_path).bounds == (1, 4)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"colour": "red"}, "no setting 'colour'"),
        ({"event": "a/b"}, "event's name"),
        ({"game": "chess"}, "no game called 'chess'"),
        ({"rounds": 0}, "rounds must be a whole number from 1 to 100"),
        ({"pairing": "ladder"}, "pairing 'ladder' is none of"),
        ({"table_size": 7}, "table_size must be a whole number from 2 to 6"),
        ({"game": "adlib", "table_size": 5}, "from 1 to 4"),
        ({"pairing": "round-robin"}, "set table_size = 2"),
        ({"players": ["Ann", "ann"]}, "names the player 'ann' twice"),
        ({"players": ["Ann"]}, "2 to 1000 names"),
        ({"players": "Ann, Ben"}, "list of names"),
        ({"byes": {"4": ["Ann"]}}, "round '4'"),
        ({"byes": {"2": ["Zed"]}}, "'Zed', no player"),
        ({"broker": "http://x"}, "mqtt://HOST:PORT"),
        ({"port": 70000}, "port must be"),
    ],
)
def test_each_wrong_setting_is_one_sentence(
    tmp_path: Path, change: dict[str, Any], said: str
) -> None:
    with pytest.raises(CuberefError, match=said) as raised:
        event.parse({**GOOD, **change}, tmp_path)
    assert str(raised.value).count(". ") == 0 and "\n" not in str(raised.value)


def test_a_file_that_is_missing_or_not_toml(tmp_path: Path) -> None:
    with pytest.raises(CuberefError, match="no club file"):
        event.load(tmp_path / "club.toml")
    (tmp_path / "club.toml").write_text("event = \n")
    with pytest.raises(CuberefError, match="not valid TOML"):
        event.load(tmp_path / "club.toml")
