"""Read cube faces with the committed ONNX model: which face, which way up, how sure.

Run time needs only onnxruntime and numpy. The model file is found through importlib.resources
in the ``models`` package and checked against the SHA-256 recorded beside it.

Orientation: the degrees the print is turned clockwise in the crop; ``np.rot90(crop, k)`` with
``k = orientation // 90`` turns it upright. For faces that look the same turned (``S``, ``H``,
``O``), the model spreads its orientation probability over the turns that look alike, so
``orientation_confidence`` is about 1/2 or 1/4 there: the crop cannot say more.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import numpy as np
import onnxruntime as ort

from engine.errors import MachineError
from engine.faces import ALPHABET

MODEL_NAME = "cube_faces.onnx"


@dataclass(frozen=True, slots=True)
class FacePrediction:
    """What the model sees in one crop. ``face`` is None when it is not a cube's top face."""

    face: str | None
    orientation: int
    confidence: float
    orientation_confidence: float
    probabilities: tuple[float, ...]
    orientation_probabilities: tuple[float, ...]


def _resize(img: np.ndarray, size: int) -> np.ndarray:
    """Resize an (H, W, C) float image to (size, size, C): box average down, bilinear up."""
    h, w = img.shape[:2]
    out = img
    if h > size or w > size:  # area averaging, as the renderer's INTER_AREA
        ii = np.zeros((h + 1, w + 1, img.shape[2]), np.float64)
        ii[1:, 1:] = img.astype(np.float64).cumsum(0).cumsum(1)
        ys = np.linspace(0, h, size + 1) if h > size else None
        xs = np.linspace(0, w, size + 1) if w > size else None
        if ys is not None and xs is not None:
            y0, y1 = np.floor(ys[:-1]).astype(int), np.maximum(np.floor(ys[1:]).astype(int), 1)
            x0, x1 = np.floor(xs[:-1]).astype(int), np.maximum(np.floor(xs[1:]).astype(int), 1)
            y1 = np.maximum(y1, y0 + 1)
            x1 = np.maximum(x1, x0 + 1)
            s = ii[y1][:, x1] - ii[y0][:, x1] - ii[y1][:, x0] + ii[y0][:, x0]
            out = (s / ((y1 - y0)[:, None, None] * (x1 - x0)[None, :, None])).astype(np.float32)
    h, w = out.shape[:2]
    if (h, w) != (size, size):  # bilinear, pixel centres aligned as OpenCV's INTER_LINEAR
        y = np.clip((np.arange(size) + 0.5) * h / size - 0.5, 0, h - 1)
        x = np.clip((np.arange(size) + 0.5) * w / size - 0.5, 0, w - 1)
        y0, x0 = np.floor(y).astype(int), np.floor(x).astype(int)
        y1, x1 = np.minimum(y0 + 1, h - 1), np.minimum(x0 + 1, w - 1)
        fy, fx = (y - y0)[:, None, None], (x - x0)[None, :, None]
        top = out[y0][:, x0] * (1 - fx) + out[y0][:, x1] * fx
        bottom = out[y1][:, x0] * (1 - fx) + out[y1][:, x1] * fx
        out = (top * (1 - fy) + bottom * fy).astype(np.float32)
    return out


class FaceClassifier:
    """The face model in an onnxruntime session; ``classify`` reads a batch of crops."""

    def __init__(self, session: ort.InferenceSession, meta: dict) -> None:
        self._session = session
        self.classes: tuple[str, ...] = tuple(meta["classes"])
        self.orientations: tuple[int, ...] = tuple(meta["orientations"])
        self.input_size: int = int(meta["input"]["size"])
        self._none = meta["none"]

    @classmethod
    def load(cls, path: Path | None = None) -> FaceClassifier:
        """Open the committed model (or the ONNX file at ``path``), checking its SHA-256."""
        onnx_path = path or Path(str(files("models") / MODEL_NAME))
        meta_path = onnx_path.with_suffix(".json")
        if not onnx_path.is_file() or not meta_path.is_file():
            raise MachineError(
                f"The face model {onnx_path.name} or its {meta_path.name} is missing from "
                f"{onnx_path.parent}; restore it with git or rebuild it with `make model`."
            )
        try:
            meta = json.loads(meta_path.read_text())
            data = onnx_path.read_bytes()
            expected = meta["sha256"]
        except (OSError, ValueError, KeyError) as err:
            raise MachineError(
                f"The face model's {meta_path.name} cannot be read ({err}); restore it with git "
                "or rebuild it with `make model`."
            ) from err
        if hashlib.sha256(data).hexdigest() != expected:
            raise MachineError(
                f"The face model {onnx_path} is corrupt (its SHA-256 does not match "
                f"{meta_path.name}); restore it with git or rebuild it with `make model`."
            )
        if tuple(meta.get("classes", ())) != (*ALPHABET, meta.get("none")):
            raise MachineError(
                f"The face model {onnx_path.name} was trained for other faces than this version "
                "of cuberef knows; rebuild it with `make model`."
            )
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.log_severity_level = 3
        try:
            session = ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])
        except Exception as err:  # onnxruntime raises its own untyped errors
            raise MachineError(
                f"onnxruntime cannot open the face model {onnx_path.name} ({err}); rebuild it "
                "with `make model`."
            ) from err
        return cls(session, meta)

    def prepare(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Crops (BGR or grey uint8, any size) as the model's (N, 3, S, S) float32 input."""
        batch = np.empty((len(crops), self.input_size, self.input_size, 3), np.float32)
        for i, crop in enumerate(crops):
            img = np.asarray(crop)
            if img.ndim == 2:
                img = img[..., None]
            if img.ndim != 3 or img.shape[0] == 0 or img.shape[1] == 0:
                raise ValueError(f"crop {i} has shape {img.shape}; expected an (H, W, 3) image.")
            if img.shape[2] == 1:
                img = np.repeat(img, 3, axis=2)
            batch[i] = _resize(img[..., :3].astype(np.float32), self.input_size)
        return np.ascontiguousarray(batch.transpose(0, 3, 1, 2) / 255.0, dtype=np.float32)

    def run(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Face probabilities (N, classes) and orientation probabilities (N, 4), one batch."""
        if len(crops) == 0:
            return np.zeros((0, len(self.classes)), np.float32), np.zeros((0, 4), np.float32)
        faces, orients = self._session.run(None, {"image": self.prepare(crops)})
        return faces, orients

    def classify(self, crops: Sequence[np.ndarray]) -> list[FacePrediction]:
        """What each crop shows, in one batched run of the model."""
        faces, orients = self.run(crops)
        out = []
        for f, o in zip(faces, orients, strict=True):
            c, k = int(f.argmax()), int(o.argmax())
            name = self.classes[c]
            out.append(
                FacePrediction(
                    face=None if name == self._none else name,
                    orientation=self.orientations[k],
                    confidence=float(f[c]),
                    orientation_confidence=float(o[k]),
                    probabilities=tuple(float(p) for p in f),
                    orientation_probabilities=tuple(float(p) for p in o),
                )
            )
        return out
