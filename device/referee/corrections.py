"""What the players put right on the screen during a round: a cube the reader misread
(touch it: the next face its cubes carry), and Big Boggle's challenge cube.

Each correction is stored at once and the round's lists are ruled on again, so a word
that was "not on the tray" because of a misread cube counts the moment it is fixed.
"""

from __future__ import annotations

from device.referee.matchplay import Round
from device.referee.record import Record
from device.seams.readings import board_of, corrected
from device.store.events import ChallengeMarked, FaceCorrected
from engine.faces import Face


class Corrections:
    def __init__(self, record: Record) -> None:
        self.record = record

    def face(self, done: Round, index: int, face: Face) -> None:
        """Face ``index`` of the roll really shows ``face``."""
        if done.reading is None:
            return
        done.reading = corrected(done.reading, index, face)
        self.record.write(done.number, FaceCorrected(index, face))
        board = board_of(done.reading)
        if done.desk is not None and board is not None:
            done.desk.board = board
            done.desk.recheck()

    def challenge(self, done: Round, index: int) -> None:
        """Cube ``index`` of the tray is the challenge cube."""
        board = board_of(done.reading) if done.reading else None
        if board is None:
            return
        done.challenge = divmod(index, board.size)
        self.record.write(done.number, ChallengeMarked(*done.challenge))
        if done.desk is not None:
            done.desk.challenge = done.challenge
            done.desk.recheck()
