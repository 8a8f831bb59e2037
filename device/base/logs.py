"""How cuberef logs: each line with its level as the journal's priority when stderr is
the journal (so ``journalctl -p warning`` shows the box's warnings and errors), and the
same failure at most once a minute, whoever causes it (a client flooding the page
writes one line a minute, not hundreds of megabytes).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable

#: logging's levels as syslog's priorities (sd-daemon(3)'s ``<N>`` prefixes).
PRIORITIES = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}
#: The same failure is logged again only after this many seconds.
REPEAT_SECONDS = 60.0


def to_journal() -> bool:
    """Whether stderr is the journal's stream (systemd sets ``JOURNAL_STREAM`` to its
    device and inode)."""
    stream = os.environ.get("JOURNAL_STREAM", "")
    try:
        found = os.fstat(sys.stderr.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return stream == f"{found.st_dev}:{found.st_ino}"


def priority(level: int) -> int:
    """The journal's priority for a logging level (one between two takes the lower).

    >>> priority(logging.WARNING), priority(logging.ERROR + 5)
    (4, 3)
    """
    return next(p for lvl, p in sorted(PRIORITIES.items(), reverse=True) if level >= lvl)


def prefix(level: int) -> str:
    """``<N>`` for the journal, nothing on a terminal."""
    return f"<{priority(level)}>" if to_journal() else ""


class JournalFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        mark = f"<{priority(record.levelno)}>"
        return "\n".join(mark + line for line in text.splitlines()) or mark


class OncePerMinute(logging.Filter):
    """Lets a record through unless the same one (logger, level, message) passed within
    ``REPEAT_SECONDS``; the next one that passes says how many were held back."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self.last: dict[tuple[str, int, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, _key(record))
        now = self.clock()
        seen = self.last.get(key)
        if seen is not None and now - seen[0] < REPEAT_SECONDS:
            self.last[key] = (seen[0], seen[1] + 1)
            return False
        if seen is not None and seen[1]:
            record.msg = f"{_text(record)} (and {seen[1]} more like it in the last minute)"
            record.args = ()
        if len(self.last) > 1000:  # a flood of different lines: forget the oldest
            self.last.clear()
        self.last[key] = (now, 0)
        return True


def _key(record: logging.LogRecord) -> str:
    """What makes two records the same failure: the message with its words, not its
    numbers (tornado's "403 POST /join (10.0.0.9) 0.52ms" is one line however fast).

    >>> _key(logging.makeLogRecord({"msg": "%d %s %.2fms", "args": (403, "GET /", 0.5)}))
    "%d %s %.2fms ('GET /',)"
    """
    args = record.args if isinstance(record.args, tuple) else ()
    words = tuple(a for a in args if not isinstance(a, int | float))
    key = f"{record.msg} {words}" if args else str(record.msg)
    if record.exc_info and record.exc_info[1] is not None:
        key += f" [{type(record.exc_info[1]).__name__}: {record.exc_info[1]}]"
    return key


def _text(record: logging.LogRecord) -> str:
    try:
        text = record.getMessage()
    except (TypeError, ValueError):
        text = str(record.msg)
    if record.exc_info and record.exc_info[1] is not None:
        text += f" [{type(record.exc_info[1]).__name__}: {record.exc_info[1]}]"
    return text


def set_up(verbose: bool) -> None:
    """The root logger as every command uses it."""
    handler = logging.StreamHandler()
    fmt = "%(levelname)s %(name)s: %(message)s"
    handler.setFormatter(JournalFormatter(fmt) if to_journal() else logging.Formatter(fmt))
    handler.addFilter(OncePerMinute())
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, handlers=[handler])
