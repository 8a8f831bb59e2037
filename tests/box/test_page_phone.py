"""The players' page as a phone shows it, in a real headless browser: in the box's
language (Czech for Czech Boggle), its server's refusals too, the word box only while a
round runs and last round's refusal gone when the next starts, each ruling in words with
the spelling that counted and why a word is refused, in Czech, the phone's own results
first and marked, and a notice within 3 s of the box stopping."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from device.referee.flow import State

from .browser import phone
from .conftest import ListReader, tray_reading
from .test_language import BOARD, unaccented_word
from .test_round import box_settings, build, run_out_the_clock, tap

ROW = (
    "return [...document.querySelectorAll('#words li')].map(li => [li.querySelector('.word')"
    ".textContent, li.querySelector('.ruling').textContent, (li.querySelector('.counted') ||"
    " {}).textContent || ''])"
)
WHY = "return [...document.querySelectorAll('#words li .why')].map(span => span.textContent)"


def test_a_czech_phone_through_a_round_and_the_box_going_away(tmp_path, photos):
    chosen = box_settings(tmp_path, photos, "czech-boggle")
    chosen["page"].update(enabled=True, port=0, keyboard_player="Cy")
    chosen["rounds"] = 1
    reader = ListReader([tray_reading(BOARD, game="czech-boggle")])
    made, clock, _ = build(tmp_path, photos, reader=reader, settings=chosen)
    url = f"http://127.0.0.1:{made.page.port}/?code={made.referee.join_code}"
    typed, counted = unaccented_word()
    with phone() as ann:
        ann.get(url)
        wait = WebDriverWait(ann, 10)
        wait.until(lambda d: d.find_element(By.ID, "join-button").text == "Připojit")
        assert ann.execute_script("return document.documentElement.lang") == "cs"
        ann.find_element(By.ID, "name").send_keys("Ann")
        ann.find_element(By.ID, "join-button").click()
        wait.until(lambda d: d.find_element(By.ID, "phase").text == "Čeká se na další kolo.")
        assert not ann.find_element(By.ID, "type").is_displayed()  # no round: no word box
        ann.execute_script("send('kolo')")  # as a word sent before the round began
        wait.until(lambda d: "Žádné kolo neběží" in d.find_element(By.ID, "error").text)
        tap(made)
        assert made.referee.state is State.TIMING
        wait.until(lambda d: d.find_element(By.ID, "type").is_displayed())
        wait.until(lambda d: d.find_element(By.ID, "error").text == "")  # gone with the round
        field = ann.find_element(By.ID, "word")
        for word in (typed, "pivo", "xyz"):
            field.send_keys(word, Keys.ENTER)
            wait.until(lambda d, w=word: w in [row[0] for row in d.execute_script(ROW)])
        made.box.type_text("pivo", enter=True)  # Cy, on the keyboard, crosses PIVO off
        rows = {word: (ruling, also) for word, ruling, also in ann.execute_script(ROW)}
        assert rows[typed] == ("platí", f"počítá se jako {counted}")
        assert rows["xyz"][0] == "není na kostkách"  # as the box says "not on tray"
        why = ann.execute_script(WHY)
        assert why == ["není na kostkách: žádná kostka neukazuje X"], why  # not "" nor English
        assert not any("-" in ruling for ruling, _ in rows.values())  # words, never codes
        run_out_the_clock(made, clock)
        assert made.referee.state is State.SCORED
        assert [p.name for p in made.referee.round.result.players] == ["Cy", "Ann"]
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results .player"))
        parts = ann.find_elements(By.CSS_SELECTOR, "#results .player")
        assert parts[0].get_attribute("class") == "player yours"  # hers first, and marked
        assert parts[0].find_element(By.TAG_NAME, "h2").text.endswith("(ty)")
        assert "škrtnuto" in parts[0].text  # PIVO, which Cy wrote too
        made.close()  # the box goes away
        WebDriverWait(ann, 3).until(lambda d: d.find_element(By.ID, "offline").is_displayed())
        assert "Krabička neodpovídá" in ann.find_element(By.ID, "offline").text


def test_a_word_typed_while_the_last_is_on_its_way_is_kept_whole(tmp_path, photos):
    """On a slow network a player types the next word before the box has answered the last:
    the box takes both, as typed (the answer does not wipe the next word's letters, nor
    glue them to the last's); a word the box does not take comes back to be put right."""
    chosen = box_settings(tmp_path, photos)
    chosen["page"].update(enabled=True, port=0)
    chosen["rounds"] = 1
    made, _clock, _ = build(tmp_path, photos, reader=ListReader([tray_reading()]), settings=chosen)
    url = f"http://127.0.0.1:{made.page.port}/?code={made.referee.join_code}"
    with phone() as ann:
        ann.get(url)
        wait = WebDriverWait(ann, 10)
        wait.until(lambda d: d.find_element(By.ID, "join-button").is_displayed())
        ann.find_element(By.ID, "name").send_keys("Ann")
        ann.find_element(By.ID, "join-button").click()
        tap(made)
        assert made.referee.state is State.TIMING
        wait.until(lambda d: d.find_element(By.ID, "type").is_displayed())
        field = ann.find_element(By.ID, "word")
        desk = made.referee.desk
        with desk._lock:  # the box is slow to answer: each word waits for it
            field.send_keys("dart", Keys.ENTER)
            field.send_keys("tale", Keys.ENTER)
        wait.until(lambda d: len(d.execute_script(ROW)) == 2)
        shown = sorted(row[0] for row in ann.execute_script(ROW))  # in the order they came
        assert shown == sorted(t.word for t in desk.words("Ann")) == ["dart", "tale"]
        field.send_keys("d4rt", Keys.ENTER)  # not taken: back in the box to be put right
        wait.until(lambda d: d.find_element(By.ID, "error").text)
        assert field.get_attribute("value") == "d4rt"
    made.close()
