"""The players' word lists of a Boggle round, as they are typed on phones or the keyboard.

A ``Desk`` is open while the timer runs: each word is checked the moment it is typed
(on the board? long enough? a word?) by the engine's referee and written to the store
before the typist is told it is kept, so a power cut loses no word anyone saw accepted.
At 0:00 the desk is locked and its lists go to the round's referee. The page's thread
and the box's loop both use a desk, so every change happens under its lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from device.base.strings import say
from device.store.events import Payload, WordRemoved, WordTyped
from engine.board import Board, Cell
from engine.errors import CuberefError
from engine.games import Game
from engine.lexicon import Lexicon
from engine.referee import Ruling, check, normalize_word
from engine.round import RoundRules

#: No word on any tray is longer (a 6x6 tray holds 36 cubes, some of two letters).
LONGEST_WORD = 48
#: Words one player may hand in for a round: far more than anyone finds in 3 minutes.
MOST_WORDS = 400


class Refused(CuberefError):
    """A word the desk will not take (the round is over, not letters, too many)."""


@dataclass(frozen=True, slots=True)
class Typed:
    """A word on a player's list and the referee's first look at it."""

    word: str
    ruling: Ruling


class Desk:
    """One round's lists, by player; ``record`` stores each change and returns once saved."""

    def __init__(
        self,
        board: Board,
        game: Game,
        lexicon: Lexicon,
        rules: RoundRules,
        record: Callable[[Payload], None],
        teams: Callable[[], dict[str, str]] = dict,
    ) -> None:
        self.board = board
        self.game = game
        self.lexicon = lexicon
        self.rules = rules
        self.record = record
        self.teams = teams  # player -> team, for a team's handicap
        self.challenge: Cell | None = rules.challenge
        self.open = True
        self._lists: dict[str, list[Typed]] = {}
        self._lock = threading.RLock()

    def check(self, player: str, word: str) -> Ruling:
        shortest = self.rules.shortest(self.game, player, self.teams().get(player, ""))
        return check(
            word, self.board, self.game, self.lexicon, shortest, self.challenge, self.rules.house
        )

    def add(self, player: str, text: str, *, replaying: bool = False) -> Typed:
        """Put ``text`` on ``player``'s list; the ruling says whether it will count."""
        if len(text) > LONGEST_WORD:
            raise Refused(say("longer-than-any", longest=LONGEST_WORD))
        try:
            word = normalize_word(text)
        except CuberefError as error:
            raise Refused(str(error)) from None
        with self._lock:
            if not self.open and not replaying:
                raise Refused(say("lists-locked"))
            words = self._lists.setdefault(player, [])
            same = next((typed for typed in words if typed.word == word), None)
            if same is not None:
                return same  # written twice counts once: keep the first
            if len(words) >= MOST_WORDS:
                raise Refused(say("list-full", most=MOST_WORDS))
            typed = Typed(word, self.check(player, word))
            if not replaying:
                self.record(WordTyped(player, word))
            words.append(typed)
            return typed

    def remove(self, player: str, text: str, *, replaying: bool = False) -> bool:
        word = text.strip().lower()
        with self._lock:
            if not self.open and not replaying:
                raise Refused(say("lists-locked"))
            words = self._lists.get(player, [])
            kept = [typed for typed in words if typed.word != word]
            if len(kept) == len(words):
                return False
            if not replaying:
                self.record(WordRemoved(player, word))
            self._lists[player] = kept
            return True

    def lock(self) -> None:
        with self._lock:
            self.open = False

    def recheck(self) -> None:
        """Rule again on every word (a face was corrected, the challenge cube marked)."""
        with self._lock:
            for player, words in self._lists.items():
                self._lists[player] = [Typed(t.word, self.check(player, t.word)) for t in words]

    def words(self, player: str) -> tuple[Typed, ...]:
        with self._lock:
            return tuple(self._lists.get(player, ()))

    def lists(self, players: list[str]) -> list[tuple[str, list[str]]]:
        """Every player's words in the order typed, for the round's referee."""
        with self._lock:
            return [(name, [t.word for t in self._lists.get(name, [])]) for name in players]
