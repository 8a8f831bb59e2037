"""Draw letter-cube faces as a camera sees them: the synthetic data the face model learns from.

Two entry points, both deterministic for a given ``numpy.random.Generator``:

- ``render_face(face, orientation, size, style)`` draws one clean top face (a square cube face,
  letter turned ``orientation`` degrees clockwise), for composing synthetic trays and for tests.
- ``render_sample(face, orientation, rng, split)`` draws a training crop: the face turned by any
  angle near ``orientation``, in perspective, with the cube's sides, neighbouring cubes, tray walls,
  shadows, uneven light, blur, noise, JPEG artefacts and low resolution.

``face`` is a symbol of ``engine.faces.ALPHABET`` or ``None`` for "not a cube face" (tray floor,
tray wall, the side of a cube, an empty table). Images are BGR uint8 like OpenCV's.
Orientation convention: ``np.rot90(image, orientation // 90)`` turns the letter upright.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.cubes import CubeSet
from engine.faces import ALPHABET, BLANK, JOKER

ORIENTATIONS = (0, 90, 180, 270)
#: Faces that carry an underline mark on real Boggle cubes, so that M/W and N/Z are told apart.
MARKED = ("M", "W", "Z")
#: Ad-Lib letter values, printed small in a corner of an Ad-Lib face.
ADLIB_VALUES = {str(f): str(v) for f, v in CubeSet.load("adlib").values.items() if v}

BGR = tuple[int, int, int]

# Colours of real sets, in BGR. Training and held-out validation use different shades.
INKS: dict[str, tuple[BGR, ...]] = {
    "train": ((150, 60, 20), (120, 40, 10), (130, 120, 20), (30, 30, 30), (40, 40, 170)),
    "val": ((170, 80, 40), (110, 100, 0), (15, 15, 15), (30, 30, 200), (100, 30, 20)),
}
#: More inks that real sets print in, for ``Style.random(..., wider=True)``.
WIDER_INKS: dict[str, tuple[BGR, ...]] = {
    "train": ((40, 110, 30), (120, 40, 110), (30, 70, 120), (90, 40, 30), (140, 130, 40)),
    "val": ((60, 130, 20), (140, 30, 90), (20, 60, 140), (110, 20, 40), (100, 90, 10)),
}
CUBES: dict[str, tuple[BGR, ...]] = {
    "train": ((245, 245, 245), (210, 232, 240), (190, 220, 235)),
    "val": ((225, 240, 248), (200, 225, 230), (235, 235, 230)),
}
TRAYS: tuple[BGR, ...] = ((90, 30, 10), (40, 40, 40), (30, 30, 140), (60, 90, 120), (70, 110, 60))


def _fonts_dir() -> Path:
    return Path(str(files("models") / "fonts"))


@functools.cache
def fonts(split: str = "train") -> tuple[Path, ...]:
    """The font files of one split (``train`` or ``val``), as listed in fonts/SOURCES.txt."""
    rows = (_fonts_dir() / "SOURCES.txt").read_text().splitlines()
    names = [r.split("\t") for r in rows if r and not r.startswith("#")]
    return tuple(_fonts_dir() / n[2] for n in names if split in ("all", n[3]))


@dataclass(frozen=True, slots=True)
class Style:
    """How one set of cubes looks: font, ink and cube colours, marks, Ad-Lib values."""

    font: Path
    ink: BGR = (150, 60, 20)
    cube: BGR = (210, 232, 240)
    marks: bool = True
    adlib: bool = False
    #: The mark under M, W and Z as a row of dots (some Super Big Boggle sets), not a bar.
    dots: bool = False
    #: N marked too, as M, W and Z are (the newer Hasbro sets).
    marks_n: bool = False
    #: The blank face printed as a solid square (Super Big Boggle's block), not left bare.
    block: bool = False

    def marked(self, face: str) -> bool:
        """Whether this set prints a mark under ``face``."""
        return self.marks and (face in MARKED or (self.marks_n and face == "N"))

    @classmethod
    def random(cls, rng: np.random.Generator, split: str = "train", wider: bool = False) -> Style:
        """A random style of one split; held-out fonts and colours live in ``val``. With
        ``wider``, a third of the sets mark with dots and a third print in one of the
        ``WIDER_INKS``, three in ten mark N too and four in ten print the blank as a block
        (the same styles as without for the draws they share)."""
        fl = fonts(split)
        inks, cubes = INKS[split], CUBES[split]
        ink = tuple(
            int(c)
            for c in np.clip(np.array(inks[rng.integers(len(inks))]) + rng.normal(0, 12, 3), 0, 255)
        )
        cube = tuple(
            int(c)
            for c in np.clip(
                np.array(cubes[rng.integers(len(cubes))]) + rng.normal(0, 6, 3), 0, 255
            )
        )
        font = fl[rng.integers(len(fl))]
        marks, adlib = bool(rng.random() < 0.85), bool(rng.random() < 0.15)
        dots = marks_n = block = False
        if wider:
            dots = bool(rng.random() < 0.33)
            if rng.random() < 0.33:
                wide = WIDER_INKS[split]
                base = np.array(wide[rng.integers(len(wide))]) + rng.normal(0, 12, 3)
                ink = tuple(int(c) for c in np.clip(base, 0, 255))
            marks_n, block = bool(rng.random() < 0.3), bool(rng.random() < 0.4)
        return cls(font, ink, cube, marks, adlib, dots, marks_n, block)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=4096)
def _glyph(font: Path, text: str) -> np.ndarray:
    """The ink of ``text`` in ``font`` as a float32 mask cropped to its bounding box."""
    pil_font = ImageFont.truetype(str(font), 96)
    canvas = Image.new("L", (96 * len(text) + 64, 160), 0)
    ImageDraw.Draw(canvas).text((32, 16), text, font=pil_font, fill=255)
    mask = np.asarray(canvas, dtype=np.float32) / 255.0
    ys, xs = np.nonzero(mask > 0.05)
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1].copy()


#: How Ad-Lib sets print the joker: the museum's set calls it a "blank diamond", others
#: hatch the face. An outline (square or diamond) with diagonal hatching inside, the
#: hatching alone, or hatching both ways.
JOKER_LOOKS = ("square", "diamond", "hatch", "cross")


@functools.lru_cache(maxsize=1024)
def joker_ink(size: int, look: str = "square", lines: int = 2) -> np.ndarray:
    """The joker's ink ([size, size] float32, 0..1) in one of ``JOKER_LOOKS``, hatched by
    ``lines`` diagonal lines (0: the outline alone)."""
    t = max(1, size // 12)
    low, high, middle = t, size - 1 - t, size // 2
    if look == "diamond":
        outline = [(middle, low), (high, middle), (middle, high), (low, middle)]
    else:
        outline = [(low, low), (high, low), (high, high), (low, high)]
    polygon = np.array(outline, np.int32)
    inside = np.zeros((size, size), np.float32)
    cv2.fillConvexPoly(inside, polygon, 1.0)
    hatch = np.zeros((size, size), np.float32)
    step = 2 * size / (lines + 1)
    for i in range(1, lines + 1):
        o = int(i * step - size)
        cv2.line(hatch, (max(0, o), max(0, -o)), (min(size, size + o), min(size, size - o)), 1.0, t)
    if look == "cross":
        hatch = np.maximum(hatch, hatch[:, ::-1])
    out = hatch * inside
    if look != "hatch":
        cv2.polylines(out, [polygon], True, 1.0, t)
    return out


def _joker(size: int, rng: np.random.Generator | None) -> np.ndarray:
    """The Ad-Lib joker, in a look drawn by ``rng`` (None: a square with two lines)."""
    if rng is None:
        return joker_ink(size)
    look = JOKER_LOOKS[int(rng.integers(len(JOKER_LOOKS)))]
    return joker_ink(size, look, int(rng.integers(0 if look == "diamond" else 1, 9)))


def face_ink(
    face: str, style: Style, size: int, rng: np.random.Generator | None = None
) -> np.ndarray:
    """The printed ink of an upright face on a ``size`` square face, float32 in 0..1.

    With ``rng`` the letter's size and the mark's shape vary a little, as between real sets.
    """
    ink = np.zeros((size, size), np.float32)
    u = (lambda lo, hi: (lo + hi) / 2) if rng is None else (lambda lo, hi: rng.uniform(lo, hi))
    if face == BLANK:
        if style.block:
            side = int(size * u(0.35, 0.5))
            off = (size - side) // 2
            ink[off : off + side, off : off + side] = 1.0
        return ink
    if face == JOKER:
        side = int(size * u(0.5, 0.65))
        off = (size - side) // 2
        ink[off : off + side, off : off + side] = _joker(side, rng)
        return ink
    glyph = _glyph(style.font, face)
    marked = style.marked(face)
    height = size * u(0.5, 0.62) * (0.85 if marked else 1.0)
    scale = min(height / glyph.shape[0], size * (0.8 if len(face) > 1 else 0.72) / glyph.shape[1])
    gh, gw = max(2, round(glyph.shape[0] * scale)), max(2, round(glyph.shape[1] * scale))
    g = cv2.resize(glyph, (gw, gh), interpolation=cv2.INTER_AREA)
    bar_h = max(1, round(size * u(0.045, 0.07))) if marked else 0
    gap = max(1, round(size * u(0.03, 0.06))) if marked else 0
    block = gh + gap + bar_h
    top, left = (size - block) // 2, (size - gw) // 2
    ink[top : top + gh, left : left + gw] = g
    if marked:
        bw = round(gw * u(0.6, 0.95))
        bl = (size - bw) // 2
        if style.dots:  # three dots across the bar's width
            y = top + gh + gap + bar_h / 2
            for k in (-1, 0, 1):
                x = size / 2 + k * bw / 3
                radius = max(16, round(bar_h * 0.6 * 16))
                cv2.circle(ink, (round(x * 16), round(y * 16)), radius, 1.0, -1, cv2.LINE_AA, 4)
        else:
            ink[top + gh + gap : top + gh + gap + bar_h, bl : bl + bw] = 1.0
    if style.adlib and face in ADLIB_VALUES:
        v = _glyph(style.font, ADLIB_VALUES[face])
        vs = size * u(0.12, 0.2) / v.shape[0]
        v = cv2.resize(
            v,
            (max(1, round(v.shape[1] * vs)), max(1, round(v.shape[0] * vs))),
            interpolation=cv2.INTER_AREA,
        )
        y0, x0 = size - v.shape[0] - size // 12, size - v.shape[1] - size // 12
        ink[y0 : y0 + v.shape[0], x0 : x0 + v.shape[1]] = np.maximum(
            ink[y0 : y0 + v.shape[0], x0 : x0 + v.shape[1]], v
        )
    return ink


def symmetric_orientations(
    face: str | None, style: Style, threshold: float = 0.7
) -> tuple[int, ...]:
    """The quarter turns that leave the printed face looking the same (``(0,)`` if none do).

    The ink is compared with itself turned by 90, 180 and 270 degrees (intersection over union,
    corner values left out as too small to see). ``S`` gives ``(0, 180)``, ``O`` in a round font
    all four, a blank or "none" all four: for those a reader cannot know the orientation.
    """
    alike = turn_likeness(face, style)
    return tuple(o for o, a in zip(ORIENTATIONS, alike, strict=True) if a >= threshold)


def turn_likeness(face: str | None, style: Style) -> tuple[float, ...]:
    """How alike the print looks turned by 0, 90, 180 and 270 degrees (1.0 is the same).

    Intersection over union of the ink with itself turned. A blank, a joker or "none" has
    nothing printed that could tell, so every turn is 1.0.
    """
    if face is None or face in (BLANK, JOKER):
        return (1.0,) * len(ORIENTATIONS)
    return _likeness(face, style.font, style.marked(face))


@functools.lru_cache(maxsize=2048)
def _likeness(face: str, font: Path, marks: bool) -> tuple[float, ...]:
    ink = face_ink(face, Style(font, marks=marks, marks_n=marks), 64) > 0.5
    out = [1.0]
    for k in (1, 2, 3):
        r = np.rot90(ink, -k)
        out.append(float((ink & r).sum() / max(1, (ink | r).sum())))
    return tuple(out)


@functools.lru_cache(maxsize=256)
def _rounded_square(size: int, radius: int) -> np.ndarray:
    m = np.zeros((size, size), np.float32)
    r = radius
    cv2.rectangle(m, (r, 0), (size - 1 - r, size - 1), 1.0, -1)
    cv2.rectangle(m, (0, r), (size - 1, size - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (size - 1 - r, r), (r, size - 1 - r), (size - 1 - r, size - 1 - r)):
        cv2.circle(m, (cx, cy), r, 1.0, -1)
    return m


def render_face(
    face: str, orientation: int = 0, size: int = 64, style: Style | None = None
) -> np.ndarray:
    """One clean top face, ``size`` pixels square, its print turned ``orientation`` clockwise."""
    if face not in ALPHABET:
        raise ValueError(f"{face!r} is not a face of engine.faces.ALPHABET.")
    if orientation not in ORIENTATIONS:
        raise ValueError(f"orientation {orientation} is not one of {ORIENTATIONS}.")
    style = style or Style(fonts("train")[0])
    ink = np.rot90(face_ink(face, style, size), -orientation // 90)
    body = _rounded_square(size, round(size * 0.12))
    img = np.empty((size, size, 3), np.float32)
    img[:] = (60, 60, 60)
    cube = np.array(style.cube, np.float32)
    img = img * (1 - body[..., None]) + cube * body[..., None]
    img = img * (1 - ink[..., None]) + np.array(style.ink, np.float32) * ink[..., None]
    return np.asarray(np.clip(img, 0, 255).astype(np.uint8))


@functools.lru_cache(maxsize=64)
def _edge_falloff(f: int) -> np.ndarray:
    yy, xx = np.mgrid[0:f, 0:f].astype(np.float32) / f - 0.5
    return np.asarray(np.clip((xx**2 + yy**2) * 4 - 0.5, 0, 1))


def _paste(canvas: np.ndarray, alpha: np.ndarray, colour: np.ndarray, x: int, y: int) -> None:
    """Blend ``colour`` into ``canvas`` through ``alpha`` placed at (x, y), clipped."""
    h, w = alpha.shape
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
    if x0 >= x1 or y0 >= y1:
        return
    a = alpha[y0 - y : y1 - y, x0 - x : x1 - x, None]
    c = colour if colour.ndim == 1 else colour[y0 - y : y1 - y, x0 - x : x1 - x]
    canvas[y0:y1, x0:x1] = canvas[y0:y1, x0:x1] * (1 - a) + c * a


def _cube(
    canvas: np.ndarray,
    cx: float,
    cy: float,
    f: int,
    face: str | None,
    orientation: int,
    style: Style,
    side: tuple[float, float],
    rng: np.random.Generator,
) -> None:
    """Draw one cube seen from above at (cx, cy): its side, then its top face with its print."""
    cube = np.array(style.cube, np.float32)
    ink = np.array(style.ink, np.float32)
    body = _rounded_square(f, int(f * rng.uniform(0.08, 0.25)))
    x, y = int(cx - f / 2), int(cy - f / 2)
    sx, sy = int(side[0] * f), int(side[1] * f)
    if sx or sy:  # the cube's side, darker, with part of another letter on it
        shade = cube * rng.uniform(0.55, 0.85)
        _paste(canvas, body, shade, x + sx, y + sy)
        other = ALPHABET[rng.integers(26)]
        side_ink = np.rot90(face_ink(other, style, f, rng), -int(rng.integers(4)))
        squash = cv2.resize(side_ink, (f, max(2, f // 3)) if sy else (max(2, f // 3), f))
        sh = np.zeros((f, f), np.float32)
        if sy:
            sh[f - squash.shape[0] :, :] = squash
        else:
            sh[:, f - squash.shape[1] :] = squash
        _paste(canvas, sh * body * 0.9, ink * 0.8, x + sx, y + sy)
    # Top face with a lighter centre: real cube tops curve down at the edges.
    light = 1.0 - rng.uniform(0.0, 0.35) * _edge_falloff(f)
    _paste(canvas, body, cube * light[..., None], x, y)
    if face is not None:
        printed = np.rot90(face_ink(face, style, f, rng), -orientation // 90)
        _paste(canvas, printed * body, ink, x, y)


def _cube_side(
    canvas: np.ndarray, centre: float, f: int, style: Style, rng: np.random.Generator
) -> None:
    h = int(f * rng.uniform(0.3, 0.65))
    shade = np.array(style.cube, np.float32) * rng.uniform(0.55, 0.9)
    body = (
        _rounded_square(f, int(f * 0.1))[:h] if rng.random() < 0.5 else np.ones((h, f), np.float32)
    )
    x, y = int(centre - f / 2), int(centre - h / 2)
    _paste(canvas, body, shade, x, y)
    other = ALPHABET[rng.integers(len(ALPHABET))]
    letter = np.rot90(face_ink(other, style, f, rng), -int(rng.integers(4)))
    squashed = cv2.resize(letter, (f, h), interpolation=cv2.INTER_AREA)
    _paste(canvas, squashed * body, np.array(style.ink, np.float32) * 0.85, x, y)


def render_sample(
    face: str | None,
    orientation: int,
    rng: np.random.Generator,
    split: str = "train",
    size: int = 32,
    style: Style | None = None,
) -> np.ndarray:
    """One training crop (BGR uint8, ``size`` square) of ``face`` as a camera sees it.

    ``face`` None draws something that is not a cube's top face: an empty tray cell, a tray wall,
    a cube seen from the side, or a bare table.
    """
    style = style or Style.random(rng, split)
    work = 2 * size  # draw at twice the size, then shrink: anti-aliasing for free
    f = 40  # face size in the scene
    S = 4 * f
    tray = np.array(TRAYS[rng.integers(len(TRAYS))], np.float32) + rng.normal(0, 10, 3)
    canvas = np.empty((S, S, 3), np.float32)
    canvas[:] = np.clip(tray, 0, 255)
    pitch = f * rng.uniform(1.08, 1.35)
    side = (0.0, 0.0)
    if rng.random() < 0.8:  # the camera sees one side of every cube
        d = rng.uniform(0.04, 0.2)
        side = [(0, d), (d, 0), (0, -d), (-d, 0)][rng.integers(4)]
    kind = "face" if face is not None else ("cell", "side", "wall", "table")[rng.integers(4)]
    centre = S / 2
    wall = int(rng.integers(4)) if rng.random() < 0.25 else -1
    for j in (-1, 0, 1):  # the crop never reaches a second ring of cubes
        for i in (-1, 0, 1):
            if (i, j) == (0, 0) and kind != "face":
                continue
            if (i, j) != (0, 0) and (kind == "table" or rng.random() < 0.15):
                continue
            sym = face if (i, j) == (0, 0) else ALPHABET[rng.integers(len(ALPHABET))]
            o = orientation if (i, j) == (0, 0) else int(rng.integers(4)) * 90
            _cube(canvas, centre + i * pitch, centre + j * pitch, f, sym, o, style, side, rng)
    if wall >= 0:  # a tray wall along one edge of the cell
        edge = int(centre + f * rng.uniform(0.55, 0.75))
        wall_colour = np.clip(tray * rng.uniform(1.1, 1.6), 0, 255)
        if wall == 0:
            canvas[edge:] = wall_colour
        elif wall == 1:
            canvas[:, edge:] = wall_colour
        elif wall == 2:
            canvas[: S - edge] = wall_colour
        else:
            canvas[:, : S - edge] = wall_colour
    if kind == "side":  # a cube seen from its side: a darker, squat face with a squashed letter
        _cube_side(canvas, centre, f, style, rng)
    if kind == "table":
        canvas += rng.normal(0, rng.uniform(2, 25), (S // 8, S // 8, 1)).repeat(8, 0).repeat(8, 1)
    # Camera: rotation near the orientation's quarter turn, zoom, offset and perspective.
    angle = rng.uniform(-40, 40)
    frac = rng.uniform(0.6, 1.05)  # the top face's share of the crop's width
    half = f / frac / 2
    t = np.deg2rad(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    shift = rng.uniform(-0.07, 0.07, 2) * f
    src = np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) @ rot.T
    src += centre + shift + np.array(side) * f / 2
    dst = np.array([[0, 0], [work, 0], [work, work], [0, work]], np.float64)
    dst += rng.uniform(-0.07, 0.07, (4, 2)) * work
    m = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    img = cv2.warpPerspective(
        canvas, m, (work, work), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    # Light: a gradient across the crop, a soft shadow edge, a colour cast.
    yy, xx = np.mgrid[0:work, 0:work].astype(np.float32) / work - 0.5
    a = rng.uniform(0, 2 * np.pi)
    ramp = xx * np.cos(a) + yy * np.sin(a)
    gain = rng.uniform(0.55, 1.15) + rng.uniform(0, 0.5) * ramp
    if rng.random() < 0.35:
        b = rng.uniform(0, 2 * np.pi)
        edge = xx * np.cos(b) + yy * np.sin(b) - rng.uniform(-0.3, 0.5)
        gain = gain * (1 - rng.uniform(0.2, 0.5) / (1 + np.exp(-edge * rng.uniform(10, 40))))
    img = img * gain[..., None] * rng.uniform(0.88, 1.12, 3)
    sigma = rng.uniform(0, 1.6)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    # Low resolution: half the crops come from a camera that saw the cube's top face only
    # 18 pixels wide or more (a 20-pixel cube), then were scaled up to the model's size.
    face_px = rng.uniform(18, 32)
    low = min(size, max(8, round(face_px / frac))) if rng.random() < 0.5 else size
    img = cv2.resize(img, (low, low), interpolation=cv2.INTER_AREA)
    if low != size:
        img = cv2.resize(img, (size, size), interpolation=cv2.INTER_LINEAR)
    img = img + rng.normal(0, rng.uniform(0, 8), img.shape)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        q = int(rng.integers(30, 95))
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if rng.random() < 0.15:
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    return np.asarray(out)
