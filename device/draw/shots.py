"""The screens the box saves (``cuberef run --screens FOLDER``, the demo): each one a PNG,
``NN-state.png``, numbered on from the folder's highest after a restart, and for each a
line of ``FOLDER/screens.jsonl``:

    {"t": seconds since the box started, "file": "07-timing.png", "state": "timing",
     "text": [every line of text drawn, in the order drawn], "code": the join code on
     the screen, or null}
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from device.draw.render import Layout

JOURNAL = "screens.jsonl"
_NUMBERED = re.compile(r"^(\d+)-.*\.png$")


class Shots:
    def __init__(self, folder: Path, started: float) -> None:
        self.folder = folder
        self.started = started
        folder.mkdir(parents=True, exist_ok=True)
        numbers = [int(m.group(1)) for p in folder.iterdir() if (m := _NUMBERED.match(p.name))]
        self.number = max(numbers, default=0)

    def next_path(self, state: str) -> Path:
        """Where the next screen of ``state`` goes."""
        self.number += 1
        return self.folder / f"{self.number:02d}-{state}.png"

    def log(self, path: Path, now: float, state: str, layout: Layout, code: str) -> None:
        """One line of the journal for the screen just saved at ``path``."""
        entry = {
            "t": round(now - self.started, 3),
            "file": path.name,
            "state": state,
            "text": [text.text for text in layout.texts],
            "code": code or None,
        }
        with open(self.folder / JOURNAL, "a", encoding="utf-8") as journal:
            journal.write(json.dumps(entry, ensure_ascii=False) + "\n")
