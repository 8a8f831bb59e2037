"""Scripted boxes at a club's tables for the club tests: the demo's ``ClubBox`` with a
reader double that reads the trays it is given (no model run)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from box.conftest import ListReader, tray_reading  # noqa: E402

from device.commands.club_demo import ClubBox  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = ROOT / "device" / "data" / "demo" / "boggle"  # any photo: the reader is a double
TRAYS = ["TNTB/GDAR/ELTE/SISH", "DQuWT/EETN/CSSO/EDBN", "ESAR/TLNE/IOPS/DERT"]


def scripted_box(folder: Path, club: dict[str, Any], boards: list[str]) -> ClubBox:
    reader = ListReader([tray_reading(b) for b in boards])
    return ClubBox(folder, club, PHOTOS, reader, http=False)
