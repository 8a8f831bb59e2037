"""A depth-buffered canvas that paints textured planar quadrilaterals seen by the camera.

Each quad is drawn by warping its texture into the quad's bounding box only, then kept
where it lies nearer the camera than what is there (inverse depth is affine in image
coordinates on a plane, so it is exact per pixel). Drawing far things first as well keeps
the anti-aliased edges right. An id buffer records which quad each pixel shows, so the
share of a cube's top that nothing hides can be counted.
"""

from __future__ import annotations

import cv2
import numpy as np

from models.tabletop.arrays import Array

#: Id of pixels that nothing with an id covers (the table, the tray).
NOTHING = -1
#: Id written by occluders that hide tops but are not cube faces (hands).
OCCLUDER = -2


class Canvas:
    """Colour (float32 BGR), inverse depth and ids of one rendered view."""

    def __init__(self, width: int, height: int) -> None:
        self.color = np.zeros((height, width, 3), np.float32)
        self.inverse_depth = np.zeros((height, width), np.float32)
        self.ids = np.full((height, width), NOTHING, np.int32)

    @property
    def size(self) -> tuple[int, int]:
        height, width = self.ids.shape
        return width, height

    def _plane(
        self, uv: Array, depth: Array
    ) -> tuple[tuple[int, int, int, int], tuple[float, float, float]] | None:
        """A quad's bounding box in the image (x0, y0, x1, y1), and its plane's inverse
        depth as a u + b v + c over that box; None when it lies off the image, behind the
        camera or edge on."""
        if np.any(depth <= 1e-3):
            return None
        width, height = self.size
        x0, y0 = (int(v) for v in np.maximum(np.floor(uv.min(0)).astype(int) - 1, 0))
        x1, y1 = (int(v) for v in np.minimum(np.ceil(uv.max(0)).astype(int) + 2, (width, height)))
        if x1 <= x0 or y1 <= y0:
            return None
        fit = np.column_stack([uv[:3] - (x0, y0), np.ones(3)])
        try:
            a, b, c = np.linalg.solve(fit, 1.0 / depth[:3])
        except np.linalg.LinAlgError:
            return None
        return (x0, y0, x1, y1), (float(a), float(b), float(c))

    def quad(
        self,
        uv: Array,
        depth: Array,
        texture: Array,
        alpha: Array | None,
        ident: int = NOTHING,
        *,
        opacity: float = 1.0,
        solid: bool = True,
    ) -> None:
        """Paint ``texture`` ([t, t, 3] float32, cut out by ``alpha`` [t, t], or filling the
        whole quad where None) onto the image quad ``uv`` ([4, 2], from the texture's top
        left clockwise) whose corners lie ``depth`` ([4]) ahead of the camera. A quad not
        ``solid`` (see-through) neither hides what lies behind it later nor takes the id."""
        found = self._plane(uv, depth)
        if found is None:
            return
        (x0, y0, x1, y1), (a, b, c) = found
        th, tw = texture.shape[:2]
        source = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
        local = (uv - (x0, y0)).astype(np.float32)
        matrix = cv2.getPerspectiveTransform(source, local)
        box = (x1 - x0, y1 - y0)
        cover: Array
        if alpha is None:
            warped = cv2.warpPerspective(
                texture, matrix, box, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
            )
            mask = np.zeros(box[::-1], np.uint8)
            cv2.fillConvexPoly(mask, np.round(local * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
            cover = mask.astype(np.float32) / 255
        else:
            warped = cv2.warpPerspective(texture, matrix, box, flags=cv2.INTER_LINEAR)
            cover = cv2.warpPerspective(alpha, matrix, box, flags=cv2.INTER_LINEAR)
        xs = np.arange(box[0], dtype=np.float32)
        ys = np.arange(box[1], dtype=np.float32)
        inverse = (a * xs)[None, :] + (b * ys + c)[:, None]
        window = (slice(y0, y1), slice(x0, x1))
        nearer = inverse >= self.inverse_depth[window] * 0.9999
        cover = cover * nearer * opacity
        self.color[window] += (warped - self.color[window]) * cover[..., None]
        if solid:
            keep = cover > 0.5
            self.inverse_depth[window] = np.where(keep, inverse, self.inverse_depth[window])
            self.ids[window] = np.where(keep, ident, self.ids[window])

    def flat(
        self,
        uv: Array,
        depth: Array,
        color: Array,
        ident: int = NOTHING,
        *,
        opacity: float = 1.0,
        solid: bool = True,
    ) -> None:
        """Paint a quad of one ``color`` ([3]) as ``quad`` does, without a texture to warp;
        a quad that covers little of its bounding box (a long thin wall seen aslant) is
        worked out on the pixels it covers only."""
        found = self._plane(uv, depth)
        if found is None:
            return
        (x0, y0, x1, y1), (a, b, c) = found
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        points = np.round((uv - (x0, y0)) * 16).astype(np.int32)
        cv2.fillConvexPoly(mask, points, 255, cv2.LINE_AA, 4)
        paint = color.astype(np.float32)
        area = abs(float(cv2.contourArea(uv.astype(np.float32))))
        if area > 0.3 * mask.size:  # compact: work on the whole box
            across = np.arange(mask.shape[1], dtype=np.float32)
            down = np.arange(mask.shape[0], dtype=np.float32)
            inverse = (a * across)[None, :] + (b * down + c)[:, None]
            window = (slice(y0, y1), slice(x0, x1))
            nearer = inverse >= self.inverse_depth[window] * 0.9999
            cover = mask * (nearer * np.float32(opacity / 255))
            self.color[window] += (paint - self.color[window]) * cover[..., None]
            if solid:
                keep = cover > 0.5
                self.inverse_depth[window][keep] = inverse[keep]
                self.ids[window][keep] = ident
            return
        rows, cols = np.nonzero(mask)
        if len(cols) == 0:
            return
        inverse = (a * cols + b * rows + c).astype(np.float32)
        weight = mask[rows, cols].astype(np.float32)
        ys, xs = rows + y0, cols + x0
        nearer = inverse >= self.inverse_depth[ys, xs] * 0.9999
        cover = weight * (nearer * (opacity / 255))
        self.color[ys, xs] += (paint - self.color[ys, xs]) * cover[:, None]
        if solid:
            keep = cover > 0.5
            self.inverse_depth[ys[keep], xs[keep]] = inverse[keep]
            self.ids[ys[keep], xs[keep]] = ident

    def shade(self, factor: Array) -> None:
        """Multiply what is painted so far by ``factor`` ([H, W]): shadows on the ground."""
        self.color *= factor[..., None]


def soften(mask: Array, sigma: float) -> Array:
    """``mask`` blurred by a Gaussian of ``sigma`` pixels; a wide blur is worked out on a
    smaller copy (a soft edge loses nothing by it, and it is many times faster)."""
    if sigma < 0.3:
        return mask
    shrink = max(1, int(sigma / 2.5))
    if shrink == 1:
        return np.asarray(cv2.GaussianBlur(mask, (0, 0), sigma))
    height, width = mask.shape[:2]
    small = cv2.resize(
        mask, (max(1, width // shrink), max(1, height // shrink)), interpolation=cv2.INTER_AREA
    )
    small = cv2.GaussianBlur(small, (0, 0), sigma / shrink)
    return np.asarray(cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR))
