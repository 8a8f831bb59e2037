"""From the ideal pinhole image to the photo a phone or webcam hands over.

``Lens`` is the geometry: radial distortion (barrel or pincushion) about the sensor's centre,
then an export to another aspect ratio (rows and columns spaced unequally). ``develop`` is
the rest: defocus and motion blur, vignetting, exposure and white balance errors, sensor
noise and JPEG. Ground-truth points go through ``Lens.points`` the same way.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from models.tabletop.arrays import Array


@dataclass(frozen=True, slots=True)
class Lens:
    """Output pixel q -> sensor s (square pixels, ``sensor`` size) -> normalised n about
    the sensor's centre (1 = half its diagonal) -> ideal n (1 + k1 |n|^2) -> ideal pixel
    in an image of ``ideal`` size centred on the sensor's. k1 > 0 bows straight lines
    outwards (barrel), k1 < 0 inwards (pincushion)."""

    k1: float
    sensor: tuple[int, int]
    output: tuple[int, int]

    @property
    def ideal(self) -> tuple[int, int]:
        if self.k1 == 0:
            return self.sensor
        grow = 1 + max(self.k1, 0.0)
        return (math.ceil(self.sensor[0] * grow) + 2, math.ceil(self.sensor[1] * grow) + 2)

    @property
    def margin(self) -> tuple[float, float]:
        """Where the sensor's top left lies in the ideal image."""
        return ((self.ideal[0] - self.sensor[0]) / 2, (self.ideal[1] - self.sensor[1]) / 2)

    @property
    def plain(self) -> bool:
        return self.k1 == 0 and self.sensor == self.output

    def _radius(self) -> float:
        return math.hypot(*self.sensor) / 2

    def points(self, ideal: Array) -> Array:
        """Ideal image points ([N, 2]) to output points."""
        p = np.asarray(ideal, np.float64).reshape(-1, 2)
        if self.plain:
            return p
        p = p + 0.5  # pixel indices to positions: a pixel's centre lies half a pixel in
        centre = np.array(self.ideal) / 2
        n = (p - centre) / self._radius()
        if self.k1:
            r_ideal = np.linalg.norm(n, axis=1)
            r = r_ideal.copy()
            for _ in range(20):  # Newton: r (1 + k1 r^2) = r_ideal
                r -= (r * (1 + self.k1 * r * r) - r_ideal) / (1 + 3 * self.k1 * r * r)
            n = n * (r / np.maximum(r_ideal, 1e-12))[:, None]
        s = n * self._radius() + np.array(self.sensor) / 2
        return np.asarray(s * np.array(self.output) / np.array(self.sensor) - 0.5)

    def apply(self, image: Array, *, nearest: bool = False) -> Array:
        """The ideal image (``ideal`` size) as the output photo (``output`` size); with
        ``nearest``, no pixel is mixed with its neighbours (for masks and ids)."""
        if self.plain:
            return image
        map_x, map_y = _maps(self.k1, self.sensor, self.output, self.ideal)
        how = cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR
        return np.asarray(cv2.remap(image, map_x, map_y, how, borderMode=cv2.BORDER_REFLECT))


@functools.lru_cache(maxsize=32)
def _maps(
    k1: float, sensor: tuple[int, int], output: tuple[int, int], ideal: tuple[int, int]
) -> tuple[Array, Array]:
    width, height = output
    scale = np.array(sensor, np.float32) / np.array(output, np.float32)
    radius = math.hypot(*sensor) / 2
    xs = ((np.arange(width, dtype=np.float32) + 0.5) * scale[0] - sensor[0] / 2) / radius
    ys = ((np.arange(height, dtype=np.float32) + 0.5) * scale[1] - sensor[1] / 2) / radius
    nx, ny = np.meshgrid(xs, ys)
    grow = 1 + k1 * (nx * nx + ny * ny)
    map_x = nx * grow * radius + ideal[0] / 2 - 0.5
    map_y = ny * grow * radius + ideal[1] / 2 - 0.5
    return map_x.astype(np.float32), map_y.astype(np.float32)


def random_lens(rng: np.random.Generator, output: tuple[int, int]) -> Lens:
    """Most photos keep their shape; some bow (phone wide lenses, webcams), some were
    exported at another aspect ratio (a 4:3 photo saved square, say)."""
    k1 = 0.0
    if rng.random() < 0.4:
        k1 = round(float(rng.uniform(-0.06, 0.14)), 4)  # as the remap tables are kept
    width, height = output
    sensor = output
    if rng.random() < 0.2:
        ratio = float(rng.choice([4 / 3, 3 / 4, 16 / 9, 9 / 16, 1.0])) * rng.uniform(0.97, 1.03)
        if ratio * height > width:  # the photo was wider than it is now
            sensor = (round(height * ratio), height)
        else:
            sensor = (width, max(8, round(width / ratio)))
        if sensor[0] * sensor[1] > 2.5 * width * height:  # no more than a fair squash
            sensor = output
    return Lens(k1, sensor, output)


@functools.lru_cache(maxsize=1)
def _noise_bank() -> Array:
    """Gaussian noise made once (per process) that photos take windows of."""
    return np.random.default_rng(12345).standard_normal((1280, 1700, 3), dtype=np.float32)


def _noise(rng: np.random.Generator, height: int, width: int) -> Array:
    bank = _noise_bank()
    if height > bank.shape[0] or width > bank.shape[1]:
        return rng.standard_normal((height, width, 3), dtype=np.float32)
    y = int(rng.integers(bank.shape[0] - height + 1))
    x = int(rng.integers(bank.shape[1] - width + 1))
    return np.asarray(bank[y : y + height, x : x + width])


def _motion_kernel(length: float, angle: float) -> Array:
    size = int(math.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    dx, dy = math.cos(angle) * length / 2, math.sin(angle) * length / 2
    cv2.line(
        kernel,
        (round((c - dx) * 16), round((c - dy) * 16)),
        (round((c + dx) * 16), round((c + dy) * 16)),
        1.0,
        1,
        cv2.LINE_AA,
        4,
    )
    return kernel / max(float(kernel.sum()), 1e-6)


def blur(image: Array, rng: np.random.Generator, scale: float) -> Array:
    """Defocus (a Gaussian of a few pixels at 640 wide, now and then a strong one) and,
    on some photos, the streak of a shaking hand."""
    sigma = float(rng.choice([rng.uniform(0, 0.8), rng.uniform(0.8, 2.5)], p=[0.7, 0.3]))
    if sigma * scale > 0.35:
        image = cv2.GaussianBlur(image, (0, 0), sigma * scale)
    if rng.random() < 0.15:
        kernel = _motion_kernel(float(rng.uniform(2, 9)) * scale, float(rng.uniform(0, math.pi)))
        image = cv2.filter2D(image, -1, kernel)
    return image


@functools.lru_cache(maxsize=8)
def _radius2(width: int, height: int) -> Array:
    """Squared distance from the centre, 1 at the corners ([H, W])."""
    ys = (np.arange(height, dtype=np.float32) - height / 2) / (height / 2)
    xs = (np.arange(width, dtype=np.float32) - width / 2) / (width / 2)
    w2 = width * width / (width * width + height * height)
    return np.asarray((xs[None, :] ** 2) * w2 + (ys[:, None] ** 2) * (1 - w2), np.float32)


def shadow_bands(image: Array, rng: np.random.Generator) -> Array:
    """Now and then the shadow of something out of the picture (a window's bars, a blind, a
    lamp's arm) laid across everything as one to three soft-edged bands."""
    if rng.random() >= 0.15:
        return image
    height, width = image.shape[:2]
    angle = float(rng.uniform(0, math.pi))
    xs = np.arange(width, dtype=np.float32) * math.cos(angle)
    ys = np.arange(height, dtype=np.float32) * math.sin(angle)
    along = xs[None, :] + ys[:, None]
    light = np.ones((height, width), np.float32)
    span = float(np.abs(along).max()) + 1
    for _ in range(int(rng.integers(1, 4))):
        middle = float(rng.uniform(0, span)) * (1 if math.cos(angle) >= 0 else -1)
        half = float(rng.uniform(0.03, 0.2)) * span / 2
        soft = float(rng.uniform(0.005, 0.05)) * span
        inside = np.clip((half - np.abs(along - middle)) / soft + 0.5, 0, 1)
        light *= 1 - float(rng.uniform(0.25, 0.6)) * inside
    return np.asarray(image * light[..., None], np.float32)


def develop(image: Array, rng: np.random.Generator) -> Array:
    """Uneven light and vignetting, exposure and white balance, sensor noise (float32 in,
    float32 out)."""
    height, width = image.shape[:2]
    gain = np.ones((height, width), np.float32)
    if rng.random() < 0.6:
        gain -= float(rng.uniform(0.05, 0.45)) * _radius2(width, height)
    if rng.random() < 0.5:  # a lamp or a window to one side
        angle = float(rng.uniform(0, 2 * math.pi))
        xs = np.linspace(-1, 1, width, dtype=np.float32) * math.cos(angle)
        ys = np.linspace(-1, 1, height, dtype=np.float32) * math.sin(angle)
        gain *= 1 + float(rng.uniform(0.05, 0.3)) * (xs[None, :] + ys[:, None]) / 2
    exposure = 2 ** float(rng.normal(0, 0.35))
    if rng.random() < 0.1:  # a photo a stop or so too dark or too bright
        exposure *= 2 ** float(rng.choice([-1, 1]) * rng.uniform(0.6, 1.2))
    temperature = float(rng.normal(0, 0.06))
    balance = np.exp(rng.normal(0, 0.07, 3)) * (1 - temperature, 1, 1 + temperature)
    gain *= exposure
    image = image * gain[..., None]
    image *= balance.astype(np.float32)
    # Noise grows with the light a pixel gathered (shot noise) over a floor (read noise).
    read, shot = float(rng.uniform(0.5, 4.0)), float(rng.uniform(0.0, 0.6))
    level = image[..., 1]  # green: most of what a sensor's pixel gathers
    sigma = np.sqrt(read * read + shot * np.maximum(level, 0))
    image += sigma[..., None] * _noise(rng, height, width)
    return np.asarray(image, np.float32)


def finish(image: Array, rng: np.random.Generator) -> Array:
    """To 8 bits, now and then through a small camera's resolution, then JPEG."""
    out: Array = np.clip(image, 0, 255).astype(np.uint8)
    height, width = out.shape[:2]
    if rng.random() < 0.15:
        shrink = float(rng.uniform(0.4, 0.8))
        small = cv2.resize(
            out,
            (max(8, round(width * shrink)), max(8, round(height * shrink))),
            interpolation=cv2.INTER_AREA,
        )
        out = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.05:  # a black-and-white photo
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.75:
        quality = int(rng.integers(35, 96))
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    return out
