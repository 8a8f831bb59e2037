"""One cube thrown, an N or a Z (issue 48): the cube's own mark (the Ad-Lib value printed
in its lower right corner) tells which, whatever the model makes of the print; with no
mark the answer is both, flagged. Drawn by ``tests/drawn_cubes`` (a system font)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest
from drawn_cubes import Cube, draw

from engine.faces import ALPHABET
from engine.games import find_game
from vision import read
from vision.models import face_model
from vision.prediction import FacePrediction

ADLIB = find_game("adlib")
N, Z = ALPHABET.index("N"), ALPHABET.index("Z")


class _Fooled:
    """The face model, fooled as a print where an N turned is a Z to the eye fools it: its
    N and Z swapped, each with the other's turn (a quarter on)."""

    input_size = face_model().input_size

    def classify(self, crops: Sequence[np.ndarray]) -> list[FacePrediction]:
        out = []
        for said in face_model().classify(crops):
            if said.face not in ("N", "Z"):
                out.append(said)
                continue
            p = list(said.probabilities)
            p[N], p[Z] = p[Z], p[N]
            turns = tuple(np.roll(said.orientation_probabilities, 1))
            face = "Z" if said.face == "N" else "N"
            out.append(
                replace(
                    said,
                    face=face,
                    probabilities=tuple(p),
                    orientation=(said.orientation + 90) % 360,
                    orientation_probabilities=turns,
                )
            )
        return out


@pytest.mark.parametrize("turn", [8.0, 98.0, 278.0])
def test_a_thrown_adlib_n_is_told_from_a_z_by_its_printed_value(turn) -> None:
    photo = draw([Cube("N", 320, 240, turn=turn, value="2")], side=120)
    reading = read(photo, ADLIB, classifier=_Fooled())
    assert [str(f.face) for f in reading.faces] == ["N"]
    assert reading.faces[0].confidence >= 0.9 and reading.faces[0].either == ()


def test_an_n_with_no_mark_is_flagged_as_either_face() -> None:
    photo = draw([Cube("N", 320, 240, turn=98.0)], side=120)
    reading = read(photo, ADLIB)
    (face,) = reading.faces
    assert face.either == ("N", "Z") and face.doubtful
    assert reading.to_json()["faces"][0]["either"] == ["N", "Z"]
    assert any("N or Z" in warning and "upright" in warning for warning in reading.warnings)
