"""Fast per-pixel blending helpers for float32 BGR images.

NumPy broadcasting a one-channel map over three channels (``img * m[..., None]``) runs an inner
loop of length 3 and is ten times slower than the same work on matching shapes, so these helpers
expand the map to three channels with OpenCV first and work in place.
"""

from __future__ import annotations

import cv2
import numpy as np


def expand3(m: np.ndarray) -> np.ndarray:
    """A one-channel float32 map repeated into three channels."""
    m = np.ascontiguousarray(m, dtype=np.float32)
    return cv2.merge([m, m, m])


def scale(img: np.ndarray, factor: np.ndarray) -> None:
    """``img *= factor`` per pixel (``factor`` one channel), in place."""
    np.multiply(img, expand3(factor), out=img)


def lerp(img: np.ndarray, target: np.ndarray | tuple[float, ...], alpha: np.ndarray) -> None:
    """``img += (target - img) * alpha`` in place; ``target`` an image or a BGR colour."""
    a3 = expand3(alpha)
    if isinstance(target, np.ndarray) and target.ndim == 3:
        add = np.multiply(target, a3)
    else:
        c = [float(v) for v in np.asarray(target, np.float64).ravel()[:3]]
        add = cv2.multiply(a3, np.array([c[0], c[1], c[2], 0.0]))
    np.subtract(np.float32(1.0), a3, out=a3)
    np.multiply(img, a3, out=img)
    np.add(img, add, out=img)


def tint(colour: tuple[float, ...] | np.ndarray, field: np.ndarray) -> np.ndarray:
    """A float32 BGR image of ``colour`` scaled per pixel by the one-channel ``field``."""
    f = np.ascontiguousarray(field, dtype=np.float32)
    return cv2.merge([f * np.float32(c) for c in np.asarray(colour, np.float32)])
