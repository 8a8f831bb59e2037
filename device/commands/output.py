"""Printing results: one JSON document with ``--json``, readable text otherwise."""

from __future__ import annotations

import json
import sys
from typing import Any


def emit_json(document: Any) -> None:
    """Print ``document`` as the only thing on stdout."""
    json.dump(document, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
