"""A word challenged on a phone, ruled by the table, kept in the house list: the whole way,
on the real players' page (HTTP), MockFactory pins, the dummy screen and a fake clock."""

from __future__ import annotations

import json
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from device.cli import main
from device.draw.paint import SMALLEST
from device.referee.flow import State

from .browser import phone
from .conftest import ListReader
from .test_page import BOARD, join, page_box, post, press, wait_text
from .test_round import box_settings, build
from .test_screens_readable import readable, words


def state_of(url: str, code: str, token: str) -> dict:
    with urllib.request.urlopen(f"{url}state?code={code}&token={token}", timeout=10) as answer:
        return json.loads(answer.read())


def screen_text(made) -> str:
    shown = made.box.screen.shown
    return " ".join([shown.title, shown.message, *map(str, shown.lines)])


def test_a_challenged_word_is_refused_by_a_hold_and_stays_refused_until_forgotten(
    tmp_path, photos, factory, capsys
):
    made, clock, url = page_box(tmp_path, photos, factory)
    referee = made.referee
    code = referee.join_code
    ann = post(url, "join", {"code": code, "name": "Ann"})[1]["token"]
    ben = post(url, "join", {"code": code, "name": "Ben"})[1]["token"]
    press(factory, made, clock)
    assert referee.state is State.TIMING
    for word in ("hunt", "humane"):
        status, typed = post(url, "word", {"code": code, "token": ann, "word": word})
        assert status == 200 and typed["status"] == "valid"
    # Ben doubts HUNT: his phone is shown what the word list says and what it means.
    status, asked = post(url, "dispute", {"code": code, "token": ben, "word": "Hunt"})
    assert status == 200, asked
    assert asked["dispute"]["verdict"] == "HUNT counts: it is in the word list"
    assert asked["dispute"]["definition"].startswith("HUNT (noun): an association of huntsmen")
    assert asked["dispute"]["by"] == "Ben" and asked["dispute"]["ruling"] == ""
    # At 0:00 the round is not scored: the screen shows the word, its reason, its meaning.
    clock.advance(180)
    made.box.step()
    assert referee.state is State.DISPUTED
    shown = screen_text(made)
    assert "HUNT  challenged by Ben" in shown
    assert "HUNT counts: it is in the word list" in shown
    assert "HUNT (noun): an association of huntsmen" in shown
    assert "Tap: allow it. Hold: refuse it." in shown
    screen = made.box.screen
    drawn = readable(screen.surface, screen.layout)  # each text really on the picture
    assert min(text.size for text in drawn) >= SMALLEST
    assert "challenged by Ben" in words(drawn)
    screen.save(tmp_path / "disputed.png")
    phone = state_of(url, code, ann)
    assert phone["phase"] == "disputed" and phone["disputes"][0]["word"] == "hunt"
    ruling = {"code": code, "token": ann, "word": "hunt", "allow": True}
    status, refused = post(url, "rule", ruling)
    assert status == 409 and "Only the judge" in refused["error"]  # no judge is named
    # A hold refuses it (here it is no cancel), and the round is scored without it.
    factory.pin(17).drive_low()
    assert made.box.events.get(timeout=2) == "hold"
    made.referee.handle("hold")
    factory.pin(17).drive_high()
    assert referee.state is State.SCORED
    anns = {e.word: e for e in referee.round.result.players[0].entries}
    assert anns["hunt"].status == "not-a-word" and anns["hunt"].points == 0
    assert anns["hunt"].ruling.reason == "not a word: HUNT is refused by this table"
    assert referee.round.result.scores()["Ann"] == anns["humane"].points
    assert "HUNT  refused by this table" in screen_text(made)
    assert made.store.house("en").refused == {"hunt"}
    kinds = [e.kind for e in made.store.events(1)]
    assert kinds.index("word-disputed") < kinds.index("word-ruled") < kinds.index("scored")
    assert state_of(url, code, ann)["disputes"][0]["ruling"] == "refused"
    # The next round refuses it again, as the table's ruling.
    press(factory, made, clock)
    press(factory, made, clock)
    assert referee.state is State.TIMING and referee.round.number == 2
    status, typed = post(url, "word", {"code": code, "token": ann, "word": "hunt"})
    assert typed["status"] == "not-a-word"
    assert typed["why"] == "not a word: HUNT is refused by this table"
    clock.advance(180)
    made.box.step()
    assert referee.state is State.SCORED  # no word challenged this round
    made.close()
    # `cuberef lexicon house forget` undoes the ruling.
    config = tmp_path / "box.toml"
    config.write_text(f"[store]\nfolder = '{tmp_path / 'store'}'\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["lexicon", "house", "list", "--config", str(config)]) == 0
    assert "refused by this table (en): hunt" in capsys.readouterr().out
    assert main(["lexicon", "house", "forget", "hunt", "--config", str(config)]) == 0
    assert "it was refused by this table" in capsys.readouterr().out
    board = ["--game", "big-boggle", "--board", BOARD]
    assert main(["check", *board, "hunt", "--house", "--config", str(config), "--json"]) == 0
    (ruled,) = json.loads(capsys.readouterr().out)["results"]
    assert ruled["valid"] and not ruled["by_table"]


def test_the_judges_phone_allows_a_word_the_list_refuses(tmp_path, photos, factory):
    made, clock, url = page_box(tmp_path, photos, factory, judge="Cy")
    referee = made.referee
    code = referee.join_code
    ann = post(url, "join", {"code": code, "name": "Ann"})[1]["token"]
    cy = post(url, "join", {"code": code, "name": "Cy"})[1]["token"]
    press(factory, made, clock)
    status, typed = post(url, "word", {"code": code, "token": ann, "word": "spain"})
    assert typed["why"] == "not a word: SPAIN is a proper noun, which the rulebook does not allow"
    status, asked = post(url, "dispute", {"code": code, "token": ann, "word": "spain"})
    assert (
        asked["dispute"]["verdict"] == "SPAIN is a proper noun, which the rulebook does not allow"
    )
    assert asked["dispute"]["definition"] == "WordNet 3.0 has no definition of SPAIN."
    clock.advance(180)
    made.box.step()
    assert referee.state is State.DISPUTED
    assert "Or Cy, the judge, rules on their phone." in screen_text(made)
    wrong = [
        ({"token": ann, "word": "spain", "allow": True}, "Only the judge (Cy)"),
        ({"token": cy, "word": "hunt", "allow": True}, "The word on the screen is SPAIN"),
        ({"token": cy, "word": "spain", "allow": "yes"}, "true or false"),
    ]
    for body, sentence in wrong:
        status, answer = post(url, "rule", {"code": code, **body})
        assert status in (400, 409) and sentence in answer["error"], answer
    assert state_of(url, code, cy)["judge"] and not state_of(url, code, ann)["judge"]
    status, answer = post(url, "rule", {"code": code, "token": cy, "word": "Spain", "allow": True})
    assert status == 200 and answer["ok"]
    made.box.step()  # the box takes the judge's ruling on its own loop
    assert referee.state is State.SCORED
    (entry,) = referee.round.result.players[0].entries
    assert entry.status == "scored" and entry.ruling.reason == "allowed by this table"
    assert "SPAIN (allowed by this table)" in screen_text(made)
    assert made.store.house("en").allowed == {"spain"}
    ruled = [e.payload for e in made.store.events(1) if e.kind == "word-ruled"]
    assert [(r.word, r.allowed, r.by) for r in ruled] == [("spain", True, "Cy")]
    made.close()


def test_a_box_restarted_while_a_word_waits_asks_the_table_again(tmp_path, photos, factory):
    made, clock, url = page_box(tmp_path, photos, factory)
    code = made.referee.join_code
    ann = post(url, "join", {"code": code, "name": "Ann"})[1]["token"]
    press(factory, made, clock)
    post(url, "word", {"code": code, "token": ann, "word": "hunt"})
    post(url, "dispute", {"code": code, "token": ann, "word": "humane"})
    made.close()  # the power goes while the timer runs
    clock.advance(600)
    chosen = box_settings(tmp_path, photos, "big-boggle")
    chosen["page"].update(enabled=True, port=0)
    again, _, _ = build(tmp_path, photos, reader=ListReader([]), settings=chosen, clock=clock)
    referee = again.referee
    assert referee.state is State.DISPUTED and referee.disputes.pending.player == "Ann"
    again.box.draw()
    assert "HUMANE  challenged by Ann" in screen_text(again)
    clock.advance(1)
    referee.handle("tap")  # allowed
    assert referee.state is State.SCORED
    assert again.store.house("en").allowed == {"humane"}
    again.close()


def test_in_a_browser_a_phone_challenges_a_word_and_the_judges_phone_allows_it(
    tmp_path, photos, factory
):
    made, clock, url = page_box(tmp_path, photos, factory, judge="Cy")
    referee = made.referee
    with phone() as cy:
        join(cy, url, referee.join_code, "Cy")
        press(factory, made, clock)
        WebDriverWait(cy, 15).until(lambda d: d.find_element(By.ID, "challenged").is_displayed())
        cy.find_element(By.ID, "challenged").send_keys("spain", Keys.ENTER)
        wait_text(cy, "disputes", "SPAIN is a proper noun, which the rulebook does not allow")
        wait_text(cy, "error", "WordNet 3.0 has no definition of SPAIN.")  # the phone that asks
        clock.advance(180)
        made.box.step()
        assert referee.state is State.DISPUTED
        allow = "//article[contains(@class, 'pending')]/button[text()='Allow']"
        WebDriverWait(cy, 15).until(lambda d: d.find_elements(By.XPATH, allow))
        cy.find_element(By.XPATH, allow).click()
        WebDriverWait(cy, 15).until(lambda _: made.box.step() or referee.state is State.SCORED)
        wait_text(cy, "disputes", "allowed by this table")
    assert made.store.house("en").allowed == {"spain"}
    made.close()
