"""Cubes drawn for the reader's tests by code that trained no model: flat ivory squares with
rounded corners on a plain table, each letter set in a system font (DejaVu Sans Bold) by
PIL, turned as asked, with an Ad-Lib value in a corner or a Boggle underline where asked.
The scenes of ``models`` are the model's own kind of picture; these are not."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
TABLE = (70, 100, 140)  # BGR: a brown table
IVORY = (215, 235, 245)
INK = (40, 30, 25)


@dataclass(frozen=True, slots=True)
class Cube:
    """One cube's top: its letter, centre (pixels), clockwise turn of the print (degrees),
    and its marks."""

    face: str
    x: float
    y: float
    turn: float = 0.0
    #: The Ad-Lib value printed in the face's lower right corner ("" for none).
    value: str = ""
    underline: bool = False
    #: A glare over the print's upper half, as a lamp's reflection (the print half lost).
    glare: bool = False
    #: The letter set as wide as it is tall (an N turned a quarter is then a Z to the eye).
    square: bool = False


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)


def face_print(cube: Cube, side: int) -> np.ndarray:
    """The cube's top, upright, ``side`` pixels square (BGR), its corners rounded onto the
    table's colour."""
    image = Image.new("RGB", (side, side), TABLE[::-1])
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, side - 1, side - 1), radius=side // 7, fill=IVORY[::-1])
    font = _font(round(side * 0.6))
    left, top, right, bottom = draw.textbbox((0, 0), cube.face, font=font)
    width, height = right - left, bottom - top
    lift = round(side * 0.06) if cube.underline else 0
    x, y = (side - width) / 2 - left, (side - height) / 2 - top - lift
    if cube.square:
        glyph = Image.new("L", (width, height), 0)
        ImageDraw.Draw(glyph).text((-left, -top), cube.face, font=font, fill=255)
        glyph = glyph.resize((height, height))
        ink = Image.new("RGB", glyph.size, INK[::-1])
        image.paste(ink, (round((side - height) / 2), round(y + top)), glyph)
    else:
        draw.text((x, y), cube.face, font=font, fill=INK[::-1])
    if cube.underline:
        bar = (side - width * 0.8) / 2, y + top + height + side * 0.05
        draw.rectangle((bar[0], bar[1], side - bar[0], bar[1] + side * 0.06), fill=INK[::-1])
    if cube.value:
        small = _font(round(side * 0.17))
        box = draw.textbbox((0, 0), cube.value, font=small)
        corner = side * 0.92 - box[2], side * 0.92 - box[3]
        draw.text(corner, cube.value, font=small, fill=INK[::-1])
    if cube.glare:
        draw.ellipse((side * 0.1, side * 0.05, side * 0.9, side * 0.5), fill=(250, 250, 250))
    return cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR)


def draw(
    cubes: list[Cube], size: tuple[int, int] = (640, 480), side: int = 60, blur: float = 0.0
) -> np.ndarray:
    """A photo (BGR, ``size`` as width x height) of ``cubes`` seen from above, each top
    ``side`` pixels wide, with a faint shadow and a little noise; ``blur``: a Gaussian's
    sigma over it all (soft focus)."""
    width, height = size
    photo = np.empty((height, width, 3), np.uint8)
    photo[:] = TABLE
    for cube in cubes:
        top = face_print(cube, side)
        big = side * 2
        canvas = np.empty((big, big, 3), np.uint8)
        canvas[:] = TABLE
        mask = np.zeros((big, big), np.uint8)
        at = (big - side) // 2
        canvas[at : at + side, at : at + side] = top
        cv2.rectangle(mask, (at, at), (at + side - 1, at + side - 1), 255, -1)
        turn = cv2.getRotationMatrix2D((big / 2, big / 2), -cube.turn, 1.0)
        canvas = cv2.warpAffine(canvas, turn, (big, big), borderValue=TABLE)
        mask = cv2.warpAffine(mask, turn, (big, big))
        x0, y0 = round(cube.x - big / 2), round(cube.y - big / 2)
        # A soft shadow to the lower right, then the top over it.
        shadow = cv2.GaussianBlur(mask, (0, 0), side / 12).astype(np.float32) / 255 * 0.35
        _paste(photo, np.zeros_like(canvas), shadow, x0 + side // 20, y0 + side // 20)
        _paste(photo, canvas, mask.astype(np.float32) / 255, x0, y0)
    if blur:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    noise = np.random.default_rng(0).normal(0, 3, photo.shape)
    return np.clip(photo + noise, 0, 255).astype(np.uint8)


def _paste(photo: np.ndarray, image: np.ndarray, alpha: np.ndarray, x0: int, y0: int) -> None:
    """``image`` laid over ``photo`` at (x0, y0) through ``alpha`` (0..1), clipped to it."""
    height, width = photo.shape[:2]
    xs, ys = max(0, x0), max(0, y0)
    xe, ye = min(width, x0 + image.shape[1]), min(height, y0 + image.shape[0])
    if xs >= xe or ys >= ye:
        return
    part = image[ys - y0 : ye - y0, xs - x0 : xe - x0].astype(np.float32)
    a = alpha[ys - y0 : ye - y0, xs - x0 : xe - x0, None]
    here = photo[ys:ye, xs:xe].astype(np.float32)
    photo[ys:ye, xs:xe] = np.round(here * (1 - a) + part * a).astype(np.uint8)


def crossword(
    rows: list[str], loose: str = "", side: int = 60, size: tuple[int, int] = (720, 540)
) -> list[Cube]:
    """The cubes of a crossword (rows as text, "." an empty cell) laid upright from the
    top left, touching, and ``loose`` cubes in a row below it, apart."""
    pitch = side * 1.04
    x0, y0 = side * 1.2, side * 1.2
    cubes = [
        Cube(face, x0 + c * pitch, y0 + r * pitch)
        for r, row in enumerate(rows)
        for c, face in enumerate(row)
        if face != "."
    ]
    below = y0 + (len(rows) + 1) * pitch
    for k, face in enumerate(loose):
        cubes.append(Cube(face, x0 + k * side * 1.8, below, turn=(k * 37) % 60 - 30))
    return cubes
