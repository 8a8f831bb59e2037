"""What the face model says of one crop, as the whole reader passes it on."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.faces import ALPHABET

#: The least probability a look is taken to give a class (log 0 is no number).
FLOOR = 1e-12


def pooled(looks: np.ndarray) -> np.ndarray:
    """Looks at one face as one, a logarithmic opinion pool: each class's probabilities'
    geometric mean over the looks (the first axis), made to add up to one again (the last).

    >>> pooled(np.array([[0.6, 0.4], [0.9, 0.1]])).round(2).tolist()
    [0.79, 0.21]
    """
    face = np.exp(np.log(np.maximum(looks, FLOOR)).mean(axis=0))
    return np.asarray(face / face.sum(axis=-1, keepdims=True))


@dataclass(frozen=True, slots=True)
class FacePrediction:
    """What the model sees in one crop. ``face`` is None when it is not a cube's top face."""

    face: str | None
    orientation: int
    confidence: float
    orientation_confidence: float
    #: One per class of ``engine.faces.ALPHABET``, then "none".
    probabilities: tuple[float, ...]
    orientation_probabilities: tuple[float, ...]

    @property
    def is_face(self) -> bool:
        """Whether the model reads the crop as a cube's top face (not its "none")."""
        return self.face is not None

    def by_face(self) -> dict[str, float]:
        """The probability of each face of ``engine.faces.ALPHABET``."""
        return dict(zip(ALPHABET, self.probabilities, strict=False))
