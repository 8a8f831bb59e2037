"""The director's scoreboard in headless chromium: every table live (clock, players,
scores, offline), the standings and pairings, and a table's last round with its words on
a click, each within a second of what the boxes sent."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from box.browser import phone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from club.tables import make_event, reporter, scored, until
from device.club.serve import serving


def text_of(driver: Any, css: str) -> str:
    """What an element shows, read in one step (the page draws its parts anew)."""
    script = "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';"
    return str(driver.execute_script(script, css))


def card_text(driver: Any, table: int) -> str:
    return text_of(driver, f'article[data-table="{table}"]')


def test_the_scoreboard_shows_every_table_live(tmp_path: Path) -> None:
    chosen = make_event(tmp_path, table_size=4)
    with serving(chosen, 0, "127.0.0.1") as running:
        boxes = [reporter(chosen, n, tmp_path / f"box{n}") for n in (1, 2)]
        for box in boxes:
            box.start()
        try:
            until(lambda: all(b.connected.is_set() for b in boxes))
            with phone() as driver:
                driver.get(f"http://127.0.0.1:{running.scoreboard.port}/")
                wait = WebDriverWait(driver, 5)
                wait.until(lambda d: d.find_element(By.ID, "pair").is_displayed())
                driver.find_element(By.ID, "pair").click()  # the director seats round 1
                wait.until(lambda d: "Round 1" in text_of(d, "#round"))
                seating = running.director.ledger.seatings()[-1]
                until(lambda: all(b.seat is not None for b in boxes))
                first, second = (list(t) for t in seating.tables)
                pairings = text_of(driver, "#pairings")
                assert f"Table 1: {', '.join(first)}" in pairings
                boxes[0].state({"phase": "playing", "clock": 125, "players": first,
                                "scores": dict.fromkeys(first, 0)})  # fmt: skip
                began = time.monotonic()
                wait.until(lambda d: "2:05" in card_text(d, 1))
                assert time.monotonic() - began < 1.0
                assert all(name in card_text(driver, 1) for name in first)
                boxes[1].result(
                    scored(4, 1, final=True, **dict(zip(second, [9, 7, 1, 0], strict=True)))
                )
                top = "#standings tbody tr:first-child"
                wait.until(lambda d: text_of(d, top).split()[1:2] == [second[0]])
                # place, name, won, played, points, spread
                assert text_of(driver, top).split() == [
                    "1", second[0], "1", "1", "9", "2",
                ]  # fmt: skip
                driver.find_element(By.ID, "pair").click()  # table 1 has not reported yet
                wait.until(lambda d: "no result from table 1 yet" in text_of(d, "#status"))
                driver.find_element(By.CSS_SELECTOR, 'article[data-table="2"]').click()
                wait.until(lambda d: d.find_element(By.ID, "last").is_displayed())
                assert "Table 2 · match 4, round 1" in text_of(driver, "#last")
                assert "dart" in text_of(driver, "#last-words")
                boxes[0].stop()  # a box gone: its table offline
                wait.until(lambda d: "offline" in card_text(d, 1))
        finally:
            for box in boxes:
                box.stop()
