"""Issue 42: Ctrl-C or SIGTERM at any moment of the box's start-up, from cuberef's first
import on, ends with cuberef's own sentence and exit code (130 for Ctrl-C, 0 for
SIGTERM as a running box's stop), never a traceback, and the process always ends.

The moments are counted from the one the command first answers a signal itself (it then
catches SIGTERM, which Python alone does not): before that it is Python's own start-up
(the interpreter and its site packages), not cuberef's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).with_name("cuberef")  # the console script, where installed
#: Seconds after cuberef's first import: the imports, the settings, the store, the
#: screen, the camera and the page, and the box running.
MOMENTS = [0.0, 0.005, 0.02, 0.05, *(round(0.1 * n, 1) for n in range(1, 16))]


def caught(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    return int(next(line for line in status.splitlines() if line.startswith("SigCgt:"))[7:], 16)


def start(tmp_path: Path, photos: Path, number: int) -> tuple[subprocess.Popen, Path]:
    store = tmp_path / f"store-{number}"
    config = tmp_path / f"box-{number}.toml"
    config.write_text(
        f'[store]\nfolder = "{store}"\n[screen]\nbackend = "dummy"\n', encoding="utf-8"
    )
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env["GPIOZERO_PIN_FACTORY"] = "mock"
    scripted = number % 2 and SCRIPT.exists()
    command = [str(SCRIPT)] if scripted else [sys.executable, "-m", "device.cli"]
    command += ["run", "--simulate", "--config", str(config), "--photos", str(photos)]
    box = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    return box, store


def answering(box: subprocess.Popen) -> bool:
    """Wait for the command's first import: from then on it answers SIGTERM itself."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and box.poll() is None:
        try:
            if caught(box.pid) >> (signal.SIGTERM - 1) & 1:
                return True
        except (OSError, StopIteration):
            pass
        time.sleep(0.001)
    return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
@pytest.mark.parametrize(
    ("signum", "sentence", "code"),
    [(signal.SIGINT, "cuberef: stopped.", 130), (signal.SIGTERM, "stopped by SIGTERM", 0)],
    ids=["ctrl-c", "sigterm"],
)
def test_a_signal_at_any_moment_of_start_up_is_the_sentence_and_the_code(
    tmp_path, photos, signum, sentence, code
):
    seen = []
    for number, after in enumerate(MOMENTS):
        box, store = start(tmp_path, photos, number)
        try:
            assert answering(box), "the command never answered SIGTERM"
            early = not store.exists()
            time.sleep(after)
            os.killpg(box.pid, signum)  # as a terminal's Ctrl-C, or systemd, sends it
            _, err = box.communicate(timeout=30)  # the process always ends
        finally:
            if box.poll() is None:
                os.killpg(box.pid, signal.SIGKILL)
        assert early, "SIGTERM was answered only once the store was open"
        assert "Traceback" not in err and "KeyboardInterrupt" not in err, (after, err)
        assert box.returncode == code, (after, box.returncode, err)
        assert sentence in err.strip().splitlines()[-1], (after, err)
        seen.append((after, (store / "matches.db").exists()))
    assert any(not opened for _, opened in seen) and any(opened for _, opened in seen), seen


HANGS_ON_THE_WAY_OUT = """
import atexit, sys, time
from device.base import stopping
stopping.GRACE = 1.0
stopping.answer_signals()
atexit.register(time.sleep, 120)  # a part that never lets go
try:
    print("ready", flush=True)
    time.sleep(120)
except (KeyboardInterrupt, stopping.Stopped) as stop:  # as cuberef's main answers
    stopping.hold()
    print("cuberef: stopped.", file=sys.stderr)
    stopping.end(130 if isinstance(stop, KeyboardInterrupt) else 0)
"""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_the_process_ends_even_where_something_hangs_on_the_way_out(signum):
    """The box once did not end after a Ctrl-C: the signal arms a watchdog."""
    child = subprocess.Popen(
        [sys.executable, "-c", HANGS_ON_THE_WAY_OUT],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
        started = time.monotonic()
        child.send_signal(signum)
        _, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    assert time.monotonic() - started < 10
    code = 130 if signum == signal.SIGINT else 0
    assert child.returncode == code and "stopped." in err and "Traceback" not in err, err


@pytest.mark.parametrize(
    ("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 0)], ids=["ctrl-c", "sigterm"]
)
def test_a_stop_python_made_into_another_exception_is_still_the_stop(
    monkeypatch, capsys, signum, code
):
    """A KeyboardInterrupt raised as a dataclass is made reached main as a RuntimeError
    (Python 3.11 wraps what __set_name__ raises): 'something went wrong inside cuberef'
    and a traceback. After a stop signal, whatever reaches main is the stop."""
    from device.base import stopping
    from device.cli import main
    from device.commands import roll

    class Field:
        def __set_name__(self, owner: type, name: str) -> None:
            raise KeyboardInterrupt if signum == signal.SIGINT else stopping.Stopped("SIGTERM")

    def interrupted_import(_args: object) -> int:
        type("Settings", (), {"folder": Field()})  # as a module the command imports is run
        return 0

    monkeypatch.setattr(roll, "run", interrupted_import)
    monkeypatch.setattr(stopping, "_received", [signum])  # the signal, as the handler keeps it
    assert main(["roll", "--game", "boggle"]) == code
    err = capsys.readouterr().err
    assert "stopped" in err and "went wrong" not in err and "Traceback" not in err, err


SIGNAL_IN_A_CALLBACK = """
import signal, sys, time, weakref
from device.cli import main
from device.commands import roll

class Thing:
    pass

def run(args):
    thing = Thing()

    def callback(_ref):  # as importlib's module lock lets go, say
        signal.raise_signal(signal.SIG{0})
        sum(range(100_000))  # the handler runs here, where Python cannot raise

    ref = weakref.ref(thing, callback)
    del thing
    time.sleep(60)
    return 0

roll.run = run
sys.argv = ["cuberef", "roll", "--game", "boggle"]
sys.exit(main())
"""


@pytest.mark.parametrize(("name", "code"), [("INT", 130), ("TERM", 0)], ids=["ctrl-c", "sigterm"])
def test_a_signal_that_arrives_where_python_cannot_raise_it_still_stops(name, code):
    """A Ctrl-C in a weakref callback was 'Exception ignored' with a traceback, and the
    box ran on: the stop is raised again where it can be, at once."""
    started = time.monotonic()
    child = subprocess.run(
        [sys.executable, "-c", SIGNAL_IN_A_CALLBACK.replace("{0}", name)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert time.monotonic() - started < 8  # not the watchdog's 10 s
    assert child.returncode == code and "stopped" in child.stderr, child.stderr
    assert "Traceback" not in child.stderr and "ignored" not in child.stderr, child.stderr
