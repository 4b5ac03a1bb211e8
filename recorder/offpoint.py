"""Where each piece really stands: circles found on the rectified board, as offsets from the points.

Xiangqi pieces are discs, so on the top-down (rectified) board each one is a circle of about 0.45
grid spacings radius. ``piece_offsets`` finds the circles (OpenCV's Hough transform, ~10 ms) and
gives, for each of the 90 points, the offset of the nearest circle centre in grid spacings (NaN
where none lies within ``reach``). The classifier says *what* stands near a point; this says
*where*: a piece knocked halfway between points (art. 5.9) still reads as its piece but sits
0.3 spacings or more off its point. The parallax of the piece tops (an affine field over the board)
is fitted and taken off before one piece is judged.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from recorder.vision import rectified_layout, square_centres

log = logging.getLogger(__name__)


class ParallaxMemory:
    """The parallax fields of the last ``views`` still views of one camera pose, for ``piece_offsets``.

    One view's field is fitted to each piece's strongest circle, and when most pieces' strongest
    circles are their side walls rather than their tops, that view's field follows the walls; the
    pieces whose tops were found then read 0.2-0.4 spacings off their points although nothing
    moved. The camera stands still between calibrations, so the median of recent fields is the
    steadier guide to where the tops are. Clear it when the board is calibrated again.
    """

    def __init__(self, views: int = 15) -> None:
        self._fields: deque[np.ndarray] = deque(maxlen=views)

    def steady(self, field: np.ndarray) -> np.ndarray:
        """Remember this view's (90, 2) ``field``; the median field of the recent views."""
        self._fields.append(np.asarray(field, dtype=np.float64))
        return np.asarray(np.median(np.stack(self._fields), axis=0))

    def clear(self) -> None:
        """Forget the fields (the camera or the board moved)."""
        self._fields.clear()


def piece_offsets(rectified: np.ndarray, spacing: float, margin: float, *, reach: float = 0.8,
                  parallax: ParallaxMemory | None = None, occupied: np.ndarray | None = None) -> np.ndarray:
    """(90, 2) offsets of the nearest disc to each point (see :func:`find_discs`, whose offsets these are)."""
    return find_discs(rectified, spacing, margin, reach=reach, parallax=parallax, occupied=occupied).offsets


@dataclass(frozen=True)
class Discs:
    """The discs found on one view: ``offsets`` (90, 2) as :func:`find_discs` gives them, and ``faint``
    (90,) the points whose disc is a faint circle taken because the classifier read a piece there.
    A faint disc measures where a piece stands, but is no evidence that one stands there: it was
    looked for only where the classifier said so (see ``fuse_discs``). ``field`` (90, 2) is where
    each point's piece top stands off the point (the parallax field, see ``residual_offsets``), None
    when too few discs were found to fit it."""

    offsets: np.ndarray
    faint: np.ndarray
    field: np.ndarray | None = None


def find_discs(rectified: np.ndarray, spacing: float, margin: float, *, reach: float = 0.8,
               parallax: ParallaxMemory | None = None, occupied: np.ndarray | None = None,
               blind: np.ndarray | None = None) -> Discs:
    """The discs on a rectified board: for each point the offset (file, rank directions, in spacings)
    of the nearest disc (NaN if none), and which of them are faint circles taken for ``occupied``.

    Rows are ``rules`` squares (``rank * 9 + file``); ``spacing``/``margin`` are the rectified layout
    (pixels per spacing, border in spacings), rank 9 at the top as ``BoardGeometry.rectify`` makes it.

    A piece seen from the side shows two circles: its top face, and the outline of its side wall
    and shadow, which the circle search can prefer. The tops of all pieces stand off their points
    alike (the parallax field, see ``residual_offsets``), so when one of the circles found on a piece
    lies where the other pieces' field puts its top, that circle is taken: the side wall no longer
    passes for a piece 0.3 spacings off its point, and a knocked piece, none of whose circles is
    near its point, still is. With ``parallax`` the field is the median of recent views' fits.

    ``occupied`` (90 booleans, e.g. what the classifier reads) names the points a piece stands near:
    where the search found no circle near one of them, a fainter circle on a contrast-equalised copy
    is taken (a pale piece on a pale board, whose outline is too weak for the search, and which
    would otherwise go unmeasured when knocked); failing that, a circle on the point's own patch
    (:func:`_search_patches`). Only those points get one, so a faint outline on
    a point read as empty (wood grain, a cross mark) is never measured as a piece; and since such a
    disc was looked for only where the classifier read a piece, it is marked (``Discs.faint``) and
    is no evidence for that reading. ``blind`` (90 booleans) names the points glare washes out (the
    recorder: ``GLARE_NO_PATCH`` of their square or more): their own patch is not searched
    (:func:`_search_patches`), since equalising a washed patch turns the board's lines into a circle.
    """
    gray = rectified if rectified.ndim == 2 else cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY)
    gray = cv2.GaussianBlur(gray, (5, 5), 1.5)
    every = _circles(gray, spacing, edge=60)  # strongest first
    out = np.full((90, 2), np.nan)
    faint = np.zeros(90, dtype=bool)
    if not len(every):
        return Discs(out, faint)
    primary: list[int] = []  # one circle per piece: the strongest, none within _PIECE_GAP of another
    for index, centre in enumerate(every):
        if all(np.hypot(*(centre - every[kept])) >= _PIECE_GAP * spacing for kept in primary):
            primary.append(index)
    squares = np.arange(90)
    px, py = square_centres(spacing, margin)
    dx = (every[None, :, 0] - px[:, None]) / spacing  # every circle from every point, in spacings
    dy = -(every[None, :, 1] - py[:, None]) / spacing  # image y grows downwards, ranks upwards
    chosen = np.array(primary)
    dist = np.hypot(dx[:, chosen], dy[:, chosen])
    nearest = chosen[np.argmin(dist, axis=1)]
    close = dist.min(axis=1) <= reach
    out[close, 0] = dx[squares, nearest][close]
    out[close, 1] = dy[squares, nearest][close]
    faint_circles: list[np.ndarray] = []  # the equalised copy's circles, searched once when first needed
    if occupied is not None:
        faint = _fill_faint(out, gray, faint_circles, every[chosen], np.asarray(occupied, dtype=bool), spacing, px, py,
                            reach)
    if (~np.isnan(out[:, 0])).sum() < 3:
        return Discs(out, faint)
    field = _parallax_field(out)
    if parallax is not None:
        field = parallax.steady(field)
    for sq in np.flatnonzero(close):
        # a circle where this piece's top should be is its top face, however far the strongest outline
        # (a wall and its shadow together) lies from it
        miss = np.hypot(dx[sq] - field[sq, 0], dy[sq] - field[sq, 1])
        best = int(np.argmin(miss))
        if miss[best] <= _ON_FIELD:
            out[sq] = (dx[sq, best], dy[sq, best])
    if occupied is not None:
        _crowded(out, faint, every, every[chosen], spacing, px, py, field, np.asarray(occupied, dtype=bool))
    _look_closer(out, gray, faint_circles, spacing, px, py, field)
    if occupied is not None:
        # an occupied point measured only by a circle further from where its top should be than a
        # knocked piece lies is not measured by it: the piece's own outline went unfound, and the
        # circle is a palace line's or a neighbour's (fresh bench s990000 clean-015 and clean-030: an
        # advisor and a soldier read 0.79 and 0.77 off their points, on views where the search found
        # no circle on them). Its own patch is searched as for a point with no disc
        astray = np.asarray(occupied, dtype=bool) & ~faint & (
            np.hypot(out[:, 0] - field[:, 0], out[:, 1] - field[:, 1]) > _KNOCK_REACH)  # NaN compares False
        out[astray] = np.nan
        searched = np.asarray(occupied, dtype=bool) if blind is None else np.asarray(occupied, dtype=bool) & ~blind
        _search_patches(out, faint, gray, every[chosen], searched, spacing, px, py, field)
    return Discs(out, faint, field)


def _circles(gray: np.ndarray, spacing: float, edge: float, votes: int = 20) -> np.ndarray:
    """(n, 2) centres of the piece-sized circles on a smoothed grey board, strongest first; ``edge``
    is the gradient an outline needs (the Canny threshold), ``votes`` the accumulator count a centre needs."""
    found = cv2.HoughCircles(gray, cv2.HOUGH_GRADIENT, dp=1, minDist=spacing * _CANDIDATE_GAP, param1=edge,
                             param2=votes, minRadius=int(spacing * 0.35), maxRadius=int(round(spacing * 0.55)))
    return np.zeros((0, 2)) if found is None else np.asarray(found[0][:, :2], dtype=np.float64)


def _faint_circles(smooth: np.ndarray, cache: list[np.ndarray], spacing: float) -> np.ndarray:
    """Circles on the smoothed board with its local contrast equalised (faint outlines show), searched
    once per view: ``cache`` keeps them for the second use."""
    if not cache:
        equalised = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8)).apply(smooth)
        cache.append(_circles(equalised, spacing, edge=_FAINT_EDGE))
    return cache[0]


def _fill_faint(out: np.ndarray, smooth: np.ndarray, cache: list[np.ndarray], found: np.ndarray,
                occupied: np.ndarray, spacing: float, px: np.ndarray, py: np.ndarray, reach: float) -> np.ndarray:
    """Give the ``occupied`` points without a disc the nearest faint circle within ``reach``, in place;
    (90,) the points given one.

    Only circles at least 0.7 spacings from every circle ``found`` already are pieces of their own
    (nearer, they are a found piece's outline again). An occupied point whose nearest disc lies
    further than a side wall's outline (``_WALL_REACH``) takes a faint circle found right on it
    (``_FAINT_ON_POINT``) instead: the search can miss a pale piece's outline and find a circle
    between it and its neighbour (a render with a new seed: a pale soldier at the board's edge read 0.72
    spacings off its point as a piece came to stand beside it), while a knocked piece's own
    circles lie where it went, not on the point it left."""
    filled = np.zeros(90, dtype=bool)
    far = np.hypot(out[:, 0], out[:, 1]) > _WALL_REACH  # NaN (no disc) compares False
    missing = np.flatnonzero(occupied & (np.isnan(out[:, 0]) | far))
    if not len(missing):
        return filled
    faint = _apart(_faint_circles(smooth, cache, spacing), found, spacing)
    if not len(faint):
        return filled
    for sq in missing:
        fx = (faint[:, 0] - px[sq]) / spacing
        fy = -(faint[:, 1] - py[sq]) / spacing
        distance = np.hypot(fx, fy)
        best = int(np.argmin(distance))
        if distance[best] <= (_FAINT_ON_POINT if far[sq] else reach):
            out[sq] = (fx[best], fy[best])
            filled[sq] = True
    return filled


def _crowded(out: np.ndarray, faint: np.ndarray, every: np.ndarray, primary: np.ndarray, spacing: float,
             px: np.ndarray, py: np.ndarray, field: np.ndarray, occupied: np.ndarray) -> None:
    """Give the ``occupied`` points still without a disc, in place, a circle of the search that the
    one-circle-per-piece rule dropped for a neighbour's, marking them ``faint``.

    The search keeps one circle per piece, the strongest, and drops every circle within
    ``_PIECE_GAP`` of it as that piece's outline again. Two pieces pushed against each other, each a
    little off its point towards the other, can be measured closer than that (their centres 0.69
    apart): the weaker piece's own circle was dropped, its point then measured by a skewed circle of
    its own patch and raised as knocked (whole-game bench s960000-clean-011: a red advisor nudged
    0.19 towards its general, measured 0.31 off). A dropped circle is this point's piece when it
    lies further from every kept circle than a side wall's outline lies from its top
    (``_WALL_GAP``), within ``_KNOCK_REACH`` of where this point's top should be (the parallax
    ``field``), and nearer this point than any other occupied one; of several, the one nearest
    where the top should be. A knocked piece's own circles lie where it went, so it is still
    measured off its point. ``every`` are the search's circles (pixels), ``primary`` the kept ones.
    Like a faint circle it is taken only because the classifier reads a piece there, so it is no
    evidence for that reading (``fuse_discs``).
    """
    missing = np.flatnonzero(occupied & np.isnan(out[:, 0]))
    if not len(missing) or not len(every):
        return
    gap = np.hypot(every[:, None, 0] - primary[None, :, 0], every[:, None, 1] - primary[None, :, 1]).min(axis=1)
    dropped = every[gap >= _WALL_GAP * spacing]
    if not len(dropped):
        return
    files, ranks = np.arange(90) % 9, np.arange(90) // 9
    others = np.flatnonzero(occupied)
    for sq in missing:
        fx = (dropped[:, 0] - px[sq]) / spacing
        fy = -(dropped[:, 1] - py[sq]) / spacing
        at_f, at_r = files[sq] + fx, ranks[sq] + fy
        to_others = np.hypot(at_f[:, None] - files[others][None, :], at_r[:, None] - ranks[others][None, :])
        to_others[:, others == sq] = np.inf
        miss = np.hypot(fx - field[sq, 0], fy - field[sq, 1])
        own = (miss <= _KNOCK_REACH) & (np.hypot(fx, fy) < to_others.min(axis=1, initial=np.inf))
        if own.any():
            best = int(np.flatnonzero(own)[np.argmin(miss[own])])
            out[sq] = (fx[best], fy[best])
            faint[sq] = True


def _search_patches(out: np.ndarray, faint: np.ndarray, smooth: np.ndarray, found: np.ndarray,
                    occupied: np.ndarray, spacing: float, px: np.ndarray, py: np.ndarray, field: np.ndarray) -> None:
    """Measure, in place, the ``occupied`` points still without a disc on their own patch
    (:func:`_circles_near`), marking them ``faint``: a circle where the point's top should be (the
    parallax ``field``) is its piece standing there; else the strongest within ``_KNOCK_REACH`` of
    that place is its piece knocked off it. Only where the board-wide search found a piece within
    ``_SEEN_AROUND`` spacings: where it saw none (glare washing a patch out) a patch's own contrast
    makes circles of the board's texture.

    Fresh bench inject-010: a white soldier knocked 0.43 spacings onto the river's characters between
    a horse and a chariot, which neither board-wide search found. Further off than ``_KNOCK_REACH``
    a patch's circles were texture or a neighbour's edge (0.72-0.78 off on a standing bench's pale
    general and soldier, false knocks); a piece knocked that far stands nearer another point.
    """
    missing = np.flatnonzero(occupied & np.isnan(out[:, 0]))
    for sq in missing:
        if not len(found) or np.hypot(found[:, 0] - px[sq], found[:, 1] - py[sq]).min() > _SEEN_AROUND * spacing:
            continue
        circles = _apart(_circles_near(smooth, px[sq], py[sq], spacing), found, spacing)
        if not len(circles):
            continue
        fx = (circles[:, 0] - px[sq]) / spacing
        fy = -(circles[:, 1] - py[sq]) / spacing
        miss = np.hypot(fx - field[sq, 0], fy - field[sq, 1])
        on_top = np.flatnonzero(miss <= _ON_FIELD)
        knocked = np.flatnonzero(miss <= _KNOCK_REACH)
        if len(on_top):
            best = int(on_top[np.argmin(miss[on_top])])
        elif len(knocked):
            best = int(knocked[0])  # the strongest: a knocked piece's weaker circles scatter, some towards the point
        else:
            continue
        out[sq] = (fx[best], fy[best])
        faint[sq] = True


def _apart(circles: np.ndarray, found: np.ndarray, spacing: float) -> np.ndarray:
    """The ``circles`` at least 0.7 spacings from every circle ``found`` (nearer, they are a found
    piece's outline again)."""
    if not len(circles) or not len(found):
        return circles
    gap = np.hypot(circles[:, None, 0] - found[None, :, 0], circles[:, None, 1] - found[None, :, 1]).min(axis=1)
    return circles[gap >= 0.7 * spacing]


def _circles_near(smooth: np.ndarray, x: float, y: float, spacing: float) -> np.ndarray:
    """Circles on the smoothed board within 1.3 spacings of (``x``, ``y``), found on that patch with
    its own contrast equalised: a pale piece knocked onto the river's characters between two
    neighbours shows no outline the board-wide search finds (its tiles' contrast is set by the
    neighbours and the ink), while on its own patch it does."""
    half = int(round(1.3 * spacing))
    left, top = max(0, int(round(x)) - half), max(0, int(round(y)) - half)
    patch = smooth[top:int(round(y)) + half + 1, left:int(round(x)) + half + 1]
    if min(patch.shape[:2]) < spacing:
        return np.zeros((0, 2))
    equalised = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(2, 2)).apply(patch)
    return _circles(equalised, spacing, edge=_FAINT_EDGE, votes=_NEAR_VOTES) + (left, top)


def _look_closer(out: np.ndarray, smooth: np.ndarray, cache: list[np.ndarray], spacing: float, px: np.ndarray,
                 py: np.ndarray, field: np.ndarray) -> None:
    """Take for the pieces measured off where their tops should be a faint circle found there, in place.

    A pale top on a pale board has edges too weak for the search, which then measures the piece by
    its darker side wall, a third of a spacing away, as if knocked. On a copy with its local contrast
    equalised the top shows. This only moves a measurement within ``_WALL_REACH`` of a point to where
    its top should be, so it can clear a piece but not raise one; the faint circles of a knocked piece scatter about a
    tenth of a spacing, so only one within ``_FAINT_ON_FIELD`` of the top's place is taken. Where the
    board-wide copy finds none there, the point's own patch is searched (:func:`_circles_near`): a
    full-length game's elephant, crowded by three pieces in its file, was measured by its side wall
    0.37 spacings off, its top found only on its patch.
    """
    miss = np.hypot(out[:, 0] - field[:, 0], out[:, 1] - field[:, 1])
    # NaN (no disc) compares False; a disc further than a wall's outline lies from its point is a
    # neighbour's, and an empty point must not be given a faint disc of its own
    doubtful = np.flatnonzero((miss > _ON_FIELD) & (np.hypot(out[:, 0], out[:, 1]) < _WALL_REACH))
    if not len(doubtful):
        return
    faint = _faint_circles(smooth, cache, spacing)
    for sq in doubtful:
        for circles in (faint, None):  # the board-wide copy first; failing that, the point's own patch
            if circles is None:
                circles = _circles_near(smooth, px[sq], py[sq], spacing)
            if not len(circles):
                continue
            fx = (circles[:, 0] - px[sq]) / spacing
            fy = -(circles[:, 1] - py[sq]) / spacing
            near = np.hypot(fx - field[sq, 0], fy - field[sq, 1])
            if near.min() <= _FAINT_ON_FIELD:
                best = int(np.argmin(near))
                out[sq] = (fx[best], fy[best])
                break


_PIECE_GAP = 0.7  # spacings: circles nearer a stronger one than this are taken for its piece's outline again
_WALL_GAP = 0.5  # spacings: a piece's side wall (and its shadow) lies no further than this from its top (0.44 seen)
_SEEN_AROUND = 1.5  # spacings: a point's own patch is searched only with a circle found this near it
_KNOCK_REACH = 0.6  # spacings from where its top should be: a patch's circle further off is no piece of this point
_NEAR_VOTES = 15  # the votes a centre needs on one point's patch (20 board-wide: found on some patches, missed
# on others a pixel over)
_FAINT_EDGE = 40  # the gradient a faint outline needs on the equalised copy (the search's own: 60)
_CANDIDATE_GAP = 0.1  # spacings between circle centres the search may return (several per piece)
_FAINT_ON_FIELD = 0.15  # spacings: the same for a faint circle (a knocked piece's own faint circles scatter
# 0.1 either way, and one 0.25 from where the top should be can still be the knocked piece)
_ON_FIELD = 0.25  # spacings: a circle this near the field is the top (at the edge the fit misses tops by 0.2;
# the cost: a piece knocked only 0.3 off can have its circle taken for its top and go unflagged)
_WALL_REACH = 0.6  # spacings: a side wall's outline lies no further than this from its piece's point
_FAINT_ON_POINT = 0.2  # spacings: a faint circle this near a point is a piece standing on it


def parallax_field(offsets: np.ndarray, min_pieces: int = 8) -> np.ndarray | None:
    """(90, 2) where each square's piece top stands off its point (file, rank directions, spacings),
    fitted over the discs ``piece_offsets`` found; None with fewer than ``min_pieces`` discs."""
    if int((~np.isnan(offsets[:, 0])).sum()) < min_pieces:
        return None
    return _parallax_field(offsets)


def _parallax_field(offsets: np.ndarray) -> np.ndarray:
    """(90, 2) the offset every square's piece top would show, from the discs found (see ``_affine_fit``)."""
    rows = np.flatnonzero(~np.isnan(offsets[:, 0]))
    squares = np.arange(90)
    coef = _affine_fit(rows, offsets[rows], iterations=3)
    if coef is None:
        return np.tile(np.median(offsets[rows], axis=0), (90, 1))
    return np.asarray(np.c_[squares % 9, squares // 9, np.ones(90)] @ coef)


def _affine_fit(rows: np.ndarray, values: np.ndarray, iterations: int) -> np.ndarray | None:
    """(3, 2) affine coefficients of ``values`` over the squares' (file, rank), refitted without the
    pieces more than 0.2 spacings off the fit; ``None`` with fewer than 8 pieces, or too few near the fit."""
    if len(rows) < 8:
        return None
    design = np.c_[rows % 9, rows // 9, np.ones(len(rows))].astype(np.float64)
    keep = np.ones(len(rows), dtype=bool)
    coef = None
    for _ in range(iterations):
        trial, *_ = np.linalg.lstsq(design[keep], values[keep], rcond=None)
        fits = np.hypot(*(values - design @ trial).T) < 0.2
        if fits.sum() < 6:  # most pieces off any one plane: not a parallax field
            break
        coef, keep = np.asarray(trial), fits
    return coef


def own_discs(offsets: np.ndarray, occupied: np.ndarray) -> np.ndarray:
    """``offsets`` with NaN where the nearest disc lies nearer another occupied point than this one.

    Where the circle search missed a piece's own disc, the nearest disc it found can be a
    neighbour's, most of a spacing away; that disc belongs to the neighbour and says nothing about
    where this piece stands.
    """
    out = np.array(offsets, dtype=np.float64, copy=True)
    rows = np.flatnonzero(~np.isnan(out[:, 0]))
    others = np.flatnonzero(occupied)
    if len(rows) == 0 or len(others) == 0:
        return out
    files, ranks = np.arange(90) % 9, np.arange(90) // 9
    disc_f = files[rows] + out[rows, 0]
    disc_r = ranks[rows] + out[rows, 1]
    to_others = np.hypot(disc_f[:, None] - files[others][None, :], disc_r[:, None] - ranks[others][None, :])
    to_others[rows[:, None] == others[None, :]] = np.inf
    own = np.hypot(out[rows, 0], out[rows, 1])
    out[rows[to_others.min(axis=1) < own]] = np.nan
    return out


def residual_offsets(offsets: np.ndarray, occupied: np.ndarray) -> np.ndarray:
    """(90, 2) offsets of the occupied squares' discs less what the whole board's pieces share (NaN elsewhere).

    Piece tops seen from a camera that is not straight above stand off their feet by an amount that
    grows linearly with the distance from the camera's foot point, so the offsets of all pieces are
    fitted by an affine function of the position (least squares, refitted without the pieces far
    off it; the median with fewer than 8 pieces) and the fit is taken off.
    """
    out = np.full((90, 2), np.nan)
    offsets = own_discs(offsets, occupied)
    rows = np.flatnonzero(occupied & ~np.isnan(offsets[:, 0]))
    if len(rows) < 3:
        return out
    values = offsets[rows]
    coef = _affine_fit(rows, values, iterations=2)
    if coef is None:
        out[rows] = values - np.median(values, axis=0)
    else:
        out[rows] = values - np.c_[rows % 9, rows // 9, np.ones(len(rows))] @ coef
    return out


def off_point(offsets: np.ndarray, occupied: np.ndarray, threshold: float,
              reference: np.ndarray | None = None, threshold_new: float | None = None,
              moved_threshold: float | None = None) -> dict[int, float]:
    """Occupied squares whose disc stands ``threshold`` spacings or more off the point, with the distance.

    With ``reference`` (residual offsets of the same squares in an earlier still view, NaN where the
    square was empty or changed), a piece must also have moved ``moved_threshold`` (default
    ``threshold``) since then, which
    keeps a slightly wrong calibration (the same error on every view) from raising alerts; pieces
    without a reference are judged by their residual against ``threshold_new`` (default ``threshold``).
    """
    residual = residual_offsets(offsets, occupied)
    found: dict[int, float] = {}
    for index in np.flatnonzero(~np.isnan(residual[:, 0])):
        sq = int(index)
        distance = float(np.hypot(*residual[sq]))
        if reference is not None and not np.isnan(reference[sq, 0]):
            moved = float(np.hypot(*(residual[sq] - reference[sq])))
            if moved >= (moved_threshold or threshold) and distance >= threshold:
                found[sq] = distance
        elif distance >= (threshold_new or threshold):
            found[sq] = distance
    return found


DISC_NEAR = 0.35  # spacings: a disc centred this close to a point stands on it
GLARE_NO_PATCH = 0.6  # share of a point's square blown out past which its own patch is not searched
MIN_DISCS = 4  # fewer discs found on a picture: the circle search failed there, its discs say nothing


def fuse_discs(probs: np.ndarray, offsets: np.ndarray, ratio: float, *, near: float = DISC_NEAR,
               min_discs: int = MIN_DISCS, blind: np.ndarray | None = None,
               faint: np.ndarray | None = None, field: np.ndarray | None = None) -> np.ndarray:
    """Class probabilities (90 squares x CLASSES, "empty" first, "covered" last) with the disc evidence added.

    A disc centred within ``near`` spacings of a point says the point is occupied, no disc within
    reach says it is empty; each is weighed as a likelihood ratio ``ratio`` on occupancy (the piece
    types keep their proportions). Nothing changes when fewer than ``min_discs`` discs were found
    (the circle search failed on this picture) or ``ratio`` is 1; on ``blind`` points (washed out
    by glare) a missing disc is no evidence. ``faint`` points (``Discs.faint``: a faint circle looked
    for because the classifier read a piece there) give no evidence either way, and do not count
    towards ``min_discs``: the reading would otherwise be weighed as evidence for itself.

    With ``field`` (``Discs.field``) a disc is judged by how far it lies from where the point's piece
    top should be, not from the point: seen at an angle every top stands off its point alike (a
    fifth of a spacing and more towards the board's far edge), and a piece left a fifth of a spacing
    off its point the same way measured 0.37 from the point and gave no evidence, while the
    classifier, whose crop is centred on the point, read it 84 % empty (whole-game bench
    s960000-clean-009: a black elephant on the back rank nudged by a neighbour's move, raised as
    missing). A piece off its point the other way had counted as on it.
    """
    distance = np.hypot(offsets[:, 0], offsets[:, 1]) if field is None else \
        np.hypot(offsets[:, 0] - field[:, 0], offsets[:, 1] - field[:, 1])
    neutral = np.zeros(len(distance), dtype=bool) if faint is None else np.asarray(faint, dtype=bool)
    found = ~np.isnan(distance) & ~neutral
    if ratio == 1.0 or int(found.sum()) < min_discs:
        return probs
    disc = found & (distance <= near)
    if blind is not None:
        neutral = neutral | np.asarray(blind, dtype=bool)
    missing = np.isnan(distance) & ~neutral
    factor = np.where(disc, ratio, np.where(missing, 1.0 / ratio, 1.0))  # a disc a little off: no evidence
    out = np.array(probs, dtype=np.float64, copy=True)
    out[:, 1:-1] *= factor[:, None]
    covered = out[:, -1].copy()
    out[:, -1] = 0.0
    out /= np.maximum(out.sum(axis=1, keepdims=True), 1e-12)
    out *= (1.0 - np.minimum(covered, 1.0))[:, None]
    out[:, -1] = covered
    return out


@dataclass(frozen=True)
class LoosePieces:
    """Pieces not standing on their points in one still picture (art. 5.9), for a person to put right.

    ``off``: occupied squares whose disc stands ``threshold`` spacings or more off the point, with
    the distance (the parallax of the piece tops taken off). ``between``: squares read as empty
    that are the nearest point to a disc no occupied point claims, with the distance: a piece
    knocked about halfway between points, which the classifier, centred on the points, may read
    as nothing at all.
    """

    off: dict[int, float]
    between: dict[int, float]


def loose_pieces(discs: Discs, occupied: np.ndarray, *, threshold: float = 0.35, edge_threshold: float = 0.45,
                 reach: float = 0.5, min_discs: int = MIN_DISCS) -> LoosePieces:
    """The pieces of one picture that stand off their points (see :class:`LoosePieces`).

    A piece on an edge point (file a or i, rank 0 or 9) must stand ``edge_threshold`` off: there the
    parallax fit is extrapolated and the board's frame lines draw circles of their own, and pieces
    set 0.1-0.22 off measured 0.4-0.5 (bench_loose_pieces, a tester's sloppy boards).
    Nothing is told from a picture whose circle search found fewer than ``min_discs`` discs, and a
    disc is told between points only when it lies ``threshold`` or more from its nearest point and
    no further than ``reach``: a disc further from every point is more often a marking of the board
    (its river text, a palace line) than a piece.
    """
    occupied = np.asarray(occupied, dtype=bool)
    found = ~np.isnan(discs.offsets[:, 0]) & ~discs.faint
    if int(found.sum()) < min_discs:
        return LoosePieces({}, {})
    files, ranks = np.arange(90) % 9, np.arange(90) // 9
    edge = (files == 0) | (files == 8) | (ranks == 0) | (ranks == 9)
    off = {sq: d for sq, d in off_point(discs.offsets, occupied, threshold).items()
           if d >= (edge_threshold if edge[sq] else threshold)}
    claimed = own_discs(discs.offsets, occupied)  # NaN where the disc is nearer an occupied point
    field = parallax_field(np.where(occupied[:, None], claimed, np.nan))
    shift = np.zeros((90, 2)) if field is None else field
    between: dict[int, float] = {}
    for index in np.flatnonzero(~occupied & found & ~np.isnan(claimed[:, 0])):
        distance = float(np.hypot(*(claimed[index] - shift[index])))
        if threshold <= distance <= reach:
            between[int(index)] = distance
    # one disc is the nearest disc of several empty points around it: it is told at the nearest one
    at = {sq: (round(files[sq] + discs.offsets[sq, 0], 2), round(ranks[sq] + discs.offsets[sq, 1], 2)) for sq in between}
    nearest: dict[tuple[float, float], int] = {}
    for square in sorted(between, key=between.__getitem__):
        nearest.setdefault(at[square], square)
    return LoosePieces(off, {sq: between[sq] for sq in nearest.values()})


PATCH_HALF = 0.5  # spacings: the patch followed is a piece's width square about its point
PATCH_REACH = 0.7  # spacings: how far a piece's patch is looked for (a knocked piece lies 0.3-0.6 off)
_PATCH_SPACING = 24  # pixels a spacing the pictures are matched at, or the nearest halving above
_COMMON_SURE = 0.85  # a piece's picture found again this well says how the camera moved, if it did
_COMMON_PIECES = 3  # ... and this many of them say it together (the circles' parallax fit asks as many)
_COMMON_AGREE = 0.06  # spacings: two in three of them agree on it this closely


@dataclass(frozen=True)
class PatchShift:
    """How a piece's picture moved between two still views of one camera pose (:func:`patch_shifts`).

    ``shift`` (2,) is the move of its patch (file, rank directions, spacings); ``score`` the
    normalised correlation of the earlier patch with the later picture there, ``still`` the same
    with no move at all (1.0: the picture did not change).
    """

    shift: tuple[float, float]
    score: float
    still: float

    @property
    def distance(self) -> float:
        """How far the patch moved, in spacings."""
        return float(np.hypot(*self.shift))


def patch_shifts(reference: np.ndarray, current: np.ndarray, squares: Iterable[int], *,
                 centres: np.ndarray | None = None, half: float = PATCH_HALF, reach: float = PATCH_REACH,
                 relative: bool = True, steady: Iterable[int] | None = None) -> dict[int, PatchShift]:
    """Where each of ``squares``' pieces moved between two rectified views of one calibration
    (``BoardGeometry.rectify``'s pictures, whose size gives the layout).

    A circle is a poor measure of where a pale piece stands on a pale board: its top's outline can
    be too faint to find, and the search then measures the piece by the lower outline of its side
    wall and shadow, a third of a spacing towards the camera, on one view and by its top on the
    next (fresh bench s980000-clean-005: a general standing still read 0.35-0.39 off its point).
    A piece's whole picture (top, wall, shadow, character), though, moves with the piece and
    stays put when it does: the disc of ``half`` spacings radius about each piece on ``reference``
    is looked for within ``reach`` spacings on ``current`` (normalised correlation, so a change of
    light is no move; the peak placed between pixels). ``centres`` (90, 2) place each disc off its
    point (spacings, file and rank directions): halfway to where the piece's top stands
    (``parallax_field``) takes in its top and wall and little of its neighbours, whose coming and
    going would change the picture. Knocked pieces of the injected bench cases measured within
    about 0.05 spacings of the truth this way, including pieces whose circles were not found at
    all. A piece whose best match lies on the edge of the search went further or is not found: it
    is left out.

    ``relative``: the moves are told relative to the camera's, which a camera nudged by less than
    its drift check sees gives every picture alike: the median move of the pictures found again
    surely (``_COMMON_SURE``) among the ``steady`` squares (pieces nothing came near since the
    reference view; all of ``squares`` when not given or too few), at least ``_COMMON_PIECES`` of
    them and two in three of them agreeing on it within ``_COMMON_AGREE``, is taken off each move, and a
    piece's ``still`` match is read where the camera's move put it. Where they do not agree (a
    sleeve swept several pieces) nothing is taken off.
    """
    if reference.shape != current.shape:
        raise ValueError(f"the views differ in size: {reference.shape} and {current.shape}")
    spacing, margin = rectified_layout(reference.shape)
    before, after = _smooth_grey(reference), _smooth_grey(current)
    shrink = 1
    while spacing / (2 * shrink) >= _PATCH_SPACING:  # matched at about 24 px a spacing: 0.04 spacings a pixel
        before, after, shrink = cv2.pyrDown(before), cv2.pyrDown(after), 2 * shrink
    spacing, px, py = spacing / shrink, *(c / shrink for c in square_centres(spacing, margin))
    h, r = int(round(half * spacing)), int(round(reach * spacing))
    pad = h + r + int(spacing)  # room for a centre off its point
    before = cv2.copyMakeBorder(before, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    after = cv2.copyMakeBorder(after, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    mask = np.zeros((2 * h + 1, 2 * h + 1), dtype=np.float32)
    cv2.circle(mask, (h, h), h, 1.0, -1)
    found: dict[int, tuple[np.ndarray, tuple[float, float], float]] = {}  # match map, peak (px), best
    for sq in squares:
        off = (0.0, 0.0) if centres is None or np.isnan(centres[sq, 0]) else centres[sq]
        x = int(round(px[sq] + off[0] * spacing)) + pad
        y = int(round(py[sq] - off[1] * spacing)) + pad
        template = before[y - h:y + h + 1, x - h:x + h + 1]
        if float(template[mask > 0].std()) < 1.0:  # a flat patch (blown out): nothing to follow
            continue
        window = after[y - h - r:y + h + r + 1, x - h - r:x + h + r + 1]
        match = cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED, mask=mask)
        match[~np.isfinite(match)] = -1.0  # a flat (blown out) part of the picture matches nothing
        _, best, _, (bx, by) = cv2.minMaxLoc(match)
        if max(abs(bx - r), abs(by - r)) >= r:  # the best on the search's edge: no peak found
            continue
        found[int(sq)] = (match, (bx - r + _vertex(match[by, bx - 1:bx + 2]), by - r + _vertex(match[by - 1:by + 2, bx])),
                          float(best))
    camera = (0.0, 0.0)
    if relative:
        everywhere = {sq: peak for sq, (_, peak, best) in found.items() if best >= _COMMON_SURE}
        calm = set(everywhere) & (set(everywhere) if steady is None else {int(sq) for sq in steady})
        sure = [everywhere[sq] for sq in (calm if len(calm) >= _COMMON_PIECES else everywhere)]
        if len(sure) >= _COMMON_PIECES:
            median = np.median(np.asarray(sure), axis=0)
            agree = np.hypot(*(np.asarray(sure) - median).T) <= _COMMON_AGREE * spacing
            if 3 * int(agree.sum()) >= 2 * len(sure):
                camera = (float(median[0]), float(median[1]))
    cx, cy = int(round(camera[0])) + r, int(round(camera[1])) + r
    out: dict[int, PatchShift] = {}
    for sq, (match, (dx, dy), best) in found.items():
        still = float(match[min(max(cy, 0), match.shape[0] - 1), min(max(cx, 0), match.shape[1] - 1)])
        out[sq] = PatchShift(((dx - camera[0]) / spacing, -(dy - camera[1]) / spacing), best, still)
    return out


def _vertex(values: np.ndarray) -> float:
    """Where between pixels a peak lies, from the match at it and its two neighbours (a parabola
    through the three; 0 when there are not three or they make no peak)."""
    if len(values) != 3:
        return 0.0
    left, centre, right = (float(v) for v in values)
    curve = left - 2 * centre + right
    if curve >= 0:
        return 0.0
    return float(np.clip(0.5 * (left - right) / curve, -0.5, 0.5))


def _smooth_grey(image: np.ndarray) -> np.ndarray:
    """A float32 grey copy of ``image`` smoothed as the circle search smooths it."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return np.asarray(cv2.GaussianBlur(gray, (5, 5), 1.5), dtype=np.float32)
