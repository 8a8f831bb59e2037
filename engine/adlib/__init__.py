"""Ad-Lib and Scribbage: rolls, crossword grids, the referee, match play, the best crossword.

>>> roll = Roll.parse("M O N E Y S T E B U J O Q", "adlib")
>>> grid = Grid.from_rows(["S....", "T.B.J", "E.U.O", "MONEY"])
>>> referee(roll, grid, Lexicon.open("en")).score
31
"""

from engine.adlib import native

native.use(__path__)  # the compiled search, where built, before its modules load

from engine.adlib.best import BestCrossword, best_crossword
from engine.adlib.grid import Grid, Run, Tile
from engine.adlib.match import Match, StartRoll
from engine.adlib.referee import STANDARD, YOUNG, Rules, Verdict, WordScore, referee
from engine.adlib.roll import Roll, letter_value
from engine.lexicon import Lexicon
from engine.match import MatchRules

__all__ = [
    "STANDARD",
    "BestCrossword",
    "Match",
    "MatchRules",
    "best_crossword",
    "YOUNG",
    "Grid",
    "Lexicon",
    "Roll",
    "Rules",
    "StartRoll",
    "Run",
    "Tile",
    "Verdict",
    "WordScore",
    "letter_value",
    "referee",
]
