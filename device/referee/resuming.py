"""A restarted box picks the stored match up where it stopped (after a restart or a power
cut): the table as it sat, and the state the stored events say, by a ``resume-*`` event."""

from __future__ import annotations

import logging
from typing import Protocol

from device.base.wording import resumed
from device.config.sections import Settings
from device.referee.disputes import Disputes
from device.referee.flow import Event, Machine, State
from device.referee.matchplay import BoxMatch, Round
from device.referee.record import Record
from device.referee.replaying import last_scored, replay, stopped_at
from device.referee.retake import Retaking, rescore
from device.referee.scoring import Scoring
from device.referee.table import Table
from device.store.events import Event as StoredEvent
from engine.games import Game

log = logging.getLogger("cuberef.referee")


class Resumable(Retaking, Protocol):
    """What of the referee a restart puts back (``device.referee.referee.Referee``)."""

    game: Game
    settings: Settings
    record: Record
    table: Table
    scoring: Scoring
    disputes: Disputes
    machine: Machine
    match: BoxMatch | None
    round: Round | None
    retakable: Round | None
    evening_since: float
    message: str
    language: str

    @property
    def state(self) -> State: ...
    def say(self, source: str, sentence: str) -> None: ...
    def handle(self, event: Event | str) -> None: ...
    def prompt(self) -> str: ...
    def players_with_lists(self) -> list[str]: ...


def resume_match(referee: Resumable) -> None:
    """Put ``referee`` back in the stored match, in the state its events say."""
    _number, events = referee.record.latest()
    refused: list[tuple[StoredEvent, str]] = []
    replayed = replay(events, referee.game, refused)
    for event, reason in refused:  # read back whole, but not to be replayed
        referee.record.set_aside(event, reason)
    events = [event for event in events if all(event is not bad for bad, _ in refused)]
    if skipped := referee.record.skipped():
        referee.say("skipped", skipped)
    referee.table.sit(replayed.seats, replayed.code if referee.settings.page.enabled else "")
    referee.match = replayed.match
    if referee.match is not None and events:
        referee.evening_since = min(referee.evening_since, events[0].at)
    resume, referee.round = stopped_at(replayed, events)
    referee.retakable = last_scored(replayed.match, events)
    if referee.retakable is not None:
        referee.disputes.replay(referee.retakable)  # its rulings, for the judge to take back
    if referee.match is not None and referee.round is not None:
        if resume is Event.RESUME_SCORED:
            referee.scoring.work_out(referee.round, referee.match, referee.players_with_lists())
        elif referee.game.is_tray:
            referee.disputes.replay(referee.round)
            referee.round.desk = referee.scoring.desk(referee.round, referee.match)
    if resume is not None:
        referee.handle(resume)
    rescore(referee)  # a ruling on its words changed while the box was off
    referee.machine.settle()  # a restarted box takes its first press at once
    if referee.match is not None:
        ended, said = referee.match.ended, referee.message
        referee.message = resumed(resume, ended, said, referee.prompt(), referee.language)
        log.info("resumed match %d in %s", referee.match.number, referee.state)
