"""Opening a committed model: its ONNX file and the JSON beside it, checked, in an
onnxruntime session of one thread (the reader runs one photo at a time, on a Pi's cores)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import onnxruntime as ort

from engine.errors import MachineError

FIX = "restore it with git or rebuild it with `make model`"


def open_model(path: Path, what: str) -> tuple[ort.InferenceSession, dict[str, Any]]:
    """The session and the JSON of the model at ``path`` (``what`` names it in sentences),
    once its SHA-256 matches the one its JSON records."""
    meta_path = path.with_suffix(".json")
    if not path.is_file() or not meta_path.is_file():
        raise MachineError(
            f"{what} {path.name} or its {meta_path.name} is missing from {path.parent}; {FIX}."
        )
    try:
        meta: dict[str, Any] = json.loads(meta_path.read_text())
        data = path.read_bytes()
        expected = str(meta["sha256"])
    except (OSError, ValueError, KeyError) as err:
        raise MachineError(f"{what}'s {meta_path.name} cannot be read ({err}); {FIX}.") from err
    if hashlib.sha256(data).hexdigest() != expected:
        raise MachineError(
            f"{what} {path} is corrupt (its SHA-256 does not match {meta_path.name}); {FIX}."
        )
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.log_severity_level = 3
    ort.set_default_logger_severity(3)  # warnings of its own environment, not the model's
    try:
        session = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
    except Exception as err:  # onnxruntime raises its own untyped errors
        raise MachineError(f"onnxruntime cannot open {what} {path.name} ({err}); {FIX}.") from err
    return session, meta
