"""Evidence that adds up (``vision.evidence``): a cube that has not moved keeps what every
frame it was read in said of it. A cube the model doubts in every frame, while what else
it might be changes from frame to frame, becomes sure; a doubt every frame shares stays;
a cube that moved starts afresh. And a cube of the roll that no frame shows makes the
running score unsure (``device.seams.live``)."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
from live_frames import CROSSWORD, FACES
from live_frames import ROLL as ROLL_TEXT

from device.seams.live import live_view, unseen_cubes
from device.seams.live_turn import LiveTurn
from device.seams.seams import VisionReader
from engine.adlib import Roll
from engine.faces import Face
from engine.games import find_game
from models.sequences import Shot, Table, building, laid
from vision.evidence import Evidence
from vision.live import LiveReader, State
from vision.reading import DOUBTFUL, FaceReading, LooseReading

GAME = find_game("adlib")
ROLL = Roll.parse(ROLL_TEXT, "adlib")


def _cube(face: str, said: dict[str, float], x: float = 100.0) -> FaceReading:
    corners = ((x - 20, 80.0), (x + 20, 80.0), (x + 20, 120.0), (x - 20, 120.0))
    evidence = tuple(sorted(said.items(), key=lambda item: -item[1]))
    return FaceReading(Face(face), x, 100.0, said[face], 0, corners, (0, 0), evidence=evidence)


def _reading(*faces: FaceReading) -> LooseReading:
    return LooseReading("adlib", faces, ("A",), ())


def _still(_: np.ndarray) -> bool:
    return False


def test_a_face_every_frame_puts_first_among_changing_doubts_becomes_sure() -> None:
    evidence = Evidence()
    doubts = [{"O": 0.7, "Q": 0.25}, {"O": 0.7, "D": 0.25}, {"O": 0.7, "C": 0.25}]
    shown = [evidence.combine(_reading(_cube("O", said)), 800, _still) for said in doubts]
    confidences = [reading.faces[0].confidence for reading in shown]
    assert confidences[0] < DOUBTFUL <= confidences[1] <= confidences[2]
    assert all(str(reading.faces[0].face) == "O" for reading in shown)


def test_a_doubt_every_frame_shares_stays_however_many_frames() -> None:
    # A narrow O that looks like a D in each frame: the frames are one view, seen again.
    evidence = Evidence()
    for _ in range(20):
        reading = evidence.combine(_reading(_cube("D", {"D": 0.7, "O": 0.25})), 800, _still)
    assert reading.faces[0].doubtful and abs(reading.faces[0].confidence - 0.7) < 0.02


def test_frames_that_read_the_cube_otherwise_make_it_doubtful() -> None:
    evidence = Evidence()
    for said in ({"O": 0.95, "D": 0.04},) * 2:
        evidence.combine(_reading(_cube("O", said)), 800, _still)
    reading = evidence.combine(_reading(_cube("D", {"D": 0.9, "O": 0.08})), 800, _still)
    assert reading.faces[0].doubtful


def test_a_cube_that_moved_or_lies_elsewhere_starts_afresh() -> None:
    evidence = Evidence()
    evidence.combine(_reading(_cube("O", {"O": 0.95, "D": 0.04})), 800, _still)
    moved = evidence.combine(_reading(_cube("D", {"D": 0.9, "O": 0.08})), 800, lambda _: True)
    assert moved.faces[0].confidence == 0.9
    elsewhere = evidence.combine(_reading(_cube("O", {"O": 0.7, "Q": 0.2}, x=300)), 800, _still)
    assert elsewhere.faces[0].confidence == 0.7


def test_a_still_at_another_size_meets_the_frames_cubes() -> None:
    evidence = Evidence()
    for said in ({"O": 0.7, "Q": 0.25}, {"O": 0.7, "D": 0.25}):
        evidence.combine(_reading(_cube("O", said)), 800, _still)
    big = _cube("O", {"O": 0.7, "C": 0.25})
    big = replace(
        big, x=big.x * 2, y=big.y * 2, corners=tuple((2 * x, 2 * y) for x, y in big.corners)
    )
    assert not evidence.combine(_reading(big), 1600, _still, remember=False).faces[0].doubtful


def _shadowed(face: str):  # noqa: ANN202 - the reader's own value
    """The real reader, but the crossword's ``face`` read doubtfully in every frame (a
    shadow across it), what else it might be changing from frame to frame."""
    reader = VisionReader()
    others = itertools.cycle("NZHK")

    def read(image: np.ndarray) -> LooseReading:
        reading = reader.read_table(image, GAME)
        other = next(others)
        faces = tuple(
            replace(f, confidence=0.7, evidence=((face, 0.7), (other, 0.25)))
            if str(f.face) == face and f.cell is not None
            else f
            for f in reading.faces
        )
        return replace(reading, faces=faces)

    return read


#: The README's crossword laid in three stages, the S of STEM in the first.
STAGES = (["S....", "T....", "E....", "MONEY"], ["S....", "T.B..", "E.U..", "MONEY"], CROSSWORD)


def test_a_doubtful_cube_is_made_sure_by_the_frames_of_a_turn(table: Table) -> None:
    # The S is doubtful in every frame read: the first readings' score is not sure; the
    # frames read as the crossword grows round it agree, and the true score shows.
    images = [table.photo(shot, n) for n, shot in enumerate(building(table, STAGES, rest=3))]
    # No roll given: with one, the cubes all seen surely elsewhere would settle the S alone.
    live = LiveReader(_shadowed("S"))
    views = [live_view(seen, GAME) if seen else None for seen in map(live.update, images)]
    first = next(v for v in views if v is not None and v.grid)
    assert first.grid == tuple(STAGES[0]) and first.score is None
    assert views[-1] is not None and views[-1].grid == tuple(CROSSWORD)
    assert views[-1].score == 31
    # And the reading at 0:00 uses the turn's evidence: a still that doubts the S as much.
    turn = LiveTurn(iter(images).__next__, _shadowed("S"), GAME, lambda: ROLL)
    for _ in images:
        turn.step()
    scored, note = turn.final(images[-1], _shadowed("S"))
    assert note == "" and scored.grid == tuple(CROSSWORD)
    assert not any(face.doubtful for face in scored.faces if face.cell is not None)


def test_a_cube_of_the_roll_no_frame_shows_leaves_the_score_unsure() -> None:
    # The table lacks the Q that the roll has: it may lie under the crossword's last
    # letter, unseen, as well as anywhere else; the score waits until it is seen.
    table = Table(3, FACES[:-1], frame=(800, 600))
    shot = Shot(laid(table, CROSSWORD))
    frames = [table.photo(shot, n) for n in range(3)]
    reader = VisionReader()
    live = LiveReader(lambda image: reader.read_table(image, GAME))
    seen = [live.update(frame) for frame in frames][-1]
    assert seen is not None and seen.state is State.CROSSWORD
    view = live_view(seen, GAME, ROLL)
    assert view.grid == tuple(CROSSWORD) and view.unused == ("Q",)
    assert view.score is None and view.unseen == ("Q",)
    assert "not seen: Q" in view.describe(2)
    # The whole table, the Q in sight: the same crossword scores.
    whole = Table(3, FACES, frame=(800, 600))
    live = LiveReader(lambda image: reader.read_table(image, GAME))
    frames = [whole.photo(Shot(laid(whole, CROSSWORD)), n) for n in range(3)]
    seen = [live.update(frame) for frame in frames][-1]
    assert seen is not None and live_view(seen, GAME, ROLL).score == 31


def test_a_loose_cube_read_doubtfully_stands_for_a_missing_one() -> None:
    loose = [FaceReading(Face(f), 0, 0, p, 0, ()) for f, p in (("Q", 0.99), ("E", 0.97))]
    reading = LooseReading("adlib", tuple(loose), ("HI",), ())
    assert unseen_cubes(["Q", "E", "S"], reading) == ("S",)
    loose.append(FaceReading(Face("Z"), 0, 0, 0.5, 0, ()))
    assert unseen_cubes(["Q", "E", "S"], replace(reading, faces=tuple(loose))) == ()


def test_a_doubt_between_faces_the_roll_has_and_has_not_free_is_settled_by_the_roll() -> None:
    # MONEY laid, the other eight cubes of the roll loose; the crossword's O is read
    # doubtfully, as a D at 0.25, in every frame: no frame makes it surer. The roll has no
    # D: the score shows at once, as where the O was read surely.
    def cube(face: str, x: float, sure: float = 0.99, rival: str = "D") -> FaceReading:
        said = {face: sure, rival: 0.97 - sure} if sure < DOUBTFUL else {face: sure}
        return replace(_cube(face, said, x), cell=None)

    def view(*faces: FaceReading, roll: str = ROLL_TEXT) -> int | None:
        reading = LooseReading("adlib", faces, ("MONEY",), ())
        live = LiveReader(lambda _: reading)
        seen = [live.update(np.zeros((600, 800, 3), np.uint8)) for _ in range(3)][-1]
        assert seen is not None
        return live_view(seen, GAME, Roll.parse(roll, "adlib")).score

    def laid(o: FaceReading) -> tuple[FaceReading, ...]:
        word = [cube(f, 50.0 * k) for k, f in enumerate("MONEY")]
        word[1] = o
        return tuple(replace(f, cell=(0, k)) for k, f in enumerate(word))

    loose = tuple(cube(f, 300.0 + 50 * k) for k, f in enumerate("STEBUJOQ"))
    sure = view(*laid(cube("O", 50.0)), *loose)
    assert sure is not None
    assert view(*laid(cube("O", 50.0, 0.7)), *loose) == sure
    # A roll with a D where the J was, the loose J read doubtfully (a D at 0.37): the D is
    # free for the crossword's O to be, and the score waits.
    doubtful_j = cube("J", 300.0 + 50 * 5, 0.6)
    with_d = ROLL_TEXT.replace("J", "D")
    assert (
        view(*laid(cube("O", 50.0, 0.7)), *loose[:5], doubtful_j, *loose[6:], roll=with_d) is None
    )
    # Three cubes read doubtfully as O (the loose J too), where the roll has two O free:
    # one of them is no O, and none is settled.
    j_as_o = cube("O", 300.0 + 50 * 5, 0.7)
    assert view(*laid(cube("O", 50.0, 0.7)), *loose[:5], j_as_o, *loose[6:]) is None
