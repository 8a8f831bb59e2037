"""Drawing a screen: a pure function from a ``View`` to a pygame ``Surface``.

The layout is worked out from the surface's size, so the same code fits the official
800x480 touch display and a 1920x1080 monitor. ``render`` returns where it drew: each
cube's square (for the touch handling) and every piece of text with the size it was
drawn at (``device.paint``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from device.paint import (
    ALERT,
    BACKGROUND,
    CLOCK_LAST,
    DIM,
    INK,
    TITLE,
    Colour,
    Painter,
    Text,
    elide,
    font,
    smallest,
    wrap,
)
from device.tiles import draw_qr, draw_tile


@dataclass(frozen=True)
class Line:
    """One line of a screen's list: its text, its points (drawn flush right), its kind:
    ``head`` (a heading, a player), ``item`` (under a heading, indented), ``total``."""

    text: str
    points: str = ""
    kind: str = "item"

    def __str__(self) -> str:
        return f"{self.text}  {self.points}" if self.points else self.text


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
    if view.big_clock:
        board_side = min(board_side, round(width * 0.45))
    elif view.lines or view.table:  # a results screen: the words need the room more than the cubes
        board_side = min(board_side, round(width * 0.36))
    board = pygame.Rect(margin, body.top + margin, board_side, board_side)
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
            draw_tile(surface, cell, face, index in view.doubtful, value, paint)
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
    draw_lines(paint, view.message, view.lines, text_area, view.table)
    if view.notice:
        pygame.draw.rect(surface, ALERT, where.bottom)
        step = font(paint.least).get_linesize()
        y = where.bottom.top + round(6 * unit)
        for line in notice_lines(view.notice, width, height):
            paint.text(line, paint.least, INK, (round(12 * unit), y))
            y += step
    return Layout(
        where.top, where.clock, where.board, where.side, where.bottom, where.cells,
        tuple(paint.texts),
    )  # fmt: skip


def draw_text(surface: pygame.Surface, text: str, box: pygame.Rect, colour: Colour) -> None:
    """``text`` as large as fits in ``box``, centred (tests draw candidates with it)."""
    Painter(surface).fit(text, box, colour, largest=box.height, least=8)


def draw_lines(
    paint: Painter,
    message: str,
    lines: tuple[Line, ...],
    area: pygame.Rect,
    side_by_side: tuple[tuple[Line, ...], ...] = (),
) -> None:
    """The message, wrapped; then the ``side_by_side`` lists as columns of one table;
    then the lines: in one column, or two when they do not fit and the area is wide
    enough. Lines that still do not fit are counted, never shrunk."""
    typeface = font(paint.least)
    step = typeface.get_linesize()
    indent, gap = round(24 * paint.unit), round(16 * paint.unit)
    y = area.top
    for piece in wrap(message, typeface, area.width) if message else []:
        paint.text(piece, paint.least, INK, (area.left, y))
        y += step
    if message:
        y += round(8 * paint.unit)
    below = _rows(lines, typeface, area.width, indent, gap)
    if side_by_side:
        width = (area.width - gap * (len(side_by_side) - 1)) // len(side_by_side)
        tables = [_rows(column, typeface, width, indent, gap) for column in side_by_side]
        fit = max(1, (area.bottom - y) // step - len(below))
        tallest = min(fit, max(len(table) for table in tables))
        for k, table in enumerate(tables):
            _draw(paint, _cut(table, tallest), area.left + k * (width + gap), y, width, tallest)
        y += tallest * step
    if not below:
        return
    fit = max(1, (area.bottom - y) // step)
    columns = 1
    if len(below) > fit and area.width >= 2 * 300 * paint.unit:
        columns = 2
        below = _rows(lines, typeface, (area.width - gap) // 2, indent, gap)
    width = (area.width - gap * (columns - 1)) // columns
    shown = _cut(below, fit * columns)
    for column in range(columns):
        left = area.left + column * (width + gap)
        _draw(paint, shown[column * fit : (column + 1) * fit], left, y, width, fit)


def _cut(rows: list[_Row], most: int) -> list[_Row]:
    """At most ``most`` rows; when some are left out, the last says how many lines."""
    if len(rows) <= most:
        return rows
    shown = rows[: max(0, most - 1)]
    hidden = len({row.origin for row in rows} - {row.origin for row in shown})
    return [*shown, _Row(-1, f"... and {hidden} more", "", "head", 0)]


def _draw(paint: Painter, rows: list[_Row], left: int, top: int, width: int, fit: int) -> None:
    """Rows one under another from (left, top), each row's points flush right."""
    typeface = font(paint.least)
    step = typeface.get_linesize()
    for i, row in enumerate(rows[:fit]):
        y = top + i * step
        colour = DIM if row.kind == "item" else INK
        if row.kind == "total":
            rule = max(1, round(2 * paint.unit))
            pygame.draw.line(paint.surface, DIM, (left, y), (left + width, y), rule)
        if row.text:
            paint.text(row.text, paint.least, colour, (left + row.indent, y))
        if row.points:
            at = (left + width - typeface.size(row.points)[0], y)
            paint.text(row.points, paint.least, colour, at)


@dataclass(frozen=True)
class _Row:
    """One line as the screen shows it: a piece of a ``Line`` (``origin``, its index)."""

    origin: int
    text: str
    points: str
    kind: str
    indent: int


def _rows(
    lines: tuple[Line, ...], typeface: pygame.font.Font, width: int, indent: int, gap: int
) -> list[_Row]:
    """The lines laid out ``width`` wide: a line with points keeps to one row (its text
    cut short if it must be), a line without wraps onto indented rows."""
    rows: list[_Row] = []
    for origin, line in enumerate(lines):
        first = indent if line.kind == "item" else 0
        if line.points:
            room = width - first - typeface.size(line.points)[0] - gap
            text = elide(line.text, typeface, room)
            rows.append(_Row(origin, text, line.points, line.kind, first))
            continue
        pieces = wrap(line.text, typeface, width - indent) or [""]
        for n, piece in enumerate(pieces):
            kind, at = (line.kind, first) if n == 0 else ("item", indent)
            rows.append(_Row(origin, elide(piece, typeface, width - at), "", kind, at))
    return rows


def notice_lines(text: str, width: int, height: int) -> list[str]:
    """The red band's lines: wrapped at the screen's smallest size, three at most."""
    typeface = font(smallest(height))
    room = width - round(24 * height / 480)
    lines = wrap(text, typeface, room)
    if len(lines) > 3:
        lines = [*lines[:2], elide(" ".join(lines[2:]), typeface, room)]
    return lines
