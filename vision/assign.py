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
) -> list[tuple[str, float]]:
    """The face each reading most probably shows, given that every cube shows one face.

    Returns (face, probability of that face) per reading. With more readings than cubes the
    surplus readings keep their own best face.
    """
    dice = [sorted({str(face) for face in die.faces}) for die in cube_set.dice]
    if not probabilities:
        return []
    if len(probabilities) > len(dice):
        return [max(p.items(), key=lambda item: item[1]) for p in probabilities]
    cost = []
    best_face = []
    for p in probabilities:
        row, faces = [], []
        for die in dice:
            face = max(die, key=lambda f: p.get(f, 0.0))
            faces.append(face)
            row.append(-math.log(max(p.get(face, 0.0), FLOOR)))
        cost.append(row)
        best_face.append(faces)
    columns = hungarian(cost)
    return [
        (best_face[i][c], float(probabilities[i].get(best_face[i][c], 0.0)))
        for i, c in enumerate(columns)
    ]
