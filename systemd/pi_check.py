"""``make pi-check``: install cuberef in an emulated Raspberry Pi and compare it with here.

It builds a Debian bookworm arm64 root with debootstrap (kept in build/pi-check and
copied afresh for each run), runs it through qemu-user-static (binfmt_misc), copies
this checkout in as a clone would be, runs systemd/install.sh there twice (apt and
pip for real; systemd is not running in a chroot, so the installer only enables the
unit), then runs the face model, a photo reading, ``cuberef demo`` and the doctor
under ``QEMU_CPU=cortex-a72`` (a Pi 4) and the same here, compares the outputs, and
reports each step's time. Run as root (debootstrap, chroot and mounts need it):

    sudo make pi-check          # log: build/pi-check/pi-check-bookworm.log

Two traps of the emulation, not of a Pi: qemu-user shows this machine's
/proc/cpuinfo, at which onnxruntime's import crashes, so a Pi 4's is mounted over it;
and where this machine reaches PyPI through a proxy with its own certificate, pip in
the root is given this machine's CA bundle. Not checked here (no such hardware):
picamera2 and libcamera (Raspberry Pi's archive), real GPIO, KMS/DRM and touch.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORK = REPO / "build" / "pi-check"
SUITE = os.environ.get("PI_CHECK_SUITE", "bookworm")
BASE = WORK / f"base-{SUITE}-arm64"
ROOT = WORK / f"root-{SUITE}-arm64"
LOG = WORK / f"pi-check-{SUITE}.log"
CPU = os.environ.get("PI_CHECK_CPU", "cortex-a72")  # a Pi 4; cortex-a76 is a Pi 5
#: What Raspberry Pi OS has that debootstrap's minimal base lacks and the installer needs.
BASE_PACKAGES = ["systemd", "udev", "ca-certificates", "python3"]
CHECKOUT = "/home/pi/cuberef"  # the clone on the Pi
VENV = "/opt/cuberef/.venv"
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
DEMO = "device/data/demo"
#: One Pi 4 core as its /proc/cpuinfo shows it (Cortex-A72, r0p3); there are four.
PI4_CORE = (
    "processor\t: {n}\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\n"
    "CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: 0xd08\n"
    "CPU revision\t: 3\n\n"
)
PI4_BOARD = (
    "Hardware\t: BCM2835\nRevision\t: c03111\nSerial\t\t: 10000000c0ffee00\n"
    "Model\t\t: Raspberry Pi 4 Model B Rev 1.1\n"
)
#: qemu-aarch64 in binfmt_misc (qemu's scripts/qemu-binfmt-conf.sh), F: the interpreter is
#: opened now, so it runs inside the chroot without a copy there.
BINFMT = (
    ":qemu-aarch64:M::"
    r"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00"
    ":"
    r"\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff"
    ":/usr/bin/qemu-aarch64-static:F"
)


class CheckFailed(Exception):
    """A step failed; the message says which and why."""


@dataclass
class Report:
    steps: list[tuple[str, float, float | None, str]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    #: Where the steps run, as each step's line and the table's column say it.
    where: str = "the Pi's root"
    column: str = "Pi root"

    def say(self, line: str = "") -> None:
        print(line, flush=True)
        self.lines.append(line)

    def step(self, name: str, pi: float, here: float | None = None, verdict: str = "") -> None:
        self.steps.append((name, pi, here, verdict))
        shown = f"{name}: {pi:.1f} s in {self.where}"
        if here is not None:
            shown += f", {here:.1f} s here ({pi / max(here, 1e-3):.0f}x)"
        self.say(f"== {shown}{'; ' + verdict if verdict else ''}")

    def table(self) -> None:
        self.say("")
        self.say(f"{'step':<30}{self.column:>10}{'here':>8}  verdict")
        for name, pi, here, verdict in self.steps:
            mine = f"{here:.1f} s" if here is not None else "-"
            self.say(f"{name:<30}{pi:>8.1f} s{mine:>8}  {verdict}")


def run(
    command: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    check: bool = True,
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(list(command), env=env, cwd=cwd, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise CheckFailed(
            f"{' '.join(command)[:200]} exited {done.returncode}:\n"
            f"{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    return done


def timed(call) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    started = time.monotonic()
    result = call()
    return time.monotonic() - started, result


# The emulator and the root -----------------------------------------------------------


def host_tools(report: Report) -> None:
    """debootstrap and qemu-user-static, from this machine's own Debian archive."""
    missing = [
        package
        for package, tool in (
            ("debootstrap", "debootstrap"),
            ("qemu-user-static", "qemu-aarch64-static"),
        )
        if shutil.which(tool) is None
    ]
    if missing:
        report.say(f"installing {' '.join(missing)} on this machine (apt-get)")
        run(["apt-get", "update"])
        run(["apt-get", "install", "-y", "--no-install-recommends", *missing])


def binfmt(report: Report) -> None:
    """Let the kernel run arm64 programs through qemu-aarch64-static."""
    folder = Path("/proc/sys/fs/binfmt_misc")
    if not (folder / "register").exists():
        run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(folder)], check=False)
    if not (folder / "register").exists():
        raise CheckFailed(
            "binfmt_misc cannot be mounted here, so arm64 programs cannot run; "
            "pi-check needs a machine (or container) that may mount it."
        )
    entry = folder / "qemu-aarch64"
    if entry.exists() and "enabled" in entry.read_text() and "F" in _flags(entry):
        return
    if entry.exists():  # registered without F (or disabled): register it as needed
        entry.write_text("-1")
    (folder / "register").write_text(BINFMT)
    report.say("registered qemu-aarch64-static in binfmt_misc (flags F)")


def _flags(entry: Path) -> str:
    found = re.search(r"^flags: (\S*)$", entry.read_text(), re.M)
    return found.group(1) if found else ""


def mirror() -> str:
    """The Debian mirror this machine's apt already uses."""
    for sources in [Path("/etc/apt/sources.list"), *Path("/etc/apt/sources.list.d").glob("*")]:
        with contextlib.suppress(OSError):
            text = sources.read_text()
            for found in re.finditer(r"(?:^URIs:\s*|^deb\s+(?:\[[^]]*\]\s+)?)(\S+)", text, re.M):
                uri = found.group(1)
                if "debian" in uri and "security" not in uri:
                    return uri
    return "http://deb.debian.org/debian"


def base_root(report: Report) -> None:
    """A minimal Debian arm64 root with what a Pi OS Lite has and the installer needs;
    built once (about ten minutes) and kept."""
    strapped = BASE / ".pi-check-debootstrap"
    ready = BASE / ".pi-check-base"
    if ready.exists() and ready.read_text() == " ".join(BASE_PACKAGES):
        return
    if not strapped.exists():
        if BASE.exists():
            remove_tree(BASE)
        WORK.mkdir(parents=True, exist_ok=True)
        source = mirror()
        report.say(f"debootstrap {SUITE} arm64 from {source} into {BASE}")
        first, _ = timed(
            lambda: run(
                ["debootstrap", "--arch=arm64", "--variant=minbase", "--foreign"]
                + [SUITE, str(BASE), source]
            )
        )
        second, _ = timed(
            lambda: run(["chroot", str(BASE), "/debootstrap/debootstrap", "--second-stage"])
        )
        report.step("debootstrap", first + second, verdict=f"{SUITE} arm64, minbase")
        security = "http://deb.debian.org/debian-security"
        (BASE / "etc/apt/sources.list").write_text(
            f"deb {source} {SUITE} main\ndeb {source} {SUITE}-updates main\n"
            f"deb {security} {SUITE}-security main\n"
        )
        strapped.write_text(source)
    packages = " ".join(BASE_PACKAGES)
    with mounted(BASE):
        seconds, _ = timed(
            lambda: (
                chroot(BASE, "apt-get update"),
                chroot(BASE, f"apt-get install -y --no-install-recommends {packages}"),
            )
        )
    report.step("base packages", seconds, verdict=packages)
    ready.write_text(packages)


def fresh_root(report: Report) -> None:
    """A copy of the base for this run, so the installer meets a Pi as it comes."""
    if ROOT.exists():
        remove_tree(ROOT)
    seconds, _ = timed(lambda: run(["cp", "-a", str(BASE), str(ROOT)]))
    report.step("fresh copy of the root", seconds)


def remove_tree(path: Path) -> None:
    mounts = [line.split()[1] for line in Path("/proc/mounts").read_text().splitlines()]
    inside = [m for m in mounts if m == str(path) or m.startswith(f"{path}/")]
    if inside:
        raise CheckFailed(
            f"{inside[0]} is still mounted; unmount it before pi-check removes {path}."
        )
    run(["rm", "-rf", "--one-file-system", str(path)])


@contextlib.contextmanager
def mounted(root: Path) -> Iterator[None]:
    """/proc (with a Pi 4's cpuinfo over it), /sys and /dev/shm in the root; never a bind
    of this machine's /dev, so nothing done in the root can reach this machine's devices."""
    cpuinfo = WORK / "cpuinfo-pi4"
    cpuinfo.write_text("".join(PI4_CORE.format(n=n) for n in range(4)) + PI4_BOARD)
    done: list[Path] = []
    try:
        for kind, where, extra in (
            ("proc", root / "proc", []),
            ("sysfs", root / "sys", ["-o", "ro"]),
            ("tmpfs", root / "dev/shm", ["-o", "mode=1777"]),
        ):
            where.mkdir(parents=True, exist_ok=True)
            run(["mount", "-t", kind, *extra, kind, str(where)])
            done.append(where)
        run(["mount", "--bind", str(cpuinfo), str(root / "proc/cpuinfo")])
        done.append(root / "proc/cpuinfo")
        yield
    finally:
        for where in reversed(done):
            run(["umount", str(where)], check=False)


def chroot_env(home: str = "/root") -> dict[str, str]:
    env = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": home,
        "LANG": "C.UTF-8",
        "QEMU_CPU": CPU,
        "DEBIAN_FRONTEND": "noninteractive",
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_DEFAULT_TIMEOUT": "180",
    }
    if (ROOT / "etc/pi-check-ca.crt").exists():
        env["PIP_CERT"] = "/etc/pi-check-ca.crt"
    return env


def chroot(
    root: Path, command: str, *, user: str | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    spec = [f"--userspec={user}:{user}"] if user else []
    home = f"/var/lib/{user}" if user else "/root"
    return run(
        ["nice", "chroot", *spec, str(root), "/bin/sh", "-c", command],
        env=chroot_env(home),
        check=check,
    )


# The checkout, the installer, the probes ------------------------------------------------


def copy_checkout(root: Path = ROOT) -> None:
    """This checkout into the root as a fresh clone of it has: tracked and untracked
    files git does not ignore (so no venv, no build folder, no demo output)."""
    listed = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO)
    target = root / CHECKOUT.lstrip("/")
    target.mkdir(parents=True)
    for name in filter(None, listed.stdout.split("\0")):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    if CA_BUNDLE.exists():
        shutil.copy(CA_BUNDLE, root / "etc/pi-check-ca.crt")


def checkout_listing() -> dict[str, int]:
    target = ROOT / CHECKOUT.lstrip("/")
    return {str(p.relative_to(target)): p.stat().st_uid for p in sorted(target.rglob("*"))}


def install(report: Report, round_: int) -> None:
    before = checkout_listing()
    seconds, done = timed(lambda: chroot(ROOT, f"cd {CHECKOUT} && sh systemd/install.sh"))
    assert isinstance(done, subprocess.CompletedProcess)
    (WORK / f"install-{SUITE}-{round_}.log").write_text(done.stdout + done.stderr)
    after = checkout_listing()
    if after != before:
        new = sorted(set(after) - set(before))[:5]
        raise CheckFailed(f"the installer wrote into the checkout: {new}")
    enabled = ROOT / "etc/systemd/system/multi-user.target.wants/cuberef.service"
    if not enabled.is_symlink():
        raise CheckFailed("the installer did not enable cuberef.service")
    said = [line for line in done.stdout.splitlines() if line.startswith("install.sh:")]
    report.step(f"installer, run {round_}", seconds, verdict="exit 0; " + " / ".join(said[-2:]))


def check_config(folder: str, demo: str) -> str:
    return (
        f'[camera]\nbackend = "folder"\nfolder = "{demo}/boggle"\n'
        f'[screen]\nbackend = "dummy"\n[store]\nfolder = "{folder}/store"\n'
    )


@dataclass
class Side:
    """One machine's answers: the emulated Pi's or this one's."""

    outputs: dict[str, str] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def probes(here: bool, report: Report) -> Side:
    """The model, two photo readings, the demo and the doctor, on one side."""
    side = Side()
    python = str(REPO / ".venv/bin/python") if here else f"{VENV}/bin/python"
    cuberef = str(REPO / ".venv/bin/cuberef") if here else f"{VENV}/bin/cuberef"
    demo = str(REPO / DEMO) if here else f"{CHECKOUT}/{DEMO}"
    script = str(REPO / "systemd/pi_check.py") if here else f"{CHECKOUT}/systemd/pi_check.py"
    scratch = Path(tempfile.mkdtemp(prefix="pi-check-", dir=WORK if here else ROOT / "tmp"))
    inside = str(scratch) if here else "/" + str(scratch.relative_to(ROOT))
    (scratch / "check.toml").write_text(check_config(inside, demo))
    scratch.chmod(0o777)
    commands = {
        "model": f"{python} {script} probe-model {demo}/boggle/1-roll.jpg",
        "read boggle": f"{cuberef} read {demo}/boggle/1-roll.jpg --game boggle --json",
        "read adlib": f"{cuberef} read {demo}/adlib/1-roll.jpg --game adlib --json",
        "demo": f"cd {inside} && {cuberef} demo --out demo",
        "doctor": f"GPIOZERO_PIN_FACTORY=mock {cuberef} doctor --json --config {inside}/check.toml",
    }
    for name, command in commands.items():
        if here:
            env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
            seconds, done = timed(
                lambda command=command, env=env: run(
                    ["nice", "sh", "-c", command], env=env, check=False
                )
            )
        else:
            seconds, done = timed(lambda command=command: chroot(ROOT, command, check=False))
        assert isinstance(done, subprocess.CompletedProcess)
        side.outputs[name] = _neutral(done.stdout, inside, demo)
        side.outputs[name + " (stderr)"] = _neutral(done.stderr, inside, demo)
        side.outputs[name + " (exit)"] = str(done.returncode)
        side.seconds[name] = seconds
    if here:
        shutil.rmtree(scratch)  # the root's scratch goes with the root's next fresh copy
    if not here:  # the service's own doctor: its user and configuration, from a folder it
        # may not write (so lgpio's pipes must go elsewhere)
        seconds, done = timed(
            lambda: chroot(ROOT, f"cd / && {cuberef} doctor", user="cuberef", check=False)
        )
        assert isinstance(done, subprocess.CompletedProcess)
        side.outputs["service doctor"] = done.stdout + done.stderr
        side.seconds["service doctor"] = seconds
    return side


def _neutral(text: str, scratch: str, demo: str) -> str:
    """Output with the paths that differ between the two machines named alike."""
    text = text.replace(scratch, "SCRATCH").replace(demo, "DEMO")
    return re.sub(r"\S*/device/data/demo", "DEMO", text)


def probe_model(photo: str) -> None:
    """Print what the face model says of fixed crops of a photo (run on each side)."""
    import cv2
    import numpy as np

    from vision.classifier import FaceClassifier

    image = cv2.imread(photo, cv2.IMREAD_COLOR)
    height, width = image.shape[:2]
    size, step = 66, 33  # a face-sized grid: many crops hold most of a face, many part of one
    crops = [
        image[y : y + size, x : x + size]
        for y in range(0, height - size + 1, step)
        for x in range(0, width - size + 1, step)
    ]
    model = FaceClassifier.load()
    model.run(crops)  # warm
    started = time.perf_counter()
    faces, orientations = model.run(crops)
    seconds = time.perf_counter() - started
    print(
        json.dumps(
            {
                "crops": len(crops),
                "seen": sum(model.classes[i] != model._none for i in faces.argmax(1)),
                "faces": [int(i) for i in faces.argmax(1)],
                "orientations": [int(i) for i in orientations.argmax(1)],
                "probabilities": np.round(faces, 6).tolist(),
                "batch_ms": round(seconds * 1000, 1),
            }
        )
    )


# Comparing -------------------------------------------------------------------------------


def compare(pi: Side, here: Side, report: Report) -> bool:
    same = True
    for name in ("model", "read boggle", "read adlib", "demo", "doctor"):
        verdict, ok = judge(name, pi.outputs, here.outputs)
        same &= ok
        report.step(name, pi.seconds[name], here.seconds[name], verdict)
    report.say("")
    report.say(f"{'cuberef demo in the emulated Pi 4':<52}   cuberef demo here (x86_64)")
    left, right = pi.outputs["demo"].splitlines(), here.outputs["demo"].splitlines()
    for number in range(max(len(left), len(right))):
        a = left[number] if number < len(left) else ""
        b = right[number] if number < len(right) else ""
        report.say(f"{a:<52} {'=' if _each_run(a) == _each_run(b) else '≠'} {b}")
    report.say("")
    report.say(
        "the service's doctor in the emulated Pi (its installed configuration, no hardware):"
    )
    for line in pi.outputs["service doctor"].splitlines():
        report.say(f"  {line}")
    return same


def judge(name: str, pi: dict[str, str], here: dict[str, str]) -> tuple[str, bool]:
    if pi[name + " (exit)"] != here[name + " (exit)"]:
        return (
            f"DIFFERENT exit codes ({pi[name + ' (exit)']} vs {here[name + ' (exit)']}): "
            f"{pi[name + ' (stderr)'][-300:]}",
            False,
        )
    if name == "model":
        a, b = json.loads(pi[name]), json.loads(here[name])
        diff = max(
            abs(x - y)
            for row_a, row_b in zip(a["probabilities"], b["probabilities"], strict=True)
            for x, y in zip(row_a, row_b, strict=True)
        )
        ok = a["faces"] == b["faces"] and a["orientations"] == b["orientations"] and diff < 1e-3
        return (
            f"{'same' if ok else 'DIFFERENT'} faces and turns of {a['crops']} crops "
            f"({a['seen']} seen as faces), "
            f"probabilities within {diff:.1e}; a batch takes {a['batch_ms']} ms vs "
            f"{b['batch_ms']} ms",
            ok,
        )
    if name.startswith("read"):
        a, b = json.loads(pi[name]), json.loads(here[name])
        close = _close(a, b)
        kept = {k: v for k, v in a.items() if k != "confidence"}
        ok = close and kept == {k: v for k, v in b.items() if k != "confidence"}
        return (f"{'same' if ok else 'DIFFERENT'} reading ({a.get('board') or a.get('roll')})", ok)
    if name == "doctor":
        a, b = json.loads(pi[name]), json.loads(here[name])
        statuses = [(c["part"], c["status"]) for c in a["checks"]]
        ok = statuses == [(c["part"], c["status"]) for c in b["checks"]]
        parts = ", ".join(f"{part} {status}" for part, status in statuses)
        return (f"{'same' if ok else 'DIFFERENT'}: {parts}", ok)
    lines_a, lines_b = pi[name].splitlines(), here[name].splitlines()
    differing = [
        i
        for i, (x, y) in enumerate(zip(lines_a, lines_b, strict=False))
        if _each_run(x) != _each_run(y)
    ]
    differing += list(range(min(len(lines_a), len(lines_b)), max(len(lines_a), len(lines_b))))
    if not differing:
        return (f"identical output ({len(lines_a)} lines)", True)
    best_only = all(_best_crossword_line(lines_a, i) for i in differing)
    return (
        f"{len(lines_a) - len(differing)} of {len(lines_a)} lines identical; the others "
        + ("are the time-limited best crossword" if best_only else "DIFFER"),
        best_only,
    )


def _close(a: object, b: object, tolerance: float = 1e-3) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, int | float) and isinstance(b, int | float) and abs(a - b) <= tolerance
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_close(a[k], b[k]) for k in a)
    return a == b


def _each_run(line: str) -> str:
    """A demo line without what each run draws afresh: the players' page's port and the
    match's join code.

    >>> _each_run("players' page: http://127.0.0.1:60823/ code SFNZ")
    "players' page: http://127.0.0.1:PORT/ code CODE"
    """
    line = re.sub(r"(127\.0\.0\.1):\d+", r"\1:PORT", line)
    return re.sub(r"\bcode [A-Z0-9]{4,8}\b", "code CODE", line)


def _best_crossword_line(lines: list[str], index: int) -> bool:
    """Whether a line of the demo belongs to its best-crossword search, which has a time
    limit and so finds less on a slower machine."""
    line = lines[index] if index < len(lines) else ""
    return bool(re.search(r"best|proven|search|score", line, re.I))


# The whole check ---------------------------------------------------------------------


def check(report: Report) -> int:
    if os.geteuid() != 0:
        print(
            "pi-check: run it as root (sudo make pi-check): debootstrap, chroot and mounts "
            "need it.",
            file=sys.stderr,
        )
        return 2
    started = time.monotonic()
    report.say(f"pi-check: Debian {SUITE} arm64 under qemu-user, QEMU_CPU={CPU}")
    host_tools(report)
    binfmt(report)
    base_root(report)
    fresh_root(report)
    copy_checkout()
    with mounted(ROOT):
        arch = chroot(ROOT, "uname -m && python3 --version").stdout.split()
        report.say(f"in the root: {' '.join(arch)}")
        install(report, 1)
        install(report, 2)
        pi = probes(here=False, report=report)
    here = probes(here=True, report=report)
    same = compare(pi, here, report)
    for name, unit in (("verify", ["verify"]), ("security", ["security", "--offline=yes"])):
        done = run(["systemd-analyze", *unit, f"--root={ROOT}", "cuberef.service"], check=False)
        text = (done.stdout + done.stderr).strip().splitlines()
        last = text[-1] if text else "no output"
        report.say(f"systemd-analyze {name} on the installed root: exit {done.returncode}; {last}")
    report.table()
    report.say(f"pi-check {'passed' if same else 'FAILED'} in {time.monotonic() - started:.0f} s")
    return 0 if same else 1


def main(argv: Sequence[str]) -> int:
    if argv[:1] == ["probe-model"]:
        probe_model(argv[1])
        return 0
    return run_check("pi-check", check, Report(), LOG)


def run_check(name: str, check: Callable[[Report], int], report: Report, log: Path) -> int:
    """Run a whole check, its failure said in one line, its report kept in ``log``."""
    try:
        code = check(report)
    except (CheckFailed, subprocess.TimeoutExpired) as failure:
        report.say(f"{name} FAILED: {failure}")
        code = 1
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("\n".join(report.lines) + "\n")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
