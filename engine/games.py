"""The games cuberef referees, as data looked up by name.

>>> game = find_game("big-boggle")
>>> game.size, game.min_length, game.word_points(8), game.word_points(10)
(5, 4, 11, 11)
>>> find_game("super-big-boggle").word_points(10)
15
>>> sorted(GAMES)
['adlib', 'big-boggle', 'boggle', 'czech-boggle', 'scribbage', 'super-big-boggle']
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cubes import CubeSet, plainly_a_path
from engine.errors import NotationError

#: Points by word length for the Boggle family; the last entry holds for longer words.
CLASSIC_POINTS = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5, 8: 11}


@dataclass(frozen=True, slots=True)
class Game:
    """One game: its cubes, its tray, its dictionary and how words score."""

    id: str
    title: str
    #: Cube sets by the name ``--dice`` takes; the first is the default.
    dice: tuple[tuple[str, str], ...]
    #: Tray side (4, 5, 6), or 0 for the Ad-Lib games, which are played loose on the table.
    size: int
    min_length: int
    lexicon: str
    #: Extra points per letter past eight (Super Big Boggle's long-word bonus).
    long_word_bonus: int = 0
    #: Crossed-off words still count for nobody; in Czech Boggle only unique words score.
    timer_seconds: int = 180

    @property
    def is_tray(self) -> bool:
        return self.size > 0

    def cube_set(self, dice: str | CubeSet | None = None) -> CubeSet:
        """The game's cube set: the default, a named edition, a player's own file, or a
        set already loaded (from such a file)."""
        if isinstance(dice, CubeSet):
            return dice
        if dice is None:
            return CubeSet.load(self.dice[0][1])
        for name, set_name in self.dice:
            if dice == name:
                return CubeSet.load(set_name)
        if plainly_a_path(dice):
            return CubeSet.load(dice)
        names = ", ".join(name for name, _ in self.dice)
        raise NotationError(
            f"{self.title} has no dice called {dice!r}; choose {names}, "
            "or give the path of a .txt file with your own set's faces."
        )

    def word_points(self, length: int) -> int:
        """Points for a valid word of ``length`` letters (Qu counted as two)."""
        if length < min(CLASSIC_POINTS):
            return 0
        points = CLASSIC_POINTS[min(length, 8)]
        return points + self.long_word_bonus * max(0, length - 8)

    def points(self, word: str) -> int:
        """Points for a valid ``word``: by its length in the Boggle family, by its letters'
        values in the Ad-Lib games (the crossword's own scoring of a word).

        >>> find_game("boggle").points("money"), find_game("adlib").points("money")
        (2, 11)
        """
        if self.is_tray:
            return self.word_points(len(word))
        from engine.adlib.roll import word_value  # the Ad-Lib games only: a tray never loads it

        return word_value(word)


GAMES: dict[str, Game] = {
    game.id: game
    for game in (
        Game("boggle", "Boggle", (("new", "boggle-1987"), ("old", "boggle-1976")), 4, 3, "en"),
        Game(
            "big-boggle",
            "Big Boggle",
            (
                ("1979", "big-boggle-1979"),
                ("master", "boggle-master-1993"),
                ("2012", "big-boggle-2012"),
            ),
            5,
            4,
            "en",
        ),
        Game(
            "super-big-boggle",
            "Super Big Boggle",
            (("2011", "super-big-boggle-2011"),),
            6,
            4,
            "en",
            long_word_bonus=2,
        ),
        Game("czech-boggle", "Czech Boggle", (("cuberef", "czech-boggle"),), 4, 3, "cs"),
        Game("adlib", "Ad-Lib Crossword Cubes", (("adlib", "adlib"),), 0, 2, "en"),
        Game("scribbage", "Scribbage", (("adlib", "adlib"),), 0, 2, "en"),
    )
}


def find_game(name: str) -> Game:
    """Look a game up by its id (``boggle``, ``big-boggle``, ...)."""
    try:
        return GAMES[name.strip().lower()]
    except KeyError:
        raise NotationError(
            f"There is no game called {name!r}; choose one of {', '.join(GAMES)}."
        ) from None
