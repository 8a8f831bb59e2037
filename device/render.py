"""Drawing a screen: a pure function from a ``View`` to a pygame ``Surface``.

The layout is worked out from the surface's size, so the same code fits the official
800x480 touch display and a 1920x1080 monitor. ``layout`` returns the rectangles it
draws into (each cube, the clock), which the touch handling and the tests use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

import pygame

FONT = "DejaVuSans-Bold.ttf"

INK = (238, 238, 232)
DIM = (150, 156, 168)
BACKGROUND = (20, 24, 32)
TILE = (246, 240, 222)
TILE_INK = (24, 24, 28)
DOUBT = (255, 150, 30)
ALERT = (200, 40, 40)
CLOCK_LAST = (255, 90, 70)


@dataclass(frozen=True)
class View:
    """What one screen shows."""

    title: str
    faces: tuple[str, ...] = ()
    size: int = 0  # tray side; 0 = loose cubes in a row
    doubtful: frozenset[int] = frozenset()
    clock: str = ""
    urgent: bool = False  # the last ten seconds: the clock turns red
    message: str = ""
    lines: tuple[str, ...] = ()
    notice: str = ""
    big_clock: bool = False
    #: What the next press does, shown small where the clock stands when there is none.
    hint: str = ""
    #: Each face's letter value (Ad-Lib), drawn in the tile's corner; () for none.
    values: tuple[int, ...] = ()
    #: An address to show as a QR code (the players' page), "" for none.
    qr: str = ""


@dataclass(frozen=True)
class Layout:
    top: pygame.Rect
    clock: pygame.Rect
    board: pygame.Rect
    side: pygame.Rect
    bottom: pygame.Rect
    cells: tuple[pygame.Rect, ...]


@cache
def font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    path = resources.files("device") / "data" / "fonts" / FONT
    with resources.as_file(path) as real:
        return pygame.font.Font(str(real), size)


def layout(width: int, height: int, view: View) -> Layout:
    unit = height / 480  # 1 at the 800x480 display
    top = pygame.Rect(0, 0, width, round(72 * unit))
    bottom_h = 0
    if view.notice:
        lines = notice_lines(view.notice, width, unit)
        bottom_h = len(lines) * font(round(22 * unit)).get_linesize() + round(12 * unit)
    bottom = pygame.Rect(0, height - bottom_h, width, bottom_h)
    body = pygame.Rect(0, top.bottom, width, bottom.top - top.bottom)
    margin = round(12 * unit)
    clock_w = round(width * 0.28)
    clock = pygame.Rect(width - clock_w - margin, margin // 2, clock_w, top.height - margin)
    board_side = body.height - 2 * margin
    if view.big_clock:
        board_side = min(board_side, round(width * 0.45))
    board = pygame.Rect(margin, body.top + margin, board_side, board_side)
    if not view.faces:
        board.width = 0
    side = pygame.Rect(board.right + 2 * margin, body.top + margin, 0, body.height - 2 * margin)
    side.width = width - side.left - margin
    if view.big_clock and view.faces:
        clock = pygame.Rect(side.left, side.top, side.width, round(side.height * 0.55))
    return Layout(top, clock, board, side, bottom, tuple(_cells(board, view)))


def _cells(board: pygame.Rect, view: View) -> list[pygame.Rect]:
    count = len(view.faces)
    if not count:
        return []
    columns = view.size or math.ceil(math.sqrt(count))
    rows = math.ceil(count / columns)
    step = board.width / max(columns, rows)
    gap = max(2, round(step * 0.08))
    return [
        pygame.Rect(
            round(board.left + (i % columns) * step) + gap // 2,
            round(board.top + (i // columns) * step) + gap // 2,
            round(step) - gap,
            round(step) - gap,
        )
        for i in range(count)
    ]


def render(view: View, surface: pygame.Surface) -> Layout:
    """Draw ``view`` over the whole of ``surface``; returns where things went."""
    width, height = surface.get_size()
    where = layout(width, height, view)
    surface.fill(BACKGROUND)
    unit = height / 480
    fit_text(
        surface,
        view.title,
        where.top.inflate(-24 * unit, -8 * unit),
        INK,
        align="left",
        max_size=round(40 * unit),
        width=where.top.width - where.clock.width - round(36 * unit),
    )
    if view.clock:
        colour = CLOCK_LAST if view.urgent else INK
        draw_text(surface, view.clock, where.clock, colour)
    elif view.hint:
        fit_text(surface, view.hint, where.clock.inflate(0, -where.clock.height // 3), DIM)
    for index, (face, cell) in enumerate(zip(view.faces, where.cells, strict=True)):
        if face:  # "" is an empty square of a crossword
            value = view.values[index] if view.values else None
            draw_tile(surface, cell, face, index in view.doubtful, value)
    text_top = where.side.top
    if view.big_clock and view.faces:
        text_top = where.clock.bottom
    text_area = pygame.Rect(
        where.side.left, text_top, where.side.width, where.side.bottom - text_top
    )
    if view.qr:
        side = min(text_area.width // 2, text_area.height)
        code = pygame.Rect(text_area.right - side, text_area.bottom - side, side, side)
        draw_qr(surface, view.qr, code)
        text_area.width -= side + round(12 * unit)
    draw_lines(surface, view.message, view.lines, text_area, unit)
    if view.notice:
        pygame.draw.rect(surface, ALERT, where.bottom)
        typeface = font(round(22 * unit))
        y = where.bottom.top + round(6 * unit)
        for line in notice_lines(view.notice, width, unit):
            surface.blit(typeface.render(line, True, INK), (round(12 * unit), y))
            y += typeface.get_linesize()
    return where


def draw_qr(surface: pygame.Surface, text: str, box: pygame.Rect) -> None:
    """``text`` as a QR code filling ``box``: dark modules on white, with the quiet zone."""
    import segno

    matrix = segno.make(text, error="m").matrix
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
) -> None:
    """One cube seen from above: its face in dark ink on a light tile, and its letter
    value small in the corner (as the Ad-Lib cubes print it)."""
    radius = max(3, cell.width // 10)
    pygame.draw.rect(surface, TILE, cell, border_radius=radius)
    if doubtful:
        pygame.draw.rect(surface, DOUBT, cell, width=max(3, cell.width // 14), border_radius=radius)
    label = {"#": "", "*": "★"}.get(face, face)
    if value is not None:
        letter = pygame.Rect(cell.left, cell.top, cell.width * 3 // 4, cell.height * 3 // 4)
        corner = pygame.Rect(
            cell.right - cell.width * 2 // 5,
            cell.bottom - cell.height * 2 // 5,
            cell.width * 2 // 5,
            cell.height * 2 // 5,
        )
        if label:
            draw_text(
                surface, label, letter.inflate(-cell.width // 10, -cell.height // 10), TILE_INK
            )
        draw_text(
            surface, str(value), corner.inflate(-cell.width // 16, -cell.height // 16), TILE_INK
        )
    elif label:
        draw_text(surface, label, cell.inflate(-cell.width // 5, -cell.height // 5), TILE_INK)
    if doubtful:
        mark = pygame.Rect(
            cell.right - cell.width // 3, cell.top, cell.width // 3, cell.height // 3
        )
        draw_text(surface, "?", mark.inflate(-4, -4), DOUBT)


def draw_text(
    surface: pygame.Surface, text: str, box: pygame.Rect, colour: tuple[int, int, int]
) -> None:
    """``text`` as large as fits in ``box``, centred."""
    fit_text(surface, text, box, colour, align="center", max_size=box.height)


def fit_text(
    surface: pygame.Surface,
    text: str,
    box: pygame.Rect,
    colour: tuple[int, int, int],
    *,
    align: str = "center",
    max_size: int = 200,
    width: int | None = None,
) -> None:
    width = width or box.width
    size = max(8, min(max_size, round(box.height * 1.25)))
    image = font(size).render(text, True, colour)
    while size > 8 and (image.get_width() > width or image.get_height() > box.height * 1.3):
        size = max(8, int(size * 0.9))
        image = font(size).render(text, True, colour)
    placed = image.get_rect(center=box.center)
    if align == "left":
        placed.left = box.left
    surface.blit(image, placed)


def draw_lines(
    surface: pygame.Surface, message: str, lines: tuple[str, ...], area: pygame.Rect, unit: float
) -> None:
    y = area.top
    if message:
        size = round(28 * unit)
        for line in wrap(message, font(size), area.width):
            surface.blit(font(size).render(line, True, INK), (area.left, y))
            y += font(size).get_linesize()
        y += round(6 * unit)
    if not lines:
        return
    size = round(24 * unit)
    step = font(size).get_linesize()
    rows = max(1, (area.bottom - y) // step)
    wrapped = [
        piece if n == 0 else "  " + piece
        for line in lines
        for n, piece in enumerate(wrap(line, font(size), area.width) or [""])
    ]
    if len(wrapped) <= rows:
        lines = tuple(wrapped)  # one column: long lines (a referee's reasons) wrap
    columns = 2 if len(lines) > rows and area.width > 300 * unit else 1
    column_width = area.width // columns
    shown = lines[: rows * columns]
    if len(lines) > len(shown):
        shown = (*shown[:-1], f"... and {len(lines) - len(shown) + 1} more")
    for i, line in enumerate(shown):
        x = area.left + (i // rows) * column_width
        image = font(size).render(line, True, DIM if line.startswith("  ") else INK)
        if image.get_width() > column_width - 8:
            # Narrower rather than cut: a clipped "58" would read as "5".
            scale = (column_width - 8) / image.get_width()
            image = pygame.transform.smoothscale(
                image, (column_width - 8, max(1, round(image.get_height() * scale)))
            )
        surface.blit(image, (x, y + (i % rows) * step))


def notice_lines(text: str, width: int, unit: float) -> list[str]:
    """The red band's lines: wrapped at a size read across a table, three at most."""
    lines = wrap(text, font(round(22 * unit)), width - round(24 * unit))
    return lines[:2] + [" ".join(lines[2:])] if len(lines) > 3 else lines


def wrap(text: str, typeface: pygame.font.Font, width: int) -> list[str]:
    if typeface.size(text)[0] <= width:
        return [text]
    words, lines, line = text.split(), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if line and typeface.size(trial)[0] > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines
