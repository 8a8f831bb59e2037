"""A round's lists and results: the players' lists opened for the timer, and at the end
the engine's verdict, worked out the same on the day and after a restart.

Boggle: every word on the tray and each list refereed (crossing-off, teams, handicap, the
challenge cube). Ad-Lib: the finished crossword photographed, read (confirming the turn's
live reading), refereed against the roll and set beside the best crossword the search
finds for it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from device.config.sections import Settings
from device.parts.camera import Camera
from device.referee.flow import Event
from device.referee.lists import Desk
from device.referee.matchplay import BoxMatch, Round
from device.referee.record import Record
from device.seams.live_turn import LiveTurn, rolled
from device.seams.readings import board_of
from device.seams.seams import Reader, Scorer, lexicon_for
from device.store.events import Best, Payload, Scored, WordTyped
from engine.adlib import Grid
from engine.adlib.best import BestCrossword
from engine.games import Game
from engine.house import HouseList
from vision import LooseReading


class Scoring:
    def __init__(
        self,
        game: Game,
        settings: Settings,
        reader: Reader,
        scorer: Scorer,
        record: Record,
        camera: Callable[[], Camera],
    ) -> None:
        self.game = game
        self.settings = settings
        self.reader = reader
        self.scorer = scorer
        self.record = record
        self.camera = camera
        #: The table read live while an Ad-Lib turn's timer runs (None at other times).
        self.live: LiveTurn | None = None
        #: The table's house list as it stands (the referee's disputes keep it).
        self.house: Callable[[], HouseList | None] = lambda: None

    def desk(self, done: Round, match: BoxMatch) -> Desk:
        """The round's lists, open while its timer runs, with every word typed before a
        restart put back on them."""
        board = board_of(done.reading) if done.reading else None
        assert board is not None

        def write(payload: Payload) -> None:
            self.record.write(done.number, payload, must=True)

        rules = dataclasses.replace(
            match.round_rules(self.settings), challenge=done.challenge, house=self.house()
        )
        lexicon = lexicon_for(self.game, self.settings.lexicon)
        desk = Desk(board, self.game, lexicon, rules, write, teams=lambda: dict(match.teams))
        for typed in done.typed:
            if isinstance(typed, WordTyped):
                desk.add(typed.player, typed.word, replaying=True)
            else:
                desk.remove(typed.player, typed.word, replaying=True)
        done.typed = []
        if done.ended:
            desk.lock()
        return desk

    def watch(self, done: Round) -> None:
        """Read the table live while an Ad-Lib turn's timer runs: the screen shows the
        crossword's running score and the cubes not yet used, and 0:00 scores it."""
        if self.game.is_tray or self.live is not None:
            return
        self.live = LiveTurn.watching(
            lambda: self.camera().capture_live(),
            self.reader,
            self.game,
            lambda: rolled(done.reading),  # the roll as the players correct it
            self.settings.lexicon,
        )

    def at_once(self, has_lists: bool) -> Event | None:
        """At 0:00, what scores the round without a press: the players' lists (``has_lists``),
        locked now, or a crossword read live as it was laid (the first time only: after a
        failure, a press scores again); None where a press must. Live reading stops."""
        if self.game.is_tray:
            return Event.LISTS_LOCKED if has_lists else None
        if self.live is None:
            return None
        self.live.stop()
        stable = self.live.stable
        ready = not self.live.used and stable is not None and bool(stable.grid)
        return Event.LIVE_READ if ready else None

    def unwatch(self) -> None:
        """The turn is over (scored, or cancelled): its live reading ends."""
        if self.live is not None:
            self.live.stop()
            self.live = None

    def tray(self, done: Round, match: BoxMatch, players: list[str]) -> Scored:
        """The lists refereed with the table's rulings as they stand, which are kept with
        the scores (the round is scored again only if one of them is taken back)."""
        self.work_out(done, match, players)
        scores = done.result.scores() if done.result is not None else {}
        return Scored(tuple(scores.items()), done.maximum, house=self.rulings(done, players))

    def rulings(self, done: Round, players: list[str]) -> tuple[tuple[str, bool], ...]:
        """The table's rulings, as they stand, on the words of the round's lists."""
        house = self.house()
        if house is None or done.desk is None:
            return ()
        return house.bearing_on(word for _name, words in done.desk.lists(players) for word in words)

    def crossword(self, done: Round, match: BoxMatch) -> Scored:
        """The finished crossword photographed at full resolution, read and refereed; with
        the turn read live, the photo confirms its last stable reading (or, where a hand
        is in it, that reading is scored)."""
        assert isinstance(done.reading, LooseReading)
        image = self.camera().capture()
        photo = self.record.photo(f"match{match.number}-round{done.number}-crossword.jpg", image)
        lexicon = self.settings.lexicon

        def read_still(still: np.ndarray) -> LooseReading:
            return self.reader.read_crossword(still, self.game, lexicon)

        live = self.live
        if live is not None:
            live.used = True
        read, note = live.final(image, read_still) if live is not None else (read_still(image), "")
        assert read.grid is not None
        roll = done.reading.roll
        refereed = self.scorer.score_crossword(roll, read.grid, self.game, lexicon)
        done.verdict, done.grid = refereed.verdict, refereed.rows
        done.notes = (*read.warnings, note) if note else read.warnings
        self.unwatch()  # read and refereed: the turn's live reading is done
        found = self.scorer.best_crossword(roll, self.game, self.settings.best_seconds, lexicon)
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

    def work_out(self, done: Round, match: BoxMatch, players: list[str]) -> None:
        """The round's details from its inputs, the same on the day and after a restart:
        every word on the tray and the lists refereed, or the crossword's verdict."""
        if done.reading is None:
            return
        lexicon = self.settings.lexicon
        board = board_of(done.reading)
        if board is not None:
            done.found = self.scorer.solve(board, self.game, lexicon)
            done.found.sort(key=lambda w: (-len(w.word), w.word))
            if players:
                if done.desk is None:  # kept: ruled on again if a ruling is taken back
                    done.desk = self.desk(done, match)
                desk = done.desk
                rules = match.round_rules(self.settings)
                rules = dataclasses.replace(rules, challenge=done.challenge, house=self.house())
                done.result = self.scorer.score_lists(
                    board, self.game, desk.lists(players), rules, lexicon
                )
        elif done.scored is not None and done.scored.grid:
            assert isinstance(done.reading, LooseReading)
            roll = done.reading.roll
            refereed = self.scorer.score_crossword(roll, done.scored.grid, self.game, lexicon)
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
