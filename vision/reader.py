"""The reader: a photo and a game in, a tray reading or a loose-cube reading out."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import cv2
import numpy as np

from engine.cubes import CubeSet
from engine.errors import MachineError
from engine.faces import ALPHABET
from vision.assign import assign_faces
from vision.detect import FaceQuad, carve_faces, downscale, find_faces
from vision.errors import NoCubesFound, NotAnImage, TooBlurred, TrayCutOff, WrongGame
from vision.lattice import Lattice, fit_lattice
from vision.reading import DOUBTFUL, FaceReading, LooseReading, TrayReading

#: Side of the square crop each face is cut to, from the full-resolution photo, when the
#: classifier does not say what size it reads.
CROP = 64
#: The crop reaches this far past the face (as a share of its side), as the model's training
#: crops do: the face fills 0.6-1.05 of them.
CROP_MARGIN = 1.2
#: Below this median sharpness (the Laplacian's variance over the grey levels' variance, on
#: 64-pixel crops) the photo is too blurred to read.
MIN_SHARPNESS = 0.02
#: Touching faces whose centres lie within this many face sides are neighbours in a crossword.
TOUCHING = 1.3
#: ... or this many, when the step between them runs along a face's edge within ALONG degrees.
TOUCHING_ALONG = 1.5
ALONG = 12
#: A group of at least this many touching cubes is a crossword.
CROSSWORD_MIN = 3
#: Look one cell past each word's end for a cube the finder missed (the model decides).
EXTEND_WORDS = True
#: How sure the model must be of a face looked for in a gap, not found by the finder.
GAP_CONFIDENCE = 0.97
#: ... and how sure, once each cube is given one face, it must still be (else it is dropped).
GAP_KEEP = 0.5


class GameLike(Protocol):
    """What the reader needs of a game (``engine.games.Game`` has it)."""

    id: str
    size: int

    def cube_set(self, dice: str | None = None) -> CubeSet: ...


class Classifier(Protocol):
    def classify(self, crops: Sequence[np.ndarray]) -> Sequence[Any]: ...


_model: Classifier | None = None


def _default_classifier() -> Classifier:
    global _model
    if _model is None:
        try:
            module = importlib.import_module("vision.classifier")
        except ImportError:
            raise MachineError(
                "The cube-face model is not installed (vision/classifier.py is missing); "
                "reinstall cuberef."
            ) from None
        _model = module.FaceClassifier.load()
    return _model


def _probabilities(prediction: Any) -> dict[str, float]:
    raw = prediction.probabilities
    if isinstance(raw, Mapping):
        return {str(k): float(v) for k, v in raw.items()}
    values = list(raw)
    return {face: float(p) for face, p in zip(ALPHABET, values, strict=False)}


def cut_face(
    image: np.ndarray, corners: np.ndarray, size: int = CROP, margin: float = CROP_MARGIN
) -> np.ndarray:
    """The face inside ``corners`` (top left first, clockwise) with a ``margin`` around it, as
    a ``size`` square straightened out of any perspective."""
    corners = np.asarray(corners, np.float64)
    center = corners.mean(0)
    source = (center + (corners - center) * margin).astype(np.float32)
    target = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    matrix = cv2.getPerspectiveTransform(source, target)
    # Shrinking a large face: sample a blurred copy of just its neighbourhood, so that
    # warpPerspective's point sampling does not alias.
    span = float(np.linalg.norm(source[1] - source[0]))
    if span > 2 * size:
        x0, y0 = np.floor(source.min(0)).astype(int) - 2
        x1, y1 = np.ceil(source.max(0)).astype(int) + 2
        x0, y0 = max(0, x0), max(0, y0)
        window = image[y0 : max(y0 + 1, y1), x0 : max(x0 + 1, x1)]
        factor = span / size
        small = cv2.resize(window, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA)
        shrink = np.array([[1 / factor, 0, 0], [0, 1 / factor, 0], [0, 0, 1]])
        offset = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        matrix = matrix @ np.linalg.inv(shrink @ offset)
        return cv2.warpPerspective(small, matrix, (size, size), flags=cv2.INTER_LINEAR)
    return cv2.warpPerspective(image, matrix, (size, size), flags=cv2.INTER_LINEAR)


def _sharpness(crops: Sequence[np.ndarray]) -> float:
    """Median over the crops of the Laplacian's variance against the grey levels' variance:
    how much of a face's contrast sits in fine detail, whatever the ink's colour."""
    values = []
    for crop in crops:
        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
        values.append(cv2.Laplacian(gray, cv2.CV_32F).var() / max(float(gray.var()), 1.0))
    return float(np.median(values))


def _check_image(image: np.ndarray) -> None:
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3:
        raise NotAnImage("The picture is not a colour photo; give a BGR image of 3 channels.")
    if image.dtype != np.uint8:
        raise NotAnImage("The picture is not 8 bits a channel; give a uint8 BGR image.")
    if min(image.shape[:2]) < 16:
        raise NotAnImage(
            f"The picture is only {image.shape[1]}x{image.shape[0]} pixels; give a photo "
            "of the cubes."
        )


def read(
    image: np.ndarray,
    game: GameLike,
    *,
    dice: str | None = None,
    upright: bool = False,
    classifier: Classifier | None = None,
) -> TrayReading | LooseReading:
    """Read the cubes in a BGR photo (shape: [height, width, 3], uint8) for ``game``.

    Tray games give a ``TrayReading``; Ad-Lib and Scribbage a ``LooseReading`` (with the
    crossword's grid when the cubes are laid out as one). ``upright`` turns a tray so that
    most letters stand upright. Raises a ``ReadError`` (exit 2) when the photo cannot be
    read as the game asks.
    """
    _check_image(image)
    cube_set = game.cube_set(dice)
    fitted: dict[int, Lattice] = {}
    small = downscale(image)
    quads = find_faces(image, _full_tray(game.size, fitted) if game.size > 0 else None, small)
    if not quads:
        raise NoCubesFound(
            "No cubes were found in the photo; photograph the cubes from above, "
            "filling more of the frame."
        )
    model = classifier or _default_classifier()
    if game.size > 0:
        return _read_tray(image, game, cube_set, quads, model, upright, fitted.get(id(quads)))
    return _read_loose(image, game, cube_set, quads, model, small)


def _classify(
    image: np.ndarray, corners: Sequence[np.ndarray], model: Classifier, check: bool = True
) -> list[Any]:
    crops = [cut_face(image, c, CROP) for c in corners]
    if check and _sharpness(crops) < MIN_SHARPNESS:
        raise TooBlurred(
            "The photo is too blurred to read the letters; hold the camera still and "
            "let it focus, then take it again."
        )
    size = int(getattr(model, "input_size", CROP))
    if size != CROP:
        crops = [cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA) for crop in crops]
    return list(model.classify(crops))


def _touches_border(corners: np.ndarray, shape: tuple[int, ...], margin: float) -> bool:
    height, width = shape[:2]
    return bool(
        (corners[:, 0] < margin).any()
        or (corners[:, 1] < margin).any()
        or (corners[:, 0] > width - 1 - margin).any()
        or (corners[:, 1] > height - 1 - margin).any()
    )


def _full_tray(n: int, fitted: dict[int, Lattice]) -> Callable[[list[FaceQuad]], bool]:
    """Whether faces found fill an n x n tray, every cell once (the finder may stop there);
    the lattice is kept in ``fitted`` under the list's id so that it is not fitted twice."""

    def accept(quads: list[FaceQuad]) -> bool:
        # A cell or two the finder misses is cut where the lattice puts it, as after
        # every cut; more may mean a poor cut that a later one does better.
        if not n * n - max(1, n * n // 12) <= len(quads) <= n * n:
            return False
        sides = np.array([q.side for q in quads])
        points = np.array([q.center for q in quads])
        try:
            lattice = fit_lattice(points, float(np.median(sides)) * 1.2, sizes=sides)
        except ValueError:
            return False
        cells = {c for c in lattice.cells if c is not None}
        if lattice.rows == n and lattice.cols == n and len(cells) == len(quads):
            fitted[id(quads)] = lattice
            return True
        return False

    return accept


def _tray_lattice(image: np.ndarray, game: GameLike, quads: list[FaceQuad]) -> Lattice:
    n = game.size
    side = float(np.median([q.side for q in quads]))
    points = np.array([q.center for q in quads])
    try:
        lattice = (
            fit_lattice(points, side * 1.2, sizes=np.array([q.side for q in quads]))
            if len(quads) >= 2
            else None
        )
    except ValueError:  # no two faces are neighbours
        lattice = None
    if lattice is None:
        raise NoCubesFound(
            f"No tray was found in the photo; the {game.id} tray of {n}x{n} cubes should "
            "fill at least a tenth of the frame."
        )
    on = [k for k, c in enumerate(lattice.cells) if c is not None]
    edge = any(_touches_border(quads[k].corners, image.shape, side * 0.15) for k in on)
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


def _cell_corners(lattice: Lattice, row: int, col: int, half: float) -> np.ndarray:
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
    return cv2.perspectiveTransform(points, lattice.homography)[0]


def _read_tray(
    image: np.ndarray,
    game: GameLike,
    cube_set: CubeSet,
    quads: list[FaceQuad],
    model: Classifier,
    upright: bool,
    lattice: Lattice | None = None,
) -> TrayReading:
    n = game.size
    lattice = lattice or _tray_lattice(image, game, quads)
    by_cell = {c: quads[k] for k, c in enumerate(lattice.cells) if c is not None}
    pitch = float(np.linalg.norm(np.subtract(lattice.cell_center(0, 1), lattice.cell_center(0, 0))))
    side = float(np.median([q.side for q in quads]))
    half = min(0.5, side / pitch / 2)
    cells = [(r, c) for r in range(n) for c in range(n)]
    corners = []
    warnings = []
    for r, c in cells:
        if (r, c) in by_cell:
            corners.append(by_cell[(r, c)].corners)
        else:
            corners.append(_cell_corners(lattice, r, c, half))
            warnings.append(f"Row {r + 1}, column {c + 1}: no cube face was seen there.")
    outline = _cell_corners(lattice, 0, 0, 0.5)
    outline = np.array(
        [
            _cell_corners(lattice, 0, 0, 0.5)[0],
            _cell_corners(lattice, 0, n - 1, 0.5)[1],
            _cell_corners(lattice, n - 1, n - 1, 0.5)[2],
            _cell_corners(lattice, n - 1, 0, 0.5)[3],
        ]
    )
    # Cut off when a cell's face would reach past the frame (its walls may).
    reach = np.concatenate(
        [_cell_corners(lattice, r, c, half * 0.6) for r, c in cells if (r, c) not in by_cell]
        or [np.zeros((0, 2))]
    )
    if len(reach) and _touches_border(reach, image.shape, 0):
        raise TrayCutOff(
            "Part of the tray is outside the photo; step back or centre the tray and take it again."
        )
    predictions = _classify(image, corners, model)
    probabilities = [_probabilities(p) for p in predictions]
    chosen = assign_faces(probabilities, cube_set)
    faces: dict[tuple[int, int], FaceReading] = {}
    for (r, c), corner, prediction, p, (face, confidence) in zip(
        cells, corners, predictions, probabilities, chosen, strict=True
    ):
        own = max(p.items(), key=lambda item: item[1])[0] if p else face
        if getattr(prediction, "face", "") is None:
            warnings.append(
                f"Row {r + 1}, column {c + 1}: the model sees no cube face there; taken as {face}."
            )
        elif own != face:
            warnings.append(
                f"Row {r + 1}, column {c + 1}: read as {own}, but the cubes allow only "
                f"one such face, so taken as {face}."
            )
        center = corner.mean(0)
        faces[(r, c)] = FaceReading(
            face,
            float(center[0]),
            float(center[1]),
            confidence,
            int(prediction.orientation) % 360,
            tuple(map(tuple, corner.tolist())),
            (r, c),
        )
    turn = _upright_turn(list(faces.values())) if upright else 0
    grid = [[faces[(r, c)] for c in range(n)] for r in range(n)]
    for _ in range(turn // 90):
        grid = [list(row) for row in zip(*grid[::-1], strict=True)]  # a quarter turn clockwise
    for r in range(n):
        for c in range(n):
            face = grid[r][c]
            if face.doubtful:
                warnings.append(
                    f"Row {r + 1}, column {c + 1} read as {face.face} with confidence "
                    f"{face.confidence:.2f}; check that cube."
                )
    return TrayReading(
        game.id,
        tuple(tuple(f.face for f in row) for row in grid),
        tuple(tuple(f.confidence for f in row) for row in grid),
        tuple(warnings),
        tuple(faces.values()),
        tuple(map(tuple, outline.tolist())),
    )


def _upright_turn(faces: list[FaceReading]) -> int:
    """The clockwise turn of the board that stands most letters upright."""
    votes = Counter((-f.orientation) % 360 for f in faces if f.face not in ("#", "*"))
    return votes.most_common(1)[0][0] if votes else 0


def _read_loose(
    image: np.ndarray,
    game: GameLike,
    cube_set: CubeSet,
    quads: list[FaceQuad],
    model: Classifier,
    small: tuple[np.ndarray, float] | None = None,
) -> LooseReading:
    predictions = _classify(image, [q.corners for q in quads], model)
    # Two cuts may both find one cube: its top, and its top with a side or its shadow.
    kept = _one_per_cube(quads, predictions)
    quads = [quads[k] for k in kept]
    predictions = [predictions[k] for k in kept]
    found = len(quads)
    # A cube the finder missed inside a crossword leaves a one-cell gap between the
    # crossword and a cube in line with it: look there too, and let the model say.
    gaps = _gaps(quads)
    if gaps:
        predictions += _classify(image, [g.corners for g in gaps], model, check=False)
    # Fewer faces than cubes: a cube's top may have merged with a side as bright as it. The
    # faces read so far tell a face's size and colour; the squares that fit each blob left
    # over are read, and the model says which of them is the top.
    faces = [q for q, p in zip(quads, predictions, strict=False) if _is_face(p)]
    if len(faces) < len(cube_set.dice):
        carved = carve_faces(image, faces, small)
        flat = [q for group in carved for q in group]
        read = _classify(image, [q.corners for q in flat], model, check=False) if flat else []
        tops, top_predictions = _best_of_groups(carved, read)
        # A gap looked at where a carved top lies already is that cube.
        keep = [
            k
            for k, g in enumerate(gaps)
            if all(
                np.hypot(g.center[0] - t.center[0], g.center[1] - t.center[1]) > t.side / 2
                for t in tops
            )
        ]
        quads = quads[:found] + tops + [gaps[k] for k in keep]
        predictions = predictions[:found] + top_predictions + [predictions[found + k] for k in keep]
        found += len(tops)
    else:
        quads = quads + gaps
    # What the model says is not a cube's top face (a side, a shadow, the table) is dropped;
    # a face looked for in a gap must be read with near certainty.
    kept = [
        k
        for k, p in enumerate(predictions)
        if getattr(p, "face", "") is not None
        and (k < found or float(getattr(p, "confidence", 1.0)) >= GAP_CONFIDENCE)
    ]
    if not kept:
        raise NoCubesFound(
            "No cube faces were found in the photo; photograph the cubes from above, "
            "filling more of the frame."
        )
    looked = [k >= found for k in kept]
    quads = [quads[k] for k in kept]
    predictions = [predictions[k] for k in kept]
    probabilities = [_probabilities(p) for p in predictions]
    chosen = assign_faces(probabilities, cube_set)
    # More finds than cubes: the ones least like any face of the set are not cubes; nor is
    # a face looked for in a gap that the cubes left free read as something the model doubts.
    warnings = []
    cubes = [
        k
        for k, (face, confidence) in enumerate(chosen)
        if face is not None and (not looked[k] or confidence >= GAP_KEEP)
    ]
    if len(cubes) < len(chosen):
        warnings.append(
            f"Left out {len(chosen) - len(cubes)} thing(s) that looked like cubes but match "
            f"none of the {len(cube_set.dice)} {game.id} cubes."
        )
        quads = [quads[k] for k in cubes]
        predictions = [predictions[k] for k in cubes]
        chosen = [chosen[k] for k in cubes]
    cells = _crossword(quads)
    expected = len(cube_set.dice)
    if len(quads) != expected:
        warnings.append(
            f"Found {len(quads)} cubes where {game.id} has {expected}; check the photo."
        )
    faces = []
    for quad, prediction, (face, confidence), cell in zip(
        quads, predictions, chosen, cells, strict=True
    ):
        faces.append(
            FaceReading(
                face,
                quad.center[0],
                quad.center[1],
                confidence,
                int(prediction.orientation) % 360,
                tuple(map(tuple, quad.corners.tolist())),
                cell,
            )
        )
        if confidence < DOUBTFUL:
            warnings.append(
                f"The cube at ({quad.center[0]:.0f}, {quad.center[1]:.0f}) read as {face} "
                f"with confidence {confidence:.2f}; check it."
            )
    grid = None
    if any(c is not None for c in cells):
        used = {f.cell: f.face for f in faces if f.cell is not None}
        rows = max(r for r, _ in used) + 1
        cols = max(c for _, c in used) + 1
        grid = tuple("".join(used.get((r, c), ".") for c in range(cols)) for r in range(rows))
    order = sorted(range(len(faces)), key=lambda k: (faces[k].y, faces[k].x))
    return LooseReading(game.id, tuple(faces[k] for k in order), grid, tuple(warnings))


def _is_face(prediction: Any) -> bool:
    """Whether the model reads a crop as a cube's face (not its "none")."""
    return getattr(prediction, "face", "") is not None


def _one_per_cube(quads: list[FaceQuad], predictions: Sequence[Any]) -> list[int]:
    """The finds to keep, in order: of finds whose centres lie within half a face of each
    other (cubes cannot overlap, so they are one cube), the one read as a face most surely."""

    def sureness(k: int) -> tuple[bool, float]:
        p = predictions[k]
        confidence = float(getattr(p, "confidence", 1.0))
        return (_is_face(p), confidence if _is_face(p) else -confidence)

    kept: list[int] = []
    for k in sorted(range(len(quads)), key=sureness, reverse=True):
        a = quads[k]
        if all(
            np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]) > min(a.side, b.side) / 2
            for b in (quads[j] for j in kept)
        ):
            kept.append(k)
    return sorted(kept)


def _best_of_groups(
    groups: list[list[FaceQuad]], predictions: Sequence[Any]
) -> tuple[list[FaceQuad], list[Any]]:
    """Of each group of candidate squares for one cube, the one the model reads as a face
    most surely (none when it reads none of them as a face)."""
    quads, chosen = [], []
    start = 0
    for group in groups:
        read = predictions[start : start + len(group)]
        start += len(group)
        faces = [k for k, p in enumerate(read) if _is_face(p)]
        if faces:
            best = max(faces, key=lambda k: float(getattr(read[k], "confidence", 1.0)))
            quads.append(group[best])
            chosen.append(read[best])
    return quads, chosen


def _touching_group(quads: list[FaceQuad]) -> list[int]:
    """The largest group of faces joined edge to edge, if it is a crossword."""
    n = len(quads)
    if n < CROSSWORD_MIN:
        return []
    points = np.array([q.center for q in quads])
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            pair = (quads[i].side + quads[j].side) / 2
            offset = points[j] - points[i]
            distance = float(np.linalg.norm(offset))
            # A face found a little small (its rim shaded) still touches the next one along
            # its own axis: the step may then be a little longer.
            heading = float(np.degrees(np.arctan2(offset[1], offset[0])))
            along = abs(((heading - quads[i].angle) + 45) % 90 - 45) < ALONG
            close = distance < (TOUCHING_ALONG if along else TOUCHING) * pair
            # Perspective turns faces at the two ends of a long row apart by several degrees.
            aligned = abs(((quads[i].angle - quads[j].angle) + 45) % 90 - 45) < 20
            if close and aligned:
                parent[root(i)] = root(j)
    groups = Counter(root(i) for i in range(n))
    group, size = groups.most_common(1)[0]
    if size < CROSSWORD_MIN:
        return []
    return [i for i in range(n) if root(i) == group]


def _crossword_lattice(quads: list[FaceQuad], members: list[int]) -> Lattice:
    points = np.array([quads[k].center for k in members])
    sizes = np.array([quads[k].side for k in members])
    return fit_lattice(points, float(np.median(sizes)), sizes=sizes)


def _crossword(quads: list[FaceQuad]) -> list[tuple[int, int] | None]:
    """The cell of each face in the largest group of touching cubes (None off it)."""
    members = _touching_group(quads)
    cells: list[tuple[int, int] | None] = [None] * len(quads)
    if not members:
        return cells
    lattice = _crossword_lattice(quads, members)
    for k, cell in zip(members, lattice.cells, strict=True):
        cells[k] = cell
    return cells


def _gaps(quads: list[FaceQuad]) -> list[FaceQuad]:
    """Faces to look for: the empty cell between the crossword and a face two cells away."""
    members = _touching_group(quads)
    if not members:
        return []
    lattice = _crossword_lattice(quads, members)
    occupied = {c for c in lattice.cells if c is not None}
    side = float(np.median([quads[k].side for k in members]))
    pitch = float(np.linalg.norm(np.subtract(lattice.cell_center(0, 1), lattice.cell_center(0, 0))))
    half = min(0.5, side / max(pitch, 1.0) / 2)
    inverse = np.linalg.inv(lattice.homography)
    angle = float(np.median([quads[k].angle for k in members]))
    proposed: dict[tuple[int, int], FaceQuad] = {}
    for k, quad in enumerate(quads):
        if k in members or abs(((quad.angle - angle) + 45) % 90 - 45) > 20:
            continue
        col, row = cv2.perspectiveTransform(np.array([[quad.center]], np.float64), inverse)[0, 0]
        rc, rr = round(col), round(row)
        if abs(col - rc) > 0.35 or abs(row - rr) > 0.35 or (rr, rc) in occupied:
            continue
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            middle, far = (rr - dr, rc - dc), (rr - 2 * dr, rc - 2 * dc)
            if far in occupied and middle not in occupied and middle not in proposed:
                corners = _cell_corners(lattice, middle[0], middle[1], half)
                center = corners.mean(0)
                proposed[middle] = FaceQuad(
                    corners, (float(center[0]), float(center[1])), side, angle
                )
    # A word's end cube missed by the finder: the next cell along each word, where the model
    # may find a face (it answers "none" for bare table).
    for r, c in occupied if EXTEND_WORDS else ():
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            behind, ahead = (r - dr, c - dc), (r + dr, c + dc)
            if behind in occupied and ahead not in occupied and ahead not in proposed:
                corners = _cell_corners(lattice, ahead[0], ahead[1], half)
                center = corners.mean(0)
                if _touches_border(corners, (10**9, 10**9), 0) or center.min() < 0:
                    continue
                proposed[ahead] = FaceQuad(
                    corners, (float(center[0]), float(center[1])), side, angle
                )
    # A face found but off the fitted lattice (snapped to no cell) may lie in a proposed cell:
    # it is looked at already.
    return [
        q
        for q in proposed.values()
        if all(
            np.hypot(q.center[0] - k.center[0], q.center[1] - k.center[1]) > side / 2 for k in quads
        )
    ]
