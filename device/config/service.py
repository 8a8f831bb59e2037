"""Which box a command looks at: the configuration file it reads (``--config``, else
``$CUBEREF_CONFIG``, else the service's own) and the match store of that box."""

from __future__ import annotations

import os
from pathlib import Path

from device.config import settings

DEFAULT_PATH = "/etc/cuberef/config.toml"


def config_path(given: str | None) -> str:
    return given or os.environ.get("CUBEREF_CONFIG") or DEFAULT_PATH


#: The service's StateDirectory (systemd/cuberef.service): where its store lives.
SERVICE_STORE = Path("/var/lib/cuberef")


def box_settings(given: str | None) -> settings.Settings:
    """The settings of the box a command looks at, and the box's own (``cuberef run``):
    ``--config``, else the service's file where there is one, else the defaults. Only
    with the service's file read is the store the service's own (/var/lib/cuberef), as
    systemd gives it; else it is the user's (``settings.state_folder``), so that on a
    laptop every command and the box share one store."""
    path = config_path(given)
    read = bool(given) or os.path.exists(path)
    chosen = settings.load(path if read else None)
    service = read and is_services(path) and "STATE_DIRECTORY" not in os.environ
    if service and not chosen.store.folder:
        chosen = settings.overlay(chosen, {"store": {"folder": str(SERVICE_STORE)}})
    return chosen


def store_folder(given: str | None) -> Path:
    """The folder of the match store that the box of ``--config`` (or none) keeps: the
    one place every command (``run``, ``doctor``, ``lexicon house``, ``history``) asks."""
    return settings.state_folder(box_settings(given))


def is_services(path: str) -> bool:
    try:
        return Path(path).resolve() == Path(DEFAULT_PATH).resolve()
    except OSError:
        return False
