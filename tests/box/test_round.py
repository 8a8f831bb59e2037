"""Whole rounds on a fake clock, with the real button on MockFactory and test doubles
for the reader and the solvers."""

from __future__ import annotations

import errno
import logging
import sqlite3
from pathlib import Path

import pytest

from device.base.clock import FakeClock
from device.box.assemble import assemble
from device.config import settings as config
from device.config.sections import Settings, sections
from device.parts.buzzer import Buzzer, PrintedSound
from device.parts.camera import CameraError
from device.referee import flow
from device.referee.flow import State
from device.seams.readings import doubtful_of
from device.store.store import Store
from engine.errors import MachineError
from engine.faces import Face

from .conftest import ListReader, loose_reading, tray_reading


def box_settings(tmp_path: Path, photos: Path, game: str = "boggle") -> dict:
    """A test box's settings as a TOML document (every section there, to change in place);
    ``settings_of`` makes them the box's settings, checked as a file's are."""
    chosen: dict = {name: {} for name, _kind in sections()}
    chosen["game"] = game
    chosen["store"]["folder"] = str(tmp_path / "store")
    chosen["camera"].update(backend="folder", folder=str(photos))
    chosen["screen"].update(backend="dummy", fullscreen=False)
    chosen["hold_seconds"] = 0.5
    chosen["best_seconds"] = 0.3
    return chosen


def settings_of(document: dict) -> Settings:
    return config.overlay(config.defaults(), document)


def build(
    tmp_path,
    photos,
    factory=None,
    reader=None,
    scorer=None,
    game="boggle",
    clock=None,
    settings=None,
    **kw,
):
    chosen = settings or box_settings(tmp_path, photos, game)
    if factory is None:
        chosen["button"]["backend"] = "keys"
    clock = clock or FakeClock()
    lines: list[str] = []
    made = assemble(
        settings_of(chosen),
        clock,
        reader=reader or ListReader([tray_reading(doubtful=(3,))]),
        scorer=scorer,
        buzzer=Buzzer(PrintedSound(write=lines.append)),
        pin_factory=factory,
        **kw,
    )
    return made, clock, lines


def run_out_the_clock(made, clock, step=0.25):
    while made.referee.state is State.TIMING:
        clock.advance(step)
        made.box.step()


def tap(made):
    """A press as a player makes it: once the screen has settled, and not in the first
    seconds of a round (a press sooner is the same press again, ignored)."""
    referee = made.referee
    wait = flow.SETTLE_SECONDS - (referee.clock.monotonic() - referee.machine.changed_at)
    if referee.state is State.TIMING:
        wait = max(wait, flow.GRACE_SECONDS - referee._timer_run())
    if wait > 0:
        referee.clock.advance(wait + 0.01)
    made.box.events.put("tap")
    made.box.step()


def test_a_press_starts_the_round_and_a_round_runs_to_the_table(tmp_path, photos, factory):
    made, clock, beeps = build(tmp_path, photos, factory)
    pin = factory.pin(17)
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()  # the button's thread puts a tap on the queue at once
    made.box.step()
    assert made.referee.state is State.TIMING
    assert beeps[0].startswith("buzzer: start")
    run_out_the_clock(made, clock)
    assert made.referee.state is State.TIME_UP
    assert [b.split()[1] for b in beeps] == ["start", "one-minute", *["tick"] * 10, "alarm"]
    tap(made)
    assert made.referee.state is State.SCORED
    found = [w.word for w in made.referee.round.found]
    assert "dart" in found and found[0] == max(found, key=len)
    tap(made)
    assert made.referee.state is State.MATCH
    kinds = [e.kind for e in made.store.events(1)]
    assert kinds == ["match-started", "roll-read", "round-started", "round-ended", "scored"]
    assert (made.store.photos / "match1-round1-roll.jpg").is_file()
    made.close()


def test_a_hold_cancels_the_round(tmp_path, photos, factory):
    made, clock, beeps = build(tmp_path, photos, factory)
    tap(made)
    assert made.referee.state is State.TIMING
    factory.pin(17).drive_low()
    assert made.box.events.get(timeout=2) == "hold"  # the hold thread, waited on
    made.referee.handle("hold")
    factory.pin(17).drive_high()
    assert made.referee.state is State.IDLE
    assert made.store.events(1)[-1].kind == "round-cancelled"
    assert "cancel" in beeps[-1]
    made.close()


def test_ad_lib_scores_the_crossword_and_shows_the_best(tmp_path, photos):
    roll = "M O N E Y S T E B U J O Q"
    grid = ("S....", "T.B.J", "E.U.O", "MONEY")
    reader = ListReader([loose_reading(roll, doubtful=(3,))], [loose_reading(roll, grid=grid)])
    chosen = box_settings(tmp_path, photos, "adlib")
    chosen["players"] = ["Ann"]  # solitaire: no roll-off for who starts
    made, clock, _ = build(tmp_path, photos, reader=reader, settings=chosen)
    tap(made)
    run_out_the_clock(made, clock)
    tap(made)
    assert made.referee.state is State.SCORED
    assert made.referee.round.verdict.score == 31
    assert made.referee.round.best.score >= 31
    tap(made)
    assert made.referee.match.standings() == [("Ann", 31)]
    scored = made.store.events(1)[-1]
    assert scored.kind == "scored" and scored.payload.best.score >= 31
    assert (made.store.photos / "match1-round1-crossword.jpg").is_file()
    made.close()


def test_a_pulled_camera_says_so_and_asks_again(tmp_path, photos, caplog):
    made, clock, beeps = build(tmp_path, photos)
    made.referee._camera = _Pulled()  # it worked when opened; now the cable is out
    with caplog.at_level(logging.WARNING):
        tap(made)
    assert made.referee.state is State.IDLE
    assert "camera" in made.referee.message and "press the button" in made.referee.message.lower()
    assert "camera" in caplog.text
    assert made.box.screen.shown.message == made.referee.message
    assert "trouble" in beeps[-1]
    made.close()


def test_a_usb_camera_that_is_not_there_is_a_sentence(tmp_path, photos):
    chosen = box_settings(tmp_path, photos)
    made, clock, _ = build(tmp_path, photos, settings=chosen)
    chosen["camera"].update(backend="usb", usb_index=63)  # opened on first use
    made.close()
    again, _, _ = build(tmp_path, photos, clock=clock, settings=chosen)
    tap(again)
    assert again.referee.state is State.IDLE
    assert "no USB camera number 63" in again.box.screen.shown.message
    again.close()


class _Pulled:
    """A camera whose cable came out after it was opened."""

    name = "usb"

    def capture(self):
        raise CameraError("USB camera 0 gave no picture; check its cable and press again.")

    def close(self):
        pass


def test_a_missing_model_file_is_a_sentence_not_a_crash(tmp_path, photos):
    class NoModel(ListReader):
        def read_roll(self, image, game):
            raise MachineError("The face model models/faces.onnx is missing; reinstall cuberef.")

    made, _, _ = build(tmp_path, photos, reader=NoModel([]))
    tap(made)
    assert made.referee.state is State.IDLE
    assert "model" in made.referee.message
    made.close()


def test_a_full_disk_keeps_the_timer_and_the_stored_rounds(tmp_path, photos, caplog):
    made, clock, beeps = build(tmp_path, photos, reader=ListReader([tray_reading()] * 2))
    tap(made)
    run_out_the_clock(made, clock)
    tap(made)
    tap(made)
    assert len(made.store.events(1)) == 5

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    made.store.writer = full
    made.store.db = FullDatabase(made.store.db)  # and SQLite finds no room either
    tap(made)
    assert made.referee.state is State.TIMING
    assert "disk is full" in made.referee.notice
    assert "disk is full" in made.box.screen.shown.notice
    assert "disk is full" in caplog.text
    run_out_the_clock(made, clock)
    assert made.referee.state is State.TIME_UP and "alarm" in beeps[-1]
    reopened = Store(tmp_path / "store")
    assert [e.kind for e in reopened.events(1)][:5] == [
        "match-started",
        "roll-read",
        "round-started",
        "round-ended",
        "scored",
    ]
    made.close()


class FullDatabase:
    """A connection on a full card: every write fails as SQLite reports it."""

    def __init__(self, db):
        self.db = db

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith("INSERT"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def close(self):
        self.db.close()


def test_a_restart_resumes_the_timer_where_it_was(tmp_path, photos):
    made, clock, _ = build(tmp_path, photos)
    tap(made)
    clock.advance(100)
    made.box.step()
    made.close()
    again, _, beeps = build(tmp_path, photos, clock=clock)
    assert again.referee.state is State.TIMING
    assert again.referee.seconds_left == pytest.approx(80, abs=0.5)
    assert again.referee.round.reading.board[0, 0] == Face("T")
    run_out_the_clock(again, clock)
    assert again.referee.state is State.TIME_UP
    assert "start" not in " ".join(beeps)
    again.close()


def test_a_touch_on_a_doubtful_face_corrects_it(tmp_path, photos):
    made, clock, _ = build(tmp_path, photos)
    tap(made)
    cell = made.box.screen.layout.cells[3]
    assert made.box.touch(cell.center)
    assert made.referee.round.reading.board[0, 3] != Face("B")
    assert 3 not in doubtful_of(made.referee.round.reading)
    assert made.store.events(1)[-1].kind == "face-corrected"
    made.close()


def test_the_buzzer_pin_follows_the_round_schedule_on_a_fake_clock(tmp_path, photos, factory):
    from device.base.tunes import timer_cues
    from device.parts.buzzer import PassiveSound

    chosen = box_settings(tmp_path, photos)
    chosen["timer_seconds"] = 15
    clock = FakeClock(start=0.0)
    made = assemble(
        settings_of(chosen),
        clock,
        reader=ListReader([tray_reading()]),
        buzzer=Buzzer(PassiveSound(18, pin_factory=factory)),
        pin_factory=factory,
    )
    pin = factory.pin(18)
    tap(made)
    assert pin.state and pin.frequency == 1760  # the start beep, at once
    onsets: list[tuple[float, float]] = [(0.0, pin.frequency)]
    sounding = True
    for step in range(1, 1800):
        now = step * 0.01
        clock.advance(now - clock.monotonic())
        made.box.step()
        if pin.state and not sounding:
            onsets.append((now, pin.frequency))
        sounding = bool(pin.state)
    expected = []
    for at, tune in timer_cues(15):
        for note in tune.notes:
            if not note.is_rest:
                expected.append((at, note.hertz))
            at += note.seconds
    assert [hz for _, hz in onsets] == [hz for _, hz in expected]
    for (heard, _), (due, _) in zip(onsets, expected, strict=True):
        assert heard == pytest.approx(due, abs=0.011)  # within one 10 ms step
    assert made.referee.state is State.TIME_UP
    made.close()
