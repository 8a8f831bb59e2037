"""What a kit prints on a cube face: the letter, Ad-Lib's point value, Boggle's underline
under M, W and Z, and the joker, "a square with diagonal lines", in many printings.

A face is drawn as a square texture (BGR, float 0-1) with an alpha mask whose corners are
rounded and whose rim is shaded as the rounded edge of a real cube turns away.
Fonts are the system's (Debian's DejaVu), pygame's FreeSans Bold and OpenCV's Hershey
strokes; none comes from the project's own training fonts.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")

#: Regular-width faces a kit may be printed in: a TrueType file, or "hershey:N" for
#: OpenCV's stroke font N drawn with a thick pen.
FONTS: tuple[str, ...] = (
    str(DEJAVU / "DejaVuSans-Bold.ttf"),
    str(DEJAVU / "DejaVuSans.ttf"),
    str(DEJAVU / "DejaVuSerif-Bold.ttf"),
    str(DEJAVU / "DejaVuSansMono-Bold.ttf"),
    "pygame:freesansbold.ttf",
    f"hershey:{cv2.FONT_HERSHEY_SIMPLEX}",
    f"hershey:{cv2.FONT_HERSHEY_DUPLEX}",
    f"hershey:{cv2.FONT_HERSHEY_TRIPLEX}",
)
#: Narrow faces: a condensed cut, squeezed further by ``Printing.squeeze``.
CONDENSED_FONTS: tuple[str, ...] = (
    str(DEJAVU / "DejaVuSansCondensed-Bold.ttf"),
    str(DEJAVU / "DejaVuSansCondensed.ttf"),
    str(DEJAVU / "DejaVuSerifCondensed-Bold.ttf"),
    f"hershey:{cv2.FONT_HERSHEY_SIMPLEX}",
    "pygame:freesansbold.ttf",
)
#: Boggle kits underline these so that they are not read upside down as another letter.
UNDERLINED = frozenset({"M", "W", "Z"})


def available(fonts: tuple[str, ...]) -> tuple[str, ...]:
    """The fonts of ``fonts`` that this machine has."""
    return tuple(font for font in fonts if font.startswith("hershey:") or font_path(font).is_file())


def font_path(font: str) -> Path:
    if font.startswith("pygame:"):
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame  # only for the path of the font file it ships

        return Path(pygame.__file__).parent / font.split(":", 1)[1]
    return Path(font)


@dataclass(frozen=True)
class JokerStyle:
    """One printing of "a square with diagonal lines"."""

    lines: int  # 3 to 12
    crossed: bool  # lines both ways, or one way only
    rising: bool  # which way the one-way lines lean
    thickness: float  # a line's width as a fraction of the square's side
    outline: bool  # the square's own outline drawn
    size: float  # the square's side as a fraction of the face
    diamond: bool  # the square stands on a corner

    @classmethod
    def random(cls, rng: np.random.Generator) -> JokerStyle:
        return cls(
            lines=int(rng.integers(3, 13)),
            crossed=bool(rng.random() < 0.4),
            rising=bool(rng.random() < 0.5),
            thickness=float(rng.uniform(0.015, 0.07)),
            outline=bool(rng.random() < 0.6),
            size=float(rng.uniform(0.35, 0.8)),
            diamond=bool(rng.random() < 0.25),
        )


@dataclass(frozen=True)
class Printing:
    """How one kit prints its faces."""

    font: str
    squeeze: float  # glyph width factor: 1 as designed, below 1 narrower
    letter_size: float  # cap height as a fraction of the face
    weight: int  # extra pen width in pixels at 256 (Hershey) or dilation (TrueType)
    ink: tuple[float, float, float]  # BGR 0-1
    cube: tuple[float, float, float]
    wear: float  # share of ink rubbed off, in blotches
    values: bool  # Ad-Lib: the point value printed at the lower right
    underline: bool  # Boggle: a bar under M, W and Z
    joker: JokerStyle
    corner: float  # corner radius as a fraction of the face
    bevel: float  # how much the rounded rim darkens


CUBE_COLOURS = (
    (0.93, 0.95, 0.96),  # white
    (0.80, 0.90, 0.95),  # ivory
    (0.70, 0.86, 0.93),  # cream
    (0.62, 0.83, 0.92),  # old yellowed plastic
    (0.92, 0.88, 0.84),  # pale blue-grey
    (0.86, 0.93, 0.88),  # pale green
)
INKS = (
    (0.06, 0.06, 0.06),  # black
    (0.35, 0.12, 0.05),  # navy
    (0.55, 0.25, 0.08),  # blue
    (0.08, 0.08, 0.45),  # dark red
    (0.12, 0.30, 0.10),  # dark green
    (0.20, 0.20, 0.22),  # grey-black
)


def random_printing(
    rng: np.random.Generator, *, values: bool, underline: bool, condensed: bool = False
) -> Printing:
    """A kit: font, ink, cube colour and marks drawn at random."""
    fonts = available(CONDENSED_FONTS if condensed else FONTS)
    dark_cube = rng.random() < 0.05  # now and then light ink on a dark cube
    cube = tuple(float(c) for c in CUBE_COLOURS[rng.integers(len(CUBE_COLOURS))])
    ink = tuple(float(c) for c in INKS[rng.integers(len(INKS))])
    if dark_cube:
        cube, ink = (
            (0.15, 0.12, 0.45) if rng.random() < 0.5 else (0.35, 0.18, 0.1),
            (
                0.92,
                0.95,
                0.95,
            ),
        )
    return Printing(
        font=str(fonts[rng.integers(len(fonts))]),
        squeeze=float(rng.uniform(0.5, 0.72) if condensed else rng.uniform(0.88, 1.1)),
        letter_size=float(rng.uniform(0.42, 0.55) if values else rng.uniform(0.45, 0.62)),
        weight=int(rng.integers(0, 4)),
        ink=(float(ink[0]), float(ink[1]), float(ink[2])),
        cube=(float(cube[0]), float(cube[1]), float(cube[2])),
        wear=float(rng.uniform(0.0, 0.25) if rng.random() < 0.35 else 0.0),
        values=values,
        underline=underline,
        joker=JokerStyle.random(rng),
        corner=float(rng.uniform(0.06, 0.2)),
        bevel=float(rng.uniform(0.1, 0.3)),
    )


@functools.lru_cache(maxsize=64)
def glyph(text: str, font: str, weight: int) -> np.ndarray:
    """``text`` as a tight ink mask (float 0-1), its height the cap height."""
    canvas: np.ndarray
    if font.startswith("hershey:"):
        face = int(font.split(":", 1)[1])
        canvas = np.zeros((400, 400 * len(text)), np.uint8)
        pen = 14 + 4 * weight
        cv2.putText(canvas, text, (30, 300), face, 7.0, 255, pen, cv2.LINE_AA)
    else:
        pil_font = ImageFont.truetype(str(font_path(font)), 260)
        image = Image.new("L", (300 * len(text) + 100, 420), 0)
        ImageDraw.Draw(image).text((40, 40), text, fill=255, font=pil_font)
        canvas = np.asarray(image)
        if weight:
            canvas = cv2.dilate(canvas, np.ones((weight * 2 + 1,) * 2, np.uint8))
    ys, xs = np.nonzero(canvas > 40)
    cut = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return cut.astype(np.float32) / 255.0


def place(
    ink: np.ndarray, mark: np.ndarray, centre: tuple[float, float], size: tuple[int, int]
) -> None:
    """Draw ``mark`` resized to ``size`` (w, h) with its centre at ``centre`` (max blend)."""
    w, h = max(1, size[0]), max(1, size[1])
    scaled = cv2.resize(mark, (w, h), interpolation=cv2.INTER_AREA)
    x0, y0 = int(round(centre[0] - w / 2)), int(round(centre[1] - h / 2))
    n = ink.shape[0]
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + w, n), min(y0 + h, n)
    if xa >= xb or ya >= yb:
        return
    region = scaled[ya - y0 : yb - y0, xa - x0 : xb - x0]
    np.maximum(ink[ya:yb, xa:xb], region, out=ink[ya:yb, xa:xb])


def joker_mark(style: JokerStyle, n: int) -> np.ndarray:
    """The joker's square with its diagonal lines, on an n x n canvas (ink 0-1)."""
    big = 4 * n if n <= 256 else 2 * n
    side = style.size * big
    if style.diamond:
        side /= np.sqrt(2)  # a square on its corner must still fit the face
    canvas: np.ndarray = np.zeros((big, big), np.uint8)
    lo, hi = (big - side) / 2, (big + side) / 2
    pen = max(1, int(round(style.thickness * side)))
    lines = np.zeros_like(canvas)
    directions = [True, False] if style.crossed else [style.rising]
    for rising in directions:
        for k in range(1, style.lines + 1):
            t = k / (style.lines + 1)  # evenly spaced across the square's diagonal
            if rising:  # x + y = c, lower left to upper right
                c = 2 * lo + t * 2 * side
                p, q = (c, 0.0), (c - big, float(big))
            else:  # x - y = c, upper left to lower right
                c = -side + t * 2 * side
                p, q = (c, 0.0), (c + big, float(big))
            cv2.line(lines, (int(p[0]), int(p[1])), (int(q[0]), int(q[1])), 255, pen, cv2.LINE_AA)
    square = np.zeros_like(canvas)
    cv2.rectangle(square, (int(lo), int(lo)), (int(hi), int(hi)), 255, -1)
    canvas = np.minimum(lines, square)
    if style.outline:
        cv2.rectangle(canvas, (int(lo), int(lo)), (int(hi), int(hi)), 255, pen, cv2.LINE_AA)
    if style.diamond:
        turn = cv2.getRotationMatrix2D((big / 2, big / 2), 45, 1.0)
        canvas = cv2.warpAffine(canvas, turn, (big, big))
    return cv2.resize(canvas, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def ink_mask(face: str, value: int | None, printing: Printing, n: int) -> np.ndarray:
    """Where the ink lies on an n x n face (0-1), the face upright."""
    ink = np.zeros((n, n), np.float32)
    if face == "*":
        return joker_mark(printing.joker, n)
    if face == "#":
        return ink
    mark = glyph(face, printing.font, printing.weight)
    height = printing.letter_size * n
    width = height * mark.shape[1] / mark.shape[0] * printing.squeeze
    width = min(width, 0.8 * n)
    cx, cy = (0.46 * n, 0.47 * n) if printing.values else (0.5 * n, 0.48 * n)
    place(ink, mark, (cx, cy), (int(width), int(height)))
    if printing.values and value is not None:
        digits = glyph(str(value), printing.font, printing.weight)
        vh = 0.17 * n
        vw = vh * digits.shape[1] / digits.shape[0] * printing.squeeze
        place(
            ink,
            digits,
            (min(cx + width / 2 + vw / 2 + 0.03 * n, 0.9 * n - vw / 2), 0.8 * n),
            (int(vw), int(vh)),
        )
    if printing.underline and face in UNDERLINED:
        bar_h = max(2, int(0.045 * n))
        bar = np.ones((bar_h, int(0.75 * width)), np.float32)
        place(ink, bar, (cx, cy + height / 2 + 0.07 * n), (bar.shape[1], bar_h))
    return ink


def worn(ink: np.ndarray, wear: float, rng: np.random.Generator) -> np.ndarray:
    """Ink rubbed off in blotches: ``wear`` is the share lost."""
    if wear <= 0:
        return ink
    n = ink.shape[0]
    blotch = cv2.resize(
        rng.random((12, 12)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC
    )
    speck = rng.random((n, n), dtype=np.float32)
    loss = (0.7 * blotch + 0.3 * speck) < wear
    return ink * np.where(loss, 0.25, 1.0).astype(np.float32)


@functools.lru_cache(maxsize=8)
def rounded(n: int, corner: float, bevel: float) -> tuple[np.ndarray, np.ndarray]:
    """The alpha of a face with rounded corners and the shade of its rounded rim."""
    big = 4 * n if n <= 256 else 2 * n  # drawn large for smooth corners
    radius = max(1, int(corner * big))
    mask = np.zeros((big, big), np.uint8)
    cv2.rectangle(mask, (radius, 0), (big - 1 - radius, big - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (big - 1, big - 1 - radius), 255, -1)
    for cx in (radius, big - 1 - radius):
        for cy in (radius, big - 1 - radius):
            cv2.circle(mask, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    alpha = cv2.resize(mask, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    inside = cv2.distanceTransform((alpha > 0.5).astype(np.uint8), cv2.DIST_L2, 5)
    rim = max(1.0, corner * n * 0.8)
    shade = 1.0 - bevel * (1.0 - np.clip(inside / rim, 0.0, 1.0)) ** 2
    return alpha, shade.astype(np.float32)


def face_texture(
    face: str, value: int | None, printing: Printing, n: int, turn: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """The face as a BGR texture (float 0-1) and its alpha; the print is turned by
    ``turn`` degrees about the face's centre (0: upright)."""
    ink = worn(ink_mask(face, value, printing, n), printing.wear, rng)
    if turn:
        spin = cv2.getRotationMatrix2D((n / 2, n / 2), turn, 1.0)
        ink = cv2.warpAffine(ink, spin, (n, n))
    # the plastic's faint mottle, drawn small and stretched
    speckle = rng.standard_normal((n // 4, n // 4), dtype=np.float32)
    grain = 1.0 + 0.02 * cv2.resize(speckle, (n, n), interpolation=cv2.INTER_LINEAR)
    cube = np.asarray(printing.cube, np.float32)[None, None, :] * grain[..., None]
    ink3 = np.asarray(printing.ink, np.float32)[None, None, :]
    colour = cube * (1 - ink[..., None]) + ink3 * ink[..., None]
    alpha, shade = rounded(n, printing.corner, printing.bevel)
    return colour * shade[..., None], alpha
