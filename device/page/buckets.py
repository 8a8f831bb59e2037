"""How fast a player may send words to the players' page: a token bucket each."""

from __future__ import annotations

import threading
import time

#: Words a phone may send: a burst of this many, then this many a second.
BURST, PER_SECOND = 20, 5.0


class Bucket:
    """A token bucket: how fast one phone may send words."""

    def __init__(self) -> None:
        self.tokens, self.at = float(BURST), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.at) * PER_SECOND)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Buckets:
    """One token bucket for each player: how fast each may send words, however many
    times (or on however many phones) they joined."""

    def __init__(self) -> None:
        self.buckets: dict[str, Bucket] = {}
        self.lock = threading.Lock()

    def allow(self, player: str) -> bool:
        with self.lock:
            return self.buckets.setdefault(player, Bucket()).take()
