"""Matching read faces to the game's cubes: each cube shows one face, so a reading the set
cannot produce (two Qu from one Qu cube) is resolved by the most probable assignment."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from engine.cubes import CubeSet

#: A probability below this is treated as this, so -log stays finite.
FLOOR = 1e-6


def hungarian(cost: Sequence[Sequence[float]]) -> list[int]:
    """For each row, the column it is assigned to, minimising the total cost.

    ``cost`` has no more rows than columns (Kuhn-Munkres with potentials, O(n^2 m)).

    >>> hungarian([[4, 1, 3], [2, 0, 5], [3, 2, 2]])
    [1, 0, 2]
    """
    n, m = len(cost), len(cost[0]) if cost else 0
    if n > m:
        raise ValueError("more rows than columns")
    inf = math.inf
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    match = [0] * (m + 1)  # match[column] = row (1-based), 0 = free
    way = [0] * (m + 1)
    for row in range(1, n + 1):
        match[0] = row
        column0 = 0
        low = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[column0] = True
            row0 = match[column0]
            delta, column1 = inf, 0
            for column in range(1, m + 1):
                if not used[column]:
                    current = cost[row0 - 1][column - 1] - u[row0] - v[column]
                    if current < low[column]:
                        low[column], way[column] = current, column0
                    if low[column] < delta:
                        delta, column1 = low[column], column
            for column in range(m + 1):
                if used[column]:
                    u[match[column]] += delta
                    v[column] -= delta
                else:
                    low[column] -= delta
            column0 = column1
            if match[column0] == 0:
                break
        while column0:
            column1 = way[column0]
            match[column0] = match[column1]
            column0 = column1
    result = [0] * n
    for column in range(1, m + 1):
        if match[column]:
            result[match[column] - 1] = column - 1
    return result


def assign_faces(
    probabilities: Sequence[Mapping[str, float]], cube_set: CubeSet
) -> list[tuple[str | None, float]]:
    """The face each reading most probably shows, given that every cube shows one face.

    Returns (face, probability of that face) per reading. With more readings than cubes,
    the surplus is whatever is least like a face of this set: those readings come back as
    (None, probability that they are no cube of the set).

    >>> from engine.cubes import CubeSet
    >>> one_die = CubeSet.parse("d", "A B C D E F")
    >>> assign_faces([{"A": 0.9, "#": 0.1}, {"A": 0.2, "#": 0.8}], one_die)
    [('A', 0.9), (None, 0.8)]
    """
    dice = [sorted({str(face) for face in die.faces}) for die in cube_set.dice]
    if not probabilities:
        return []
    carried = {face for die in dice for face in die}
    cost = []
    best_face = []
    for p in probabilities:
        row, faces = [], []
        for die in dice:
            face = max(die, key=lambda f: p.get(f, 0.0))
            faces.append(face)
            row.append(-math.log(max(p.get(face, 0.0), FLOOR)))
        # Surplus readings go to "no cube": the table, a side, a face no cube carries.
        no_cube = 1.0 - sum(v for f, v in p.items() if f in carried)
        row.extend([-math.log(max(no_cube, FLOOR))] * max(0, len(probabilities) - len(dice)))
        cost.append(row)
        best_face.append(faces)
    columns = hungarian(cost)
    chosen: list[tuple[str | None, float]] = []
    for i, c in enumerate(columns):
        if c < len(dice):
            face = best_face[i][c]
            chosen.append((face, float(probabilities[i].get(face, 0.0))))
        else:
            chosen.append((None, float(math.exp(-cost[i][c]))))
    return chosen
