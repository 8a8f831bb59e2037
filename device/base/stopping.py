"""How the ``cuberef`` command ends when it is told to stop, at any moment from its first
import on: Ctrl-C (SIGINT) says "stopped." and exits 130; SIGTERM (``systemctl stop``)
says "stopped by SIGTERM." and exits 0, as the running box does. Never a traceback, and
the process always ends.

Two stages:

- From the package's first import (``device/__init__``) until ``cli.main`` is in its
  ``try``, nothing is open: a signal says its sentence and ends the process at once,
  never a ``KeyboardInterrupt`` half-way through an import.
- Then a command closes what it opened (the box its parts, the search its workers):
  SIGINT raises ``KeyboardInterrupt``, SIGTERM ``Stopped``, and ``main`` says the
  sentence and calls ``end``: the exit functions run (pins, workers, logs), then the
  process exits with the code. Python itself would end a process through which a
  ``KeyboardInterrupt`` once passed out of exec'd code (dataclasses, namedtuple) by
  SIGINT (-2) whatever ``main`` returned. The signal also arms a watchdog that ends the
  process ``GRACE`` seconds later, should anything hang on the way out.

Only the command itself: a program that imports ``device`` (the tests) keeps Python's
own handling, and a signal the shell has the command ignore (a background job) stays
ignored.
"""

from __future__ import annotations

# Only what the interpreter has loaded before any of cuberef: this module is the first
# import, and a Ctrl-C in its own import is still Python's.
import os
import signal
import sys

#: What each signal says, and the exit code it ends with.
SAID = {
    signal.SIGINT: ("cuberef: stopped.", 130),
    signal.SIGTERM: ("cuberef: stopped by SIGTERM.", 0),
}
#: Seconds from the signal to the end of the process, whatever hangs.
GRACE = 10.0

_state = {"answering": False, "armed": False}
_received: list[signal.Signals] = []
_hooks = [sys.unraisablehook]  # Python's own, for what cannot be raised


class Stopped(BaseException):
    """SIGTERM (``systemctl stop``) arrived: leave whatever the command was doing."""


def is_the_command() -> bool:
    """Whether this process is the ``cuberef`` command: its console script, or ``python
    -m device.cli`` (not a worker it spawns, which is given the command's ``argv``).

    >>> is_the_command()
    False
    """
    words: list[str] = list(getattr(sys, "orig_argv", []))[1:]
    for number, word in enumerate(words):
        if word == "-m":
            return bool(words[number + 1 : number + 2] == ["device.cli"])
        if word == "-c":
            return False
        if not word.startswith("-"):
            return os.path.basename(word) == "cuberef"
    return False


def _say_and_end(signum: int, _frame: object) -> None:
    sentence, code = SAID[signal.Signals(signum)]
    os.write(2, f"{sentence}\n".encode())
    os._exit(code)


def guard_start() -> None:
    """Stage one, from the first import: a signal ends the process with its sentence."""
    _take(signal.SIGINT, _say_and_end)
    _take(signal.SIGTERM, _say_and_end)


def answer_signals() -> None:
    """Stage two, once ``main`` can answer them: exceptions each command unwinds by."""
    _state["answering"] = True
    _take(signal.SIGINT, _interrupted)
    _take(signal.SIGTERM, terminated)
    _hooks[0] = sys.unraisablehook
    sys.unraisablehook = _raised_again


def _raised_again(unraisable: sys.UnraisableHookArgs) -> None:
    """A stop raised where Python cannot raise it (a weakref callback, a finalizer, as an
    import lets go of its lock) was printed as "Exception ignored" and lost: the signal
    is sent again a moment later, from a thread, to be raised where it can be."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt | Stopped) and _received:
        import threading

        again = threading.Timer(0.05, os.kill, (os.getpid(), _received[0]))
        again.daemon = True
        again.start()
        return
    _hooks[0](unraisable)


def _take(signum: signal.Signals, handler: signal._HANDLER) -> None:
    """Answer ``signum`` with ``handler`` unless it is ignored (or someone else's)."""
    own = (signal.default_int_handler, signal.SIG_DFL, _say_and_end, _interrupted, terminated)
    try:
        if signal.getsignal(signum) in own:
            signal.signal(signum, handler)
    except ValueError:  # not the main thread: not the command's start
        return


def received() -> signal.Signals | None:
    """The signal that stopped the command (stage two), if one did: whatever exception
    then reaches ``main`` is the stop, for Python may make another of it (3.11 wraps one
    raised in a class's ``__set_name__``, as a dataclass is made, in a RuntimeError)."""
    return _received[0] if _received else None


def _interrupted(signum: int, _frame: object) -> None:
    _arm(signum)
    raise KeyboardInterrupt


def terminated(signum: int, _frame: object) -> None:
    """SIGTERM: ``Stopped`` (the box's serve loop answers it so in tests too)."""
    if _state["answering"]:
        _arm(signum)
    raise Stopped(signal.Signals(signum).name)


def _arm(signum: int) -> None:
    """End the process ``GRACE`` seconds from now, should it still be running."""
    import threading
    import time

    if _state["armed"]:
        return
    _state["armed"] = True
    _received.append(signal.Signals(signum))

    def watch() -> None:
        time.sleep(GRACE)
        _say_and_end(signum, None)

    threading.Thread(target=watch, name="cuberef-stop", daemon=True).start()


def hold() -> None:
    """No further signal interrupts the way out (the second Ctrl-C of an impatient hand)."""
    import contextlib

    for signum in SAID:
        with contextlib.suppress(ValueError):
            signal.signal(signum, signal.SIG_IGN)


def end(code: int) -> None:
    """End the stopped command: its exit functions run, then the process exits."""
    import atexit

    _flush()
    atexit._run_exitfuncs()
    _flush()
    os._exit(code)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe, a closed stream
            continue
