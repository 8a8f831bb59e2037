"""Screens a table can read, checked on the PNGs the box saves at 800x480: no text under
28 px (the render layer records every text it draws and its size, and each record is
matched against the saved picture), the Ad-Lib score screen adds up the crossword as the
rulebook does and draws the best crossword as cubes in one block, rolled cubes show their
letter values, and the screens say who rolls next, the standings and the winner."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygame
import pytest

from device.box.box import PAGE_SECONDS
from device.draw.paint import BACKGROUND, SMALLEST, Text, font
from device.draw.render import Layout
from device.referee.flow import State
from engine.adlib import letter_value

from .conftest import ListReader, loose_reading, tray_reading
from .test_round import box_settings, build, run_out_the_clock, tap

ROLL = "M O N E Y S T E B U J O Q"
GRID = ("S....", "T.B.J", "E.U.O", "MONEY")  # 31 points, the Q left unused


class Shots:
    """Every screen the box saves, with what the render layer recorded drawing on it."""

    def __init__(self) -> None:
        self.saved: list[tuple[Path, Layout]] = []

    def watch(self, made) -> None:
        def saved(path: Path) -> None:
            assert made.box.screen.layout is not None
            self.saved.append((path, made.box.screen.layout))

        made.box.on_screenshot = saved

    def last(self, state: str, nth: int = -1) -> tuple[pygame.Surface, Layout]:
        """The picture and record of the ``nth`` saved screen of ``state`` (the last)."""
        path, where = [s for s in self.saved if s[0].stem.endswith(state)][nth]
        return pygame.image.load(str(path)), where


def _inked(surface: pygame.Surface, text: Text, words: str) -> float:
    """The share of the pixels that ``words`` at ``text.size`` fully inks, drawn where
    ``text`` was, that the picture shows in the text's colour."""
    glyphs = font(text.size).render(words, True, text.colour)
    ink = pygame.surfarray.array_alpha(glyphs) == 255
    area = text.rect.clip(surface.get_rect())
    seen = pygame.surfarray.array3d(surface.subsurface(area)).astype(np.int32)
    w, h = min(ink.shape[0], seen.shape[0]), min(ink.shape[1], seen.shape[1])
    ink, seen = ink[:w, :h], seen[:w, :h]
    near = np.abs(seen - np.array(text.colour)).sum(axis=2) <= 30
    return float(near[ink].mean()) if ink.any() else 0.0


def shows(surface: pygame.Surface, text: Text) -> bool:
    """Whether the saved picture shows ``text`` at its recorded size where it was drawn:
    its glyphs are there in its colour, and not those of the text with a character changed."""
    exact = _inked(surface, text, text.text)
    changed = [
        text.text[:k] + ("X" if ch != "X" else "O") + text.text[k + 1 :]
        for k, ch in enumerate(text.text)
        if not ch.isspace()
    ]
    return exact > 0.97 and all(_inked(surface, text, other) < exact for other in changed[:6])


def readable(surface: pygame.Surface, where: Layout) -> list[Text]:
    """Every text the render layer drew, each checked against the picture; returns them."""
    assert where.texts, "nothing recorded"
    for text in where.texts:
        assert shows(surface, text), f"the PNG does not show {text.text!r} at {text.size} px"
    return list(where.texts)


def words(texts: list[Text]) -> list[str]:
    return [text.text for text in texts]


def test_every_screen_of_an_ad_lib_match_reads_across_a_table(tmp_path, photos):
    shots = Shots()
    reader = ListReader(
        [loose_reading("T"), loose_reading("E"), loose_reading(ROLL, doubtful=(5,))]
        + [loose_reading(ROLL)],
        [loose_reading(ROLL, grid=GRID), loose_reading(ROLL, grid=("MONEY",))],
    )
    chosen = box_settings(tmp_path, photos, "adlib")
    chosen.update(players=["Ann", "Ben"], rounds=1)
    made, clock, _ = build(
        tmp_path, photos, reader=reader, settings=chosen, screenshots=tmp_path / "shots"
    )
    shots.watch(made)
    made.box.draw()
    tap(made)  # Ann throws T = 2
    tap(made)  # Ben throws E = 1: Ann starts
    tap(made)  # Ann's roll
    clock.advance(30)
    made.box.step()
    run_out_the_clock(made, clock)
    tap(made)  # the crossword
    assert made.referee.state is State.SCORED
    clock.advance(PAGE_SECONDS)
    made.box.step()  # the score's second page: the best crossword
    tap(made)  # the table
    surface, where = shots.last("match")
    said = words(readable(surface, where))
    assert said[said.index("1. Ann") :][:4] == ["1. Ann", "31", "2. Ben", "0"]
    assert "Ben rolls next: press the button." in said and "Winner" not in " ".join(said)
    tap(made)  # Ben's roll
    run_out_the_clock(made, clock)
    tap(made)  # Ben's crossword: MONEY alone
    tap(made)
    turn = ["reading", "timing", "time-up", "scoring", "scored", "match"]
    starts = ["reading", "starter"] * 2
    assert [path.stem.split("-", 1)[1] for path, _ in shots.saved] == [
        "idle",
        *starts,
        *turn[:5],
        "scored",  # its second page
        "match",
        *turn,
    ]
    for path, where in shots.saved:  # nothing anywhere under 28 px, no word cut short
        texts = readable(pygame.image.load(str(path)), where)
        small = [(t.text, t.size) for t in texts if t.size < SMALLEST]
        assert not small, f"{path.name}: {small}"
        assert not [t.text for t in texts if "…" in t.text], path.name

    surface, where = shots.last("idle")
    assert "Who starts: Ann, roll one cube and press." in words(readable(surface, where))

    surface, where = shots.last("starter")
    said = words(readable(surface, where))
    assert said[said.index("Ann") :][:4] == ["Ann", "T = 2", "Ben", "E = 1"]
    assert "Ann starts: roll all the cubes and press." in said

    surface, where = shots.last("timing", 0)
    said = words(readable(surface, where))
    values = [t for t in where.texts if any(t.rect.colliderect(cell) for cell in where.cells)]
    faces = ROLL.split()
    for index, (face, cell) in enumerate(zip(faces, where.cells, strict=True)):
        on_tile = [t.text for t in values if cell.collidepoint(t.rect.center)]
        assert on_tile == [face, str(letter_value(face))], (index, on_tile)
    assert "Next: Ben" in said
    assert "Ad-Lib · round 1 of 1 · Ann" in said
    surface, where = shots.last("timing")
    said = words(readable(surface, where))
    assert "Ad-Lib · round 1 of 1 · Ben" in said and "Next: Ann" not in said

    surface, where = shots.last("scored", 0)
    said = words(readable(surface, where))
    verdict = made.referee.match.rounds[0].verdict
    across = sum(w.points for w in verdict.across)
    down = sum(w.points for w in verdict.down)
    for label, points in (("Across", across), ("Down", down), ("Total", f"{verdict.score} points")):
        at = said.index(label)
        assert said[at + 1] == str(points)
    for word in (*verdict.across, *verdict.down):
        assert said[said.index(word.text.upper()) + 1] == str(word.points)
    assert "Unused Q" in said and f"−{verdict.unused_points}" in said
    assert across + down - verdict.unused_points == verdict.score == 31
    assert "Ann's crossword: 31" in said
    _one_block(where, GRID)  # the player's own crossword, as it lies on the table
    best = made.referee.match.rounds[0].best
    surface, where = shots.last("scored", 1)
    said = words(readable(surface, where))
    assert f"Best crossword: {best.score}" in said
    assert said[said.index("Best crossword") + 1] == str(best.score)
    assert said[said.index("Ann's crossword") + 1] == "31"
    _one_block(where, tuple(best.rows))

    ben = made.referee.match.rounds[-1].verdict.score
    surface, where = shots.last("match")
    said = words(readable(surface, where))
    at = said.index("Winner: Ann")
    assert said[at + 1 : at + 5] == ["1. Ann", "31", "2. Ben", str(ben)] and ben < 31
    assert "Press the button for a new match." in " ".join(said)
    assert " ".join(said).count("Ann") == 2  # the winner once, and first in the standings
    assert "1 of 1 round played" in said
    made.close()


def _one_block(where: Layout, rows: tuple[str, ...]) -> None:
    """The tiles are the crossword's squares, on one even lattice, touching edge to edge."""
    width = max(len(row) for row in rows)
    squares = [ch for row in rows for ch in row.ljust(width, ".")]
    assert len(where.cells) == len(squares)
    step = (where.cells[width - 1].left - where.cells[0].left) / (width - 1)
    origin = where.cells[0].topleft
    for index, cell in enumerate(where.cells):
        r, c = divmod(index, width)
        assert cell.topleft == pytest.approx((origin[0] + c * step, origin[1] + r * step), abs=1)
    gap = round(step) - where.cells[0].width
    assert 0 < gap <= step * 0.1  # touching: a hairline between neighbours, as on the table
    letters = [t for t in where.texts if any(c.collidepoint(t.rect.center) for c in where.cells)]
    for index, square in enumerate(squares):
        on_tile = [t.text for t in letters if where.cells[index].collidepoint(t.rect.center)]
        assert on_tile == ([] if square == "." else [square.upper()]), (index, on_tile)


def test_a_boggle_round_with_a_keyboard_player_and_a_notice(tmp_path, photos):
    shots = Shots()
    chosen = box_settings(tmp_path, photos)
    chosen["players"] = ["Ann"]
    chosen["page"]["keyboard_player"] = "Ann"
    made, clock, _ = build(
        tmp_path,
        photos,
        reader=ListReader([tray_reading()]),
        settings=chosen,
        screenshots=tmp_path / "shots",
    )
    shots.watch(made)
    made.referee.say("page", "The players' page cannot open port 8080; set [page] port.")
    made.box.draw()
    tap(made)
    for word in ("dart", "zzz", "tnt"):
        made.referee.keyboard.letters(word)
        made.referee.keyboard.enter()
    made.box.screenshot("typed")
    run_out_the_clock(made, clock)
    assert made.referee.state is State.SCORED
    tap(made)
    for path, where in shots.saved:
        texts = readable(pygame.image.load(str(path)), where)
        assert min(t.size for t in texts) >= SMALLEST, path.name
        assert where.bottom.height and "cannot open port 8080" in " ".join(words(texts))
    surface, where = shots.last("scored")
    said = words(readable(surface, where))
    assert said[said.index("Ann") + 1] == "1"
    assert said[said.index("DART") + 1] == "1"
    assert said[said.index("ZZZ") + 1] == "not on tray"
    assert said[said.index("TNT") + 1] == "is an abbreviation"  # the engine's reason, short
    surface, where = shots.last("match")
    said = words(readable(surface, where))
    assert said[said.index("1. Ann") + 1] == "1"
    assert surface.get_at((1, 240))[:3] == BACKGROUND
    made.close()


def test_no_word_is_cut_short_beside_a_long_reason_or_in_a_narrow_column():
    """A word beside a reason too long for its row keeps its letters: the reason goes on
    a row of its own ("EST" over "refused by this table"), a long line wraps between its
    words, and a crossword's narrow columns keep "Across" whole beside its points."""
    from device.draw.lines import Line
    from device.draw.render import View, render

    pygame.display.init()
    surface = pygame.Surface((800, 480))
    tray = View(
        "Boggle · round 1 of 3",
        faces=tuple("TNTBGDARELTESISH"),
        size=4,
        message="Press the button for the match table.",
        lines=(
            Line("Ann", "3", "head"),
            Line("EST", "refused by this table"),
            Line("CEER (allowed by this table)", "2"),
        ),
    )
    said = words(readable(surface, render(tray, surface)))
    assert not any("…" in text for text in said), said
    assert said[said.index("EST") + 1] == "refused by this table"
    assert " ".join(said).count("CEER (allowed by this table) 2") == 1
    rows = tuple(row.ljust(5, ".") for row in ("S....", "T.B.J", "E.U.O", "MONEY"))
    crossword = View(
        "Ad-Lib · round 1 of 4 · Ann & Cy",
        faces=tuple("" if ch == "." else ch for row in rows for ch in row),
        size=5,
        caption="Ann & Cy's crossword: 27",
        table=(
            (Line("Across", "27", "head"), Line("MONEY", "11")),
            (Line("Down", "20", "head"), Line("STEM", "9"), Line("BUY", "5")),
        ),
        lines=(Line("Total", "27 points", "total"),),
    )
    where = render(crossword, surface)
    said = words(readable(surface, where))
    assert not any("…" in text for text in said), said
    assert said[said.index("Across") + 1] == "27"
    assert min(t.size for t in where.texts if t.text in said[-12:]) >= SMALLEST
