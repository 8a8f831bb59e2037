"""Issue 32's service, what runs without systemd: the page turned on where the sandbox
forbids the network is a sentence on the screen, not a crash loop; failures back off
to a minute and say why; ``doctor --service`` runs with the unit's own settings. The
real unit under a real systemd is ``make service-check``."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

import pytest

from device.box import restarts
from device.commands.sandbox import executable, sandbox_properties

from .test_round import box_settings, build

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_on_where_the_network_is_refused_is_a_sentence(tmp_path, photos, monkeypatch):
    """What a unit without AF_INET did: Errno 97 at the page's socket, seven restarts in
    25 s. Now the box plays on and says why on its screen."""
    real = socket.socket

    def sandboxed(family=socket.AF_INET, *args, **kwargs):
        if family in (socket.AF_INET, socket.AF_INET6):
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        return real(family, *args, **kwargs)

    monkeypatch.setattr(socket, "socket", sandboxed)
    chosen = box_settings(tmp_path, photos, "big-boggle")
    chosen["page"].update(enabled=True, port=0)
    made, _, _ = build(tmp_path, photos, settings=chosen)
    made.box.step()
    assert made.page is None and made.referee.page_address == ""
    notice = made.box.screen.shown.notice
    assert "players' page is off" in notice and "may not use the network" in notice
    made.close()


def test_failures_in_a_row_back_off_to_a_minute_and_a_clean_stop_forgets(tmp_path):
    now = [1000.0]
    waited: list[float] = []
    delays = []
    for _ in range(8):  # the box fails at once, each time systemd starts it
        before = len(waited)
        restarts.wait(tmp_path, waited.append, clock=lambda: now[0])
        delays.append(waited[-1] if len(waited) > before else 0.0)
        now[0] += delays[-1]
        restarts.failed(tmp_path, "The display did not appear.", clock=lambda: now[0])
        now[0] += 2  # RestartSec=2
    # from one failure to the next start: 2 s, then 4, 8, 16, 32, and a minute at most
    assert [d + 2 for d in delays[1:]] == [2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]
    assert "failed 8 times in a row (The display did not appear.)" in restarts.wait(
        tmp_path, lambda s: None, clock=lambda: now[0]
    )
    restarts.forget(tmp_path)
    assert restarts.wait(tmp_path, waited.append, clock=lambda: now[0]) == ""
    restarts.failed(tmp_path, "x", clock=lambda: now[0])
    now[0] += restarts.FORGET + 1  # a failure long ago starts no back-off
    assert restarts.wait(tmp_path, waited.append, clock=lambda: now[0]) == ""


def test_the_doctor_in_the_service_takes_the_units_sandbox():
    unit = (ROOT / "systemd" / "cuberef.service").read_text(encoding="utf-8")
    properties = sandbox_properties(unit)
    keys = [p.split("=", 1)[0] for p in properties]
    for key in ("User", "SupplementaryGroups", "ProtectSystem", "SystemCallFilter"):
        assert key in keys
    assert "IPAddressAllow=" + unit.split("IPAddressAllow=")[1].splitlines()[0] in properties
    assert not {"ExecStart", "Restart", "RestartSec", "Type"} & set(keys)
    assert "RuntimeDirectory=cuberef-doctor" in properties  # the service's own is left alone
    assert all("/run/cuberef/" not in p and not p.endswith("/run/cuberef") for p in properties)
    assert executable(unit) == [
        "/opt/cuberef/.venv/bin/cuberef",
        "--config",
        "/etc/cuberef/config.toml",
    ]


@pytest.mark.parametrize("given", ["", "[Service]\nUser=x\n"])
def test_a_unit_without_execstart_is_a_sentence(given):
    from engine.errors import MachineError

    with pytest.raises(MachineError, match="has no ExecStart"):
        executable(given)
