"""The players the settings name, with the players' page on: none at all is right (the
phones give the names), and the names given sit at the table from the start, each taken
by the first phone that joins with it, during a match too, since that player is in it."""

from __future__ import annotations

from device.cli import main
from device.config import settings as config
from device.referee.flow import State

from .conftest import ListReader, tray_reading
from .test_between_matches import joined, press, typed, words_on
from .test_page import post
from .test_round import box_settings, build, run_out_the_clock


def test_no_players_named_is_right_with_the_page_on(tmp_path, capsys):
    assert config.problems({"players": [], "page": {"enabled": True}}) == []
    file = tmp_path / "box.toml"
    file.write_text("players = []\n[page]\nenabled = true\n", encoding="utf-8")
    assert main(["config", "--check", "--config", str(file)]) == 0
    assert "every setting is right" in capsys.readouterr().out
    assert config.problems({"players": ["Ann", 3]}) == [
        "players = ['Ann', 3] must be a list of names."
    ]


def test_the_named_players_sit_at_the_table_and_a_phone_takes_its_name(tmp_path, photos):
    chosen = box_settings(tmp_path, photos)
    chosen["players"] = ["Ann", "Dee", "Ben"]
    chosen["page"].update(enabled=True, port=0, keyboard_player="Dee")
    made, clock, _ = build(tmp_path, photos, reader=ListReader([tray_reading()]), settings=chosen)
    url, code = f"http://127.0.0.1:{made.page.port}/", made.referee.join_code
    made.box.step()
    shown = [str(line) for line in made.box.screen.shown.lines]
    assert shown == ["Players: Ann, Dee, Ben", "To join on a phone: Ann, Ben"]
    ann = joined(url, code, "Ann")  # Ann's seat, as named
    press(made, clock)
    assert made.referee.state is State.TIMING
    assert made.referee.match.seats == ["Ann", "Dee", "Ben"]  # in their seats
    ben = joined(url, code, "Ben")  # late, but in the match: Ben's seat is his phone's
    words = words_on("boggle")
    assert typed(url, code, ann, words[0])["status"] == "valid"
    assert typed(url, code, ben, words[1])["status"] == "valid"
    status, answer = post(url, "join", {"code": code, "name": "Ben"})  # another phone
    assert status == 409 and "Ben is playing on another phone" in answer["error"]
    run_out_the_clock(made, clock)
    scores = made.referee.round.result.scores()
    assert list(scores) == ["Ann", "Dee", "Ben"] and scores["Ben"] > 0 and scores["Dee"] == 0
    made.close()
