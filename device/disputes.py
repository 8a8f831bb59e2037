"""The words players challenge before a round is scored, and the table's rulings on them.

A phone challenges a word while the timer runs or once time is up; before the round is
scored the screen shows each challenged word with what the word list says of it and what
it means (``engine.referee.dispute``), and the table rules: the button (tap: allow, hold:
refuse) or the phone of the player named the judge. A ruling goes into the box's house
list (the store keeps it beside the match's events) and holds in every later round, where
the word shows as "allowed by this table" or "refused by this table".
"""

from __future__ import annotations

from dataclasses import dataclass

from device.events import WordDisputed, WordRuled
from device.flow import State
from device.matchplay import Round
from device.record import Record
from engine.errors import RuleError
from engine.games import Game
from engine.house import HouseList
from engine.lexicon import Lexicon
from engine.referee import Dispute, dispute, normalize_word

#: At most this many words challenged in one round: a table argues about a few.
MOST_DISPUTES = 20
#: The states in which a word may be challenged: the round is not scored yet.
OPEN = (State.TIMING, State.TIME_UP, State.DISPUTED)


@dataclass(frozen=True, slots=True)
class Challenge:
    """One challenged word: who challenged it, what the table is shown, and the ruling
    (None until the table rules)."""

    player: str
    dispute: Dispute
    allowed: bool | None = None
    by: str = ""

    @property
    def word(self) -> str:
        return self.dispute.word

    def to_json(self) -> dict[str, object]:
        ruling = {True: "allowed", False: "refused", None: ""}[self.allowed]
        return {
            "word": self.word,
            "by": self.player,
            "verdict": self.dispute.verdict,
            "definition": self.dispute.definition,
            "ruling": ruling,
            "ruled_by": self.by,
        }


class Disputes:
    """The round's challenged words, in the order they came, and the house list."""

    def __init__(self, game: Game, lexicon: Lexicon, record: Record, judge: str = "") -> None:
        self.game = game
        self.lexicon = lexicon
        self.record = record
        #: The player whose phone may rule instead of the button ("" for none).
        self.judge = judge
        self.language = lexicon.card.language
        store = record.source
        self.house = store.house(self.language) if store is not None else HouseList(self.language)
        self.challenges: list[Challenge] = []

    def clear(self) -> None:
        """A new round: no word challenged yet."""
        self.challenges = []

    def challenge(
        self, done: Round | None, state: State, player: str, text: str, replaying: bool = False
    ) -> Challenge:
        """``player`` challenges a word of round ``done``; what the table is shown.
        ``RuleError`` (a sentence for the phone) once the round is scored, for a word that
        is no word at all, or for too many challenges."""
        if done is None or state not in OPEN:
            raise RuleError("A word can be challenged only before the round is scored.")
        word = normalize_word(text)
        known = next((c for c in self.challenges if c.word == word), None)
        if known is not None:
            return known
        if len(self.challenges) >= MOST_DISPUTES:
            raise RuleError(f"{MOST_DISPUTES} words are challenged already; rule on those first.")
        found = Challenge(player, dispute(word, self.game, self.lexicon, self.house))
        if not replaying:
            self.record.write(done.number, WordDisputed(player, word), must=True)
        self.challenges.append(found)
        return found

    def replay(self, done: Round) -> None:
        """Take up the round's challenges and rulings as they stood before a restart."""
        self.clear()
        for said in done.disputed:
            if isinstance(said, WordDisputed):
                self.challenge(done, State.TIMING, said.player, said.word, replaying=True)
            else:
                self.rule(done.number, said.allowed, said.by, replaying=True)
        done.disputed = []

    def may_rule(self, player: str, state: State) -> None:
        """Whether ``player``'s phone may rule now; ``RuleError`` says why not."""
        if not self.judge or player != self.judge:
            raise RuleError(f"Only the judge ({self.judge or 'none is named'}) rules on a phone.")
        if state is not State.DISPUTED:
            raise RuleError("No challenged word is waiting for a ruling.")

    @property
    def pending(self) -> Challenge | None:
        """The first challenged word the table has not ruled on."""
        return next((c for c in self.challenges if c.allowed is None), None)

    def rule(self, round_: int, allowed: bool, by: str = "button", replaying: bool = False) -> None:
        """The table's ruling on the pending word: kept in the round's events and in the
        house list, so it holds from now on."""
        pending = self.pending
        if pending is None:
            return
        index = self.challenges.index(pending)
        self.challenges[index] = Challenge(pending.player, pending.dispute, allowed, by)
        self.house = self.house.allow(pending.word) if allowed else self.house.refuse(pending.word)
        if replaying:
            return
        self.record.write(round_, WordRuled(pending.word, allowed, by))
        self.record.rule_word(self.language, pending.word, allowed)
