"""The referee's round as one declarative state machine: the flow, and nothing else.

``TRANSITIONS`` below is the whole flow: (state, event) -> next state. A hold of the
button cancels from every state; an unexpected error in any step leads to the
``failsafe`` state, which says what happened and waits for a tap. Entering a state
runs its step (``_enter_<state>``); a step that finishes at once (reading the roll,
scoring) answers with the next event. The rules are the engine's: the match model says
whose turn it is and when the match ends, the round's referee scores the lists.

    idle --tap--> reading --read--> timing --time-up/tap--> time-up --tap--> scoring
    reading --starter-read--> starter --tap--> reading      (Ad-Lib: who starts)
    time-up --lists-locked--> scoring                        (players' lists: at once)
    scoring --scored--> scored --tap--> match --tap--> reading
    reading --read-failed--> idle        scoring --score-failed--> time-up
    any --hold--> idle (round cancelled)  any --error--> failsafe --tap--> idle

Every event worth keeping goes to the store the moment it happens; a store that
cannot write (a full disk) puts a notice on the screen and the round goes on.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import cv2
import numpy as np

from device.buzzer import Buzzer
from device.camera import Camera
from device.clock import Clock
from device.events import (
    Best,
    ChallengeMarked,
    Event,
    FaceCorrected,
    MatchEnded,
    MatchStarted,
    Payload,
    PlayerJoined,
    RollRead,
    RoundCancelled,
    RoundEnded,
    RoundStarted,
    Scored,
    StarterRolled,
    WordTyped,
)
from device.lists import Desk, Refused
from device.matchplay import BoxMatch, Round, replay
from device.readings import board_of, corrected, faces_of
from device.seams import Reader, Scorer, lexicon_for
from device.store import Store, StoreError
from device.tunes import ALARM, CANCEL, TROUBLE, Tune, timer_cues
from engine.adlib import Grid
from engine.adlib.best import BestCrossword
from engine.errors import CuberefError, MachineError, RuleError
from engine.faces import Face
from engine.games import Game
from vision import LooseReading

log = logging.getLogger("cuberef.referee")


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


TAP, HOLD = "tap", "hold"

#: (state, event) -> next state. ``HOLD`` (cancel) and ``error`` work from every state.
TRANSITIONS: dict[tuple[State, str], State] = {
    (State.IDLE, TAP): State.READING,
    (State.READING, "read"): State.TIMING,
    (State.READING, "starter-read"): State.STARTER,
    (State.READING, "read-failed"): State.IDLE,
    (State.STARTER, TAP): State.READING,
    (State.TIMING, "time-up"): State.TIME_UP,
    (State.TIMING, TAP): State.TIME_UP,
    (State.TIME_UP, TAP): State.SCORING,
    (State.TIME_UP, "lists-locked"): State.SCORING,
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
#: The most players at the table (phones and the keyboard).
MAX_PLAYERS = 12


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
        self.settings = parts.settings
        self.state = State.IDLE
        #: How many times the state has changed (entering the same state again counts).
        self.changes = 0
        self.match: BoxMatch | None = None
        self.round: Round | None = None
        self.message = ""
        #: What is wrong, by where it came from; the screen shows them in a red band.
        #: ``start-up`` (a fallback) lasts until a roll is read, ``store`` until the
        #: store writes again, ``failsafe`` until the next tap.
        self.notices: dict[str, str] = {}
        if parts.store is not None and parts.store.notice:
            source = "read-only" if parts.store.read_only else "start-up"
            self.notices[source] = parts.store.notice
        self.on_change: Callable[[Referee], None] = lambda _referee: None
        #: Where phones reach the players' page ("" when it is off), and the key of the
        #: long secret its QR code carries (``device.guard.qr_secret``).
        self.page_address = ""
        self.page_key = b""
        #: The keyboard's player: the word being typed, and how the last one was taken.
        self.keyboard_entry = ""
        self.keyboard_said = ""
        #: Taken for the short changes the players' page makes from its own thread.
        self.lock = threading.RLock()
        self._deadline = 0.0
        self._cues: list[tuple[float, Tune]] = []
        self._camera: Camera | None = None
        self.message = self.prompt()

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
            self.changes += 1
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
            self.changes += 1
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
            self.message = self.prompt()
        return ""

    def prompt(self) -> str:
        """What the next press does: for Ad-Lib, who rolls (one cube for who starts, or
        the cubes for a turn) and who follows; after a match, who won it."""
        match = self.match
        if match is not None and match.ended:
            won = " and ".join(match.winners()) or "Nobody"
            return f"{won} won the match. Press the button for a new match."
        match = self.upcoming()
        holder = match.holder
        if self.game.is_tray or not holder:
            if match.rounds:
                return "Press the button for the next round."
            return "Press the button to read the roll."
        roll, start = ("roll", "start") if match.plural(holder) else ("rolls", "starts")
        if match.needs_starter:
            assert match.start_roll is not None
            tied = match.start_roll.tied
            if tied:
                return f"{' and '.join(tied)} tied: {holder}, roll one cube again and press."
            return f"Who starts: {holder}, roll one cube and press."
        if not match.rounds:
            return f"{holder} {start}: roll all the cubes and press."
        following = match.following
        then = f", then {following}" if following and following != holder else ""
        return f"{holder} {roll} next{then}: press the button."

    def upcoming(self) -> BoxMatch:
        """The match the next press plays in: the one under way, or the next one as it
        will begin (it is stored only once it does)."""
        with self.lock:
            if self.match is not None and not self.match.ended:
                return self.match
            return BoxMatch(0, self.game, self._started(new_code=False))

    def _enter_reading(self) -> str:
        match = self.current_match()
        roller = match.holder if match.needs_starter else ""
        number = match.last_round + 1  # never reused, so no photo is overwritten
        try:
            image = self._capture()
            reading = self.parts.reader.read_roll(image, self.game)
            count = len(faces_of(reading))
            if not count:
                raise CuberefError("No cube was found in the photo; roll them under the camera.")
            if roller and count != 1:
                raise CuberefError(
                    f"{roller}, roll just one cube for who starts; the photo shows {count}."
                )
        except (CuberefError, MachineError) as error:
            log.warning("reading failed: %s", error)
            self.message = f"{error} Press the button to try again."
            self._beep(TROUBLE)
            return "read-failed"
        self.notices.pop("start-up", None)
        if roller:
            assert isinstance(reading, LooseReading)
            face = reading.faces[0].face
            photo = self._save_photo(f"match{match.number}-starter-{roller}.jpg", image)
            with self.lock:
                match.rolled(roller, face)
            self._store(0, StarterRolled(roller, face, reading, photo))
            return "starter-read"
        photo = self._save_photo(f"match{match.number}-round{number}-roll.jpg", image)
        player = match.holder if not self.game.is_tray else ""
        seconds = int(self.settings["timer_seconds"])
        self.round = Round(number, reading, photo, player, seconds=seconds)
        match.last_round = number
        self._store(number, RollRead(reading, photo, player))
        self.message = ""
        return "read"

    def _enter_starter(self) -> str:
        self.message = self.prompt()
        return ""

    def _enter_timing(self) -> str:
        done = self.round
        assert done is not None
        if done.started_at is None:
            done.started_at = self.clock.wall()
            self._store(done.number, RoundStarted(done.seconds))
        if self.game.is_tray and done.desk is None:
            done.desk = self._desk(done)
        self._start_timer(done.seconds - self._elapsed(done))
        return ""

    def _enter_time_up(self) -> str:
        done = self.round
        assert done is not None
        if done.desk is not None:
            done.desk.lock()
        if not done.ended:
            done.ended = True
            left = round(self._deadline - self.clock.monotonic(), 2)
            self._store(done.number, RoundEnded(max(0.0, left)))
            self._cues = []
            self._beep(ALARM)
        if self.game.is_tray and self.has_lists:
            return "lists-locked"
        self.message = "Time is up. Press the button to score."
        return ""

    def _enter_scoring(self) -> str:
        done = self.round
        assert done is not None
        try:
            scored = self._score_tray(done) if self.game.is_tray else self._score_crossword(done)
        except (CuberefError, MachineError) as error:
            log.warning("scoring failed: %s", error)
            self.message = f"{error} Press the button to try again."
            self._beep(TROUBLE)
            return "score-failed"
        self._store(done.number, scored)
        with self.lock:
            self.current_match().record(done, scored)
        self.message = "Press the button for the match table."
        return "scored"

    def _enter_match(self) -> str:
        match = self.current_match()
        if match.over and not match.ended:
            match.ended = True
            self._store(0, MatchEnded(match.winners()))
        self.round = None
        self.message = self.prompt()
        return ""

    def _score_tray(self, done: Round) -> Scored:
        self.work_out(done)
        scores = done.result.scores() if done.result is not None else {}
        return Scored(tuple(scores.items()), done.maximum)

    def _score_crossword(self, done: Round) -> Scored:
        assert done.reading is not None
        image = self._capture()
        photo = self._save_photo(
            f"match{self.current_match().number}-round{done.number}-crossword.jpg", image
        )
        lexicon = self.settings["lexicon"]
        read = self.parts.reader.read_crossword(image, self.game, lexicon)
        assert read.grid is not None and isinstance(done.reading, LooseReading)
        roll = done.reading.roll
        refereed = self.parts.scorer.score_crossword(roll, read.grid, self.game, lexicon)
        done.verdict, done.grid = refereed.verdict, refereed.rows
        done.notes = read.warnings
        found = self.parts.scorer.best_crossword(
            roll, self.game, float(self.settings["best_seconds"]), self.settings["lexicon"]
        )
        score = done.verdict.score or 0
        if done.verdict.valid and score > found.score:
            # The players beat the search's time budget: theirs is the best known crossword.
            found = dataclasses.replace(found, grid=Grid.from_rows(done.grid), score=score)
        done.best = found
        best = Best(
            tuple(found.rows),
            found.score,
            found.upper_bound,
            found.proven_optimal,
            round(found.seconds, 3),
            found.nodes,
        )
        return Scored(((done.player, score),), grid=done.grid, photo=photo, best=best)

    def work_out(self, done: Round) -> None:
        """The round's details from its inputs, the same on the day and after a restart:
        every word on the tray and the lists refereed, or the crossword's verdict."""
        if done.reading is None:
            return
        lexicon = self.settings["lexicon"]
        board = board_of(done.reading)
        if board is not None:
            done.found = self.parts.scorer.solve(board, self.game, lexicon)
            done.found.sort(key=lambda w: (-len(w.word), w.word))
            players = self.players_with_lists()
            if players:
                desk = done.desk or self._desk(done)
                # the teams as they stand now: players may have joined since the roll
                rules = self.current_match().round_rules(self.settings)
                rules = dataclasses.replace(rules, challenge=done.challenge)
                done.result = self.parts.scorer.score_lists(
                    board, self.game, desk.lists(players), rules, lexicon
                )
        elif done.scored is not None and done.scored.grid:
            assert isinstance(done.reading, LooseReading)
            roll = done.reading.roll
            refereed = self.parts.scorer.score_crossword(roll, done.scored.grid, self.game, lexicon)
            done.verdict, done.grid = refereed.verdict, refereed.rows
            best = done.scored.best
            if best is not None and best.grid:
                done.best = BestCrossword(
                    roll,
                    Grid.from_rows(best.grid),
                    best.score,
                    best.upper_bound,
                    best.proven_optimal,
                    best.seconds,
                    best.nodes,
                )

    def _cancel(self) -> State:
        if self.state in IN_ROUND and self.round is not None:
            self._store(self.round.number, RoundCancelled(str(self.state)))
            if self.round.desk is not None:
                self.round.desk.lock()
        self.round = None
        self._cues = []
        self._beep(CANCEL)
        self.message = f"Round cancelled. {self.prompt()}"
        return CANCEL_TO

    # Players and their lists ------------------------------------------------------------

    @property
    def has_lists(self) -> bool:
        """Whether players hand in lists here (phones or the keyboard), so a round is scored
        at 0:00 without waiting for a press."""
        page = self.settings.get("page", {})
        return bool(page.get("enabled") or page.get("keyboard_player"))

    def players_with_lists(self) -> list[str]:
        with self.lock:
            return list(self.match.seats) if self.match and self.has_lists else []

    def join(self, name: str, team: str = "", keyboard: bool = False) -> str:
        """A player joins the match (a phone, or the box's keyboard); returns the name.
        Joining, and changing team, happen between matches and before the first round
        only, at most ``MAX_PLAYERS`` at the table: else ``RuleError`` says why."""
        with self.lock:
            match = self.current_match()
            joined = PlayerJoined(name, team, keyboard)
            seated = name in match.seats
            if seated and match.teams.get(name, "") == team:
                return name  # the same player again (a second phone, a reload)
            if not match.open_to_join or self.state in IN_ROUND:
                if seated:
                    raise RuleError(
                        f"{name} plays on in this match as they began; teams change "
                        "between matches."
                    )
                raise RuleError("A match is under way; join when it ends, at the match table.")
            if not seated and len(match.seats) >= MAX_PLAYERS:
                raise RuleError(
                    f"The table is full ({MAX_PLAYERS} players); join the next match "
                    "when someone leaves."
                )
            match.join(joined)
            self._store(0, joined)
        self.on_change(self)
        return name

    @property
    def keyboard_player(self) -> str:
        return str(self.settings.get("page", {}).get("keyboard_player", ""))

    def keyboard_word(self, word: str) -> None:
        """The keyboard's player handed in ``word``; the screen says how it was taken."""
        desk = self.desk
        if desk is None:
            return
        try:
            typed = desk.add(self.keyboard_player, word)
        except Refused as refused:
            self.keyboard_said = str(refused)
        else:
            self.keyboard_said = f"{typed.word.upper()}: {typed.ruling.reason or 'kept'}"
        self.on_change(self)

    @property
    def join_code(self) -> str:
        """The players' page's code (it stays the same from one match to the next)."""
        with self.lock:
            return (
                self.current_match().started.code
                if self.match is None
                else (self.match.started.code)
            )

    @property
    def desk(self) -> Desk | None:
        """The lists of the round under way, if one is."""
        done = self.round
        return done.desk if done is not None else None

    def _desk(self, done: Round) -> Desk:
        board = board_of(done.reading) if done.reading else None
        assert board is not None
        match = self.current_match()
        rules = dataclasses.replace(match.round_rules(self.settings), challenge=done.challenge)
        desk = Desk(
            board,
            self.game,
            lexicon_for(self.game, self.settings["lexicon"]),
            rules,
            record=lambda payload: self._store(done.number, payload, must=True),
            teams=lambda: dict(match.teams),
        )
        for typed in done.typed:  # words typed before a restart
            if isinstance(typed, WordTyped):
                desk.add(typed.player, typed.word, replaying=True)
            else:
                desk.remove(typed.player, typed.word, replaying=True)
        done.typed = []
        if done.ended:
            desk.lock()
        return desk

    # Corrections ---------------------------------------------------------------------

    def correct(self, index: int, face: Face) -> None:
        """The players say face ``index`` of the roll really shows ``face``."""
        done = self.round
        if done is None or done.reading is None or self.state not in (State.TIMING, State.TIME_UP):
            return
        done.reading = corrected(done.reading, index, face)
        self._store(done.number, FaceCorrected(index, face))
        if done.desk is not None:
            done.desk.board = board_of(done.reading) or done.desk.board
            done.desk.recheck()
        self.on_change(self)

    def mark_challenge(self, index: int) -> None:
        """The players say which cube is Big Boggle's challenge cube."""
        done = self.round
        board = board_of(done.reading) if done is not None and done.reading else None
        if done is None or board is None:
            return
        done.challenge = divmod(index, board.size)
        self._store(done.number, ChallengeMarked(*done.challenge))
        if done.desk is not None:
            done.desk.challenge = done.challenge
            done.desk.recheck()
        self.on_change(self)

    # Resuming ------------------------------------------------------------------------

    def resume(self) -> None:
        """Pick the stored match up where it stopped (after a restart or a power cut)."""
        store = self.parts.store
        if store is None:
            return
        number = store.last_match()
        if number is None:
            self._say_skipped(store)
            self.message = self.prompt()
            return
        events = store.events(number)
        refused: list[tuple[Event, str]] = []
        match, open_round = replay(events, self.game, self._started(), refused)
        for event, reason in refused:
            store.set_aside(event, reason)
        self._say_skipped(store)
        self.match = match
        if events and isinstance(events[-1].payload, Scored) and match.rounds:
            self.round = match.rounds[-1]  # scored, its screen not yet passed
            self.work_out(self.round)
            self.state = State.SCORED
            self.message = "Press the button for the match table."
            return
        if open_round is None:
            self.state = State.MATCH if match.rounds else State.IDLE
            self.message = f"Match resumed. {self.prompt()}"
            if match.needs_starter and match.throws:
                self.state = State.STARTER
                self._enter_starter()
            return
        self.round = open_round
        self.message = "Round resumed after a restart."
        if self.game.is_tray:
            open_round.desk = self._desk(open_round)
        if open_round.ended:
            self.state = State.TIME_UP
            self.handle(self._enter_time_up())
        elif open_round.seconds - self._elapsed(open_round) <= 0:
            self.state = State.TIMING
            self._deadline = self.clock.monotonic()
            self.handle("time-up")
        else:
            self.state = State.TIMING
            self._enter_timing()
        log.info("resumed match %d in %s", match.number, self.state)

    def _say_skipped(self, store: Store) -> None:
        if not store.skipped:
            return
        count = len(store.skipped)
        listed = "; ".join(str(s) for s in store.skipped[:3])
        self.say(
            "skipped",
            f"{count} stored event{'s' if count > 1 else ''} could not be read and "
            f"{'were' if count > 1 else 'was'} set aside ({listed}); the rest of the match "
            "was resumed.",
        )

    # Helpers -------------------------------------------------------------------------

    def _started(self, new_code: bool = True) -> MatchStarted:
        page = self.settings.get("page", {})
        if self.game.is_tray and page.get("enabled"):
            players: tuple[str, ...] = ()  # they join on their phones
        else:
            players = tuple(self.settings["players"])
        code = ""
        if page.get("enabled"):
            from device.page import make_code

            # The next match keeps the code, so the phones at the table stay in.
            code = self.match.started.code if self.match and self.match.started.code else ""
            code = code or (make_code() if new_code else "")
        return MatchStarted(
            self.game.id,
            players,
            int(self.settings["rounds"]),
            int(self.settings["target_score"]),
            bool(self.settings.get("partners", False)),
            code,
        )

    def current_match(self) -> BoxMatch:
        with self.lock:
            if self.match is None or self.match.ended:
                started = self._started()
                number = 1
                if self.parts.store is not None and not self.parts.store.read_only:
                    try:
                        number = self.parts.store.new_match(self.clock.wall(), started)
                    except StoreError as error:
                        self.say("store", str(error))
                self.match = BoxMatch(number, self.game, started)
                page = self.settings.get("page", {})
                if self.keyboard_player and self.game.is_tray:
                    joined = PlayerJoined(self.keyboard_player, page.get("keyboard_team", ""), True)
                    self.match.join(joined)
                    self._store(0, joined)
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

    def _capture(self) -> np.ndarray:
        if self._camera is None:
            self._camera = self.parts.camera()
        return self._camera.capture()

    def _save_photo(self, name: str, image: np.ndarray) -> str | None:
        store = self.parts.store
        if store is None or store.read_only:
            return None
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        if not ok:
            return None
        try:
            saved = store.save_photo(name, encoded.tobytes())
        except StoreError as error:
            self.say("photo", str(error))
            return None
        self.notices.pop("photo", None)
        return saved

    def _store(self, number: int, payload: Payload, must: bool = False) -> None:
        """Write an event; ``must``: the writer is told when it could not be kept."""
        store = self.parts.store
        if store is None or store.read_only:
            return
        match = self.match.number if self.match else 0
        try:
            store.record(match, number, self.clock.wall(), payload)
        except StoreError as error:
            self.say("store", str(error))
            if must:
                raise Refused(str(error)) from None
        else:
            self.notices.pop("store", None)

    def _beep(self, tune: Tune) -> None:
        self.parts.buzzer.play(tune, self.clock.monotonic())
