"""The simulated camera: a pinhole looking down at the board plane, plus mild barrel distortion.

Board coordinates are in units of the grid spacing: ``x`` = file (0 = ICCS ``a``), ``y`` = rank
(0 = red's back rank), ``z`` up from the board surface. The camera's homography maps the plane
``z = 0`` to undistorted pixels; the lens then pulls pixels toward the image centre with the
radial model ``p_u = c + (p_d - c) * (1 + k * r_d**2)`` where ``r_d = |p_d - c| / n`` and ``n``
is the half diagonal. Rendering needs the distorted-to-undistorted direction (closed form);
truth points need the inverse, solved by Newton steps.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

import numpy as np

log = logging.getLogger(__name__)

GRID_W = 8.0  # grid spans files 0..8
GRID_H = 9.0  # and ranks 0..9


def _rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]], float)


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], float)


@dataclass(frozen=True)
class Camera:
    """A posed pinhole camera over the board with a radial lens distortion.

    ``homography`` maps board ``(x, y, 1)`` to undistorted pixel coordinates (pixel centres
    at integers); ``centre`` is the camera's position in board units (``z`` above the board).
    """

    width: int
    height: int
    homography: np.ndarray
    centre: tuple[float, float, float]
    barrel: float

    @classmethod
    def pose(
        cls,
        *,
        width: int,
        height: int,
        tilt_deg: float,
        tilt_azimuth_deg: float,
        roll_deg: float,
        distance: float,
        coverage: float,
        centre_shift: tuple[float, float],
        extent: tuple[float, float, float, float],
        barrel: float = 0.0,
    ) -> Camera:
        """Pose a camera ``distance`` units from the board centre, tilted and rolled, then choose
        the focal length and principal point so the board ``extent`` (x0, y0, x1, y1) spans
        ``coverage`` of the frame's limiting side, shifted by ``centre_shift`` (-1..1) of the slack."""
        # World -> camera for a camera looking straight down with red's side at the image bottom.
        base = np.array([[1, 0, 0], [0, -1, 0], [0, 0, -1]], float)
        az = math.radians(tilt_azimuth_deg)
        tilt = _rot_z(az) @ _rot_x(math.radians(tilt_deg)) @ _rot_z(-az)
        rot = _rot_z(math.radians(roll_deg)) @ tilt @ base
        target = np.array([GRID_W / 2, GRID_H / 2, 0.0])
        axis_world = rot.T @ np.array([0.0, 0.0, 1.0])
        centre = target - distance * axis_world
        t = -rot @ centre
        raw = np.column_stack([rot[:, 0], rot[:, 1], t])  # K = identity for now
        x0, y0, x1, y1 = extent
        corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)
        proj = _apply(raw, corners)
        lo, hi = proj.min(axis=0), proj.max(axis=0)
        span = hi - lo
        scale = coverage * min(width / span[0], height / span[1])
        slack = np.array([width, height]) - span * scale
        mid = np.array([(width - 1) / 2, (height - 1) / 2]) + np.asarray(centre_shift) * slack / 2
        offset = mid - (lo + hi) / 2 * scale
        k = np.array([[scale, 0, offset[0]], [0, scale, offset[1]], [0, 0, 1]], float)
        h = k @ raw
        h /= h[2, 2]
        return cls(width, height, h, (float(centre[0]), float(centre[1]), float(centre[2])), barrel)

    @property
    def _norm(self) -> float:
        return math.hypot(self.width, self.height) / 2

    @property
    def _image_centre(self) -> np.ndarray:
        return np.array([(self.width - 1) / 2, (self.height - 1) / 2])

    def project(self, board_xy: np.ndarray) -> np.ndarray:
        """Pixel positions in the final (distorted) image of board points ``(N, 2)`` on the plane z=0."""
        return self.distort(_apply(self.homography, np.asarray(board_xy, float)))

    def project_3d(self, board_xyz: np.ndarray) -> np.ndarray:
        """Undistorted pixel positions of points above the board, ``(N, 3)`` in board units."""
        pts = np.asarray(board_xyz, float)
        # Project onto the plane along the ray from the camera centre, then use the homography.
        c = np.asarray(self.centre)
        f = c[2] / (c[2] - pts[:, 2])
        flat = c[:2] + (pts[:, :2] - c[:2]) * f[:, None]
        return _apply(self.homography, flat)

    def distort(self, undistorted: np.ndarray) -> np.ndarray:
        """Map undistorted pixels to distorted ones (inverse of the closed-form model, by Newton)."""
        pts = np.asarray(undistorted, float)
        if self.barrel == 0.0:
            return pts.copy()
        c, n, k = self._image_centre, self._norm, self.barrel
        q = (pts - c) / n
        ru = np.hypot(q[:, 0], q[:, 1])
        rd = ru.copy()
        for _ in range(8):
            rd -= (rd + k * rd**3 - ru) / (1 + 3 * k * rd**2)
        ratio = np.where(ru > 1e-12, rd / np.maximum(ru, 1e-12), 1.0)
        return c + q * ratio[:, None] * n

    def undistort(self, distorted: np.ndarray) -> np.ndarray:
        """Map distorted pixels to undistorted ones (the closed-form direction)."""
        pts = np.asarray(distorted, float)
        if self.barrel == 0.0:
            return pts.copy()
        c, n = self._image_centre, self._norm
        q = (pts - c) / n
        r2 = (q**2).sum(axis=1)
        return c + q * (1 + self.barrel * r2)[:, None] * n

    def image_to_board(self, pixels: np.ndarray) -> np.ndarray:
        """Board-plane coordinates seen at final-image ``pixels`` ``(N, 2)``."""
        return _apply(np.linalg.inv(self.homography), self.undistort(pixels))

    def board_scale(self) -> float:
        """Pixels per board unit near the board centre (undistorted)."""
        p = _apply(self.homography, np.array([[4.0, 4.5], [5.0, 4.5], [4.0, 5.5]]))
        return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2)


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to ``(N, 2)`` points."""
    homo = np.column_stack([pts, np.ones(len(pts))]) @ h.T
    return homo[:, :2] / homo[:, 2:3]


def apply_homography(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Public wrapper of the homography application used across the renderer."""
    return _apply(h, np.asarray(pts, float))
