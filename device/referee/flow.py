"""The round's flow as one table: (state, event) -> next state, and nothing else.

``TRANSITIONS`` is the whole flow, resuming after a restart included: the box starts
``idle`` and the stored match says which ``resume-*`` event takes it back to where it
stopped. A hold cancels from every state and an error goes to the failsafe from every
state; a state that gives either another meaning says so in ``OWN``.

    idle --tap--> reading --read--> timing --time-up/tap--> time-up --tap--> scoring
    reading --starter-read--> starter --tap--> reading      (Ad-Lib: who starts)
    time-up --lists-locked--> scoring                        (players' lists: at once)
    time-up --live-read--> scoring                  (a crossword read live: at once)
    time-up --disputed--> disputed --tap/allow--> allowing   (a word challenged: the
    disputed --hold/refuse--> refusing                        table rules, word by word)
    allowing, refusing --disputed--> disputed   --ruled--> scoring
    scoring --scored--> scored --tap--> match --tap--> reading
    reading --read-failed--> idle        scoring --score-failed--> time-up
    idle --resume-timing--> timing  (and resume-starter, -time-up, -scored, -match)
    any --hold--> idle (round cancelled)  any --error--> failsafe --tap--> idle

A press (``tap``) is taken only once the screen it changed has settled: within
``SETTLE_SECONDS`` of a change a press made (with the steps that press set going) it is
the same press again (a double press, an impatient press during a slow reading). A change
the timer or a phone made settles nothing: a press just after the scores appeared at 0:00
is the players' own. No press ends a round in its first ``GRACE_SECONDS``.

>>> machine = Machine()
>>> machine.fire(Event.TAP, 0.0, pressed=True), machine.fire(Event.READ, 0.0, pressed=True)
(<State.READING: 'reading'>, <State.TIMING: 'timing'>)
>>> machine.takes_press(0.5, round_seconds=0.5), machine.takes_press(9.0, round_seconds=9.0)
(False, True)
>>> machine.fire(Event.TIME_UP, 180.0), machine.takes_press(180.2, round_seconds=180.2)
(<State.TIME_UP: 'time-up'>, True)
>>> machine.fire(Event.SCORED, 9.0) is None  # not an event of this state: ignored
True
"""

from __future__ import annotations

import logging
import math
from enum import StrEnum

log = logging.getLogger("cuberef.flow")

#: A press this soon after a change of state is the press that made the change, again.
SETTLE_SECONDS = 1.0
#: No press ends a round this soon after its timer started (a hold still cancels it).
GRACE_SECONDS = 3.0


class State(StrEnum):
    IDLE = "idle"
    READING = "reading"
    STARTER = "starter"
    TIMING = "timing"
    TIME_UP = "time-up"
    SCORING = "scoring"
    SCORED = "scored"
    MATCH = "match"
    FAILSAFE = "failsafe"
    #: A word a player challenged, on the screen for the table to rule on.
    DISPUTED = "disputed"
    ALLOWING = "allowing"
    REFUSING = "refusing"


class Event(StrEnum):
    #: The button (or a key, a click, a scripted press).
    TAP = "tap"
    HOLD = "hold"
    #: The steps' own answers.
    READ = "read"
    STARTER_READ = "starter-read"
    READ_FAILED = "read-failed"
    TIME_UP = "time-up"
    LISTS_LOCKED = "lists-locked"
    LIVE_READ = "live-read"
    SCORED = "scored"
    SCORE_FAILED = "score-failed"
    ERROR = "error"
    #: A word challenged waits for the table's ruling; the judge's phone rules on it.
    DISPUTED = "disputed"
    ALLOW = "allow"
    REFUSE = "refuse"
    RULED = "ruled"
    #: Back where the stored match stopped, after a restart.
    RESUME_STARTER = "resume-starter"
    RESUME_TIMING = "resume-timing"
    RESUME_TIME_UP = "resume-time-up"
    RESUME_SCORED = "resume-scored"
    RESUME_MATCH = "resume-match"


#: What a state makes of a hold or an error where it is not the usual: while a word is
#: disputed, a hold is the table's refusal of it, not a cancel.
OWN: dict[tuple[State, Event], State] = {(State.DISPUTED, Event.HOLD): State.REFUSING}

#: (state, event) -> next state.
TRANSITIONS: dict[tuple[State, Event], State] = {
    **{(state, Event.HOLD): State.IDLE for state in State},
    **{(state, Event.ERROR): State.FAILSAFE for state in State},
    (State.IDLE, Event.TAP): State.READING,
    (State.READING, Event.READ): State.TIMING,
    (State.READING, Event.STARTER_READ): State.STARTER,
    (State.READING, Event.READ_FAILED): State.IDLE,
    (State.STARTER, Event.TAP): State.READING,
    (State.TIMING, Event.TIME_UP): State.TIME_UP,
    (State.TIMING, Event.TAP): State.TIME_UP,
    (State.TIME_UP, Event.TAP): State.SCORING,
    (State.TIME_UP, Event.LISTS_LOCKED): State.SCORING,
    (State.TIME_UP, Event.LIVE_READ): State.SCORING,
    (State.TIME_UP, Event.DISPUTED): State.DISPUTED,
    (State.DISPUTED, Event.TAP): State.ALLOWING,
    (State.DISPUTED, Event.ALLOW): State.ALLOWING,
    (State.DISPUTED, Event.REFUSE): State.REFUSING,
    (State.ALLOWING, Event.DISPUTED): State.DISPUTED,
    (State.REFUSING, Event.DISPUTED): State.DISPUTED,
    (State.ALLOWING, Event.RULED): State.SCORING,
    (State.REFUSING, Event.RULED): State.SCORING,
    (State.SCORING, Event.SCORED): State.SCORED,
    (State.SCORING, Event.SCORE_FAILED): State.TIME_UP,
    (State.SCORED, Event.TAP): State.MATCH,
    (State.MATCH, Event.TAP): State.READING,
    (State.FAILSAFE, Event.TAP): State.IDLE,
    (State.IDLE, Event.RESUME_STARTER): State.STARTER,
    (State.IDLE, Event.RESUME_TIMING): State.TIMING,
    (State.IDLE, Event.RESUME_TIME_UP): State.TIME_UP,
    (State.IDLE, Event.RESUME_SCORED): State.SCORED,
    (State.IDLE, Event.RESUME_MATCH): State.MATCH,
    **OWN,
}

#: What a player does with the button (or a key, a click).
PRESSES = frozenset({Event.TAP, Event.HOLD})

#: States in which a round is under way, so a hold cancels it.
IN_ROUND = frozenset(
    {State.READING, State.TIMING, State.TIME_UP, State.DISPUTED, State.ALLOWING, State.REFUSING}
    | {State.SCORING}
)


class Machine:
    """The state the box is in, moved only by the table."""

    def __init__(self) -> None:
        self.state = State.IDLE
        #: How many times the state has changed (entering the same state again counts).
        self.changes = 0
        #: When it last changed (monotonic seconds; never, so far).
        self.changed_at = -math.inf
        #: When a press (or a step it set going) last changed it.
        self.pressed_at = -math.inf

    def fire(self, event: Event, now: float, *, pressed: bool = False) -> State | None:
        """Move on by ``event`` (``pressed``: a press made it, or a step the press set
        going); None (and nothing changes) where the table has no such move from this
        state."""
        found = TRANSITIONS.get((self.state, event))
        if found is None:
            log.info("%s ignored in %s", event, self.state)
            return None
        log.info("%s --%s--> %s", self.state, event, found)
        self.state, self.changes, self.changed_at = found, self.changes + 1, now
        if pressed:
            self.pressed_at = now
        return found

    def settle(self) -> None:
        """Take the next press at once, however recent the last change (a restart)."""
        self.pressed_at = -math.inf

    def cancels(self, event: Event) -> bool:
        """Whether ``event`` cancels what the box is doing (a hold, where the state gives
        it no other meaning)."""
        return event is Event.HOLD and TRANSITIONS.get((self.state, event)) is State.IDLE

    def takes_press(self, now: float, round_seconds: float) -> bool:
        """Whether a press at ``now`` counts (``round_seconds``: how long the timer of
        the round under way has run)."""
        if now - self.pressed_at < SETTLE_SECONDS:
            return False
        return not (self.state is State.TIMING and round_seconds < GRACE_SECONDS)
