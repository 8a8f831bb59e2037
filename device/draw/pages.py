"""A screen too long for the screen, as pages: every line shown at the smallest text, one
page after another, which the box turns in turn. A side (a heading and the lines under
it) is kept on one page where it fits on one, and each page's message says which it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from device.base.strings import say
from device.draw.lines import COLUMN_AT_LEAST, Line, message_height, rows_of, table_rows
from device.draw.paint import font, smallest
from device.draw.render import View, layout, text_area


@dataclass(frozen=True)
class _Room:
    """How many rows of lines a page of a view holds, and how wide each is."""

    rows: int
    width: int


def _room(view: View, width: int, height: int) -> tuple[_Room, _Room]:
    """The room for the lines in one column, and in as many as the screen draws."""
    unit = height / 480
    area, _code = text_area(layout(width, height, view), view, unit)
    typeface = font(smallest(height))
    step = typeface.get_linesize()
    indent, gap = round(24 * unit), round(16 * unit)
    top = area.top + message_height(view.message, typeface, area.width, unit)
    if view.table:
        tables = table_rows(view.table, typeface, area.width, indent, gap)
        top += max(len(rows) for rows in tables) * step
    fit = max(0, (area.bottom - top) // step)
    columns = 2 if area.width >= 2 * COLUMN_AT_LEAST * unit else 1
    return _Room(fit, area.width), _Room(
        fit * columns, (area.width - gap * (columns - 1)) // columns
    )


def _count(lines: tuple[Line, ...], width: int, height: int) -> int:
    unit = height / 480
    return len(rows_of(lines, font(smallest(height)), width, round(24 * unit), round(16 * unit)))


def _fits(view: View, width: int, height: int) -> bool:
    one, most = _room(view, width, height)
    if _count(view.lines, one.width, height) <= one.rows:
        return True
    return _count(view.lines, most.width, height) <= most.rows


@cache
def pages(view: View, width: int, height: int) -> tuple[View, ...]:
    """``view`` as the pages it takes to show every one of its lines (itself where they
    fit), each page's message saying which page it is. A view with a ``summary`` (every
    player's score) that does not fit shows it first, on a page of its own, and then its
    lines in the whole width, without the cubes: a table of twelve reads its scores at
    once, and its words in few pages."""
    if not view.lines or _fits(view, width, height):
        return (view,)
    if view.summary:
        view = replace(view, faces=(), size=0, doubtful=frozenset(), values=(), caption="")
    marked = replace(view, message=_page_mark(view.message, 99, 99, view.language))
    _one, room = _room(marked, width, height)
    if room.rows < 1:
        return (view,)  # the message fills the screen: no page would show a line
    chunks = _chunks(_one_row_each(view.lines, room.width, height), room.rows)
    shown = [replace(view, lines=tuple(chunk)) for chunk in chunks]
    if view.summary:
        shown.insert(0, replace(view, lines=view.summary))
    return tuple(
        replace(page, message=_page_mark(view.message, k, len(shown), view.language))
        for k, page in enumerate(shown, 1)
    )


def _chunks(lines: list[Line], most: int) -> list[list[Line]]:
    """The lines in pages of at most ``most``: a side (a heading and the lines under it)
    that would not fit on this page begins the next where it fits there whole and this
    page is more than half full; else it goes on over the page, its heading said again."""
    chunks: list[list[Line]] = []
    page: list[Line] = []
    for block in _blocks(lines):
        if page and len(page) + len(block) > most and len(block) <= most and len(page) > most // 2:
            chunks.append(page)
            page = []
        for line in block:
            if len(page) == most:
                chunks.append(page)
                again = line is not block[0] and block[0].kind != "item" and most > 1
                page = [block[0]] if again else []
            page.append(line)
    chunks.append(page)
    return chunks


def _one_row_each(lines: tuple[Line, ...], width: int, height: int) -> list[Line]:
    """The lines with each that takes several rows made one line a row (the rows after
    its first as the lines under it), so that a page may end between them."""
    unit = height / 480
    typeface = font(smallest(height))
    split: list[Line] = []
    for line in lines:
        rows = rows_of((line,), typeface, width, round(24 * unit), round(16 * unit))
        if len(rows) == 1:
            split.append(line)
            continue
        split += [replace(line, text=rows[0].text, points=rows[0].points)]
        split += [Line(row.text, row.points) for row in rows[1:]]
    return split


def _blocks(lines: list[Line]) -> list[list[Line]]:
    """The lines in sides: each heading with the lines under it."""
    blocks: list[list[Line]] = []
    for line in lines:
        if line.kind != "item" or not blocks:
            blocks.append([])
        blocks[-1].append(line)
    return blocks


def _page_mark(message: str, number: int, total: int, language: str) -> str:
    mark = say("page-of", language, number=number, total=total)
    return f"{message}\n{mark}" if message else mark
