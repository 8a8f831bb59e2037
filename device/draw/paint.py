"""Text on a screen: the screen's font at a size, and a painter that draws text and keeps a
record of every piece drawn (what it says, its size, where), so that a test can hold a
screen to being read across a table: no text smaller than ``SMALLEST`` pixels at 800x480
(about 7 mm on the 7-inch display), larger screens in proportion. Text that does not fit
is wrapped, or cut short with an ellipsis; it is never drawn smaller.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

import pygame

FONT = "DejaVuSans-Bold.ttf"
#: The smallest text on an 800x480 screen, in pixels; larger screens scale it.
SMALLEST = 28
#: The title's size, at most.
TITLE = 40

INK = (238, 238, 232)
DIM = (170, 176, 188)
BACKGROUND = (20, 24, 32)
TILE = (246, 240, 222)
TILE_INK = (24, 24, 28)
DOUBT = (255, 150, 30)
ALERT = (200, 40, 40)
CLOCK_LAST = (255, 90, 70)
JOKER_INK = (40, 90, 200)  # a joker in a crossword: the letter it stands for, in blue

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class Text:
    """A piece of text as drawn: what it says, its size in pixels and where it went."""

    text: str
    size: int
    rect: pygame.Rect
    colour: Colour


@cache
def font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    path = resources.files("device") / "data" / "fonts" / FONT
    with resources.as_file(path) as real:
        return pygame.font.Font(str(real), size)


def smallest(height: int) -> int:
    """The smallest text size on a screen ``height`` pixels high."""
    return round(SMALLEST * height / 480)


class Painter:
    """Draws text and tiles on one surface, and keeps a record of every text drawn."""

    def __init__(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.unit = surface.get_height() / 480
        self.least = smallest(surface.get_height())
        self.texts: list[Text] = []

    def text(self, text: str, size: int, colour: Colour, at: tuple[int, int]) -> pygame.Rect:
        """``text`` at ``size`` with its top left at ``at``."""
        image = font(size).render(text, True, colour)
        placed = self.surface.blit(image, at)
        self.texts.append(Text(text, size, placed, colour))
        return placed

    def fit(
        self,
        text: str,
        box: pygame.Rect,
        colour: Colour,
        *,
        align: str = "center",
        largest: int = 200,
        least: int | None = None,
    ) -> pygame.Rect:
        """``text`` as large as fits in ``box`` (up to ``largest``), never smaller than
        ``least`` (the screen's smallest, unless given): cut short with "…" instead."""
        least = self.least if least is None else least
        size = max(least, min(largest, round(box.height * 1.25)))
        while size > least and not _fits(text, size, box):
            size = max(least, int(size * 0.92))
        text = elide(text, font(size), box.width)
        image = font(size).render(text, True, colour)
        placed = image.get_rect(center=box.center)
        if align == "left":
            placed.left = box.left
        elif align == "right":
            placed.right = box.right
        self.surface.blit(image, placed)
        self.texts.append(Text(text, size, placed, colour))
        return placed


def _fits(text: str, size: int, box: pygame.Rect) -> bool:
    width, height = font(size).size(text)
    return width <= box.width and height <= box.height * 1.3


def elide(text: str, typeface: pygame.font.Font, width: int) -> str:
    """``text``, cut short with "…" where it is wider than ``width``."""
    if typeface.size(text)[0] <= width:
        return text
    while text and typeface.size(text + "…")[0] > width:
        text = text[:-1]
    return text.rstrip() + "…"


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
