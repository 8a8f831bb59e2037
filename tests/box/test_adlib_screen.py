"""Ad-Lib's score screen: the player's own crossword drawn as it lies, beside its count; the
best crossword on a page of its own, named the same way whether the search proved it or
not; and a joker's star large enough to see across the table."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from device.draw.paint import JOKER_INK
from device.draw.render import View
from device.draw.tiles import draw_tile
from device.referee.matchplay import Round
from device.screens.views import crossword_screens
from engine.adlib import Grid, Lexicon, Roll, referee
from engine.adlib.best import BestCrossword

ROLL = Roll.parse("M O N E Y S T E B U J O Q")
GRID = ("S....", "T.B.J", "E.U.O", "MONEY")


def scored_round(proven: bool, best: tuple[str, ...] = ("JOB.", "...", "MONEYS")) -> Round:
    done = Round(1, None, player="Ann")
    done.grid = GRID
    done.verdict = referee(ROLL, Grid.from_rows(GRID), Lexicon.open("en"))
    done.best = BestCrossword(ROLL, Grid.from_rows(best), 40, 44, proven, 5.0, 1000)
    return done


@pytest.mark.parametrize("proven", [True, False])
def test_the_players_crossword_first_then_the_best_named_alike(proven):
    own, best = crossword_screens(View(title="Ad-Lib · round 1 of 2 · Ann"), scored_round(proven))
    assert own.caption == "Ann's crossword: 31"
    laid = [ch for row in GRID for ch in row.ljust(5)]
    assert list(own.faces) == ["" if ch == "." else ch for ch in laid] and own.size == 5
    assert [str(line) for line in own.table[0]][0] == "Across  11"  # MONEY, and its sum
    assert best.caption == "Best crossword: 40"  # never "found" here and "possible" there
    said = " ".join(str(line) for line in best.lines)
    assert "Best crossword  40" in said and "Ann's crossword  31" in said
    assert ("proved" in said) is proven


def test_a_jokers_star_is_half_its_cube():
    pygame.init()
    surface = pygame.Surface((120, 120))
    surface.fill((0, 0, 0))
    cell = pygame.Rect(10, 10, 100, 100)
    draw_tile(surface, cell, "e", False)  # a joker standing for E
    pixels = pygame.surfarray.array3d(surface).astype(int)
    blue = (np.abs(pixels - np.array(JOKER_INK)).sum(axis=2) < 40).T  # rows, columns
    corner = blue[60:110, 60:110]  # the cube's lower right quarter: the star
    rows, columns = np.nonzero(corner)
    assert rows.size and columns.max() - columns.min() >= 38 and rows.max() - rows.min() >= 36
