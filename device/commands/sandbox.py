"""A command run inside the service's sandbox: ``cuberef doctor --service``.

The doctor run from a shell sees every device, every address family and every file; the
service sees what its unit allows. So ``--service`` runs the doctor again as a transient
unit (``systemd-run``) with the installed unit's own [Service] settings (its user, its
groups, its device and network rules, its system call filter), read from ``systemctl
cat`` so that a drop-in counts too, and passes on what it prints and its exit code. Its
runtime folder is its own, so the running service's is left alone.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Sequence

from engine.errors import MachineError

UNIT = "cuberef.service"
#: [Service] settings that say how the service runs, not what it may do: left out.
HOW_IT_RUNS = {
    "Type",
    "ExecStart",
    "ExecStartPre",
    "ExecStartPost",
    "ExecStop",
    "ExecStopPost",
    "ExecReload",
    "Restart",
    "RestartSec",
    "RestartPreventExitStatus",
    "TimeoutStopSec",
    "TimeoutStartSec",
    "StandardOutput",
    "StandardError",
    "StandardInput",
    "SyslogIdentifier",
}
#: The runtime folder of the service, and the doctor's own in its place.
RUNTIME, OWN_RUNTIME = "cuberef", "cuberef-doctor"


def sandbox_properties(unit_text: str) -> list[str]:
    """The ``--property`` values of the unit's [Service] sections (the unit's and its
    drop-ins', in order), its runtime folder renamed to the doctor's own.

    >>> sandbox_properties("[Service]\\nUser=cuberef\\nRestart=always\\n"
    ...                    "Environment=LG_WD=/run/cuberef\\n[Install]\\nWantedBy=x\\n")
    ['User=cuberef', 'Environment=LG_WD=/run/cuberef-doctor']
    """
    found: list[str] = []
    section = ""
    for raw in unit_text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        key, sep, value = line.partition("=")
        if section != "Service" or not sep or key.strip() in HOW_IT_RUNS:
            continue
        if key.strip() == "RuntimeDirectory":
            value = OWN_RUNTIME
        value = value.replace(f"/run/{RUNTIME}", f"/run/{OWN_RUNTIME}")
        found.append(f"{key.strip()}={value}")
    return found


def executable(unit_text: str) -> list[str]:
    """The service's program and its ``--config``, from its ExecStart."""
    starts = re.findall(r"^ExecStart=(.+)$", unit_text, re.M)
    words = shlex.split(starts[-1]) if starts else []
    if not words:
        raise MachineError(f"{UNIT} has no ExecStart; run systemd/install.sh again.")
    program = words[0].lstrip("-@:+!")
    at = words.index("--config") + 1 if "--config" in words else len(words)
    return [program, *(["--config", words[at]] if at < len(words) else [])]


def run_in_service(arguments: Sequence[str]) -> int:
    """``cuberef ARGUMENTS`` in the service's sandbox; its exit code."""
    systemctl, systemd_run = shutil.which("systemctl"), shutil.which("systemd-run")
    if systemctl is None or systemd_run is None:
        raise MachineError("There is no systemd here, so there is no service to check.")
    shown = subprocess.run([systemctl, "cat", UNIT], capture_output=True, text=True)
    if shown.returncode != 0:
        raise MachineError(
            f"{UNIT} is not installed here ({shown.stderr.strip() or 'systemctl cat failed'}); "
            "install it with: sudo systemd/install.sh"
        )
    program, *config = executable(shown.stdout)
    command = [systemd_run, "--wait", "--pipe", "--quiet", "--collect"]
    command += [f"--unit=cuberef-doctor-{os.getpid()}", "--description=cuberef doctor --service"]
    command += [f"--property={p}" for p in sandbox_properties(shown.stdout)]
    command += ["--", program, *arguments, *config]
    try:
        return subprocess.run(command, check=False).returncode
    except OSError as error:
        raise MachineError(f"systemd-run could not run the doctor ({error.strerror}).") from None
