"""Taking a ruling back: until the next round's roll is read, the table may rule again on
a word of the last scored round (a Boggle round), and that round is scored again.

A ruling changes two ways: the judge's phone rules again on a word challenged in that
round (``device.referee.disputes``), or ``cuberef lexicon house`` changes the house list
in the store, which the box reads once a second while it runs and again when it starts.
Where the rulings on the round's words are no longer those it was scored with (its stored
``Scored`` keeps them), it is scored again: the screen and the phones show the new
result, the store keeps a second ``Scored`` of the round, and the match is added up again.
A round under way is ruled on again at once, since a changed ruling holds from then on.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from typing import Protocol

from device.config.sections import Settings
from device.referee.disputes import Disputes
from device.referee.lists import Desk
from device.referee.matchplay import BoxMatch, Round
from device.referee.record import Record
from device.referee.scoring import Scoring
from device.referee.standings import Evening, evening_or_none
from device.store.events import MatchEnded

log = logging.getLogger("cuberef.referee")

#: How often (seconds) the box reads the store's house list for rulings changed there.
HOUSE_READ_EVERY = 1.0


class Retaking(Protocol):
    """What of the referee a ruling taken back changes (``device.referee.referee``)."""

    settings: Settings
    record: Record
    scoring: Scoring
    disputes: Disputes
    match: BoxMatch | None
    #: The last round scored while its rulings may be taken back (None: none may).
    retakable: Round | None
    evening: Evening
    evening_since: float
    lock: threading.RLock
    on_change: Callable[..., None]

    @property
    def desk(self) -> Desk | None: ...
    def players_with_lists(self) -> list[str]: ...


class HouseReads:
    """When the store's house list was last read (a monotonic time)."""

    def __init__(self) -> None:
        self.last = -HOUSE_READ_EVERY

    def due(self, now: float) -> bool:
        if now - self.last < HOUSE_READ_EVERY:
            return False
        self.last = now
        return True


def take_back(referee: Retaking, reads: HouseReads, now: float) -> None:
    """The rulings taken back since the last tick: the judge's phone's, and the store's
    house list's (read when ``reads`` says it is due); then the last scored round is
    scored again where its words are ruled otherwise, and a round under way ruled anew."""
    disputes, changed = referee.disputes, False
    while not disputes.taken_back.empty():
        word, allowed, judge = disputes.taken_back.get()
        if referee.retakable is not None:
            disputes.retake(referee.retakable, word, allowed, judge)
            changed = True
    store = referee.record.store
    if store is not None and reads.due(now):
        changed |= disputes.adopt(store.house(disputes.language))
    if not changed:
        return
    rescore(referee)
    desk = referee.desk
    if desk is not None and desk.open:
        desk.rules = dataclasses.replace(desk.rules, house=disputes.house)
        desk.recheck()


def rescore(referee: Retaking) -> None:
    """Score the last scored round again if the table now rules otherwise on one of its
    words (a ruling taken back, or changed while the box was off): the screen, the
    phones, the store and the match's standings follow."""
    done, match = referee.retakable, referee.match
    if done is None or match is None or done.scored is None or done.scored.house is None:
        return  # none open, or scored by a box that kept no rulings with it
    players = referee.players_with_lists()
    scoring, record = referee.scoring, referee.record
    if done.desk is None:  # resumed at the match table: the lists as they were kept
        done.desk = scoring.desk(done, match)
    if scoring.rulings(done, players) == done.scored.house:
        return
    scored = scoring.tray(done, match, players)
    record.write(done.number, scored)
    with referee.lock:
        match.rescore(done, scored)
    if match.ended:
        record.write(0, MatchEnded(match.winners()))
        referee.evening = evening_or_none(record.source, referee.settings, referee.evening_since)
    log.info("round %d scored again: %s", done.number, dict(scored.scores))
    referee.on_change(referee)
