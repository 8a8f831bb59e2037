"""A match replayed from its stored events, as a restarted box and the history replay it:
its sides, its scored rounds, and where it stopped."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from device.referee import flow
from device.referee.matchplay import BoxMatch, Round
from device.referee.table import renamed
from device.seams.readings import corrected
from device.store.events import (
    ChallengeMarked,
    Event,
    FaceCorrected,
    MatchEnded,
    MatchStarted,
    PlayerJoined,
    PlayerLeft,
    PlayerRenamed,
    RollRead,
    RoundCancelled,
    RoundEnded,
    RoundStarted,
    Scored,
    StarterRolled,
    TableOpened,
    WordDisputed,
    WordRemoved,
    WordRuled,
    WordTyped,
)
from engine.games import Game

log = logging.getLogger("cuberef.match")


@dataclass
class Replayed:
    """What a match's stored events leave: the match (None before the first), the round
    under way if any, and who sits at the table with which join code."""

    match: BoxMatch | None
    round: Round | None
    seats: list[PlayerJoined]
    code: str


def replay(
    events: Sequence[Event], game: Game, refused: list[tuple[Event, str]] | None = None
) -> Replayed:
    """The match, the round under way and the table as the stored events leave them.

    Rows the store could not read are already left out; what depends on them is left out
    too (a round whose roll is lost counts only its stored score). An event that reads
    back whole but cannot be replayed (a score for a player the match does not have) is
    left out too, and the match replayed again without it; ``refused`` gets each such
    event with the reason, for the store to set aside. Stored data never stops a start."""
    kept = list(events)
    while True:
        try:
            return _replay(kept, game)
        except _Unreplayable as bad:
            kept.remove(bad.event)
            if refused is not None:
                refused.append((bad.event, bad.reason))


class _Unreplayable(Exception):
    def __init__(self, event: Event, reason: str) -> None:
        super().__init__(reason)
        self.event, self.reason = event, reason


def _replay(events: Sequence[Event], game: Game) -> Replayed:
    first = events[0] if events else None
    started = first.payload if first and isinstance(first.payload, MatchStarted) else None
    match = None
    # A match of another game (the box was set to a new one) is over for this box; the
    # players at the table stay.
    if first is not None and started is not None and started.game == game.id:
        with _replaying(first):
            match = BoxMatch(first.match, game, started)
    table = _Table({seat.name: seat for seat in started.seats} if started else {})
    table.code = started.code if started else ""
    current: Round | None = None
    for event in events:
        with _replaying(event):
            current = _step(match, table, current, event)
    if current is not None and current.reading is None:
        current = None
    return Replayed(match, current, list(table.seats.values()), table.code)


@dataclass
class _Table:
    seats: dict[str, PlayerJoined]
    code: str = ""


@contextlib.contextmanager
def _replaying(event: Event | None) -> Iterator[None]:
    try:
        yield
    except RecursionError:
        if event is None:
            raise
        raise _Unreplayable(event, "it is nested too deeply to replay") from None
    except Exception as error:  # a RuleError, or whatever a hand-made row leads to
        if event is None:
            raise
        raise _Unreplayable(event, f"it cannot be replayed ({error})") from None


def _step(
    match: BoxMatch | None, table: _Table, current: Round | None, event: Event
) -> Round | None:
    """One stored event applied to the match and the table; the round under way after it."""
    payload = event.payload
    if isinstance(payload, PlayerJoined):
        table.seats[payload.name] = payload
        if match is not None and match.model is None and not match.ended:
            match.seat(payload)  # an older box let players join until a round was scored
    elif isinstance(payload, PlayerLeft):
        table.seats.pop(payload.name, None)
    elif isinstance(payload, PlayerRenamed):
        table.seats = renamed(table.seats, payload.old, payload.new)
    elif isinstance(payload, TableOpened):
        table.code = payload.code
    elif match is None:
        pass
    elif isinstance(payload, StarterRolled):
        if match.needs_starter:
            match.rolled(payload.player, payload.face)
    elif isinstance(payload, RollRead):
        current = Round(event.round, payload.reading, payload.photo, payload.player)
        match.last_round = max(match.last_round, event.round)
    elif isinstance(payload, MatchEnded):
        match.ended = True
    elif isinstance(payload, Scored) and (again := match.scored_round(event.round)):
        match.rescore(again, payload)  # a ruling taken back: the round scored again
    elif isinstance(payload, Scored):
        if current is None or current.number != event.round:
            current = Round(event.round, None)  # its roll was lost: the score stands
        current.ended = True
        match.record(current, payload)
        current = None
    elif current is None or current.number != event.round:
        pass
    elif isinstance(payload, FaceCorrected) and current.reading is not None:
        current.reading = corrected(current.reading, payload.index, payload.face)
    elif isinstance(payload, ChallengeMarked):
        current.challenge = (payload.row, payload.col)
    elif isinstance(payload, RoundStarted):
        current.started_at, current.seconds = event.at, payload.seconds
    elif isinstance(payload, WordTyped | WordRemoved):
        current.typed.append(payload)
    elif isinstance(payload, WordDisputed | WordRuled):
        current.disputed.append(payload)
    elif isinstance(payload, RoundEnded):
        current.ended = True
    elif isinstance(payload, RoundCancelled):
        current = None
    return current


#: Events of the table, not of a round: whoever sits down or leaves.
TABLE_EVENTS = (PlayerJoined, PlayerLeft, PlayerRenamed, TableOpened)


def stopped_at(
    replayed: Replayed, events: Sequence[Event]
) -> tuple[flow.Event | None, Round | None]:
    """Where a restarted box takes up the match: the ``resume-*`` event of the flow (None:
    stay idle) and the round it takes up, if one."""
    match = replayed.match
    if match is None:
        return None, None
    said = [e.payload for e in events if not isinstance(e.payload, TABLE_EVENTS)]
    if match.rounds and said and isinstance(said[-1], Scored):
        return flow.Event.RESUME_SCORED, match.rounds[-1]  # its screen not yet passed
    if replayed.round is not None:
        resume = flow.Event.RESUME_TIME_UP if replayed.round.ended else flow.Event.RESUME_TIMING
        return resume, replayed.round
    if match.needs_starter and match.throws:
        return flow.Event.RESUME_STARTER, None
    if match.rounds or match.ended:
        return flow.Event.RESUME_MATCH, None
    return None, None


def last_scored(match: BoxMatch | None, events: Sequence[Event]) -> Round | None:
    """The match's last scored Boggle round while no roll has been read since it: a
    ruling on its words may still be taken back."""
    if match is None or not match.rounds or not match.game.is_tray:
        return None
    said = [e.payload for e in events if isinstance(e.payload, RollRead | Scored)]
    return match.rounds[-1] if said and isinstance(said[-1], Scored) else None
