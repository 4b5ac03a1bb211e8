"""The observer: watch the board over time and hand the resolver still, uncovered views.

``Observer.feed(frame, t) -> Observation | None``. Each frame is first compared with the previous
one on a small grey copy of the board's area (:class:`recorder.motion.MotionDetector`, about a
millisecond): while nothing moves and the board has been observed, the frame is skipped without
rectifying or classifying it. After motion, the observer waits until the board has been still for
``still_s`` seconds, then classifies the still frames (``smooth_frames`` of them, averaged) and
emits an :class:`Observation` unless a hand still covers the board ("covered" on more than
``max_covered`` points): a move is never taken from a frame with a hand over the board. Points
the session has found something lying on (``accept_lying``: still covered for seconds while the
grid still fits the board) do not count towards that; they stay masked. Nor do the points of a
lamp's spot the session has found on the last two views (``under_lamp``): a point that shows
nothing reads "covered" as often as not, and a lamp stays where a hand moves on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from recorder.motion import MotionDetector, same_arm

log = logging.getLogger(__name__)

CLASSES: tuple[str, ...] = ("empty", "K", "A", "B", "N", "R", "C", "P", "k", "a", "b", "n", "r", "c", "p", "covered")
"""Class order of :attr:`Observation.probs` (rows are squares ``rank * 9 + file`` as in ``rules``)."""
COVERED_INDEX = CLASSES.index("covered")
PIECE_CLASSES = len(CLASSES) - 1  # empty + 14 pieces


@dataclass(frozen=True)
class Observation:
    """A still view of the board: per-square class probabilities and the squares not seen.

    ``probs`` is (90, 16) in :data:`CLASSES` order, rows indexed by ``rules`` square numbers
    (``rank * 9 + file``), averaged over ``frames`` still frames; ``mask`` is True where the
    point could not be seen. ``t_still`` is when the board became still (the hand left) and
    ``t`` the time of the last frame used. ``t_moved`` is the time of the last still frame before
    motion was first seen over the board since the previous observation (None when nothing moved
    since): the board stood as that observation saw it at least until then, which dates a clock
    press made before a move began. (The last still frame, not the first moving one: after a
    stalled stream the first moving frame can come long after the hand did.)
    """

    t: float
    t_still: float
    probs: np.ndarray
    mask: np.ndarray
    frames: int = 1
    offsets: np.ndarray | None = None  # (90, 2) disc offsets from the points, spacings (recorder.offpoint)
    touched: np.ndarray | None = None  # (90,) something moved near the point since the last observation
    unreadable: np.ndarray | None = None  # (90,) blown out to white by glare: no reading there means much
    washed: np.ndarray | None = None  # (90,) share of each point's piece-sized square glare blows out (0-1)
    # (90,) bright, textureless squares: a lamp's spot that shows nothing there, clipped or not (recorder.glare);
    # None when the view cannot say (too few bare crossings to compare with) or nobody looked
    flat: np.ndarray | None = None
    # (90,) of the masked points, those something has lain on for seconds with no hand near (``accept_lying``)
    lying: np.ndarray | None = None
    # something across the board's edge was taken for lying there (an arm still for a while, a sleeve):
    # a hand may be over the board though the view was handed over (MotionDetector.arm_lying)
    arm_lying: bool = False
    # the grey rectified picture the view was read from: where pieces' pictures moved (recorder.offpoint)
    view: np.ndarray | None = field(default=None, compare=False, repr=False)
    meta: dict[str, Any] = field(default_factory=dict, compare=False)
    t_moved: float | None = None

    def __post_init__(self) -> None:
        if self.probs.shape != (90, len(CLASSES)):
            raise ValueError(f"observation probabilities must be (90, {len(CLASSES)}), got {self.probs.shape}")
        if self.mask.shape != (90,):
            raise ValueError(f"observation mask must be (90,), got {self.mask.shape}")

    @property
    def occupied(self) -> np.ndarray:
        """(90,) the points read as more likely holding a piece (of either side) than not: neither
        empty nor covered."""
        return np.asarray(self.probs[:, 1:PIECE_CLASSES].sum(axis=1) > 0.5)


def _square_rows() -> np.ndarray:
    """For each rules square (rank*9+file), its row in the classifier's order (rank 9 first)."""
    rows = np.empty(90, dtype=np.int64)
    for sq in range(90):
        rank, file = divmod(sq, 9)
        rows[sq] = (9 - rank) * 9 + file
    return rows


_SQUARE_ROWS = _square_rows()


def to_square_order(probs: np.ndarray, classes: tuple[str, ...] | list[str]) -> np.ndarray:
    """Classifier probabilities (90 points in FEN reading order x its classes) as (90 squares, CLASSES).

    Classes the classifier lacks get probability 0; rows are renormalised to sum to 1.
    """
    probs = np.asarray(probs, dtype=np.float64)
    if probs.shape != (90, len(classes)):
        raise ValueError(f"expected (90, {len(classes)}) probabilities, got {probs.shape}")
    out = np.zeros((90, len(CLASSES)), dtype=np.float64)
    for c, name in enumerate(classes):
        if name in CLASSES:
            out[:, CLASSES.index(name)] = probs[_SQUARE_ROWS, c]
        elif name == ".":
            out[:, 0] = probs[_SQUARE_ROWS, c]
    total = out.sum(axis=1, keepdims=True)
    return out / np.maximum(total, 1e-12)


def crop_shifts(offsets: np.ndarray, squares: Iterable[int]) -> np.ndarray:
    """(90, 2) crop shifts in the classifier's point order (spacings right and down, as
    ``recorder.vision.point_crops`` takes them) that centre the crops of ``squares`` on their discs,
    ``offsets`` (90, 2) in square order (spacings right and up, as ``recorder.offpoint.find_discs``
    gives them); the other crops stay on their points."""
    shifts = np.zeros((90, 2))
    for sq in squares:
        shifts[_SQUARE_ROWS[sq]] = (offsets[sq, 0], -offsets[sq, 1])
    return shifts


def point_rows(squares: Iterable[int]) -> np.ndarray:
    """The rows of ``squares`` (``rules`` square numbers) in the classifier's point order."""
    return np.asarray(_SQUARE_ROWS[np.asarray(list(squares), dtype=np.int64)], dtype=np.int64)


def _next_to(points: np.ndarray) -> np.ndarray:
    """(90,) the points next to one of the (90,) ``points`` on the board (diagonals too; not themselves)."""
    board = np.asarray(points, dtype=bool).reshape(10, 9)  # ranks by files: no wrap from file i to file a
    ranks = board.copy()
    ranks[1:] |= board[:-1]
    ranks[:-1] |= board[1:]
    grown = ranks.copy()
    grown[:, 1:] |= ranks[:, :-1]
    grown[:, :-1] |= ranks[:, 1:]
    return np.asarray(grown.reshape(90) & ~board.reshape(90))


class Classifier(Protocol):
    """What the observer needs of the vision stage (``recorder.vision.PieceClassifier`` fits)."""

    def classify(self, rectified: np.ndarray) -> Any: ...


ProbabilityFn = Callable[[np.ndarray], np.ndarray]
"""A frame -> (90, 16) square-order probabilities function (rectify + classify + reorder)."""


@dataclass(frozen=True)
class ObserverConfig:
    """Timing and thresholds of the observer (seconds where named ``_s``)."""

    still_s: float = 0.1  # the board must be still this long after motion before it is read
    shaken_still_s: float = 0.4  # ... this long where it is still only once the camera's shake is taken out
    smooth_frames: int = 2  # still frames classified and averaged per observation (1-5)
    max_covered: int = 2  # more points read "covered" than this: a hand is still there, wait
    covered_p: float = 0.5  # a point is masked when "covered" has at least this probability
    retry_s: float = 0.3  # while a still hand covers the board, read it again this often
    refresh_s: float = 0.0  # > 0: re-read a still board this often even without motion
    settle_s: float = 1.0  # the board still this long: a settled view, what an arm across the edge is told against
    arm_wait_s: float = 2.0  # something across the board's edge (MotionDetector.arm_points) this long, still, lies there

    def __post_init__(self) -> None:
        if not 0.0 <= self.still_s <= 5.0 or not 0.0 <= self.shaken_still_s <= 5.0:
            raise ValueError("still_s and shaken_still_s must be within 0-5 s")
        if not 1 <= self.smooth_frames <= 5:
            raise ValueError("smooth_frames must be within 1-5")
        if not 0 <= self.max_covered <= 90:
            raise ValueError("max_covered must be within 0-90")
        if not 0.0 < self.settle_s <= 30.0 or not 0.0 < self.arm_wait_s <= 30.0:
            raise ValueError("settle_s and arm_wait_s must be within 0-30 s")


class Observer:
    """Turns a stream of frames into observations of the still board (see the module doc).

    ``probabilities(frame)`` returns the (90, 16) square-order probabilities of a frame
    (rectification and classification included); ``motion`` compares frames cheaply.
    """

    def __init__(self, probabilities: ProbabilityFn, motion: MotionDetector,
                 config: ObserverConfig | None = None) -> None:
        self.probabilities = probabilities
        self.motion = motion
        self.config = config or ObserverConfig()
        self.frames = 0
        self.classified = 0
        self.skipped = 0
        self.reset()

    def reset(self) -> None:
        """Forget the board's state: the next still frames are read again (after re-calibration)."""
        self._observed = False  # the still board has been handed over since the last motion
        self._still_since: float | None = None
        self._settled = False  # the still board has been offered as a settled view (MotionDetector.settle)
        self._samples: list[np.ndarray] = []
        self._next_read = -np.inf
        self._last_observation_t = -np.inf
        self._moved_at: float | None = None  # last still frame before the first motion since the last observation
        self._last_t: float | None = None  # the previous frame's time
        self.covered_since: float | None = None  # the board still but covered (a hand, or something left on it) since
        self._arm_since: float | None = None  # the board still with something across its edge since
        self._arm_shape: np.ndarray | None = None  # ... where it lay then (MotionDetector.last_arm)
        self.covered_points = np.zeros(90, dtype=bool)  # the points read covered at the last such look
        self.lying = np.zeros(90, dtype=bool)  # points something left on the board hides (``accept_lying``)
        self.lying_since = -np.inf  # ... covered on every still view since then
        self.lamp = np.zeros(90, dtype=bool)  # points a lamp's spot hides on the last views (``under_lamp``)
        self.motion.reset()

    def accept_lying(self, points: np.ndarray, since: float) -> None:
        """Something lies on ``points`` (the caller checked that the grid still fits the board, so
        it is not a moved camera): still views hiding them are handed over, with them masked, instead
        of being waited out as a hand. A still view that shows one of them again frees it."""
        self.lying, self.lying_since = np.array(points, dtype=bool), since
        self._next_read = -np.inf

    def under_lamp(self, points: np.ndarray) -> None:
        """A lamp's spot hides ``points`` (blown out to white, or a flat plateau; the caller found them
        so on the last two still views that could say, where a hand does not stay): read "covered" there, they do not
        hold a still view back as a hand would (fresh s2200000-clean-010: 3 to 7 points of a spot read
        covered kept five moves from the record for 1.3 to 4.2 s). They stay masked in the views. Unless
        two points or more read covered outside the spot lie next to one inside: a hand reaching over
        the spot (or a spot gone elsewhere since) counts whole. One is the spot's rim, whose edge moves
        from view to view (a reviewer's probe: one rim point held the views back 3.5 s again)."""
        self.lamp = np.array(points, dtype=bool)

    def retry_later(self, t: float) -> None:
        """Read the still board again in ``retry_s`` (the last observation had hidden points)."""
        self._observed = False
        self._samples.clear()
        self._next_read = t + self.config.retry_s

    def feed(self, frame: np.ndarray, t: float) -> Observation | None:
        """Take one frame (video time ``t``); returns an observation when the board has just settled."""
        self.frames += 1
        moving = self.motion.moving(frame)
        cfg = self.config
        before, self._last_t = self._last_t, t
        if moving:
            if self._moved_at is None:
                self._moved_at = before if before is not None else t
            self._observed = False
            self._still_since = None
            self._settled = False
            if self.motion.moved_over(self._arm_shape):  # the arm moved: it is not lying there
                self._arm_since = None
            self._samples.clear()
            self._next_read = -np.inf
            self.covered_since = None
            return None
        if self._still_since is None:
            self._still_since = t
        if not self._settled and t - self._still_since >= cfg.settle_s - 1e-9:
            self._settled = True  # once a still spell: refused while an arm lies across the edge
            self.motion.settle()
        if self._observed:
            if cfg.refresh_s > 0 and t - self._last_observation_t >= cfg.refresh_s:
                self._observed = False
                self._samples.clear()
            else:
                self.skipped += 1
                return None
        if t < self._next_read:
            self.skipped += 1
            return None
        # a spell still only once the camera's shake is taken out (MotionDetector.shaken) must last
        # longer: under a shake, a slow hand shows only once it has moved further than the shake
        window = max(cfg.still_s, cfg.shaken_still_s) if self.motion.shaken else cfg.still_s
        if t - self._still_since < window - cfg.still_s - 1e-9:
            self.skipped += 1  # (not read yet: a shaken spell often ends before its window closes)
            return None
        # Read still frames from the window's last still_s on, so the smoothing is done when it closes.
        probs = self.probabilities(frame)
        self.classified += 1
        self._samples.append(probs)
        if len(self._samples) > cfg.smooth_frames:
            self._samples.pop(0)
        if t - self._still_since < window - 1e-9:
            return None
        mean = np.mean(self._samples, axis=0)
        mask = mean[:, COVERED_INDEX] >= cfg.covered_p
        # an arm across the board's edge is a hand over the board, however few points the classifier
        # reads as covered; what stays across in one place for arm_wait_s (a sleeve resting on the
        # edge, a shadow, a lamp's spot), whatever moves elsewhere, lies there: it is taken into the
        # settled views. A hand that paused (to grasp a piece), worked on and paused again starts the
        # wait again (a reviewer: it had been read on its second pause): motion over the arm, or the
        # arm found elsewhere, starts it again; motion elsewhere on the board does not
        arm = self.motion.arm_points()
        if arm.shape != mask.shape:  # a detector not given the board's points looks for no arm
            arm = np.zeros_like(mask)
        if arm.any():
            if self._arm_since is None or not same_arm(self._arm_shape, self.motion.last_arm):
                self._arm_since, self._arm_shape = self._still_since, self.motion.last_arm
            if t - self._arm_since >= cfg.arm_wait_s - 1e-9:
                log.debug("t=%.2f: something has lain across the board's edge since %.2f: taken as lying there",
                          t, self._arm_since)
                self.motion.settle(force=True)
                arm[:] = False
        if not arm.any():  # (and no stale mask to test every moving frame against)
            self._arm_since, self._arm_shape = None, None
        hand = mask & ~self.lying
        if int((hand & ~self.lamp & _next_to(hand & self.lamp)).sum()) < 2:  # (else a hand reaching over it)
            hand &= ~self.lamp
        if arm.any() or int(hand.sum()) > cfg.max_covered:
            log.debug("t=%.2f: board still but %d points covered%s; waiting", t, int(mask.sum()),
                      " and an arm across its edge" if arm.any() else "")
            self._samples.clear()
            self._next_read = t + cfg.retry_s
            if self.covered_since is None:
                self.covered_since = self._still_since
            self.covered_points = mask | arm
            return None
        self.covered_since = None
        self.lying &= mask
        self._observed = True
        self._last_observation_t = t
        touched = self.motion.touched_points()
        self.motion.clear_touched()
        moved_at, self._moved_at = self._moved_at, None
        return Observation(t=t, t_still=self._still_since, probs=mean, mask=mask, frames=len(self._samples),
                           touched=touched, t_moved=moved_at, lying=self.lying.copy() if self.lying.any() else None,
                           arm_lying=self.motion.arm_lying)
