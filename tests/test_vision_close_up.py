"""A cube that fills the photo (issue 48): a close-up of one Boggle cube, its rounded edges
cut off by the frame, in soft focus, is read as that cube. Drawn by ``tests/drawn_cubes``
(a system font, no renderer the model trained on)."""

from __future__ import annotations

import pytest
from drawn_cubes import Cube, draw

from engine.games import find_game
from vision import read

#: Boggle's cubes, read loose (a throw, not a tray): both editions, as the box tries them.
BOGGLE = find_game("boggle")


class _LooseBoggle:
    id, size, dice = "boggle", 0, BOGGLE.dice

    def cube_set(self, dice=None):
        return BOGGLE.cube_set(dice)


@pytest.mark.parametrize(
    ("face", "side", "blur", "turn"),
    [("Z", 880, 9.0, 5.0), ("R", 760, 7.0, -12.0), ("H", 800, 6.0, 20.0)],
)
def test_a_cube_that_overflows_the_frame_in_soft_focus_is_read(face, side, blur, turn) -> None:
    # 800x600: the top, wider than the frame is tall, reaches past all four edges.
    photo = draw(
        [Cube(face, 410, 290, turn=turn, underline=face in "MWZ")],
        size=(800, 600),
        side=side,
        blur=blur,
    )
    reading = read(photo, _LooseBoggle())
    assert [str(f.face) for f in reading.faces] == [face]
    assert reading.faces[0].confidence >= 0.9
