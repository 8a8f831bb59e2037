"""Matching read faces to the game's cubes: each cube shows one face, so a reading the set
cannot produce (two Qu from one Qu cube) is resolved by the most probable assignment."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from string import ascii_uppercase

import numpy as np

from engine.cubes import CubeSet

#: A probability below this is treated as this, so -log stays finite.
FLOOR = 1e-6
#: How likely one cube is to differ from the set the game was sold with (another edition,
#: a lost cube replaced): a face that no free die shows stands where the model is surer of
#: it than this against the set's next best face.
OFF_SET = 1e-3


def hungarian(cost: Sequence[Sequence[float]]) -> list[int]:
    """For each row, the column it is assigned to, minimising the total cost.

    ``cost`` has no more rows than columns (Kuhn-Munkres with potentials, O(n^2 m), each
    step over the columns at once: a photo of a patterned table may propose hundreds).

    >>> hungarian([[4, 1, 3], [2, 0, 5], [3, 2, 2]])
    [1, 0, 2]
    """
    n, m = len(cost), len(cost[0]) if cost else 0
    if n > m:
        raise ValueError("more rows than columns")
    # Row 0 and column 0 stand for "none"; the columns' arrays are 1-based like the rows'.
    costs = np.zeros((n + 1, m + 1))
    if n:
        costs[1:, 1:] = cost
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    match = np.zeros(m + 1, np.int64)  # match[column] = row (1-based), 0 = free
    way = np.zeros(m + 1, np.int64)
    for row in range(1, n + 1):
        match[0] = row
        column0 = 0
        low = np.full(m + 1, math.inf)
        used = np.zeros(m + 1, bool)
        while True:
            used[column0] = True
            row0 = match[column0]
            free = ~used
            current = costs[row0] - u[row0] - v
            better = free & (current < low)
            low[better] = current[better]
            way[better] = column0
            # The first free column of least ``low``, as a scan from the left finds it.
            column1 = int(np.argmin(np.where(free, low, math.inf)))
            delta = low[column1]
            u[match[used]] += delta
            v[used] -= delta
            low[free] -= delta
            column0 = column1
            if match[column0] == 0:
                break
        while column0:
            column1 = int(way[column0])
            match[column0] = match[column1]
            column0 = column1
    result = [0] * n
    for column in range(1, m + 1):
        if match[column]:
            result[int(match[column]) - 1] = column - 1
    return result


@dataclass(frozen=True, slots=True)
class Assigned:
    """The face one reading is taken to show, given the cubes."""

    #: The face, or None where the reading is no cube of the set (a surplus find).
    face: str | None
    #: The model's probability of that face (of "no cube" where ``face`` is None).
    probability: float
    #: The index of the die taken to show the face; None where no die of the set is free to
    #: show it and the model is sure enough to keep it anyway (or for a surplus find).
    die: int | None

    @property
    def off_set(self) -> bool:
        """Kept as read although no free die of the set shows this face."""
        return self.face is not None and self.die is None


@dataclass(frozen=True, slots=True)
class Assignment:
    """Every reading's face under one cube set, and how well the set explains them."""

    cube_set: CubeSet
    faces: tuple[Assigned, ...]
    #: The sum of -log p over the readings, the set's doubt included: lower explains better.
    cost: float


def assign_faces(
    probabilities: Sequence[Mapping[str, float]],
    cube_set: CubeSet,
    off_set: float = OFF_SET,
    possible: Collection[str] | None = None,
) -> Assignment:
    """The faces the readings most probably show, given that every cube shows one face.

    The set is evidence, not a veto: a reading may keep a face that no free die shows, at the
    price of ``off_set`` (how likely a cube is to differ from the set), so that the set
    settles doubtful readings and a sure one stands (and is flagged); only a face among
    ``possible`` (by default any) may stand so: a Boggle cube never shows the Ad-Lib joker,
    whatever the model sees. With more readings than cubes, the surplus is whatever is least
    like a face of this set: those come back with ``face`` None and the probability that
    they are no cube of the set.

    >>> from engine.cubes import CubeSet
    >>> one_die = CubeSet.parse("d", "A B C D E F")
    >>> [(a.face, a.probability) for a in assign_faces([{"A": 0.9}, {"A": 0.2, "#": 0.8}],
    ...     one_die).faces]
    [('A', 0.9), (None, 0.8)]
    >>> [(a.face, a.die) for a in assign_faces([{"A": 1.0}, {"B": 1.0}], one_die).faces]
    [('A', 0), ('B', None)]
    """
    dice = [sorted({str(face) for face in die.faces}) for die in cube_set.dice]
    if not probabilities:
        return Assignment(cube_set, (), 0.0)
    carried = {face for die in dice for face in die}
    surplus = max(0, len(probabilities) - len(dice))
    doubt = -math.log(off_set)
    cost, best_face, own = [], [], []
    for p in probabilities:
        row, faces = [], []
        for die in dice:
            face = max(die, key=lambda f: p.get(f, 0.0))
            faces.append(face)
            row.append(_cost(p.get(face, 0.0)))
        # Surplus readings go to "no cube": the table, a side, a face no cube carries.
        no_cube = 1.0 - sum(v for f, v in p.items() if f in carried)
        row.extend([_cost(no_cube)] * surplus)
        # Or the reading keeps its own face, on a die the set does not know.
        kept = [(f, v) for f, v in p.items() if possible is None or f in possible]
        face, value = max(kept, key=lambda item: item[1]) if kept else ("", 0.0)
        row.extend([_cost(value) + doubt] * len(probabilities))
        cost.append(row)
        best_face.append(faces)
        own.append(face)
    columns = hungarian(cost)
    chosen: list[Assigned] = []
    for i, c in enumerate(columns):
        if c < len(dice):
            face = best_face[i][c]
            chosen.append(Assigned(face, float(probabilities[i].get(face, 0.0)), c))
        elif c < len(dice) + surplus:
            chosen.append(Assigned(None, float(math.exp(-cost[i][c])), None))
        else:
            chosen.append(Assigned(own[i], float(probabilities[i].get(own[i], 0.0)), None))
    total = sum(cost[i][c] for i, c in enumerate(columns))
    return Assignment(cube_set, tuple(chosen), total)


def own_faces(cube_sets: Sequence[CubeSet]) -> set[str]:
    """The faces a game's cubes may show: another edition, or a die replaced, shows a letter
    or a face of the game's own kind (a Boggle cube never the Ad-Lib joker)."""
    return {*ascii_uppercase, *(str(f) for s in cube_sets for f in s.faces())}


def best_edition(
    probabilities: Sequence[Mapping[str, float]], cube_sets: Sequence[CubeSet]
) -> Assignment:
    """Of the editions a game was sold in, the one that explains the readings best (the
    first, the default, where they explain them equally well)."""
    possible = own_faces(cube_sets)
    assignments = [assign_faces(probabilities, s, possible=possible) for s in cube_sets]
    return min(assignments, key=lambda a: (round(a.cost, 6), assignments.index(a)))


def _cost(probability: float) -> float:
    return -math.log(max(probability, FLOOR))
