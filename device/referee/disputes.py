"""The words players challenge before a round is scored, and the table's rulings on them.

A phone challenges a word while the timer runs or once time is up; before the round is
scored the screen shows each challenged word with what the word list says of it and what
it means (``engine.referee.dispute``), and the table rules: the button (tap: allow, hold:
refuse) or the phone of the player named the judge. A ruling goes into the box's house
list (the store keeps it beside the match's events) and holds in every later round, where
the word shows as "allowed by this table" or "refused by this table".
"""

from __future__ import annotations

import queue
from dataclasses import dataclass

from device.base.strings import say
from device.config.house_rules import with_settings
from device.config.sections import Settings
from device.referee.flow import Event, State
from device.referee.matchplay import Round
from device.referee.record import Record
from device.seams.seams import lexicon_for
from device.store.events import WordDisputed, WordRuled
from engine.errors import RuleError
from engine.games import Game
from engine.house import HouseList
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

    def __init__(self, game: Game, settings: Settings, record: Record) -> None:
        self.game = game
        self.lexicon = lexicon_for(game, settings.lexicon)
        self.record = record
        #: Events for the box from the page's thread, which the referee handles next tick.
        self.asked: queue.SimpleQueue[Event] = queue.SimpleQueue()
        #: The player whose phone may rule instead of the button ("" for none).
        self.judge = settings.page.judge
        #: Who rules on the word on the screen next: the button, or the judge's phone.
        self.ruled_by = "button"
        self.language = self.lexicon.card.language
        store = record.source
        house = store.house(self.language) if store is not None else HouseList(self.language)
        self.house = with_settings(house, settings)
        #: The round's challenged words (``number``: that round's).
        self.challenges: list[Challenge] = []
        self.number = 0

    def of(self, done: Round | None) -> list[Challenge]:
        """The challenged words of round ``done`` (none of a new round yet)."""
        number = done.number if done is not None else 0
        if number != self.number:
            self.challenges, self.number = [], number
        return self.challenges

    def challenge(
        self, done: Round | None, state: State, player: str, text: str, replaying: bool = False
    ) -> Challenge:
        """``player`` challenges a word of round ``done``; what the table is shown.
        ``RuleError`` (a sentence for the phone) once the round is scored, for a word that
        is no word at all, or for too many challenges."""
        if done is None or state not in OPEN:
            raise RuleError(say("challenge-before-scoring"))
        self.of(done)
        word = normalize_word(text)
        known = next((c for c in self.challenges if c.word == word), None)
        if known is not None:
            return known
        if len(self.challenges) >= MOST_DISPUTES:
            raise RuleError(say("challenged-enough", most=MOST_DISPUTES))
        found = Challenge(player, dispute(word, self.game, self.lexicon, self.house))
        if not replaying:
            self.record.write(done.number, WordDisputed(player, word), must=True)
        self.challenges.append(found)
        if state is State.TIME_UP:
            self.asked.put(Event.DISPUTED)
        return found

    def replay(self, done: Round) -> None:
        """Take up the round's challenges and rulings as they stood before a restart."""
        self.of(done)
        for said in done.disputed:
            if isinstance(said, WordDisputed):
                self.challenge(done, State.TIMING, said.player, said.word, replaying=True)
            else:
                self.rule(done.number, said.allowed, said.by, replaying=True)
        done.disputed = []

    def judged(self, player: str, state: State, word: str, allowed: bool) -> None:
        """The judge's phone rules on ``word``, the one on the screen; ``RuleError`` says
        why not."""
        if not self.judge or player != self.judge:
            raise RuleError(say("judge-only", judge=self.judge or say("no-judge")))
        pending = self.pending
        if state is not State.DISPUTED or pending is None:
            raise RuleError(say("nothing-to-rule"))
        if normalize_word(word) != pending.word:
            raise RuleError(say("rule-on-screen", word=pending.word.upper()))
        self.ruled_by = player
        self.asked.put(Event.ALLOW if allowed else Event.REFUSE)

    def ruled(self, done: Round | None, allowed: bool) -> Event:
        """The table's ruling on the word on the screen, then the next word or the scoring."""
        assert done is not None
        by, self.ruled_by = self.ruled_by, "button"
        self.rule(done.number, allowed, by)
        return Event.DISPUTED if self.pending is not None else Event.RULED

    def waiting(self, done: Round) -> bool:
        """Whether a word of round ``done`` waits for the table's ruling."""
        return any(c.allowed is None for c in self.of(done))

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
