"""Crosswords among loose cubes: which cubes touch, their cells, the gaps where a cube may
have been missed, and which way up the crossword lies."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import cv2
import numpy as np

from vision.detect import FaceQuad
from vision.lattice import Lattice, turn_cell
from vision.pieces import piece_lattice, pieces
from vision.tray import cell_corners, touches_border

#: A group of at least this many touching cubes is a crossword.
CROSSWORD_MIN = 3
#: How often a player lays a cube of a crossword a quarter turn round from the others.
KNOCKED = 0.25
#: The letters alone decide the turn when it is this many times likelier than any other.
DECISIVE = 20.0


def _quarter(degrees: float) -> float:
    """How far an angle lies from a multiple of 90 degrees."""
    return abs((degrees + 45) % 90 - 45)


def touching_group(quads: Sequence[FaceQuad]) -> list[int]:
    """The largest piece of faces joined edge to edge, if it is a crossword."""
    found = pieces(quads)
    return found[0] if found and len(found[0]) >= CROSSWORD_MIN else []


def crossword_pieces(quads: Sequence[FaceQuad]) -> list[int]:
    """How many cubes each piece of touching cubes large enough to be a crossword holds,
    largest first: more than one, and the photo leaves open which is the crossword."""
    return [len(p) for p in pieces(quads) if len(p) >= CROSSWORD_MIN]


def in_pieces(pieces: Sequence[int]) -> str:
    """What to do where cubes lie in several ``pieces`` (of so many cubes) that could each be
    the crossword.

    >>> in_pieces([8, 3])  # doctest: +ELLIPSIS
    'The cubes lie in 2 pieces apart (8 and 3 cubes), ... then take the photo again.'
    """
    sizes = ", ".join(str(n) for n in pieces[:-1]) + f" and {pieces[-1]}"
    return (
        f"The cubes lie in {len(pieces)} pieces apart ({sizes} cubes), and only one of them "
        "can be the crossword: push its cubes together and the others apart from it, then "
        "take the photo again."
    )


def crossword_lattice(quads: Sequence[FaceQuad]) -> tuple[list[int], Lattice] | None:
    """The largest piece of touching faces and the lattice they lie on, if they form a
    crossword."""
    members = touching_group(quads)
    if not members:
        return None
    try:
        return members, piece_lattice(quads, members)
    except ValueError:  # no face of it lies on the lattice its steps give
        return None


def crossword_cells(
    quads: Sequence[FaceQuad],
) -> tuple[list[tuple[int, int] | None], list[int]]:
    """The cell of each face in the largest group of touching cubes (None off it), and the
    quarter turns clockwise from the crossword's columns to the frame each face was cut in.

    A face's orientation is read in its own frame (its corners from the one nearest its top
    left); near 45 degrees one face's frame and the crossword's columns may be chosen a
    quarter apart, so the letters' turns are compared in the crossword's frame.
    """
    cells: list[tuple[int, int] | None] = [None] * len(quads)
    frames = [0] * len(quads)
    found = crossword_lattice(quads)
    if found is None:
        return cells, frames
    members, lattice = found
    for k, cell in zip(members, lattice.cells, strict=True):
        cells[k] = cell
        if cell is not None:
            frames[k] = _frame_turn(quads[k], lattice, cell)
    return cells, frames


def _frame_turn(quad: FaceQuad, lattice: Lattice, cell: tuple[int, int]) -> int:
    row, col = cell
    here, right = (np.array(lattice.cell_center(row, c)) for c in (col, col + 1))
    column = right - here
    edge = quad.corners[1] - quad.corners[0]
    apart = math.degrees(math.atan2(edge[1], edge[0]) - math.atan2(column[1], column[0]))
    return round(apart / 90) % 4


def gaps(quads: Sequence[FaceQuad], extend_words: bool = True) -> list[FaceQuad]:
    """Faces to look for: the empty cell between the crossword and a face two cells away,
    and (``extend_words``) the cell past each word's end, where the finder may have missed
    a cube; the face model decides (it answers "none" for bare table)."""
    found = crossword_lattice(quads)
    if found is None:
        return []
    members, lattice = found
    occupied = {c for c in lattice.cells if c is not None}
    side = float(np.median([quads[k].side for k in members]))
    pitch = float(np.linalg.norm(np.subtract(lattice.cell_center(0, 1), lattice.cell_center(0, 0))))
    half = min(0.5, side / max(pitch, 1.0) / 2)
    inverse = np.linalg.inv(lattice.homography)
    angle = float(np.median([quads[k].angle for k in members]))
    proposed: dict[tuple[int, int], FaceQuad] = {}

    def propose(cell: tuple[int, int]) -> None:
        corners = cell_corners(lattice, cell[0], cell[1], half)
        center = corners.mean(0)
        if center.min() < 0:
            return
        proposed[cell] = FaceQuad(corners, (float(center[0]), float(center[1])), side, angle)

    for k, quad in enumerate(quads):
        if k in members or _quarter(quad.angle - angle) > 20:
            continue
        point = np.array([[quad.center]], np.float64)
        col, row = cv2.perspectiveTransform(point, inverse)[0, 0]
        rc, rr = round(col), round(row)
        if abs(col - rc) > 0.35 or abs(row - rr) > 0.35 or (rr, rc) in occupied:
            continue
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            middle, far = (rr - dr, rc - dc), (rr - 2 * dr, rc - 2 * dc)
            if far in occupied and middle not in occupied and middle not in proposed:
                propose(middle)
    for r, c in occupied if extend_words else ():
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            behind, ahead = (r - dr, c - dc), (r + dr, c + dc)
            if behind in occupied and ahead not in occupied and ahead not in proposed:
                propose(ahead)
    # A face found but off the fitted lattice (snapped to no cell) may lie in a proposed cell:
    # it is looked at already.
    return [
        q
        for q in proposed.values()
        if all(
            np.hypot(q.center[0] - k.center[0], q.center[1] - k.center[1]) > side / 2 for k in quads
        )
        and not touches_border(q.corners, (10**9, 10**9), 0)
    ]


Grid = dict[tuple[int, int], str]


def turn_grid(cells: Grid, quarter_turns: int) -> Grid:
    """The crossword turned clockwise by ``quarter_turns``."""
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + 1
    return {turn_cell(cell, rows, cols, quarter_turns): face for cell, face in cells.items()}


def words(cells: Grid) -> list[str]:
    """Every run of two or more cubes across and down, as read."""
    out = []
    for transpose in (False, True):
        keyed = {((c, r) if transpose else (r, c)): f for (r, c), f in cells.items()}
        for (r, c), face in sorted(keyed.items()):
            if (r, c - 1) in keyed or (r, c + 1) not in keyed:
                continue
            run = [face]
            k = c + 1
            while (r, k) in keyed:
                run.append(keyed[(r, k)])
                k += 1
            out.append("".join(run))
    return out


def letter_evidence(prints: Sequence[Sequence[float]]) -> list[float]:
    """For each clockwise quarter turn of the crossword, the log-likelihood that it stands
    the letters up, given each print's probabilities of lying turned 0, 90, 180 and 270
    degrees clockwise in the image: players lay each cube upright, now and then one a
    quarter round (``KNOCKED``); a symmetric letter (H, O, S) leaves its turns alike."""
    out = []
    for turn in range(4):
        up = (4 - turn) % 4  # the print's own turn in the image if the crossword's is this
        total = 0.0
        for p in prints:
            beside = (p[(up + 1) % 4] + p[(up + 3) % 4]) / 2
            total += math.log((1 - KNOCKED) * p[up] + KNOCKED * beside + 1e-4)
        out.append(total)
    return out


def upright_turn(
    cells: Grid,
    prints: Sequence[Sequence[float]],
    is_word: Callable[[str], bool] | None = None,
) -> tuple[int, str]:
    """The clockwise quarter turns that stand the crossword the right way up, and what
    decided it: "letters", "words", or "" when nothing said to turn it.

    Each letter's print says which way it lies (``prints``: its probabilities of lying
    turned 0, 90, 180, 270 degrees clockwise); where they make one turn far likelier than
    any other, that decides. Where they do not (few letters, symmetric ones, cubes knocked
    round), the turn whose across and down runs (in small letters, ``qu`` for Qu, runs with
    a joker left out) ``is_word`` most often knows decides, and else the letters' likeliest.
    """
    evidence = letter_evidence(prints)
    ranked = sorted(range(4), key=lambda t: -evidence[t])
    best = ranked[0]
    if evidence[best] - evidence[ranked[1]] >= math.log(DECISIVE):
        return best, "letters"
    if is_word is not None:

        def spelled(turn: int) -> tuple[int, float]:
            runs = [w.lower() for w in words(turn_grid(cells, turn)) if "*" not in w]
            return sum(is_word(w) for w in runs), evidence[turn]

        by_words = max(range(4), key=spelled)
        if spelled(by_words)[0] > max(spelled(t)[0] for t in range(4) if t != by_words):
            return by_words, "words"
    if evidence[best] > evidence[0]:
        return best, "letters"
    return 0, ""
