"""A recording session: source frames -> calibration -> vision -> observer -> resolver -> event log.

``RecordingSession.feed(item)`` takes a :class:`~recorder.sources.Frame` (or a
:class:`~recorder.sources.Gap`) and returns the events it caused, which are also appended to the
event log. The board is located on the first frames (unless a calibration is given); before an
observation is trusted the grid is checked for drift, and a moved board is located again
(``CalibrationChanged``) before anything is read from it. On the first observation the point
naming is checked against the start position both ways round (red's side may be unknown).
Clock presses (from a clock log or the serial link) are handed to the resolver in time order.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from calibration import BoardGeometry, BoardLocator, BoardNotFoundError
from calibration.geometry import CONFIRMED_BY_PIECES, side_of_rank0
from recorder.clocklog_input import LOG_BEYOND_S, ClockFeed, ClockPress
from recorder.events import (
    PICTURE_BLANK,
    PICTURE_FROZEN,
    SOURCE_CHANGED,
    Alert,
    BoardDisturbed,
    CalibrationChanged,
    Event,
    EventLog,
    MoveRecorded,
    RecordingStarted,
    RecordingStopped,
    SourceGap,
    recording_time,
)
from recorder.fouls import FoulTally
from recorder.glare import flat_plateaus, washed_out
from recorder.motion import MotionConfig, MotionDetector
from recorder.observer import (
    CLASSES,
    PIECE_CLASSES,
    Classifier,
    Observation,
    Observer,
    ObserverConfig,
    crop_shifts,
    point_rows,
    to_square_order,
)
from recorder.offpoint import GLARE_NO_PATCH, ParallaxMemory, find_discs, fuse_discs
from recorder.picture import PictureQuality
from recorder.resolver import Resolver, ResolverConfig
from recorder.resolver_scoring import Scorer, board_classes, colour_agreement
from recorder.sources import Gap, Lost, SourceItem
from recorder.stills import StillSaver
from recorder.vision import PieceClassifier
from rules import Move, Position
from rules.squares import square_name

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SessionConfig:
    """Settings of the whole pipeline."""

    observer: ObserverConfig = field(default_factory=ObserverConfig)
    motion: MotionConfig = field(default_factory=MotionConfig)
    resolver: ResolverConfig = field(default_factory=ResolverConfig)
    locate_every_s: float = 1.0  # while the board is not found, try again after this (doubling)
    locate_max_wait_s: float = 8.0  # ... up to this
    not_found_alert_s: float = 3.0  # the board unseen this long (video time) from the first try: tell the arbiter
    drift_min_shift: float = 0.15  # a grid found again within this many spacings: the board did not move
    # ... and farther, but reading the game's position this much worse per point than the grid in use: not taken
    regrid_worse: float = 0.3
    drift_quiet_s: float = 30.0  # after a drift check fooled by the pieces, wait this long (or for a move)
    # a view this many points unlike the game's position (empty, red, black): is the grid still on the
    # board? (checked once per move; a knock of a whole spacing fools the drift check)
    unlike_points: int = 8
    blank_alert_s: float = 1.0  # a picture blank this long (black, or one flat grey) is a camera lost
    # a live camera's picture the same to the last pixel this long is frozen (a capture card repeating
    # the last frame of a camera it lost): a camera lost too (0: not watched for; a file's frames may
    # repeat where a scene stood still, after compression)
    frozen_alert_s: float = 0.0
    # a still board with points covered this long: not watched, and looked for again (a knocked camera)
    covered_stuck_s: float = 3.0
    roi: tuple[int, int, int, int] | None = None  # read only this part of each frame: left, top, width, height
    covered_alert_s: float = 10.0  # ... and this long: the arbiter is told which points
    shake_alert_s: float = 5.0  # the camera shaking this long, with no calm of shake_calm_s: the arbiter is told
    shake_calm_s: float = 3.0
    shake_told_again_s: float = 60.0  # a camera that shook, was told of and has been calm this long is told of again
    # likelihood ratio of a disc on a point for "occupied", and of none for "empty" (1: off). bench.bench_discs
    # measures about 40 for "none" and thousands for a disc on rendered stills; 25 was tried and lost a
    # game on the recorder bench (video frames are blurrier than stills), so it stays well below both
    disc_evidence: float = 10.0
    glare_blind: float = 0.3  # a point this much blown out by glare: no disc found there is no evidence
    # ... and this much: its own patch is not searched for a circle (equalised, its lines make one)
    glare_no_patch: float = GLARE_NO_PATCH
    # points this much blown out cannot be read: the arbiter is told (once a spot), and they raise no disturbance
    glare_unreadable: float = 0.9
    # a point's square with less grey spread than this share of a bare crossing's, and bright: a lamp's flat
    # spot, clipped or not; its reading counts, but never as a sure contradiction
    glare_flat: float = 0.3
    # a disc this far off a point read this surely as a piece is read again with the crop centred on it, and
    # set aside when it reads the piece less surely there (by more than the slack): no piece's own disc
    disc_check_off: float = 0.3
    disc_check_sure: float = 0.9
    disc_centred_slack: float = 0.05
    disc_centred_sure: float = 0.9  # ... and only when it reads the piece less surely than this there
    orientation_margin: float = 20.0  # nats by which the turned naming must fit the game's position better
    mirror_margin: float = 0.05  # mean log-probability by which the board read flipped must fit the game better
    mirror_looks: int = 30  # still views that may be spent telling a mirrored camera (an empty board cannot)
    # a grid the locator refused as too weak is used when the pieces on it read as the game's position:
    confirm_min_visible: int = 60  # points not covered, at least
    confirm_agreement: float = 0.93  # share of them that hold what the position says (empty, red, black)
    confirm_pieces: float = 0.8  # share of the position's pieces among them read with their colour


class Rectifier:
    """``BoardGeometry.rectify`` with the pixel maps computed once (the lens model makes them costly)."""

    def __init__(self, geometry: BoardGeometry) -> None:
        self.geometry = geometry
        width, height = geometry.rectified_size
        ys, xs = np.mgrid[0:height, 0:width]
        pixels = np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)], axis=0).astype(np.float64)
        board = geometry.rectified_to_board() @ pixels
        board = (board[:2] / board[2]).T
        image = geometry.points_array(board).reshape(height, width, 2).astype(np.float32)
        self._map_x = np.ascontiguousarray(image[..., 0])
        self._map_y = np.ascontiguousarray(image[..., 1])

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        return cv2.remap(frame, self._map_x, self._map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


class RecordingSession:
    """Wires the stages for one board and keeps the timings of each (``timings``, milliseconds in total)."""

    def __init__(self, classifier: Classifier, *, geometry: BoardGeometry | None = None,
                 locator: BoardLocator | None = None, start: Position | None = None,
                 presses: Iterable[ClockPress] | None = None, events: EventLog | None = None,
                 config: SessionConfig | None = None, source_name: str = "",
                 on_event: Callable[[Event], None] | None = None, stills: StillSaver | None = None,
                 started_at: float = 0.0, presses_lost: Iterable[tuple[float, float]] = (),
                 source_origin: float | None = None) -> None:
        self.config = config or SessionConfig()
        self.stills = stills
        self.classifier = classifier
        self.locator = locator or BoardLocator()
        self.start = start or Position.start()
        # presses_lost: stretches of a clock log whose lines could not be read (ClockLog.damaged)
        self.clock = ClockFeed(presses, presses_lost) if presses is not None else None
        self.resolver = Resolver(self.start, self.config.resolver, clock=presses is not None)
        self.log = events or EventLog()
        self.fouls = FoulTally(self.start)  # each side's fouls, for the losses they add up to (art. 4.1.8-4.1.10)
        self.on_event = on_event
        self.geometry: BoardGeometry | None = None
        self.observer: Observer | None = None
        self._rectify: Rectifier | None = None
        self._parallax = ParallaxMemory()  # piece-top parallax of recent views (recorder.offpoint)
        self._glare_told: frozenset[int] = frozenset()  # points a glare alert has named
        self._lamp_before = np.zeros(90, dtype=bool)  # points glare blew out or flattened on the last still view
        self._flat_before = np.zeros(90, dtype=bool)  # the flat spot of the last still view that could say
        self.picture = PictureQuality()  # too dark, or without colour (judged on still views)
        self._next_locate = -np.inf
        self._locate_wait = self.config.locate_every_s
        self._first_not_found: float | None = None  # when the board was first looked for and not found
        # a frame was read on a grid (located, or the calibration given): the board was watched
        self.board_watched = False
        self._blind_alerted: float | None = None
        self._not_found_reason = ""
        self._drift_quiet_until = -np.inf  # drift checks wait until then (the last one was fooled)
        self._unlike_checked = False  # a view unlike the game made the board be looked for since the last move
        self._blank_since: float | None = None  # the picture has been blank (black) since then
        self._shaking_since: float | None = None  # the camera has been shaking since then (calm under shake_calm_s)
        self._shaking_last = -np.inf  # ... and last shook then
        self._shake_told = False  # ... and the arbiter was told (camera_shaking)
        self._blank_told = False  # ... and the arbiter was told (camera_lost)
        self._blank_why = ""  # ... why: black, flat grey, frozen
        self._last_small: np.ndarray | None = None  # the last frame, every fourth pixel (a frozen picture)
        self._last_small_t = 0.0  # ... and when it came
        self._frozen_since: float | None = None  # the picture has not changed since then
        self._covered_since: float | None = None  # still views covered since then, none handed over
        self._cover_core: np.ndarray | None = None  # ... the points covered on every one of them
        self._looked_for_second = False  # a second board in the picture is looked for once
        self._covered_told: float | None = None  # a still covered board: not watched (-inf), told at (t)
        self._grid_confirmed_at: float | None = None  # a calibration last found the board where the grid says
        self._lying_told = False  # the arbiter was told of something lying on the board
        self._oriented = False
        self._mirrored = False  # the camera gives a mirror image: every frame is flipped back first
        # views left to tell a mirrored camera by (0: told, or a grid given by the caller, which is
        # not relocated on flipped frames)
        self._mirror_looks = 0 if geometry is not None else self.config.mirror_looks
        self._grid_given = geometry is not None  # the grid in use came from the caller, not the locator
        self._locate_reason = ""  # why the board is looked for again, until a grid is found (a size change)
        self.frames = 0
        self.last_t = started_at
        self.timings: dict[str, float] = {"motion_ms": 0.0, "classify_ms": 0.0, "resolve_ms": 0.0, "locate_ms": 0.0,
                                         "offpoint_ms": 0.0}
        model = getattr(classifier, "sha256", None)
        self._emit([RecordingStarted(started_at, source_name, self.start.fen(), model if isinstance(model, str) else None,
                                     source_origin=source_origin)])
        if geometry is not None:
            self._use(geometry)

    # --- plumbing -----------------------------------------------------------------------
    def _emit(self, events: list[Event]) -> list[Event]:
        events = [*events, *self.fouls.after(events)]  # a foul that decides the game is advised at once
        for event in events:
            self.log.append(event)
            if self.on_event is not None:
                self.on_event(event)
        return events

    def _forget_lamp(self) -> None:
        """Judge a lamp's spot afresh: another grid or another camera shows another spot."""
        self._lamp_before = np.zeros(90, dtype=bool)
        self._flat_before = np.zeros(90, dtype=bool)
        if self.observer is not None:
            self.observer.under_lamp(self._lamp_before)

    def _use(self, geometry: BoardGeometry) -> None:
        self.geometry = geometry
        self._unlike_checked = False  # a board unlike the game is asked about again under this grid
        self.resolver.forget_offsets()  # offsets under another grid do not compare
        self._parallax.clear()
        self._glare_told = frozenset()  # glare is judged afresh under a new grid
        self._forget_lamp()
        self._rectify = Rectifier(geometry)
        named = geometry.points()
        square_points = np.array([named[square_name(sq)] for sq in range(90)])  # rules square order
        motion = MotionDetector.for_points(square_points, geometry.image_size, self.config.motion)
        if self.observer is None:
            self.observer = Observer(self._probabilities, motion, self.config.observer)
        else:
            self.observer.motion = motion
            self.observer.reset()

    def _probabilities(self, frame: np.ndarray) -> np.ndarray:
        assert self._rectify is not None
        return self._square_probs(self._rectify(frame))

    def _square_probs(self, rectified: np.ndarray) -> np.ndarray:
        started = time.perf_counter()
        result: Any = self.classifier.classify(rectified)
        probs = to_square_order(result.probs, result.classes)
        self.timings["classify_ms"] += 1000 * (time.perf_counter() - started)
        return probs

    def _discs_of_pieces(self, rectified: np.ndarray, offsets: np.ndarray, probs: np.ndarray,
                         field: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``offsets`` (90, 2) less the discs found well off a point read surely as a piece where a
        crop centred on the disc reads that piece less surely than the crop on the point does, and
        unsurely in itself: a circle traced along a pale piece's shadow or between two pieces, not
        the piece; and the (90,) mask of those set aside (no evidence either way of a piece there).

        Fresh s2200000-clean-020: a white advisor just set on e1, on white paper, read 1.00 on its
        point; the circle search found its disc 0.69 spacings away, where a centred crop read it
        0.75 (0.80, 0.35 and 0.14 on the next views), and it was raised as lying off its point. A
        knocked piece reads surer centred on its disc than on its point (standing inject-000 to
        -011: 1.00 on the disc every time, 0.94 or less on the point), or, knocked towards a
        neighbour whose edge the centred crop then holds, a little less surely but still surely (a
        reviewer's probe: a cannon 0.5 off towards a soldier, 0.98 on its point, 0.92 on its disc).
        The distance is judged from where the piece's top should stand (``field``, as ``fuse_discs``)."""
        cfg = self.config
        aside = np.zeros(90, dtype=bool)
        if not isinstance(self.classifier, PieceClassifier):
            return offsets, aside  # only a classifier that reads crops can read one centred on a disc
        off = offsets if field is None else offsets - field
        distance = np.hypot(off[:, 0], off[:, 1])
        pieces = probs[:, 1:PIECE_CLASSES]
        best = np.argmax(pieces, axis=1)
        on_point = pieces[np.arange(90), best]
        with np.errstate(invalid="ignore"):  # no disc found: NaN, never checked
            looked = np.flatnonzero((distance >= cfg.disc_check_off) & (on_point >= cfg.disc_check_sure))
        if looked.size == 0:
            return offsets, aside
        geometry = self.geometry
        assert geometry is not None
        crops = self.classifier.crops(rectified, spacing=geometry.spacing, margin=geometry.margin,
                                      shifts=crop_shifts(offsets, looked))
        read = self.classifier.predict_crops(crops[point_rows(looked)])
        classes = list(self.classifier.classes)
        kept = np.array(offsets, dtype=np.float64)
        for sq, reading in zip(looked, read, strict=True):
            on_disc = float(reading[classes.index(CLASSES[1 + best[sq]])])
            if on_disc < min(on_point[sq] - cfg.disc_centred_slack, cfg.disc_centred_sure):
                log.debug("the disc %.2f spacings off %s reads its piece %.2f centred on it, %.2f on the point: "
                          "set aside", distance[sq], square_name(int(sq)), on_disc, on_point[sq])
                kept[sq] = np.nan
                aside[sq] = True
        return kept, aside

    # --- the main step --------------------------------------------------------------------
    def feed(self, item: SourceItem) -> list[Event]:
        """Process one frame (or a report of a lost or returned source) and return the events it caused."""
        if isinstance(item, Lost):
            self.resolver.lost_sight(item.t, gone_since=item.t)
            text = (f"the camera gave no picture from {recording_time(item.t)} into the recording ({item.reason}); {item.action}. Moves made "
                    "meanwhile are read from the board once the picture returns; clock presses go on being logged")
            return self._emit([Alert(item.t, "camera_lost", (), "", text, self.resolver.game.ply)])
        if isinstance(item, Gap):
            self.resolver.lost_sight(item.t_resumed, gone_since=item.t)
            if item.reason == SOURCE_CHANGED:
                self.resolver.source_changed()
                self._forget_lamp()
            return self._emit([SourceGap(item.t, item.t_resumed, item.reason, item.attempts)])
        self.frames += 1
        t = item.t
        self.last_t = t
        image = item.image if self.config.roi is None else _region(item.image, self.config.roi)
        image = cv2.flip(image, 1) if self._mirrored else image
        events: list[Event] = []
        if self.clock is not None:
            heard = self.clock.heard_until()  # first: the presses it vouches for are queued by then
            self.resolver.clock_heard(heard, self.clock.unheard())
            for press in self.clock.until(t):
                events += self.resolver.press(press)
        # the camera's picture lost while the board was watched (before: the board is not found); a
        # picture once blank stays so up to twice the level, so a dark one does not flicker in and out
        level = BLANK_LEVEL * (2 if self._blank_since is not None else 1)
        blank = blank_picture(image[::4, ::4], level) if self.observer is not None else ""
        frozen = "" if blank else self._frozen(image, t)
        if blank or frozen:
            events += self._picture_blank(t, blank or frozen, since=self._frozen_since if frozen else None)
            events += self.resolver.tick(t)
            return self._emit(events)
        events += self._picture_back(t)
        if self.geometry is not None and tuple(self.geometry.image_size) != (image.shape[1], image.shape[0]):
            self._locate_reason = self._drop_calibration(image)
        reason = self._locate_reason or "board found"
        if self.observer is None:
            events += self._locate(image, t, reason)
            if self.observer is None:  # not found: presses while the board is not watched are not judged
                self.resolver.blind(t)
        if self.observer is not None:
            self.board_watched = True
            started = time.perf_counter()
            before = self.timings["classify_ms"]
            observation = self.observer.feed(image, t)
            spent = 1000 * (time.perf_counter() - started)
            self.timings["motion_ms"] += spent - (self.timings["classify_ms"] - before)
            if observation is not None:
                self._covered_since = self._covered_told = self._cover_core = None
                events += self._observed(image, observation)
            elif self.observer.covered_since is not None:  # counted from the first such view since the last observation
                if self._covered_since is None:
                    self._covered_since = self.observer.covered_since
                covered = self.observer.covered_points
                self._cover_core = covered if self._cover_core is None else self._cover_core & covered
                events += self._covered_still(image, t, self._covered_since)
            events += self._lying_alert(t)
            events += self._shake_alert(t)
            if self.picture.dark:  # a move it cannot see is no press without a move (recorder.picture)
                self.resolver.blind(t)
        started = time.perf_counter()
        events += self.resolver.tick(t)
        self.timings["resolve_ms"] += 1000 * (time.perf_counter() - started)
        if self.stills is not None:
            events += [still for event in events if isinstance(event, Alert)
                       for still in [self.stills.save(image, event)] if still is not None]
        return self._emit(events)

    def _shake_alert(self, t: float) -> list[Event]:
        """Tell the arbiter once the camera has been shaking for ``shake_alert_s`` (a stand on a table
        that shakes). The recorder takes the shake out, but it waits longer for a still board (moves
        are logged a few tenths of a second later), and a stronger shake can hide a move or make a
        clock press look made without one; the remedy is at the table. A camera bumped once shakes
        for a few frames only. Told again after a calm of ``shake_told_again_s``."""
        if self.observer is None:
            return []
        if not self.observer.motion.shaking:
            if self._shake_told and t - self._shaking_last > self.config.shake_told_again_s:
                self._shake_told = False
            return []
        if self._shaking_since is None or t - self._shaking_last > self.config.shake_calm_s:
            self._shaking_since = t
        self._shaking_last = t
        if self._shake_told or t - self._shaking_since < self.config.shake_alert_s:
            return []
        self._shake_told = True
        text = (f"the camera has been shaking since {recording_time(self._shaking_since)} into the recording (the "
                "whole picture moves a little from frame to frame): moves are logged a little later, and a stronger "
                "shake can hide a move or make a clock press look made without one; steady the camera's stand "
                "(or the table it stands on)")
        log.info("t=%.2f: %s", t, text)
        return [Alert(t, "camera_shaking", (), "", text, self.resolver.game.ply)]

    def _frozen(self, image: np.ndarray, t: float) -> str:
        """Why the picture counts as frozen at ``t`` (a live camera's, the same to the last pixel for
        ``frozen_alert_s``), or "". A camera's sensor never gives two frames alike; a capture card that
        lost its camera's signal repeats the last frame, and the board it shows stands still while the
        game goes on (a footage tester's frozen picture had presses blamed on the players)."""
        if self.config.frozen_alert_s <= 0 or self.observer is None:
            return ""
        small = image[::4, ::4]
        if self._last_small is None or small.shape != self._last_small.shape or not np.array_equal(small, self._last_small):
            self._last_small, self._last_small_t, self._frozen_since = small.copy(), t, None
            return ""
        if self._frozen_since is None:
            self._frozen_since = self._last_small_t  # the frame it repeats came then
        if t - self._frozen_since < self.config.frozen_alert_s:
            return ""
        return "frozen: the same frame over and over (a capture card repeating the last frame of a camera it lost?)"

    def _picture_blank(self, t: float, why: str, since: float | None = None) -> list[Event]:
        """The picture went black (or one flat grey), or froze, at ``t`` (since ``since``, when it is known
        to be earlier) while the board was watched: the camera's picture is lost, not the pieces. Told
        once, as a camera lost; moves made meanwhile are read from the board once the picture returns,
        and presses meanwhile wait for them. A footage tester's 10 s of black frames were read as every
        piece gone (art. 5.9), and the presses made in the dark blamed on the players."""
        if self._blank_since is None:
            self._blank_since, self._blank_why = (t if since is None else since), why
        self.resolver.blind(t)
        if self._blank_told or t - self._blank_since < self.config.blank_alert_s:
            return []  # (a black frame or two in a stream is no lost camera)
        self._blank_told = True
        self.resolver.lost_sight(t, gone_since=self._blank_since)
        since = self._blank_since
        went = "froze" if why.startswith("frozen") else "went blank"
        text = (f"the picture {went} at {recording_time(since)} into the recording ({why.split(':')[0]}): the "
                "camera shows nothing of the board. Moves made meanwhile are read from the board once the "
                "picture returns; clock presses go on being logged")
        log.info("t=%.2f: %s", t, text)
        return [Alert(since, "camera_lost", (), "", text, self.resolver.game.ply)]

    def _picture_back(self, t: float) -> list[Event]:
        """The picture shows something again at ``t`` (or the source ended): the stretch it was blank,
        once told, is logged as a gap of the source."""
        since, told, why = self._blank_since, self._blank_told, self._blank_why
        self._blank_since, self._blank_told, self._blank_why = None, False, ""
        reason = PICTURE_FROZEN if why.startswith("frozen") else PICTURE_BLANK
        return [SourceGap(since, t, reason, 0)] if since is not None and told else []

    def _covered_still(self, image: np.ndarray, t: float, since: float) -> list[Event]:
        """No still view has been handed over since ``since``: each read points as covered (a hand
        resting on the board, something left lying on it, or a camera that moved so the grid no longer
        fits the board), with only motion between them.

        After ``covered_stuck_s`` the board counts as not watched (what is played meanwhile is read
        from the board once it shows again, and clock presses wait for those moves instead of being
        judged), and the board is looked for again, so a camera that was knocked or zoomed is
        followed. When the board is found where the grid says, the covered points are something left
        lying there: the observer hands over views with them masked (``_lying_alert`` tells the
        arbiter). Otherwise, after ``covered_alert_s`` the arbiter is told once which points cannot
        be seen."""
        assert self.observer is not None
        stuck = t - since
        if stuck < self.config.covered_stuck_s:
            return []
        found = self._locate(image, t, "board moved", min_shift=self.config.drift_min_shift)
        # what lies there: the points covered on every still view since (a hand at work moves about)
        assert self._cover_core is not None  # kept by ``feed`` before each call
        points = self._cover_core
        if (not found and self._grid_confirmed_at is not None and self._grid_confirmed_at >= since
                and points.any()):
            if not np.array_equal(points, self.observer.lying):
                self._lying_told = False  # something new lies there, or it moved: tell again
            self.observer.accept_lying(points, since)
            # not read since ``since`` all the same (and not while other points, read as covered with no
            # hand there, still hold the views back): presses meanwhile are not judged (a tester's
            # wood read as covered on its river points drew three presses without a move and a loss)
            self.resolver.blind(t)
            return []
        if self._covered_told is None:
            self.resolver.lost_sight(t, gone_since=since)
            self._covered_told = -np.inf
        else:
            self.resolver.blind(t)
        if found:
            return found  # the camera moved: the board is read on the new grid
        if stuck < self.config.covered_alert_s or self._covered_told > -np.inf:
            return []
        self._covered_told = t
        names = tuple(square_name(int(sq)) for sq in np.flatnonzero(self.observer.covered_points))
        text = (f"{len(names)} points ({', '.join(names)}) have looked covered on every still view for "
                f"{stuck:.0f} s: something lies on the board or hides it, or the camera moved; moves are not "
                "recorded until the board can be seen, and are then read from it (clock presses meanwhile "
                "wait for them)")
        return [BoardDisturbed(t, "board_covered", names, "", text, self.resolver.game.ply)]

    def _lying_alert(self, t: float) -> list[Event]:
        """Tell the arbiter once when points found lying under something (``Observer.accept_lying``:
        covered on every still view while a fresh calibration finds the board where the grid says, so
        not a moved camera) have stayed hidden ``covered_alert_s``: a phone, a cup or a scoresheet left
        on the board, not a hand that will move. The rest of the board is read as usual meanwhile; a
        move to or from those points waits until they can be seen."""
        assert self.observer is not None
        lying = self.observer.lying
        if not lying.any():
            self._lying_told = False
            return []
        stuck = t - self.observer.lying_since
        if self._lying_told or stuck < self.config.covered_alert_s:
            return []
        self._lying_told = True
        names = tuple(square_name(int(sq)) for sq in np.flatnonzero(lying))
        text = (f"something lies on {len(names)} points ({', '.join(names)}), hiding them for {stuck:.0f} s: the "
                "rest of the board is recorded; a move to or from those points is recorded once they can be seen")
        return [BoardDisturbed(t, "board_covered", names, "", text, self.resolver.game.ply)]

    def _drop_calibration(self, image: np.ndarray) -> str:
        """Stop using a grid made for frames of another size (a calibration given for another camera
        mode, or a stream that changed resolution): it would read the board at the wrong places. The
        board is looked for in the picture, and the new grid's naming and mirroring are checked again."""
        assert self.geometry is not None
        made, now = "x".join(str(v) for v in self.geometry.image_size), f"{image.shape[1]}x{image.shape[0]}"
        if self._grid_given:
            reason = f"board found (the calibration given was made for {made} frames, these are {now}: not used)"
            log.warning("the calibration was made for %s frames but the frames are %s: looking for the board "
                        "instead", made, now)
        else:
            reason = f"board found again (the picture changed size from {made} to {now})"
            log.warning("the picture changed size from %s to %s: looking for the board again", made, now)
        self.geometry = self.observer = self._rectify = None
        self._oriented = False  # the locator's naming of the new grid is checked against the pieces
        self._mirror_looks = self.config.mirror_looks
        # looked for at once, and told afresh if it cannot be found (not as late as an earlier search's back-off)
        self._next_locate, self._locate_wait = -np.inf, self.config.locate_every_s
        self._first_not_found = self._blind_alerted = None
        return reason

    def _locate(self, image: np.ndarray, t: float, reason: str, min_shift: float = 0.0) -> list[Event]:
        """Calibrate on ``image`` and use the grid found; a grid within ``min_shift`` spacings of the
        one in use is not taken (nothing moved) and no event is returned."""
        if t < self._next_locate:
            return []
        self._next_locate = t + self._locate_wait
        started = time.perf_counter()
        try:
            geometry = self.locator.locate(image)
        except BoardNotFoundError as error:
            confirmed = self._confirmed_by_pieces(image, error.candidates)
            if confirmed is not None:
                geometry = confirmed
            else:
                return self._not_found(t, blank_picture(image) or error)
        finally:
            self.timings["locate_ms"] += 1000 * (time.perf_counter() - started)
        cut = geometry.points_off_frame(inset=0.0)
        if cut:  # what stands there cannot be read: every piece on them would read as gone (a reviewer)
            shown = ", ".join(cut[:6]) + (f" and {len(cut) - 6} more" if len(cut) > 6 else "")
            return self._not_found(t, f"the board was found, but {len(cut)} of its points lie outside the picture "
                                      f"({shown}): frame the whole board")
        return self._found(geometry, t, reason, min_shift, image)

    def _not_found(self, t: float, error: BoardNotFoundError | str) -> list[Event]:
        """Try again soon, and tell the arbiter once when the board has not been found for a while.

        A hand, a passer-by or the camera's exposure settling can hide the board on the first frames;
        that is not worth an alert. Until the alert the locator tries every ``locate_every_s``; after
        it, the tries back off (the camera may point elsewhere for hours).
        """
        reason = error if isinstance(error, str) else error.reason
        log.info("t=%.2f: board not found: %s", t, reason)
        if self.observer is None:
            if self._first_not_found is None:
                self._first_not_found = t
            self._not_found_reason = reason
            if self._blind_alerted is None:
                if t - self._first_not_found < self.config.not_found_alert_s:
                    return []  # try again soon, without backing off
                self._blind_alerted = t
                self._locate_wait = min(self.config.locate_max_wait_s, 2 * self._locate_wait)
                return [self._not_found_alert(t, reason)]
        self._locate_wait = min(self.config.locate_max_wait_s, 2 * self._locate_wait)  # back off
        return []

    def _not_found_alert(self, t: float, reason: str) -> BoardDisturbed:
        return BoardDisturbed(t, "board_not_found", (), "", f"the board cannot be found in the picture ({reason}); "
                              "nothing is recorded until it is", self.resolver.game.ply)

    def _confirmed_by_pieces(self, image: np.ndarray, candidates: list[BoardGeometry]) -> BoardGeometry | None:
        """Of the refused grids (either naming), the one on which the pieces read best as the game's
        position (see :func:`grid_confirmed_by_pieces`)."""
        return grid_confirmed_by_pieces(image, grids_to_confirm(image, candidates, self.locator), self.classifier,
                                        self.resolver.game.position.board, self.config)

    def _found(self, geometry: BoardGeometry, t: float, reason: str, min_shift: float,
               image: np.ndarray) -> list[Event]:
        """Use a grid found by the locator, unless it lies within ``min_shift`` spacings of the one in use."""
        self._locate_wait = self.config.locate_every_s
        shift = 0.0
        if self.geometry is not None:
            old = np.array(list(self.geometry.points().values()))
            new = np.array(list(geometry.points().values()))
            turned = np.array(list(geometry.turned().points().values()))
            straight, flipped = np.linalg.norm(old - new, axis=1).mean(), np.linalg.norm(old - turned, axis=1).mean()
            # the board was nudged, not turned: keep the point names it had (unless the pieces named
            # the new grid: the old names may be the wrong ones, as a calibration file's can be)
            if flipped < straight and CONFIRMED_BY_PIECES not in geometry.details:
                geometry, straight = geometry.turned(), flipped
            shift = float(straight / max(self.geometry.spacing_px(), 1e-9))
            if shift < min_shift:
                self._grid_confirmed_at = t  # the board is where the grid in use says
                return []
            if self._reads_game_worse(geometry, image):
                log.info("t=%.2f: a grid %.2f spacings from the one in use (confidence %.2f) reads the game "
                         "worse than it: not taken", t, shift, geometry.confidence)
                return []
        self._grid_given = False
        self._locate_reason = ""
        self._use(geometry)
        # the naming nearest the old grid's holds only if the old naming was right, which no view may
        # have told (another table's calibration file read where no piece stands): the pieces tell again
        self._oriented = False
        events: list[Event] = [CalibrationChanged(t, reason, shift, geometry.red_side, geometry.confidence)]
        if not self._looked_for_second:
            self._looked_for_second = True
            events += self._second_board(image, geometry, t)
        return events

    def _reads_game_worse(self, geometry: BoardGeometry, image: np.ndarray) -> bool:
        """Do the pieces on ``image`` read as the game's position clearly worse through ``geometry`` than
        through the grid in use (by ``regrid_worse`` in mean log-probability per point seen)?

        A grid found again while a hand works over the board can lock onto the wrong lines: on fresh
        s1800000-clean-033 one half a spacing off (confidence 0.59) was taken, its i-file fell on the
        table and read covered, and a move waited 5.6 s for the next grid. A board that really moved
        reads far worse through the old grid, so this keeps it from no true move. Grids the pieces
        confirmed, the first grid of a board not yet read, and any grid while the board does not
        match the record (the position read against may be the wrong one) are not asked."""
        if (self.geometry is None or self._rectify is None or CONFIRMED_BY_PIECES in geometry.details
                or not self.resolver.followed_or_seen or self.resolver.desynced):
            return False
        expected = board_classes(self.resolver.game.position.board)
        new = _reading_fit(self._square_probs(Rectifier(geometry)(image)), expected)
        old = _reading_fit(self._square_probs(self._rectify(image)), expected)
        log.debug("the game's position reads %.2f per point through the new grid, %.2f through the old", new, old)
        return new < old - self.config.regrid_worse

    def _second_board(self, image: np.ndarray, geometry: BoardGeometry, t: float) -> list[Event]:
        """Tell the operator when the picture holds room for another board and one is there (a wide
        shot of a playing hall): the locator takes the board whose lines show best, which may be the
        neighbours' game. Looked for once, with the board found painted over; skipped when no board
        of at least ``SECOND_BOARD_SIZE`` of its size fits beside it (a failed search costs seconds)."""
        points = np.array(list(geometry.points().values()), dtype=np.float32)
        lo, hi = points.min(axis=0), points.max(axis=0)
        size = hi - lo
        height, width = image.shape[:2]
        room = max(lo[0], width - hi[0]) >= SECOND_BOARD_SIZE * size[0] or \
            max(lo[1], height - hi[1]) >= SECOND_BOARD_SIZE * size[1]
        if not room:
            return []
        centre = points.mean(axis=0)
        hull = cv2.convexHull(points).reshape(-1, 2)
        covered = image.copy()
        fill = [int(v) for v in np.median(image.reshape(-1, image.shape[2]), axis=0)] if image.ndim == 3 else \
            int(np.median(image))
        cv2.fillPoly(covered, [((hull - centre) * 1.25 + centre).astype(np.int32)], fill)
        started = time.perf_counter()
        try:
            other = self.locator.locate(covered)
        except BoardNotFoundError:
            return []
        finally:
            self.timings["locate_ms"] += 1000 * (time.perf_counter() - started)
        where = np.array(list(other.points().values())).mean(axis=0)
        side = ("left" if where[0] < centre[0] else "right") if abs(where[0] - centre[0]) >= abs(where[1] - centre[1]) \
            else ("above" if where[1] < centre[1] else "below")
        text = (f"a second board is in the picture, {side} of the one being recorded (centred at x {centre[0]:.0f}, "
                f"y {centre[1]:.0f} px): if that is the neighbours' game, aim or zoom the camera on this board, or "
                "give --roi (the part of the picture to read) or a --calibration made for it")
        log.warning("%s", text)
        return [BoardDisturbed(t, "second_board", (), "", text, self.resolver.game.ply)]

    def _observed(self, image: np.ndarray, observation: Observation) -> list[Event]:
        assert self.geometry is not None and self.observer is not None
        drift = self.geometry.check_drift(image) if observation.t >= self._drift_quiet_until else None
        if drift is not None and drift.moved and not drift.occluded:
            self._next_locate = -np.inf
            found = self._locate(image, observation.t, "board moved", min_shift=self.config.drift_min_shift)
            if found:
                return found  # read the board again with the new grid
            # The grid was found where it was (what stands on the lines fooled the check) or not at
            # all: read the board with the grid in use, and trust it until the next move.
            log.info("t=%.2f: drift check says moved (score %.2f) but the board is where it was or not found; "
                     "not checked again until the next move", observation.t, drift.score)
            self._drift_quiet_until = observation.t + self.config.drift_quiet_s
        elif self._unlike_the_game(observation):
            # A camera knocked by about one spacing (or two) leaves every line where a line was, so
            # the drift check sees nothing, while every piece reads one point over: is the board
            # still where the grid says? Asked until a calibration says so (the locator's own pause
            # between tries spaces them), then not again until the next move.
            found = self._locate(image, observation.t, "board moved", min_shift=self.config.drift_min_shift)
            if found:
                return found
            self._unlike_checked = self._grid_confirmed_at == observation.t
        started = time.perf_counter()
        rectified = self._rectify(image) if self._rectify is not None else None
        if rectified is not None:
            spacing, margin = float(self.geometry.spacing), float(self.geometry.margin)
            washed = washed_out(rectified, spacing, margin)
            blind = washed >= self.config.glare_blind
            grey = cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY) if rectified.ndim == 3 else rectified
            discs = find_discs(grey, spacing, margin, parallax=self._parallax, occupied=observation.occupied,
                               blind=washed >= self.config.glare_no_patch)
            offsets, aside = self._discs_of_pieces(rectified, discs.offsets, observation.probs, discs.field)
            probs = fuse_discs(observation.probs, offsets, self.config.disc_evidence, blind=blind,
                               faint=discs.faint | aside, field=discs.field)
            flat = flat_plateaus(grey, spacing, margin, np.argmax(observation.probs, axis=1) == 0,
                                 share=self.config.glare_flat)
            observation = replace(observation, offsets=offsets, probs=probs,
                                  unreadable=washed >= self.config.glare_unreadable, washed=washed,
                                  flat=flat, view=grey)
            # a view that cannot say where a lamp flattens the board (too few points read as bare
            # crossings: read mostly "covered", as a hand left while it was taken) keeps what the
            # views before it showed: with the spot's memory lost, its points read "covered" were
            # held back as a hand's until two more views had shown it. It names nothing that was not
            # named before (a point seen flat on one view only is no lamp's yet: a sleeve moves on).
            # It keeps the flat spot, but only its own blown-out points: a run of such views would
            # otherwise gather every point blown out on any of them, and name a point blown out on
            # two views far apart as a steady lamp's (a reviewer's probe)
            if flat is None:
                lamp = self._flat_before | blind
                self.observer.under_lamp(self.observer.lamp | (blind & self._lamp_before))
            else:
                lamp = flat | blind
                self.observer.under_lamp(lamp & self._lamp_before)
                self._flat_before = flat
            self._lamp_before = lamp
        self.timings["offpoint_ms"] += 1000 * (time.perf_counter() - started)
        if self._mirror_looks > 0:
            mirrored = self._check_mirror(image, observation.t)
            if mirrored is not None:
                return mirrored
        if not self._oriented:
            self._oriented = True
            turned = self._check_orientation(observation)
            if turned is not None:
                return turned
        quality = self.picture.judge(rectified, image, observation.t, self.resolver.game.ply) if rectified is not None else []
        started = time.perf_counter()
        events = quality + self.resolver.observe(observation)
        self.timings["resolve_ms"] += 1000 * (time.perf_counter() - started)
        if any(isinstance(event, MoveRecorded) for event in events):
            self._drift_quiet_until = -np.inf
            self._unlike_checked = False
        if self.resolver.wants_retry:
            self.observer.retry_later(observation.t)
        return self._glare_warning(observation) + events

    def _unlike_the_game(self, observation: Observation) -> bool:
        """Does this view read at least ``unlike_points`` points as holding something else (empty, red
        or black) than the game's position, when that was not yet checked since the last move? More
        than the moves a view can show explain: the grid may sit a whole spacing off the board."""
        if self._unlike_checked:
            return False
        seen, agree, _ = colour_agreement(observation.probs, board_classes(self.resolver.game.position.board))
        return seen * (1.0 - agree) >= self.config.unlike_points - 0.5

    def _glare_warning(self, observation: Observation) -> list[Event]:
        """Tell the arbiter which points glare blows out to white, when a new spot of it appears.

        A piece there cannot be read (its character, colour and edge are gone), so a move to or
        from such a point may be recorded wrong or not at all; the remedy is at the table (shade
        the lamp, turn the board or the camera), which only a person can do. Judged on still views
        with no hand. A warning names every blown-out point, and is raised when one of them lies
        two points or more from every point blown out before under this calibration: light that
        comes and goes with people's shadows, or the edge of a spot that grows, raises nothing new.
        """
        if observation.unreadable is None or observation.washed is None:
            return []
        # a point glare washes reads "covered" as often as not: only one it leaves alone may be a hand
        # (fresh s1800000-clean-038: glare read so from the first view held the warning back 100 s)
        if (observation.mask & (observation.washed < self.config.glare_blind)).any():
            return []
        blown = frozenset(int(sq) for sq in np.flatnonzero(observation.unreadable))
        told, self._glare_told = self._glare_told, self._glare_told | blown
        if not any(_apart(sq, told) for sq in blown - told):  # nothing, or the edge of a spot named before
            return []
        names = tuple(square_name(sq) for sq in sorted(blown))
        text = (f"glare blows {', '.join(names)} out to white: the camera cannot read a piece there; "
                "shade the light or turn the board or the camera")
        log.info("t=%.2f: %s", observation.t, text)
        return [BoardDisturbed(observation.t, "glare", names, "", text, self.resolver.game.ply)]

    def _check_mirror(self, image: np.ndarray, t: float) -> list[Event] | None:
        """Flip every frame from now on when the camera gives a mirror image (a webcam's mirror
        setting): the board and the start position look the same mirrored, the characters do not.
        The board is read as seen and flipped left to right, and each reading scored against the
        position the game stands at (``_position_fit``); when the flipped one fits clearly better,
        the board is located again on flipped frames (a mirrored picture read as it is would record
        every move on the mirrored files). A view where neither reading shows the game's position
        (an empty board, one being set up) tells nothing: the next views are asked, up to
        ``mirror_looks`` of them."""
        if self._rectify is None:
            return None
        self._mirror_looks -= 1
        rectified = self._rectify(image)
        expected = board_classes(self.resolver.game.position.board)
        as_seen = _position_fit(self._square_probs(rectified), expected)
        flipped = _position_fit(self._square_probs(np.ascontiguousarray(rectified[:, ::-1])), expected)
        if max(as_seen, flipped) < MIRROR_TELLS:  # the pieces are not (yet) where the game has them: ask again
            return None
        self._mirror_looks = 0
        if flipped <= as_seen + self.config.mirror_margin:
            return None
        log.info("t=%.2f: the board read flipped left to right fits the game's position better (%.3f against "
                 "%.3f): the picture is mirrored", t, flipped, as_seen)
        self._mirrored = not self._mirrored  # (a picture read flipped may turn out to be the straight one)
        self._oriented = False  # the first view of the flipped picture is checked for red's side again
        self._next_locate = -np.inf
        reason = ("picture mirrored by the camera: read flipped left to right" if self._mirrored
                  else "picture no longer mirrored by the camera: read as it is")
        found = self._locate(cv2.flip(image, 1), t, reason)
        if not found:  # no grid on the flipped frame: look again on the next frames
            self.geometry, self.observer, self._rectify = None, None, None
        return found

    def _check_orientation(self, observation: Observation) -> list[Event] | None:
        """Turn the point naming by 180 degrees when the game's position (the start position on a
        first view; a game resumed or a grid found again mid-game stands further on) fits much better
        that way."""
        assert self.geometry is not None
        expected = board_classes(self.resolver.game.position.board)[None, :]
        straight = float(Scorer(observation.probs, observation.mask).scores(expected)[0])
        turned = float(Scorer(observation.probs[::-1], observation.mask[::-1]).scores(expected)[0])
        if turned <= straight + self.config.orientation_margin:
            return None
        geometry = self.geometry.turned()
        if geometry.red_side is None:  # the pieces have told it now (a status line said "not known yet")
            geometry = replace(geometry, red_side=side_of_rank0(geometry.homography))
        self._use(geometry)
        log.info("t=%.2f: the game's position fits the turned naming better; red's side is %s",
                 observation.t, geometry.red_side)
        return [CalibrationChanged(observation.t, "red side from the pieces", 0.0, geometry.red_side,
                                   geometry.confidence)]

    def adopt_record(self, plies: list[str], keep_later: bool = True) -> list[Event]:
        """Go on from the record as the arbiter corrected it (``plies``, ICCS, from the store).

        The correction was made on the record the console saw; this recorder may have recorded
        more plies meanwhile, which the corrected record then lacks. Those that still follow
        legally from it are kept (``keep_later``; not after a take-back, which removed them on
        purpose), and logged again after the correction so that the store has
        them: without them the board stands plies ahead of the record, and what the recorder
        reads next can only be explained by wrong moves.
        """
        own = list(self.resolver.game.moves) if keep_later else []
        position = self.resolver.game.start
        for iccs in plies:
            position = position.play(Move.from_iccs(iccs))
        kept: list[Move] = []
        for move in own[len(plies):]:
            if move not in position.legal_moves():
                break
            position = position.play(move)
            kept.append(move)
        self.resolver.adopt(1, plies + [move.iccs for move in kept], self.last_t, taken_back=not keep_later)
        logged = {(e.ply, e.iccs): e for e in self.log.events if isinstance(e, MoveRecorded)}
        again = [replace(logged[(ply, move.iccs)], t=self.last_t)
                 for ply, move in enumerate(kept, start=len(plies) + 1) if (ply, move.iccs) in logged]
        if kept:
            log.info("t=%.2f: the corrected record has %d plies; the %d recorded since it was read are kept",
                     self.last_t, len(plies), len(kept))
        return self._emit(list(again))

    def finish(self, reason: str = "end of source", complete: bool = True) -> list[Event]:
        """Close the record. At the end of the source (``complete``) the remaining clock presses are
        handed over and the clock grace runs out; a recording stopped part way (Ctrl-C) keeps the
        presses still to come for the run that resumes it."""
        events: list[Event] = []
        if self.observer is None and self._blind_alerted is None and self._first_not_found is not None:
            self._blind_alerted = self.last_t  # the source ended before the grace ran out: still say so
            events.append(self._not_found_alert(self.last_t, self._not_found_reason))
        if complete and self.clock is not None:
            heard = self.clock.heard_at_end(self.last_t)
            # a log running well past the source's end is another recording's (record raises
            # clock_log_mismatch): its later presses would count as this game's, and the sheet's time
            # used was the whole game's for a tester's 25 s clip
            presses = [press for press in self.clock.remaining() if press.t <= self.last_t + LOG_BEYOND_S]
            self.resolver.clock_heard(heard, self.clock.unheard())
            for press in presses:
                events += self.resolver.press(press)
        events += self.resolver.tick(self.last_t + (self.config.resolver.clock_grace_s if complete else 0.0))
        if complete:
            events += self.resolver.unread_at_end(self.last_t)
        events += self._picture_back(self.last_t)  # a picture blank to the end: its stretch logged too
        events.append(RecordingStopped(self.last_t, self.frames, reason))
        return self._emit(events)

    def close_after_fault(self, reason: str) -> list[Event]:
        """Close the record with nothing more judged: :meth:`finish` itself met a fault of the
        recorder's own, and the moves recorded must still be written out."""
        return self._emit([RecordingStopped(self.last_t, self.frames, reason)])


MIRROR_TELLS = math.log(0.5)  # a view whose better reading fits the game worse than this tells nothing


def _region(image: np.ndarray, roi: tuple[int, int, int, int]) -> np.ndarray:
    """The part ``roi`` (left, top, width, height) of ``image``; a region off the picture is an error."""
    x, y, w, h = roi
    height, width = image.shape[:2]
    if x + w > width or y + h > height:
        raise ValueError(f"the region {x},{y},{w},{h} (--roi) reaches beyond the {width}x{height} picture")
    return image[y:y + h, x:x + w]


SECOND_BOARD_SIZE = 0.8  # a second board is looked for only where one this big (of the first) would fit
BLANK_LEVEL = 8  # a picture with nothing brighter than this (of 255) shows nothing at all


def blank_picture(image: np.ndarray, level: float = BLANK_LEVEL) -> str:
    """Why no board can be found in a picture that is all black (nothing brighter than ``level``) or
    one flat grey, or "" when it shows something: a decoder that cannot convert an interlaced video
    gives black frames and says nothing."""
    low, high = float(image.min()), float(image.max())
    if high <= level:
        return ("the picture is black: a camera with its lens covered, or a video the decoder cannot show "
                "(an interlaced video gives black frames here; deinterlace it first, e.g. ffmpeg -vf yadif)")
    if high - low <= 2:
        return f"the picture is one flat grey ({high:.0f} of 255): the camera shows nothing"
    return ""


def _position_fit(probs: np.ndarray, expected: np.ndarray) -> float:
    """How well square-order probabilities show the position whose classes are ``expected``: the
    mean log-probability of the expected piece over the points it stands on, each at least
    log 0.05 (a piece set up on the wrong point is one point, not the whole verdict), under
    whichever naming (as given or turned by 180 degrees) fits better.

    Characters seen through a mirror belong to no set: on a frame of the start in each of the
    recorder benchmark's videos (640x360), read as filmed and mirrored, the board read flipped
    back fit the start better by 0.12-2.2 on all 95 mirrored frames where the board was found, and
    worse by 0.12 or more on all 96 frames as filmed; a start with a horse and a chariot swapped,
    0.26 either way."""
    squares = np.flatnonzero(expected != 0)
    return max(_floored_log_fit(named, expected, squares) for named in (probs, probs[::-1])) if squares.size else 0.0


def _apart(square: int, others: frozenset[int]) -> bool:
    """Is ``square`` two points or more (along a file or a rank) from every one of ``others``?"""
    return all(max(abs(square % 9 - other % 9), abs(square // 9 - other // 9)) >= 2 for other in others)


def grid_confirmed_by_pieces(image: np.ndarray, candidates: Iterable[BoardGeometry], classifier: Classifier,
                             board: str, config: SessionConfig | None = None) -> BoardGeometry | None:
    """Of ``candidates`` (either naming), the one on which the pieces read best as ``board`` (a
    position's board string), named so and with red's side set; None when none reads as it.

    Glare or blur can hide most grid lines while every piece still shows where it stands; a grid
    one line off, of the wrong spacing or on a part of the board puts pieces where the position
    has none, so agreement on (nearly) all points confirms the grid and its naming together. A grid a
    fraction of a spacing off agrees nearly as well (the crops hold some context): a blurred start's
    refused grid, 5 px off on average and skewed, agreed on 98 % of points and read the black horse
    on h9 as empty, raising a false alert, while the grid through the pieces (0.5 px off) agreed on
    all. So a candidate on which every point seen reads as the position is taken at once; else the
    rest are read too, and the one whose points read the position best (kinds too) is taken.
    """
    cfg = config or SessionConfig()
    expected = board_classes(board)
    best: tuple[float, BoardGeometry, int, float, float] | None = None
    for candidate in candidates:
        result: Any = classifier.classify(candidate.rectify(image))
        probs = to_square_order(result.probs, result.classes)
        # the turned naming reads the same picture with the squares in reverse order
        for geometry, named in ((candidate, probs), (candidate.turned(), probs[::-1])):
            seen, agree, pieces = colour_agreement(named, expected)
            if seen >= cfg.confirm_min_visible and agree >= cfg.confirm_agreement and pieces >= cfg.confirm_pieces:
                fit = _reading_fit(named, expected)
                if best is None or fit > best[0]:
                    best = (fit, geometry, seen, agree, pieces)
        if best is not None and best[3] >= 1.0:  # every point seen reads as the position: none reads better
            break
    if best is None:
        return None
    _, geometry, seen, agree, pieces = best
    log.info("grid refused by the locator (confidence %.2f) confirmed by the pieces: %d points seen, %.0f%% agree, "
             "%.0f%% of pieces", geometry.confidence, seen, 100 * agree, 100 * pieces)
    red_side = geometry.red_side or side_of_rank0(geometry.homography)
    return replace(geometry, red_side=red_side, details={**geometry.details, CONFIRMED_BY_PIECES: agree})


def grids_to_confirm(image: np.ndarray, refused: Iterable[BoardGeometry], locator: BoardLocator) -> Iterator[BoardGeometry]:
    """The grids to confirm by the pieces: the locator's ``refused`` ones (a few distinct grids,
    nearest to found first), then the grids through the pieces' centres (looked for only if those
    fail: a blurred camera's grid lines can be gone while its pieces still show where the board is)."""
    yield from refused
    yield from locator.from_pieces(image)


def grid_of_start_pieces(image: np.ndarray, refused: Iterable[BoardGeometry], locator: BoardLocator,
                         classifier: Classifier) -> BoardGeometry | None:
    """Of ``grids_to_confirm``, the grid on which the pieces stand as in the start position
    (``grid_confirmed_by_pieces``) and that can be read; None when none.

    Blur, glare or faint print can keep the lines from confirming a board that pieces set up for a
    game show plainly (bench inject-044's first frame: faint red lines under two glare spots). It is
    how ``calibrate`` and ``read-board`` place such a board; the recorder confirms the same grids
    against the game's own position (``RecordingSession._confirmed_by_pieces``)."""
    start = Position.start().board
    found = grid_confirmed_by_pieces(image, grids_to_confirm(image, refused, locator), classifier, start)
    return found if found is not None and found.unreadable() is None else None


def _reading_fit(probs: np.ndarray, expected: np.ndarray) -> float:
    """The mean log-probability of what the position puts on each point seen (empty or a piece of its
    kind), each at least log 0.05 (one misread point is one point, not the verdict)."""
    seen = probs.argmax(axis=1) != PIECE_CLASSES
    if not seen.any():
        return -math.inf
    return _floored_log_fit(probs, expected, np.flatnonzero(seen))


def _floored_log_fit(probs: np.ndarray, expected: np.ndarray, squares: np.ndarray) -> float:
    """The mean over ``squares`` of the log-probability of the expected class, each at least
    log 0.05: one misread point weighs as one point, never as the whole verdict."""
    return float(np.log(np.maximum(probs[squares, expected[squares]], 0.05)).mean())
