"""Cheap motion detection over the board: is anything moving between two consecutive frames?

Only the board's bounding box (plus a margin, where hands come in) is looked at, shrunk so that a
grid spacing is a few pixels and turned grey. Two consecutive small images are compared pixel by
pixel after removing the median difference (so a slow change of the room light is not motion);
motion is a share of changed pixels above ``min_fraction``. A change that a smooth relighting of
the previous frame explains (lights flickering at mains frequency, rolling-shutter bands, an
exposure step: :func:`relit_difference`) is not motion either. A frame costs about a millisecond,
which is what lets the observer skip frames cheaply while nothing moves.

An arm reaching in from beyond the board's edge (:meth:`MotionDetector.arm_points`) is told against
the views the board last stood still in, by brightness and by tint (each channel's share of the
brightness): skin over a pale board can be as bright as the board, but seldom of its colour.

The detector also remembers *where* things changed (:meth:`MotionDetector.touched_points`): a piece
cannot leave its point, or a new one appear, unless something moved over that point, so a reading
that changes on a point nothing came near is the camera's misreading, not the board.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from typing import NamedTuple

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
    touch_radius: float = 0.7  # a point counts as touched when a change came this near (spacings)

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

    def __init__(self, region: tuple[int, int, int, int], spacing: float, config: MotionConfig | None = None,
                 points: np.ndarray | None = None) -> None:
        self.config = config or MotionConfig()
        x0, y0, x1, y1 = region
        if x1 - x0 < 4 or y1 - y0 < 4:
            raise ValueError(f"motion region {region} is too small")
        self.region = region
        self.scale = min(1.0, self.config.spacing_px / max(spacing, 1e-6))
        self.size = (max(4, round((x1 - x0) * self.scale)), max(4, round((y1 - y0) * self.scale)))
        self._previous: np.ndarray | None = None
        self._previous_colour: np.ndarray | None = None  # it in colour (None for grey frames) ...
        self._tint_of_previous: np.ndarray | None = None  # ... and its tint, once asked for (:attr:`_previous_tint`)
        self.last_fraction = 0.0
        self._points: np.ndarray | None = None  # the board points in the small image (rules square order)
        if points is not None:
            pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
            sx, sy = self.size[0] / (x1 - x0), self.size[1] / (y1 - y0)
            self._points = (pts - [x0, y0]) * [sx, sy]
        self._touch_px = max(1.0, self.config.touch_radius * spacing * self.scale)
        self._changed = np.zeros((self.size[1], self.size[0]), dtype=bool)
        self._changed_all = True  # nothing is known yet: every point counts as touched
        self._settled: list[_View] = []  # the last views the board stood still in (newest last)
        self._clear: _View | None = None  # the newest of them taken with nothing across the edge
        self.last_arm: np.ndarray | None = None  # where arm_points last found an arm (a mask of the small image)
        self.arm_lying = False  # the newest settled view was forced in with something across the edge
        self._moved: np.ndarray | None = None  # where the last frame moved (None: it did not)
        self._anchor: np.ndarray | None = None  # the first frame of the still spell the last frame belongs to
        self.shaken = False  # the still spell holds a frame still only once the camera's shake is taken out
        self._shakes: list[bool] = []  # for the last frames: was it a shake spread over the picture?
        self._band, self._inner, self._outer = _edge_band(self._points, self.size, spacing * self.scale)

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
        return cls(region, spacing, config, points=pts if len(pts) == 90 else None)

    def reset(self) -> None:
        """Forget the previous frame and the camera's recent shakes: the next frame counts as motion
        (and every point as touched)."""
        self._previous = None
        self._changed_all = True
        self._anchor, self.shaken, self._shakes = None, False, []
        # (the settled views are kept: the board is where it was; a new grid gets a new detector)

    def settle(self, force: bool = False) -> bool:
        """The board has stood still a while (the caller's ``settle_s``): the last frame becomes one
        of the settled views :meth:`arm_points` compares with, unless something lies across the
        board's edge that none of them shows (a hand holding still), or ``force`` says it lies there
        (it stayed while the board stood still: a sleeve resting on the edge, a shadow). Returns whether it was taken."""
        if self._previous is None:
            return False
        if not force and self.arm_points().any():
            return False
        view = _View(self._previous, self._previous_tint)
        self._settled.append(view)
        del self._settled[:-SETTLED_VIEWS]
        if not force:  # kept apart too: views forced in (a sleeve resting there) cannot push it out
            self._clear = view
        self.arm_lying = force  # until a view is taken with nothing across the edge
        return True

    def arm_points(self) -> np.ndarray:
        """(90,) the points near something lying across the board's edge that none of the settled
        views (:meth:`settle`) shows: a change that runs from outside the margin around the grid to
        the grid itself, as an arm reaching in does (none without points or a settled view).

        A hand paused on the board's edge points, covering too few of them to read as a hand, was
        read as the board (a full-length game: a general being placed at the edge, its hand still
        for half a second, read as a red soldier and raised as a move out of turn). Nothing reaches
        a point from outside without crossing the margin; a piece put beside the board, a moved
        piece or the light changing evenly does not run across it. What differs from one settled
        view only is no arm: a hand resting at the edge while the board stood still, gone now, or
        a captured piece laid beside the board since an older view."""
        none = np.zeros(0 if self._points is None else len(self._points), dtype=bool)
        self.last_arm = None
        if not self._settled or self._points is None:
            return none
        found: np.ndarray | None = None
        # the newest first: most often what it shows is still there; and the newest view taken with
        # nothing across the edge, so a sleeve that rested there four still spells and is lifted is
        # no arm (each of the views forced in then shows it)
        views = [*reversed(self._settled)] + ([self._clear] if self._clear is not None and
                                              not any(v is self._clear for v in self._settled) else [])
        for view in views:
            changed = self._changed_from(view)
            if changed is None:
                return none
            found = changed if found is None else found & changed
        if found is None:
            return none
        found = self._crossing(found)
        self.last_arm = found
        if found is None:
            return none
        distance = cv2.distanceTransform((~found).astype(np.uint8), cv2.DIST_L2, 3)
        h, w = distance.shape
        xs = np.clip(np.round(self._points[:, 0]).astype(int), 0, w - 1)
        ys = np.clip(np.round(self._points[:, 1]).astype(int), 0, h - 1)
        return distance[ys, xs] <= self._touch_px

    def _changed_from(self, reference: _View) -> np.ndarray | None:
        """Where the last frame differs from ``reference`` in brightness (relit: the light's changes
        taken out) or in tint, as a mask of the small image; None where nothing of it runs across the
        band around the grid.

        Tint tells skin from a pale board: a bare forearm over a white paper board's margin is within
        the grey threshold of the paper in places, so the arm fell apart into pieces that did not run
        across the band, and a move was read with the hand still resting on the piece (a tester's
        footage, 3 moves in 148); there its tint differed from the paper's by 15-45 levels, the
        codec's noise by 2 or 3. (Pale skin over cream paper differs by 5-11 levels only: not found.)"""
        current, tinted = self._previous, self._previous_tint
        if current is None or self._band is None or reference.grey.shape != current.shape:
            return None
        relit, _ = relit_difference(current, reference.grey)
        tint_change = None if tinted is None or reference.tint is None else \
            _tint_change(tinted, reference.tint, current, reference.grey)
        changed = _differs(relit, tint_change, ARM_THRESHOLD, TINT_THRESHOLD)
        if self._crossing(changed) is None:
            return None
        # a camera bumped since the view was taken moves the board's edge against the table: that is
        # no arm (a bump of 4 pixels in 640 held every read back 2 s, a knock alert with it)
        shift = _bump(reference.grey, current)
        if shift is not None:
            moved = _shifted(reference.grey.astype(np.float32), *shift)
            relit, _ = relit_difference(current, moved)
            if tint_change is not None and tinted is not None and reference.tint is not None:
                tint_change = _tint_change(tinted, _shifted(reference.tint, *shift), current, moved)
                tint_slack = TINT_THRESHOLD + BUMP_SLACK * _slope(tinted).max(axis=2)
            else:
                tint_slack = np.float32(TINT_THRESHOLD)
            still_differs = _differs(relit, tint_change,
                                     ARM_THRESHOLD + BUMP_SLACK * _slope(current.astype(np.float32)), tint_slack)
            changed = _explained_away(changed, still_differs)
        return changed if self._crossing(changed) is not None else None

    def _crossing(self, changed: np.ndarray) -> np.ndarray | None:
        """The blobs of ``changed`` (a mask of the small image) that run across the band around the
        grid, from its outer edge into the grid; None when none does."""
        if self._band is None:
            return None
        blobs = cv2.dilate(cv2.erode(changed.astype(np.uint8), _SQUARE), _SQUARE)  # not re-encoded edges
        count, labels = cv2.connectedComponents(blobs, connectivity=8)
        if count <= 1:
            return None
        outer = set(np.unique(labels[self._outer & (labels > 0)]).tolist())
        inner = set(np.unique(labels[self._inner & (labels > 0)]).tolist())
        across = sorted((outer & inner) - {0})
        return np.isin(labels, across) if across else None

    def touched_points(self) -> np.ndarray | None:
        """(90,) True for the points something moved near since :meth:`clear_touched` (None without points).

        Points follow the order the detector was given them in (``rules`` squares in the recorder).
        """
        if self._points is None:
            return None
        if self._changed_all:
            return np.ones(len(self._points), dtype=bool)
        found = np.zeros(len(self._points), dtype=bool)
        if self._changed.any():
            distance = cv2.distanceTransform((~self._changed).astype(np.uint8), cv2.DIST_L2, 3)
            h, w = distance.shape
            xs = np.clip(np.round(self._points[:, 0]).astype(int), 0, w - 1)
            ys = np.clip(np.round(self._points[:, 1]).astype(int), 0, h - 1)
            found = distance[ys, xs] <= self._touch_px
        return found

    def clear_touched(self) -> None:
        """Start remembering where things change afresh."""
        self._changed[:] = False
        self._changed_all = False

    def small(self, frame: np.ndarray) -> np.ndarray:
        """The shrunk grey board region of ``frame`` (int16)."""
        return self._shrunk(frame)[0]

    def _shrunk(self, frame: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """The shrunk board region of ``frame``: grey (int16), and in colour (None for a grey frame)."""
        x0, y0, x1, y1 = self.region
        small = cv2.resize(frame[y0:y1, x0:x1], self.size, interpolation=cv2.INTER_AREA)
        if small.ndim == 3 and small.shape[2] >= 3:
            small = np.ascontiguousarray(small[..., :3])  # BGRA: the alpha says nothing of the board
            return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.int16), small
        return small.reshape(small.shape[:2]).astype(np.int16), None

    @property
    def _previous_tint(self) -> np.ndarray | None:
        """The last frame's tint (:func:`tint`), worked out only for the frames the arm test looks at."""
        if self._tint_of_previous is None and self._previous_colour is not None:
            self._tint_of_previous = tint(self._previous_colour)
        return self._tint_of_previous

    def moving(self, frame: np.ndarray) -> bool:
        """Did anything move since the previous frame? (The first frame after a reset counts as motion.)"""
        current, self._previous_colour = self._shrunk(frame)
        self._tint_of_previous = None
        previous, self._previous = self._previous, current
        if previous is None or previous.shape != current.shape:
            self.last_fraction = 1.0
            self._changed_all = True
            self._moved = np.ones(current.shape, dtype=bool)
            return True
        diff = current - previous
        diff -= int(np.median(diff))
        changed_mask = np.abs(diff) > self.config.threshold
        self.last_fraction = np.count_nonzero(changed_mask) / diff.size
        moving = self.last_fraction > self.config.min_fraction
        light_change = 0.0
        if moving:  # unless the light alone changed: flicker, rolling-shutter bands, exposure steps
            relit, light_change = relit_difference(current, previous)
            if light_change > LIGHT_CHANGED:  # else the test above stands as it is
                # what relighting leaves of a light change is thin (edges and characters re-encoded by
                # the video codec); a hand or a piece is a blob: keep what a 2x2 square fits in
                mask = (np.abs(relit) > self.config.threshold).astype(np.uint8)
                kept = cv2.dilate(cv2.erode(mask, _SQUARE), _SQUARE).astype(bool)
                fraction = np.count_nonzero(kept) / diff.size
                if fraction <= self.config.min_fraction:  # the light alone: not motion
                    self.last_fraction, moving = fraction, False
        if moving and self._judge_shake(previous, current, np.abs(diff) > SPREAD_THRESHOLD,
                                        light_change > LIGHT_CHANGED):
            moving, changed_mask = False, np.zeros_like(changed_mask)
        elif not moving:
            self._shakes = [*self._shakes[-(SHAKE_MEMORY - 1):], False]
            if self.shaken and self._anchor is not None and not self._near_anchor(current):
                moving = True  # a shaken still spell drifted from where it began: something moved slowly
        if moving:
            self._changed |= changed_mask
            self._anchor, self.shaken = None, False
        elif self._anchor is None:
            self._anchor = current  # the still spell's first frame
        self._moved = changed_mask if moving else None
        return moving

    @property
    def shaking(self) -> bool:
        """Has the camera been shaking over the last frames (2 of the last 5 were shakes spread over
        the picture)?"""
        return sum(self._shakes) >= SHAKE_ESTABLISHED

    def _judge_shake(self, previous: np.ndarray, current: np.ndarray, changed: np.ndarray, relight: bool) -> bool:
        """Take ``current`` for ``previous`` moved by the camera's shake alone, and nothing else
        (``changed``: where they differ by more than ``SPREAD_THRESHOLD``; ``relight``: the light
        changed between them)? Notes the answer in the camera's recent shakes, and a yes in
        :attr:`shaken`.

        A camera on a stand that a table or the floor shakes moves the whole picture by a pixel or so
        from frame to frame: every edge (grid lines, piece outlines, characters) changes, and the board
        never looked still (a tester's game shaken by up to a pixel a frame: 1 of 30 moves recorded,
        black charged with two presses without a move). It is a shake when moving ``previous`` as a
        whole leaves no blob of change and each quarter of the picture moved alike
        (:func:`_shake_shift`), and either the change spread over most of the picture
        (:func:`_spread`) or the camera has been shaking so over the last frames: a hand moves part of
        the picture only. A frame found so starts or goes on with a shaken still spell; every frame of
        the spell must also be its first one moved by a shake (:meth:`_near_anchor`), so a hand moving
        as slowly as a shake is motion once it has moved further than one."""
        before = _relit(previous, current) if relight else previous
        shift = _shake_shift(before, current, self.config, SHAKE_SLACK, alike=True)
        shaking = self.shaking
        spread = _spread(changed) >= SHAKE_SPREAD
        self._shakes = [*self._shakes[-(SHAKE_MEMORY - 1):], shift is not None and shift >= SHAKE_MIN and spread]
        # a change spread over few tiles, or a shift too small to tell from noise, is a shake only while the camera shakes
        if shift is None or not (shift >= SHAKE_MIN and spread or shaking):
            return False
        if self._anchor is not None and self._anchor is not previous and not self._near_anchor(current):
            return False
        self.shaken = True
        return True

    def _near_anchor(self, current: np.ndarray) -> bool:
        """Is ``current`` the still spell's first frame moved by a shake (the light's change taken out)?"""
        anchor = self._anchor
        return anchor is not None and _shake_shift(_relit(anchor, current), current, self.config,
                                                   ANCHOR_SLACK) is not None

    def moved_over(self, mask: np.ndarray | None) -> bool:
        """Did the last frame's motion (:meth:`moving`) touch ``mask`` (a mask of the small image, such
        as :attr:`last_arm`), or come within the touch radius of it (a hand moving on from where it
        paused changes the pixels just beyond its old outline)?"""
        if mask is None or self._moved is None or mask.shape != self._moved.shape:
            return False
        reach = 2 * int(np.ceil(self._touch_px)) + 1
        near = cv2.dilate(mask.astype(np.uint8), np.ones((reach, reach), np.uint8)).astype(bool)
        return bool((self._moved & near).any())


_SQUARE = np.ones((2, 2), np.uint8)
OUTER_REACH = 0.95  # spacings from the grid the margin's outer edge must lie for an arm to be looked for there
ARM_THRESHOLD = 21  # a grey change (relit) this large, against every settled view, is something over the edge
BUMP_MIN = 0.1  # small-image pixels the picture moved since a settled view for arm_points to move it back
BUMP_MAX = 2.0  # ... and at most this (a third of a spacing; a larger move is found again by the locator)
BUMP_SLACK = 0.5  # small pixels the shift found may be off by (slope x this forgiven; it errs 0.3-0.45 on aliased edges)
BUMP_KEEP = 0.7  # a changed blob this much of which still differs from the view moved back is kept whole
SETTLED_VIEWS = 4  # settled views kept (one per still spell)
TINT_THRESHOLD = 12.0  # a tint change (:func:`tint` levels) this large, against every settled view, is something too
TINT_FLOOR = 48.0  # brightness (sum of the three channels) added before taking shares: dark pixels' noise is no tint
TINT_MIN_GREY = 80  # tint is judged only where both views are this bright (and below NEAR_WHITE) ...
# a dark table's tint moves with the exposure (a reviewer: x1.4 read 19 points of arm on a dark brown
# table, none in grey), where grey sees any arm; a clipped channel shifts a pale board's tint
SAME_ARM = 0.6  # overlap (intersection over union) of two arms' masks that makes them one thing lying there


class _View(NamedTuple):
    """A view the board stood still in, as :meth:`MotionDetector.arm_points` compares with it."""

    grey: np.ndarray  # the small grey image (int16)
    tint: np.ndarray | None  # its tint (:func:`tint`), None for grey frames


def tint(small: np.ndarray) -> np.ndarray:
    """Each channel's share of a BGR image's brightness, in levels of 255 (a grey pixel is 85 in
    each): the colour with the light's strength taken out, so a brighter or dimmer room leaves it."""
    colour = small.astype(np.float32)
    return np.asarray(255.0 * colour / (colour.sum(axis=2, keepdims=True) + TINT_FLOOR), dtype=np.float32)


def _tint_change(current: np.ndarray, before: np.ndarray, grey: np.ndarray, grey_before: np.ndarray) -> np.ndarray:
    """How far each pixel's tint moved (the largest of the three channels), less the whole picture's
    shift (a camera's white balance drifting); 0 where either view's ``grey`` is too dark or near
    white for its tint to mean anything (:data:`TINT_MIN_GREY`, :data:`NEAR_WHITE`)."""
    judged = ((grey >= TINT_MIN_GREY) & (grey < NEAR_WHITE) & (grey_before >= TINT_MIN_GREY)
              & (grey_before < NEAR_WHITE))
    change = current - before
    if judged.any():
        change -= np.median(change[judged], axis=0)
    return np.asarray(np.where(judged, np.abs(change).max(axis=2), 0.0), dtype=np.float32)


def _differs(relit: np.ndarray, tint_change: np.ndarray | None, grey_limit: np.ndarray | float,
             tint_limit: np.ndarray | float) -> np.ndarray:
    """Where a pixel changed, by brightness (``relit``) and tint together: each measured against its
    limit, a change counts when the two shares' squares add up to more than 1 (half of each is not
    nothing: a forearm a little darker and a little redder than the paper)."""
    share = np.square(np.abs(relit) / grey_limit)
    if tint_change is not None:
        share = share + np.square(tint_change / tint_limit)
    return np.asarray(share > 1.0)


def same_arm(first: np.ndarray | None, second: np.ndarray | None) -> bool:
    """Do two masks of :attr:`MotionDetector.last_arm` show one thing in one place (a sleeve resting,
    a shadow), not a hand that has moved on between them?"""
    if first is None or second is None or first.shape != second.shape:
        return False
    union = np.count_nonzero(first | second)
    return bool(union > 0 and np.count_nonzero(first & second) / union >= SAME_ARM)


LIGHT_FLOOR = 8.0  # grey levels added before taking ratios, so dark pixels' noise is not a gain
LIGHT_SMOOTH = 5  # the gain profiles are smoothed over this many rows or columns (median)
LIGHT_CHANGED = 0.02  # gains this far from 1 on most rows say the light changed (else the test stands)
NEAR_WHITE = 240  # a pixel this bright (in the shrunk image) may hide clipped parts: it may have been brighter


def _edge_band(points: np.ndarray | None, size: tuple[int, int],
               spacing: float) -> tuple[np.ndarray | None, np.ndarray, np.ndarray]:
    """Masks of the small image: the band between the grid's outline and the region's border, its
    inner edge (touching the grid) and its outer edge: the region's border on each side that lies at
    least ``OUTER_REACH`` spacings (``spacing`` small pixels) beyond the grid's outermost point. Where the frame cuts the margin closer, a piece on an edge point would
    reach it, so no arm is looked for coming from that side. ``None`` for the band without the
    board's points."""
    width, height = size
    empty = np.zeros((height, width), dtype=bool)
    if points is None or len(points) < 4:
        return None, empty, empty
    grid = np.zeros((height, width), dtype=np.uint8)
    hull = cv2.convexHull(np.round(points).astype(np.int32))
    cv2.fillConvexPoly(grid, hull, 1)
    inside = grid.astype(bool)
    band = ~inside
    if band.sum() < 8:
        return None, empty, empty
    near = cv2.dilate(grid, np.ones((3, 3), np.uint8)).astype(bool)
    inner = band & near
    # the region is the points' box widened by the margin on each side, less what the frame cut off:
    # measured per side to the region's outer border (pixel i spans i to i + 1; a distance transform's
    # steps had left the bottom and right sides out, and a pixel's slack let in a side the frame had
    # cut to 0.94 spacings, where a back-rank piece leaving its point read as an arm)
    lo, hi = points.min(axis=0), points.max(axis=0)
    reach = OUTER_REACH * spacing
    outer = np.zeros_like(band)
    outer[:, 0] |= lo[0] >= reach
    outer[0, :] |= lo[1] >= reach
    outer[:, -1] |= width - hi[0] >= reach
    outer[-1, :] |= height - hi[1] >= reach
    return band, inner, outer & band


def _shake_shift(before: np.ndarray, current: np.ndarray, config: MotionConfig, slack: float = 0.0,
                 alike: bool = False) -> float | None:
    """How far (small-image pixels) the whole picture moved from ``before`` to ``current``, when it
    moved at most ``SHAKE_MAX``, moving ``before`` so leaves no blob of change (where the picture
    changes by more than the threshold and ``slack`` small pixels' worth of its slope), and, with
    ``alike``, the picture's four quarters moved within ``SHAKE_ALIKE`` of their median; else None.

    Both are softened by about a pixel first: a line a pixel wide moved by a fraction of one is
    re-sampled into other values than moving the picture computes; what is left of it is thin. On
    the benchmark's unshaken videos a hand changing up to a tenth of the picture, over 8 tiles,
    passed the rest as a shake; its quarters strayed 0.1-0.6 pixel from their median (most over
    0.3), a shaken camera's 0.07 (0.16 at the 95th percentile, on some boards up to 0.28)."""
    if before.shape != current.shape:
        return None
    first, second = _softened(before), _softened(current)
    dx, dy = _whole_shift(first, second)
    size = float(np.hypot(dx, dy))
    if size > SHAKE_MAX:
        return None
    diff = np.asarray(second - _shifted(first, dx, dy), dtype=np.float64)
    rest = np.abs(diff - float(np.median(diff)))
    allowed: np.ndarray | float = config.threshold
    if slack > 0:  # the shift is found to a fraction of a pixel: on a steep edge that fraction is a change too
        allowed = config.threshold + slack * _slope(second)
    left = cv2.dilate(cv2.erode((rest > allowed).astype(np.uint8), _SQUARE), _SQUARE)
    # what comes in across the picture's edge, no shift of the last frame shows: its rim is left out
    left[:SHAKE_RIM], left[-SHAKE_RIM:], left[:, :SHAKE_RIM], left[:, -SHAKE_RIM:] = 0, 0, 0, 0
    if np.count_nonzero(left) / left.size > config.min_fraction:
        return None
    if alike:  # (against each other: the whole picture's estimate runs a little long, all quarters' alike)
        height, width = first.shape
        quarters = []
        for rows in (slice(0, height // 2), slice(height // 2, height)):
            for cols in (slice(0, width // 2), slice(width // 2, width)):
                part, other = np.ascontiguousarray(first[rows, cols]), np.ascontiguousarray(second[rows, cols])
                quarters.append(_whole_shift(part, other))
        shifts = np.array(quarters)
        if np.hypot(*(shifts - np.median(shifts, axis=0)).T).max() > SHAKE_ALIKE:
            return None
    return size


@functools.lru_cache(maxsize=16)
def _window(shape: tuple[int, ...]) -> np.ndarray:
    """The Hanning window phase correlation weighs a picture of ``shape`` (rows, columns) by."""
    return np.asarray(cv2.createHanningWindow((shape[1], shape[0]), cv2.CV_64F))


def _bump(view: np.ndarray, current: np.ndarray) -> tuple[float, float] | None:
    """How far (x, y, small-image pixels) the whole picture moved since ``view`` (an earlier small
    grey image) was taken, when it moved by ``BUMP_MIN`` to ``BUMP_MAX`` small pixels (the camera
    bumped, less than a recalibration); else None."""
    if view.shape != current.shape:
        return None
    dx, dy = _whole_shift(_softened(view), _softened(current))
    if not BUMP_MIN <= float(np.hypot(dx, dy)) <= BUMP_MAX:
        return None
    return dx, dy


def _whole_shift(first: np.ndarray, second: np.ndarray) -> tuple[float, float]:
    """How far (small-image pixels, x and y) the whole picture moved from ``first`` to ``second``
    (softened float64 images; phase correlation)."""
    (dx, dy), _ = cv2.phaseCorrelate(first, second, _window(first.shape))
    return float(dx), float(dy)


def _shifted(image: np.ndarray, dx: float, dy: float) -> np.ndarray:
    """``image`` (float) moved by ``dx``, ``dy`` pixels, its edge repeated where it moved in."""
    move = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]])
    return np.asarray(cv2.warpAffine(image, move, (image.shape[1], image.shape[0]), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE))


def _slope(image: np.ndarray) -> np.ndarray:
    """How steeply ``image`` (float32 or float64) changes at each pixel, in grey levels a pixel: what
    a shift found a fraction of a pixel off changes there, per pixel of error."""
    depth = cv2.CV_64F if image.dtype == np.float64 else cv2.CV_32F
    return np.asarray(np.hypot(cv2.Sobel(image, depth, 1, 0, ksize=3), cv2.Sobel(image, depth, 0, 1, ksize=3)) / 8.0)


def _explained_away(changed: np.ndarray, still_differs: np.ndarray) -> np.ndarray:
    """``changed`` (a mask) less what the camera's move explains: each blob of it of which under
    ``BUMP_KEEP`` still differs from the view moved back keeps only what does; the others stay whole.

    A new object pulls the shift found a little (a sleeve: 0.1-0.5 small pixel with the camera still),
    and the view moved by that differs from the frame less at the object's edges: taking those
    pixels out pixel by pixel broke 1 arm in 10 across the band (a reviewer's 357 synthetic arms).
    An arm is mostly what no move explains; a bumped edge is mostly what one does."""
    count, labels = cv2.connectedComponents(changed.astype(np.uint8), connectivity=8)
    kept = changed.copy()
    for label in range(1, count):
        blob = labels == label
        if np.count_nonzero(still_differs & blob) < BUMP_KEEP * np.count_nonzero(blob):
            kept &= ~blob | still_differs
    return kept


def _spread(changed: np.ndarray) -> int:
    """In how many of the 16 tiles (4 x 4) of a small image ``changed`` (a mask) has 2 pixels or more."""
    height, width = changed.shape
    rows = np.array_split(np.arange(height), 4)
    cols = np.array_split(np.arange(width), 4)
    return sum(int(np.count_nonzero(changed[r[0]:r[-1] + 1, c[0]:c[-1] + 1]) >= 2)
               for r in rows if len(r) for c in cols if len(c))


def _softened(small: np.ndarray) -> np.ndarray:
    """``small`` (a shrunk grey image) blurred by about a pixel, as float64."""
    return np.asarray(cv2.GaussianBlur(small.astype(np.float64), (0, 0), 1.0), dtype=np.float64)


SHAKE_MAX = 1.0  # small-image pixels (a sixth of a grid spacing): the whole picture moving this little is a shake
SHAKE_MIN = 0.05  # ... and at least this much (less is the codec's noise as much as a move)
SHAKE_ALIKE = 0.4  # small-image pixels each quarter's shift may stray from the quarters' median
SHAKE_SLACK = 0.5  # small-image pixels the shift found may be off by, frame to frame (slope x this forgiven)
ANCHOR_SLACK = 0.25  # ... against the still spell's first frame (at 0.5 a hand moving 3 px a frame under a
# shake held 5 frames)
SHAKE_RIM = 2  # small-image pixels at the picture's edge a shake brings in unseen (a pixel, and the softening)
SHAKE_SPREAD = 11  # of the 16 tiles of the picture, a shake's change reaches at least this many ...
SPREAD_THRESHOLD = 7  # ... where a pixel changes by more than this (0-255), half the motion threshold.
# A shake of a tenth or a fifth of a small pixel (a pixel in a 640 x 360 video) changes only the
# sharpest edges by the motion threshold, in 2 to 5 tiles of 16; at 7 it reaches the grid lines in
# nearly every tile. Measured frame by frame (a hand on the board or not, from the truth) over 16
# standing videos shaken by up to a pixel and 97 unshaken ones: of the shaken frames with no hand
# that moved, 98 % are now such spread shakes, 77 % before (the motion threshold, 8 tiles, 0.1 px
# least, quarters within 0.3); of the unshaken videos' 48 774 frames that moved with a hand, none,
# 25 before, whatever the least shift and however far the quarters stray
SHAKE_MEMORY = 5  # frames looked back on: the camera is shaking when ...
SHAKE_ESTABLISHED = 2  # ... this many of them were shakes spread over the picture


def relit_difference(current: np.ndarray, previous: np.ndarray) -> tuple[np.ndarray, float]:
    """``current - previous`` after relighting ``previous`` by a gain that varies smoothly along the
    rows and then along the columns: what a change of the light leaves (mains flicker on a 30 fps
    camera, the bands a rolling shutter makes of it in either orientation, an exposure step) is
    taken out, while a hand or a piece, which changes only part of each row and column, stays.

    The gains are medians over each row (column) of the ratio of the two frames, so they follow the
    light, not what covers less than half of a row. Also returns how far the light changed: the
    median distance from 1 of the row (column) gains (a hand moving under steady light changes the
    gains of the rows it covers only)."""
    cur = current.astype(np.float32) + LIGHT_FLOOR
    prev = previous.astype(np.float32) + LIGHT_FLOOR
    rows, cols = _light_gains(cur, prev)
    diff = cur - np.minimum(prev * rows[:, None] * cols[None, :], 255.0 + LIGHT_FLOOR)  # brighter than white: clipped
    # a pixel near white in the previous frame may have been clipped: it may have been brighter
    # the light changes over most rows or columns; a hand over some of them moves only their gains
    change = float(max(np.median(np.abs(rows - 1.0)), np.median(np.abs(rows.mean() * cols - 1.0))))
    return np.where(previous >= NEAR_WHITE, np.minimum(diff, 0.0), diff), change


def _relit(previous: np.ndarray, current: np.ndarray) -> np.ndarray:
    """``previous`` relit as :func:`relit_difference` does, to the light of ``current`` (float32)."""
    cur = current.astype(np.float32) + LIGHT_FLOOR
    prev = previous.astype(np.float32) + LIGHT_FLOOR
    rows, cols = _light_gains(cur, prev)
    return np.asarray(np.minimum(prev * rows[:, None] * cols[None, :], 255.0 + LIGHT_FLOOR) - LIGHT_FLOOR,
                      dtype=np.float32)


def _light_gains(cur: np.ndarray, prev: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The row gains, then the column gains, that relight ``prev`` to ``cur`` (both offset by
    ``LIGHT_FLOOR``): medians of their ratio, smoothed (see :func:`relit_difference`)."""
    rows = _smooth(np.median(cur / prev, axis=1))
    cols = _smooth(np.median(cur / (prev * rows[:, None]), axis=0))
    return rows, cols


def _smooth(profile: np.ndarray) -> np.ndarray:
    """A running median of ``profile`` over :data:`LIGHT_SMOOTH` entries (edges repeated)."""
    half = LIGHT_SMOOTH // 2
    if len(profile) <= LIGHT_SMOOTH:
        return np.full_like(profile, float(np.median(profile)))
    padded = np.pad(profile, half, mode="edge")
    return np.median(np.lib.stride_tricks.sliding_window_view(padded, LIGHT_SMOOTH), axis=1)
