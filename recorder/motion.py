"""Cheap motion detection over the board: is anything moving between two consecutive frames?

Only the board's bounding box (plus a margin, where hands come in) is looked at, shrunk so that a
grid spacing is a few pixels and turned grey. Two consecutive small images are compared pixel by
pixel after removing the median difference (so a slow change of the room light is not motion);
motion is a share of changed pixels above ``min_fraction``. A frame costs about a millisecond,
which is what lets the observer skip frames cheaply while nothing moves.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class MotionConfig:
    """Thresholds of the motion test."""

    spacing_px: float = 6.0  # grid spacing in the shrunk image
    margin_spacings: float = 1.0  # look this far outside the grid
    threshold: int = 14  # a grey change above this (0-255) marks a pixel changed
    min_fraction: float = 0.0015  # motion when more than this share of pixels changed

    def __post_init__(self) -> None:
        if not 2.0 <= self.spacing_px <= 40.0:
            raise ValueError("spacing_px must be within 2-40")
        if not 1 <= self.threshold <= 255:
            raise ValueError("threshold must be within 1-255")
        if not 0.0 < self.min_fraction < 1.0:
            raise ValueError("min_fraction must be within 0-1")


class MotionDetector:
    """Frame-to-frame motion inside a fixed region of the frame.

    ``region`` is ``(x0, y0, x1, y1)`` in frame pixels and ``spacing`` the board's grid spacing
    there; :meth:`for_points` builds both from the 90 board points.
    """

    def __init__(self, region: tuple[int, int, int, int], spacing: float, config: MotionConfig | None = None) -> None:
        self.config = config or MotionConfig()
        x0, y0, x1, y1 = region
        if x1 - x0 < 4 or y1 - y0 < 4:
            raise ValueError(f"motion region {region} is too small")
        self.region = region
        self.scale = min(1.0, self.config.spacing_px / max(spacing, 1e-6))
        self.size = (max(4, round((x1 - x0) * self.scale)), max(4, round((y1 - y0) * self.scale)))
        self._previous: np.ndarray | None = None
        self.last_fraction = 0.0

    @classmethod
    def for_points(cls, points: np.ndarray, frame_size: tuple[int, int], config: MotionConfig | None = None
                   ) -> MotionDetector:
        """A detector over the board whose 90 points (N, 2 pixels) are given, in frames of (width, height)."""
        config = config or MotionConfig()
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        spacing = float(max(hi[0] - lo[0], hi[1] - lo[1]) / 9.0)
        pad = config.margin_spacings * spacing
        width, height = frame_size
        region = (max(0, int(lo[0] - pad)), max(0, int(lo[1] - pad)),
                  min(width, int(np.ceil(hi[0] + pad))), min(height, int(np.ceil(hi[1] + pad))))
        return cls(region, spacing, config)

    def reset(self) -> None:
        """Forget the previous frame: the next one counts as motion."""
        self._previous = None

    def small(self, frame: np.ndarray) -> np.ndarray:
        """The shrunk grey board region of ``frame`` (int16)."""
        x0, y0, x1, y1 = self.region
        roi = frame[y0:y1, x0:x1]
        small = cv2.resize(roi, self.size, interpolation=cv2.INTER_AREA)
        if small.ndim == 3:
            small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        return small.astype(np.int16)

    def moving(self, frame: np.ndarray) -> bool:
        """Did anything move since the previous frame? (The first frame after a reset counts as motion.)"""
        current = self.small(frame)
        previous, self._previous = self._previous, current
        if previous is None or previous.shape != current.shape:
            self.last_fraction = 1.0
            return True
        diff = current - previous
        diff -= int(np.median(diff))
        changed = np.count_nonzero(np.abs(diff) > self.config.threshold)
        self.last_fraction = changed / diff.size
        return self.last_fraction > self.config.min_fraction
