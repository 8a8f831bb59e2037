"""Every player on every screen, at 800x480 with no text under 28 px, checked on the PNGs the
box saves: a scored screen too long for the screen turns its pages by itself, the first
of them every player's name and round score, then each player's words, with 2, 7 and 12
players; the timing screen keeps the keyboard's player's typing in sight; the match
table names every side on one page, beside the QR code. Nothing is ever cut off with
"... and N more", and no word is cut short with "…"."""

from __future__ import annotations

import re

import pygame
import pytest

from device.box.box import PAGE_SECONDS
from device.page.phones import Phones
from device.referee.flow import State
from device.seams.seams import Scorer
from engine.board import Board
from engine.games import find_game

from .conftest import BOARD, ListReader, tray_reading
from .test_round import box_settings, build, run_out_the_clock, tap
from .test_screens_readable import Shots, readable, words

NAMES = ["Ann", "Ben", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]


def table_of(tmp_path, photos, players: int):
    """A box with ``players`` at the table: the last on the keyboard, the others on
    phones; each hands in words of the board (all different) and one they share."""
    chosen = box_settings(tmp_path, photos)
    chosen["page"].update(enabled=True, port=0, keyboard_player=NAMES[players - 1])
    chosen["handicap"] = ["Ann"]
    chosen["rounds"] = 1
    made, clock, _ = build(
        tmp_path,
        photos,
        reader=ListReader([tray_reading()]),
        settings=chosen,
        screenshots=tmp_path / "shots",
    )
    shots = Shots()
    shots.watch(made)
    phones = Phones(made.referee)
    for name in NAMES[: players - 1]:
        phones.join(name, "", "")
    return made, clock, shots


def typed_words(players: int) -> dict[str, list[str]]:
    found = Scorer().solve(Board.parse(BOARD), find_game("boggle"))
    ranked = [w.word for w in sorted(found, key=lambda w: (-len(w.word), w.word))]
    return {
        name: ["dart", *ranked[1 + 4 * k : 5 + 4 * k]] for k, name in enumerate(NAMES[:players])
    }


def every_page(made, clock, shots, state: str) -> list[list[str]]:
    """The texts of every page of the screen shown now, each read off its saved PNG (the
    pages turn by themselves: the clock moves on a page's time and the next is saved)."""
    seen: list[list[str]] = []
    pages = 1
    number = 0
    while number < pages:
        surface, where = shots.last(state)
        texts = readable(surface, where)
        assert min(t.size for t in texts) >= 28
        assert not any(t.text.startswith("... and") for t in texts)
        assert not any("…" in t.text for t in texts), words(texts)  # no word cut short
        seen.append(words(texts))
        marks = re.findall(r"Page (\d+) of (\d+)\.", " ".join(words(texts)))
        if marks:
            assert int(marks[0][0]) == number + 1
            pages = int(marks[0][1])
        number += 1
        if number < pages:
            clock.advance(PAGE_SECONDS)
            made.box.step()
    return seen


@pytest.mark.parametrize("players", [2, 7, 12])
def test_every_player_is_on_the_scored_screen_or_its_pages(tmp_path, photos, players):
    made, clock, shots = table_of(tmp_path, photos, players)
    tap(made)
    assert made.referee.state is State.TIMING
    lists = typed_words(players)
    keyboard = NAMES[players - 1]
    for name, listed in lists.items():
        for word in listed:
            if name == keyboard:
                made.box.type_text(word, enter=True)
            else:
                made.referee.desk.add(name, word)
    made.box.type_text("tas", enter=False)  # the keyboard's player, still typing
    made.box.screenshot("typing")
    surface, where = shots.last("typing")
    texts = words(readable(surface, where))
    assert f"{keyboard}: TAS_" in texts  # always in sight, whoever else plays
    shown = " ".join(texts)
    assert all(f"{name} 5" in shown for name in NAMES[: min(players, 4)])
    run_out_the_clock(made, clock)
    assert made.referee.state is State.SCORED
    pages = every_page(made, clock, shots, "scored")
    assert len(pages) <= 1 + (players + 1) // 2  # a page of scores, then two players a page
    result = made.referee.round.result
    names = [f"{p.name} (handicap)" if p.name == "Ann" else p.name for p in result.players]
    first = pages[0]  # every player's name and round score, on one page
    for name, player in zip(names, result.players, strict=True):
        assert name in first, (name, first)
        assert first[first.index(name) + 1] == str(player.score)
    seen = [text for page in pages for text in page]
    for player in result.players:
        for entry in player.entries:
            assert entry.word.upper() in seen
    tap(made)
    assert made.referee.state is State.MATCH
    pages = every_page(made, clock, shots, "match")
    assert len(pages) == 1  # the whole match table, beside the QR code
    table = " ".join(pages[0])  # a name too long for its column goes on over two rows
    for name, score in made.referee.match.standings():
        shown = name + (" (handicap)" if name == "Ann" else "")
        assert re.search(rf"\b\d+\. {re.escape(shown)} {score}\b", table), (shown, table)
    assert made.box.screen.shown.qr
    made.close()
    pygame.display.quit()
