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
INSTALLER = ROOT / "systemd" / "install.sh"


def _analyze_works() -> bool:
    if shutil.which("systemd-analyze") is None:
        return False
    help_text = subprocess.run(["systemd-analyze", "--help"], capture_output=True, text=True).stdout
    return "--offline" in help_text and "--root" in help_text  # systemd 250 and newer


analyze = pytest.mark.skipif(not _analyze_works(), reason="no systemd-analyze 250 or newer")


def installed_root(tmp_path: Path) -> Path:
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
def test_systemd_rates_the_unit_3_or_lower(tmp_path):
    """One unit, the page on or off: the configuration alone turns the page on."""
    assert exposure(installed_root(tmp_path)) <= 3.0


@analyze
def test_systemd_verifies_the_unit_clean(tmp_path):
    result = subprocess.run(
        ["systemd-analyze", "verify", f"--root={installed_root(tmp_path)}", "cuberef.service"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0 and result.stdout == result.stderr == "", result.stderr


def test_the_unit_lets_in_the_local_network_and_devices_by_their_groups():
    text = UNIT.read_text(encoding="utf-8")
    assert "IPAddressDeny=any" in text
    assert re.search(r"^RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6$", text, re.M)
    allow = re.search(r"^IPAddressAllow=(.*)$", text, re.M)
    assert allow and "0.0.0.0/0" not in allow.group(1) and "any" not in allow.group(1)
    # Devices by their groups, which udev gives a device whenever it appears: no
    # DeviceAllow= list, which systemd resolves once as the service starts.
    assert "DeviceAllow=" not in re.sub(r"#.*", "", text) and "DevicePolicy" not in text
    assert re.search(r"^SupplementaryGroups=gpio video render input$", text, re.M)
    assert re.search(r"^After=.*systemd-udev-trigger\.service", text, re.M)
    assert re.search(r"^LimitNOFILE=4096$", text, re.M)
    assert re.search(r"^Environment=XDG_CACHE_HOME=/run/cuberef/", text, re.M)


def test_the_installer_is_idempotent_and_writes_nothing_into_the_checkout():
    assert subprocess.run(["sh", "-n", str(INSTALLER)]).returncode == 0
    text = INSTALLER.read_text(encoding="utf-8")
    lines = [line.strip() for line in text.splitlines() if not line.lstrip().startswith("#")]
    code = "\n".join(lines)
    assert code.index("apt-get update") < code.index("apt-get install")
    assert "systemctl restart cuberef.service" in code  # an update runs the new code
    # running is said only once systemd says so, else the journal's last lines are shown
    assert code.index("systemctl is-active --quiet cuberef.service") < code.index(
        "cuberef is running"
    )
    assert "journalctl -u cuberef.service -n 20" in code
    assert 'rm -f "$DROPIN/page.conf"' in code  # an earlier install's drop-in goes
    assert "--system-site-packages" in code  # picamera2 and libcamera come only from apt
    assert "simplejpeg==" in code  # the numpy 2 builds that shadow apt's (pi_ecosystem §2)
    for library in ("libegl1", "libgles2", "libgbm1", "libgl1-mesa-dri"):  # SDL's kmsdrm
        assert library in code
    for group in ("gpio", "video", "render", "input"):
        assert group in code
    # pip builds in the folder it installs from: never the checkout itself.
    installs = [line for line in lines if "pip install" in line and "$SOURCE" in line]
    assert not installs, installs
