"""Drift: a cheap check that a stored grid still sits on the board, and a monitor that re-calibrates.

``DriftCheck`` looks across the middle of every drawn segment of the stored grid (in a reduced copy
of the board's region) for the strongest thin line. A place whose line is where the grid says is
*on*; one whose line is found a clear distance away is *off*; one with no line at all is hidden
(pieces, a hand, glare). When too few places show a line the board is occluded and the check waits;
otherwise the board has moved when too few of the visible lines are on.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from calibration.board import DRAWN_SEGMENTS
from calibration.errors import BoardNotFoundError
from calibration.evidence import line_response, sample, to_gray

if TYPE_CHECKING:
    from calibration.geometry import BoardGeometry
    from calibration.locator import BoardLocator

log = logging.getLogger(__name__)

_OFFSETS = np.linspace(-0.3, 0.3, 13)
_ON = 0.12  # a line within this many spacings of the prediction is on
_TARGET_SPACING = 28.0  # pixels per spacing the check works at


@dataclass(frozen=True)
class DriftResult:
    """Outcome of one drift check: ``moved`` (re-calibrate), ``occluded`` (cannot tell; wait), ``score``.

    ``score`` is the fraction of visible line places found where the grid predicts (1.0 = in place).
    """

    moved: bool
    occluded: bool
    score: float
    visible: float  # fraction of places where any line was seen


class DriftCheck:
    """Precomputed sample places for one geometry; ``check(frame)`` takes a few milliseconds."""

    def __init__(self, geometry: BoardGeometry, *, min_visible: float = 0.3, min_on: float = 0.6) -> None:
        self.geometry = geometry
        self.min_visible = min_visible
        self.min_on = min_on
        a = DRAWN_SEGMENTS[:, 0, :]
        d = DRAWN_SEGMENTS[:, 1, :] - a
        normal = np.c_[-d[:, 1], d[:, 0]]
        mid = a + 0.5 * d
        board = mid[:, None, :] + _OFFSETS[None, :, None] * normal[:, None, :]
        pixels = geometry.points_array(board.reshape(-1, 2)).reshape(board.shape)
        width, height = geometry.image_size
        lo = np.floor(pixels.reshape(-1, 2).min(axis=0) - 8).astype(int)
        hi = np.ceil(pixels.reshape(-1, 2).max(axis=0) + 8).astype(int)
        self._x0, self._y0 = max(0, int(lo[0])), max(0, int(lo[1]))
        self._x1, self._y1 = min(width, int(hi[0])), min(height, int(hi[1]))
        self._scale = min(1.0, _TARGET_SPACING / max(geometry.spacing_px(), 1.0))
        self._pixels = ((pixels - [self._x0, self._y0]) * self._scale).astype(np.float32)

    def check(self, frame: np.ndarray) -> DriftResult:
        """Compare the stored grid with ``frame`` (same size as the calibration's)."""
        height, width = frame.shape[:2]
        if (width, height) != tuple(self.geometry.image_size):
            return DriftResult(moved=True, occluded=False, score=0.0, visible=0.0)
        if self._x1 - self._x0 < 8 or self._y1 - self._y0 < 8:
            return DriftResult(moved=True, occluded=False, score=0.0, visible=0.0)
        roi = to_gray(frame[self._y0:self._y1, self._x0:self._x1])
        if self._scale < 1.0:
            roi = cv2.resize(roi, None, fx=self._scale, fy=self._scale, interpolation=cv2.INTER_AREA)
        response = line_response(roi, 7, blur=0.8)
        values = sample(response, self._pixels)
        peak_at = np.argmax(values, axis=1)
        peak = values[np.arange(len(values)), peak_at]
        strength = max(6.0, 0.3 * float(np.percentile(peak, 75)))
        seen = peak > strength
        near = np.abs(_OFFSETS[peak_at]) <= _ON
        visible = float(seen.mean())
        if visible < self.min_visible:
            return DriftResult(moved=False, occluded=True, score=0.0, visible=visible)
        score = float((seen & near).sum() / max(int(seen.sum()), 1))
        moved = score < self.min_on
        occluded = visible < 0.6 and not moved
        return DriftResult(moved=moved, occluded=occluded, score=score, visible=visible)


@dataclass(frozen=True)
class CalibrationUpdate:
    """What the recorder needs for a ``CalibrationChanged`` event: when, why, the old and new grids."""

    t: float
    reason: str  # "moved" or "red side found"
    old: BoardGeometry
    new: BoardGeometry
    shift: float  # mean point displacement, in spacings of the old grid


class DriftMonitor:
    """Runs ``DriftCheck`` every ``interval`` seconds and re-calibrates when the board has moved.

    A move must be seen on ``confirm`` consecutive checks (a passing hand is not a move); while the
    board is occluded the monitor waits. While red's side is undetermined, each check also tries to
    settle it from the pieces.
    """

    def __init__(self, locator: BoardLocator, geometry: BoardGeometry, *, interval: float = 3.0,
                 confirm: int = 2) -> None:
        self.locator = locator
        self.geometry = geometry
        self.interval = interval
        self.confirm = confirm
        self._last: float | None = None
        self._strikes = 0
        self.last_result: DriftResult | None = None

    def feed(self, frame: np.ndarray, t: float) -> CalibrationUpdate | None:
        """Check ``frame`` (taken at ``t`` seconds) when due; returns an update when the grid changed."""
        if self._last is not None and t - self._last < self.interval:
            return None
        self._last = t
        result = self.geometry.check_drift(frame)
        self.last_result = result
        if result.occluded:
            return None
        if not result.moved:
            self._strikes = 0
            if self.geometry.red_side is None:
                return self._settle_red_side(frame, t)
            return None
        self._strikes += 1
        if self._strikes < self.confirm:
            return None
        try:
            new = self.locator.locate(frame)
        except BoardNotFoundError as error:
            log.info("board moved but not found again yet: %s", error.reason)
            return None
        self._strikes = 0
        if new.red_side is None and self.geometry.red_side is not None:
            new = _closest_naming(self.geometry, new)
        return self._swap(new, t, "moved")

    def _settle_red_side(self, frame: np.ndarray, t: float) -> CalibrationUpdate | None:
        from calibration.redside import red_evidence

        evidence = red_evidence(frame, self.geometry.homography, self.geometry.lens)
        if abs(evidence) < self.locator.min_red_evidence:
            return None
        from calibration.geometry import side_of_rank0

        new = self.geometry if evidence > 0 else self.geometry.turned()
        from dataclasses import replace

        new = replace(new, red_side=side_of_rank0(new.homography))
        return self._swap(new, t, "red side found")

    def _swap(self, new: BoardGeometry, t: float, reason: str) -> CalibrationUpdate:
        old = self.geometry
        board = np.array([[u, v] for v in range(10) for u in range(9)], dtype=np.float64)
        shift = float(np.mean(np.linalg.norm(new.points_array(board) - old.points_array(board), axis=1)))
        self.geometry = new
        return CalibrationUpdate(t=t, reason=reason, old=old, new=new, shift=shift / max(old.spacing_px(), 1e-9))


def _closest_naming(old: BoardGeometry, new: BoardGeometry) -> BoardGeometry:
    """Of ``new`` and ``new`` turned by 180 degrees, the naming nearer to ``old``'s (board nudged, not turned)."""
    from dataclasses import replace

    from calibration.geometry import side_of_rank0

    board = np.array([[u, v] for v in range(10) for u in range(9)], dtype=np.float64)
    turned = new.turned()
    a = np.linalg.norm(new.points_array(board) - old.points_array(board), axis=1).mean()
    b = np.linalg.norm(turned.points_array(board) - old.points_array(board), axis=1).mean()
    pick = new if a <= b else turned
    return replace(pick, red_side=side_of_rank0(pick.homography))
