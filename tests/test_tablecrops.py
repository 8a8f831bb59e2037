"""Face crops cut from the 3D tables (models.tablecrops): labelled as the reader will read them."""

from __future__ import annotations

import numpy as np

from models.dataset import CLASSES, NONE
from models.tablecrops import make_table_set, print_turn
from vision.classifier import FaceClassifier


def test_a_print_turned_clockwise_is_labelled_with_its_turn():
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    # The print's top left lies at the crop's top right: turned a quarter clockwise.
    assert print_turn(np.roll(square, -1, axis=0), square) == 1
    assert [print_turn(np.roll(square, -k, axis=0), square) for k in range(4)] == [0, 1, 2, 3]


def test_the_face_model_reads_table_crops_as_they_are_labelled():
    """Crops of tops carry the face and the turn the committed model reads in them (a wrong
    turn in the labels would show as turns read wrong); sides and table are "none"."""
    data = make_table_set(6, 5, "val")
    faces, turns = FaceClassifier.load().run(list(data.images))
    truth = data.faces.argmax(1)
    tops = truth != NONE
    read = faces.argmax(1)
    turned = data.orientations[np.arange(len(data)), turns.argmax(1)] > 0
    assert tops.sum() >= 30 and (~tops).sum() >= 10
    assert ((read == truth) & turned)[tops].mean() >= 0.85
    assert {CLASSES[c] for c in truth[~tops]} == {"none"}
