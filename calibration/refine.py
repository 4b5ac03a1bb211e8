"""Sub-pixel refinement of a lattice homography from line evidence, robust to hidden crossings.

Pieces hide the crossings, so the fit uses the lines between them: for many places along every
predicted line (and the palace diagonals) the response is searched across the line; each found
line centre gives one linear constraint "this image point lies on board line n.(u, v) = c" on the
image-to-board homography. The constraints are solved by weighted least squares (normalised DLT)
with iterative reweighting, so places where a piece's rim or a hand was found instead fall out.
Optionally a one-parameter radial lens distortion is fitted too: with it, bowed lines stop
leaving a residual that a homography cannot absorb.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np

from calibration.board import DRAWN_SEGMENTS, PALACE_SEGMENTS
from calibration.evidence import project, sample, spacing_px
from calibration.lens import Lens, RadialDistortion, board_to_image

log = logging.getLogger(__name__)

_T = np.array([0.22, 0.36, 0.5, 0.64, 0.78])
_SEGMENTS = np.concatenate([DRAWN_SEGMENTS, PALACE_SEGMENTS])
_K_RANGE = (-0.08, 0.16)


@dataclass(frozen=True)
class Refinement:
    """A refined board-to-image homography (and lens) and how well the line evidence agreed with it."""

    h: np.ndarray
    lens: Lens | None
    rms: float  # robust residual of the inlier constraints, in spacings
    inliers: int  # constraints that agreed
    found: int  # places where a line was found at all


@dataclass(frozen=True)
class _Observations:
    image: np.ndarray  # (N, 2) source-frame pixels where a line centre was found
    normals: np.ndarray  # (N, 2) board-unit normal of the line
    c: np.ndarray  # (N,) the line is normal . (u, v) = c


def _normaliser(points: np.ndarray) -> np.ndarray:
    centre = points.mean(axis=0)
    scale = np.sqrt(2.0) / max(float(np.mean(np.linalg.norm(points - centre, axis=1))), 1e-9)
    return np.array([[scale, 0.0, -scale * centre[0]], [0.0, scale, -scale * centre[1]], [0.0, 0.0, 1.0]])


def _locate_lines(response: np.ndarray, h: np.ndarray, lens: Lens | None, window: float,
                  strength: float) -> _Observations:
    """Search across every sample place for the line centre, to a fraction of a pixel."""
    a = _SEGMENTS[:, 0, :]
    d = _SEGMENTS[:, 1, :] - a
    length = np.linalg.norm(d, axis=1, keepdims=True)
    normal = np.c_[-d[:, 1], d[:, 0]] / length
    places = (a[:, None, :] + _T[None, :, None] * d[:, None, :]).reshape(-1, 2)
    normals = np.repeat(normal, len(_T), axis=0)
    step = 0.5 / max(spacing_px(h), 1.0)  # half a pixel, in spacings
    count = int(np.clip(2 * window / step, 9, 61)) | 1
    offsets = np.linspace(-window, window, count)
    probe = places[:, None, :] + offsets[None, :, None] * normals[:, None, :]
    pixels = board_to_image(h, lens, probe)
    values = sample(response, pixels)
    best = np.argmax(values, axis=1)
    rows = np.arange(len(values))
    peak = values[rows, best]
    floor = values.min(axis=1)
    ok = (best > 0) & (best < count - 1) & (peak > 0.35 * strength) & (peak - floor > 0.25 * strength)
    idx = np.where(ok)[0]
    b = best[idx]
    y0, y1, y2 = values[idx, b - 1], values[idx, b], values[idx, b + 1]
    denom = y0 - 2 * y1 + y2
    frac = np.where(np.abs(denom) > 1e-9, 0.5 * (y0 - y2) / np.where(denom == 0, 1, denom), 0.0)
    frac = np.clip(frac, -0.5, 0.5)
    # interpolate the image position between the probe pixels (the lens makes board steps uneven)
    lo = np.where(frac >= 0, b, b - 1)
    t = np.where(frac >= 0, frac, 1 + frac)[:, None]
    image = pixels[idx, lo] * (1 - t) + pixels[idx, lo + 1] * t
    return _Observations(image=image, normals=normals[idx], c=np.sum(places[idx] * normals[idx], axis=1))


def _solve(image_pts: np.ndarray, normals: np.ndarray, c: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted normalised DLT for the image-to-board homography G from point-on-line constraints."""
    t = _normaliser(image_pts)
    p = np.c_[image_pts, np.ones(len(image_pts))] @ t.T
    rows = np.c_[normals[:, 0:1] * p, normals[:, 1:2] * p, -c[:, None] * p]
    _, _, vt = np.linalg.svd(rows * weights[:, None], full_matrices=False)
    return vt[-1].reshape(3, 3) @ t


def _residuals(g: np.ndarray, image_pts: np.ndarray, normals: np.ndarray, c: np.ndarray) -> np.ndarray:
    board = project(g, image_pts)
    return np.sum(board * normals, axis=1) - c


def _robust_fit(obs: _Observations, undistorted: np.ndarray, iterations: int = 4
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """IRLS (Tukey) fit; returns (G, residuals, weights)."""
    weights = np.ones(len(obs.c))
    g = _solve(undistorted, obs.normals, obs.c, weights)
    res = _residuals(g, undistorted, obs.normals, obs.c)
    for _ in range(iterations):
        sigma = max(1.4826 * float(np.median(np.abs(res))), 0.01)
        scaled = res / (3.0 * sigma)
        weights = np.where(np.abs(scaled) < 1, (1 - scaled**2) ** 2, 0.0)
        g_new = _solve(undistorted, obs.normals, obs.c, weights)
        if not np.all(np.isfinite(g_new)):
            break
        g = g_new
        res = _residuals(g, undistorted, obs.normals, obs.c)
    return g, res, weights


def _fit_radial(obs: _Observations, image_size: tuple[int, int], inliers: np.ndarray) -> tuple[float, float]:
    """The radial ``k`` that best straightens the observed lines, and its cost relative to k = 0."""
    sel = _Observations(obs.image[inliers], obs.normals[inliers], obs.c[inliers])

    def cost(k: float) -> float:
        lens = RadialDistortion(k, image_size)
        und = lens.undistort_points(sel.image)
        g, res, _ = _robust_fit(sel, und, iterations=1)
        return float(np.mean(np.minimum(res**2, 0.05**2)))

    lo, hi = _K_RANGE
    golden = (np.sqrt(5) - 1) / 2
    a, b = lo, hi
    x1, x2 = b - golden * (b - a), a + golden * (b - a)
    f1, f2 = cost(x1), cost(x2)
    for _ in range(16):
        if f1 < f2:
            b, x2, f2 = x2, x1, f1
            x1 = b - golden * (b - a)
            f1 = cost(x1)
        else:
            a, x1, f1 = x1, x2, f2
            x2 = a + golden * (b - a)
            f2 = cost(x2)
    k = (a + b) / 2
    return k, cost(k) / max(cost(0.0), 1e-12)


def refine(response: np.ndarray, h: np.ndarray, strength: float, *, lens: Lens | None = None,
           fit_radial: bool = False, windows: tuple[float, ...] = (0.3, 0.18, 0.1, 0.06)) -> Refinement:
    """Refine board-to-image ``h`` against ``response`` with shrinking search windows (spacings).

    ``lens`` (fixed) maps undistorted to source pixels; with ``fit_radial`` and no lens, a radial
    distortion is estimated from the line evidence and kept when it explains the lines clearly better.
    """
    image_size = (response.shape[1], response.shape[0])
    rms, inliers, found = 1.0, 0, 0
    radial_tried = False
    for i, window in enumerate(windows):
        obs = _locate_lines(response, h, lens, window, strength)
        found = len(obs.c)
        if found < 24:
            log.debug("refine: only %d line places found at window %.2f", found, window)
            break
        und = lens.undistort_points(obs.image) if lens is not None else obs.image
        g, res, weights = _robust_fit(obs, und)
        if fit_radial and not radial_tried and i >= 1 and lens is None:
            radial_tried = True
            k, ratio = _fit_radial(obs, image_size, weights > 0)
            if abs(k) > 0.004 and ratio < 0.8:
                lens = RadialDistortion(float(k), image_size)
                und = lens.undistort_points(obs.image)
                g, res, weights = _robust_fit(obs, und)
                log.debug("refine: radial k=%.4f (cost ratio %.2f)", k, ratio)
        good = weights > 0
        try:
            h_new = np.linalg.inv(g)
        except np.linalg.LinAlgError:
            break
        if not np.all(np.isfinite(h_new)) or abs(h_new[2, 2]) < 1e-12:
            break
        inliers = int(good.sum())
        rms = float(np.sqrt(np.mean(res[good] ** 2))) if inliers else 1.0
        h = h_new / h_new[2, 2]
    return Refinement(h=h, lens=lens, rms=rms, inliers=inliers, found=found)
