"""Read cube faces with the committed ONNX model: which face, which way up, how sure.

Run time needs only onnxruntime and numpy. The model file is found through importlib.resources
in the ``models`` package and checked against the SHA-256 recorded beside it.

Orientation: the degrees the print is turned clockwise in the crop; ``np.rot90(crop, k)`` with
``k = orientation // 90`` turns it upright. For faces that look the same turned (``S``, ``H``,
``O``), the model spreads its orientation probability over the turns that look alike, so
``orientation_confidence`` is about 1/2 or 1/4 there: the crop cannot say more.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np
import onnxruntime as ort

from engine.errors import MachineError
from engine.faces import ALPHABET
from vision.onnx import open_model
from vision.prediction import FacePrediction, pooled

MODEL_NAME = "cube_faces.onnx"


def _resample(x: np.ndarray, axis: int, size: int) -> np.ndarray:
    """Resample one axis to ``size``: average whole blocks of pixels, then bilinear.

    Strided adds and gathers only: numpy's strided reductions and small BLAS products cost
    several times more on a busy machine. Exactly OpenCV's INTER_AREA when the side is a
    multiple of ``size``, and its INTER_LINEAR when the side is smaller.
    """
    n = x.shape[axis]
    f = n // size
    if f >= 2:
        m = n // f
        off = (n - m * f) // 2
        index: list[slice] = [slice(None)] * x.ndim
        total = None
        for k in range(f):
            index[axis] = slice(off + k, off + m * f, f)
            part = x[tuple(index)]
            total = part.copy() if total is None else np.add(total, part, out=total)
        assert total is not None
        x, n = total * (1.0 / f), m
    if n == size:
        return x
    src = np.clip((np.arange(size) + 0.5) * n / size - 0.5, 0, n - 1)
    lo = np.floor(src).astype(int)
    hi = np.minimum(lo + 1, n - 1)
    shape = [1] * x.ndim
    shape[axis] = size
    frac = (src - lo).astype(np.float32).reshape(shape)
    out: np.ndarray = np.take(x, lo, axis=axis) * (1 - frac) + np.take(x, hi, axis=axis) * frac
    return out


def _resize_batch(images: np.ndarray, size: int) -> np.ndarray:
    """(N, H, W, C) images as a (N, C, size, size) float32 batch."""
    x = _resample(images.astype(np.float32), 1, size)
    out: np.ndarray = _resample(x, 2, size).transpose(0, 3, 1, 2)
    return out


def _resize(img: np.ndarray, size: int) -> np.ndarray:
    """One (H, W, C) image resized to (size, size, C)."""
    out: np.ndarray = _resize_batch(img[None], size)[0].transpose(1, 2, 0)
    return out


class FaceClassifier:
    """The face model in an onnxruntime session; ``classify`` reads a batch of crops."""

    def __init__(self, session: ort.InferenceSession, meta: dict[str, Any]) -> None:
        self._session = session
        self.classes: tuple[str, ...] = tuple(meta["classes"])
        self.orientations: tuple[int, ...] = tuple(meta["orientations"])
        self.input_size: int = int(meta["input"]["size"])
        self._none = meta["none"]

    @classmethod
    def load(cls, path: Path | None = None) -> FaceClassifier:
        """Open the committed model (or the ONNX file at ``path``), checking its SHA-256."""
        onnx_path = path or Path(str(files("models") / MODEL_NAME))
        session, meta = open_model(onnx_path, "The face model")
        if tuple(meta.get("classes", ())) != (*ALPHABET, meta.get("none")):
            raise MachineError(
                f"The face model {onnx_path.name} was trained for other faces than this version "
                "of cuberef knows; rebuild it with `make model`."
            )
        return cls(session, meta)

    def prepare(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Crops (BGR or grey uint8, any size) as the model's (N, 3, S, S) float32 input."""
        s = self.input_size
        batch = np.empty((len(crops), 3, s, s), np.float32)
        groups: dict[tuple[int, int], list[int]] = {}
        images = []
        for i, crop in enumerate(crops):
            img = np.asarray(crop)
            if img.ndim == 2:
                img = img[..., None]
            if img.ndim != 3 or img.shape[0] == 0 or img.shape[1] == 0:
                raise ValueError(f"crop {i} has shape {img.shape}; expected an (H, W, 3) image.")
            if img.shape[2] == 1:
                img = np.repeat(img, 3, axis=2)
            images.append(img[..., :3])
            groups.setdefault(img.shape[:2], []).append(i)
        for idx in groups.values():  # crops of one size are resampled together
            batch[idx] = _resize_batch(np.stack([images[i] for i in idx]), s)
        batch *= 1 / 255
        return batch

    def run(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Face probabilities (N, classes) and orientation probabilities (N, 4), one batch.

        Each crop is read at its four quarter turns and the readings combined: a face the
        model reads one way at one turn and another way at the next (a slanted I, an
        underline mark half seen) is settled by what the turns agree on. The face
        probabilities are the turns' geometric mean, the orientations are turned back and
        averaged.
        """
        n = len(crops)
        if n == 0:
            return np.zeros((0, len(self.classes)), np.float32), np.zeros((0, 4), np.float32)
        batch = self.prepare(crops)
        turned = np.concatenate([np.rot90(batch, k, axes=(2, 3)) for k in range(4)])
        faces, orients = self._session.run(None, {"image": np.ascontiguousarray(turned)})
        faces = np.asarray(faces, np.float64).reshape(4, n, -1)
        orients = np.asarray(orients, np.float64).reshape(4, n, -1)
        # A crop turned k quarters counter-clockwise reads k orientations lower.
        orient = np.mean([np.roll(orients[k], k, axis=1) for k in range(4)], axis=0)
        face = pooled(faces)
        return face.astype(np.float32), orient.astype(np.float32)

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
