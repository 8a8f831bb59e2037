"""Lines of text on a screen: a screen's list (a heading, the lines under it, a total),
laid out in one column or two at the screen's smallest text, and the message above it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from device.draw.paint import DIM, INK, Painter, elide, font, smallest, wrap

#: The narrowest column of lines (at 800x480): an area at least twice as wide takes two.
COLUMN_AT_LEAST = 280


@dataclass(frozen=True)
class Line:
    """One line of a screen's list: its text, its points (drawn flush right), its kind:
    ``head`` (a heading, a player), ``item`` (under a heading, indented), ``total``."""

    text: str
    points: str = ""
    kind: str = "item"

    def __str__(self) -> str:
        return f"{self.text}  {self.points}" if self.points else self.text


def message_height(message: str, typeface: pygame.font.Font, width: int, unit: float) -> int:
    if not message:
        return 0
    pieces = [p for paragraph in message.split("\n") for p in wrap(paragraph, typeface, width)]
    return len(pieces) * typeface.get_linesize() + round(8 * unit)


def table_rows(
    table: tuple[tuple[Line, ...], ...],
    typeface: pygame.font.Font,
    width: int,
    indent: int,
    gap: int,
) -> list[list[Row]]:
    column = (width - gap * (len(table) - 1)) // len(table)
    return [rows_of(lines, typeface, column, indent, gap) for lines in table]


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
    paragraphs = message.split("\n") if message else []
    for piece in (p for paragraph in paragraphs for p in wrap(paragraph, typeface, area.width)):
        paint.text(piece, paint.least, INK, (area.left, y))
        y += step
    if message:
        y += round(8 * paint.unit)
    below = rows_of(lines, typeface, area.width, indent, gap)
    if side_by_side:
        width = (area.width - gap * (len(side_by_side) - 1)) // len(side_by_side)
        tables = table_rows(side_by_side, typeface, area.width, indent, gap)
        fit = max(1, (area.bottom - y) // step - len(below))
        tallest = min(fit, max(len(table) for table in tables))
        for k, table in enumerate(tables):
            draw_rows(paint, cut(table, tallest), area.left + k * (width + gap), y, width, tallest)
        y += tallest * step
    if not below:
        return
    fit = (area.bottom - y) // step  # none where the message fills the area: never over it
    if fit < 1:
        return
    columns = 1
    if len(below) > fit and area.width >= 2 * COLUMN_AT_LEAST * paint.unit:
        columns = 2
        below = rows_of(lines, typeface, (area.width - gap) // 2, indent, gap)
    width = (area.width - gap * (columns - 1)) // columns
    shown = cut(below, fit * columns)
    for column in range(columns):
        left = area.left + column * (width + gap)
        draw_rows(paint, shown[column * fit : (column + 1) * fit], left, y, width, fit)


def cut(rows: list[Row], most: int) -> list[Row]:
    """At most ``most`` rows; where some are left out (``pages`` leaves none out of its
    pages), the last row says how many."""
    if len(rows) <= most:
        return rows
    shown = rows[: max(0, most - 1)]
    return [*shown, Row(-1, f"... and {len(rows) - len(shown)} more", "", "head", 0)]


def draw_rows(paint: Painter, rows: list[Row], left: int, top: int, width: int, fit: int) -> None:
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
class Row:
    """One line as the screen shows it: a piece of a ``Line`` (``origin``, its index)."""

    origin: int
    text: str
    points: str
    kind: str
    indent: int


def rows_of(
    lines: tuple[Line, ...], typeface: pygame.font.Font, width: int, indent: int, gap: int
) -> list[Row]:
    """The lines laid out ``width`` wide, every word whole: a line wraps onto indented
    rows where it must, and its points go flush right on its last row, or where that
    row has no room for them, on a row of their own ("EST" over "refused by this
    table"). Only a single word wider than the whole row is cut short."""
    rows: list[Row] = []
    for origin, line in enumerate(lines):
        first = indent if line.kind == "item" else 0
        points = typeface.size(line.points)[0] + gap if line.points else 0
        if typeface.size(line.text)[0] <= width - first - points:
            rows.append(Row(origin, line.text, line.points, line.kind, first))
            continue
        pieces = wrap(line.text, typeface, width - indent) or [""]
        for n, piece in enumerate(pieces):
            kind, at = (line.kind, first) if n == 0 else ("item", indent)
            rows.append(Row(origin, elide(piece, typeface, width - at), "", kind, at))
        if line.points:
            last = rows[-1]
            if typeface.size(last.text)[0] <= width - last.indent - points:
                rows[-1] = Row(origin, last.text, line.points, last.kind, last.indent)
            else:
                rows.append(Row(origin, "", line.points, "item", indent))
    return rows


def notice_lines(text: str, width: int, height: int) -> list[str]:
    """The red band's lines: wrapped at the screen's smallest size, three at most."""
    typeface = font(smallest(height))
    room = width - round(24 * height / 480)
    lines = wrap(text, typeface, room)
    if len(lines) > 3:
        lines = [*lines[:2], elide(" ".join(lines[2:]), typeface, room)]
    return lines
