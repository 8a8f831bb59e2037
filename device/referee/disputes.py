"""The words players challenge before a round is scored, and the table's rulings on them.

A phone challenges a word while the timer runs or once time is up; before the round is
scored the screen shows each challenged word with what the word list says of it and what
it means (``engine.referee.dispute``), and the table rules: the button (tap: allow, hold:
refuse) or the phone of the player named the judge. A ruling goes into the box's house
list (the store keeps it beside the match's events) and holds in every later round, where
the word shows as "allowed by this table" or "refused by this table".

A ruling may be taken back until the next round starts: the judge's phone rules again on a
word challenged in the last scored round, or ``cuberef lexicon house`` changes the house
list in the store; the referee then scores that round again (``taken_back``, ``adopt``).
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
        ruling = {True: "allowed", False: "refused", None: "forgotten" if self.by else ""}[
            self.allowed
        ]
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
        #: Rulings the judge's phone took back after the scoring: (word, allowed, judge).
        self.taken_back: queue.SimpleQueue[tuple[str, bool, str]] = queue.SimpleQueue()
        self.settings = settings
        #: The player whose phone may rule instead of the button ("" for none).
        self.judge = settings.page.judge
        #: Who rules on the word on the screen next: the button, or the judge's phone.
        self.ruled_by = "button"
        self.language = self.lexicon.card.language
        store = record.source
        house = store.house(self.language) if store is not None else HouseList(self.language)
        self.house = with_settings(house, settings)
        #: The challenged words of round ``shown`` (a round of this match or the last).
        self.challenges: list[Challenge] = []
        self.shown: Round | None = None

    def of(self, done: Round | None) -> list[Challenge]:
        """The challenged words of round ``done`` (none of a new round yet)."""
        if done is not self.shown:
            self.challenges, self.shown = [], done
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
        self._ruled_now(self.house, "house list")  # a ruling changed since, in the store

    def judged(
        self, player: str, state: State, word: str, allowed: bool, scored: Round | None = None
    ) -> None:
        """The judge's phone rules on ``word``, the one on the screen, or after the scoring
        rules again on a word challenged in ``scored`` (the last scored round, until the
        next starts); ``RuleError`` says why not."""
        if not self.judge or player != self.judge:
            raise RuleError(say("judge-only", judge=self.judge or say("no-judge")))
        if state not in OPEN and scored is not None:
            word = normalize_word(word)
            if all(c.word != word or c.by == "" for c in self.of(scored)):
                raise RuleError(say("not-challenged", word=word.upper()))
            self.taken_back.put((word, allowed, player))
            return
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
        return any(c.allowed is None and not c.by for c in self.of(done))

    @property
    def pending(self) -> Challenge | None:
        """The first challenged word the table has not ruled on."""
        return next((c for c in self.challenges if c.allowed is None and not c.by), None)

    def retake(self, done: Round, word: str, allowed: bool, by: str) -> None:
        """The judge takes back the ruling on ``word``, challenged in round ``done``: the
        new one is kept like any ruling (the referee scores the round again)."""
        self.of(done)
        self.record.write(done.number, WordRuled(word, allowed, by))
        self.record.rule_word(self.language, word, allowed)
        self._ruled_now(self.house.allow(word) if allowed else self.house.refuse(word), by)

    def adopt(self, house: HouseList, by: str = "house list") -> bool:
        """The house list as the store now holds it (``cuberef lexicon house`` changed it
        while the box runs); whether a ruling changed."""
        house = with_settings(house, self.settings)
        if (house.allowed, house.refused) == (self.house.allowed, self.house.refused):
            return False
        self._ruled_now(house, by)
        return True

    def _ruled_now(self, house: HouseList, by: str) -> None:
        """The house list changed: the challenges of the round shown say what it rules."""
        self.house = house
        for index, challenge in enumerate(self.challenges):
            ruling = house.ruling(challenge.word)
            if challenge.by and ruling != challenge.allowed:
                self.challenges[index] = Challenge(challenge.player, challenge.dispute, ruling, by)

    def rule(self, round_: int, allowed: bool, by: str = "button", replaying: bool = False) -> None:
        """The table's ruling on the pending word: kept in the round's events and in the
        house list, so it holds from now on."""
        pending = self.pending
        if pending is None:
            return
        index = self.challenges.index(pending)
        self.challenges[index] = Challenge(pending.player, pending.dispute, allowed, by)
        if replaying:  # the house list the store keeps has it (or a ruling made since)
            return
        self.house = self.house.allow(pending.word) if allowed else self.house.refuse(pending.word)
        self.record.write(round_, WordRuled(pending.word, allowed, by))
        self.record.rule_word(self.language, pending.word, allowed)
