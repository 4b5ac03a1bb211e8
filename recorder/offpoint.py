"""Where each piece really stands: circles found on the rectified board, as offsets from the points.

Xiangqi pieces are discs, so on the top-down (rectified) board each one is a circle of about 0.45
grid spacings radius. ``piece_offsets`` finds the circles (OpenCV's Hough transform, ~10 ms) and
gives, for each of the 90 points, the offset of the nearest circle centre in grid spacings (NaN
where none lies within ``reach``). The classifier says *what* stands near a point; this says
*where*: a piece knocked halfway between points (art. 5.9) still reads as its piece but sits
0.3 spacings or more off its point. The resolver removes the common shift of all pieces (piece
tops seen at an angle stand a little off their feet) before judging one piece.
"""

from __future__ import annotations

import logging

import cv2
import numpy as np

log = logging.getLogger(__name__)


def piece_offsets(rectified: np.ndarray, spacing: float, margin: float, *, reach: float = 0.8) -> np.ndarray:
    """(90, 2) offsets (file, rank directions, in spacings) of the nearest disc to each point; NaN if none.

    Rows are ``rules`` squares (``rank * 9 + file``); ``spacing``/``margin`` are the rectified layout
    (pixels per spacing, border in spacings), rank 9 at the top as ``BoardGeometry.rectify`` makes it.
    """
    gray = rectified if rectified.ndim == 2 else cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 1.5)
    found = cv2.HoughCircles(gray, cv2.HOUGH_GRADIENT, dp=1, minDist=spacing * 0.7, param1=80, param2=25,
                             minRadius=int(spacing * 0.35), maxRadius=int(round(spacing * 0.55)))
    out = np.full((90, 2), np.nan)
    if found is None:
        return out
    centres = np.asarray(found[0][:, :2], dtype=np.float64)
    squares = np.arange(90)
    px = (margin + squares % 9) * spacing
    py = (margin + 9 - squares // 9) * spacing
    dx = centres[None, :, 0] - px[:, None]
    dy = centres[None, :, 1] - py[:, None]
    dist = np.hypot(dx, dy)
    nearest = np.argmin(dist, axis=1)
    close = dist[squares, nearest] <= reach * spacing
    out[close, 0] = dx[squares, nearest][close] / spacing
    out[close, 1] = -dy[squares, nearest][close] / spacing  # image y grows downwards, ranks upwards
    return out


def off_point(offsets: np.ndarray, occupied: np.ndarray, threshold: float) -> dict[int, float]:
    """Occupied squares whose disc stands ``threshold`` spacings or more off the point, with the distance.

    The median offset over the occupied squares is taken off first; squares without a disc are skipped.
    """
    rows = np.flatnonzero(occupied & ~np.isnan(offsets[:, 0]))
    if len(rows) < 3:
        return {}
    common = np.median(offsets[rows], axis=0)
    distance = np.hypot(*(offsets[rows] - common).T)
    return {int(sq): float(d) for sq, d in zip(rows, distance, strict=True) if d >= threshold}
