"""``make service-check``: the unit under a real systemd, in a container.

It builds a Debian bookworm root for this machine's architecture with debootstrap
(kept in build/service-check and copied afresh for each run), boots it with
``systemd-nspawn --boot`` (systemd as the container's PID 1, this machine's network),
copies this checkout in as a clone would be, runs systemd/install.sh there (apt and pip
for real, so the installer's own check that the service is active is tested), and then,
each step timed:

- the service starts and reaches its idle screen (a dummy screen, the folder camera of
  the demo's photos, mock pins; ``--screens`` shows that the screen was drawn);
- it is restarted, and is running again;
- the players' page is turned on in the configuration alone and answers on port 8080,
  with a foreign Host refused; turned off again, nothing listens;
- ``cuberef doctor --service`` runs the checks in the unit's sandbox;
- nothing is written outside the store (onnxruntime's cache included);
- ``systemd-analyze security`` rates the installed unit, the page on and off;
- it is stopped, cleanly (exit 0).

The only change to the installed unit is a drop-in for the container (no Pi here):
mock pins, and ``--screens`` on its command line. Run as root:

    sudo make service-check      # log: build/service-check/service-check.log

Where this machine cannot run systemd in a container it says what is missing: root,
systemd-nspawn (Debian's systemd-container), debootstrap, a writable cgroup file system.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pi_check import (
    CHECKOUT,
    REPO,
    CheckFailed,
    Report,
    copy_checkout,
    mirror,
    remove_tree,
    run,
    run_check,
)

WORK = REPO / "build" / "service-check"
SUITE = os.environ.get("SERVICE_CHECK_SUITE", "bookworm")
BASE = WORK / f"base-{SUITE}"
ROOT = WORK / f"root-{SUITE}"
LOG = WORK / "service-check.log"
MACHINE = "cuberef-check"
#: What a Raspberry Pi OS Lite has that debootstrap's minimal base lacks.
PACKAGES = "systemd,systemd-sysv,dbus,udev,python3,ca-certificates,curl"
DEMO = f"{CHECKOUT}/device/data/demo/boggle"
CONFIG = f"""# service-check: the folder camera of the demo's photos, a dummy screen, no buzzer
# (mock pins have no PWM)
game = "boggle"
[camera]
backend = "folder"
folder = "{DEMO}"
[screen]
backend = "dummy"
[buzzer]
type = "silent"
[page]
enabled = {{page}}
"""
#: The container's drop-in: no Pi here, so mock pins, and each screen saved as PNG.
DROP_IN = (
    "[Service]\nEnvironment=GPIOZERO_PIN_FACTORY=mock\nExecStart=\n"
    "ExecStart=/opt/cuberef/.venv/bin/cuberef run --config /etc/cuberef/config.toml"
    " --screens /run/cuberef/screens\n"
)
#: Where the box may leave files, and the system's own places; anything else written
#: during the run is reported.
ALLOWED = (
    "/var/lib/cuberef/",
    "/var/log/",
    "/var/cache/",
    "/var/lib/apt/",
    "/var/lib/dpkg/",
    "/var/lib/systemd/",
    "/var/tmp/",
    "/tmp/",
    "/etc/",
    "/home/pi/",
    "/root/",
)


def missing_here() -> list[str]:
    """What this machine lacks to run systemd in a container."""
    lacks = []
    if os.geteuid() != 0:
        lacks.append("root (sudo make service-check)")
    for tool, package in (("systemd-nspawn", "systemd-container"), ("debootstrap", "debootstrap")):
        if shutil.which(tool) is None:
            lacks.append(f"{tool} (apt-get install {package})")
    if not Path("/sys/fs/cgroup").is_dir() or not os.access("/sys/fs/cgroup", os.W_OK):
        lacks.append("a writable /sys/fs/cgroup (a container started with --privileged)")
    return lacks


def host_tools(report: Report) -> None:
    tools = (("systemd-nspawn", "systemd-container"), ("debootstrap", "debootstrap"))
    wanted = [package for tool, package in tools if shutil.which(tool) is None]
    if wanted and os.geteuid() == 0 and shutil.which("apt-get"):
        report.say(f"installing {' '.join(wanted)} on this machine (apt-get)")
        run(["apt-get", "update"])
        run(["apt-get", "install", "-y", "--no-install-recommends", *wanted])


def base_root(report: Report) -> None:
    ready = BASE / ".service-check-base"
    if ready.exists() and ready.read_text() == PACKAGES:
        return
    if BASE.exists():
        remove_tree(BASE)
    WORK.mkdir(parents=True, exist_ok=True)
    source = mirror()
    started = time.monotonic()
    run(["debootstrap", "--variant=minbase", f"--include={PACKAGES}", SUITE, str(BASE), source])
    report.step("debootstrap", time.monotonic() - started, verdict=f"{SUITE}, minbase + systemd")
    security = "http://deb.debian.org/debian-security"
    (BASE / "etc/apt/sources.list").write_text(
        f"deb {source} {SUITE} main\ndeb {source} {SUITE}-updates main\n"
        f"deb {security} {SUITE}-security main\n"
    )
    ready.write_text(PACKAGES)


class Container:
    """The booted root: systemd-nspawn's child is the container's systemd (PID 1)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.process: subprocess.Popen[bytes] | None = None
        self.leader = 0

    def boot(self) -> None:
        command = ["systemd-nspawn", "-D", str(self.root), "--boot", "--register=no"]
        command += ["--keep-unit", f"--machine={MACHINE}", "--console=read-only"]
        console = open(WORK / "console.log", "wb")  # noqa: SIM115 (kept open while it runs)
        self.process = subprocess.Popen(command, stdout=console, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not self.leader:
            if self.process.poll() is not None:
                said = (WORK / "console.log").read_text(errors="replace")[-1500:]
                raise CheckFailed(f"systemd-nspawn exited {self.process.returncode}: {said}")
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
            found = children.read_text().split() if children.exists() else []
            if found and Path(f"/proc/{found[0]}/comm").read_text().strip() == "systemd":
                self.leader = int(found[0])  # nspawn's child, once it is the container's init
            time.sleep(0.2)
        if not self.leader:
            raise CheckFailed("the container's systemd did not start within 60 s")
        state = ""
        while time.monotonic() < deadline + 60 and state not in ("running", "degraded"):
            state = self.sh("systemctl is-system-running --wait", check=False).stdout.strip()
            time.sleep(0.5 if state not in ("running", "degraded") else 0)
        if state not in ("running", "degraded"):
            raise CheckFailed(f"the container's systemd is {state!r}, not running")

    def sh(
        self, command: str, *, check: bool = True, timeout: float = 1800
    ) -> subprocess.CompletedProcess[str]:
        """``command`` in every namespace of the container, as its root."""
        full = ["nsenter", "-t", str(self.leader), "-a", "/bin/sh", "-c", command]
        env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
               "LANG": "C.UTF-8", "HOME": "/root", "DEBIAN_FRONTEND": "noninteractive"}  # fmt: skip
        if (self.root / "etc/pi-check-ca.crt").exists():
            env["PIP_CERT"] = "/etc/pi-check-ca.crt"
        done = subprocess.run(full, capture_output=True, text=True, env=env, timeout=timeout)
        if check and done.returncode != 0:
            raise CheckFailed(
                f"{command[:160]} exited {done.returncode}:\n"
                f"{done.stdout[-2500:]}{done.stderr[-2500:]}"
            )
        return done

    def halt(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        if self.leader:
            self.sh("systemctl poweroff --no-block", check=False, timeout=30)
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()


@contextmanager
def booted(root: Path) -> Iterator[Container]:
    container = Container(root)
    try:
        container.boot()
        yield container
    finally:
        container.halt()


def until(what: str, probe, seconds: float = 60.0) -> float:  # type: ignore[no-untyped-def]
    """Seconds until ``probe()`` is true; CheckFailed after ``seconds``."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if probe():
            return time.monotonic() - started
        time.sleep(0.25)
    raise CheckFailed(f"{what} did not happen within {seconds:.0f} s")


def service(container: Container, field: str) -> str:
    shown = container.sh(f"systemctl show cuberef.service -p {field} --value", check=False)
    return shown.stdout.strip()


def idle_screen(container: Container, since: int) -> bool:
    """Whether the box drew its first screen since its start number ``since``: a PNG
    under --screens, with the service running and not restarted meanwhile."""
    shots = container.root / "run" / "cuberef" / "screens"
    drawn = shots.is_dir() and any(shots.iterdir())
    if not drawn:  # /run is the container's own tmpfs: look from inside
        drawn = (
            container.sh("ls /run/cuberef/screens 2>/dev/null | head -1", check=False).stdout != ""
        )
    return (
        drawn
        and service(container, "ActiveState") == "active"
        and int(service(container, "NRestarts") or 0) == since
    )


def set_page(container: Container, on: bool) -> None:
    container.sh(
        f"cat > /etc/cuberef/config.toml <<'EOF'\n{CONFIG.format(page=str(on).lower())}EOF"
    )


def page_answers(container: Container, host: str = "127.0.0.1:8080") -> str:
    """The HTTP status of the page's /hello (or of its index) from inside the container."""
    done = container.sh(
        f"curl -s -o /dev/null -w '%{{http_code}}' -H 'Host: {host}' http://127.0.0.1:8080/",
        check=False,
    )
    return done.stdout.strip() or f"no answer (curl {done.returncode})"


def restart_and_wait(container: Container, report: Report, name: str) -> None:
    before = int(service(container, "NRestarts") or 0)
    container.sh("rm -rf /run/cuberef/screens")
    started = time.monotonic()
    container.sh("systemctl restart cuberef.service")
    until(f"{name}: the idle screen", lambda: idle_screen(container, before))
    report.step(name, time.monotonic() - started, verdict="active, its idle screen drawn")


def written_outside(container: Container, marker: str) -> list[str]:
    found = container.sh(
        f"find / -xdev -newer {marker} -type f 2>/dev/null | grep -v '^/proc' | head -200",
        check=False,
    ).stdout.split()
    return [path for path in found if not path.startswith(ALLOWED)]


def security(container: Container) -> str:
    done = container.sh("systemd-analyze security cuberef.service --no-pager", check=False)
    last = [line for line in done.stdout.splitlines() if "Overall exposure" in line]
    return last[-1].split(":", 1)[1].strip() if last else f"no figure: {done.stderr[-200:]}"


def check(report: Report) -> int:
    lacks = missing_here()
    if lacks and os.geteuid() == 0:
        host_tools(report)
        lacks = missing_here()
    if lacks:
        report.say("service-check cannot run here; this machine lacks: " + "; ".join(lacks) + ".")
        return 2
    started = time.monotonic()
    report.say(f"service-check: Debian {SUITE} ({os.uname().machine}) under systemd-nspawn")
    base_root(report)
    if ROOT.exists():
        remove_tree(ROOT)
    seconds = time.monotonic()
    run(["cp", "-a", str(BASE), str(ROOT)])
    copy_checkout(ROOT)
    report.step("fresh copy of the root", time.monotonic() - seconds)
    with booted(ROOT) as container:
        report.say(f"booted: {container.sh('systemctl --version | head -1').stdout.strip()}")
        config = container.root / "etc" / "cuberef"
        config.mkdir(parents=True, exist_ok=True)
        set_page(container, False)
        drop = container.root / "etc/systemd/system/cuberef.service.d"
        drop.mkdir(parents=True, exist_ok=True)
        (drop / "service-check.conf").write_text(DROP_IN)
        seconds = time.monotonic()
        done = container.sh(f"cd {CHECKOUT} && sh systemd/install.sh", check=False)
        (WORK / "install.log").write_text(done.stdout + done.stderr)
        said = [line for line in done.stdout.splitlines() if line.startswith("install.sh:")]
        if done.returncode != 0:
            raise CheckFailed(f"the installer exited {done.returncode}:\n{done.stderr[-2500:]}")
        report.step("installer (apt, pip, start)", time.monotonic() - seconds, verdict=said[-1])
        container.sh("touch /run/service-check-marker")
        until("the idle screen after the install", lambda: idle_screen(container, 0), 120)
        report.step("started: idle screen", time.monotonic() - seconds, verdict="active")
        restart_and_wait(container, report, "restarted")
        set_page(container, True)
        restart_and_wait(container, report, "page on (configuration only)")
        answers = {
            "own": page_answers(container),
            "foreign Host": page_answers(container, "evil.example:8080"),
        }
        if answers != {"own": "200", "foreign Host": "403"}:
            raise CheckFailed(f"the page's answers were {answers}, not 200 and 403")
        report.say(f"   page: its own Host 200, a foreign Host 403; exposure {security(container)}")
        page_on = security(container)
        set_page(container, False)
        restart_and_wait(container, report, "page off")
        if page_answers(container).isdigit() and page_answers(container) != "000":
            raise CheckFailed("the page still answers with [page] enabled = false")
        page_off = security(container)
        seconds = time.monotonic()
        doctor = container.sh("/opt/cuberef/.venv/bin/cuberef doctor --service --json", check=False)
        try:
            checks = json.loads(doctor.stdout)["checks"]
        except (ValueError, KeyError):
            raise CheckFailed(
                f"doctor --service said: {doctor.stdout[-800:]}{doctor.stderr[-800:]}"
            ) from None
        parts = ", ".join(f"{c['part']} {c['status']}" for c in checks)
        report.step("doctor --service", time.monotonic() - seconds, verdict=parts)
        stray = written_outside(container, "/run/service-check-marker")
        if stray:
            raise CheckFailed(f"the box wrote outside its store: {stray[:10]}")
        store = container.sh("ls -A /var/lib/cuberef").stdout.split()
        report.say(
            f"   nothing written outside the store; /var/lib/cuberef holds {' '.join(store)}"
        )
        seconds = time.monotonic()
        container.sh("systemctl stop cuberef.service")
        result = service(container, "Result"), service(container, "ExecMainStatus")
        if result != ("success", "0"):
            raise CheckFailed(f"the stop ended as {result}, not success and exit 0")
        report.step("stopped", time.monotonic() - seconds, verdict="Result=success, exit 0")
        journal = container.sh(
            "journalctl -u cuberef.service -p warning --no-pager -o cat | tail -5", check=False
        )
        report.say("   the unit's warnings and errors in the journal (journalctl -p warning):")
        for line in journal.stdout.splitlines() or ["(none)"]:
            report.say(f"     {line}")
        report.say(f"systemd-analyze security: page on {page_on}; page off {page_off}")
    report.table()
    report.say(f"service-check passed in {time.monotonic() - started:.0f} s")
    return 0


def main() -> int:
    report = Report(where="the container", column="container")
    return run_check("service-check", check, report, LOG)


if __name__ == "__main__":
    sys.exit(main())
