"""The referee: the steps of the round machine, and the match they play.

``device.referee.flow`` is the flow (the table of every move). Entering a state runs its step
here (``_enter_<state>``); a step that finishes at once (reading the roll, scoring)
answers with the next event, and a step that fails unexpectedly answers ``error``, which
the table takes to the failsafe. The rules are the engine's: the match model says whose
turn it is and when the match ends, the round's referee scores the lists.

The referee's collaborators each do one job: the record of events (``device.referee.record``),
the players at the table (``device.referee.table``), the keyboard's player
(``device.referee.keyboard``), the corrections the players make
(``device.referee.corrections``), and the round's lists, live reading and results
(``device.referee.scoring``). Every event worth keeping is recorded the moment it happens.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from device.base.clock import Clock
from device.base.strings import say, translated
from device.base.tunes import ALARM, CANCEL, TROUBLE, Tune
from device.config.sections import Settings
from device.parts.buzzer import Buzzer
from device.parts.camera import Camera
from device.referee.corrections import Corrections
from device.referee.disputes import Disputes
from device.referee.flow import IN_ROUND, PRESSES, Event, Machine, State
from device.referee.keyboard import Keyboard
from device.referee.lists import Desk
from device.referee.matchplay import BoxMatch, Round, starting
from device.referee.notices import Notices
from device.referee.prompt import prompt
from device.referee.record import Record
from device.referee.resuming import resume_match
from device.referee.retake import HouseReads, take_back
from device.referee.scoring import Scoring
from device.referee.sign import Sign
from device.referee.standings import Evening, evening_or_none
from device.referee.table import Table, make_code
from device.referee.timer import Timer
from device.seams.readings import check_roll
from device.seams.seams import Reader, Scorer
from device.store.events import (
    MatchEnded,
    MatchStarted,
    PlayerJoined,
    RollRead,
    RoundCancelled,
    RoundEnded,
    RoundStarted,
    StarterRolled,
)
from device.store.store import Store
from engine.errors import CuberefError, MachineError
from engine.faces import Face
from engine.games import Game
from vision import LooseReading

log = logging.getLogger("cuberef.referee")


@dataclass(frozen=True)
class Parts:
    """What the referee works with; every one can be swapped for a test double."""

    game: Game
    settings: Settings
    clock: Clock
    camera: Callable[[], Camera]  # opened on first use, so a pulled camera is a message
    reader: Reader
    scorer: Scorer
    store: Store | None
    buzzer: Buzzer


class Referee:
    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self.game = parts.game
        self.clock = parts.clock
        self.settings = settings = parts.settings
        self.language = settings.language  # what the screens and phones say things in
        self.machine = Machine()
        self.match: BoxMatch | None = None
        self.round: Round | None = None
        self.message = ""
        self.notices = Notices()
        if parts.store is not None and parts.store.notice:
            source = "read-only" if parts.store.read_only else "start-up"
            self.notices.say(source, parts.store.notice)
        self.record = Record(parts.store, self.clock, self.notices)
        page = settings.page
        seat = PlayerJoined(page.keyboard_player, page.keyboard_team, True)
        self.table = Table(
            make_code() if page.enabled else "",
            seat if seat.name else None,
            write=lambda payload: self.record.write(0, payload),
            named=settings.players if self.game.is_tray and page.lists else (),
        )
        self.keyboard = Keyboard(seat.name, lambda: self.desk, self.language) if seat.name else None
        self.corrections = Corrections(self.record)
        self.disputes = Disputes(self.game, settings, self.record)
        self.scoring = Scoring(
            self.game, settings, parts.reader, parts.scorer, self.record, self._opened
        )
        self.scoring.house = lambda: self.disputes.house
        self.on_change: Callable[[Referee], None] = lambda _referee: None
        #: Where phones reach the players' page ("" when it is off).
        self.page_address = ""
        #: The key of the long secret the page's QR code carries (``device.page.guard``).
        self.page_key = b""
        #: A club's table: the seat the director gave it ("Table 3 · round 2: Ann, Ben"),
        #: and the players seated there, the only ones a phone may join as (none: anyone).
        self.seat_line = ""
        self.seated: tuple[str, ...] = ()
        #: Taken for the short changes the players' page makes from its own thread.
        self.lock = threading.RLock()
        self.timer = Timer(parts.buzzer)
        self.sign = Sign(parts.buzzer)  # for a press not taken
        self._camera: Camera | None = None
        #: Whether the scoring just failed, so that the time-up screen says why.
        self._score_failed = False
        #: The evening: every match begun since the box started (or the one it resumed).
        self.evening_since = self.clock.wall()
        self.evening = Evening()
        #: The last round scored, while a ruling on its words may be taken back: until the
        #: next round's roll is read (None then, and for Ad-Lib).
        self.retakable: Round | None = None
        #: When the store's house list was last read, for the rulings taken back there.
        self._house_reads = HouseReads()
        self.message = self.prompt()

    # The machine ---------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.machine.state

    def handle(self, event: Event | str) -> None:
        """Feed one event (a press, or a step's own answer) to the machine."""
        next_event: Event | None = Event(event)
        pressed = next_event in PRESSES  # what a press changes settles
        now = self.clock.monotonic()
        if next_event is Event.TAP and not self.machine.takes_press(now, self._timer_run()):
            self.sign.give(now)  # right after a change a press made, or early in a round
            return
        while next_event is not None:
            if self.machine.cancels(next_event):
                self._cancel()
            moved = self.machine.fire(next_event, self.clock.monotonic(), pressed=pressed)
            if moved is None:
                if next_event is Event.TAP:
                    self.sign.give(now)
                return
            self.on_change(self)
            next_event = self._enter(moved)

    def _enter(self, state: State) -> Event | None:
        step = getattr(self, f"_enter_{state.value.replace('-', '_')}", None)
        if step is None:
            return None
        try:
            answer: Event | None = step()
        except Exception as error:  # any failure of a step: the failsafe state
            log.exception("%s failed", state)
            said = translated(str(error), self.language)
            self.message = say("went-wrong", self.language, error=said)
            self.notices.say("failsafe", self.message)
            self._beep(TROUBLE)
            return Event.ERROR
        return answer

    @property
    def notice(self) -> str | None:
        return self.notices.text

    def say(self, source: str, *sentences: str) -> None:
        """Put ``sentences`` on the screen (and in the log) until their source clears them."""
        self.notices.say(source, *sentences)

    def tick(self) -> None:
        """Let time pass: sound the cues that are due and end the round at zero."""
        while not self.disputes.asked.empty():  # from the players' page's thread
            self.handle(self.disputes.asked.get())
        take_back(self, self._house_reads, self.clock.monotonic())
        now = self.clock.monotonic()
        if self.state is State.TIMING and self.timer.tick(now):
            self.handle(Event.TIME_UP)
        self.parts.buzzer.update(now)

    @property
    def seconds_left(self) -> float:
        return self.timer.left(self.clock.monotonic()) if self.state is State.TIMING else 0.0

    # Steps ---------------------------------------------------------------------------

    def _enter_idle(self) -> None:
        self.notices.clear("failsafe")
        if not self.message:
            self.message = self.prompt()

    def prompt(self) -> str:
        """What the next press does (``device.referee.prompt``)."""
        return prompt(self.match or self.upcoming(), self.game, self.language)

    def upcoming(self) -> BoxMatch:
        """The match the next press plays in: the one under way, or the next one as it
        will begin (it is stored only once its first roll is read)."""
        with self.lock:
            if self.match is not None and not self.match.ended:
                return self.match
            return BoxMatch(0, self.game, self._started())

    def _enter_reading(self) -> Event:
        upcoming = self.upcoming()
        roller = upcoming.holder if upcoming.needs_starter else ""
        try:
            image = self._opened().capture()
            reading = check_roll(self.parts.reader.read_roll(image, self.game), roller)
        except (CuberefError, MachineError) as error:
            log.warning("reading failed: %s", error)
            said = translated(str(error), self.language)
            self.message = say("try-again", self.language, error=said)
            self._beep(TROUBLE)
            return Event.READ_FAILED
        self.notices.clear("start-up")
        self.notices.clear("restart")  # the box said why it was started again
        match = self.current_match()
        if roller:
            assert isinstance(reading, LooseReading)
            face = reading.faces[0].face
            photo = self.record.photo(f"match{match.number}-starter-{roller}.jpg", image)
            with self.lock:
                match.rolled(roller, face)
            self.record.write(0, StarterRolled(roller, face, reading, photo))
            return Event.STARTER_READ
        with self.lock:
            self.retakable = None  # the next round starts: the last one's rulings stand
        number = match.last_round + 1  # never reused, so no photo is overwritten
        photo = self.record.photo(f"match{match.number}-round{number}-roll.jpg", image)
        player = match.holder if not self.game.is_tray else ""
        self.round = Round(number, reading, photo, player, seconds=self.settings.timer_seconds)
        match.last_round = number
        self.record.write(number, RollRead(reading, photo, player))
        self.message = ""
        return Event.READ

    def _enter_starter(self) -> None:
        self.message = self.prompt()

    def _enter_timing(self) -> Event | None:
        done = self.round
        assert done is not None
        if done.started_at is None:
            done.started_at = self.clock.wall()
            self.record.write(done.number, RoundStarted(done.seconds))
        if self.game.is_tray and done.desk is None:
            done.desk = self.scoring.desk(done, self.current_match())
        left = done.seconds - self._timer_run()
        if left <= 0:
            self.timer.stop(self.clock.monotonic())
            return Event.TIME_UP  # the box was off until after the round would have ended
        self.timer.start(self.clock.monotonic(), done.seconds, left)
        self.scoring.watch(done)
        return None

    def _enter_time_up(self) -> Event | None:
        done = self.round
        assert done is not None
        if done.desk is not None:
            done.desk.lock()
        if self.keyboard is not None:
            self.keyboard.clear()
        if not done.ended:
            done.ended = True
            left = self.timer.stop(self.clock.monotonic())
            self.record.write(done.number, RoundEnded(round(left, 2)))
            self._beep(ALARM)
        if self.disputes.waiting(done):
            return Event.DISPUTED
        if (at_once := self.scoring.at_once(self.settings.page.lists)) is not None:
            return at_once
        if self._score_failed:  # back from a scoring that failed: its sentence stays
            self._score_failed = False
            return None
        self.message = say("time-up", self.language)
        return None

    def _enter_allowing(self) -> Event:
        return self.disputes.ruled(self.round, True)

    def _enter_refusing(self) -> Event:
        return self.disputes.ruled(self.round, False)

    def _enter_scoring(self) -> Event:
        done = self.round
        assert done is not None
        match = self.current_match()
        try:
            if self.game.is_tray:
                scored = self.scoring.tray(done, match, self.players_with_lists())
            else:
                scored = self.scoring.crossword(done, match)
        except (CuberefError, MachineError) as error:
            log.warning("scoring failed: %s", error)
            said = translated(str(error), self.language)
            self.message = say("try-again", self.language, error=said)
            self._score_failed = True
            self._beep(TROUBLE)
            return Event.SCORE_FAILED
        self.record.write(done.number, scored)
        with self.lock:
            match.record(done, scored)
            self.retakable = done if self.game.is_tray else None
        self.message = say("press-for-table", self.language)
        return Event.SCORED

    def _enter_match(self) -> None:
        match = self.match  # the match just played (resumed, it may have ended before)
        assert match is not None
        if match.over and not match.ended:
            match.ended = True
            self.record.write(0, MatchEnded(match.winners()))
        if match.ended:
            with self.lock:
                self.table.next_match()  # the teams asked for during it
        self.round = None
        self.evening = evening_or_none(self.record.source, self.settings, self.evening_since)
        self.message = self.prompt()

    def _cancel(self) -> None:
        if self.state in IN_ROUND and self.round is not None:
            self.record.write(self.round.number, RoundCancelled(str(self.state)))
            if self.round.desk is not None:
                self.round.desk.lock()
        if self.keyboard is not None:
            self.keyboard.clear()
        self.round = None
        self.scoring.unwatch()
        self.timer.stop(self.clock.monotonic())
        self._beep(CANCEL)
        self.message = say("round-cancelled", self.language, next=self.prompt())

    # Players and their lists ------------------------------------------------------------

    def players_with_lists(self) -> list[str]:
        with self.lock:
            return list(self.match.seats) if self.match and self.settings.page.lists else []

    @property
    def join_code(self) -> str:
        """The players' page's code (it stays the same from one match to the next)."""
        return self.table.code

    @property
    def desk(self) -> Desk | None:
        """The lists of the round under way, if one is."""
        return self.round.desk if self.round is not None else None

    def correct(self, index: int, face: Face) -> None:
        """The players say face ``index`` of the roll really shows ``face``."""
        if self.round is not None and self.state in (State.TIMING, State.TIME_UP):
            self.corrections.face(self.round, index, face)
            self.on_change(self)

    def resume(self) -> None:
        """Pick the stored match up where it stopped (``device.referee.resuming``)."""
        resume_match(self)

    def _started(self) -> MatchStarted:
        with_lists = self.game.is_tray and self.settings.page.lists
        return starting(self.game, self.settings, self.table if with_lists else None)

    def current_match(self) -> BoxMatch:
        """The match under way, begun (and stored, with the table as it sits) if none is."""
        with self.lock:
            if self.match is None or self.match.ended:
                self.table.next_match()
                started = self._started()
                self.match = BoxMatch(self.record.new_match(started), self.game, started)
                self.table.code_kept = True
            return self.match

    def _timer_run(self) -> float:
        """How long the timer of the round under way has run (0 before it starts)."""
        started = self.round.started_at if self.round is not None else None
        return 0.0 if started is None else max(0.0, self.clock.wall() - started)

    def _opened(self) -> Camera:
        if self._camera is None:
            self._camera = self.parts.camera()
        return self._camera

    def _beep(self, tune: Tune) -> None:
        self.parts.buzzer.play(tune, self.clock.monotonic())
