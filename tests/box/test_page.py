"""The players' page in a real headless browser: a whole Big Boggle match of three players,
two on phones and one on the box's keyboard, on MockFactory pins and a fake clock."""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request

import pygame
import pytest
import tornado.web
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from device.referee import flow
from device.referee.flow import State

from .browser import phone
from .conftest import ListReader, tray_reading
from .test_round import box_settings, build

BOARD = "RONLI/CTSSD/NMPPN/UAEQuI/HINRM"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def page_box(tmp_path, photos, factory=None, rounds=2, **page):
    chosen = box_settings(tmp_path, photos, "big-boggle")
    chosen["page"].update(enabled=True, port=page.pop("port", 0), **page)
    chosen["handicap"] = ["Ann"]
    chosen["target_score"] = 8
    readings = [tray_reading(BOARD, game="big-boggle") for _ in range(rounds)]
    made, clock, beeps = build(
        tmp_path, photos, factory, reader=ListReader(readings), settings=chosen
    )
    return made, clock, f"http://127.0.0.1:{made.page.port}/"


def press(factory, made, clock):
    clock.advance(flow.SETTLE_SECONDS)  # as a player does: once the screen has changed
    pin = factory.pin(17)
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    made.box.step()


def join(driver, url, code, name, team=""):
    driver.get(f"{url}?code={code}")
    driver.find_element(By.ID, "name").send_keys(name)
    if team:
        driver.find_element(By.ID, "team").send_keys(team)
    driver.find_element(By.ID, "join-button").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "play").is_displayed())


LISTED = (
    "return [...document.querySelectorAll('#words li')]"
    ".map(li => [li.firstChild.textContent, li.className])"
)


RULINGS = (
    "return [...document.querySelectorAll('#words li')]"
    ".map(li => [li.querySelector('.word').textContent, li.querySelector('.ruling').textContent])"
)
REASON_BELOW = (
    "const li = [...document.querySelectorAll('#words li')]"
    ".find(l => l.querySelector('.word').textContent === arguments[0]);"
    "const word = li.querySelector('.word').getBoundingClientRect();"
    "return li.querySelector('.why').getBoundingClientRect().top >= word.bottom;"
)


def statuses(driver):
    """The phone's own list as it shows it: word -> status (read in one go, as the page
    redraws the list every second)."""
    return dict(driver.execute_script(LISTED))


def type_words(driver, words):
    field = driver.find_element(By.ID, "word")
    for word in words:
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "word").is_displayed())
        field.send_keys(word, Keys.ENTER)
        WebDriverWait(driver, 10).until(lambda d, w=word: w in statuses(d))


def keyboard(made, word):
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=word))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
    made.box.step()


def wait_text(driver, element, text):
    WebDriverWait(driver, 15).until(lambda d: text in d.find_element(By.ID, element).text)


def test_a_big_boggle_match_of_three_players_on_two_phones_and_a_keyboard(
    tmp_path, photos, factory
):
    made, clock, url = page_box(
        tmp_path, photos, factory, keyboard_player="Cy", keyboard_team="Owls"
    )
    referee = made.referee
    with phone() as ann, phone() as ben:
        code = referee.join_code
        made.box.step()
        assert len(code) == 4 and code in made.box.screen.shown.message
        join(ann, url, code, "Ann")
        join(ben, url, code, "Ben", team="Owls")
        rounds = [
            ({"cot", "hunt", "humane", "zebra"}, {"hunt", "happen"}, ["aunts", "ton"]),
            ({"huntsman"}, {"equips"}, []),
        ]
        for number, (anns, bens, cys) in enumerate(rounds, 1):
            if referee.state is State.SCORED:
                press(factory, made, clock)  # the match table, then the next roll
                assert not referee.match.ended
            press(factory, made, clock)
            assert referee.state is State.TIMING and referee.round.number == number
            type_words(ann, sorted(anns))
            type_words(ben, sorted(bens))
            for word in cys:
                keyboard(made, word)
            if number == 1:
                seen = statuses(ann)
                assert seen["cot"] == "valid"  # Ann's handicap: three letters count
                assert seen["zebra"] == "not-on-board"
                shown = dict(ann.execute_script(RULINGS))
                assert shown["zebra"] == "not on tray" and shown["cot"] == "ok"  # in words
                assert ann.execute_script(REASON_BELOW, "zebra")  # the reason: a line of its own
                assert set(statuses(ben)) == bens  # a phone shows its own words only
                assert "TON: too short" in made.box.screen.shown.message
            clock.advance(180)
            made.box.step()  # 0:00: the lists lock and are refereed at once
            assert referee.state is State.SCORED
            wait_text(ann, "results", "Owls")
        result = referee.round.result
        first = made.referee.match.rounds[0].result
        ann_first = {e.word: e.status for e in first.players[1].entries}
        owls_first = {e.word: e.status for e in first.players[0].entries}
        assert first.scores() == {"Owls": 5, "Ann": 4}
        assert ann_first["hunt"] == owls_first["hunt"] == "crossed-off"
        assert owls_first["ton"] == "too-short" and ann_first["zebra"] == "not-on-board"
        assert result.scores() == {"Owls": 3, "Ann": 11}
        press(factory, made, clock)  # the match table: the target of 8 is reached
        assert referee.state is State.MATCH and referee.match.ended
        assert referee.match.standings() == [("Ann", 15), ("Owls", 8)]
        assert str(made.box.screen.shown.lines[0]) == "Winner: Ann"
        for driver in (ann, ben):
            wait_text(driver, "standings", "Winner: Ann")
            assert "Ann: 15" in driver.find_element(By.ID, "standings").text
    kinds = [e.kind for e in made.store.events(1)]
    assert kinds.count("word-typed") == 10 and kinds[-1] == "match-ended"
    made.close()


def post(url, path, body, raw=None):
    data = raw if raw is not None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method="POST")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_bad_requests_get_a_plain_refusal_and_change_nothing(tmp_path, photos):
    made, clock, url = page_box(tmp_path, photos, rounds=1)
    referee = made.referee
    code = referee.join_code
    status, joined = post(url, "join", {"code": code, "name": "Ann"})
    assert status == 200 and joined["ok"]
    token = joined["token"]
    made.box.events.put("tap")
    made.box.step()
    before = [(e.kind, e.payload) for e in made.store.events(1)]
    refusals = [
        ("join", {"name": "Bo"}, 403, "join code"),
        ("join", {"code": "ZZZZ", "name": "Bo"}, 403, "not this match's join code"),
        ("join", {"code": code, "name": "<b>Bo</b>"}, 400, "without signs"),
        ("word", {"code": code, "token": token, "word": "a" * 2**20}, 413, "far longer"),
        ("word", {"code": code, "token": "forged", "word": "cot"}, 401, "join again"),
        ("word", {"code": code, "token": token, "word": "c4t"}, 409, "letters only"),
    ]
    for path, body, want, sentence in refusals:
        status, answer = post(url, path, body)
        assert (status, answer["ok"]) == (want, False) and sentence in answer["error"], answer
    status, answer = post(url, "word", {}, raw=b"\xff not json")
    assert status == 400 and "not a request" in answer["error"]
    assert [(e.kind, e.payload) for e in made.store.events(1)] == before
    flood = [post(url, "word", {"code": code, "token": token, "word": "cot"}) for _ in range(1000)]
    refused = [answer for status, answer in flood if status == 429]
    assert len(refused) >= 950 and "Too fast" in refused[0]["error"]
    assert [e.payload.word for e in made.store.events(1) if e.kind == "word-typed"] == ["cot"]
    made.close()


@pytest.mark.parametrize("address", ["8.8.8.8", "2001:4860::8888"])
def test_a_client_off_the_local_network_is_refused(tmp_path, photos, address):
    from tornado.httputil import HTTPHeaders, HTTPServerRequest, RequestStartLine

    from device.page.page import Handler

    made, _, _ = page_box(tmp_path, photos, rounds=1)
    app = made.page.app()
    start = RequestStartLine("GET", "/state", "HTTP/1.1")
    headers = HTTPHeaders({"Host": "box.local"})
    request = HTTPServerRequest(connection=_Connection(), start_line=start, headers=headers)
    request.remote_ip = address
    handler = Handler(
        app,
        request,
        front=made.page.front,
        buckets=made.page.buckets,
        tries=made.page.tries,
        key=made.page.key,
    )
    handler._transforms = []  # what tornado sets as it runs a request
    with pytest.raises(tornado.web.Finish):  # answered, and nothing more is done
        handler.prepare()
    assert handler.get_status() == 403
    made.close()


class _Connection:
    """Enough of a tornado connection for a handler to answer into."""

    def __init__(self):
        self.context = None
        self.written = b""

    def set_close_callback(self, callback):
        pass

    def write_headers(self, start_line, headers, chunk=None):
        import asyncio

        future = asyncio.Future(loop=asyncio.new_event_loop())
        future.set_result(None)
        return future

    def write(self, chunk):
        return self.write_headers(None, None)

    def finish(self):
        pass
