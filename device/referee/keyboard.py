"""The player who types on the box's keyboard: the word being typed and how the last one
was taken (in the words the screens use for a ruling). Letters build a word, Enter hands
it in to the round's lists; what was typed but not handed in is dropped when the round
ends, so it never starts the next word.

>>> from device.referee.lists import Desk
>>> from engine.board import Board
>>> from engine.games import find_game
>>> from engine.lexicon import Lexicon
>>> from engine.round import RoundRules
>>> game = find_game("boggle")
>>> desk = Desk(Board.parse("SEET/ABEH/CDFG/IJKL"), game, Lexicon.open("en"), RoundRules(),
...             record=lambda payload: None)
>>> keys = Keyboard("Dee", lambda: desk)
>>> typed = keys.letters("tas"); keys.clear(); typed = keys.letters("seethe"); keys.enter()
>>> [typed.word for typed in desk.words("Dee")], keys.said, keys.entry
(['seethe'], 'SEETHE: ok', '')
"""

from __future__ import annotations

from collections.abc import Callable

from device.base.strings import say, translated
from device.base.wording import status_words
from device.referee.lists import LONGEST_WORD, Desk, Refused


class Keyboard:
    def __init__(self, player: str, desk: Callable[[], Desk | None], language: str = "en") -> None:
        self.player = player
        self.language = language
        #: The lists of the round under way, if one is.
        self.desk = desk
        self.entry = ""
        #: How the last word handed in was taken, in a few words for the screen.
        self.said = ""

    def letters(self, text: str) -> bool:
        """Type ``text``'s letters (anything else is not part of a word)."""
        letters = "".join(ch for ch in text if ch.isalpha())
        self.entry = (self.entry + letters)[:LONGEST_WORD]
        return bool(letters)

    def backspace(self) -> None:
        self.entry = self.entry[:-1]

    def enter(self) -> None:
        """Hand the word in to the round's lists (none while no round runs)."""
        desk, word, self.entry = self.desk(), self.entry, ""
        if not word or desk is None:
            return
        try:
            typed = desk.add(self.player, word)
        except Refused as refused:
            self.said = translated(str(refused), self.language)
        else:
            status = status_words(typed.ruling.status, self.language)
            self.said = say("typed", self.language, word=typed.word.upper(), status=status)

    def clear(self) -> None:
        """The round ended: what was typed and not handed in is gone, and so is what the
        screen said of the last word."""
        self.entry = self.said = ""
