"""Reading loose cubes: each proposal vetted by the face model and the cube set, cubes
found twice counted once, tops carved out of blobs, and the crossword among them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from engine.cubes import CubeSet
from engine.faces import BLANK, Face
from vision.assign import best_edition, own_faces
from vision.crop import CROP, cut_face
from vision.crossword import (
    Grid,
    crossword_cells,
    crossword_pieces,
    gaps,
    in_pieces,
    turn_grid,
    upright_turn,
)
from vision.detect import FaceQuad, downscale, pieces
from vision.errors import NoCubesFound
from vision.find import may_be_one_cube, one_cube, same_top
from vision.lattice import turn_cell
from vision.pieces import joining
from vision.prediction import FacePrediction
from vision.reading import DOUBTFUL, FaceReading, LooseReading
from vision.sides import give_way, seen_sides
from vision.steps import SURE, GameLike, Steps, judge
from vision.strangers import refuse_trays

#: How sure the model must be of a face looked for in a gap, not found by the finder.
GAP_CONFIDENCE = 0.97
#: ... and how sure, once each cube is given one face, it must still be (else it is dropped).
GAP_KEEP = 0.5
#: How much of a find's probability must lie on faces the game's cubes can show.
OWN_SHARE = 0.5
#: Faces read at least this surely tell the cubes' size; a find narrower than this share
#: of theirs (the median) is not a cube.
SURE_SIZE, SIZES = 0.97, 1 / 3
#: Where no face is kept, the ``AGAIN`` surest of the detector's finds are looked at again:
#: the finder looks at a square ``NEARER`` times as wide as the find about it (a top that the
#: look at the whole photo found half or twice too large, a cube 15 of its input pixels wide,
#: comes out 20-40 there), and the model at the find made ``SMALLER``.
AGAIN, NEARER, SMALLER = 4, 20, (0.75, 0.55, 0.4)
#: How sure the model must be of a face only a colour cut or carving proposed, where the
#: detector found tops.
CUT_CONFIDENCE = 0.9


def read_loose(
    image: np.ndarray,
    game: GameLike,
    cube_sets: Sequence[CubeSet],
    steps: Steps,
    is_word: Callable[[str], bool] | None = None,
) -> LooseReading:
    small = downscale(image)
    quads = steps.find(image, small=small)
    if not quads:
        raise NoCubesFound(
            "No cubes were found in the photo; photograph the cubes from above, "
            "filling more of the frame."
        )
    # Whether the photo is too blurred or too small to read is judged at the end.
    predictions = steps.look(image, [q.corners for q in quads], check=False)
    proposed, first_read = quads, predictions
    # Two proposals may both be one cube: its top, and its top with a side or its shadow.
    kept = one_per_cube(quads, predictions)
    # A cube the detector found stays found, whichever of its proposals read best.
    quads = [
        replace(quads[k], learned=any(q.learned and same_top(q, quads[k]) for q in quads))
        for k in kept
    ]
    predictions = [predictions[k] for k in kept]
    found = len(quads)
    # A cube the finder missed inside a crossword leaves a one-cell gap between the
    # crossword and a cube in line with it: look there too, and let the model say.
    looked_at = gaps(quads)
    predictions += steps.look(image, [g.corners for g in looked_at], check=False)
    # Fewer faces than cubes: a cube's top may have merged with a side as bright as it. The
    # faces read so far tell a face's size and colour; the squares that fit each blob left
    # over are read, and the model says which of them is the top.
    dice = max(len(s.dice) for s in cube_sets)
    faces = [q for q, p in zip(quads, predictions, strict=False) if p.is_face]
    if len(faces) < dice:
        carved = steps.carve(image, faces, small)
        flat = [q for group in carved for q in group]
        read = steps.look(image, [q.corners for q in flat], check=False)
        tops, top_predictions = best_of_groups(carved, read)
        # A top carved where a face was read already is that cube once more.
        fresh = [k for k, t in enumerate(tops) if not any(one_cube(t, f) for f in faces)]
        tops, top_predictions = [tops[k] for k in fresh], [top_predictions[k] for k in fresh]
        # A gap looked at where a carved top lies already is that cube.
        keep = [k for k, g in enumerate(looked_at) if not any(same_top(g, t) for t in tops)]
        quads = quads[:found] + tops + [looked_at[k] for k in keep]
        predictions = predictions[:found] + top_predictions + [predictions[found + k] for k in keep]
        found += len(tops)
    else:
        quads = quads + looked_at
    # What the model says is not a cube's top face (a side, a shadow, the table) is dropped;
    # a face looked for in a gap must be read with near certainty, and so, where the detector
    # found tops, must one that only a colour cut or carving proposed (a speck of a wood's
    # grain may look like an I).
    # A find the model takes mostly for a face this game's cubes never show (a blank among
    # Ad-Lib cubes: a patch of table) is not one of its cubes either.
    trusted = any(q.learned for q in quads[:found])
    possible = own_faces(cube_sets)
    kept = [
        k
        for k, p in enumerate(predictions)
        if p.is_face
        and _own_share(p, possible) >= OWN_SHARE
        and (
            p.confidence >= GAP_CONFIDENCE
            or (k < found and (quads[k].learned or not trusted or p.confidence >= CUT_CONFIDENCE))
        )
    ]
    # A cube the detector found where it joins cubes of a crossword is a cube of it, however
    # little the model makes of its print (a blurred one): left out, it would cut the
    # crossword in two. It is read as its likeliest face, as doubtful as the model is of it.
    taken = set(kept)
    dropped = [k for k in range(found) if quads[k].learned and k not in taken]
    kept = sorted(kept + joining(quads, kept, dropped))
    # Cubes of one set lie at much the same size in a photo (perspective makes the near ones
    # twice the far ones at most): a find a third as wide as the faces read surely is no cube
    # of theirs, but a letter of a word drawn over the photo, or a speck.
    sure = [quads[k].side for k in kept if predictions[k].confidence >= SURE_SIZE]
    if sure:
        kept = [k for k in kept if quads[k].side >= SIZES * float(np.median(sure))]
    # A cube seen at a slant gives one face, its top: a side lies against it on the camera's
    # side, darker and less surely found; one thrown alone shows its side below its top.
    sides = seen_sides(image, [quads[k] for k in kept])
    kept = [k for n, k in enumerate(kept) if n not in sides]
    if not kept:
        # No face kept: the detector's look at the whole photo may have found a small cube
        # half or twice too large (the middle of its top; with a box drawn round it), so
        # that its crop reads as no face. Each find is looked at again, closer and smaller; a
        # face read there as surely as one looked for in a gap is a top (or a side: the
        # rules for sides hold).
        tops, reads = tops_again(image, [q for q in proposed if q.learned], steps)
        ours = [k for k, p in enumerate(reads) if _own_share(p, possible) >= OWN_SHARE]
        sides = seen_sides(image, [tops[k] for k in ours])
        kept = [len(quads) + k for n, k in enumerate(ours) if n not in sides]
        quads, predictions = quads + tops, predictions + reads
    # The photo is judged too blurred or too small to read on the faces kept where the model
    # is sure of one of them: soft specks of table about a cube read surely say nothing of
    # it. Else on every find the model took for a face, since nothing tells the cubes.
    if any(predictions[k].confidence >= SURE for k in kept):
        _judge(image, [quads[k] for k in kept], [predictions[k] for k in kept])
    else:
        _judge(image, proposed, first_read)
    if not kept:
        raise NoCubesFound(
            "No cube faces were found in the photo; photograph the cubes from above, "
            "filling more of the frame."
        )
    looked = [k >= found for k in kept]
    quads = [quads[k] for k in kept]
    predictions = [predictions[k] for k in kept]
    probabilities = [p.by_face() for p in predictions]
    # A side seen at a slant, read as a face, gives way where it takes a crossword's cube's die.
    assignment = give_way(quads, probabilities, cube_sets, best_edition(probabilities, cube_sets))
    chosen = list(assignment.faces)
    # More finds than cubes: the ones least like any face of the set are not cubes; nor is
    # a face looked for in a gap that the cubes left free read as something the model doubts.
    warnings = []
    cubes = [
        k
        for k, a in enumerate(chosen)
        if a.face is not None and (not looked[k] or (a.probability >= GAP_KEEP and not a.off_set))
    ]
    # A tray is no roll of a crossword game's: refused, not made up. (A tray game's cubes
    # rolled loose, for who starts or a count, may lie as a tray.)
    if not game.size:
        refuse_trays(quads, len(assignment.cube_set.dice), game.id)
    if len(cubes) < len(chosen):
        warnings.append(
            f"Left out {len(chosen) - len(cubes)} thing(s) that looked like cubes but match "
            f"none of the {len(assignment.cube_set.dice)} {game.id} cubes."
        )
        quads = [quads[k] for k in cubes]
        predictions = [predictions[k] for k in cubes]
        chosen = [chosen[k] for k in cubes]
    cells, frames = crossword_cells(quads)
    pieces = tuple(crossword_pieces(quads))
    if len(pieces) > 1:
        warnings.append(in_pieces(pieces))
    expected = len(assignment.cube_set.dice)
    # One cube alone is a throw for who starts, not a roll short of cubes.
    if len(quads) not in (1, expected):
        warnings.append(
            f"Found {len(quads)} cubes where {game.id} has {expected}; check the photo."
        )
    faces_read = []
    for quad, prediction, assigned, cell in zip(quads, predictions, chosen, cells, strict=True):
        face = Face(assigned.face or BLANK)
        faces_read.append(
            FaceReading(
                face,
                quad.center[0],
                quad.center[1],
                assigned.probability,
                prediction.orientation % 360,
                tuple((float(x), float(y)) for x, y in quad.corners),
                cell,
                assigned.off_set,
                likely(prediction.by_face()),
            )
        )
        if assigned.off_set:
            warnings.append(
                f"The cube at ({quad.center[0]:.0f}, {quad.center[1]:.0f}) shows {face}, which "
                f"no free cube of the set “{assignment.cube_set.title}” shows: check it."
            )
        elif assigned.probability < DOUBTFUL:
            warnings.append(
                f"The cube at ({quad.center[0]:.0f}, {quad.center[1]:.0f}) read as {face} "
                f"with confidence {assigned.probability:.2f}; check it."
            )
    prints = [
        tuple(np.roll(p.orientation_probabilities, frame))
        for p, frame in zip(predictions, frames, strict=True)
    ]
    faces_read, grid, turn, how = _upright(faces_read, prints, is_word)
    if turn:
        lying = {1: "a quarter turn anticlockwise", 2: "upside down", 3: "a quarter turn clockwise"}
        warnings.append(
            f"The crossword lies {lying[turn]} to the camera (as its {how} show); it is read "
            "the right way up."
        )
    order = sorted(range(len(faces_read)), key=lambda k: (faces_read[k].y, faces_read[k].x))
    return LooseReading(
        game.id, tuple(faces_read[k] for k in order), grid, tuple(warnings), turn * 90, pieces
    )


def tops_again(
    image: np.ndarray, finds: Sequence[FaceQuad], steps: Steps
) -> tuple[list[FaceQuad], list[FacePrediction]]:
    """The tops found where each of the ``AGAIN`` surest of ``finds`` lies, looked at again:
    the finder's proposals in a square ``NEARER`` times as wide about it, and the find made
    smaller (``SMALLER``); of each, the one read as a face most surely, where it is read at
    least ``GAP_CONFIDENCE`` surely (the finds that lie on one cube counted once)."""
    height, width = image.shape[:2]
    groups = []
    for find in sorted(finds, key=lambda q: -q.score)[:AGAIN]:
        side = int(min(NEARER * find.side, height, width))
        x0 = int(np.clip(round(find.center[0] - side / 2), 0, width - side))
        y0 = int(np.clip(round(find.center[1] - side / 2), 0, height - side))
        near = [
            replace(q, corners=q.corners + (x0, y0), center=(q.center[0] + x0, q.center[1] + y0))
            for q in steps.find(image[y0 : y0 + side, x0 : x0 + side])
        ]
        # The top lies about the find, whether the find was half its size or twice it.
        near = [q for q in near if np.hypot(*np.subtract(q.center, find.center)) < find.side]
        smaller = [
            replace(find, corners=(find.corners - find.center) * share + find.center)
            for share in SMALLER
        ]
        groups.append(near + smaller)
    read = steps.look(image, [q.corners for group in groups for q in group], check=False)
    tops, chosen = best_of_groups(groups, read)
    sure = [k for k, p in enumerate(chosen) if p.confidence >= GAP_CONFIDENCE]
    once = one_per_cube([tops[k] for k in sure], [chosen[k] for k in sure])
    return [tops[sure[k]] for k in once], [chosen[sure[k]] for k in once]


def _own_share(prediction: FacePrediction, possible: set[str]) -> float:
    """How much of a find's probability lies on faces the game's cubes can show."""
    return sum(v for f, v in prediction.by_face().items() if f in possible)


def _judge(image: np.ndarray, quads: Sequence[FaceQuad], read: Sequence[FacePrediction]) -> None:
    corners = [q.corners for q in quads]
    judge([cut_face(image, c, CROP) for c in corners], corners, read)


def likely(probabilities: dict[str, float], least: float = 0.01) -> tuple[tuple[str, float], ...]:
    """The faces at least ``least`` likely, likeliest first, their probabilities rounded.

    >>> likely({"O": 0.62, "D": 0.3701, "Q": 0.001})
    (('O', 0.62), ('D', 0.3701))
    """
    kept = [(face, round(p, 4)) for face, p in probabilities.items() if p >= least]
    return tuple(sorted(kept, key=lambda item: -item[1]))


def _upright(
    faces: list[FaceReading],
    prints: Sequence[Sequence[float]],
    is_word: Callable[[str], bool] | None,
) -> tuple[list[FaceReading], tuple[str, ...] | None, int, str]:
    """The faces with their crossword cells the right way up, the crossword's rows, the
    clockwise quarter turns that stood it up, and what decided the turn. ``prints``: each
    face's orientation probabilities in the crossword's frame."""
    used: Grid = {f.cell: str(f.face) for f in faces if f.cell is not None}
    if not used:
        return faces, None, 0, ""
    letters = [
        p for f, p in zip(faces, prints, strict=True) if f.cell is not None and f.face.letters
    ]
    turn, how = upright_turn(used, letters, is_word)
    rows = max(r for r, _ in used) + 1
    cols = max(c for _, c in used) + 1
    faces = [
        f if f.cell is None else replace(f, cell=turn_cell(f.cell, rows, cols, turn)) for f in faces
    ]
    turned = turn_grid(used, turn)
    rows = max(r for r, _ in turned) + 1
    cols = max(c for _, c in turned) + 1
    grid = tuple("".join(turned.get((r, c), ".") for c in range(cols)) for r in range(rows))
    return faces, grid, turn, how


def one_per_cube(quads: Sequence[FaceQuad], predictions: Sequence[FacePrediction]) -> list[int]:
    """The finds to keep, in order: of finds that are one top (cubes cannot overlap), the one
    read as a face, the detector's (it sees the whole cube, so its top, not a side or a
    piece of the top) before a cut's, and of those the one read most surely."""

    # A find less than half as wide as a detector's find it lies in is a piece of that cube
    # (the value in its corner, a stroke of its letter), never a cube of its own, however
    # much it looks like a face: the cube is the detector's, read as a face or not.
    piece = pieces([q.corners for q in quads], [q.corners for q in quads if q.learned])

    def sureness(k: int) -> tuple[bool, bool, float]:
        p = predictions[k]
        return (
            p.is_face,
            p.is_face and quads[k].learned,
            p.confidence if p.is_face else -p.confidence,
        )

    near = may_be_one_cube(quads)
    kept: list[int] = []
    for k in sorted(np.flatnonzero(~piece).tolist(), key=sureness, reverse=True):
        if not any(one_cube(quads[k], quads[j]) for j in kept if near[k, j]):
            kept.append(k)
    return sorted(kept)


def best_of_groups(
    groups: Sequence[Sequence[FaceQuad]], predictions: Sequence[FacePrediction]
) -> tuple[list[FaceQuad], list[FacePrediction]]:
    """Of each group of candidate squares for one cube, the one the model reads as a face
    most surely (none when it reads none of them as a face)."""
    quads, chosen = [], []
    start = 0
    for group in groups:
        read = predictions[start : start + len(group)]
        start += len(group)
        faces = [k for k, p in enumerate(read) if p.is_face]
        if faces:
            best = max(faces, key=lambda k: read[k].confidence)
            quads.append(group[best])
            chosen.append(read[best])
    return quads, chosen
