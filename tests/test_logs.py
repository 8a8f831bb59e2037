"""Issue 32's log: levels reach the journal as priorities, and the same failure is
logged at most once a minute whoever causes it."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

from device.base.logs import REPEAT_SECONDS, JournalFormatter, OncePerMinute

ROOT = Path(__file__).resolve().parents[1]


def record(message: str, level: int = logging.ERROR, *args: object) -> logging.LogRecord:
    return logging.LogRecord("cuberef.page", level, __file__, 1, message, args, None)


def test_levels_become_journal_priorities():
    formatter = JournalFormatter("%(message)s")
    shown = [
        formatter.format(record("x", level))
        for level in (logging.CRITICAL, logging.ERROR, logging.WARNING, logging.INFO)
    ]
    assert shown == ["<2>x", "<3>x", "<4>x", "<6>x"]
    assert formatter.format(record("a\nb", logging.WARNING)) == "<4>a\n<4>b"


def test_the_same_failure_is_logged_at_most_once_a_minute():
    now = [0.0]
    once = OncePerMinute(clock=lambda: now[0])
    passed = []
    for second in range(0, 180):  # a flood: ten a second for three minutes
        now[0] = float(second)
        for _ in range(10):
            item = record("accept failed: %s", logging.ERROR, "Too many open files")
            if once.filter(item):
                passed.append(item.getMessage())
    assert len(passed) == 3  # at 0, 60 and 120 s
    assert passed[1].endswith(
        f"(and {int(REPEAT_SECONDS) * 10 - 1} more like it in the last minute)"
    )
    assert once.filter(record("another failure"))  # a different line is not held back
    timed = [record("%d %s %.2fms", logging.WARNING, 403, "POST /join (10.0.0.9)", t / 7)
             for t in range(50)]  # fmt: skip
    assert sum(once.filter(line) for line in timed) == 1  # tornado's flood of refusals


def test_the_command_line_writes_priorities_when_stderr_is_the_journal(tmp_path):
    """systemd sets JOURNAL_STREAM to stderr's device and inode; a refusal is then <3>."""
    err = tmp_path / "err"
    with open(err, "w") as stream:
        found = os.fstat(stream.fileno())
        env = {**os.environ, "JOURNAL_STREAM": f"{found.st_dev}:{found.st_ino}"}
        command = [sys.executable, "-m", "device.cli", "config", "--check", "--config", "/nope"]
        subprocess.run(command, stderr=stream, env=env, cwd=ROOT, check=False)
    assert err.read_text().startswith("<3>cuberef: ")
    plain = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)
    assert plain.stderr.startswith("cuberef: ")  # a terminal sees no prefix
