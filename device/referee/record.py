"""The record of a match: every event worth keeping goes to the store the moment it
happens, and every photo the box takes beside it, as JPEG.

A store that cannot write (a full disk, a pulled card) puts a notice on the screen and the
round goes on; a writer that must know (a word a phone is about to be told is kept) is
told with ``Refused``. A store on a read-only card, or none at all, records nothing.
"""

from __future__ import annotations

import cv2
import numpy as np

from device.base.clock import Clock
from device.base.strings import say
from device.referee.lists import Refused
from device.referee.notices import Notices
from device.store.events import Event, MatchStarted, Payload
from device.store.store import Store, StoreError


class Record:
    def __init__(self, store: Store | None, clock: Clock, notices: Notices) -> None:
        self.store = store if store is not None and not store.read_only else None
        #: The store to read back from (a read-only one too).
        self.source = store
        self.clock = clock
        self.notices = notices
        #: The match the events belong to (0: the table before any match).
        self.match = 0

    def write(self, round_: int, payload: Payload, must: bool = False) -> None:
        """Write an event of the current match; ``must``: raise ``Refused`` when it
        could not be kept, so its writer can say so."""
        if self.store is None:
            return
        try:
            self.store.record(self.match, round_, self.clock.wall(), payload)
        except StoreError as error:
            self.notices.say("store", str(error))
            if must:
                raise Refused(str(error)) from None
        else:
            self.notices.clear("store")

    def rule_word(self, language: str, word: str, allowed: bool | None) -> None:
        """Keep the table's ruling on a word in the house list (None forgets it)."""
        if self.store is None:
            return
        try:
            self.store.rule_word(language, word, allowed, self.clock.wall(), self.match)
        except StoreError as error:
            self.notices.say("store", str(error))

    def new_match(self, started: MatchStarted) -> int:
        """Begin a match's record; its number (1 where nothing can be stored)."""
        self.match = 1
        if self.store is not None:
            try:
                self.match = self.store.new_match(self.clock.wall(), started)
            except StoreError as error:
                self.notices.say("store", str(error))
        return self.match

    def photo(self, name: str, image: np.ndarray) -> str | None:
        """Keep ``image`` as a JPEG; the name the events refer to it by, or None."""
        if self.store is None:
            return None
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        if not ok:
            return None
        try:
            saved = self.store.save_photo(name, encoded.tobytes())
        except StoreError as error:
            self.notices.say("photo", str(error))
            return None
        self.notices.clear("photo")
        return saved

    def latest(self) -> tuple[int, list[Event]]:
        """The latest match's number and events (0 and the table's events, or none,
        before any match), to resume from."""
        if self.source is None:
            return 0, []
        number = self.source.latest_match()
        self.match = number
        return number, self.source.events(number)

    def set_aside(self, event: Event, reason: str) -> None:
        """Quarantine a stored event that reads back but cannot be replayed."""
        if self.source is not None:
            self.source.set_aside(event, reason)

    def skipped(self) -> str:
        """A sentence for the stored events that could not be read back, if any."""
        skipped = self.source.skipped if self.source is not None else []
        if not skipped:
            return ""
        listed = "; ".join(str(s) for s in skipped[:3])
        if len(skipped) == 1:
            return say("event-set-aside", listed=listed)
        return say("events-set-aside", n=len(skipped), listed=listed)
