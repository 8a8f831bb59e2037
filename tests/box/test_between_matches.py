"""The players at the table from one match to the next: phones and teams stay in for the
next match until someone leaves (their words scored, crossed off against one another),
a name in use is one player's unless the same phone asks again, and a new player joins
between matches, never during one."""

from __future__ import annotations

import pytest

from device.referee.flow import State
from device.seams.seams import Scorer
from engine.board import Board
from engine.games import find_game

from .conftest import ListReader, tray_reading
from .test_disputes import state_of
from .test_page import post
from .test_round import box_settings, build, run_out_the_clock

BOARDS = {"boggle": "TNTB/GDAR/ELTE/SISH", "czech-boggle": "KOLO/ROSA/MELE/PIVO"}


def page_box(tmp_path, photos, game="boggle", rounds=1, matches=2):
    chosen = box_settings(tmp_path, photos, game)
    chosen["page"].update(enabled=True, port=0)  # any free port
    chosen["rounds"] = rounds
    readings = [tray_reading(BOARDS[game], game=game) for _ in range(rounds * matches)]
    made, clock, _ = build(tmp_path, photos, reader=ListReader(readings), settings=chosen)
    return made, clock, f"http://127.0.0.1:{made.page.port}/"


def press(made, clock):
    clock.advance(4.0)  # a player presses once the screen has changed, and a round has run
    made.box.events.put("tap")
    made.box.step()


def joined(url, code, name, team="", token=""):
    status, answer = post(url, "join", {"code": code, "name": name, "team": team, "token": token})
    assert status == 200 and answer["ok"], answer
    return answer["token"]


def typed(url, code, token, word):
    status, answer = post(url, "word", {"code": code, "token": token, "word": word})
    assert status == 200, answer
    return answer


def words_on(game: str) -> list[str]:
    """Words that count on the game's board, longest first (the engine's own solver)."""
    found = Scorer().solve(Board.parse(BOARDS[game]), find_game(game))
    return [w.word for w in sorted(found, key=lambda w: (-len(w.word), w.word))]


def play_a_match(made, clock, url, tokens, words):
    """One round of a one-round match: each phone types its words, both type the first."""
    code = made.referee.join_code
    press(made, clock)
    assert made.referee.state is State.TIMING, made.referee.message
    for k, token in enumerate(tokens):
        for word in [words[0], words[1 + k]]:
            assert typed(url, code, token, word)["status"] == "valid"
    run_out_the_clock(made, clock)
    assert made.referee.state is State.SCORED
    result = made.referee.round.result
    press(made, clock)
    assert made.referee.state is State.MATCH
    return result


@pytest.mark.parametrize("game", ["boggle", "czech-boggle"])
def test_the_phones_and_their_teams_play_the_next_match_too(tmp_path, photos, game):
    made, clock, url = page_box(tmp_path, photos, game)
    code = made.referee.join_code
    ann = joined(url, code, "Ann")
    ben = joined(url, code, "Ben", team="Owls")
    words = words_on(game)
    for number in (1, 2):
        result = play_a_match(made, clock, url, [ann, ben], words)
        assert made.referee.match.number == number
        assert sorted(result.scores()) == ["Ann", "Owls"]
        for player in result.players:  # the word both typed is crossed off for both
            status = {entry.word: entry.status for entry in player.entries}
            assert status[words[0]] == "crossed-off"
            assert player.score > 0
        assert made.referee.match.ended, "1 of 1 rounds played: the match is over"
        assert made.referee.match.standings()[0][1] > 0
    assert made.store.latest_match() == 2
    made.close()


def test_a_name_in_use_is_refused_unless_the_same_phone_asks_again(tmp_path, photos):
    made, clock, url = page_box(tmp_path, photos)
    code = made.referee.join_code
    ann = joined(url, code, "Ann")
    status, answer = post(url, "join", {"code": code, "name": "Ann"})
    assert status == 409 and "Ann is playing on another phone" in answer["error"]
    status, answer = post(url, "join", {"code": code, "name": "Ann", "token": "made up"})
    assert status == 409
    assert joined(url, code, "Ann", token=ann) == ann  # a reload: the same phone, the same list
    assert made.referee.table.names == ("Ann",)
    made.close()


def test_a_player_joins_between_matches_never_during_one_and_may_leave(tmp_path, photos):
    made, clock, url = page_box(tmp_path, photos)
    code = made.referee.join_code
    ann, ben = joined(url, code, "Ann"), joined(url, code, "Ben")
    press(made, clock)
    status, answer = post(url, "join", {"code": code, "name": "Cy"})
    assert status == 409 and "join when it ends" in answer["error"]
    assert joined(url, code, "Ann", token=ann) == ann  # a phone back during the match
    run_out_the_clock(made, clock)
    press(made, clock)
    assert made.referee.match.ended
    cy = joined(url, code, "Cy")  # between matches
    status, answer = post(url, "leave", {"code": code, "token": ben})
    assert status == 200 and answer["ok"]
    status, answer = post(url, "word", {"code": code, "token": ben, "word": "dart"})
    assert status == 401  # Ben's phone is out
    press(made, clock)
    assert made.referee.state is State.TIMING
    assert made.referee.match.seats == ["Ann", "Cy"]
    assert typed(url, code, cy, "dart")["status"] == "valid"
    made.close()


def test_a_box_restarted_after_a_match_shows_its_table_and_the_next_waits_for_a_press(
    tmp_path, photos
):
    made, clock, url = page_box(tmp_path, photos)
    ann = joined(url, made.referee.join_code, "Ann")
    play_a_match(made, clock, url, [ann], words_on("boggle"))
    made.close()
    chosen = box_settings(tmp_path, photos)
    chosen["page"].update(enabled=True, port=0)
    again, _, _ = build(
        tmp_path, photos, clock=clock, reader=ListReader([tray_reading()]), settings=chosen
    )
    referee = again.referee
    assert referee.state is State.MATCH and referee.match.number == 1 and referee.match.ended
    assert again.store.latest_match() == 1  # no match begun before its first roll
    url = f"http://127.0.0.1:{again.page.port}/"
    joined(url, referee.join_code, "Cy")  # between matches, after the restart too
    again.box.events.put("tap")  # at once: a restarted box takes its first press
    again.box.step()
    assert referee.state is State.TIMING and referee.match.number == 2
    assert referee.match.seats == ["Ann", "Cy"]
    again.close()


def test_teams_changed_on_the_last_score_screen_play_the_next_match(tmp_path, photos):
    made, clock, url = page_box(tmp_path, photos)
    code = made.referee.join_code
    names = ("Ann", "Ben", "Cy", "Dee")
    tokens = {name: joined(url, code, name) for name in names}
    words = words_on("boggle")
    press(made, clock)
    run_out_the_clock(made, clock)
    assert made.referee.state is State.SCORED  # the last round's scores: the match is over
    assert state_of(url, code, tokens["Ann"])["between"]  # the page offers to leave and join
    for name, team in zip(names, ("Red", "Red", "Blue", "Blue"), strict=True):
        joined(url, code, name, team=team, token=tokens[name])
    press(made, clock)
    assert made.referee.state is State.MATCH
    press(made, clock)  # the next match
    assert made.referee.match.number == 2 and made.referee.state is State.TIMING
    for name, word in (("Ann", words[0]), ("Ben", words[0]), ("Cy", words[1]), ("Dee", words[2])):
        assert typed(url, code, tokens[name], word)["status"] == "valid"
    run_out_the_clock(made, clock)
    result = made.referee.round.result
    assert [(p.name, p.members) for p in result.players] == [
        ("Red", ("Ann", "Ben")),
        ("Blue", ("Cy", "Dee")),
    ]
    red = [entry.status for entry in result.players[0].entries if entry.word == words[0]]
    assert sorted(red) == ["repeated", "scored"]  # one word of the team, not crossed off
    shown = [str(line) for line in made.box.screen.shown.lines]
    assert f"Red (Ann, Ben)  {result.scores()['Red']}" in shown
    press(made, clock)
    shown = [str(line) for line in made.box.screen.shown.lines]
    assert any(line.endswith(f"Blue (Cy, Dee)  {result.scores()['Blue']}") for line in shown)
    made.close()


def test_after_a_cancelled_round_the_phone_says_the_screens_round(tmp_path, photos):
    made, clock, url = page_box(tmp_path, photos, rounds=2)
    code = made.referee.join_code
    ann = joined(url, code, "Ann")
    press(made, clock)
    said = state_of(url, code, ann)
    assert said["round"] == 1 and not said["between"]  # a match under way
    made.box.events.put("hold")  # the round is cancelled
    made.box.step()
    assert made.referee.state is State.IDLE
    press(made, clock)  # round 1 again, as the screen says
    assert "round 1 of 2" in made.box.screen.shown.title
    assert state_of(url, code, ann)["round"] == 1
    run_out_the_clock(made, clock)
    press(made, clock)
    press(made, clock)
    assert "round 2 of 2" in made.box.screen.shown.title
    assert state_of(url, code, ann)["round"] == 2
    made.close()
