"""How a scene looks: the cube set's print and colours, the tray's colour, the light.

Colours are drawn by split (see the package docstring): hues fall in 15-degree bins and
cube bodies on a white-to-yellowed scale in tenths; "train" and "val" take the even bins,
"unseen" the odd ones, so no held-out colour is ever trained on, while every colour family
(blue, navy, red, orange, yellow, black, ...) has shades in both.
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass, replace

import numpy as np

from models.render import JOKER_LOOKS, fonts
from models.tabletop.arrays import Array
from models.tabletop.prints import Print
from models.tabletop.solids import Light, Lighting

SPLITS = ("train", "val", "unseen")
HUE_BIN = 15.0
TONE_BIN = 0.1

#: Cube bodies from white through ivory and cream to yellowed plastic (BGR).
BODY_SCALE = np.array([(246, 247, 247), (220, 238, 246), (182, 222, 242), (135, 190, 222)], float)


def held_out(split: str) -> int:
    """The parity of the colour bins a split draws from (0: train and val, 1: unseen)."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    return int(split == "unseen")


def font_split(split: str) -> str:
    """The face renderer's font list a split prints with: unseen takes the held-out fonts."""
    return "val" if held_out(split) else "train"


def hue_bin(hue: float) -> int:
    return int((hue % 360) // HUE_BIN)


def tone_bin(tone: float) -> int:
    return min(int(tone / TONE_BIN), round(1 / TONE_BIN) - 1)


def draw_hue(rng: np.random.Generator, low: float, high: float, split: str) -> float:
    """A hue (degrees) in [low, high] whose 15-degree bin belongs to ``split``."""
    parity = held_out(split)
    for _ in range(200):
        hue = float(rng.uniform(low, high))
        if hue_bin(hue) % 2 == parity:
            return hue % 360
    raise ValueError(f"no hue of split {split!r} lies in {low}..{high}")


def draw_tone(rng: np.random.Generator, low: float, high: float, split: str) -> float:
    """A body tone (0 white .. 1 yellowed) in [low, high] whose tenth belongs to ``split``."""
    parity = held_out(split)
    for _ in range(200):
        tone = float(rng.uniform(low, high))
        if tone_bin(tone) % 2 == parity:
            return tone
    raise ValueError(f"no tone of split {split!r} lies in {low}..{high}")


def bgr(hue: float, saturation: float, value: float) -> Array:
    r, g, b = colorsys.hsv_to_rgb(hue / 360, saturation, value)
    return np.array([b, g, r]) * 255


def body_color(tone: float) -> Array:
    position = tone * (len(BODY_SCALE) - 1)
    k = min(int(position), len(BODY_SCALE) - 2)
    return np.asarray(BODY_SCALE[k] + (BODY_SCALE[k + 1] - BODY_SCALE[k]) * (position - k))


@dataclass(frozen=True, slots=True)
class Family:
    """A family of colours: how often it is drawn, its ranges of hue (degrees),
    saturation and value, and its opacity (1 = solid plastic)."""

    weight: float
    hue: tuple[float, float]
    saturation: tuple[float, float]
    value: tuple[float, float]
    opacity: float = 1.0

    def draw(self, rng: np.random.Generator, split: str) -> Array:
        hue = draw_hue(rng, *self.hue, split)
        return bgr(hue, float(rng.uniform(*self.saturation)), float(rng.uniform(*self.value)))


INKS = (
    Family(4.0, (195, 250), (0.6, 1.0), (0.35, 0.8)),  # blue, the Boggle ink
    Family(1.5, (215, 250), (0.5, 0.9), (0.15, 0.35)),  # navy
    Family(3.0, (0, 360), (0.0, 0.35), (0.02, 0.22)),  # black
    Family(1.2, (340, 380), (0.6, 1.0), (0.4, 0.8)),  # red
    Family(0.8, (165, 200), (0.6, 1.0), (0.35, 0.7)),  # teal
    Family(0.6, (90, 160), (0.5, 1.0), (0.25, 0.6)),  # green
    Family(0.5, (260, 320), (0.4, 0.9), (0.3, 0.6)),  # purple
    Family(0.4, (15, 45), (0.6, 1.0), (0.25, 0.55)),  # brown
)

TRAYS = (
    Family(4.0, (200, 240), (0.65, 1.0), (0.45, 0.85)),  # blue
    Family(2.0, (215, 250), (0.6, 1.0), (0.18, 0.38)),  # navy
    Family(2.0, (10, 40), (0.75, 1.0), (0.75, 1.0)),  # orange
    Family(1.5, (38, 62), (0.7, 1.0), (0.8, 1.0)),  # yellow
    Family(1.5, (0, 360), (0.0, 0.3), (0.05, 0.18)),  # black
    Family(1.2, (345, 375), (0.7, 1.0), (0.5, 0.85)),  # red
    Family(0.6, (90, 160), (0.5, 0.9), (0.3, 0.6)),  # green
    Family(1.2, (0, 360), (0.3, 0.8), (0.7, 1.0), 0.4),  # see-through, tinted
    Family(0.6, (0, 360), (0.0, 0.1), (0.85, 1.0), 0.3),  # see-through, clear
)


def pick(rng: np.random.Generator, families: tuple[Family, ...]) -> Family:
    weights = np.array([f.weight for f in families])
    return families[int(rng.choice(len(families), p=weights / weights.sum()))]


@dataclass(frozen=True, slots=True)
class CubeLook:
    """One set of cubes: its print, ink and body colours, size (mm) and shape."""

    print: Print
    ink: Array
    body: Array
    size: float
    #: Rounding of the edges, a share of the side; the bulge of the faces.
    edge: float
    dome: float


@dataclass(frozen=True, slots=True)
class TrayLook:
    color: Array
    opacity: float


def cube_look(rng: np.random.Generator, split: str, game: str) -> CubeLook:
    """A random set's look for ``game`` (Ad-Lib sets print their letter values)."""
    font_list = fonts(font_split(split))
    font = font_list[int(rng.integers(len(font_list)))]
    adlib = game in ("adlib", "scribbage")
    mark = str(rng.choice(["underline", "dots", "none"], p=[0.55, 0.25, 0.2]))
    marked = frozenset("MWZN" if rng.random() < 0.3 else "MWZ")
    style = Print(
        font=font,
        height=float(rng.uniform(0.46, 0.66)),
        mark="none" if adlib and rng.random() < 0.7 else mark,
        marked=marked,
        values=adlib and rng.random() < 0.85,
        ring=float(rng.uniform(0.08, 0.25)) if rng.random() < 0.15 else 0.0,
    )
    if adlib:  # only Ad-Lib sets print jokers and values (the others draw as before)
        style = replace(style, joker=_joker(rng), value=float(rng.uniform(0.13, 0.26)))
    ink = pick(rng, INKS).draw(rng, split)
    body = body_color(draw_tone(rng, 0.0, 1.0, split)) * rng.uniform(0.94, 1.02)
    return CubeLook(
        print=style,
        ink=ink,
        body=np.clip(body, 0, 255),
        size=float(rng.uniform(14.5, 19.0)),
        # Boggle cubes are pillowy, Ad-Lib and Q-less ones nearly sharp-edged.
        edge=float(rng.uniform(0.05, 0.18) if adlib else rng.uniform(0.1, 0.3)),
        dome=float(rng.uniform(0.0, 0.12) if adlib else rng.uniform(0.04, 0.3)),
    )


def _joker(rng: np.random.Generator) -> tuple[str, int, float]:
    """How a set prints its joker: a look, its hatching and its extent on the face."""
    look = JOKER_LOOKS[int(rng.integers(len(JOKER_LOOKS)))]
    lines = int(rng.integers(0 if look == "diamond" else 1, 9))
    return look, lines, float(rng.uniform(0.5, 0.85))


def tray_look(rng: np.random.Generator, split: str) -> TrayLook:
    family = pick(rng, TRAYS)
    opacity = family.opacity
    if opacity < 1:
        opacity = float(np.clip(opacity + rng.uniform(-0.1, 0.15), 0.2, 0.6))
    return TrayLook(family.draw(rng, split), opacity)


def lighting(rng: np.random.Generator) -> Lighting:
    """One or two distant lights (a window, a lamp), soft or hard, and some ambient."""
    count = 1 if rng.random() < 0.6 else 2
    lights = []
    for k in range(count):
        elevation = math.radians(rng.uniform(25, 85))
        azimuth = rng.uniform(0, 2 * math.pi)
        direction = np.array(
            [
                math.cos(elevation) * math.cos(azimuth),
                math.cos(elevation) * math.sin(azimuth),
                math.sin(elevation),
            ]
        )
        warmth = rng.uniform(-0.12, 0.12)
        color = np.array([1 - warmth, 1.0, 1 + warmth]) * rng.uniform(0.5, 0.85) / (1 + 0.6 * k)
        softness = float(rng.uniform(0.01, 0.06) if rng.random() < 0.45 else rng.uniform(0.1, 0.6))
        lights.append(Light(direction, color, softness))
    ambient = np.full(3, rng.uniform(0.25, 0.55)) * rng.uniform(0.93, 1.07, 3)
    return Lighting(
        tuple(lights),
        ambient,
        gloss=float(rng.uniform(0.02, 0.45)),
        shininess=float(rng.uniform(8, 60)),
    )
