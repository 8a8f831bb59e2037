"""The director's own broker: Debian's mosquitto as a child process, with a configuration
written for the event (its port, persistence in the event's folder, a password file made
with ``mosquitto_passwd``, the event's ACL, anonymous clients refused)."""

from __future__ import annotations

import contextlib
import getpass
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

from device.club import credentials, topics
from engine.errors import MachineError

#: Where Debian puts them; /usr/sbin is not on an ordinary user's PATH.
_SEARCHED = "/usr/sbin:/usr/bin:/usr/local/sbin:/usr/local/bin"
HOW_TO_GET = "install it with: sudo apt-get install mosquitto"


def program(name: str) -> str:
    """The path of ``mosquitto`` or ``mosquitto_passwd``; one sentence where missing."""
    found = shutil.which(name) or shutil.which(name, path=_SEARCHED)
    if found is None:
        raise MachineError(f"{name} is not installed here; {HOW_TO_GET}")
    return found


def available() -> bool:
    """Whether this machine can run the director's own broker."""
    try:
        program("mosquitto")
        program("mosquitto_passwd")
    except MachineError:
        return False
    return True


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free on ``host`` now (for tests and demos that start their own broker)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def write_config(folder: Path, event: str, port: int, bind: str) -> Path:
    """The broker's files in ``folder/broker/``: mosquitto.conf, the hashed password file
    and the ACL, made anew from the event's credentials each start."""
    found = credentials.accounts(folder)
    if not any(a.user == topics.DIRECTOR for a in found):
        credentials.director(folder)  # its sentence: no credentials made yet
    home = folder / "broker"
    home.mkdir(parents=True, exist_ok=True)
    os.chmod(home, 0o700)
    passwords = home / "passwords"
    descriptor = os.open(passwords, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as out:
        out.writelines(f"{a.user}:{a.secret}\n" for a in found)
    # -U hashes the plain file in place: no secret is ever on a command line.
    hashing = subprocess.run(
        [program("mosquitto_passwd"), "-U", str(passwords)], capture_output=True, text=True
    )
    if hashing.returncode != 0:
        raise MachineError(f"mosquitto_passwd failed: {hashing.stderr.strip() or hashing.stdout}")
    (home / "acl").write_text(topics.acl(event, credentials.tables_of(found)), encoding="utf-8")
    lines = [
        # As root mosquitto would become the user "mosquitto", who cannot read this folder.
        f"user {getpass.getuser()}",
        "per_listener_settings false",
        "allow_anonymous false",
        f"password_file {passwords}",
        f"acl_file {home / 'acl'}",
        "persistence true",
        f"persistence_location {home}/",
        "autosave_interval 10",
        "max_queued_messages 100000",
        f"log_dest file {home / 'mosquitto.log'}",
        "log_type error",
        "log_type warning",
        "log_type notice",
        f"listener {port} {bind}",
        "",
    ]
    conf = home / "mosquitto.conf"
    conf.write_text("\n".join(lines), encoding="utf-8")
    return conf


class Mosquitto:
    """mosquitto running on ``port`` for the event in ``folder``; a context manager that
    starts it (waiting until it takes connections) and stops it."""

    def __init__(self, folder: Path, event: str, port: int, bind: str = "127.0.0.1") -> None:
        self.folder, self.event, self.port, self.bind = folder, event, port, bind
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.bind in ("0.0.0.0", "::", "") else self.bind
        return f"mqtt://{host}:{self.port}"

    def start(self, timeout: float = 10.0) -> None:
        conf = write_config(self.folder, self.event, self.port, self.bind)
        self.process = subprocess.Popen(
            [program("mosquitto"), "-c", str(conf)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        host = self.url.removeprefix("mqtt://").rsplit(":", 1)[0]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                said = (
                    self.process.stderr.read().decode(errors="replace")
                    if self.process.stderr
                    else ""
                )
                raise MachineError(
                    f"mosquitto stopped at start on port {self.port}: "
                    f"{(said.strip() or self._last_log()).splitlines()[-1:] or 'no reason given'}"
                )
            with contextlib.suppress(OSError), socket.create_connection((host, self.port), 0.2):
                return
            time.sleep(0.02)
        self.stop()
        raise MachineError(
            f"mosquitto did not take connections on port {self.port} in {timeout:g} s."
        )

    def _last_log(self) -> str:
        log = self.folder / "broker" / "mosquitto.log"
        return log.read_text(errors="replace") if log.exists() else ""

    def stop(self, timeout: float = 5.0) -> None:
        """Stops it as it asks to be stopped (it saves its persistence then)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr:
            process.stderr.close()

    def __enter__(self) -> Mosquitto:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
