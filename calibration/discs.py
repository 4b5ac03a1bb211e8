"""Lattices from the pieces: where the board's grid lines cannot be seen, its pieces still say where it is.

Motion blur, defocus or glare can wash out the thin grid lines while the round pieces, large and
contrasted, still show. Pieces stand on points, so their centres sample the lattice: their
directions, their spacing along each direction and their positions modulo a spacing. This module
finds the pieces' circles, fits a lattice through their centres and offers every placement of the
9x10 board that holds them all. It cannot tell those placements apart (nor which side is red's):
the caller confirms one by reading the pieces on it against the position it expects
(``recorder.session``), so these are never returned as a found board on their own.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.board import FILES, RANKS
from calibration.evidence import project, to_gray

MIN_DISCS = 8  # fewer pieces than this say too little of the lattice
_TOLERANCE = 0.18  # a centre this near (in spacings) a lattice position counts as on it


_SEARCHES = ((60.0, 20.0), (40.0, 18.0))  # (outline gradient, centre votes): clear outlines first, then softer


def piece_centres(frame: np.ndarray, spacing_range: tuple[float, float] | None = None,
                  search: tuple[float, float] = _SEARCHES[0]) -> tuple[np.ndarray, float]:
    """(n, 2) centres of piece-sized circles in ``frame`` and their usual radius, for grid spacings in
    ``spacing_range`` pixels (default: a board filling 25-95 % of the frame's shorter side).

    The pieces of a set are one size: a first search over every size finds the strongest circles,
    whose median radius then bounds a second search (circles of other sizes are wood grain, point
    marks, a clock's buttons). ``search`` is the outline gradient and the votes a circle needs."""
    gray = cv2.GaussianBlur(to_gray(frame), (5, 5), 1.5)
    short = min(gray.shape[:2])
    low, high = spacing_range or (0.25 * short / RANKS, 0.95 * short / (FILES - 1))
    edge, votes = search
    wide = cv2.HoughCircles(gray, cv2.HOUGH_GRADIENT, dp=1, minDist=0.7 * low, param1=edge, param2=votes,
                            minRadius=max(3, int(0.35 * low)), maxRadius=int(round(0.55 * high)))
    if wide is None or len(wide[0]) < MIN_DISCS:
        return np.zeros((0, 2)), 0.0
    radius = float(np.median(wide[0][:MIN_DISCS * 2, 2]))
    found = cv2.HoughCircles(gray, cv2.HOUGH_GRADIENT, dp=1, minDist=1.5 * radius, param1=edge, param2=votes,
                             minRadius=max(3, int(0.8 * radius)), maxRadius=int(round(1.2 * radius)) + 1)
    return (np.zeros((0, 2)) if found is None else np.asarray(found[0][:, :2], dtype=np.float64)), radius


PIECE_SHARE = 0.88  # a piece's diameter over the grid spacing, about (0.8-0.95 in the sets in use)


def _directions(centres: np.ndarray, step: float) -> np.ndarray | None:
    """The lattice's two unit directions (2x2, rows), from the pieces about one ``step`` apart."""
    diff = centres[:, None, :] - centres[None, :, :]
    dist = np.linalg.norm(diff, axis=-1)
    np.fill_diagonal(dist, np.inf)
    # steps of about one spacing between neighbours, folded to one half-plane
    pairs = np.argwhere((dist > 0.8 * step) & (dist < 1.25 * step))
    if len(pairs) < 4:
        return None
    vectors = diff[pairs[:, 0], pairs[:, 1]]
    angles = np.degrees(np.arctan2(vectors[:, 1], vectors[:, 0])) % 180.0
    hist, _ = np.histogram(angles, bins=36, range=(0.0, 180.0))
    smooth = hist + np.roll(hist, 1) + np.roll(hist, -1)
    first = int(np.argmax(smooth))
    away = np.abs(((np.arange(36) - first + 18) % 36) - 18) >= 8  # at least 40 degrees from the first
    second = int(np.argmax(np.where(away, smooth, -1)))
    out: list[np.ndarray | None] = []
    for peak in (first, second):
        near = np.abs(((angles - (peak + 0.5) * 5.0 + 90.0) % 180.0) - 90.0) <= 7.5
        if near.sum() == 0 or (peak == second and smooth[second] < 0.15 * smooth[first]):
            out.append(None)
            continue
        folded = np.where(((vectors[near] @ np.array([np.cos(np.radians(peak * 5.0)),
                                                          np.sin(np.radians(peak * 5.0))])) < 0)[:, None],
                          -vectors[near], vectors[near])
        mean = folded.mean(axis=0)
        out.append(mean / np.linalg.norm(mean))
    along, across = out
    if along is None:
        return None
    if across is None:  # no neighbours across: a square grid seen from above
        across = np.array([-along[1], along[0]])
    return np.stack([along, across])


def _comb(values: np.ndarray, step: float) -> tuple[float, float]:
    """Spacing and offset of the evenly spaced positions most ``values`` lie on (spacings 0.75-1.3 ``step``)."""
    best = (-1.0, step, 0.0)
    for spacing in np.linspace(0.75 * step, 1.3 * step, 45):
        phase = (values / spacing) % 1.0
        for offset in np.linspace(0.0, 1.0, 20, endpoint=False):
            off = np.abs(((phase - offset + 0.5) % 1.0) - 0.5)
            hits = float(np.sum(np.clip(1.0 - off / _TOLERANCE, 0.0, 1.0)))
            if hits > best[0]:
                best = (hits, float(spacing), float(offset * spacing))
    return best[1], best[2]


def _fit(centres: np.ndarray, labels: np.ndarray) -> np.ndarray | None:
    """The homography taking integer lattice labels to the centres, least squares (None if degenerate)."""
    if len(np.unique(labels[:, 0])) < 2 or len(np.unique(labels[:, 1])) < 2:
        return None
    h, _ = cv2.findHomography(labels.astype(np.float64), centres, 0)
    return None if h is None or not np.all(np.isfinite(h)) else np.asarray(h)


def disc_lattices(frame: np.ndarray, max_lattices: int = 12) -> list[np.ndarray]:
    """Board-to-image homographies of the 9x10 board placed every way over the pieces found (both
    orientations of 9 files and 10 ranks, each shift), those holding more of them first (a circle
    off the board, on a clock or the table, is left out by the windows that hold the rest); [] when
    too few pieces show, or they do not lie on one lattice."""
    for search in _SEARCHES:  # a blurred outline is soft: the softer search when the first finds no lattice
        centres, radius = piece_centres(frame, search=search)
        if len(centres) < MIN_DISCS:
            continue
        placed = [found for step in _steps(centres, radius) for found in _lattices(centres, step)]
        # the windows holding most pieces first, of those the ones the pieces spread evenly over
        placed.sort(key=lambda item: (-item[0], item[1]))
        chosen: list[np.ndarray] = []
        for _, _, h in placed:
            if not any(_same(h, other) for other in chosen):  # the same placement from another step
                chosen.append(h)
                if len(chosen) == max_lattices:
                    break
        if chosen:
            return chosen
    return []


def _steps(centres: np.ndarray, radius: float) -> list[float]:
    """Guesses at the grid spacing in pixels: from the pieces' size (blur makes a piece look larger
    than it is, so a smaller guess too), and from the distance between pieces that stand side by side."""
    dist = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=-1)
    np.fill_diagonal(dist, np.inf)
    nearest = np.sort(dist, axis=1)[:, 0]
    return [2.0 * radius / PIECE_SHARE, 2.0 * radius / (1.25 * PIECE_SHARE), float(np.percentile(nearest, 25))]


def _same(h: np.ndarray, other: np.ndarray) -> bool:
    """Do two board-to-image homographies put every point within a fifth of a spacing of the other's?"""
    grid = np.array([[u, v] for u in (0.0, 8.0) for v in (0.0, 9.0)])
    a, b = project(h, grid), project(other, grid)
    spacing = float(np.linalg.norm(project(h, np.array([[1.0, 0.0]])) - project(h, np.array([[0.0, 0.0]]))))
    return bool(np.max(np.linalg.norm(a - b, axis=1)) < 0.2 * spacing)


def _lattices(centres: np.ndarray, step: float) -> list[tuple[int, float, np.ndarray]]:
    """The board's placements over these circle centres for a spacing of about ``step`` pixels: (the
    pieces it holds, how unevenly they spread over it, its board-to-image homography)."""
    if len(centres) < MIN_DISCS or step <= 0:
        return []
    axes = _directions(centres, step)
    if axes is None:
        return []
    normal = np.linalg.inv(axes.T)  # image offset -> lattice coordinates along the two directions
    coords = (centres - centres.mean(axis=0)) @ normal.T
    spacing_u, offset_u = _comb(coords[:, 0], step)
    spacing_v, offset_v = _comb(coords[:, 1], step)
    lattice = np.c_[(coords[:, 0] - offset_u) / spacing_u, (coords[:, 1] - offset_v) / spacing_v]
    labels = np.rint(lattice)
    on = np.all(np.abs(lattice - labels) <= 0.3, axis=1)
    h = None
    for _ in range(3):  # refit with perspective, relabel from it
        if on.sum() < MIN_DISCS:
            return []
        h = _fit(centres[on], labels[on])
        if h is None:
            return []
        back = project(np.linalg.inv(h), centres)
        labels = np.rint(back)
        on = np.all(np.abs(back - labels) <= 0.3, axis=1)
    assert h is not None
    used = labels[on]
    low = used.min(axis=0)
    extent = used.max(axis=0) - low
    placed: list[tuple[int, float, np.ndarray]] = []
    for files_along_u in (True, False):
        width, height = (FILES - 1, RANKS - 1) if files_along_u else (RANKS - 1, FILES - 1)
        for du in range(-width, int(extent[0]) + 1):
            for dv in range(-height, int(extent[1]) + 1):
                origin = low + np.array([du, dv])
                inside = np.all((used >= origin) & (used <= origin + [width, height]), axis=1)
                if inside.sum() < MIN_DISCS:
                    continue
                # board (file, rank) -> lattice label: files along u (or v), from the window's corner
                to_label = (np.array([[1.0, 0.0, origin[0]], [0.0, 1.0, origin[1]], [0.0, 0.0, 1.0]]) if files_along_u
                            else np.array([[0.0, 1.0, origin[0]], [1.0, 0.0, origin[1]], [0.0, 0.0, 1.0]]))
                spread = float(np.abs(used[inside].mean(axis=0) - origin - [width / 2, height / 2]).sum())
                placed.append((-int(inside.sum()), spread, h @ to_label))
    return [(-count, spread, hom / hom[2, 2]) for count, spread, hom in placed]
