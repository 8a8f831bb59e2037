"""The service's unit and installer: systemd-analyze rates the unit's exposure 3.0 or
lower (with the players' page on too) and verifies it clean, where the tool exists; the
installer is idempotent and leaves nothing in the checkout. The installer's real run
is ``make pi-check``, in an emulated Pi."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "cuberef.service"
PAGE = ROOT / "systemd" / "page.conf"
INSTALLER = ROOT / "systemd" / "install.sh"


def _analyze_works() -> bool:
    if shutil.which("systemd-analyze") is None:
        return False
    help_text = subprocess.run(["systemd-analyze", "--help"], capture_output=True, text=True).stdout
    return "--offline" in help_text and "--root" in help_text  # systemd 250 and newer


analyze = pytest.mark.skipif(not _analyze_works(), reason="no systemd-analyze 250 or newer")


def installed_root(tmp_path: Path, page: bool = False) -> Path:
    """A root as the installer leaves it, for systemd-analyze's --root: this system's
    own units (the unit's dependencies), the unit, and the entry point at ExecStart."""
    root = tmp_path / "root"
    units = root / "usr" / "lib" / "systemd"
    units.mkdir(parents=True)
    for system in ("/usr/lib/systemd/system", "/lib/systemd/system"):
        if Path(system).is_dir():
            shutil.copytree(system, units / "system", symlinks=True, dirs_exist_ok=True)
            break
    here = root / "etc" / "systemd" / "system"
    here.mkdir(parents=True)
    shutil.copy(UNIT, here / "cuberef.service")
    if page:
        (here / "cuberef.service.d").mkdir()
        shutil.copy(PAGE, here / "cuberef.service.d" / "page.conf")
    entry = root / "opt" / "cuberef" / ".venv" / "bin" / "cuberef"
    entry.parent.mkdir(parents=True)
    shutil.copy(shutil.which("cuberef") or ROOT / ".venv" / "bin" / "cuberef", entry)
    return root


def exposure(root: Path) -> float:
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", f"--root={root}", "cuberef.service"],
        capture_output=True,
        text=True,
    )
    found = re.search(r"Overall exposure level for cuberef\.service: (\d+\.\d)", result.stdout)
    assert found, result.stdout + result.stderr
    return float(found.group(1))


@analyze
@pytest.mark.parametrize("page", [False, True], ids=["alone", "with the players' page"])
def test_systemd_rates_the_unit_3_or_lower(tmp_path, page):
    assert exposure(installed_root(tmp_path, page)) <= 3.0


@analyze
@pytest.mark.parametrize("page", [False, True], ids=["alone", "with the players' page"])
def test_systemd_verifies_the_unit_clean(tmp_path, page):
    result = subprocess.run(
        [
            "systemd-analyze",
            "verify",
            f"--root={installed_root(tmp_path, page)}",
            "cuberef.service",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0 and result.stdout == result.stderr == "", result.stderr


def test_the_unit_lets_in_only_the_devices_and_networks_the_box_uses():
    text = UNIT.read_text(encoding="utf-8")
    allowed = re.findall(r"^DeviceAllow=(\S+) (\S+)$", text, re.M)
    assert dict(allowed) == {
        "char-gpiochip": "rw",  # the button and the buzzer
        "char-drm": "rw",  # the screen
        "char-video4linux": "rw",  # cameras
        "char-media": "rw",  # libcamera's media controller
        "char-dma_heap": "rw",  # libcamera's buffers
        "char-input": "r",  # the touch panel
    }
    assert "DevicePolicy=closed" in text and "IPAddressDeny=any" in text
    assert re.search(r"^RestrictAddressFamilies=AF_UNIX AF_NETLINK$", text, re.M)
    page = PAGE.read_text(encoding="utf-8")
    allow = re.search(r"^IPAddressAllow=(.*)$", page, re.M)
    assert allow and "0.0.0.0/0" not in allow.group(1) and "any" not in allow.group(1)


def test_the_installer_is_idempotent_and_writes_nothing_into_the_checkout():
    assert subprocess.run(["sh", "-n", str(INSTALLER)]).returncode == 0
    text = INSTALLER.read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines() if not line.lstrip().startswith("#")]
    code = "\n".join(lines)
    assert code.index("apt-get update") < code.index("apt-get install")
    assert "systemctl restart cuberef.service" in code  # an update runs the new code
    assert "--system-site-packages" in code  # picamera2 and libcamera come only from apt
    assert "simplejpeg==" in code  # the numpy 2 builds that shadow apt's (pi_ecosystem §2)
    for library in ("libegl1", "libgles2", "libgbm1", "libgl1-mesa-dri"):  # SDL's kmsdrm
        assert library in code
    for group in ("gpio", "video", "render", "input"):
        assert group in code
    # pip builds in the folder it installs from: never the checkout itself.
    installs = [line for line in lines if "pip install" in line and "$SOURCE" in line]
    assert not installs, installs
