"""Cubes and codes as the screen draws them: a cube seen from above (its face, its letter
value, an orange ring when it may be misread, a joker's star), and a QR code.
"""

from __future__ import annotations

import functools
import math

import pygame

from device.draw.paint import DOUBT, JOKER_INK, TILE, TILE_INK, Colour, Painter, font

#: How much of a joker's tile (its width) its star takes.
STAR_SHARE = 0.5
#: A cube already laid in the crossword: a grey tile, the letter still dark on it.
USED = (120, 122, 128)


@functools.lru_cache(maxsize=16)
def qr_matrix(text: str) -> tuple[tuple[bool, ...], ...]:
    """The modules of ``text``'s QR code, made once a text (a screen drawn again shows the
    same code, and encoding it takes longer than drawing it)."""
    import segno

    return tuple(tuple(bool(dark) for dark in row) for row in segno.make(text, error="m").matrix)


def draw_qr(surface: pygame.Surface, text: str, box: pygame.Rect) -> None:
    """``text`` as a QR code filling ``box``: dark modules on white, with the quiet zone."""
    matrix = qr_matrix(text)
    count = len(matrix) + 8  # four modules of quiet zone each side
    step = box.width // count
    left = box.left + (box.width - step * count) // 2
    top = box.top + (box.height - step * count) // 2
    pygame.draw.rect(surface, (255, 255, 255), (left, top, step * count, step * count))
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            if dark:
                cell = (left + (c + 4) * step, top + (r + 4) * step, step, step)
                pygame.draw.rect(surface, (0, 0, 0), cell)


def draw_tile(
    surface: pygame.Surface,
    cell: pygame.Rect,
    face: str,
    doubtful: bool,
    value: int | None = None,
    paint: Painter | None = None,
    used: bool = False,
) -> None:
    """One cube seen from above: its face in dark ink on a light tile, its letter value in
    the corner (as the Ad-Lib cubes print it), a thick orange ring when it may be misread,
    and a joker standing for a letter drawn as that letter in blue with a star. A cube
    ``used`` (laid in the crossword read live) is greyed, so the unused ones stand out."""
    paint = paint or Painter(surface)
    radius = max(3, cell.width // 10)
    pygame.draw.rect(surface, USED if used else TILE, cell, border_radius=radius)
    if doubtful:
        pygame.draw.rect(surface, DOUBT, cell, width=max(3, cell.width // 14), border_radius=radius)
    label = {"#": "", "*": "★"}.get(face, face)
    ink = TILE_INK
    joker = label.islower()  # a joker standing for this letter in a crossword
    if joker:
        # The star large enough to see from across the table; the letter beside it.
        label, ink = label.upper(), JOKER_INK
        side = round(cell.width * STAR_SHARE)
        star = pygame.Rect(cell.right - side, cell.bottom - side, side, side)
        _star(surface, star.inflate(-side // 8, -side // 8), JOKER_INK)
    if value is not None:
        letter = pygame.Rect(cell.left, cell.top, cell.width * 3 // 4, cell.height * 3 // 4)
        if label:
            box = letter.inflate(-cell.width // 10, -cell.height // 10)
            paint.fit(label, box, ink, largest=box.height, least=8)
        # The value as large as the corner allows, and at least the screen's smallest
        # text wherever the tile is big enough to hold that without touching the letter.
        size = round(cell.height * 0.34)
        if cell.height >= 3 * paint.least:
            size = max(size, paint.least)
        number = font(size).size(str(value))
        pad = cell.width // 16
        at = (cell.right - pad - number[0], cell.bottom - pad // 2 - number[1] + size // 8)
        paint.text(str(value), size, TILE_INK, at)
    elif label:
        box = cell.inflate(-cell.width // 5, -cell.height // 5)
        if joker:
            box = pygame.Rect(cell.left, cell.top, cell.width * 2 // 3, cell.height * 2 // 3)
            box = box.inflate(-cell.width // 12, -cell.height // 12)
        paint.fit(label, box, ink, largest=box.height, least=8)


def _star(surface: pygame.Surface, box: pygame.Rect, colour: Colour) -> None:
    """A five-pointed star filling ``box``: the joker's mark."""
    cx, cy, r = box.centerx, box.centery, box.width / 2
    points = [
        (cx + (r if k % 2 == 0 else r * 0.45) * math.sin(k * math.pi / 5),
         cy - (r if k % 2 == 0 else r * 0.45) * math.cos(k * math.pi / 5))
        for k in range(10)
    ]  # fmt: skip
    pygame.draw.polygon(surface, colour, points)
