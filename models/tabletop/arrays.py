"""The array type the renderer passes around (float32 images, float64 geometry)."""

from typing import Any

from numpy.typing import NDArray

Array = NDArray[Any]
