"""Ad-Lib partners with an odd number of players: one plays as a side of one, and no one
is paired silently: the box says who before the match, and ``config --check`` warns."""

from __future__ import annotations

import json

from device.cli import main
from device.config import settings as config
from device.referee.flow import State

from .conftest import ListReader, loose_reading
from .test_round import box_settings, build, tap

ODD = ["Ann", "Ben", "Cy"]
ALONE = "Ben has no partner and plays as a side of one."


def partners_box(tmp_path, photos, players):
    chosen = box_settings(tmp_path, photos, "adlib")
    chosen.update(players=players, rounds=1, partners=True)
    reader = ListReader([loose_reading("T")])
    made, _clock, _ = build(tmp_path, photos, reader=reader, settings=chosen, game="adlib")
    made.box.step()
    return made


def shown(made) -> list[str]:
    return [str(line) for line in made.box.screen.shown.lines]


def test_the_box_says_who_plays_as_a_side_of_one_before_the_match(tmp_path, photos):
    made = partners_box(tmp_path, photos, ODD)
    referee = made.referee
    assert [side.name for side in referee.upcoming().sides()] == ["Ann & Cy", "Ben"]
    assert made.referee.state is State.IDLE and ALONE in shown(made)
    tap(made)  # Ann & Cy throw one cube for who starts
    assert referee.state is State.STARTER and ALONE in shown(made)
    made.close()


def test_an_even_table_of_partners_is_said_nothing(tmp_path, photos):
    made = partners_box(tmp_path, photos, ["Ann", "Ben", "Cy", "Dee"])
    assert [side.name for side in made.referee.upcoming().sides()] == ["Ann & Cy", "Ben & Dee"]
    assert not any("side of one" in line for line in shown(made))
    made.close()


def test_config_check_warns_of_a_side_of_one_and_finds_no_problem(tmp_path, capsys):
    file = tmp_path / "box.toml"
    file.write_text(
        'game = "adlib"\nplayers = ["Ann", "Ben", "Cy", "Dee", "Eve"]\npartners = true\n',
        encoding="utf-8",
    )
    assert main(["config", "--check", "--config", str(file)]) == 0
    said = capsys.readouterr()
    assert (
        "warning: partners = true with 5 players: Cy has no partner and plays as a side of "
        "one. The sides: Ann & Dee, Ben & Eve and Cy."
    ) in said.err
    assert main(["config", "--check", "--json", "--config", str(file)]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["ok"] and answer["problems"] == [] and len(answer["warnings"]) == 1
    assert config.warnings({"game": "adlib", "players": ODD, "partners": True}) == [
        f"partners = true with 3 players: {ALONE} The sides: Ann & Cy and Ben."
    ]
    assert config.warnings({"game": "adlib", "players": ODD[:2], "partners": True}) == []
    assert config.warnings({"game": "boggle", "players": ODD, "partners": True}) == []
