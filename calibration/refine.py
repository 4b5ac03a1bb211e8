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
import math
from dataclasses import dataclass

import numpy as np

from calibration.board import CENTRE, DRAWN_SEGMENTS, PALACE_SEGMENTS, outer_line
from calibration.evidence import project, sample, spacing_px
from calibration.lens import Lens, RadialDistortion, board_to_image

log = logging.getLogger(__name__)

_T = np.array([0.22, 0.36, 0.5, 0.64, 0.78])
_SEGMENTS = np.concatenate([DRAWN_SEGMENTS, PALACE_SEGMENTS])
_K_RANGE = (0.0, 0.16)  # barrel only: wide-angle webcams bow lines outwards
_HORIZON_W = float(np.finfo(np.float32).eps)  # cv2.perspectiveTransform maps points with |w| up to this to 0
_STRAY_EDGE = 0.02  # spacings: an edge line found this far outside the inner lines' fit is left out


# per outermost grid line (files 0 and 8, ranks 0 and 9): which of ``_SEGMENTS`` lie on it
_OUTER = [np.flatnonzero(outer_line(_SEGMENTS) == line) for line in range(4)]


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

    def where(self, keep: np.ndarray) -> _Observations:
        """The observations ``keep`` selects (a boolean mask)."""
        return _Observations(image=self.image[keep], normals=self.normals[keep], c=self.c[keep])


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
    # the strong local maximum nearest the prediction (not simply the strongest: the board's outer
    # frame next to the grid's edge is often a thicker, stronger line a little way out)
    inner = values[:, 1:-1]
    local = (inner >= values[:, :-2]) & (inner > values[:, 2:]) & (inner >= 0.5 * values.max(axis=1, keepdims=True))
    centre = _edge_centres(values, places, normals, strength)
    distance = np.where(local, np.abs(np.arange(1, count - 1)[None, :] - centre[:, None]), np.inf)
    best = np.argmin(distance, axis=1) + 1
    best = np.where(np.isfinite(distance.min(axis=1)), best, 0)
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


def _edge_centres(values: np.ndarray, places: np.ndarray, normals: np.ndarray, strength: float) -> np.ndarray:
    """Per sample place, the probe index a line is expected at: the prediction, except on the outermost
    lines when two parallel lines show across the window -- the grid's edge and the board's outer frame.

    The frame always lies outside the grid, so there the innermost clear peak of the line's median
    profile (pieces and hands vary along the line; the two drawn lines do not) is the grid's line.
    Without this, lens bowing or a washed-out edge line lets the refit slide the edge onto the frame,
    where a straight frame then also hides the lens distortion.
    """
    count = values.shape[1]
    centre = np.full(len(values), (count - 1) / 2)
    for segs in _OUTER:
        rows = (segs[:, None] * len(_T) + np.arange(len(_T))[None, :]).ravel()
        inward = np.sign(np.sum((CENTRE - places[rows[0]]) * normals[rows[0]]))
        profile = np.median(values[rows], axis=0)
        if inward < 0:
            profile = profile[::-1]
        top = float(profile.max())
        if top < 0.35 * strength:
            continue
        peaks = [i for i in range(1, count - 1) if profile[i] >= profile[i - 1] and profile[i] > profile[i + 1]
                 and profile[i] >= 0.5 * strength and profile[i] - profile[i:].min() > 0.15 * strength]
        if len(peaks) < 2:
            continue
        # peaks run from outside to inside; the grid's line is the innermost one parted by a clear dip
        # (the grid's line may be much fainter than a thick frame: glare, a washed-out print)
        pick = peaks[-1]
        if profile[peaks[-2]:pick].min() > 0.8 * profile[pick]:
            continue
        centre[rows] = pick if inward > 0 else count - 1 - pick
    return centre


def _design(image_pts: np.ndarray, normals: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The point-on-line constraint rows on normalised image points, and the normalising transform.

    They do not depend on the weights, so the reweighting loop builds them once.
    """
    t = _normaliser(image_pts)
    p = image_pts @ t[:, :2].T + t[:, 2]
    return np.concatenate([normals[:, 0:1] * p, normals[:, 1:2] * p, -c[:, None] * p], axis=1), t


def _solve(rows: np.ndarray, t: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted normalised DLT for the image-to-board homography G from the rows of ``_design``."""
    weighted = rows * weights[:, None]
    # the null vector of the weighted rows: the eigenvector of their 9x9 scatter with the smallest
    # eigenvalue (the points are normalised, so this is as accurate as an SVD of the N x 9 rows and
    # an order of magnitude cheaper; the lens search refits hundreds of times per frame)
    _, vectors = np.linalg.eigh(weighted.T @ weighted)
    return vectors[:, 0].reshape(3, 3) @ t


def _residuals(g: np.ndarray, image_pts: np.ndarray, normals: np.ndarray, c: np.ndarray) -> np.ndarray:
    board = project(g, image_pts)
    return np.sum(board * normals, axis=1) - c


def _robust_fit(obs: _Observations, undistorted: np.ndarray, iterations: int = 4
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """IRLS (Tukey) fit; returns (G, residuals, weights)."""
    weights = np.ones(len(obs.c))
    rows, t = _design(undistorted, obs.normals, obs.c)
    g = _solve(rows, t, weights)
    res = _residuals(g, undistorted, obs.normals, obs.c)
    for _ in range(iterations):
        sigma = max(1.4826 * float(np.median(np.abs(res))), 0.01)
        scaled = res / (3.0 * sigma)
        weights = np.where(np.abs(scaled) < 1, (1 - scaled**2) ** 2, 0.0)
        g_new = _solve(rows, t, weights)
        if not np.all(np.isfinite(g_new)):
            break
        g = g_new
        res = _residuals(g, undistorted, obs.normals, obs.c)
    return g, res, weights


def _inner(obs: _Observations) -> _Observations:
    """The observations off the grid's outermost lines.

    The lens is judged on these alone when all lines together do not decide: where the board's
    double frame blurs into the grid's edge line, the edge is found a few hundredths of a spacing
    outwards all along, which is just what straight lines look like under barrel distortion, and it
    hides the bowing of every other line.
    """
    return obs.where(_edge_lines(obs) < 0)


def _edge_lines(obs: _Observations) -> np.ndarray:
    """Per observation: which outermost grid line it lies on (0..3: files 0 and 8, ranks 0 and 9), else -1."""
    ids = np.full(len(obs.c), -1)
    line = 0
    for axis, values in ((0, (0.0, 8.0)), (1, (0.0, 9.0))):
        along = np.abs(np.abs(obs.normals[:, axis]) - 1.0) < 1e-9
        for value in values:
            ids[along & (np.abs(obs.c) == value)] = line
            line += 1
    return ids


def _stray_edges(obs: _Observations, undistorted: np.ndarray) -> np.ndarray | None:
    """Which observations to keep when some edge lines were found outside where the inner lines put them.

    A faint edge line next to a heavy frame, blurred together, is found on the pair's common centre: a
    few hundredths of a spacing outwards along the whole line. Piece rims and hands scatter to both
    sides and the robust fit drops them; this one-sided shift it cannot tell from the truth. The inner
    lines, fitted alone, say where the edges should be; a line whose places sit more than
    ``_STRAY_EDGE`` outside that (by the median) is left out. ``None``: keep everything.
    """
    ids = _edge_lines(obs)
    inner = ids < 0
    if inner.sum() < 24:
        return None
    g, _, _ = _robust_fit(obs.where(inner), undistorted[inner], iterations=3)
    outward = np.sign(obs.c - obs.normals @ CENTRE) * _residuals(g, undistorted, obs.normals, obs.c)
    keep = np.ones(len(obs.c), dtype=bool)
    for line in range(4):
        on = ids == line
        if on.sum() >= 4 and float(np.median(outward[on])) > _STRAY_EDGE:
            keep &= ~on
    return None if keep.all() else keep


def _radial_costs(obs: _Observations, image_size: tuple[int, int], ks: np.ndarray) -> np.ndarray:
    """Per radial ``k``: the robust (clipped) mean squared line residual after refitting the homography
    with it (the IRLS of ``_robust_fit``, two reweightings).

    All ``k`` are fitted at once, as stacked arrays: the lens search tries a dozen ``k`` per window,
    and one at a time it was a fifth of the locator's time, mostly numpy's per-call overhead.
    """
    ks = np.asarray(ks, dtype=np.float64).reshape(-1)
    und = np.stack([RadialDistortion(float(k), image_size).undistort_points(obs.image) if k else obs.image
                    for k in ks])  # (K, N, 2)
    centre = und.mean(axis=1, keepdims=True)
    scale = np.sqrt(2.0) / np.maximum(np.mean(np.linalg.norm(und - centre, axis=2), axis=1), 1e-9)
    t = np.zeros((len(ks), 3, 3))
    t[:, 0, 0] = t[:, 1, 1] = scale
    t[:, :2, 2] = -scale[:, None] * centre[:, 0]
    t[:, 2, 2] = 1.0
    p = np.concatenate([und * scale[:, None, None] + t[:, None, :2, 2], np.ones(und.shape[:2] + (1,))], axis=2)
    rows = np.concatenate([obs.normals[None, :, 0:1] * p, obs.normals[None, :, 1:2] * p,
                           -obs.c[None, :, None] * p], axis=2)  # the rows of ``_design``, per k
    homogeneous = np.concatenate([und, np.ones(und.shape[:2] + (1,))], axis=2)

    def solve(weights: np.ndarray) -> np.ndarray:  # ``_solve`` per k
        weighted = rows * weights[:, :, None]
        _, vectors = np.linalg.eigh(weighted.transpose(0, 2, 1) @ weighted)
        return np.asarray(vectors[:, :, 0].reshape(-1, 3, 3) @ t)

    def residuals(g: np.ndarray) -> np.ndarray:  # ``_residuals`` per k
        mapped = homogeneous @ g.transpose(0, 2, 1)
        w = mapped[:, :, 2:3]
        far = np.abs(w) > _HORIZON_W  # points on the horizon come out as 0, as ``project`` gives them
        board = np.where(far, mapped[:, :, :2] * (1.0 / np.where(far, w, 1.0)), 0.0)
        return np.asarray(np.sum(board * obs.normals[None], axis=2) - obs.c[None])

    g = solve(np.ones((len(ks), len(obs.c))))
    res = residuals(g)
    for _ in range(2):
        sigma = np.maximum(1.4826 * np.median(np.abs(res), axis=1), 0.01)
        scaled = res / (3.0 * sigma[:, None])
        g_new = solve(np.where(np.abs(scaled) < 1, (1 - scaled**2) ** 2, 0.0))
        finite = np.all(np.isfinite(g_new), axis=(1, 2))  # a degenerate reweighting keeps the last fit
        g = np.where(finite[:, None, None], g_new, g)
        res = residuals(g)
    return np.asarray(np.mean(np.minimum(res**2, 0.03**2), axis=1))


def _fit_radial(obs: _Observations, image_size: tuple[int, int], k0: float) -> tuple[float, float, float]:
    """Best radial ``k`` near ``k0`` (grid, then a parabola); returns (k, its cost, the cost at k0)."""
    if len(obs.image) < 4:  # no line evidence left in this window (an arm across the board): nothing to fit
        return k0, math.inf, math.inf
    lo, hi = _K_RANGE
    ks = np.clip(k0 + np.array([-0.012, -0.006, 0.0, 0.006, 0.012]) if k0 else np.array([0.0, 0.01, 0.02, 0.035, 0.05, 0.07, 0.1]), lo, hi)
    ks = np.unique(np.r_[ks, k0])
    costs = _radial_costs(obs, image_size, ks)
    i = int(np.argmin(costs))
    k = float(ks[i])
    if 0 < i < len(ks) - 1:
        y0, y1, y2 = costs[i - 1], costs[i], costs[i + 1]
        denom = y0 - 2 * y1 + y2
        if denom > 0:
            step = ks[i + 1] - ks[i]
            k = float(np.clip(k + 0.5 * step * (y0 - y2) / denom, ks[i - 1], ks[i + 1]))
    cost = float(_radial_costs(obs, image_size, np.array([k]))[0])
    if cost > costs[i]:
        k, cost = float(ks[i]), float(costs[i])
    return k, cost, float(costs[list(ks).index(k0)])


def refine(response: np.ndarray, h: np.ndarray, strength: float, *, lens: Lens | None = None,
           fit_radial: bool = False, windows: tuple[float, ...] = (0.3, 0.18, 0.1, 0.06)) -> Refinement:
    """Refine board-to-image ``h`` against ``response`` with shrinking search windows (spacings).

    ``lens`` maps undistorted to source pixels; with ``fit_radial`` a radial distortion is estimated
    from the line evidence (refined at each window) and kept when it explains the lines clearly better.
    """
    image_size = (response.shape[1], response.shape[0])
    rms, inliers, found = 1.0, 0, 0
    for i, window in enumerate(windows):
        obs = _locate_lines(response, h, lens, window, strength)
        found = len(obs.c)
        if found < 24:
            log.debug("refine: only %d line places found at window %.2f", found, window)
            break
        und = lens.undistort_points(obs.image) if lens is not None else obs.image
        g, res, weights = _robust_fit(obs, und)
        if fit_radial and i >= 1:
            k0 = lens.k if isinstance(lens, RadialDistortion) else 0.0
            # a lens term is taken up (or changed) only when it clearly straightens the lines: all of
            # them, or else, when all of them lean towards more barrel, those off the edges (``_inner``)
            needed = 0.8 if k0 == 0.0 else 0.97
            k, cost, cost0 = _fit_radial(obs, image_size, k0)
            if k > k0 + 0.005 and not cost < needed * cost0:
                k, cost, cost0 = _fit_radial(_inner(obs), image_size, k0)
            if k != k0 and cost < needed * cost0:
                lens = RadialDistortion(k, image_size) if k > 0.002 else None
                und = lens.undistort_points(obs.image) if lens is not None else obs.image
                g, res, weights = _robust_fit(obs, und)
                log.debug("refine: radial k=%.4f (cost %.2e -> %.2e)", k, cost0, cost)
        kept = _stray_edges(obs, und)
        if kept is not None:
            g, res, weights = _robust_fit(obs.where(kept), und[kept])
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
