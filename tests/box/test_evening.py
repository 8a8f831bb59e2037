"""A whole evening at the table, in one box (one store, one players' page) on a fake clock:
two Boggle matches on two phones in a real headless browser with a third player on the
box's keyboard, a team match (on the last score screen of the match before, the two
phones leave and join again as one team), Czech Boggle and an Ad-Lib match of three with
partners. A second evening: seven at the table, then Czech Boggle, its screens (the box
saves them, with ``screens.jsonl``) and its phone's page in Czech.
The box runs in a process of its own, played by script lines (``device.box.script``) sent
one at a time; it is killed (SIGKILL) and started again at random moments, and a change
of game is a restart with the new configuration, as a host makes it. At the end every
round's scores in the store are worked out again by the engine's own referees from the
same lists, and every word a phone was told is kept is in the store."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import random
import re
import signal
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from device.base.strings import say
from device.cli import main
from device.seams.seams import Scorer
from device.store.events import MatchStarted, RollRead, Scored, WordRemoved, WordTyped
from device.store.store import Store
from engine.adlib import Grid, referee
from engine.board import Board
from engine.games import find_game
from engine.lexicon import Lexicon
from engine.round import RoundRules, score_round

from .browser import phone
from .test_language import english_pieces, unaccented_word
from .test_page import post

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
#: The evening's trays, by game, in the order the box reads them (round and round).
TRAYS = {
    "boggle": ["TNTB/GDAR/ELTE/SISH", "DQuWT/EETN/CSSO/EDBN", "SEET/ABEH/CDFG/IJKL"],
    "czech-boggle": ["KOLO/ROSA/MELE/PIVO"],
}
ROLL = "M O N E Y S T E B U J O Q"
CROSSWORDS = [("S....", "T.B.J", "E.U.O", "MONEY"), ("MONEY",)]
#: Whether the page has joined (true), or the sentence it shows.
JOINED = "return !$('play').hidden || $('error').textContent"
#: How many times the box is killed, at moments the seed picks.
KILLS = 3

CHILD = """
import json, sys
sys.path.insert(0, sys.argv[3])
from pathlib import Path
from box.conftest import loose_reading, tray_reading
from box.test_round import settings_of
from device.box.assemble import assemble
from device.base.clock import FakeClock
from device.box.script import ScriptFailed, parse

document, wall = json.loads(sys.argv[1]), float(sys.argv[2])
trays, roll, crosswords = json.loads(sys.argv[4])
kept = Path(document["store"]["folder"]) / "evening-reads.json"


class Reader:
    '''The evening's rolls one after another; the count beside the store, so that a
    restarted box reads on.'''

    def take(self, kind, choices):
        counts = json.loads(kept.read_text()) if kept.exists() else {}
        number = counts.get(kind, 0)
        counts[kind] = number + 1
        kept.write_text(json.dumps(counts))
        return choices[number % len(choices)]

    def read_roll(self, image, game):
        if game.is_tray:
            return tray_reading(self.take(game.id, trays[game.id]), game=game.id)
        return loose_reading(self.take("adlib", ["T", "E", roll, roll]))

    def read_crossword(self, image, game, lexicon=""):
        return loose_reading(roll, grid=tuple(self.take("crossword", crosswords)))


clock = FakeClock(start=1000.0, wall_start=wall)
screens = Path(sys.argv[5]) if len(sys.argv) > 5 else None
made = assemble(settings_of(document), clock, reader=Reader(), screenshots=screens)
box, ref = made.box, made.referee


def answer(**more):
    port = made.page.port if made.page else 0
    said = {"state": str(ref.state), "wall": clock.wall(), "code": ref.join_code, "port": port}
    print(json.dumps({**said, "message": ref.message, **more}), flush=True)


box.step()
answer()
for line in sys.stdin:
    box.play(parse(line, "the evening"))
    box.running = True
    try:
        while box.running:
            box.step()
            clock.advance(0.5)
    except ScriptFailed as failed:
        answer(error=str(failed))
    else:
        answer()
"""


class Box:
    """The box's process: started, sent script lines, killed, started again."""

    def __init__(self, tmp_path: Path, screens: Path | None = None) -> None:
        self.store = tmp_path / "store"
        self.screens = screens  # where the box saves its screens and screens.jsonl
        self.wall = 1_800_000_000.0
        self.port = 0
        self.process: subprocess.Popen[str] | None = None
        self.document: dict[str, Any] = {}
        self.last: dict[str, Any] = {}
        self.restarts = 0

    def start(self, document: dict[str, Any]) -> dict[str, Any]:
        self.document = document
        document["store"] = {"folder": str(self.store)}
        document.setdefault("screen", {})["backend"] = "dummy"
        document.setdefault("button", {})["backend"] = "keys"
        document.setdefault("buzzer", {})["type"] = "silent"
        photos = ROOT / "device" / "data" / "demo" / "boggle"  # any photo: the reader is the test's
        document.setdefault("camera", {}).update(backend="folder", folder=str(photos))
        page = document.setdefault("page", {})
        if page.get("enabled"):
            page["port"] = self.port
        readings = json.dumps([TRAYS, ROLL, CROSSWORDS])
        arguments = [json.dumps(document), str(self.wall), str(ROOT / "tests"), readings]
        if self.screens is not None:
            arguments.append(str(self.screens))
        self.process = subprocess.Popen(
            [sys.executable, "-c", CHILD, *arguments],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
        )
        self.last = self._answer()
        self.port = self.last["port"] or self.port
        return self.last

    def _answer(self) -> dict[str, Any]:
        assert self.process is not None and self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "the box stopped"
        said: dict[str, Any] = json.loads(line)
        self.wall = said["wall"]
        return said

    def play(self, line: str) -> dict[str, Any]:
        assert self.process is not None and self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        self.last = self._answer()
        assert "error" not in self.last, (line, self.last.get("error", ""))
        return self.last

    def kill(self) -> None:
        """SIGKILL, as a power cut; the box is back 5 s later (of its clock)."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.wall += 5.0
        self.restarts += 1
        self.start(self.document)

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def words_of(board: str, game: str, count: int) -> list[str]:
    """``count`` words that count on the board, the engine's own solver's."""
    found = Scorer().solve(Board.parse(board), find_game(game))
    return [w.word for w in sorted(found, key=lambda w: (len(w.word), w.word))][:count]


class Phone:
    """A player's phone: the real page in headless Chromium."""

    def __init__(self, driver, name: str) -> None:
        self.driver, self.name = driver, name
        self.kept: list[str] = []

    def join(self, url: str = "", team: str = "") -> None:
        """Join on the page's form (``url``: opened first; else the form shown after
        leaving)."""
        if url:
            self.driver.get(url)
        wait = WebDriverWait(self.driver, 10)
        wait.until(lambda d: d.find_element(By.ID, "join").is_displayed())
        for field, text in (("name", self.name), ("team", team)):
            box = self.driver.find_element(By.ID, field)
            box.clear()
            box.send_keys(text)
        self.driver.find_element(By.ID, "join-button").click()
        said = WebDriverWait(self.driver, 10).until(lambda d: d.execute_script(JOINED))
        assert said is True, said  # else the page's sentence

    def type(self, word: str) -> None:
        wait = WebDriverWait(self.driver, 15)
        wait.until(lambda d: d.find_element(By.ID, "word").is_displayed())
        self.driver.find_element(By.ID, "word").send_keys(word, Keys.ENTER)
        listed = "return [...document.querySelectorAll('#words .word')].map(w => w.textContent)"
        try:
            wait.until(lambda d: word in d.execute_script(listed))
        except TimeoutException:
            said = self.driver.find_element(By.ID, "error").text
            raise AssertionError(
                f"{self.name}'s {word} is not listed; the page says {said!r}"
            ) from None
        self.kept.append(word)  # the phone shows it: the box has it stored

    def leave(self) -> None:
        wait = WebDriverWait(self.driver, 10)
        wait.until(lambda d: d.find_element(By.ID, "leave").is_displayed())
        self.driver.find_element(By.ID, "leave").click()
        wait.until(lambda d: d.find_element(By.ID, "join").is_displayed())


class RoutePhone:
    """A player's phone that calls the page's routes as its script does (a table of seven
    in seven browsers would not fit a test's minute on two cores)."""

    def __init__(self, url: str, code: str, name: str) -> None:
        self.url, self.code, self.name = url, code, name
        self.kept: list[str] = []
        status, answer = post(url, "join", {"code": code, "name": name, "team": ""})
        assert status == 200 and answer["ok"], answer
        self.token = answer["token"]

    def type(self, word: str) -> None:
        said = {"code": self.code, "token": self.token, "word": word, "remove": False}
        status, answer = post(self.url, "word", said)
        assert status == 200 and answer["ok"], (word, answer)
        self.kept.append(word)

    def leave(self) -> None:
        status, answer = post(self.url, "leave", {"code": self.code, "token": self.token})
        assert status == 200 and answer["ok"], answer


def boggle_round(box: Box, phones: list, keyboard: str, board: str, game: str) -> list:
    """The actions of a round: the roll, each phone's words (one they all write), the
    keyboard's player's, time running out, the table."""
    words = words_of(board, game, 2 * len(phones) + 2)
    shared, rest = words[0], words[1:]
    actions: list = [("box", "sleep 2"), ("box", "press"), ("box", "wait timing 5")]
    for k, who in enumerate(phones):
        actions += [("phone", who, word) for word in (shared, rest[2 * k], rest[2 * k + 1])]
    actions += [("box", f"type {word}") for word in (shared, rest[2 * len(phones)])]
    actions += [
        ("box", "sleep 180"),
        ("box", "wait scored 5"),
        ("box", "sleep 2"),
        ("box", "press"),
    ]
    return actions


def act(box: Box, action: tuple) -> None:
    """One action of an evening: a script line, a word on a phone, a new configuration
    (the box restarted with it), a phone leaving the table or joining it again, a power
    cut."""
    kind = action[0]
    if kind == "box":
        box.play(action[1])
    elif kind == "phone":
        action[1].type(action[2])
    elif kind == "config":
        box.stop()
        box.start(action[1])
    elif kind == "leave":
        action[1].leave()
    elif kind == "kill":
        box.kill()
    else:
        action[1].join(team=action[2])


def test_an_evening_of_five_matches_killed_at_random_and_every_score_the_engines(tmp_path):
    seed = int(os.environ.get("CUBEREF_EVENING_SEED", "30"))
    rng = random.Random(seed)
    box = Box(tmp_path)
    boggle = {"game": "boggle", "rounds": 1, "page": {"enabled": True, "keyboard_player": "Dee"}}
    with phone() as one, phone() as two:
        ann, ben = Phone(one, "Ann"), Phone(two, "Ben")
        box.start(boggle)
        url = f"http://127.0.0.1:{box.port}/?code={box.last['code']}"
        ann.join(url)
        ben.join(url)
        evening: list = []
        # matches 1 and 2: the same phones, each match a round
        for board in TRAYS["boggle"][:2]:
            evening += boggle_round(box, [ann, ben], "Dee", board, "boggle")
        # match 3: a team match, Ann and Ben as the Owls against Dee on the keyboard; they
        # change teams on match 2's score screen, before the press for its match table
        to_the_table = evening[-2:]
        del evening[-2:]
        evening += [("leave", ann), ("leave", ben), ("join", ann, "Owls"), ("join", ben, "Owls")]
        evening += to_the_table
        evening += boggle_round(box, [ann, ben], "Dee", TRAYS["boggle"][2], "boggle")
        # match 4: Czech Boggle, the same phones, their page now in Czech
        czech = {**boggle, "game": "czech-boggle", "rounds": 1}
        evening += [("config", czech)]
        evening += boggle_round(box, [ann, ben], "Dee", TRAYS["czech-boggle"][0], "czech-boggle")
        # match 5: Ad-Lib, Ann and Cy partners against Ben, one turn each
        adlib = {"game": "adlib", "rounds": 1, "players": ["Ann", "Ben", "Cy"], "partners": True}
        evening += [("config", {**adlib, "best_seconds": 0.2})]
        evening += [("box", line) for line in ("sleep 2", "press", "sleep 2", "press")]
        for _turn in range(2):
            evening += [("box", line) for line in ("sleep 2", "press", "wait timing 5")]
            evening += [("box", line) for line in ("sleep 4", "press", "sleep 2", "press")]
            evening += [("box", line) for line in ("wait scored 10", "sleep 2", "press")]
        killed_at = set(rng.sample(range(len(evening)), KILLS))
        for number, action in enumerate(evening):
            act(box, action)
            if number in killed_at:
                box.kill()
        box.play("wait match 5")
        typed = {"Ann": ann.kept, "Ben": ben.kept}
    box.stop()
    assert box.restarts == KILLS
    games = ["boggle", "boggle", "boggle", "czech-boggle", "adlib"]
    check_the_store(Store(tmp_path / "store"), typed, games)
    check_the_history(tmp_path, games)


def check_the_store(store: Store, typed: dict[str, list[str]], played: list[str]) -> None:
    """Every round's scores as the engine's own referees give them from the same lists,
    and every word a phone showed as kept among those lists."""
    games = []
    stored: dict[str, list[str]] = defaultdict(list)
    for number in range(1, store.latest_match() + 1):
        events = store.events(number)
        started = events[0].payload
        assert isinstance(started, MatchStarted)
        game = find_game(started.game)
        games.append(game.id)
        assert any(e.kind == "match-ended" for e in events), f"match {number} did not end"
        rolls = {e.round: e.payload.reading for e in events if isinstance(e.payload, RollRead)}
        lists: dict[int, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for event in events:
            payload = event.payload
            if isinstance(payload, WordTyped):
                lists[event.round][payload.player].append(payload.word)
                stored[payload.player].append(payload.word)
            elif isinstance(payload, WordRemoved):
                lists[event.round][payload.player].remove(payload.word)
        teams: dict[str, list[str]] = defaultdict(list)
        for seat in started.seats:
            if seat.team:
                teams[seat.team].append(seat.name)
        rules = RoundRules(teams=tuple((name, tuple(m)) for name, m in teams.items()))
        if number == 3:  # the teams changed on match 2's last score screen
            assert dict(teams) == {"Owls": ["Ann", "Ben"]}
            scored = [e.payload for e in events if isinstance(e.payload, Scored)]
            assert [set(dict(payload.scores)) for payload in scored] == [{"Owls", "Dee"}]
        for event in events:
            if not isinstance(event.payload, Scored):
                continue
            scored = dict(event.payload.scores)
            if game.is_tray:
                by_player = [(name, lists[event.round][name]) for name in started.players]
                result = score_round(rolls[event.round].board, game, by_player, None, rules)
                assert result.scores() == scored, (number, event.round)
            else:
                grid = Grid.from_rows(event.payload.grid)
                verdict = referee(rolls[event.round].roll, grid, Lexicon.open("en"))
                assert list(scored.values()) == [verdict.score if verdict.valid else 0]
        if game.is_tray:
            assert {"Ann", "Ben", "Dee"} <= set(started.players)  # the phones stayed in
            assert sum(len(words) for words in lists.values()) > 0
    assert games == played
    for name, words in typed.items():
        assert set(words) <= set(stored[name]), name


def check_the_history(tmp_path: Path, played: list[str]) -> dict[str, Any]:
    """``cuberef history`` lists every match and round the store holds (the games
    ``played``), each side's round score the stored one, and standings that add up; its
    JSON document is returned."""
    config = tmp_path / "history.toml"
    config.write_text(f"[store]\nfolder = '{tmp_path / 'store'}'\n", encoding="utf-8")
    printed = []
    for shown in ("--json", "--csv"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["history", "--config", str(config), shown]) == 0
        printed.append(out.getvalue())
    document, rows = json.loads(printed[0]), list(csv.DictReader(io.StringIO(printed[1])))
    store = Store(tmp_path / "store", read_only=True)
    stored = {
        (number, event.round): dict(event.payload.scores)
        for number in store.matches()
        for event in store.events(number)
        if isinstance(event.payload, Scored)
    }
    store.close()
    matches = document["matches"]
    assert [m["game"] for m in matches] == played
    listed = {(m["id"], r["round"]): r["sides"] for m in matches for r in m["rounds"]}
    assert set(listed) == set(stored)
    for key, sides in listed.items():
        scores = {side["name"]: side["score"] for side in sides}
        assert set(scores) <= {side["name"] for side in matches[key[0] - 1]["sides"]}, key
        if matches[key[0] - 1]["game"] == "adlib":  # the holder, named by their side
            assert sorted(scores.values()) == sorted(stored[key].values()), key
        else:
            assert scores == stored[key], key
    assert len(rows) == sum(len(sides) for sides in listed.values())
    in_rows = {(int(r["match"]), int(r["round"]), r["side"]): int(r["score"]) for r in rows}
    assert in_rows == {
        (number, played, side["name"]): side["score"]
        for (number, played), sides in listed.items()
        for side in sides
    }
    standings = document["standings"]
    every = [side for m in matches for side in m["sides"]]
    assert sum(s["points"] for s in standings) == sum(side["score"] for side in every)
    for standing in standings:
        assert standing["played"] == sum(1 for side in every if side["name"] == standing["name"])
    assert sum(s["won"] for s in standings) >= len(matches)  # each match won (a draw: more)
    return document


def test_seven_at_the_table_then_a_czech_match_on_czech_screens_and_pages(tmp_path):
    """Seven at the table (two phones in the browser, four on the page's routes, one on the
    keyboard) play a Boggle round: the first page of its scores names every player with
    their round score. Then Czech Boggle, its language the game's: no English line on any
    of its screens nor on the phone's page (its refusals, its words' rulings, a wrong join
    code), and ``cuberef history`` has each match's scores as its screen showed them."""
    screens = tmp_path / "screens"
    box = Box(tmp_path, screens)
    boggle = {"game": "boggle", "rounds": 1, "page": {"enabled": True, "keyboard_player": "Dee"}}
    with phone() as one, phone() as two:
        ann, ben = Phone(one, "Ann"), Phone(two, "Ben")
        box.start(boggle)
        url, code = f"http://127.0.0.1:{box.port}/", box.last["code"]
        ann.join(f"{url}?code={code}")
        ben.join(f"{url}?code={code}")
        others = [RoutePhone(url, code, name) for name in ("Cy", "Eve", "Finn", "Hal")]
        seven = [ann, ben, *others]
        for action in boggle_round(box, seven, "Dee", TRAYS["boggle"][0], "boggle"):
            act(box, action)
        box.play("wait match 5")
        for other in others:  # they go home; Ann, Ben and Dee play on in Czech
            other.leave()
        english = len(journal_of(screens))
        czech = {**boggle, "game": "czech-boggle"}
        act(box, ("config", czech))
        board = TRAYS["czech-boggle"][0]
        actions = boggle_round(box, [ann, ben], "Dee", board, "czech-boggle")
        typed, counted = unaccented_word()  # AMURI, counted as amuři
        extra = [("phone", ann, typed), ("phone", ann, "xyzzy"), ("look", ann, "typing")]
        extra += [("kill",), ("look", ann, "typing")]  # a power cut: back as it was, in Czech
        at = actions.index(("box", "sleep 180"))
        actions[at:at] = extra
        actions.insert(actions.index(("box", "wait scored 5")) + 1, ("look", ann, "scored"))
        for action in actions:
            if action[0] == "look":
                look(*action[1:])
            else:
                act(box, action)
            if action == ("look", ann, "typing"):  # XYZZY refused and why, AMURI as amuři
                assert " ".join(texts_of(one, "#words .why")).startswith("není na kostkách")
                as_counted = f"{say('phone-countedAs', 'cs')} {counted}"
                assert texts_of(one, "#words .counted") == [as_counted]
            if action == ("look", ann, "scored"):  # every player's score, Ann's marked
                first, *rest = texts_of(one, "#results h2")
                assert first.startswith("Ann: ") and first.endswith(f"({say('phone-you', 'cs')})")
                assert len(rest) == 2
        box.play("wait match 5")
        look(ann, "waiting")
        assert texts_of(one, "#standings h2") == [say("phone-standings", "cs")]
        assert texts_of(one, "#standings .winner")[0].startswith(("Vítěz: ", "Remíza: "))
        one.find_element(By.ID, "evening-button").click()  # the evening read back, in Czech
        WebDriverWait(one, 10).until(lambda d: d.find_element(By.ID, "evening").is_displayed())
        [listed] = texts_of(one, "#evening details.match")  # since the box started: match 2
        assert listed.startswith("2. ")  # (a change of game is a restart)
        assert_czech(one.find_element(By.ID, "evening").text, "the evening on Ann's page")
        ann.leave()  # and, with a wrong code, the page says why in Czech
        one.find_element(By.ID, "code").clear()
        one.find_element(By.ID, "code").send_keys("ZZZZ")
        one.find_element(By.ID, "join-button").click()
        WebDriverWait(one, 10).until(lambda d: texts_of(d, "#error") != [""])
        assert texts_of(one, "#error") == [say("wrong-code", "cs")]
        assert_czech(one.find_element(By.TAG_NAME, "body").text, "Ann's join form")
    box.stop()
    journal = journal_of(screens)
    for entry in journal[english:]:  # every screen of the Czech match
        assert_czech(" ".join(entry["text"]), entry["file"])
    every = " ".join(text for entry in journal[english:] for text in entry["text"])
    assert f"{typed.upper()} ({counted})" in every and "škrtnuto" in every
    names = ["Dee", "Ann", "Ben", "Cy", "Eve", "Finn", "Hal"]
    shown = [first_scores(journal[:english], names), first_scores(journal[english:], names[:3])]
    document = check_the_history(tmp_path, ["boggle", "czech-boggle"])
    for match, scores in zip(document["matches"], shown, strict=True):
        [played] = match["rounds"]
        assert {side["name"]: side["score"] for side in played["sides"]} == scores, match["id"]
    tables = [entry for entry in journal if entry["state"] == "match"]
    for match, table in zip(document["matches"], tables, strict=True):  # every side, one page
        said = " ".join(table["text"])
        for side in match["sides"]:
            assert re.search(rf"\b\d+\. {side['name']} {side['score']}\b", said), (side, said)
    typed_on = {who.name: who.kept for who in seven}  # every phone's words, in the store
    check_the_store(Store(tmp_path / "store"), typed_on, ["boggle", "czech-boggle"])


def journal_of(screens: Path) -> list[dict[str, Any]]:
    lines = (screens / "screens.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def first_scores(journal: list[dict[str, Any]], names: list[str]) -> dict[str, int]:
    """Every player's round score as the first page of the round's scores shows it (each
    name, then its points): all of them are on it."""
    texts = next(entry["text"] for entry in journal if entry["state"] == "scored")
    assert all(name in texts for name in names), texts
    return {name: int(texts[texts.index(name) + 1]) for name in names}


def look(who: Phone, phase: str) -> None:
    """Once the page shows the round's ``phase`` (the box's name for it), no English is
    left on it."""
    said = say(f"phone-{phase}", "cs")
    WebDriverWait(who.driver, 10).until(lambda d: texts_of(d, "#phase") == [said])
    text = str(who.driver.execute_script("return document.body.innerText"))
    assert_czech(text, f"{who.name}'s page, {phase}")


def texts_of(driver, selector: str) -> list[str]:
    return [node.text for node in driver.find_elements(By.CSS_SELECTOR, selector)]


def assert_czech(text: str, where: str) -> None:
    """No piece of an English message that Czech says otherwise is left in ``text``."""
    left = [piece for piece in english_pieces() if piece in text]
    assert not left, (where, left, text)
