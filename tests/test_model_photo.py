"""The face model on a real photo it never saw: every cube of a 4x4 tray, orientation included.

The photo stays in ../shared (its licence keeps it out of the project). The boxes were measured
by looking at the image (454 x 419 pixels); the orientations were read off it the same way:
degrees the letter is turned clockwise, with every look-alike turn of a symmetric letter allowed.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from vision.classifier import FaceClassifier

PHOTOS = Path(__file__).resolve().parents[1] / ".." / "shared" / "photos" / "dev"
TRAY = "kristianhentschel-boogle-boogle-1-original.jpg"

COLUMNS = ((22, 120), (125, 225), (232, 332), (340, 440))  # x from, x to
ROWS = ((8, 108), (105, 205), (205, 305), (308, 412))  # y from, y to
TURNS = (
    ({90}, {0, 180}, {0}, {270}),  # T N T B
    ({0}, {270}, {0}, {0}),  # G D A R
    ({90}, {0}, {180}, {270}),  # E L T E
    ({0, 180}, {90, 270}, {0, 180}, {0, 180}),  # S I S H
)

pytestmark = [
    pytest.mark.photos,
    pytest.mark.skipif(not (PHOTOS / TRAY).is_file(), reason="../shared/photos is not here"),
]


def test_every_face_of_the_tray_photo_is_read() -> None:
    image = cv2.imread(str(PHOTOS / TRAY))
    rows = json.loads((PHOTOS / "labels.json").read_text())["trays"][TRAY]["rows"]
    truth = [face for row in rows for face in row.split()]
    crops = [image[y0:y1, x0:x1] for y0, y1 in ROWS for x0, x1 in COLUMNS]
    preds = FaceClassifier.load().classify(crops)
    turns = [t for row in TURNS for t in row]
    read = [(p.face, p.orientation) for p in preds]
    wrong = [
        (i, truth[i], sorted(turns[i]), read[i])
        for i in range(16)
        if read[i][0] != truth[i] or read[i][1] not in turns[i]
    ]
    assert wrong == []
