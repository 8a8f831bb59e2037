"""Drawing a screen: a pure function from a ``View`` to a pygame ``Surface``.

The layout is worked out from the surface's size, so the same code fits the official
800x480 touch display and a 1920x1080 monitor. ``render`` returns where it drew: each
cube's square (for the touch handling) and every piece of text with the size it was
drawn at (``device.draw.paint``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from device.draw.lines import Line, draw_lines, notice_lines
from device.draw.paint import (
    ALERT,
    BACKGROUND,
    CLOCK_LAST,
    DOUBT,
    INK,
    SMALLEST,
    TITLE,
    Colour,
    Painter,
    Text,
    font,
    smallest,
)
from device.draw.tiles import draw_qr, draw_tile

#: How wide (at 800x480) a results screen's cubes get at least, so that each cube's letter
#: is drawn at the smallest text or larger.
TILE_AT_LEAST = 42
#: How wide (at 800x480) the players' page's QR code is at most: four pixels a module of
#: an address with its secret, and the rest of the screen for the match table.
QR_SIDE = 170


@dataclass(frozen=True)
class View:
    """What one screen shows."""

    title: str
    #: The cubes drawn as tiles: a tray row by row, loose cubes, or a crossword's squares
    #: row by row ("" for an empty square).
    faces: tuple[str, ...] = ()
    size: int = 0  # how many tiles a row; 0 = as square a block as the count allows
    doubtful: frozenset[int] = frozenset()
    clock: str = ""
    urgent: bool = False  # the last ten seconds: the clock turns red
    message: str = ""
    lines: tuple[Line, ...] = ()
    notice: str = ""
    big_clock: bool = False
    #: Each face's letter value (Ad-Lib), drawn in the tile's corner; () for none.
    values: tuple[int, ...] = ()
    #: An address to show as a QR code (the players' page), "" for none.
    qr: str = ""
    #: A caption over the tiles (such as the best crossword's score), "" for none.
    caption: str = ""
    #: Lists drawn side by side as the columns of one table, above ``lines``.
    table: tuple[tuple[Line, ...], ...] = ()
    #: A score drawn large under the big clock (an Ad-Lib turn read live), "" for none.
    score: str = ""
    #: The tiles of cubes already laid (greyed, so the unused ones stand out).
    used: frozenset[int] = frozenset()
    #: Every side's score in a line each: shown alone first where the lines take pages
    #: (``device.draw.pages``), so that every score is on one page.
    summary: tuple[Line, ...] = ()
    #: The language of the view's words, for those the screen adds (a page's number).
    language: str = "en"
    #: A press the box did not take: the screen's edge flashes.
    flash: bool = False


@dataclass(frozen=True)
class Layout:
    top: pygame.Rect
    clock: pygame.Rect
    board: pygame.Rect
    side: pygame.Rect
    bottom: pygame.Rect
    cells: tuple[pygame.Rect, ...]
    #: Every text drawn, in the order drawn (filled in by ``render``).
    texts: tuple[Text, ...] = field(default=())


def layout(width: int, height: int, view: View) -> Layout:
    unit = height / 480  # 1 at the 800x480 display
    top = pygame.Rect(0, 0, width, round(72 * unit))
    bottom_h = 0
    if view.notice:
        lines = notice_lines(view.notice, width, height)
        bottom_h = len(lines) * font(smallest(height)).get_linesize() + round(12 * unit)
    bottom = pygame.Rect(0, height - bottom_h, width, bottom_h)
    body = pygame.Rect(0, top.bottom, width, bottom.top - top.bottom)
    margin = round(12 * unit)
    clock_w = round(width * 0.28)
    clock = pygame.Rect(width - clock_w - margin, margin // 2, clock_w, top.height - margin)
    board_side = body.height - 2 * margin
    board_width = board_side
    if view.big_clock:
        board_side = board_width = min(board_side, round(width * 0.45))
    elif view.lines or view.table:  # a results screen: the words need the room more than the cubes
        columns = view.size or math.ceil(math.sqrt(len(view.faces) or 1))
        # ... but never so little that a cube's letter is under the smallest text
        wanted = max(round(width * 0.36), round(columns * TILE_AT_LEAST * unit))
        board_width = min(board_side, wanted, round(width * 0.58))
        if view.size and columns * columns > len(view.faces):  # a crossword wider than tall
            board_width = min(wanted, round(width * 0.58))
    board = pygame.Rect(margin, body.top + margin, board_width, board_side)
    caption_w = 0
    if view.caption:
        typeface = font(smallest(height))
        caption_w, caption_h = typeface.size(view.caption)[0], typeface.get_linesize()
        board.top += caption_h
        board.height -= caption_h
    cells = _cells(board, view)
    if cells:  # the board is as wide as its tiles (and its caption): the rest is the text's
        tiles = max(cell.right for cell in cells) - board.left + cells[0].left - board.left
        board.width = max(tiles, caption_w)
    else:
        board.width = 0
    left = board.right + 2 * margin if cells else margin
    side = pygame.Rect(left, body.top + margin, 0, body.height - 2 * margin)
    side.width = width - side.left - margin
    if view.big_clock and view.faces:
        clock = pygame.Rect(side.left, side.top, side.width, round(side.height * 0.55))
    return Layout(top, clock, board, side, bottom, tuple(cells))


def _cells(board: pygame.Rect, view: View) -> list[pygame.Rect]:
    count = len(view.faces)
    if not count:
        return []
    columns = view.size or math.ceil(math.sqrt(count))
    rows = math.ceil(count / columns)
    step = min(board.width / columns, board.height / rows)
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
    paint = Painter(surface)
    unit = paint.unit
    title_box = where.top.inflate(-24 * unit, -8 * unit)
    if view.clock and not (view.big_clock and view.faces):  # the clock shares the top
        title_box.width = where.top.width - where.clock.width - round(36 * unit)
    paint.fit(view.title, title_box, INK, align="left", largest=round(TITLE * unit))
    if view.clock:
        paint.fit(view.clock, where.clock, CLOCK_LAST if view.urgent else INK, largest=height)
    if view.caption:
        at = (where.board.left, where.top.bottom + round(12 * unit))
        paint.text(view.caption, paint.least, INK, at)
    for index, (face, cell) in enumerate(zip(view.faces, where.cells, strict=True)):
        if face:  # "" is an empty square of a crossword
            value = view.values[index] if view.values else None
            draw_tile(surface, cell, face, index in view.doubtful, value, paint, index in view.used)
    score = score_box(where, view, unit)
    if score is not None:  # as large as a third of the room under the clock allows
        paint.fit(view.score, score, INK, align="left", largest=score.height)
    area, code = text_area(where, view, unit)
    if code is not None:
        draw_qr(surface, view.qr, code)
    draw_lines(paint, view.message, view.lines, area, view.table)
    if view.notice:
        pygame.draw.rect(surface, ALERT, where.bottom)
        step = font(paint.least).get_linesize()
        y = where.bottom.top + round(6 * unit)
        for line in notice_lines(view.notice, width, height):
            paint.text(line, paint.least, INK, (round(12 * unit), y))
            y += step
    if view.flash:
        pygame.draw.rect(surface, DOUBT, surface.get_rect(), max(4, round(12 * unit)))
    return Layout(
        where.top, where.clock, where.board, where.side, where.bottom, where.cells,
        tuple(paint.texts),
    )  # fmt: skip


def score_box(where: Layout, view: View, unit: float) -> pygame.Rect | None:
    """Where a live score goes (under the clock, a third of the room there), or None."""
    if not view.score:
        return None
    top = where.clock.bottom if view.big_clock and view.faces else where.side.top
    box = pygame.Rect(where.side.left, top, where.side.width, 0)
    box.height = max(round(SMALLEST * unit), (where.side.bottom - top) // 3)
    return box


def text_area(where: Layout, view: View, unit: float) -> tuple[pygame.Rect, pygame.Rect | None]:
    """Where the message and the lines go, and the QR code's square (None for none)."""
    top = where.clock.bottom if view.big_clock and view.faces else where.side.top
    score = score_box(where, view, unit)
    if score is not None:
        top = score.bottom + round(8 * unit)
    area = pygame.Rect(where.side.left, top, where.side.width, where.side.bottom - top)
    if not view.qr:
        return area, None
    # Small, beside the table: a phone reads it from close by, the table from afar.
    side = min(area.width // 2, area.height, round(QR_SIDE * unit))
    code = pygame.Rect(area.right - side, area.bottom - side, side, side)
    area.width -= side + round(12 * unit)
    return area, code


def draw_text(surface: pygame.Surface, text: str, box: pygame.Rect, colour: Colour) -> None:
    """``text`` as large as fits in ``box``, centred (tests draw candidates with it)."""
    Painter(surface).fit(text, box, colour, largest=box.height, least=8)
