"""The reader's two models, each loaded once, when first needed, and kept: the face model
and the cube-top detector (onnxruntime is imported only then)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.classifier import FaceClassifier
    from vision.tops import TopDetector


@functools.cache
def face_model() -> FaceClassifier:
    """The committed face model (``models/cube_faces.onnx``)."""
    from vision.classifier import FaceClassifier

    return FaceClassifier.load()


@functools.cache
def top_detector() -> TopDetector:
    """The committed cube-top detector (``models/cube_tops.onnx``)."""
    from vision.tops import TopDetector

    return TopDetector.load()
