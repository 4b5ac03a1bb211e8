"""Optional lens model for wide-angle webcams: OpenCV's standard pinhole + radial/tangential model.

Made once per camera from views of a printed chessboard (``calibrate_chessboard``) and stored as
JSON. The locator then works on undistorted pixels; the geometry maps back to source pixels.
Undistorted pixels use the same camera matrix as the source, so the two agree near the centre.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LensModel:
    """Camera matrix, distortion coefficients and the frame size they were measured at."""

    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    image_size: tuple[int, int]
    rms: float = 0.0  # reprojection error of the calibration, pixels

    def undistort_points(self, xy: np.ndarray) -> np.ndarray:
        """Source (distorted) pixels -> undistorted pixels, (N, 2)."""
        pts = np.asarray(xy, dtype=np.float64).reshape(-1, 1, 2)
        out = cv2.undistortPoints(pts, self.camera_matrix, self.dist_coeffs, P=self.camera_matrix)
        return out.reshape(-1, 2)

    def distort(self, xy: np.ndarray) -> np.ndarray:
        """Undistorted pixels -> source (distorted) pixels, (N, 2)."""
        pts = np.asarray(xy, dtype=np.float64).reshape(-1, 2)
        k_inv = np.linalg.inv(self.camera_matrix)
        norm = np.c_[pts, np.ones(len(pts))] @ k_inv.T
        zero = np.zeros(3)
        out, _ = cv2.projectPoints(norm.reshape(-1, 1, 3), zero, zero, self.camera_matrix, self.dist_coeffs)
        return out.reshape(-1, 2)

    def undistort(self, frame: np.ndarray) -> np.ndarray:
        """The frame as an ideal pinhole camera with the same camera matrix would have seen it."""
        return cv2.undistort(frame, self.camera_matrix, self.dist_coeffs)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "model": "opencv",
            "camera_matrix": self.camera_matrix.tolist(),
            "dist_coeffs": self.dist_coeffs.ravel().tolist(),
            "image_size": list(self.image_size),
            "rms": self.rms,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LensModel:
        """Rebuild from ``to_json`` output."""
        k = np.array(data["camera_matrix"], dtype=np.float64).reshape(3, 3)
        d = np.array(data["dist_coeffs"], dtype=np.float64).ravel()
        width, height = (int(v) for v in data["image_size"])
        return cls(camera_matrix=k, dist_coeffs=d, image_size=(width, height), rms=float(data.get("rms", 0.0)))

    def save(self, path: str | Path) -> None:
        """Write ``to_json`` to ``path``."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> LensModel:
        """Read a file written by ``save``."""
        return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))


def calibrate_chessboard(frames: Iterable[np.ndarray], pattern: tuple[int, int],
                         square: float = 1.0, min_views: int = 5) -> LensModel:
    """Calibrate from views of a chessboard with ``pattern`` = (inner corners per row, per column)."""
    cols, rows = pattern
    obj = np.zeros((cols * rows, 3), np.float32)
    obj[:, :2] = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2) * square
    object_points: list[np.ndarray] = []
    image_points: list[np.ndarray] = []
    size: tuple[int, int] | None = None
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 1e-3)
    for frame in frames:
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        size = (gray.shape[1], gray.shape[0])
        found, corners = cv2.findChessboardCorners(gray, pattern)
        if not found:
            continue
        corners = cv2.cornerSubPix(gray, corners, (11, 11), (-1, -1), criteria)
        object_points.append(obj)
        image_points.append(corners)
    if size is None or len(object_points) < min_views:
        raise ValueError(f"chessboard found in {len(object_points)} views; need at least {min_views}")
    rms, k, d, _, _ = cv2.calibrateCamera(object_points, image_points, size, None, None)
    log.info("lens calibration from %d views: rms %.3f px", len(object_points), rms)
    return LensModel(camera_matrix=k, dist_coeffs=d.ravel(), image_size=size, rms=float(rms))


@dataclass(frozen=True)
class RadialDistortion:
    """One-parameter radial lens model centred on the image, fitted by the locator from the grid lines.

    An image point at normalised radius ``r`` (pixels from the image centre over half the diagonal)
    is where an ideal pinhole camera would have put it at ``r * (1 + k r^2)``: ``k > 0`` is barrel
    distortion. Needs no calibration target: straight board lines that bow in the frame fix ``k``.
    """

    k: float
    image_size: tuple[int, int]

    @property
    def _centre(self) -> np.ndarray:
        return np.array([(self.image_size[0] - 1) / 2, (self.image_size[1] - 1) / 2])

    @property
    def _norm(self) -> float:
        return float(np.hypot(*self.image_size) / 2)

    def undistort_points(self, xy: np.ndarray) -> np.ndarray:
        """Source (distorted) pixels -> undistorted pixels, (N, 2)."""
        q = (np.asarray(xy, dtype=np.float64).reshape(-1, 2) - self._centre) / self._norm
        r2 = np.sum(q * q, axis=1, keepdims=True)
        return self._centre + q * (1 + self.k * r2) * self._norm

    def distort(self, xy: np.ndarray) -> np.ndarray:
        """Undistorted pixels -> source pixels (solving the cubic for the radius by Newton's method)."""
        q = (np.asarray(xy, dtype=np.float64).reshape(-1, 2) - self._centre) / self._norm
        ru = np.hypot(q[:, 0], q[:, 1])
        rd = ru.copy()
        for _ in range(6):
            rd = rd - (rd + self.k * rd**3 - ru) / (1 + 3 * self.k * rd**2)
        ratio = np.where(ru > 1e-12, rd / np.maximum(ru, 1e-12), 1.0)
        return self._centre + q * ratio[:, None] * self._norm

    def undistort(self, frame: np.ndarray) -> np.ndarray:
        """The frame as the ideal pinhole camera would have seen it."""
        height, width = frame.shape[:2]
        ys, xs = np.mgrid[0:height, 0:width]
        src = self.distort(np.c_[xs.ravel(), ys.ravel()]).reshape(height, width, 2).astype(np.float32)
        return cv2.remap(frame, src[..., 0], src[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"model": "radial", "k": self.k, "image_size": list(self.image_size)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RadialDistortion:
        """Rebuild from ``to_json`` output."""
        width, height = (int(v) for v in data["image_size"])
        return cls(k=float(data["k"]), image_size=(width, height))


Lens = LensModel | RadialDistortion


def lens_from_json(data: dict[str, Any]) -> Lens:
    """Either lens model from its JSON form."""
    if data.get("model") == "radial":
        return RadialDistortion.from_json(data)
    return LensModel.from_json(data)


def board_to_image(h: np.ndarray, lens: Lens | None, uv: np.ndarray) -> np.ndarray:
    """Source-frame pixels of board coordinates (..., 2) through homography ``h`` and ``lens``."""
    from calibration.evidence import project

    undistorted = project(h, uv)
    if lens is None:
        return undistorted
    return lens.distort(undistorted.reshape(-1, 2)).reshape(undistorted.shape)


def source_maps(to_image: np.ndarray, lens: Lens, size: tuple[int, int], step: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """``cv2.remap`` maps (x, y) of the source-frame pixel for every pixel of a ``size`` view whose
    pixels reach the undistorted frame through homography ``to_image`` and then ``lens``.

    The lens is evaluated every ``step`` pixels and interpolated between: its displacement is smooth
    (a few pixels across the frame), and distorting every pixel of a board view took milliseconds.
    """
    from calibration.evidence import project

    width, height = size
    cols, rows = -(-(width - 1) // step) + 1, -(-(height - 1) // step) + 1
    ys, xs = np.mgrid[0:rows, 0:cols] * step
    coarse = np.stack([xs, ys], axis=-1).reshape(-1, 2).astype(np.float64)
    src = lens.distort(project(to_image, coarse)).reshape(rows, cols, 2).astype(np.float32)
    fine_y, fine_x = np.mgrid[0:height, 0:width].astype(np.float32) / step
    full = cv2.remap(src, fine_x, fine_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.ascontiguousarray(full[..., 0]), np.ascontiguousarray(full[..., 1])
