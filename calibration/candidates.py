"""Initial lattice hypotheses: candidate quadrilaterals, then 1D lattice fits in their rectified view.

The board's grid (with its frame and the pieces' rims touching it) is one large connected network of
thin strokes, so the convex hulls of the biggest stroke components give quadrilaterals around it --
the grid itself, its outer frame or the board's edge. Rectifying the line evidence through such a
quadrilateral makes the grid lines nearly axis-parallel; their column and row profiles then show 9
and 10 evenly spaced peaks, whose spacing and offset place the lattice inside the quadrilateral.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

log = logging.getLogger(__name__)

_CANVAS = 240  # long side of the rectified canvas, pixels
_PAD = 0.15  # canvas margin around the quadrilateral, as a fraction of its size


@dataclass(frozen=True)
class Hypothesis:
    """A board-to-image homography (in the detection image's pixels) and its profile-fit contrast."""

    h: np.ndarray
    contrast: float


def candidate_quads(response: np.ndarray, max_quads: int = 6) -> list[np.ndarray]:
    """Quadrilaterals (4x2 float arrays) around the most grid-like thin-stroke networks of ``response``.

    Components are ranked by size times *balance*: a grid has strokes in two directions, while wood
    grain, table stripes or cables run one way.
    """
    values = response[response > 2]
    if values.size < 100:
        return []
    thr = max(8.0, float(np.percentile(values, 80)))
    strokes = (response > thr).astype(np.uint8)
    gx = cv2.Sobel(response, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(response, cv2.CV_32F, 0, 1, ksize=3)
    magnitude, angle = cv2.cartToPolar(gx, gy, angleInDegrees=True)  # 0.3 degree accuracy: bins are 5
    angle = np.where(angle >= 180.0, angle - 180.0, angle)
    area_min = 0.004 * response.shape[0] * response.shape[1]
    ranked: list[tuple[float, np.ndarray]] = []
    for grow in (3, 9):
        binary = np.asarray(cv2.morphologyEx(strokes, cv2.MORPH_CLOSE, np.ones((grow, grow), np.uint8)),
                            dtype=np.uint8)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
        order = np.argsort(-stats[1:, cv2.CC_STAT_AREA]) + 1
        for label in order[:8]:
            x, y, w, h, area = stats[label]
            if w * h < area_min:
                break
            mask = labels[y:y + h, x:x + w] == label
            balance = _balance(angle[y:y + h, x:x + w][mask], magnitude[y:y + h, x:x + w][mask])
            inked = int(np.count_nonzero(strokes[y:y + h, x:x + w][mask]))
            contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            hull = cv2.convexHull(np.concatenate(contours).astype(np.float32) + np.array([x, y], np.float32))
            for quad in _quads_of_hull(hull):
                ranked.append((inked * balance**2, quad))
    ranked.sort(key=lambda item: -item[0])
    quads: list[np.ndarray] = list(_gridness_quads(gx, gy))
    for _, quad in ranked:
        if not any(same_quad(quad, q) for q in quads):
            quads.append(quad)
        if len(quads) >= max_quads:
            break
    return quads


def same_quad(a: np.ndarray, b: np.ndarray, tolerance: float = 4.0) -> bool:
    """Whether quads ``a`` and ``b`` (4x2) have the same corners within ``tolerance`` pixels, whichever
    corner each starts at and whichever way round it runs: the inner and outer edge of one outline,
    or a hull's 4-gon and its bounding box, are one quad however their corners were listed."""
    for turned in (b, b[::-1]):
        for shift in range(4):
            if np.abs(a - np.roll(turned, shift, axis=0)).max() < tolerance:
                return True
    return False


def outline_quads(gray: np.ndarray, max_quads: int = 3) -> list[np.ndarray]:
    """Quadrilaterals along the largest closed outlines of ``gray``: the board's own edge.

    Glare or blur can wash out most of the grid's thin lines while the board still stands out from
    the table as one large convex shape; its outline bounds the grid (the grid spans 55-100 % of it),
    so the comb fits inside it find the lattice's scale where the surviving lines alone would not.
    """
    smooth = cv2.GaussianBlur(gray, (0, 0), 1.5)
    # Canny's thinning breaks ties one way, so the picture turned half round gives edges a pixel
    # apart where they are faint, and the board's outline closed or not: the edges of both ways round
    turned = cv2.Canny(np.ascontiguousarray(smooth[::-1, ::-1]), 20, 60)[::-1, ::-1]
    edges = cv2.dilate(np.maximum(cv2.Canny(smooth, 20, 60), turned), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    area_min = 0.05 * gray.shape[0] * gray.shape[1]
    found: list[tuple[float, np.ndarray]] = []
    for contour in contours:
        hull = cv2.convexHull(contour)
        area = float(cv2.contourArea(hull))
        if area < area_min:
            continue
        quad = _hull_quad(hull, (0.02, 0.04, 0.06))
        if quad is not None and not any(same_quad(quad, q) for _, q in found):
            found.append((area, quad))
    found.sort(key=lambda item: -item[0])
    return [quad for _, quad in found[:max_quads]]


def _gridness_quads(gx: np.ndarray, gy: np.ndarray) -> list[np.ndarray]:
    """Quads around the largest region where strokes run two ways (structure tensor far from coherent)."""
    sigma = max(4.0, max(gx.shape) / 80)  # the long side: a turned picture gets the same smoothing
    # The tensor is smoothed over many pixels, so it is built on a copy reduced by ``step`` (area
    # averaging, then the rest of the blur): the same field sampled every ``step`` pixels, 10x cheaper.
    step = max(1, int(sigma // 2))
    reduced = (gx.shape[1] // step, gx.shape[0] // step)

    def smoothed(product: np.ndarray) -> np.ndarray:
        small = cv2.resize(product, reduced, interpolation=cv2.INTER_AREA) if step > 1 else product
        return np.asarray(cv2.GaussianBlur(small, (0, 0), float(np.sqrt(max(sigma**2 - step**2 / 4, 1.0))) / step))

    jxx, jyy, jxy = smoothed(gx * gx), smoothed(gy * gy), smoothed(gx * gy)
    trace = jxx + jyy
    gap = np.sqrt((jxx - jyy) ** 2 + 4 * jxy**2)
    gridness = trace - gap  # twice the smaller eigenvalue: large only where two directions meet
    peak = float(np.percentile(gridness, 99.5))
    if peak <= 0:
        return []
    out: list[np.ndarray] = []
    for level in (0.15, 0.3):
        mask = (gridness > level * peak).astype(np.uint8)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        if count < 2:
            continue
        label = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        if stats[label, cv2.CC_STAT_AREA] < 0.004 * mask.size:  # a fraction: the same at any step
            continue
        contours, _ = cv2.findContours((labels == label).astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(np.concatenate(contours).astype(np.float32))
        out.extend(_quads_of_hull(hull * step + (step - 1) / 2))  # back to the caller's pixels
    return out


def _balance(angle: np.ndarray, magnitude: np.ndarray) -> float:
    """Stroke energy across the dominant direction over energy along it (1 for a square grid, ~0 for stripes)."""
    if angle.size == 0:
        return 0.0
    hist, _ = np.histogram(angle, bins=36, range=(0.0, 180.0), weights=magnitude)
    smooth = hist + np.roll(hist, 1) + np.roll(hist, -1)
    top = int(np.argmax(smooth))
    across = smooth[(top + 18) % 36] + 0.5 * (smooth[(top + 16) % 36] + smooth[(top + 20) % 36])
    along = smooth[top] + 0.5 * (smooth[(top + 2) % 36] + smooth[(top - 2) % 36])
    return float(min(1.0, across / max(along, 1e-9)))


def _quads_of_hull(hull: np.ndarray) -> list[np.ndarray]:
    """A 4-gon approximating ``hull`` (when one fits) and the hull's minimum-area rectangle."""
    quad = _hull_quad(hull, (0.02, 0.04, 0.06, 0.09, 0.12))
    box = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)
    return ([] if quad is None else [quad]) + [box]


HULL_STARTS = 24  # points of a hull the polygon approximation is started from


def _hull_quad(hull: np.ndarray, fractions: tuple[float, ...]) -> np.ndarray | None:
    """The 4-gon of largest area that ``cv2.approxPolyDP`` makes of ``hull`` at the first tolerance
    (a fraction of its perimeter) that makes any, over several starting points; None when none does.

    The approximation splits a closed curve first at its starting point, so from one start a hull
    with a cut corner gives a 4-gon along the board's edge and from another five corners or three:
    the start is wherever the contour search met the shape first, and a tester's faint-lined board
    was outlined (and found) in one half of its turns and mirrors and not in the other. The first
    corner is the one of least x + y (compare quads with ``same_quad``, not corner by corner)."""
    points = hull.reshape(-1, 2)
    perimeter = cv2.arcLength(hull, True)
    step = max(1, len(points) // HULL_STARTS)
    for fraction in fractions:
        quads, fewer = [], True
        for start in range(0, len(points), step):
            approx = cv2.approxPolyDP(np.roll(points, -start, axis=0).reshape(-1, 1, 2), fraction * perimeter, True)
            fewer = fewer and len(approx) < 4
            if len(approx) == 4:
                quads.append(approx.reshape(4, 2).astype(np.float64))
        if quads:
            best = max(quads, key=lambda quad: (cv2.contourArea(quad.astype(np.float32)), -quad.sum()))
            return np.roll(best, -int(np.argmin(best.sum(axis=1))), axis=0)
        if fewer:  # coarser tolerances give fewer corners still
            break
    return None


def _fit_1d(profile: np.ndarray, n: int, span: float, *, low: float | None = None,
            high: float | None = None) -> tuple[float, float, float]:
    """Best (contrast, spacing, offset) of ``n`` evenly spaced peaks in ``profile`` (a comb search).

    The comb's total length runs from ``low`` to ``high`` (default 0.55 to 1.3 times ``span``).
    """
    length = len(profile)
    low = 0.55 * span if low is None else low
    high = 1.3 * span if high is None else high
    spacings = np.arange(low / (n - 1), high / (n - 1), 0.25 if high - low < 0.5 * span else 0.5)
    # Offsets are whole pixels, so each comb is one row of weights (+1/n on its teeth, -1/(n-1) midway
    # between them) slid along the profile: every comb at every offset is one matrix product.
    teeth = np.rint(spacings[:, None] * np.arange(n)).astype(np.intp)
    mids = np.rint(spacings[:, None] * (np.arange(n - 1) + 0.5)).astype(np.intp)
    reach = int(teeth.max()) + 1
    weights = np.zeros((len(spacings), reach))
    comb = np.arange(len(spacings))[:, None]
    np.add.at(weights, (np.broadcast_to(comb, teeth.shape), teeth), 1.0 / n)
    np.add.at(weights, (np.broadcast_to(comb, mids.shape), mids), -1.0 / (n - 1))
    windows = sliding_window_view(np.r_[profile, np.zeros(reach)], reach)[:length]
    offsets = np.arange(length)
    valid = offsets[None, :] + spacings[:, None] * (n - 1) <= length - 1
    score = np.where(valid, weights @ windows.T, -np.inf)
    i, j = np.unravel_index(int(np.argmax(score)), score.shape)
    return float(score[i, j]), float(spacings[i]), float(offsets[j])


def _fit_centred(profile: np.ndarray, n: int, span: float, start: float) -> tuple[float, float, float]:
    """Best (contrast, spacing, offset) of ``n`` evenly spaced peaks centred on the stretch of
    ``profile`` from ``start`` to ``start + span``, the comb 0.55 to 1 times as long as the stretch."""
    totals = np.arange(0.55 * span, span, 0.25)
    spacings = totals / (n - 1)
    offsets = start + (span - totals) / 2
    grid = np.arange(len(profile), dtype=np.float64)
    teeth = np.interp(offsets[:, None] + spacings[:, None] * np.arange(n), grid, profile).mean(axis=1)
    mids = np.interp(offsets[:, None] + spacings[:, None] * (np.arange(n - 1) + 0.5), grid, profile).mean(axis=1)
    best = int(np.argmax(teeth - mids))
    return float(teeth[best] - mids[best]), float(spacings[best]), float(offsets[best])


def hypotheses_from_quad(response: np.ndarray, quad: np.ndarray, *, centred: bool = False) -> list[Hypothesis]:
    """Both lattice orientations (9 files along the quad's first side, or 10) fitted inside ``quad``.

    With ``centred`` the lattice is centred in the quad and only its spacing is sought: for a quad
    along the board's own edge (:func:`outline_quads`), since boards are printed with the grid in the
    middle. Where glare or blur hides the lines at one end of the board, the free comb slides to the
    board's edge and to the lines it does see, a line or more off; centred, the lines left show the
    spacing and the outline the place.
    """
    side = [np.linalg.norm(quad[(i + 1) % 4] - quad[i]) for i in range(4)]
    w = float(0.5 * (side[0] + side[2]))
    h = float(0.5 * (side[1] + side[3]))
    if min(w, h) < 40:
        return []
    scale = _CANVAS / max(w, h)
    w, h = w * scale, h * scale
    pad = _PAD * max(w, h)
    dst = np.array([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]], dtype=np.float32)
    to_canvas = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    size = (int(w + 2 * pad), int(h + 2 * pad))
    canvas = cv2.warpPerspective(response, to_canvas, size, flags=cv2.INTER_LINEAR)
    run = max(5, int(0.25 * min(w / 8, h / 8)))
    vertical = cv2.morphologyEx(canvas, cv2.MORPH_OPEN, np.ones((run, 1), np.uint8))
    horizontal = cv2.morphologyEx(canvas, cv2.MORPH_OPEN, np.ones((1, run), np.uint8))
    cols = cv2.GaussianBlur(vertical.mean(axis=0).reshape(1, -1), (0, 0), 1.0).ravel()
    rows = cv2.GaussianBlur(horizontal.mean(axis=1).reshape(1, -1), (0, 0), 1.0).ravel()
    from_canvas = np.linalg.inv(to_canvas)
    out = []
    for nx, ny in ((9, 10), (10, 9)):
        if centred:
            (cx, sx, ox), (cy, sy, oy) = _fit_centred(cols, nx, w, pad), _fit_centred(rows, ny, h, pad)
        else:
            (cx, sx, ox), (cy, sy, oy) = _fit_1d(cols, nx, w), _fit_1d(rows, ny, h)
        if not (np.isfinite(cx) and np.isfinite(cy)) or sx <= 0 or sy <= 0:
            continue
        if nx == 9:
            m = np.array([[sx, 0.0, ox], [0.0, sy, oy], [0.0, 0.0, 1.0]])
        else:
            m = np.array([[0.0, sx, ox], [sy, 0.0, oy], [0.0, 0.0, 1.0]])
        contrast = min(cx / (cols.mean() + 1e-6), cy / (rows.mean() + 1e-6))
        out.append(Hypothesis(h=from_canvas @ m, contrast=float(contrast)))
    return out


def realign(response: np.ndarray, h: np.ndarray, scale: float = 16.0) -> np.ndarray:
    """Refit spacing and offset of both line families in the view rectified by board-to-image ``h``.

    A refined grid can sit on most of the file lines while being slid along them (or the other way):
    in its own rectified view the lines are axis-parallel, so the comb search over the whole profile
    puts the 9 and 10 lines back where the evidence is, globally.
    """
    margin = 2.0
    to_canvas = np.array([[scale, 0.0, margin * scale], [0.0, scale, margin * scale], [0.0, 0.0, 1.0]])
    size = (int((8 + 2 * margin) * scale), int((9 + 2 * margin) * scale))
    image_to_canvas = to_canvas @ np.linalg.inv(h)
    canvas = cv2.warpPerspective(response, image_to_canvas, size, flags=cv2.INTER_LINEAR)
    run = max(5, int(0.4 * scale))
    vertical = cv2.morphologyEx(canvas, cv2.MORPH_OPEN, np.ones((run, 1), np.uint8))
    horizontal = cv2.morphologyEx(canvas, cv2.MORPH_OPEN, np.ones((1, run), np.uint8))
    cols = cv2.GaussianBlur(vertical.mean(axis=0).reshape(1, -1), (0, 0), 1.0).ravel()
    rows = cv2.GaussianBlur(horizontal.mean(axis=1).reshape(1, -1), (0, 0), 1.0).ravel()
    _, sx, ox = _fit_1d(cols, 9, 8 * scale, low=0.85 * scale * 8, high=1.15 * scale * 8)
    _, sy, oy = _fit_1d(rows, 10, 9 * scale, low=0.85 * scale * 9, high=1.15 * scale * 9)
    m = np.array([[sx, 0.0, ox], [0.0, sy, oy], [0.0, 0.0, 1.0]])
    return np.asarray(h @ np.linalg.inv(to_canvas) @ m)
