"""An evening of three Boggle matches whose teams change between matches, and a player who
renames himself on his phone: ``cuberef history --json`` has one row a player (their
side's result counted for each member, the renamed player one row), the teams that kept
their members, and the box's match table and the phones' evening say the same. The
box is restarted after the rename: the new name is kept."""

from __future__ import annotations

import contextlib
import csv
import io
import json
from collections import defaultdict

from device.base.clock import FakeClock
from device.cli import main
from device.referee.flow import State
from device.screens.views import view_of
from engine.games import find_game

from .conftest import ListReader, tray_reading
from .test_between_matches import BOARDS, joined, press, typed, words_on
from .test_history import assert_the_words_add_up, get
from .test_page import post
from .test_round import box_settings, build, run_out_the_clock

#: Each match's teams, by player ("" alone); Petr renames himself after match 1.
TEAMS = [
    {"Ann": "Red", "Ben": "Red", "Cy": "Blue", "Dee": "Blue", "Petr": ""},
    {"Ann": "Red", "Eva": "Red", "Cy": "Blue", "Dee": "Blue", "Ben": "", "Petr Novák": ""},
    {"Ann": "", "Eva": "Red", "Ben": "Red", "Cy": "Blue", "Dee": "Blue", "Petr Novák": ""},
]
RENAMED = {"Petr": "Petr Novák"}


def a_box(tmp_path, photos, wall: float = 1_800_000_000.0):
    chosen = box_settings(tmp_path, photos)
    chosen["page"].update(enabled=True, port=0)
    chosen["rounds"] = 1
    readings = [tray_reading(BOARDS["boggle"]) for _ in range(3)]
    made, clock, _ = build(
        tmp_path,
        photos,
        reader=ListReader(readings),
        settings=chosen,
        clock=FakeClock(wall_start=wall),
    )
    made.box.step()
    return made, clock, f"http://127.0.0.1:{made.page.port}/"


def play(made, clock, url, tokens, words, by: dict[str, str]) -> dict[str, int]:
    """A one-round match: each player types words of their own (one to four, so that the
    sides' scores differ; ``by`` gets who typed each); the round's scores."""
    code = made.referee.join_code
    press(made, clock)
    assert made.referee.state is State.TIMING, made.referee.message
    for name, token in tokens.items():
        for word in words.pop(0):
            assert typed(url, code, token, word)["status"] == "valid", (name, word)
            by[word] = name
    run_out_the_clock(made, clock)
    assert made.referee.state is State.SCORED
    scores = made.referee.round.result.scores()
    press(made, clock)
    assert made.referee.state is State.MATCH
    return scores


def history_json(tmp_path) -> dict:
    config = tmp_path / "history.toml"
    config.write_text(f"[store]\nfolder = '{tmp_path / 'store'}'\n", encoding="utf-8")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["history", "--json", "--config", str(config)]) == 0
    document: dict = json.loads(printed.getvalue())
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["history", "--csv", "--config", str(config)]) == 0
    document["csv"] = list(csv.DictReader(io.StringIO(printed.getvalue())))
    return document


def sums_of(document: dict) -> tuple[dict[str, dict], dict[str, dict]]:
    """Each player's and each team's standing, added up here from the rounds' scores: a
    side's round scores count for each of its members; a team only if its members never
    changed."""
    players: dict[str, dict] = defaultdict(lambda: {"played": 0, "won": 0, "points": 0})
    teams: dict[str, dict] = defaultdict(lambda: {"played": 0, "won": 0, "points": 0})
    members: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for match in document["matches"]:
        scores: dict[str, int] = defaultdict(int)
        for done in match["rounds"]:
            for side in done["sides"]:
                scores[side["name"]] += side["score"]
        top = max(scores.values())
        for side in match["sides"]:
            won = scores[side["name"]] == top
            players_of = [RENAMED.get(name, name) for name in side["members"]]
            for name in players_of:
                for key, add in (("played", 1), ("won", won), ("points", scores[side["name"]])):
                    players[name][key] += add
            if side["members"] != [side["name"]]:
                members[side["name"]].add(tuple(sorted(players_of)))
                for key, add in (("played", 1), ("won", won), ("points", scores[side["name"]])):
                    teams[side["name"]][key] += add
    kept = {name: row for name, row in teams.items() if len(members[name]) == 1}
    return dict(players), kept


def test_an_evening_of_changing_teams_and_a_rename_has_a_row_a_player(tmp_path, photos):
    made, clock, url = a_box(tmp_path, photos)
    code = made.referee.join_code
    tokens = {name: joined(url, code, name, team) for name, team in TEAMS[0].items()}
    pool = words_on("boggle")[::-1]  # the shortest first: a point or two each
    words = []  # each player's words of each match: one to four, so that scores differ
    for number in range(3 * 6):
        count = number * 7 % 4 + 1
        words.append(pool[:count])
        del pool[:count]
    by: dict[str, str] = {}
    shown = [play(made, clock, url, tokens, words, by)]
    # Between matches: Ben plays alone, Eva joins Red, Petr renames himself.
    assert joined(url, code, "Ben", "", tokens["Ben"]) == tokens["Ben"]
    tokens["Eva"] = joined(url, code, "Eva", "Red")
    status, answer = post(
        url, "join", {"code": code, "name": "Petr Novák", "team": "", "token": tokens["Petr"]}
    )
    assert status == 200 and answer["name"] == "Petr Novák" and answer["token"] == tokens["Petr"]
    tokens["Petr Novák"] = tokens.pop("Petr")
    assert "Petr" not in made.referee.table.names
    made.close()
    made, clock, url = a_box(tmp_path, photos, made.referee.clock.wall() + 60)  # a restart
    assert made.referee.table.names == ("Ann", "Ben", "Cy", "Dee", "Petr Novák", "Eva")
    shown.append(play(made, clock, url, tokens, words, by))
    assert set(shown[-1]) == {"Red", "Blue", "Ben", "Petr Novák"}  # no "Petr 0"
    for name, team in TEAMS[2].items():
        joined(url, code, name, team, tokens[name])
    shown.append(play(made, clock, url, tokens, words, by))
    table = [str(line) for line in view_of(made.referee).lines]
    phone = get(url, f"history?code={made.referee.join_code}&token={tokens['Ann']}")[1]
    made.close()

    document = history_json(tmp_path)
    matches = document["matches"]
    assert [{s["name"]: s["score"] for s in m["sides"]} for m in matches] == shown
    assert [s["name"] for s in matches[0]["sides"]][-1] == "Petr"  # his history, his old name
    assert_the_words_add_up(document)
    said = {
        w["word"]: w["by"]
        for m in matches
        for r in m["rounds"]
        for s in r["sides"]
        for w in s["words"]
    }
    assert said == by  # each word says who typed it
    players, teams = sums_of(document)
    assert len(players) == 6 and "Petr" not in players
    standings = document["standings"]
    assert {row["name"]: {k: row[k] for k in ("played", "won", "points")} for row in standings} == (
        players
    )
    by_name = {row["name"]: row for row in standings}
    assert by_name["Petr Novák"]["names"] == ["Petr", "Petr Novák"]
    assert "names" not in by_name["Ann"]
    assert [(row["won"], row["points"]) for row in standings] == sorted(
        ((row["won"], row["points"]) for row in standings), reverse=True
    )
    listed = {
        row["name"]: {k: row[k] for k in ("played", "won", "points")} for row in document["teams"]
    }
    assert listed == teams and set(teams) == {"Blue"}  # Red changed members each match
    assert next(row for row in document["teams"])["members"] == ["Cy", "Dee"]
    # The match table and the phones' evening follow (the box resumed match 1: its
    # evening began with it).
    at = table.index("This evening: 3 matches  won · points")
    rows = [f"{r['name']}  {r['won']} of {r['played']} · {r['points']}" for r in standings]
    assert table[at + 1 : at + 1 + len(rows)] == rows
    blue = teams["Blue"]
    assert table[at + 1 + len(rows) :] == [
        "Teams  won · points",
        f"Blue  {blue['won']} of {blue['played']} · {blue['points']}",
    ]
    assert phone["standings"] == standings and phone["teams"] == document["teams"]
    red = [row for row in document["csv"] if row["side"] == "Red"]
    assert [row["members"] for row in red] == ["Ann; Ben", "Ann; Eva", "Ben; Eva"]


def test_a_new_name_during_a_match_is_refused_with_a_sentence(tmp_path, photos):
    made, clock, url = a_box(tmp_path, photos)
    code = made.referee.join_code
    petr = joined(url, code, "Petr")
    press(made, clock)
    assert made.referee.state is State.TIMING
    said = {"code": code, "name": "Petr Novák", "team": "", "token": petr}
    status, answer = post(url, "join", said)
    assert status == 409 and answer["error"] == (
        "You play as Petr in this match; change your name when it ends, at the match table."
    )
    assert made.referee.table.names == ("Petr",)
    made.close()


def test_a_renamed_player_s_old_name_is_free_for_someone_else():
    """Petr becomes Petr Novák after match 1, then Petr N. after match 2; a new Petr joins
    for match 3: two players, the renamed one under his last name."""
    from device.referee.history import PastMatch, PastRound, PastSide
    from device.referee.standings import standings

    boggle = find_game("boggle")
    played = PastRound(1, "TNTB/GDAR/ELTE/SISH", "", ())

    def match(number, sides, renamed=()):
        top = max(score for _name, score in sides)
        winners = tuple(name for name, score in sides if score == top)
        past = tuple(PastSide(name, (name,), score) for name, score in sides)
        return PastMatch(number, boggle, 0.0, 1.0, winners, past, (played,), renamed)

    matches = [
        match(1, [("Petr", 5), ("Ann", 3)], (("Petr", "Petr Novák"),)),
        match(2, [("Petr Novák", 2), ("Ann", 4)], (("Petr Novák", "Petr N."),)),
        match(3, [("Petr N.", 7), ("Petr", 1), ("Ann", 0)]),
    ]
    rows = {row.name: (row.played, row.won, row.points, row.names) for row in standings(matches)}
    assert rows == {
        "Petr N.": (3, 2, 14, ("Petr", "Petr Novák", "Petr N.")),
        "Ann": (3, 1, 7, ()),
        "Petr": (1, 0, 1, ()),
    }
