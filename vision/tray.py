"""Reading a tray: its faces fitted to an n x n grid, every cell read, the edition chosen."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

import cv2
import numpy as np

from engine.cubes import CubeSet
from engine.faces import BLANK, Face
from vision.assign import Assignment, best_edition
from vision.detect import FaceQuad
from vision.errors import NoCubesFound, TrayCutOff, WrongGame
from vision.lattice import Lattice, fit_lattice, turn_cell
from vision.prediction import FacePrediction
from vision.reading import DOUBTFUL, FaceReading, TrayReading
from vision.steps import GameLike, Steps


def touches_border(corners: np.ndarray, shape: tuple[int, ...], margin: float) -> bool:
    """Whether any of ``corners`` lies within ``margin`` pixels of the frame's edge."""
    height, width = shape[:2]
    return bool(
        (corners[:, 0] < margin).any()
        or (corners[:, 1] < margin).any()
        or (corners[:, 0] > width - 1 - margin).any()
        or (corners[:, 1] > height - 1 - margin).any()
    )


def cell_corners(lattice: Lattice, row: float, col: float, half: float) -> np.ndarray:
    """The corners of the square of half side ``half`` (in cells) about a cell's centre."""
    points = np.array(
        [
            [
                [col - half, row - half],
                [col + half, row - half],
                [col + half, row + half],
                [col - half, row + half],
            ]
        ],
        np.float64,
    )
    return np.asarray(cv2.perspectiveTransform(points, lattice.homography)[0])


def full_tray(n: int, fitted: dict[int, Lattice]) -> Callable[[list[FaceQuad]], bool]:
    """Whether faces found fill an n x n tray, every cell once (the finder may stop there);
    the lattice is kept in ``fitted`` under the list's id so that it is not fitted twice."""

    def accept(quads: list[FaceQuad]) -> bool:
        # A cell or two the finder misses is cut where the lattice puts it, as after
        # every cut; more may mean a poor cut that a later one does better. Finds off the
        # tray (beside it, in line with its cubes) are left out of the lattice.
        if len(quads) < n * n - max(1, n * n // 12):
            return False
        lattice = _fit(quads, n)
        if lattice is None:
            return False
        cells = [c for c in lattice.cells if c is not None]
        full = n * n - max(1, n * n // 12) <= len(set(cells)) == len(cells)
        if lattice.rows == n and lattice.cols == n and full:
            fitted[id(quads)] = lattice
            return True
        return False

    return accept


def _fit(quads: list[FaceQuad], n: int) -> Lattice | None:
    """The lattice through the faces, cut down to the tray's n x n where it is larger."""
    sides = np.array([q.side for q in quads])
    points = np.array([q.center for q in quads])
    try:
        lattice = fit_lattice(points, float(np.median(sides)) * 1.2, sizes=sides)
    except ValueError:  # no two faces are neighbours
        return None
    window = lattice.window(n, n, [q.score for q in quads])
    # A whole row of cubes beyond n x n is a larger tray (the wrong game), not strays.
    strays = sum(c is not None for c in lattice.cells) - sum(c is not None for c in window.cells)
    return window if strays < n - 1 else lattice


def tray_lattice(image: np.ndarray, game: GameLike, quads: list[FaceQuad]) -> Lattice:
    """The tray's n x n lattice through the faces found, or the sentence saying why not."""
    n = game.size
    side = float(np.median([q.side for q in quads]))
    lattice = _fit(quads, n) if len(quads) >= 2 else None
    if lattice is None:
        raise NoCubesFound(
            f"No tray was found in the photo; the {game.id} tray of {n}x{n} cubes should "
            "fill at least a tenth of the frame, seen from above."
        )
    on = [k for k, c in enumerate(lattice.cells) if c is not None]
    edge = any(touches_border(quads[k].corners, image.shape, side * 0.15) for k in on)
    if lattice.rows == n and lattice.cols == n:
        return lattice
    if edge and lattice.rows <= n and lattice.cols <= n:
        raise TrayCutOff(
            f"Part of the tray is outside the photo (only {lattice.rows}x{lattice.cols} "
            "cells are in view); step back or centre the tray and take it again."
        )
    if (
        lattice.rows == lattice.cols
        and lattice.rows in (4, 5, 6)
        and len(on) >= lattice.rows**2 - 2
    ):
        raise WrongGame(
            f"The photo shows a {lattice.rows}x{lattice.rows} tray but {game.id} is played "
            f"on {n}x{n}; choose the game that matches the tray."
        )
    raise NoCubesFound(
        f"No {n}x{n} tray was found in the photo (the cubes found form "
        f"{lattice.rows}x{lattice.cols}); photograph the whole tray from above."
    )


def read_tray(
    image: np.ndarray,
    game: GameLike,
    cube_sets: Sequence[CubeSet],
    steps: Steps,
    upright: bool,
) -> TrayReading:
    n = game.size
    fitted: dict[int, Lattice] = {}
    quads = steps.find(image, full_tray(n, fitted))
    if not quads:
        raise NoCubesFound(
            "No cubes were found in the photo; photograph the cubes from above, "
            "filling more of the frame."
        )
    lattice = fitted.get(id(quads)) or tray_lattice(image, game, quads)
    by_cell: dict[tuple[int, int], FaceQuad] = {}
    for k, cell in enumerate(lattice.cells):
        if cell is not None and (cell not in by_cell or quads[k].score > by_cell[cell].score):
            by_cell[cell] = quads[k]
    centre = lattice.cell_center(0, 0)
    across = np.linalg.norm(np.subtract(lattice.cell_center(0, 1), centre))
    down = np.linalg.norm(np.subtract(lattice.cell_center(1, 0), centre))
    pitch = float(np.sqrt(across * down))  # rows and columns may be spaced unequally
    side = float(np.median([q.side for q in by_cell.values()]))
    # A tray's cubes all but fill their cells; a face found small (by a finder unsure of its
    # edge) is cut at least that large, so that its letter is never cut off.
    half = min(0.5, max(FILLS_CELL / 2, side / pitch / 2))
    cells = [(r, c) for r in range(n) for c in range(n)]
    corners = []
    warnings = []
    for r, c in cells:
        # Each face is cut in its cell's shape (the tray's perspective, its rows and columns
        # spaced as they are), about the centre found for it: a cube sits loose in its cell.
        square = cell_corners(lattice, r, c, half)
        if (r, c) in by_cell:
            corners.append(_about(square, by_cell[(r, c)], side, pitch))
        else:
            corners.append(square)
            warnings.append(f"Row {r + 1}, column {c + 1}: no cube face was seen there.")
    outline = np.array(
        [
            cell_corners(lattice, 0, 0, 0.5)[0],
            cell_corners(lattice, 0, n - 1, 0.5)[1],
            cell_corners(lattice, n - 1, n - 1, 0.5)[2],
            cell_corners(lattice, n - 1, 0, 0.5)[3],
        ]
    )
    # Cut off when a cell's face would reach past the frame (its walls may).
    missing = [cell_corners(lattice, r, c, half * 0.6) for r, c in cells if (r, c) not in by_cell]
    if missing and touches_border(np.concatenate(missing), image.shape, 0):
        raise TrayCutOff(
            "Part of the tray is outside the photo; step back or centre the tray and take it again."
        )
    predictions = steps.look(image, corners, cubes=True)
    assignment = best_edition([p.by_face() for p in predictions], cube_sets)
    warnings += _set_warnings(assignment, predictions, cells, cube_sets)
    faces: dict[tuple[int, int], FaceReading] = {}
    for (r, c), corner, prediction, chosen in zip(
        cells, corners, predictions, assignment.faces, strict=True
    ):
        face = Face(chosen.face or BLANK)
        if not prediction.is_face:
            warnings.append(
                f"Row {r + 1}, column {c + 1}: the model sees no cube face there; taken as {face}."
            )
        center = corner.mean(0)
        faces[(r, c)] = FaceReading(
            face,
            float(center[0]),
            float(center[1]),
            chosen.probability,
            prediction.orientation % 360,
            tuple((float(x), float(y)) for x, y in corner),
            (r, c),
            chosen.off_set,
        )
    # Turned upright, each face keeps its cell as the rows then have it.
    turn = upright_turn(list(faces.values())) // 90 if upright else 0
    faces = {
        turn_cell(cell, n, n, turn): replace(face, cell=turn_cell(cell, n, n, turn))
        for cell, face in faces.items()
    }
    grid = [[faces[(r, c)] for c in range(n)] for r in range(n)]
    for r in range(n):
        for c in range(n):
            cube = grid[r][c]
            if cube.confidence < DOUBTFUL:
                warnings.append(
                    f"Row {r + 1}, column {c + 1} read as {cube.face} with confidence "
                    f"{cube.confidence:.2f}; check that cube."
                )
    return TrayReading(
        game.id,
        tuple(face for row in grid for face in row),
        tuple(warnings),
        tuple((float(x), float(y)) for x, y in outline),
        assignment.cube_set.name,
    )


#: The least share of its cell a tray's cube face takes (real trays: 0.75-0.9).
FILLS_CELL = 0.8
#: A face found this far from its cell's centre (in pitches), or this far from the others'
#: size, was found poorly (at the frame's edge, half hidden): its cell says where it is.
LOOSE_IN_CELL, SIZE_APART = 0.2, 0.25


def _about(square: np.ndarray, quad: FaceQuad, side: float, pitch: float) -> np.ndarray:
    """The cell's square moved onto the face found in it, where that was found well."""
    offset = np.array(quad.center) - square.mean(0)
    far = float(np.linalg.norm(offset)) > LOOSE_IN_CELL * pitch
    if far or abs(quad.side / side - 1) > SIZE_APART:
        return square
    moved: np.ndarray = square + offset
    return moved


def _set_warnings(
    assignment: Assignment,
    predictions: Sequence[FacePrediction],
    cells: Sequence[tuple[int, int]],
    cube_sets: Sequence[CubeSet],
) -> list[str]:
    """What the cubes say of the reading: which faces they changed, which sure faces they
    cannot show, and which edition was taken."""
    chosen = assignment.cube_set
    out = []
    if len(cube_sets) > 1 and chosen is not cube_sets[0]:
        out.append(f"The faces fit the set “{chosen.title}” best; read with that set.")
    for k, (assigned, prediction) in enumerate(zip(assignment.faces, predictions, strict=True)):
        r, c = cells[k]
        if assigned.off_set:
            out.append(_off_set_sentence(k, assignment, cells))
        elif prediction.face is not None and assigned.face != prediction.face:
            carry = sum(prediction.face in {str(f) for f in die.faces} for die in chosen.dice)
            such = "one such face" if carry == 1 else f"{carry} such faces"
            out.append(
                f"Row {r + 1}, column {c + 1}: read as {prediction.face}, but the cubes allow "
                f"only {such}, so taken as {assigned.face}."
            )
    return out


def _off_set_sentence(k: int, assignment: Assignment, cells: Sequence[tuple[int, int]]) -> str:
    """Why a face read surely stands although the set cannot show it, naming the faces it
    competes with for the only dice that carry it."""
    cube_set = assignment.cube_set
    face = assignment.faces[k].face
    r, c = cells[k]
    carriers = [d for d, die in enumerate(cube_set.dice) if face in {str(f) for f in die.faces}]
    rivals = [
        (cells[j], other.face)
        for j, other in enumerate(assignment.faces)
        if other.die is not None and other.die in carriers
    ]
    where = f"row {r + 1}, column {c + 1}"
    ask = "is your edition different? Give its cubes with --dice FILE."
    if not carriers:
        return (
            f"The cube at {where} shows {face}, which no die of the set “{cube_set.title}” "
            f"has: {ask}"
        )
    shown = " and ".join(f"{f} (row {rc[0] + 1}, column {rc[1] + 1})" for rc, f in rivals)
    return (
        f"This board shows {face} ({where}) and {shown}, which the set “{cube_set.title}” "
        f"cannot show together: {ask}"
    )


def upright_turn(faces: list[FaceReading]) -> int:
    """The clockwise turn of the board that stands most letters upright."""
    votes = Counter((-f.orientation) % 360 for f in faces if f.face.letters)
    return votes.most_common(1)[0][0] if votes else 0
