"""What is wrong, by where it came from: the screen shows it in a red band.

Each source says its sentence until it clears it: ``start-up`` (a fallback) lasts until a
roll is read, ``store`` and ``photo`` until the store writes again, ``failsafe`` until the
next tap, ``page`` while the players' page is down.

>>> notices = Notices()
>>> notices.say("store", "The disk is full.")
>>> notices.say("page", "The page is down.")
>>> notices.clear("store")
>>> notices.text
'The page is down.'
"""

from __future__ import annotations

import logging

log = logging.getLogger("cuberef.notices")


class Notices:
    def __init__(self) -> None:
        self._by_source: dict[str, tuple[str, ...]] = {}

    def say(self, source: str, *sentences: str) -> None:
        """Put ``sentences`` on the screen (and in the log) until their source clears them;
        each is kept apart, so that the screen can say each in the table's language."""
        for sentence in sentences:
            log.error(sentence)
        self._by_source[source] = sentences

    def clear(self, source: str) -> None:
        self._by_source.pop(source, None)

    def __contains__(self, source: str) -> bool:
        return source in self._by_source

    @property
    def sentences(self) -> tuple[str, ...]:
        """Every notice's sentences."""
        return tuple(sentence for said in self._by_source.values() for sentence in said)

    @property
    def text(self) -> str | None:
        """Every notice, as one line of sentences; None when nothing is wrong."""
        return " ".join(self.sentences) or None
