"""What the face model says of one crop, as the whole reader passes it on."""

from __future__ import annotations

from dataclasses import dataclass

from engine.faces import ALPHABET


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
