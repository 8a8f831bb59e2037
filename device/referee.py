"""The referee's round as one declarative state machine.

``TRANSITIONS`` below is the whole flow: (state, event) -> next state. A hold of the
button cancels from every state; an unexpected error in any step leads to the
``failsafe`` state, which says what happened and waits for a tap. Entering a state
runs its step (``_enter_<state>``); a step that finishes at once (reading the roll,
scoring) answers with the next event.

    idle --tap--> reading --read--> timing --time-up/tap--> time-up --tap--> scoring
    scoring --scored--> scored --tap--> match --tap--> reading
    reading --read-failed--> idle        scoring --score-failed--> time-up
    any --hold--> idle (round cancelled)  any --error--> failsafe --tap--> idle

Every event worth keeping goes to the store the moment it happens; a store that
cannot write (a full disk) puts a notice on the screen and the round goes on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import cv2

from device.buzzer import Buzzer
from device.camera import Camera
from device.clock import Clock
from device.seams import BestCrossword, CrosswordScore, Reader, Reading, Scorer, Word
from device.store import Store, StoreError
from device.tunes import ALARM, CANCEL, TROUBLE, Tune, timer_cues
from engine.errors import CuberefError, MachineError
from engine.games import Game

log = logging.getLogger("cuberef.referee")


class State(StrEnum):
    IDLE = "idle"
    READING = "reading"
    TIMING = "timing"
    TIME_UP = "time-up"
    SCORING = "scoring"
    SCORED = "scored"
    MATCH = "match"
    FAILSAFE = "failsafe"


TAP, HOLD = "tap", "hold"

#: (state, event) -> next state. ``HOLD`` (cancel) and ``error`` work from every state.
TRANSITIONS: dict[tuple[State, str], State] = {
    (State.IDLE, TAP): State.READING,
    (State.READING, "read"): State.TIMING,
    (State.READING, "read-failed"): State.IDLE,
    (State.TIMING, "time-up"): State.TIME_UP,
    (State.TIMING, TAP): State.TIME_UP,
    (State.TIME_UP, TAP): State.SCORING,
    (State.SCORING, "scored"): State.SCORED,
    (State.SCORING, "score-failed"): State.TIME_UP,
    (State.SCORED, TAP): State.MATCH,
    (State.MATCH, TAP): State.READING,
    (State.FAILSAFE, TAP): State.IDLE,
}
CANCEL_TO = State.IDLE
FAILSAFE = State.FAILSAFE
#: States in which a round is under way, so a hold cancels it.
IN_ROUND = {State.READING, State.TIMING, State.TIME_UP, State.SCORING}


@dataclass
class Round:
    number: int
    reading: Reading
    photo: str | None = None
    started_at: float | None = None  # wall clock, for a restart to resume the timer
    seconds: int = 180
    ended: bool = False
    words: list[Word] = field(default_factory=list)
    crossword: CrosswordScore | None = None
    best: BestCrossword | None = None
    player: str | None = None

    @property
    def maximum(self) -> int:
        return sum(word.points for word in self.words)


@dataclass
class Match:
    number: int
    players: list[str]
    rounds: list[Round] = field(default_factory=list)
    ended: bool = False
    last_round: int = 0

    def totals(self) -> dict[str, int]:
        totals = dict.fromkeys(self.players, 0)
        for done in self.rounds:
            if done.crossword is not None and done.player in totals:
                totals[done.player] += done.crossword.score
        return totals


@dataclass(frozen=True)
class Parts:
    """What the referee works with; every one can be swapped for a test double."""

    game: Game
    settings: dict[str, Any]
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
        self.state = State.IDLE
        self.match: Match | None = None
        self.round: Round | None = None
        self.message = "Press the button to read the roll."
        #: What is wrong, by where it came from; the screen shows them in a red band.
        #: ``start-up`` (a fallback, a damaged store) lasts until a roll is read,
        #: ``store`` until the store writes again, ``failsafe`` until the next tap.
        self.notices: dict[str, str] = {}
        if parts.store is not None and parts.store.notice:
            self.notices["start-up"] = parts.store.notice
        self.on_change: Callable[[Referee], None] = lambda _referee: None
        self._deadline = 0.0
        self._cues: list[tuple[float, Tune]] = []
        self._camera: Camera | None = None

    # The machine ---------------------------------------------------------------------

    def handle(self, event: str) -> None:
        """Feed one event (``tap``, ``hold``, or a step's own answer) to the machine."""
        while event:
            if event == HOLD:
                next_state = self._cancel()
            else:
                found = TRANSITIONS.get((self.state, event))
                if found is None:
                    log.info("%s ignored in %s", event, self.state)
                    return
                next_state = found
            log.info("%s --%s--> %s", self.state, event, next_state)
            self.state = next_state
            self.on_change(self)
            event = self._enter(next_state)

    def _enter(self, state: State) -> str:
        step = getattr(self, f"_enter_{state.value.replace('-', '_')}", None)
        if step is None:
            return ""
        try:
            answer: str = step()
        except Exception as error:  # any failure of a step: the failsafe state
            log.exception("%s failed", state)
            self.message = f"Something went wrong ({error}). Press the button to start again."
            self.notices["failsafe"] = self.message
            self._beep(TROUBLE)
            self.state = FAILSAFE
            self.on_change(self)
            return ""
        return answer

    @property
    def notice(self) -> str | None:
        return " ".join(self.notices.values()) or None

    def say(self, source: str, sentence: str) -> None:
        """Put ``sentence`` on the screen (and in the log) until its source clears it."""
        log.error(sentence)
        self.notices[source] = sentence

    def tick(self) -> None:
        """Let time pass: sound the cues that are due and end the round at zero."""
        now = self.clock.monotonic()
        if self.state is State.TIMING:
            while self._cues and self._cues[0][0] <= now:
                self.parts.buzzer.play(self._cues.pop(0)[1], now)
            if now >= self._deadline:
                self.handle("time-up")
        self.parts.buzzer.update(now)

    @property
    def seconds_left(self) -> float:
        if self.state is State.TIMING:
            return max(0.0, self._deadline - self.clock.monotonic())
        return 0.0

    # Steps ---------------------------------------------------------------------------

    def _enter_idle(self) -> str:
        self.notices.pop("failsafe", None)
        if not self.message:
            self.message = "Press the button to read the roll."
        return ""

    def _enter_reading(self) -> str:
        match = self._current_match()
        number = match.last_round + 1  # never reused, so no photo is overwritten
        try:
            image = self._capture()
            reading = self.parts.reader.read_roll(image, self.game)
            if not reading.faces:
                raise CuberefError("No cube was found in the photo; roll them under the camera.")
        except (CuberefError, MachineError) as error:
            log.warning("reading failed: %s", error)
            self.message = f"{error} Press the button to try again."
            self._beep(TROUBLE)
            return "read-failed"
        photo = self._save_photo(f"match{match.number}-round{number}-roll.jpg", image)
        self.round = Round(
            number, reading, photo, seconds=int(self.parts.settings["timer_seconds"])
        )
        self.round.player = match.players[len(match.rounds) % len(match.players)]
        match.last_round = number
        self._store(number, "roll-read", photo=photo, **reading.to_data())
        self.notices.pop("start-up", None)
        self.message = ""
        return "read"

    def _enter_timing(self) -> str:
        assert self.round is not None
        if self.round.started_at is None:
            self.round.started_at = self.clock.wall()
            self._store(self.round.number, "round-started", seconds=self.round.seconds)
        self._start_timer(self.round.seconds - self._elapsed(self.round))
        return ""

    def _enter_time_up(self) -> str:
        assert self.round is not None
        if not self.round.ended:
            self.round.ended = True
            left = round(self._deadline - self.clock.monotonic(), 2)
            self._store(self.round.number, "round-ended", seconds_left=max(0.0, left))
            self._cues = []
            self._beep(ALARM)
            self.message = "Time is up. Press the button to score."
        return ""

    def _enter_scoring(self) -> str:
        assert self.round is not None
        try:
            if self.game.is_tray:
                self._score_tray(self.round)
            else:
                self._score_crossword(self.round)
        except (CuberefError, MachineError) as error:
            log.warning("scoring failed: %s", error)
            self.message = f"{error} Press the button to try again."
            self._beep(TROUBLE)
            return "score-failed"
        self._current_match().rounds.append(self.round)
        self.message = "Press the button for the match table."
        return "scored"

    def _enter_match(self) -> str:
        match = self._current_match()
        if self.round is not None and self.round not in match.rounds:
            match.rounds.append(self.round)
        settings = self.parts.settings
        best = max(match.totals().values(), default=0)
        limit_reached = settings["rounds"] and len(match.rounds) >= settings["rounds"]
        target_reached = settings["target_score"] and best >= settings["target_score"]
        if (limit_reached or target_reached) and not match.ended:
            match.ended = True
            self._store(0, "match-ended", totals=match.totals())
            self.message = "The match is over. Press the button for a new match."
        else:
            self.message = "Press the button for the next round."
        self.round = None
        return ""

    def _score_tray(self, done: Round) -> None:
        board = done.reading.board
        assert board is not None
        lexicon = self.parts.settings["lexicon"]
        words = self.parts.scorer.solve(board, self.game, lexicon)
        done.words = sorted(words, key=lambda w: (-len(w.word), w.word))
        self._store(
            done.number,
            "scored",
            board=str(board),
            maximum=done.maximum,
            words=[[w.word, w.points] for w in done.words],
        )

    def _score_crossword(self, done: Round) -> None:
        image = self._capture()
        photo = self._save_photo(
            f"match{self._current_match().number}-round{done.number}-crossword.jpg", image
        )
        settings = self.parts.settings
        grid = self.parts.reader.read_crossword(image, self.game)
        roll = done.reading.roll
        done.crossword = self.parts.scorer.score_crossword(
            roll, grid, self.game, settings["lexicon"]
        )
        done.best = self.parts.scorer.best_crossword(
            roll, self.game, settings["lexicon"], float(settings["best_seconds"])
        )
        if done.crossword.valid and done.crossword.score > done.best.score:
            # The players beat the search's time budget: theirs is the best known crossword.
            done.best = BestCrossword(done.crossword.grid, done.crossword.score, False)
        self._store(
            done.number,
            "scored",
            photo=photo,
            player=done.player,
            grid=list(grid),
            score=done.crossword.score,
            valid=done.crossword.valid,
            errors=list(done.crossword.errors),
            words=[[w.word, w.points, w.valid] for w in done.crossword.words],
            best_grid=list(done.best.grid),
            best_score=done.best.score,
            proven_optimal=done.best.proven_optimal,
        )

    def _cancel(self) -> State:
        if self.state in IN_ROUND and self.round is not None:
            self._store(self.round.number, "round-cancelled", state=str(self.state))
        self.round = None
        self._cues = []
        self._beep(CANCEL)
        self.message = "Round cancelled. Press the button to read a new roll."
        return CANCEL_TO

    # Corrections ---------------------------------------------------------------------

    def correct(self, index: int, face: str) -> None:
        """The players say face ``index`` of the roll really shows ``face``."""
        if self.round is None or self.state not in (State.TIMING, State.TIME_UP):
            return
        old = self.round.reading.faces[index]
        self.round.reading = self.round.reading.corrected(index, face)
        self._store(self.round.number, "face-corrected", index=index, was=old, face=face)
        self.on_change(self)

    # Resuming ------------------------------------------------------------------------

    def resume(self) -> None:
        """Pick the stored match up where it stopped (after a restart or a power cut)."""
        store = self.parts.store
        if store is None:
            return
        number = store.last_match()
        if number is None:
            return
        match, open_round = replay(store.events(number), self.parts.settings)
        self.match = match
        if open_round is None:
            self.state = State.MATCH if match.rounds else State.IDLE
            self.message = "Match resumed. Press the button for the next round."
            return
        self.round = open_round
        self.message = "Round resumed after a restart."
        if open_round.crossword is not None or open_round.words:
            self.state = State.SCORED
        elif open_round.ended:
            self.state = State.TIME_UP
        elif open_round.seconds - self._elapsed(open_round) <= 0:
            self.state = State.TIMING
            self._deadline = self.clock.monotonic()
            self.handle("time-up")
        else:
            self.state = State.TIMING
            self._enter_timing()
        log.info("resumed match %d in %s", match.number, self.state)

    # Helpers -------------------------------------------------------------------------

    def _current_match(self) -> Match:
        if self.match is None or self.match.ended:
            players = list(self.parts.settings["players"])
            number = 1
            if self.parts.store is not None:
                try:
                    number = self.parts.store.new_match(
                        self.clock.wall(), game=self.game.id, players=players
                    )
                except StoreError as error:
                    self.say("store", str(error))
            self.match = Match(number, players)
        return self.match

    def _elapsed(self, running: Round) -> float:
        if running.started_at is None:
            return 0.0
        return max(0.0, self.clock.wall() - running.started_at)

    def _start_timer(self, seconds_left: float) -> None:
        now = self.clock.monotonic()
        total = self.round.seconds if self.round else int(seconds_left)
        start = now - (total - seconds_left)
        self._deadline = now + seconds_left
        self._cues = [
            (start + at, tune)
            for at, tune in timer_cues(total)
            if tune is not ALARM and start + at >= now - 0.5
        ]
        self.tick()

    def _capture(self) -> Any:
        if self._camera is None:
            self._camera = self.parts.camera()
        return self._camera.capture()

    def _save_photo(self, name: str, image: Any) -> str | None:
        if self.parts.store is None:
            return None
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        if not ok:
            return None
        try:
            saved = self.parts.store.save_photo(name, encoded.tobytes())
        except StoreError as error:
            self.say("photo", str(error))
            return None
        self.notices.pop("photo", None)
        return saved

    def _store(self, number: int, kind: str, **data: Any) -> None:
        store = self.parts.store
        if store is None:
            return
        match = self.match.number if self.match else 0
        try:
            store.record(match, number, kind, self.clock.wall(), game=self.game.id, **data)
        except StoreError as error:
            self.say("store", str(error))
        else:
            self.notices.pop("store", None)

    def _beep(self, tune: Tune) -> None:
        self.parts.buzzer.play(tune, self.clock.monotonic())


def replay(events: list[Any], settings: dict[str, Any]) -> tuple[Match, Round | None]:
    """Rebuild a match (and the round under way, if any) from its stored events."""
    match = Match(events[0].match if events else 0, list(settings["players"]))
    current: Round | None = None
    for event in events:
        data = event.data
        if event.kind == "match-started":
            match.players = list(data.get("players", match.players))
        elif event.kind == "roll-read":
            current = Round(event.round, Reading.from_data(data), data.get("photo"))
            current.seconds = int(settings["timer_seconds"])
            current.player = match.players[len(match.rounds) % len(match.players)]
            match.last_round = max(match.last_round, event.round)
        elif current is None:
            continue
        elif event.kind == "face-corrected":
            current.reading = current.reading.corrected(data["index"], data["face"])
        elif event.kind == "round-started":
            current.started_at, current.seconds = event.at, int(data["seconds"])
        elif event.kind == "round-ended":
            current.ended = True
        elif event.kind == "round-cancelled":
            current = None
        elif event.kind == "scored":
            current.ended = True
            _restore_score(current, data)
            match.rounds.append(current)
    if current is not None and current in match.rounds:
        current = None
    return match, current


def _restore_score(done: Round, data: dict[str, Any]) -> None:
    words = tuple(
        Word(w[0], int(w[1]), bool(w[2]) if len(w) > 2 else True) for w in data.get("words", ())
    )
    if "maximum" in data:
        done.words = list(words)
        return
    done.crossword = CrosswordScore(
        tuple(data["grid"]),
        int(data["score"]),
        bool(data["valid"]),
        words,
        errors=tuple(data.get("errors", ())),
    )
    done.best = BestCrossword(
        tuple(data["best_grid"]), int(data["best_score"]), bool(data["proven_optimal"])
    )
