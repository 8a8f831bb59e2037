"""The evening read back: two Boggle matches on two phones (one of them a team), then an
Ad-Lib match on another day, played on the box into one store; ``cuberef history`` lists
every match and round with the scores the store and the screens have, and standings that
add up."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import shutil
import sqlite3
import urllib.error
import urllib.request
from datetime import datetime

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import device.referee.standings
from device.base.clock import FakeClock
from device.base.wording import names_and
from device.cli import main
from device.referee.flow import State
from device.screens.views import view_of
from device.store.events import Scored
from device.store.store import Store

from .browser import phone
from .conftest import ListReader, loose_reading, tray_reading
from .test_between_matches import joined, page_box, play_a_match, words_on
from .test_round import box_settings, build, run_out_the_clock, tap

ROLL = "M O N E Y S T E B U J O Q"
CROSSWORDS = [("S....", "T.B.J", "E.U.O", "MONEY"), ("MONEY",)]
DAY = 86_400.0


def adlib_match(tmp_path, photos, wall: float):
    """Ann against Ben, one turn each, on a box started at ``wall`` (its store the same)."""
    chosen = box_settings(tmp_path, photos, "adlib")
    chosen.update(players=["Ann", "Ben"], rounds=1)
    rolls = [loose_reading("T"), loose_reading("E"), loose_reading(ROLL), loose_reading(ROLL)]
    crosswords = [loose_reading(ROLL, grid=grid) for grid in CROSSWORDS]
    made, clock, _ = build(
        tmp_path,
        photos,
        reader=ListReader(rolls, crosswords),
        settings=chosen,
        clock=FakeClock(wall_start=wall),
    )
    tap(made)
    tap(made)  # who starts: T against E
    shown = []
    for _turn in range(2):
        tap(made)  # the roll
        assert made.referee.state is State.TIMING, made.referee.message
        tap(made)  # time called
        tap(made)  # the crossword read and scored
        assert made.referee.state is State.SCORED, made.referee.message
        shown.append((made.referee.round.player, made.referee.round.verdict.score))
        tap(made)
    assert made.referee.match.ended
    table = [str(line) for line in view_of(made.referee).lines]
    made.close()
    return shown, table


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    """The evening's store and what the box showed of it."""
    tmp_path = tmp_path_factory.mktemp("evening")
    photos = tmp_path / "photos"
    photos.mkdir()
    import cv2
    import numpy as np

    cv2.imwrite(str(photos / "0.png"), np.full((60, 80, 3), 40, np.uint8))
    made, clock, url = page_box(tmp_path, photos)
    code = made.referee.join_code
    ann = joined(url, code, "Ann")
    ben = joined(url, code, "Ben", team="Owls")
    words = words_on("boggle")
    shown, tables = [], []
    for _match in range(2):
        shown.append(play_a_match(made, clock, url, [ann, ben], words).scores())
        tables.append([str(line) for line in view_of(made.referee).lines])
    config = tmp_path / "box.toml"
    config.write_text(f"[store]\nfolder = '{tmp_path / 'store'}'\n", encoding="utf-8")
    page = {
        "history": get(url, f"history?code={code}&token={ann}"),
        "no token": get(url, f"history?code={code}"),
        "wrong code": get(url, f"history?code=ZZZZ&token={ann}"),
    }
    with phone() as cy:  # a phone opens the evening
        cy.get(f"{url}?code={code}")
        wait = WebDriverWait(cy, 10)
        wait.until(lambda d: d.find_element(By.ID, "join").is_displayed())
        cy.find_element(By.ID, "name").send_keys("Cy")
        cy.find_element(By.ID, "join-button").click()
        wait.until(lambda d: d.find_element(By.ID, "evening-button").is_displayed())
        cy.find_element(By.ID, "evening-button").click()
        wait.until(lambda d: d.find_element(By.ID, "evening").is_displayed())
        listed = "return [...document.querySelectorAll('#evening .standings li')]"
        page["phone"] = cy.execute_script(listed + ".map(li => li.textContent)")
        page["phone matches"] = cy.execute_script(
            "return [...document.querySelectorAll('#evening summary')].map(s => s.textContent)"
        )
        page["phone words"] = cy.execute_script(
            "return [...document.querySelectorAll('#evening details li')].map(li =>"
            " [...li.children].map(span => span.textContent))"
        )
        # Between matches the page changes Cy's name in the same seat, on its own form.
        wait.until(lambda d: d.find_element(By.ID, "change").is_displayed())
        cy.find_element(By.ID, "change").click()
        wait.until(lambda d: d.find_element(By.ID, "join").is_displayed())
        cy.find_element(By.ID, "name").clear()
        cy.find_element(By.ID, "name").send_keys("Cyril")
        cy.find_element(By.ID, "join-button").click()
        wait.until(lambda d: d.find_element(By.ID, "who").text == "Cyril")
        page["renamed"] = made.referee.table.names
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["history", "--json", "--config", str(config)]) == 0
    page["command"] = (200, json.loads(printed.getvalue()))
    made.close()
    wall = made.referee.clock.wall() + 2 * DAY  # the Ad-Lib match two days later
    turns, adlib_table = adlib_match(tmp_path, photos, wall)
    tables.append(adlib_table)
    return {
        "config": str(config),
        "store": tmp_path / "store",
        "boggle": shown,
        "adlib": turns,
        "tables": tables,
        "page": page,
    }


def get(url: str, path: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url + path, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def winners(match) -> list[str]:
    """The sides on the match's top score, in their seats (a draw: several)."""
    top = max(side["score"] for side in match["sides"])
    return [side["name"] for side in match["sides"] if side["score"] == top]


def history(evening, capsys, *more: str) -> str:
    capsys.readouterr()
    assert main(["history", "--config", evening["config"], *more]) == 0
    return capsys.readouterr().out


def stored_scores(folder) -> dict[tuple[int, int], dict[str, int]]:
    """Every round's scores as the store keeps them, by (match, round)."""
    store = Store(folder, read_only=True)
    scores = {}
    for number in store.matches():
        for event in store.events(number):
            if isinstance(event.payload, Scored):
                scores[(number, event.round)] = dict(event.payload.scores)
    store.close()
    return scores


def test_history_json_lists_every_match_and_round_with_the_stored_scores(evening, capsys):
    document = json.loads(history(evening, capsys, "--json"))
    assert set(document) == {"matches", "standings", "teams"}
    matches = document["matches"]
    assert [(m["id"], m["game"]) for m in matches] == [(1, "boggle"), (2, "boggle"), (3, "adlib")]
    stored = stored_scores(evening["store"])
    listed = {(m["id"], r["round"]): r for m in matches for r in m["rounds"]}
    assert set(listed) == set(stored)
    for key, done in listed.items():
        assert {side["name"]: side["score"] for side in done["sides"]} == stored[key], key
    for match, shown in zip(matches[:2], evening["boggle"], strict=True):
        (done,) = match["rounds"]
        assert done["board"] == "TNTB/GDAR/ELTE/SISH" and "roll" not in done
        assert {side["name"]: side["score"] for side in done["sides"]} == shown
        for side in done["sides"]:  # the words add up to the side's score
            assert sum(word["points"] for word in side["words"]) == side["score"]
            status = {word["word"]: word["status"] for word in side["words"]}
            assert status[words_on("boggle")[0]] == "crossed-off"  # both wrote it
        assert {s["name"]: s["members"] for s in match["sides"]} == {
            "Ann": ["Ann"],
            "Owls": ["Ben"],
        }
        assert match["ended"] is not None and match["started"] <= match["ended"]
        assert match["winner"] == names_and(winners(match))
    adlib = matches[2]
    assert [r["roll"] for r in adlib["rounds"]] == [ROLL, ROLL]
    turns = [(r["sides"][0]["name"], r["sides"][0]["score"]) for r in adlib["rounds"]]
    assert turns == evening["adlib"]
    words = [w for r in adlib["rounds"] for w in r["sides"][0]["words"]]
    assert {w["word"] for w in words} == {"money", "stem", "bun", "joy"}
    assert all(w["status"] == "scored" and w["points"] > 0 for w in words)


def assert_the_words_add_up(document: dict) -> None:
    """In every round of every match, each side's words add up to its score; an Ad-Lib
    crossword's words less its unused cubes (one with errors scores 0)."""
    for match in document["matches"]:
        for done in match["rounds"]:
            for side in done["sides"]:
                where = (match["id"], done["round"], side["name"])
                added = sum(word["points"] for word in side["words"])
                if match["game"] == "adlib":
                    added -= sum(cube["points"] for cube in side["unused"])
                    if side["errors"]:
                        added = 0
                assert added == side["score"], where


def test_every_round_s_words_add_up_to_its_score(evening, capsys):
    document = json.loads(history(evening, capsys, "--json"))
    assert_the_words_add_up(document)
    [adlib] = [m for m in document["matches"] if m["game"] == "adlib"]
    assert all(side["unused"] for r in adlib["rounds"] for side in r["sides"])


def test_an_ad_lib_round_has_its_crossword_unused_cubes_and_the_screen_s_number(evening, capsys):
    document = json.loads(history(evening, capsys, "--json"))
    adlib = document["matches"][2]
    turns = [(r["round"], r["screen_round"], r["sides"][0]["name"]) for r in adlib["rounds"]]
    # The screen said "round 1 of 1 · Ann", then "round 1 of 1 · Ben": each side's turn.
    assert [(shown, name) for _round, shown, name in turns] == [
        (1, name) for name, _score in evening["adlib"]
    ]
    holders = [name for name, _score in evening["adlib"]]
    for done, grid, name in zip(adlib["rounds"], CROSSWORDS, holders, strict=True):
        [side] = done["sides"]
        assert side["grid"] == list(grid) and side["errors"] == []
        cubes = ROLL.split()
        for row in grid:
            for face in row.replace(".", ""):
                cubes.remove(face)
        assert sorted(cube["face"] for cube in side["unused"]) == sorted(cubes)
        assert all(cube["points"] > 0 for cube in side["unused"])
        assert {word["by"] for word in side["words"]} == {name}
    rows = list(csv.DictReader(io.StringIO(history(evening, capsys, "--csv"))))
    shown = [row for row in rows if row["game"] == "adlib"]
    assert [row["grid"] for row in shown] == ["/".join(grid) for grid in CROSSWORDS]
    for row, done in zip(shown, adlib["rounds"], strict=True):
        [side] = done["sides"]
        assert row["screen_round"] == "1"
        assert row["unused"] == " ".join(f"{c['face']}:{c['points']}" for c in side["unused"])


def test_the_standings_add_up(evening, capsys):
    """A row a player: their side's scores and wins counted for each member; the Owls
    (Ben alone in both Boggle matches) a team that kept its members."""
    document = json.loads(history(evening, capsys, "--json"))
    matches, standings = document["matches"], document["standings"]
    sides = [(m, side) for m in matches for side in m["sides"]]
    for standing in standings:
        name = standing["name"]
        theirs = [(m, side) for m, side in sides if name in side["members"]]
        assert standing["played"] == len(theirs)
        assert standing["won"] == sum(1 for m, side in theirs if side["name"] in winners(m))
        rounds = [
            side["score"]
            for m, theirs_side in theirs
            for r in m["rounds"]
            for side in r["sides"]
            if side["name"] == theirs_side["name"]
        ]
        assert standing["points"] == sum(rounds)  # no solitaire: a match's score, its rounds'
    assert {s["name"] for s in standings} == {"Ann", "Ben"}
    owls = [side for m, side in sides if side["name"] == "Owls"]
    assert document["teams"] == [
        {
            "name": "Owls",
            "played": 2,
            "won": sum(1 for m, side in sides if side["name"] == "Owls" and "Owls" in winners(m)),
            "points": sum(side["score"] for side in owls),
            "members": ["Ben"],
        }
    ]
    assert all(m["winner"] for m in matches)


def test_history_csv_has_a_row_a_side_a_round(evening, capsys):
    document = json.loads(history(evening, capsys, "--json"))
    rows = list(csv.DictReader(io.StringIO(history(evening, capsys, "--csv"))))
    expected = [
        (str(m["id"]), str(r["round"]), side["name"], str(side["score"]))
        for m in document["matches"]
        for r in m["rounds"]
        for side in r["sides"]
    ]
    assert [(row["match"], row["round"], row["side"], row["score"]) for row in rows] == expected
    first = rows[0]
    assert first["game"] == "boggle" and first["board_or_roll"] == "TNTB/GDAR/ELTE/SISH"
    assert rows[-1]["board_or_roll"] == ROLL
    owls = next(row for row in rows if row["side"] == "Owls")
    assert owls["members"] == "Ben"
    points = [int(word.rsplit(":", 1)[1]) for word in owls["words"].split()]
    assert sum(points) == int(owls["score"])


def test_since_lists_the_matches_begun_that_day_or_later(evening, capsys):
    document = json.loads(history(evening, capsys, "--json"))
    adlib = document["matches"][2]
    day = datetime.fromisoformat(adlib["started"]).astimezone().date().isoformat()
    later = json.loads(history(evening, capsys, "--json", "--since", day))
    assert [m["id"] for m in later["matches"]] == [3]
    assert {s["name"]: s["played"] for s in later["standings"]} == {"Ann": 1, "Ben": 1}
    first = datetime.fromisoformat(document["matches"][0]["started"]).astimezone().date()
    assert (
        len(json.loads(history(evening, capsys, "--json", "--since", str(first)))["matches"]) == 3
    )


def test_history_in_plain_text_names_every_match_round_and_standing(evening, capsys):
    text = history(evening, capsys)
    assert f"Store: {evening['store'] / 'matches.db'}" in text
    for line in ("Match 1: Boggle", "Match 2: Boggle", "Match 3: Ad-Lib", "Standings:"):
        assert line in text
    assert text.count("  Round 1 of 1: TNTB/GDAR/ELTE/SISH") == 2
    # As the screen said it: "round 1 of 1 · Ann", then "round 1 of 1 · Ben".
    assert [line.split(":")[0] for line in text.splitlines() if "Round 1 of 1 ·" in line] == [
        f"  Round 1 of 1 · {name}" for name, _score in evening["adlib"]
    ]
    assert "  Owls (Ben): " in text and "crossed off" in text


def test_since_takes_any_iso_date_and_says_what_is_stored_where_nothing_is_that_recent(
    evening, capsys
):
    document = json.loads(history(evening, capsys, "--json"))
    everything = json.loads(history(evening, capsys, "--json", "--since", "0001-01-01"))
    assert everything == document  # before any clock: every match
    last = document["matches"][-1]["started"]
    assert json.loads(history(evening, capsys, "--json", "--since", last))["matches"] == [
        document["matches"][-1]
    ]  # a date and time, as the history writes them
    day = datetime.fromisoformat(last).astimezone().date().isoformat()
    text = history(evening, capsys, "--since", "2999-12-31")
    assert text.splitlines()[1:] == [
        "No match began on 2999-12-31 or later; the store holds 3 matches, "
        f"the last begun on {day}."
    ]
    assert json.loads(history(evening, capsys, "--json", "--since", "9999-12-31"))["matches"] == []


@pytest.mark.parametrize("since", ["yesterday", "2026-13-01", "2026-02-30", "2026-1-1x", ""])
def test_a_bad_since_is_one_sentence_and_exit_2(evening, capsys, since):
    capsys.readouterr()
    assert main(["history", "--config", evening["config"], "--since", since]) == 2
    said = capsys.readouterr()
    assert said.out == "" and said.err.count("\n") == 1 and "YYYY-MM-DD" in said.err


def test_history_of_no_store_is_empty_and_creates_nothing(tmp_path, capsys):
    config = tmp_path / "box.toml"
    config.write_text(f"[store]\nfolder = '{tmp_path / 'none'}'\n", encoding="utf-8")
    assert main(["history", "--config", str(config), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"matches": [], "standings": [], "teams": []}
    assert not (tmp_path / "none").exists()


def test_a_ruling_made_after_a_round_leaves_its_words_as_they_were(evening, capsys, tmp_path):
    shutil.copytree(evening["store"], tmp_path / "store")
    config = tmp_path / "box.toml"
    config.write_text(f"[store]\nfolder = '{tmp_path / 'store'}'\n", encoding="utf-8")
    before = history({"config": str(config)}, capsys, "--json")
    store = Store(tmp_path / "store")
    later = json.loads(before)["matches"][-1]["ended"]
    at = datetime.fromisoformat(later).timestamp() + DAY
    for word in ("anglesite", "estranged"):  # the words that scored, refused the next day
        store.rule_word("en", word, False, at)
    store.close()
    assert history({"config": str(config)}, capsys, "--json") == before
    assert main(["check", "anglesite", "--house", "--config", str(config)]) == 0
    assert "refused by this table" in capsys.readouterr().out


def test_the_match_table_shows_the_evening_since_the_box_started(evening, capsys):
    first, second, adlib = evening["tables"]
    assert not any(line.startswith("This evening") for line in first)  # one match: its own
    at = second.index("This evening: 2 matches  won · points")
    document = json.loads(history(evening, capsys, "--json", "--since", "2000-01-01"))
    boggle = document["matches"][:2]
    points = {
        side["name"]: sum(
            s["score"] for m in boggle for s in m["sides"] if s["name"] == side["name"]
        )
        for side in boggle[0]["sides"]
    }
    won = {name: sum(1 for m in boggle if name in winners(m)) for name in points}
    players = {"Ann": "Ann", "Ben": "Owls"}  # each player, and their side
    expected = sorted(players, key=lambda n: (-won[players[n]], -points[players[n]], n))
    rows = [f"{n}  {won[players[n]]} of 2 · {points[players[n]]}" for n in expected]
    owls = f"Owls  {won['Owls']} of 2 · {points['Owls']}"  # Ben's team, the same each match
    assert second[at + 1 :] == [*rows, "Teams  won · points", owls]
    # The Ad-Lib box was started two days later: its evening is its one match.
    assert not any(line.startswith("This evening") for line in adlib)


def test_the_phones_open_the_evening_as_the_command_prints_it(evening):
    page = evening["page"]
    status, answer = page["history"]
    assert status == 200 and answer.pop("ok") is True
    assert answer == page["command"][1]
    assert [m["id"] for m in answer["matches"]] == [1, 2]
    assert page["no token"][0] == 401 and page["no token"][1]["ok"] is False
    assert page["wrong code"][0] == 403 and page["wrong code"][1]["error"].endswith(".")
    standings = answer["standings"]
    teams = [{**team, "name": f"{team['name']} (Ben)"} for team in answer["teams"]]
    assert page["phone"] == [
        f"{s['name']}: {s['points']} points, won {s['won']} of {s['played']}"
        for s in (*standings, *teams)
    ]
    assert [team["name"] for team in answer["teams"]] == ["Owls"]
    assert [line.split(".")[0] for line in page["phone matches"]] == ["1", "2"]
    # Each word as the evening's JSON has it: its ruling, and on a team's side who typed it.
    words = [
        (w, side)
        for m in answer["matches"]
        for r in m["rounds"]
        for side in r["sides"]
        for w in side["words"]
    ]
    assert len(page["phone words"]) == len(words)
    for shown, (word, side) in zip(page["phone words"], words, strict=True):
        assert shown[0] == word["word"]
        by = [word["by"]] if side["name"] == "Owls" else []
        assert shown[2:] == by, (shown, word)
    assert page["renamed"] == ("Ann", "Ben", "Cyril")


def test_a_store_that_cannot_be_read_back_leaves_the_match_table_to_the_match(
    tmp_path, photos, monkeypatch
):
    def damaged(*_args):
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(device.referee.standings, "evening", damaged)
    made, clock, _ = build(tmp_path, photos)
    tap(made)
    run_out_the_clock(made, clock)
    tap(made)
    tap(made)
    assert made.referee.state is State.MATCH, made.referee.message
    assert made.referee.evening.matches == 0
    assert view_of(made.referee).lines  # the match's own table
    made.close()


def test_a_restarted_box_s_evening_begins_with_the_match_it_resumed(tmp_path, photos):
    made, clock, url = page_box(tmp_path, photos, matches=2)
    code = made.referee.join_code
    tokens = [joined(url, code, "Ann"), joined(url, code, "Ben")]
    words = words_on("boggle")
    for _match in range(2):
        play_a_match(made, clock, url, tokens, words)
    later = clock.wall() + 60  # the box is started again a minute later
    made.close()
    chosen = box_settings(tmp_path, photos)
    chosen["page"].update(enabled=True, port=0)
    chosen["rounds"] = 1
    reader = ListReader([tray_reading()])
    made, clock, _ = build(
        tmp_path, photos, reader=reader, settings=chosen, clock=FakeClock(wall_start=later)
    )
    made.box.step()
    assert made.referee.state is State.MATCH and made.referee.match.number == 2
    assert made.referee.evening.matches == 1  # match 2, resumed; match 1 was before
    url = f"http://127.0.0.1:{made.page.port}/"
    play_a_match(made, clock, url, tokens, words)
    table = [str(line) for line in view_of(made.referee).lines]
    assert "This evening: 2 matches  won · points" in table
    status, answer = get(url, f"history?code={made.referee.join_code}&token={tokens[0]}")
    assert status == 200 and [m["id"] for m in answer["matches"]] == [2, 3]
    made.close()
