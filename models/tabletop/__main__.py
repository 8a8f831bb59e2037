"""Draw one scene with its ground truth outlined, for a person to look at.

    python -m models.tabletop --kind tray --seed 3 --split train --out x.png

Tops are outlined green (yellow where partly hidden) with a dot at the print's top left,
visible sides blue; the board or crossword and the loose faces are printed.
"""

from __future__ import annotations

import argparse
import sys

import cv2
import numpy as np

from models.scenes import Scene
from models.tabletop import KINDS, SPLITS, render


def outline(scene: Scene) -> np.ndarray:
    """The scene's image with every top and visible side drawn over it."""
    image = scene.image.copy()
    for cube in scene.cubes:
        for side in cube.sides:
            pts = np.round(np.array(side.corners) * 4).astype(np.int32)
            cv2.polylines(image, [pts], True, (255, 128, 0), 1, cv2.LINE_AA, 2)
        pts = np.round(np.array(cube.corners) * 4).astype(np.int32)
        color = (0, 220, 0) if cube.visible > 0.95 else (0, 220, 255)
        cv2.polylines(image, [pts], True, color, 1, cv2.LINE_AA, 2)
        cv2.circle(image, tuple(pts[0]), 3 * 4, (0, 0, 255), -1, cv2.LINE_AA, 2)
    return image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Render one tabletop scene with its truth.")
    parser.add_argument("--kind", choices=KINDS, default="tray")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--split", choices=SPLITS, default="train")
    parser.add_argument("--size", default="640x480", help="frame as WIDTHxHEIGHT")
    parser.add_argument("--plain", action="store_true", help="leave the truth undrawn")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"--size {args.size!r} is not WIDTHxHEIGHT, such as 640x480.", file=sys.stderr)
        return 2
    scene = render(args.kind, args.seed, split=args.split, frame=(width, height))
    image = scene.image if args.plain else outline(scene)
    if not cv2.imwrite(args.out, image):
        print(f"Cannot write {args.out!r}; give a path ending in .png or .jpg.", file=sys.stderr)
        return 2
    if scene.board:
        print("/".join("".join(row) for row in scene.board))
    if scene.grid:
        print("\n".join(scene.grid), f"(turned {90 * scene.grid_turn} degrees)")
    loose = [cube.face for cube in scene.cubes if cube.cell is None]
    if loose:
        print(" ".join(loose))
    return 0


if __name__ == "__main__":
    sys.exit(main())
