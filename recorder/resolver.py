"""The resolver: from the last confirmed position, the legal move that best explains a still board.

``Resolver.observe(observation) -> list[Event]``. Candidates are the current position (nothing
happened), every legal move, earlier positions of the game (an arbiter's restoration, art. 5.8,
within ``restore_plies``) and, when the clock announces two moves or nothing nearer fits, every
pair of moves. Each is scored by its log-likelihood under the classifier's per-point
probabilities (:class:`~recorder.resolver_scoring.Scorer`), masked points left out, plus a small
prior against pairs and restorations. The best is accepted when the classifier contradicts it on
at most ``max_bad_points`` points and it beats the best candidate with a different board by
``margin`` nats; otherwise :func:`~recorder.resolver_diagnose.diagnose` says what is wrong and the
resolver stays *desynchronised* (records nothing) until the board matches again.

Clock presses (``press``) and the passing of time (``tick``) go through a
:class:`~recorder.resolver_clock.ClockBook` when a clock is connected.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from recorder.clocklog_input import ClockPress
from recorder.events import (
    Alert,
    BoardDisturbed,
    ClockPressed,
    Event,
    IllegalMoveAlert,
    MoveRecorded,
    PositionRestored,
    TwoMovesSeen,
    corrections,
    game_ended,
    recording_time,
)
from recorder.observer import COVERED_INDEX, PIECE_CLASSES, Observation
from recorder.offpoint import MIN_DISCS, PatchShift, off_point, parallax_field, patch_shifts, residual_offsets
from recorder.resolver_catchup import CatchUp, catch_up
from recorder.resolver_clock import ClockBook
from recorder.resolver_diagnose import (
    Changes,
    best_physical_move,
    changes,
    diagnose,
    move_alert,
    move_pairs,
    other_pieces,
    other_side_there,
    placement_seen,
)
from recorder.resolver_scoring import Scorer, board_classes, boards_classes
from rules import Game, IllegalMoveError, Move, Position, RulesError, format_move
from rules.squares import BLACK, RED, parse_square, piece_name, side_of, square_name

log = logging.getLogger(__name__)

# alerts of a move the camera saw whole and the rules or the turn forbid: a player's, not a misreading
PLAYER_FOULS = frozenset({"illegal_move", "wrong_side"})
BLIND_UNJUDGED_S = 1.0  # a move read this soon after the board could not be seen is not judged for its press

START_BOARD = Position.start().board  # the standard start: made once, the set-up check looks at it on every view


@dataclass(frozen=True)
class _CleanView:
    """The last still view no piece was seen off its point on: the ``board`` then, its pieces'
    residual disc ``offsets`` (``residual_offsets``), its grey rectified picture (``view``, None
    when the view had none), where its pieces' tops stood (``tops``, ``parallax_field``), when
    (``t``), and the points whose piece it was the first clean view to show (``arrived``)."""

    board: str
    offsets: np.ndarray
    view: np.ndarray | None
    tops: np.ndarray | None
    t: float
    arrived: frozenset[int] = frozenset()


@dataclass(frozen=True)
class ResolverConfig:
    """How sure the resolver must be (log-likelihoods in nats)."""

    floor: float = 1e-3  # probabilities are floored here: one misread point costs at most ~7 nats
    type_floor: float = 0.1  # the piece type given occupancy is floored here (types are read less surely)
    bad_p: float = 0.1  # a point contradicts a candidate when its class has less than this
    confident_p: float = 0.8  # a reading this sure counts as a change in a diagnosis
    max_bad_points: int = 3  # points an accepted candidate may contradict (misread points, a knocked piece)
    margin: float = 3.5  # the best must beat the best different board by this much
    pair_prior: float = 6.0  # nats against two moves between still views (0 when the clock says 2)
    restore_prior: float = 3.0  # nats against going back to an earlier position
    untouched_prior: float = 15.0  # nats against a board that changes a point nothing came near
    restore_plies: int = 10  # how far back a restoration may go (art. 5.8.2: five rounds)
    # the start position seen after more plies than this is the pieces set up again for a new game
    # (a game over: a resignation, a draw agreed), not the arbiter taking the whole game back
    restart_after_plies: int = 4
    off_point: float = 0.3  # a piece that moved this many spacings off its point is off it (art. 5.9)
    off_point_new: float = 0.45  # the same for a piece seen for the first time there (no earlier view)
    off_point_moved: float = 0.2  # ... and that moved this far since a clean view (a steady calibration error is no knock)
    off_point_confirm: float = 0.95  # the second look at a piece seen off its point uses these thresholds times this
    # a piece's picture found again on a later view with this normalised correlation or more measures
    # where it went (recorder.offpoint.patch_shifts); knocked pieces of the bench matched 0.63-0.99
    patch_match: float = 0.6
    patch_sure: float = 0.85  # ... and this much clears a piece whose disc is measured off its point
    # ... and a move counts when the picture matches there this much better than where it stood
    # (knocked pieces: 0.38 or more; a piece in glare whose neighbour left, 0.02)
    patch_gain: float = 0.2
    # ... and no further than this: a picture found further off was a piece in a hand being carried away
    # (s980000-clean-043: an elephant lifted for its move matched 0.65 0.77 off) or a look-alike where
    # the piece has gone (inject-044: 0.61); the knocks of the benchmark moved 0.3-0.57
    patch_reach: float = 0.6
    # a piece whose picture matched this well where it went, this much better than where it stood, and
    # lies this far off its point is raised at the first look (knocked pieces of the standing set
    # matched 0.85-0.99 where they went and -0.4-0.47 where they stood)
    knock_certain_match: float = 0.9
    knock_certain_gain: float = 0.5
    knock_certain_off: float = 0.4
    off_point_washed: float = 0.4  # ... and a disc partly washed out by glare (its edge half gone) needs this
    washed_partly: float = 0.5  # the share of a point's square blown out by glare past which its disc is half gone
    alert_with_hidden: int = 1  # alert although this many points read "covered" (a stray reading, not a hand)
    edge_hidden_p: float = 0.25  # with a hand over a point, points read this surely "covered" are hidden too
    confirm_alerts: bool = True  # raise a new trouble only when a second look sees it too
    in_hand_s: float = 5.0  # pieces gone from points a hand was just near are alerted missing after this long
    clock_grace_s: float = 4.0  # unmatched presses / unpressed moves are flagged after this
    # a press this long or more before the board was last seen still ahead of a move was made before
    # it (art. 8.1.7); a live camera's delay must fit inside (the clock's presses come without one)
    early_press_margin_s: float = 0.3
    catch_up_views: int = 12  # unexplained views read as one path of moves, at most (recorder.resolver_catchup)
    catch_up_margin: float = 8.0  # nats a path must lead any path to another board by: a wrong path records wrong moves
    # ... for plies read from one view (_bridge_gap: the camera away, glare, a corrected record), against
    # a board with two pieces of a colour the other way round, with no point against the path:
    # recording it, the pair named, beats stopping until the arbiter comes (the board would never be
    # explained again)
    bridge_swap_margin: float = 3.0
    gap_plies: int = 6  # plies the board may be on after the camera was away, read from one view (_bridge_gap)
    revise_window: float = 8.0  # a move this close behind a recorded one stays its rival (see _revise)
    revise_plies: int = 8  # how far back a recorded move may be revised by what the board shows later
    revise_margin: float = 8.0  # nats a revision must lead the record and other revisions by (it rewrites moves)
    inconclusive_looks: int = 3  # a still board no candidate clearly explains is read again this many times
    # the same points hidden on every view this long, moves or not: something lies there, not a hand
    # that may hold a piece; the rest of the board is judged without waiting for them
    lasting_hidden_s: float = 8.0
    # ... this long, on views with no arm over the board's edge (the observer's): a piece the classifier
    # reads as covered, not a hand; a move onto or off it that the rest of the view names clearly is judged
    read_covered_s: float = 2.0
    remind_s: float = 20.0  # a trouble that still stands is raised again on a still view this long after
    # presses waiting for moves the board does not show, past which a trouble is the recorder having
    # lost the game (the players went on), told once as ``lost_track`` (0: never)
    lost_track_presses: int = 3

    def __post_init__(self) -> None:
        if not 0 <= self.inconclusive_looks <= 20:
            raise ValueError("inconclusive_looks must be within 0-20")
        if not 1e-9 < self.floor < 0.5:
            raise ValueError("floor must be within 1e-9-0.5")
        if not 0 <= self.max_bad_points <= 10:
            raise ValueError("max_bad_points must be within 0-10")
        if self.margin < 0 or self.pair_prior < 0 or self.restore_prior < 0 or self.untouched_prior < 0:
            raise ValueError("margin and priors must not be negative")
        if self.revise_window < 0 or self.revise_margin < 0 or not 0 <= self.revise_plies <= self.restore_plies:
            raise ValueError("revise_window and revise_margin must not be negative, revise_plies within 0-restore_plies")
        if not 0.0 <= self.early_press_margin_s <= 10.0:
            raise ValueError("early_press_margin_s must be within 0-10 s")
        if self.lost_track_presses < 0:
            raise ValueError("lost_track_presses must not be negative")


@dataclass(frozen=True)
class _Candidate:
    kind: str  # "current", "move", "pair", "restore"
    board: str
    moves: tuple[Move, ...] = ()
    restore_ply: int = -1
    prior: float = 0.0


@dataclass
class _Decision:
    candidate: _Candidate
    score: float
    gap: float
    bad: int
    confidence: float
    ranked: list[tuple[float, _Candidate]] = field(default_factory=list)


@dataclass(frozen=True)
class _Rivals:
    """A move recorded from a view, and the moves that came within ``revise_window`` nats of it there in its
    place (at most four: the runners-up the decision ranked); ``t_still`` is that view's."""

    iccs: str
    moves: tuple[Move, ...]
    t_still: float


class _Revision(NamedTuple):
    """The record with ply ``ply`` played as ``rival`` instead, and what this view decides from there."""

    score: float
    ply: int
    rival: Move
    game: Game
    decision: _Decision


class Resolver:
    """Keeps the confirmed game and turns observations (and clock presses) into events."""

    def __init__(self, start: Position | None = None, config: ResolverConfig | None = None,
                 clock: bool = False) -> None:
        self.config = config or ResolverConfig()
        self.game = Game(start)
        self.desynced = False
        self._desynced_since: float | None = None  # when the board went wrong (the first alert)
        self._unseen_since: float | None = None  # the camera's last frame before a gap not yet read past
        self._corrected_at: float | None = None  # the arbiter changed the record then; the board not matched since
        self._own: list[str] | None = None  # the moves (ICCS) this recorder read itself; None: the record's
        # boards of the game as this recorder read it, where the arbiter's correction says otherwise: a
        # move back to one of them would undo the correction unseen (cleared once the board matches)
        self._read_before: frozenset[str] = frozenset()
        self._undoing: frozenset[tuple[int, int]] = frozenset()  # (from, to) of a move that would undo it
        self.last_trouble: float | None = None  # latest board trouble that may bring clock corrections
        self._blind_at: float | None = None  # the board last could not be seen (or not well enough) then
        # whether the trouble standing now may: an illegal move or a board no move explains may be
        # put right with the clock pressed back (art. 5.8.3); a knocked or missing piece is not
        self._clock_trouble = False
        self.clock = (ClockBook(self.game.position.side_to_move, self.config.clock_grace_s, start=self.game.start,
                                early_margin_s=self.config.early_press_margin_s) if clock else None)
        self._reported_end: tuple[str, int] | None = None
        self._last_advisory: str | None = None  # the advice already given (told once while it holds)
        self.observations = 0
        self.wants_retry = False  # the last observation asks for a second look (hidden points, a new trouble)
        # the last view's best change touches a point it could not see, or is a legal move not yet read
        # clearly enough to record (glare over its target): presses wait for it
        self._move_hidden = False
        self._move_hidden_since: float | None = None  # ... such views came since this (its press may be older)
        # Glare blows out points on the last view so that a whole legal move of the side to move could
        # be there unseen (its piece and its target both unreadable): a press then may be that move's,
        # so presses wait, and a view showing fewer moves than the presses announce is not recorded
        # (the first of them may be hidden). Since when such views have come without a move recorded
        # (a move seen once the glare lifts may have been made then: its press may be that old).
        self._glare_may_hide = False
        self._glare_since: float | None = None
        self._blind: frozenset[int] = frozenset()  # the points glare blew out on the last view
        self._lost_at: int | None = None  # the ply the record stopped at when ``lost_track`` was told
        self._desync_kinds: frozenset[str] = frozenset()  # the kinds of the trouble the board went wrong with
        self._recorded_at = -math.inf  # the still view the last move was recorded from
        self._inconclusive = 0  # inconclusive looks at the board since something last moved on it
        self._offsets_ref: _CleanView | None = None  # the last view no piece was seen off its point on
        self._suspect: tuple[tuple[str, tuple[str, ...]], ...] | None = None
        self._suspect_since = 0.0  # when the trouble waiting for its second look was first seen
        self._suspect_hold = 0.0  # and how long it must stand before it is raised
        self._suspect_alerts: tuple[Alert, ...] = ()  # the trouble itself
        self._raised: tuple[tuple[str, tuple[str, ...]], ...] | None = None  # the trouble raised last, while it stands
        self._raised_seen = ""  # the placement seen when it was raised (or last judged told)
        self._raised_at = 0.0
        # Points something moved near since the board was last judged whole (all at first), and the
        # points of the disturbance last raised: a reading that changes on a point nothing touched
        # is the camera misreading it, not a disturbed board (unless it was already disturbed).
        self._touched = np.ones(90, dtype=bool)
        self._moved_yet = False  # something has moved over the board since the recorder first saw it
        self._looked = False  # a view has been observed
        self._standing: frozenset[int] = frozenset()
        # the points of the set-up fault told before the first move (art. 1.3), until they read right
        self._set_up_fault: frozenset[int] = frozenset()
        # Points whose raised disturbance went away with nothing touching them: the camera misreads
        # them (glare, a shadow), so they raise nothing more until a move changes what stands there.
        self._unreliable: set[int] = set()
        # Points the classifier read wrong with nothing near them: a wrong reading there raises
        # nothing until a move changes what stands there (a disc knocked off the point still does).
        self._misread: set[int] = set()
        # Points the last whole view accepted as the record read clearly otherwise, and what they read
        # (a class index): while a point reads that same wrong thing, its reading says nothing about
        # what changed there, so it is left out of the judgement (a washed-out piece read as empty
        # would otherwise vote for any move that empties its point).
        self._stale: dict[int, int] = {}
        self._unexplained: list[tuple[Observation, Scorer]] = []  # views no continuation fitted, in order
        # the best path of legal moves through them, fitting each, when a rival as good kept it from being recorded
        self._unclear_path: tuple[Move, ...] = ()
        # The last whole view since a candidate was accepted that showed one legal move, fitting every
        # point but not clearly enough to record (glare over its target): the record's board, the view's
        # scorer and the points something had moved near by then.
        # A later view showing that move and a reply can be unclear over which move came first, and
        # this view, of a different moment, is evidence on that (see _decide).
        self._one_move_view: tuple[str, Scorer, np.ndarray] | None = None
        self._presses: dict[int, ClockPress | None] = {}  # the press that completed each recorded ply
        # The move a one-ply take-back removed (ply, ICCS, its press): the same move made again next
        # is the position put back (by the arbiter or the player), not a new move awaiting a press.
        self._put_back: tuple[int, str, ClockPress | None] | None = None
        self._restored_at: float | None = None  # a position was last put back then (art. 5.8)
        self._seen_off: frozenset[int] = frozenset()  # squares whose piece this view sees lying off its point
        # ... of them, those whose pictures moved so far and so clearly that one look is enough (_confirm)
        self._seen_knocked: frozenset[int] = frozenset()
        self._suspect_off: frozenset[int] = frozenset()  # those seen so when the trouble now looked at was first seen
        # Recorded single moves that had a close rival: ply -> what was recorded then (see _revise).
        self._rivals: dict[int, _Rivals] = {}
        self._touched_at = np.full(90, -math.inf)  # when something last moved near each point
        self._moved_near = np.zeros(90, dtype=bool)  # something moved near the point since the last view
        # something moved near the point since the record last changed (its key: ply and board)
        self._moved_since_record = np.zeros(90, dtype=bool)
        self._record_key: tuple[int, str] = (0, "")
        self._revision_seen: tuple[int, str, str] | None = None  # (ply, rival, board) waiting for a second look
        self._revision_stale = False  # no revision explained the last view, and nothing moved since
        # When the board was last seen whole and as recorded, and when motion over it first began
        # after that: a press by the mover between the two came before the move (art. 8.1.7).
        # Glare may hide some points of that view: a move whose two points were both hidden may
        # already have been made then, so its press is not judged against that view (one point
        # seen as recorded is enough: the piece still stood there, or its target still held what it did).
        self._board_seen_at: float | None = None
        self._board_first_seen_at = 0.0  # the first of the views since that saw the board as recorded
        self._moving_since: float | None = None
        self._board_seen_blind: frozenset[int] = frozenset()
        self._occupied_seen: np.ndarray | None = None  # (90,) how surely each point read occupied on that view
        self._red_seen: np.ndarray | None = None  # (90,) ... and, if occupied, red
        self._hidden: np.ndarray | None = None  # the points hidden on the last views, the same since...
        self._hidden_since = -math.inf
        self._calm_hidden: np.ndarray | None = None  # ... and, with nothing moving near them, since
        self._calm_since = math.inf
        self._flat_before = np.zeros(90, dtype=bool)  # the points of a lamp's flat spot on the last view
        self._flat_lamp = np.zeros(90, dtype=bool)  # ... of those, the ones flat on the view before it too
        self._lamp = np.zeros(90, dtype=bool)  # the points of this view a lamp hides: "covered" there is no hand
        # A game taken up from another source (a backup camera's file) that starts earlier in the game:
        # its views are followed through the recorded plies (the ply shown, views that fit none of them)
        # instead of being taken for an arbiter's restore and recorded again.
        self._other_source = False
        self._following: list[int] | None = None
        # a whole view has shown the record's position (a source the game was taken up from shows it)
        self.followed_or_seen = False
        # the ply of the record a new source showed and then left for a board the record never had:
        # another game that began the same way, or a record gone wrong there
        self.left_followed: int | None = None
        self._followed_press: str | None = None  # the side whose press of the last followed ply may still come
        # when the pieces were seen set up again for a new game (``_set_up_again``): the record stands
        # as it was, and the next game's moves and presses are not added to it
        self.set_up_again_at: float | None = None

    # --- observations ------------------------------------------------------------------
    def observe(self, observation: Observation) -> list[Event]:
        """Events for one still view of the board (possibly none)."""
        self.observations += 1
        cfg = self.config
        if observation.t_moved is not None and self._moving_since is None:
            self._moving_since = observation.t_moved
        touched = (np.ones(90, dtype=bool) if observation.touched is None
                   else np.asarray(observation.touched, dtype=bool))
        # the first view's touched points are all of them (the motion watch has nothing before it to
        # compare with): only a later view, or a view that cannot say, tells that something moved
        self._moved_yet = self._moved_yet or observation.touched is None or (self._looked and bool(touched.any()))
        self._looked = True
        self._touched |= touched
        self._touched_at[touched] = observation.t
        key = (self.game.ply, self.game.position.board)
        if key != self._record_key:  # the record changed since the last view: what moved before is its moves'
            self._record_key, self._moved_since_record = key, np.zeros(90, dtype=bool)
        self._moved_since_record |= touched
        # what this view knows moved near each point since the last one (nothing, when it does not know)
        self._moved_near = touched if observation.touched is not None else np.zeros(90, dtype=bool)
        if touched.any():
            self._revision_stale = False
            self._inconclusive = 0
        scorer = Scorer(observation.probs, observation.mask, cfg.floor, cfg.bad_p, cfg.type_floor,
                        unreliable=_unreliable(observation), ignored=self._still_misread(observation))
        self._seen_off = self._seen_knocked = frozenset()
        self._note_glare(observation)
        self._lamp = self._lamp_points(observation, touched)
        followed = self._follow_earlier_source(scorer, observation)
        if followed is not None:
            return followed
        restarted = self._set_up_again(scorer, observation)
        if restarted is not None:
            return restarted
        decision = self._decide(scorer, with_pairs=False)
        unclear_move = False  # this view shows one legal move, fitting every point but not clearly
        if not self._acceptable(decision, scorer):
            one_move = decision
            decision = self._decide(scorer, with_pairs=True)
            if decision.candidate.kind == "pair" and not self._acceptable(decision, scorer):
                decision = self._with_one_move_view(decision, scorer, observation.t)
            if (one_move.candidate.kind == "move" and one_move.bad == 0
                    and not (observation.mask & ~(self._lamp | self._glare_of(observation))).any()
                    and decision.candidate.kind != "pair"):
                unclear_move = True
                self._one_move_view = (self.game.position.board, scorer, self._touched.copy())
                log.debug("t=%.2f: kept as the view of one move: %s", observation.t, one_move.candidate.moves[0].iccs)
        t = observation.t
        self.wants_retry = False
        self._move_hidden = unclear_move  # a press meanwhile may be that move's: it waits for it
        if unclear_move and self._move_hidden_since is None:
            self._move_hidden_since = observation.t_moved if observation.t_moved is not None else t
        masked = int((observation.mask & ~self._lamp).sum()) > cfg.alert_with_hidden
        if self._hidden is None or not np.array_equal(self._hidden, observation.mask):
            self._hidden, self._hidden_since = np.array(observation.mask, dtype=bool), t
        lasting = observation.mask.any() and t - self._hidden_since >= cfg.lasting_hidden_s  # not a hand
        events: list[Event] = []
        if not masked and not self._acceptable(decision, scorer):
            revised = self._revise(scorer, decision, t)
            if revised is not None:
                events, decision = revised
            elif self.wants_retry:  # a revision of the record waits for its second look
                return []
        acceptable = self._acceptable(decision, scorer)  # the decision is final from here
        if acceptable and decision.bad and self._unseen_since is not None and decision.candidate.kind != "current":
            # the first view since the camera was away, read as one move that leaves points contradicted:
            # more moves made meanwhile may explain it all (an exchange leaves its point occupied, so a
            # later move alone can look nearly right, and was recorded before the exchange's moves)
            bridged = self._bridge_gap(observation, scorer, fewer_bad_than=decision.bad)
            if bridged is not None:
                return events + bridged
        if acceptable and self._fewer_than_pressed(decision.candidate):
            log.debug("t=%.2f: the clock announces more moves than %s and glare may hide one; waiting", t,
                      " ".join(m.iccs for m in decision.candidate.moves))
            return events
        if acceptable and self._touches_mask(decision, observation):
            log.debug("t=%.2f: best candidate changes a point that could not be seen; waiting", t)
            if decision.candidate.kind == "move" and decision.bad == 0 and (
                    self._glare_hides_all(observation) or self._only_covered_changed(decision, observation)):
                # a move seen but for where it landed, under glare, or on a point read as covered with no
                # arm over the board's edge (a tester's fast game: two such moves told as made at once):
                # the reply that shows it let go of is no second move made between still views
                self._one_move_view = (self.game.position.board, scorer, self._touched.copy())
            self.wants_retry = True
            self._move_hidden = True  # a press meanwhile may be that move's: it waits for it
            if self._move_hidden_since is None:
                self._move_hidden_since = observation.t_moved if observation.t_moved is not None else t
            return events
        if (acceptable and decision.bad and decision.candidate.kind != "current" and observation.mask.any()
                and not lasting):
            # a hand still over the board may hold the piece that contradicts it (lifted, or set down
            # where no legal move goes): a change that needs a misread point waits for the hand to go
            log.debug("t=%.2f: a hand is over the board and the best change contradicts %d point(s); waiting",
                      t, decision.bad)
            self.wants_retry = True
            return events
        if acceptable:
            residual = [] if masked else self._residual(decision.candidate.board, scorer, observation)
            hold = self._residual_hold(decision.candidate, residual, scorer, observation)
            restored = self._clock_trouble and decision.bad == 0  # every point reads as the record again
            if residual and self.desynced and decision.candidate.kind == "current" and not restored:
                return events + self._raise_residual(residual, t, hold)  # still disturbed
            onto_glare = self._illegal_onto_glare(decision, residual, scorer, observation)
            if onto_glare is not None:
                return events + self._confirm([onto_glare], t)
            events += self._accept(decision, observation)
            self._move_hidden_since = None  # the board is judged: a move it hid is recorded, with its press
            if masked:  # not judged whole: touches keep counting
                return events + self._confirm(residual, t)
            if not residual and not (observation.mask & ~self._lamp).any():
                # a whole view, as recorded, but for glare: a point it blows out reads "covered" as often
                # as not, with no hand there (fresh s1800000-clean-004: two such points under a steady
                # lamp kept every view from counting, and a press made before a move went untold)
                if self._board_seen_at is None:
                    self._board_first_seen_at = t
                self._board_seen_at, self._moving_since = t, None
                self.followed_or_seen = True
                self._board_seen_blind = frozenset(np.flatnonzero(_unreliable(observation)).tolist())
                if not observation.mask.any():
                    self._occupied_seen, self._red_seen = scorer.occupied_p.copy(), scorer.red_share()
                    self._note_misread(observation)
            return events + self._raise_residual(residual, t, hold)
        if masked and not lasting:  # part of the board is hidden (a hand may hold a piece): look again before alerting
            log.debug("t=%.2f: no candidate fits and %d points are hidden; waiting", t, int(observation.mask.sum()))
            self.wants_retry = True
            self._moves_may_be_hidden()
            return []
        knocked = self._knock_looked_at_again(decision, scorer, observation)
        if knocked is not None:
            return events + knocked
        if self._unseen_since is not None or self._corrected_at is not None or self._glare_since is not None:
            # the first views since the camera was away or the arbiter changed the record: moves made
            # meanwhile that the recorder did not see, or saw but could not record against the record then
            # (or made under glare that hid them whole)
            bridged = self._bridge_gap(observation, scorer)
            if bridged is not None:
                return bridged
        alerts = diagnose(self.game.position, scorer, t=t, ply=self.game.ply, confident_p=cfg.confident_p,
                          margin=cfg.margin, max_bad=cfg.max_bad_points,
                          from_standard_start=self.game.start.board == START_BOARD,
                          touched=self._touched & ~self._glare_unchanged(scorer, observation),
                          as_set_up=self.game.ply == 0 and not self._moved_yet)
        if self._glare_may_hide and self.clock is not None and self.clock.moves_pressed(self.game.position.side_to_move):
            # the side to move pressed, and glare may hide its move: the other side's move seen is its reply
            alerts = [a for a in alerts if a.kind != "wrong_side"]
        if alerts and self._best_move_explains(decision, alerts, scorer, observation):
            log.debug("t=%.2f: %s explains the points of %s but does not lead clearly (gap %.1f): looking again",
                      t, decision.candidate.moves[0].iccs, ", ".join(a.kind for a in alerts), decision.gap)
            alerts = []
        illegal = any(isinstance(alert, IllegalMoveAlert) for alert in alerts)
        if not illegal:  # a move the rules forbid is no path
            self._unclear_path = ()
            caught_up = self._catch_up(observation, scorer)
            if caught_up is not None:
                return caught_up
            if alerts and not self.desynced and self._explained_unclearly(alerts):
                log.debug("t=%.2f: legal moves explain the board (%s, or a rival as good) but not clearly: "
                          "looking again", t, _iccs(self._unclear_path))
                alerts = []
                self._move_hidden = True  # presses meanwhile are those moves': they wait for them
                if self._move_hidden_since is None:
                    first = self._unexplained[0][0]
                    self._move_hidden_since = first.t_moved if first.t_moved is not None else first.t_still
        if not alerts:
            # a move whose points the camera reads poorly (glare, blur) often reads clearly a moment later
            self._inconclusive += 1
            self.wants_retry = self.wants_retry or self._inconclusive <= cfg.inconclusive_looks
            log.debug("t=%.2f: observation inconclusive (gap %.1f, %d bad points); %s", t, decision.gap,
                      decision.bad, "looking again" if self.wants_retry else "waiting")
        # an illegal move is raised at once; pieces only gone may still be in the player's hand
        hold = max(self._hand_hold(scorer), self._colour_hold(decision, scorer)) if alerts and not illegal else 0.0
        confirmed = self._confirm(alerts, t, hold)
        if self.game.ply == 0 and any(alert.article == "1.3" for alert in confirmed):
            # the set-up fault stands on its points (see ``_residual``)
            self._set_up_fault = frozenset(parse_square(name) for alert in confirmed for name in alert.squares)
        return list(confirmed)

    def _still_misread(self, observation: Observation) -> np.ndarray:
        """(90,) the points that read as wrongly as on the last whole view accepted as the record.

        A point that reads otherwise now (a piece came or went, or the glare moved) counts again.
        """
        still = np.zeros(90, dtype=bool)
        if not self._stale:
            return still
        reading = _piece_reading(observation.probs)
        for sq, seen in list(self._stale.items()):
            if observation.mask[sq]:
                continue  # hidden now (a hand passing): what it reads says nothing either way
            if reading[sq] == seen:
                still[sq] = True
            else:
                del self._stale[sq]
        return still

    def _note_misread(self, observation: Observation) -> None:
        """Remember the points this whole view, accepted as the record, reads clearly otherwise (or, if
        they did before, still reads so)."""
        reading = _piece_reading(observation.probs)
        record = board_classes(self.game.position.board)
        # the view's own scorer leaves the points already known out of its contradictions: judged afresh
        scorer = Scorer(observation.probs, observation.mask, self.config.floor, self.config.bad_p,
                        self.config.type_floor, unreliable=observation.unreadable)
        known = np.zeros(90, dtype=bool)
        known[list(self._stale)] = True
        # clearly wrong now, or wrong as before (a reading may waver in how sure it is)
        wrong = scorer.bad_points(record) | (known & (_holds(reading) != _holds(record)) & ~observation.mask)
        self._stale = {int(sq): int(reading[sq]) for sq in np.flatnonzero(wrong)
                       if self._stale.get(int(sq), reading[sq]) == reading[sq]}

    def _note_glare(self, observation: Observation) -> None:
        """Note whether this view's glare could hide a whole move of the side to move (see ``__init__``)."""
        blind = observation.unreadable
        self._blind = frozenset(np.flatnonzero(blind).tolist()) if blind is not None else frozenset()
        self._glare_may_hide = blind is not None and bool(blind.any()) and any(
            blind[m.from_square] and blind[m.to_square] for m in self.game.position.legal_moves())
        if self._glare_may_hide and self._glare_since is None:
            self._glare_since = observation.t_moved if observation.t_moved is not None else observation.t

    def _moves_may_be_hidden(self) -> None:
        """Part of the board stays hidden (since ``_hidden_since``) and nothing explains the rest: a move
        may be under it. Presses meanwhile wait for it rather than being judged as presses without a
        move; and once the clock announces two moves or more made while it stayed hidden, the board is
        read as after the camera was away when it shows again (``_bridge_gap``). A camera whose picture
        froze on a hand over the board for 10 s lost a tester's game: three moves were made behind the
        frozen hand, the first press was blamed on the player, and the board that then showed was
        explained by no move."""
        self._move_hidden = True
        if self._move_hidden_since is None:
            self._move_hidden_since = self._hidden_since
        # the presses made while it stayed hidden: older ones wait for moves the recorder could not read
        # before (glare), which the hand does not hide (a glare game's hand read them as a camera away)
        pressed = self.clock.presses_waiting(since=self._hidden_since) if self.clock is not None else 0
        if self._unseen_since is None and pressed >= 2:
            log.info("the clock announces %d moves while part of the board stayed hidden: the board is read as "
                     "after the camera was away once it shows", pressed)
            self._unseen_since = self._hidden_since

    def _fewer_than_pressed(self, candidate: _Candidate) -> bool:
        """Does ``candidate`` show fewer moves than the waiting presses announce, while glare may hide one?

        Red pressed and then black: two moves were made. A view showing one of them, with glare over
        points where another could have been made, is not that one move alone. Presses made around
        a position put back do not count: after an illegal move put back, the mover's press and the
        arbiter's press back announced a move glare might hide, and the next two moves were taken
        as made at once, and then the game lost (standing inject-025, once a lamp's flat spot there
        was known as glare). Other trouble (the camera dark, the board not found) excuses no press:
        a move made meanwhile is still to be read.
        """
        if self.clock is None or not self._glare_may_hide or candidate.kind not in ("move", "pair"):
            return False
        pressed = self.clock.moves_pressed(self.game.position.side_to_move, after_put_back=self._restored_at)
        return pressed > len(candidate.moves)

    def source_changed(self) -> None:
        """The game goes on from another source: its first views may show the game earlier than recorded."""
        self._other_source = True
        self._forget_lamp()

    def _follow_earlier_source(self, scorer: Scorer, observation: Observation) -> list[Event] | None:
        """While a source taken up from another one shows the game before its last recorded ply, the
        events of its view (none: those moves are in the record); None when the view is judged as usual.

        A backup camera's file, or the whole video after a cut copy, starts at the game's start: its
        first board is an earlier position of the record, which is not the arbiter restoring it (art.
        5.8) but the same moves shown again. They are followed, not taken back and recorded anew,
        until the board reaches the recorded position; a view that fits no recorded position for
        ``inconclusive_looks`` views running ends the following, and the board is judged as usual.
        """
        if not self._other_source and self._following is None:
            return None
        cfg = self.config
        if int((observation.mask & ~self._lamp).sum()) > cfg.alert_with_hidden:  # a hand is over the board
            return [] if self._following is not None else None
        max_bad = cfg.max_bad_points
        if self._fits(self.game.position, scorer, None, max_bad):
            if self._following is not None:
                log.info("t=%.2f: the new source reached the recorded position (ply %d): recording goes on",
                         observation.t, self.game.ply)
                if self.game.ply:  # that ply's press may come after this view: it is not a press without a move
                    self._followed_press = RED if self.game.position.side_to_move == BLACK else BLACK
            self._other_source, self._following = False, None
            return None
        first = 0 if self._following is None else self._following[0]
        shown = [(int(scorer.bad_points(board_classes(self.game.positions[ply].board)).sum()), -ply)
                 for ply in range(first, self.game.ply)
                 if self._fits(self.game.positions[ply], scorer, None, max_bad)]
        if shown:
            ply = -min(shown)[1]
            if self._following is None:
                log.info("t=%.2f: the new source shows the game at ply %d, before the %d plies recorded: its "
                         "views are followed through the record, not recorded again", observation.t, ply,
                         self.game.ply)
            self._other_source, self._following = False, [ply, 0]
            return []
        if self._following is None:  # not an earlier board: moves made while away, or trouble, as usual
            self._other_source = False
            return None
        self._following[1] += 1
        if self._following[1] > cfg.inconclusive_looks:
            log.info("t=%.2f: the new source's board left the recorded plies at ply %d: judged as usual",
                     observation.t, self._following[0])
            self.left_followed = self._following[0]
            self._following = None
            return None
        return []

    def _in_sync(self, t: float | None = None) -> None:
        """The board matches the record again: no trouble stands, none that excuses clock presses.

        With ``t``, the time it came right by a move (recorded, or caught up): presses still waiting
        from while it was wrong are the arbiter's (art. 5.8: the clock pressed back while a position
        is put right), not presses without a move; presses after ``t`` are judged as usual (a player
        pressing without moving right after the board came right must still be told)."""
        if t is not None and self.desynced and self._clock_trouble and self.clock is not None:
            self.clock.excuse_pending(t)
        self.desynced = self._clock_trouble = False
        self._unseen_since = None  # the board is read past the camera's gap: presses are judged as usual
        self._corrected_at = None
        self._read_before, self._undoing = frozenset(), frozenset()
        self._raised = None
        self._lost_at = None

    def _knock_looked_at_again(self, decision: _Decision, scorer: Scorer, observation: Observation) -> list[Event] | None:
        """The second look at a piece seen lying off its point, on a view no candidate clearly explains
        but the record leads with nothing contradicting it: points read poorly elsewhere (glare over
        another piece) make the view doubtful, not the knocked piece, which is judged on its own
        (inject-025: a soldier knocked 0.38 spacings, measured so twice, went unalerted while glare
        made a neighbouring move a near tie). None when that is not the case or it is no longer seen off."""
        if (decision.candidate.kind != "current" or decision.bad or decision.gap <= 0 or self._suspect is None
                or not self._suspect_off or observation.mask.any()):
            return None
        suspected = {square_name(sq) for sq in self._suspect_off}
        if not all(kind == "board_disturbed" and set(squares) <= suspected for kind, squares in self._suspect):
            return None
        residual = self._residual(decision.candidate.board, scorer, observation)
        if not residual or tuple((a.kind, a.squares) for a in residual) != self._suspect:
            return None
        return list(self._raise_residual(residual, observation.t, self._residual_hold(decision.candidate, residual, scorer,
                                                                                           observation)))

    def _residual_hold(self, candidate: _Candidate, residual: Sequence[Alert], scorer: Scorer,
                       observation: Observation) -> float:
        """How long what is wrong on an accepted board may stand before it is raised.

        Pieces gone where a hand was may be in it (``_hand_hold``) when nothing moved, or when the
        only point wrong after a move is where the move went: a capture whose captor is still
        held. After a move that shows where the piece went, a piece gone is a knock, raised at once,
        when its disc lies near its point (a knocked piece lies where it was pushed); with no disc
        near it on a view whose discs were found it is held too: the camera misreads it (soft glare
        read a black advisor as empty just after the move next to it, s960000-clean-000), or a hand
        took it, and a later look says which.
        """
        if not residual or candidate.kind not in ("current", "move"):
            return 0.0
        if candidate.kind == "move":
            wrong = {parse_square(name) for alert in residual for name in alert.squares}
            if not wrong <= {move.to_square for move in candidate.moves} and not self._no_disc_near(wrong, observation):
                return 0.0
        return self._hand_hold(scorer, candidate.board)

    @staticmethod
    def _no_disc_near(squares: set[int], observation: Observation) -> bool:
        """Did the disc search, working on this view (``MIN_DISCS`` found), find no disc within reach
        of any of ``squares``?"""
        offsets = observation.offsets
        if offsets is None or int((~np.isnan(offsets[:, 0])).sum()) < MIN_DISCS:
            return False
        return all(bool(np.isnan(offsets[sq, 0])) for sq in squares)

    def _hand_hold(self, scorer: Scorer, board: str | None = None) -> float:
        """How long to wait before raising the trouble: ``in_hand_s`` when it is only one or two
        pieces gone from points a hand was just near (from ``board``, the record's by default), else 0.

        A player often lifts a piece and holds it, or takes the captured piece off first and holds
        their own, with the hand off the board and still: the board then reads with pieces missing.
        That is the ordinary course of a move, not yet a disturbed board. A piece whose disc is seen
        lying off its point (knocked there) is not in a hand: it is raised at once, as is one missing
        from the board as set up with nothing having moved over it yet (a tester's missing soldier
        was raised only after the first move, the 5 s having run into it, and as a disturbance).
        """
        if not self._moved_yet and self.game.ply == 0:  # the board as set up (a resumed game may be mid-move)
            return 0.0
        found = changes(self.game.position if board is None else Position(board, RED), scorer, self.config.confident_p)
        gone = [sq for sq in found.vacated if sq not in self._seen_off]  # a piece seen lying off its point is in no hand
        in_hand = 0 < len(gone) <= 2 and not found.appeared and all(self._touched[sq] for sq in gone)
        return self.config.in_hand_s if in_hand else 0.0

    def _colour_hold(self, decision: _Decision, scorer: Scorer) -> float:
        """How long to wait before raising the trouble: ``in_hand_s`` when the best reading of the
        view differs from the board it shows only by pieces read in the other side's colour, else 0.

        Pieces do not change colour, and no legal move explains the change, so such points just after
        a move are the light changing (a lamp dimming or a shadow turning a faded red ink dark), which
        passes (fresh bench clean-043: a red chariot, soldier and horse read black for 2.5 s as the
        light dimmed, an "unexplained" alert). Judged against the boards moves lead to only: against
        the board standing, they are a red and a black piece of one kind set up in each other's
        places, raised at once.
        """
        candidates = [decision.candidate] + [candidate for _, candidate in decision.ranked[:3]]
        # the reading taken and those nearest it (a capture whose taker reads the taken side's colour
        # is refused as a capture), moves only: against the board as it stands, colours read the other
        # way round are a board set up with a red and a black piece of one kind swapped (art. 1.3)
        for board in dict.fromkeys(c.board for c in candidates if c.kind != "current"):
            found = changes(Position(board, RED), scorer, self.config.confident_p)
            flipped = [sq for sq in found.appeared if board[sq] != "." and found.seen[sq] != board[sq]
                       and found.seen[sq].lower() == board[sq].lower()]
            if flipped and not found.vacated and len(flipped) == len(found.appeared):
                log.debug("%s read in the other side's colour only: waiting for the light",
                          ", ".join(map(square_name, flipped)))
                return self.config.in_hand_s
        return 0.0

    def _confirm(self, alerts: Sequence[Alert], t: float, hold_s: float = 0.0) -> list[Alert]:
        """Alerts to raise now: a new trouble is raised once a second look (``wants_retry``) sees it
        again, and not before it has been seen for ``hold_s`` (a piece that may be in a hand), counted
        from when the trouble was first seen. A later look may find a reason to wait that the first did
        not: a piece first seen lying off its point (not in a hand, so no wait) that is then gone, with
        something moving near it, was being slid or lifted by a hand that paused on the board, not
        knocked (inject-026: a chariot slid towards its new point, the fingers on it, was raised as
        disturbed 0.6 s later). A knocked piece lies still: a look with nothing moving near it keeps
        the first judgement."""
        if not alerts:
            self._suspect = None
            return []
        key = tuple((a.kind, a.squares) for a in alerts)
        suspect = self._suspect
        if suspect is not None and key != suspect and self._sharpens(alerts):
            log.debug("t=%.2f: %s; the look before read it as %s: taken as seen again", t, alerts[0].text,
                      self._suspect_alerts[0].kind)
            alerts, key = [replace(alert, t=t) for alert in self._suspect_alerts], suspect
        if key == self._suspect:
            since, first_hold = self._suspect_since, self._suspect_hold
            lifted = any(sq not in self._seen_off and self._moved_near[sq] for sq in self._suspect_off)
            hold_s = max(first_hold, hold_s) if lifted else first_hold
        else:
            since = t
        seen_again = (key == self._suspect or self.desynced or not self.config.confirm_alerts
                      or self._knocked_surely(alerts))
        if seen_again and t - since >= hold_s:
            self._suspect = None
            lost = self._lost_track(alerts, t)
            if lost is not None:
                return lost
            seen = _seen_placement(alerts)
            if (self.desynced and _told(key, self._raised, seen, self._raised_seen)
                    and t - self._raised_at < self.config.remind_s):
                # the same trouble, still standing (a player correcting it moves a hand over it), or a
                # board that still matches nothing after one more ordinary move on it: told already
                log.debug("t=%.2f: %s (still standing, not raised again)", t, alerts[0].text)
                self._raised_seen = seen or self._raised_seen  # the next move is judged from this board
                return []
            self._raised, self._raised_at, self._raised_seen = key, t, seen
            if not self.desynced:
                self._desynced_since = t
                self._desync_kinds = frozenset(alert.kind for alert in alerts)
            self.desynced = True
            self._clock_trouble |= any(alert.kind != "board_disturbed" for alert in alerts)
            if self._clock_trouble:
                self.last_trouble = t
            log.info("t=%.2f: %s", t, alerts[0].text)
            return list(alerts)
        if key != self._suspect:
            log.debug("t=%.2f: %s; looking again%s", t, alerts[0].text,
                      f" (a hand may hold it: {hold_s:.0f} s)" if hold_s else "")
            self._suspect_off = self._seen_off  # pieces first seen lying off their points: in no hand, then
        self._suspect, self._suspect_since, self._suspect_hold = key, since, hold_s
        self._suspect_alerts = tuple(alerts)
        self.wants_retry = True
        return []

    def _knocked_surely(self, alerts: Sequence[Alert]) -> bool:
        """Is the trouble only pieces whose pictures this view saw moved well off their points,
        clearly (``knock_certain_*``)? Such a knock needs no second look: a picture matched so well
        where it went is no misreading, and a knocked piece put back at once gave none (inject-046:
        a cannon knocked 0.45 at the board's edge, its second look taken for an arm lying across the
        edge until the hand that put it back came)."""
        return bool(self._seen_knocked) and all(
            alert.kind == "board_disturbed" and alert.squares
            and {parse_square(name) for name in alert.squares} <= self._seen_knocked for alert in alerts)

    def _lost_track(self, alerts: Sequence[Alert], t: float) -> list[Alert] | None:
        """The alerts to raise for a trouble seen while the clock counts ``lost_track_presses`` moves
        or more that the board does not show: one ``lost_track`` alert, or none once it was told;
        None when the trouble is judged as usual.

        Players who go on pressing the clock move after move are playing on: the board the recorder
        cannot explain is far more likely its own reading gone wrong (glare hiding moves whole, a
        misread move) than a position they all overlook, and every judgement against a record left
        behind is noise. Two fresh rendered games under a lamp's glare raised 17 and 20 alerts, one
        at nearly every press, each asking to put right a board that was right. The arbiter is told
        once: where the record stops, and how to take it up again (add the moves on the game page,
        or put the board right if it is wrong). The recorder keeps reading and goes on by itself
        when the board is explained again (a path of moves read through, ``_bridge_gap``).
        """
        cfg = self.config
        if self.clock is None or cfg.lost_track_presses == 0:
            return None
        # presses since the last move recorded: older ones left waiting (a press without a move under
        # glare, which may hide the move, is never judged) are no moves the recorder failed to read
        waiting = self.clock.presses_waiting(since=self._recorded_at)
        if waiting < cfg.lost_track_presses:
            return None
        if self.desynced and self._desync_kinds & PLAYER_FOULS:
            # the board went wrong with a move the camera saw whole (an illegal move, a move out of
            # turn): players going on over it leave a board that is wrong, not a recorder that is lost
            # (a reviewer: an illegal move played on became an equipment alert, and nothing more)
            return None
        if not self.desynced:
            self._desynced_since = t
        self.desynced = True
        self._clock_trouble |= any(alert.kind != "board_disturbed" for alert in alerts)
        if self._clock_trouble:
            self.last_trouble = t
        if self._lost_at == self.game.ply:
            log.debug("t=%.2f: %s (the record is lost; told)", t, alerts[0].text)
            return []
        self._lost_at = self.game.ply
        squares = tuple(sorted({name for alert in alerts for name in alert.squares}, key=parse_square))
        start, ply = self.game.start, self.game.ply
        stops = start.after(ply)
        blind = [square_name(sq) for sq in sorted(self._blind)]
        why = ("the camera misread a move, or the board went wrong unseen" if not blind
               else f"glare blows out {', '.join(blind)}, where moves can be made unseen" if len(blind) <= 8
               else f"glare blows out {len(blind)} points, where moves can be made unseen")
        unsure = [f"{start.move_name(p)} {r.iccs} (not {' or '.join(m.iccs for m in r.moves)})"
                  for p, r in sorted(self._rivals.items()) if p > ply - cfg.revise_plies]
        check = f"; check {', '.join(unsure)} too, read where another move was not ruled out" if unsure else ""
        text = (f"the clock counts {waiting} moves the recorder cannot read from the board "
                f"({', '.join(squares) or 'no point'} differ from the record): the record stops {stops} ({why}){check}. "
                f"If the board is right, add the moves from {start.move_name(ply + 1)} on the game page and "
                "recording goes on from them; if it is wrong, put it right (art. 5.8)")
        self._raised, self._raised_at, self._raised_seen = tuple((a.kind, a.squares) for a in alerts), t, ""
        log.info("t=%.2f: %s", t, text)
        return [BoardDisturbed(t, "lost_track", squares, "", text, ply, _seen_placement(alerts))]

    def unread_at_end(self, t: float) -> list[Event]:
        """At the source's end (after the clock's grace ran out, :meth:`tick`): one ``lost_track``
        alert when the clock still counts moves after the last one recorded that no view showed,
        and nothing told the arbiter of them yet.

        Presses made while glare blows out points a move can be made on wait for the move and are
        never judged (the glare may hide it). A fresh rendered game whose last three moves were
        made under a lamp's glare ended with a record three moves short and no alert at all: the
        sheet would have passed for the whole game."""
        if self.clock is None or self.desynced or self._lost_at == self.game.ply:
            return []
        waiting = self.clock.presses_waiting(since=self._recorded_at)
        if not waiting:
            return []
        self._lost_at = self.game.ply
        start, ply = self.game.start, self.game.ply
        stops = start.after(ply)
        blind = [square_name(sq) for sq in sorted(self._blind)]
        why = ("" if not blind else f" (glare blows out {', '.join(blind)}, where moves can be made unseen)"
               if len(blind) <= 8 else f" (glare blows out {len(blind)} points, where moves can be made unseen)")
        moves = "move" if waiting == 1 else "moves"
        text = (f"the source ended with the clock counting {waiting} {moves} after the last one recorded that "
                f"the recorder did not read from the board{why}: the record stops {stops}. Add the {moves} from "
                f"{start.move_name(ply + 1)} on the game page")
        log.info("t=%.2f: %s", t, text)
        return [BoardDisturbed(t, "lost_track", tuple(blind), "", text, ply)]

    def _sharpens(self, alerts: Sequence[Alert]) -> bool:
        """Is the trouble awaiting its second look a sharper reading of ``alerts``, a board no legal
        continuation explains that differs from the record at the same points and one more?

        The second look at a wrong board (a move by the side not on turn, left for the arbiter) can
        misread one more point, often next to where a hand just was; that is the same board seen
        again, not a new trouble needing a look of its own (a wrong side's move that stood 1.2 s, both
        looks seeing it, one with a third point unclear, raised nothing).
        """
        if self._suspect is None or len(alerts) != 1 or alerts[0].kind != "unexplained":
            return False
        earlier = {name for _, names in self._suspect for name in names}
        extra = set(alerts[0].squares) - earlier
        return bool(earlier) and earlier <= set(alerts[0].squares) and len(extra) <= 1

    def _swap_rival(self, found: CatchUp) -> tuple[int, ...] | None:
        """Whether ``found`` leads its rivals clearly enough to record: None when not, else the two
        squares of the one rival let come closer (empty when none was).

        Every rival must be ``catch_up_margin`` behind, except one board that has two pieces of a
        colour the other way round (a horse and a cannon swapped by the path's order), when no point
        goes against the path: kinds read less surely than colours, so such a rival is close on many
        views, and ``bridge_swap_margin`` is enough (the alert names the two pieces).
        """
        cfg = self.config
        swapped: tuple[int, ...] = ()
        for board, behind in found.rivals:
            if behind >= cfg.catch_up_margin:
                break  # nearest first: the rest are further behind
            pair = _exchanged(found.position.board, board) if found.bad == 0 and not swapped else ()
            if not pair or behind < cfg.bridge_swap_margin:
                return None
            swapped = pair
        return swapped

    def _catch_up(self, observation: Observation, scorer: Scorer) -> list[Event] | None:
        """Events when this view and the unexplained ones before it are one path of legal moves on.

        See :mod:`recorder.resolver_catchup`. The moves are recorded now, each with the time its
        view was still; None (and the view kept) when no path is clear.
        """
        cfg = self.config
        if (self._unexplained and observation.touched is not None
                and not np.asarray(observation.touched, dtype=bool).any()):
            # the same still board read again (a second look): one view, not two independent ones
            before, _ = self._unexplained[-1]
            self._unexplained[-1] = (replace(observation, touched=before.touched, view=None), scorer)
        else:  # (kept without its picture: a long trouble keeps many views)
            self._unexplained.append((replace(observation, view=None), scorer))
        if not 2 <= len(self._unexplained) <= cfg.catch_up_views:
            return None
        found = catch_up(self.game.position, [s for _, s in self._unexplained],
                         [view.touched for view, _ in self._unexplained])
        if found is None or not found.moves:
            return None
        if self._undoes_correction(found.moves):
            log.info("t=%.2f: the path %s would undo the arbiter's correction: not taken", observation.t,
                     " ".join(m.iccs for m in found.moves))
            return None
        # Every view must show the path's position there, or the next one (a view that saw two
        # moves at once), with no misread points forming a move: a view showing another move (an
        # illegal one put right before the legal one was made) is not explained by the path and
        # must be alerted. The latest view must also fit within the misreads allowed.
        # A point is a steady misread only if nothing moved near it since the record last changed, not
        # merely in these views: a move made while the views waited on hidden points (glare read as
        # covered) touched its points before the first of them (fresh s1800000-clean-038: b7b4 and h4g6
        # made then, the path i9h9 a0b0 taken with b7 and h4 read empty against the record, as misreads)
        last = len(self._unexplained) - 1
        for i, (view, view_scorer) in enumerate(self._unexplained):
            allowed = cfg.max_bad_points if i == last else 90
            moved = self._moved_since_record if view.touched is None else self._moved_since_record | view.touched
            if not any(self._fits(p, view_scorer, moved, allowed) for p in found.positions[i:i + 2]):
                return None
        if found.gap < cfg.catch_up_margin:
            # legal moves explain every view, the latest contradicting none of its points, each move
            # seen at one of its points at least (not made up where glare hides all), only not clearly
            # which (see ``_explained_unclearly``)
            seen = all(scorer.trusted[m.from_square] or scorer.trusted[m.to_square] for m in found.moves)
            if seen and not scorer.bad_points(board_classes(found.positions[-1].board)).any():
                self._unclear_path = found.moves
            return None
        log.info("t=%.2f: caught up through %d unexplained views: %s", observation.t, len(self._unexplained),
                 " ".join(m.iccs for m in found.moves))
        views = [view for view, _ in self._unexplained]
        events: list[Event] = []
        for view, step in zip(views, found.steps, strict=True):
            if step:
                events += self._record(step, observation.t, view.t_still, 1.0 / (1.0 + math.exp(-found.gap)))
        self._in_sync(observation.t)
        self._unexplained.clear()
        self._suspect = None
        return events

    def _bridge_gap(self, observation: Observation, scorer: Scorer,
                    fewer_bad_than: int | None = None) -> list[Event] | None:
        """Events when the board, first seen again after the camera was away, is a path of up to
        ``gap_plies`` legal moves on from the record (more than the pair one view is read for).

        The one view is read as ``gap_plies`` views in a row (``catch_up``, one move each at most):
        the path must reach a board that explains the view within the misreads allowed and lead
        every path to another board by ``catch_up_margin``. The moves are recorded, and an alert
        asks the arbiter to check them: with two moves or more of one side, the order they were
        made in is the path's guess, not something the camera saw. With ``fewer_bad_than`` the path's
        board must contradict fewer points than that (it competes with a shorter reading)."""
        cfg = self.config
        if cfg.gap_plies < 3:
            return None
        found = catch_up(self.game.position, [scorer] * cfg.gap_plies, [None] * cfg.gap_plies)
        if found is None:
            return None
        swapped = self._swap_rival(found)
        if (swapped is None or len(found.moves) < 3 or _undoes_itself(found.moves)
                or not self._fits(found.position, scorer, None, cfg.max_bad_points)):
            return None
        if fewer_bad_than is not None and int(scorer.bad_points(board_classes(found.position.board)).sum()) >= fewer_bad_than:
            return None
        moves = found.moves
        unseen = self._unseen_since is not None
        gone = self._unseen_since if unseen else self._corrected_at
        glare = gone is None and self._glare_since is not None
        if glare and (self.clock is None or self.clock.presses_waiting() < len(moves) - 1):
            return None  # moves hidden by glare need the clock's word for each but the last (its press may come)
        if gone is None:
            gone = self._glare_since if glare and self._glare_since is not None else observation.t
        log.info("t=%.2f: %d plies made while the board was not watched, was under glare or the record was wrong "
                 "read from the board: %s", observation.t, len(moves), " ".join(m.iccs for m in moves))
        first_ply = self.game.ply + 1
        events = self._record(moves, observation.t, observation.t_still, 1.0 / (1.0 + math.exp(-found.gap)),
                              rivals=other_orders(self.game.position, moves))
        self._in_sync(observation.t)
        self._unexplained.clear()
        self._suspect = None
        squares = tuple(square_name(sq) for m in moves for sq in (m.from_square, m.to_square))
        plies = f"{self.game.start.move_name(first_ply)} to {self.game.start.move_name(first_ply + len(moves) - 1)}"
        why = (f"while the board was not watched (the camera or the recorder was away from {recording_time(gone)} into the recording)" if unseen
               else f"where glare hid them from the camera (from {recording_time(gone)} into the recording)" if glare
               else f"that could not be recorded while the record was wrong (corrected at {recording_time(gone)} into the recording)")
        unsure = (f"; the pieces on {', '.join(square_name(sq) for sq in swapped)} may stand the other way round "
                  "(their kinds read unclearly)" if swapped else "")
        text = (f"{len(moves)} moves were made {why}: {plies} ({' '.join(m.iccs for m in moves)}) are recorded "
                f"from the board as it stood after them, in an order read from that board alone{unsure}; check "
                "them with the players (art. 5.8)")
        return events + [BoardDisturbed(observation.t, "moves_while_away", squares, "5.8", text, self.game.ply,
                                        self.game.position.fen().split(" ")[0])]

    def _settled(self, board: str, touched: np.ndarray | None) -> np.ndarray:
        """(90,) points ``board`` leaves as the record has them and nothing moved near: a contradiction
        there is a misreading that was there before (glare on one piece), not evidence against ``board``."""
        if touched is None:
            return np.zeros(90, dtype=bool)
        same = board_classes(board) == board_classes(self.game.position.board)
        return same & ~np.asarray(touched, dtype=bool)

    def _fits(self, position: Position, scorer: Scorer, touched: np.ndarray | None, max_bad: int) -> bool:
        """Does ``position`` explain the view within ``max_bad`` misread points, none of them forming a move?"""
        classes = board_classes(position.board)
        bad = int((scorer.bad_points(classes) & ~self._settled(position.board, touched)).sum())
        if bad > max_bad:
            return False
        return bad < 2 or not move_pairs(position.board, changes(position, scorer, self.config.confident_p))

    def _raise_residual(self, residual: Sequence[Alert], t: float, hold_s: float = 0.0) -> list[Alert]:
        """The residual alerts to raise after a whole-board judgement, noting the disturbance now standing.

        A disturbance on the very points already raised is still the same one: it is not raised
        again at every move (the arbiter has it) but stands until the board reads right there.
        A trouble waiting for its second look is not judged yet: touches keep counting.
        """
        squares = frozenset(parse_square(name) for alert in residual for name in alert.squares)
        if residual and squares == self._standing:
            self._suspect = None
            self._touched[:] = False
            return []
        raised = self._confirm(residual, t, hold_s)
        if residual and not raised:
            return raised
        recovered = {sq for sq in self._standing - squares if not self._touched[sq]}
        if recovered:
            log.info("t=%.2f: %s read%s right again with nothing moving near: the camera misreads it", t,
                     ", ".join(square_name(sq) for sq in sorted(recovered)), "s" if len(recovered) == 1 else "")
            self._unreliable |= recovered
        self._standing = squares
        self._touched[:] = False
        return raised

    def _acceptable(self, decision: _Decision, scorer: Scorer) -> bool:
        """The best candidate fits (few contradicted points, none forming a physical move) and leads clearly."""
        if decision.bad > self.config.max_bad_points or decision.gap < self.config.margin:
            return False
        if self._undoes_correction(decision.candidate.moves):
            log.info("%s would undo the arbiter's correction: the board shows the game as first read; "
                     "not accepted", " ".join(m.iccs for m in decision.candidate.moves))
            return False
        if decision.candidate.kind == "pair" and decision.bad > 0:
            return False  # two moves at once is rare enough to need a board that fits everywhere
        if self._lands_on_other_colour(decision.candidate, scorer):
            return False
        if decision.bad == 0:
            return True
        board = decision.candidate.board
        found = changes(Position(board, RED), scorer, self.config.confident_p)
        landed = {board[m.to_square]: m.to_square for m in decision.candidate.moves}
        elsewhere = [sq for sq in found.appeared if found.seen[sq] in landed and sq != landed[found.seen[sq]]]
        if elsewhere:
            log.debug("the moved piece is seen on %s instead: not accepted", square_name(elsewhere[0]))
            return False
        if decision.bad < 2:
            return True
        moved = bool(move_pairs(board, found))
        if moved:
            log.debug("contradicted points of the best candidate form a move: not accepted")
        return not moved

    def _best_move_explains(self, decision: _Decision, alerts: Sequence[Alert], scorer: Scorer,
                            observation: Observation) -> bool:
        """Do the disturbances a view shows lie on the points of the best candidate, a legal move that
        fits the view better than the record and contradicts no point, only not clearly enough to be
        recorded? Glare or blur over the moved piece leaves it so (a chariot seen on its new point,
        its old one washed out): that is a move not yet seen clearly, not a piece out of place. Looked
        at again; an illegal move or a move by the wrong side is still raised, and so is a piece
        measured off its point or not seen where the move would take it (a knocked piece: a moved one
        stands on its new point)."""
        candidate = decision.candidate
        if candidate.kind != "move" or decision.bad or not alerts:
            return False
        if any(scorer.occupied_p[move.to_square] < 0.5 for move in candidate.moves):
            return False  # no piece seen where it went: a piece knocked away from its point, maybe
        if any(other_side_there(candidate.board[move.to_square], move.to_square, scorer, self.config.confident_p)
               for move in candidate.moves):
            return False  # its point shows the other colour surely: a piece knocked towards it, or one taken
        named = {parse_square(name) for alert in alerts for name in alert.squares}
        if observation.offsets is not None and set(off_point(observation.offsets, scorer.visible,
                                                              self.config.off_point)) & named:
            return False
        staying = float(scorer.scores(board_classes(self.game.position.board)[None, :])[0])
        if decision.score <= staying:
            return False
        return _disturbances_on(alerts, candidate.moves)

    def _explained_unclearly(self, alerts: Sequence[Alert]) -> bool:
        """Do the views since the record last fitted follow a path of legal moves (``_unclear_path``,
        each view fitting it) that only a rival path as good keeps from being recorded, with the
        disturbances named all on the points those moves change? The board is then explained, not
        disturbed: which move was made is what the camera cannot yet tell (s1300000-clean-010: a
        cannon left a point glare then read as covered, for a point the horse beside it, blown out,
        could reach too; the board was told as matching no legal continuation, twice, until the
        point read clearly and the four moves were recorded together). Looked at again; a view a
        path cannot explain is raised as before, and so is an illegal move or a move by the wrong side."""
        return bool(self._unclear_path) and _disturbances_on(alerts, self._unclear_path)

    def _lands_on_other_colour(self, candidate: _Candidate, scorer: Scorer) -> bool:
        """Does a capture's destination still read, surely, as a piece of the captured side?

        A hand that has lifted a piece but not yet put it down can hold still for a moment with
        no point read as covered; the best legal move is then often a capture next to the
        vacated point, whose destination still shows the captured piece. A capture is taken only
        once its point shows the capturing side's colour (or is not clearly the other one).
        """
        board, before = candidate.board, self.game.position.board
        for move in candidate.moves:
            square = move.to_square
            if before[square] != "." and other_side_there(board[square], square, scorer, self.config.confident_p):
                log.debug("%s still reads as the captured side's piece: not accepted", square_name(square))
                return True
        return False

    def _touches_mask(self, decision: _Decision, observation: Observation) -> bool:
        """Does the best candidate differ from the record on a point nobody could see (a hand may be there)?

        With a hand over some point, the points at its edge read partly "covered" too
        (``edge_hidden_p``): what they show is not yet the board. Points glare blows out can read
        "covered" with no hand near, for as long as the light stays: when they are all that reads
        so, a piece leaving one shows where it went, and the move is judged (s960000-clean-004: a
        cannon leaving a blown-out point waited 4.5 s, until the reply came and the two were raised
        as made at once). A piece landing on one is judged when it is known to have been let go of
        (``_let_go``: a reply, or the clock), the view contradicts no point, and the rest of it,
        every point glare touches left out, still names that move clearly; otherwise it waits for a
        view that reads it (the light changes), since only the glare points tell it from a move to
        the point beside it (standing inject-035). With a steady lamp, waiting for a readable view
        stopped the record there for good: now a move waits at most for the next one.
        """
        if not observation.mask.any():
            return False
        candidate = decision.candidate
        hidden = self._hidden_points(observation)
        changed = self._hidden_changes(decision, observation)
        lying = observation.lying if observation.lying is not None else np.zeros(90, dtype=bool)
        steady = self._hidden_calmly(observation)
        blown = self._glare_of(observation)
        if changed and decision.bad == 0 and all(observation.mask[sq] and (lying[sq] or (steady and not blown[sq]))
                                                 for sq in changed):
            # read as covered outright (a point half hidden at the edge of something waits to be seen
            # whole) for seconds, with nothing moving near and no arm lying across the board's edge, glare
            # aside (judged below); or under something found lying there, from under which no piece goes
            # in or out: a piece the classifier reads as covered, not a hand that may hold one. A move the
            # rest of the view names clearly is judged (a tester's cannon face, read as covered wherever
            # it stood, stopped the record for good)
            log.debug("t=%.2f: %s changes %s, read as covered for seconds with no hand near: judged", observation.t,
                      " ".join(m.iccs for m in candidate.moves), ", ".join(square_name(sq) for sq in changed))
            return False
        if self._glare_hides_all(observation):
            if not any(candidate.board[sq] != "." for sq in changed):
                return False
            if decision.bad > 0 or not self._let_go(candidate, hidden):
                return True
            glare = hidden | observation.unreadable
            return (not self._named_without_glare(decision, observation, glare)
                    and not self._named_but_for_glare(decision, observation, glare))
        return bool(changed)

    def _hidden_changes(self, decision: _Decision, observation: Observation) -> list[int]:
        """The points hidden now (covered, or at the edge of what covers) that the best candidate changes."""
        hidden = self._hidden_points(observation)
        current, board = self.game.position.board, decision.candidate.board
        return [sq for sq in range(90) if board[sq] != current[sq] and hidden[sq]]

    def _only_covered_changed(self, decision: _Decision, observation: Observation) -> bool:
        """Does the move change, among the points hidden now, only points read as covered outright (none
        merely at the edge of something)?"""
        changed = self._hidden_changes(decision, observation)
        return bool(changed) and all(observation.mask[sq] for sq in changed)

    def _illegal_onto_glare(self, decision: _Decision, residual: Sequence[Alert], scorer: Scorer,
                            observation: Observation) -> IllegalMoveAlert | None:
        """The illegal move of a piece read gone onto a point glare blows out, when that point now
        reads surely occupied, read empty on the last view that showed the board as recorded, was
        touched since, and the piece's side has pressed the clock; else None.

        Glare points are never a clear contradiction, so the board "as recorded but for one piece
        gone" fit: the piece was held for 5 s as perhaps in a hand, and then raised as missing
        (standing inject-044: b9d8 with the horse's leg on c9 blocked, d8 blown out; the player
        put it right before that). A glare point can read a piece surely with none there, for as
        long as the lamp stays: only a change since the last whole view counts. And a lamp coming
        on, or flaring, over an empty point as a piece is lifted and held changes it just so (a
        reviewer's probe raised the illegal h9h8 for a horse in the hand): only the press says the
        piece was let go of. Without one, it is held as missing, as before.
        """
        if (decision.candidate.kind != "current" or not residual or observation.unreadable is None
                or self._occupied_seen is None):
            return None
        cfg, position = self.config, self.game.position
        physical = best_physical_move(position, scorer, self._touched & ~self._glare_unchanged(scorer, observation))
        if physical is None:
            return None
        src, dst, gain, bad = physical
        if not (observation.unreadable[dst] and scorer.visible[dst] and position.board[dst] == "."
                and scorer.occupied_p[dst] >= cfg.confident_p and gain >= cfg.margin and bad == 0):
            return None
        if set(changes(position, scorer, cfg.confident_p, substitutions=False).squares) != {src}:
            return None
        if self.clock is None or not self.clock.moves_pressed(side_of(position.board[src])):
            return None  # not known let go of: a lamp coming on over an empty point as a piece is lifted reads so too
        alert = move_alert(position, src, dst, position.board[src], observation.t, self.game.ply)
        if alert is not None:
            log.debug("t=%.2f: %s gone, %s blown out by glare reads a piece now and read empty before: %s",
                      observation.t, square_name(src), square_name(dst), alert.text)
        return alert

    def _glare_unchanged(self, scorer: Scorer, observation: Observation) -> np.ndarray:
        """(90,) the points glare blows out that read as on the last view that showed the board as
        recorded (empty, or a piece of the same colour): no move went to or from them that the view
        can tell. A lamp can make an empty point read surely as a piece for as long as it stays; a
        piece held off the board then left a board "diagnosed" as an illegal move onto that point.
        (A capture leaves its point occupied: the colour tells it, a reviewer's illegal a0a9.)"""
        if observation.unreadable is None or self._occupied_seen is None or self._red_seen is None:
            return np.zeros(90, dtype=bool)
        occupied, before = scorer.occupied_p >= 0.5, self._occupied_seen >= 0.5
        same_side = (scorer.red_share() >= 0.5) == (self._red_seen >= 0.5)
        return observation.unreadable & (occupied == before) & (~occupied | same_side)

    def _lamp_points(self, observation: Observation, touched: np.ndarray) -> np.ndarray:
        """(90,) the points of ``observation`` a lamp hides, where "covered" is no hand (see below)."""
        # the same points hidden, with nothing moving near them and no arm lying across the board's edge
        # (an arm still for a while is taken into the views the observer hands over): since when
        near_hidden = observation.touched is None or bool((touched & observation.mask).any())
        if (self._calm_hidden is None or not np.array_equal(self._calm_hidden, observation.mask) or near_hidden
                or observation.arm_lying):
            self._calm_hidden, self._calm_since = np.array(observation.mask, dtype=bool), observation.t
        # a hand may be there; not where glare blows the board out, read "covered" for seconds with nothing
        # moving near (such points read so as often as not), but a hand that came over them may hold a piece
        # A lamp's flat spot, unclipped, shows nothing at all, a hand's edges least of all: a point there read
        # "covered", flat on the view before as well (a lamp stays; a plain sleeve over the paper moves on), is
        # no hand, calm or not (fresh s2100000-clean-028: h8 and i9 in turn, each view after a move with one of
        # them newly so; no view was judged whole, and an early press went untold)
        # A view that cannot say (``flat`` None: too few points read as bare crossings) keeps what the
        # views before it showed, and makes no lamp's of what only one view showed flat
        if observation.flat is None:
            flat, flat_lamp = self._flat_before, self._flat_lamp
        else:
            flat = _flat_of(observation)
            flat_lamp = flat & self._flat_before
        lamp = ((self._glare_of(observation) if self._hidden_calmly(observation) else np.zeros(90, dtype=bool))
                | flat_lamp)
        self._flat_before, self._flat_lamp = flat, flat_lamp
        return lamp

    def _hidden_calmly(self, observation: Observation) -> bool:
        """Have the points hidden now been hidden so for ``read_covered_s``, with nothing moving near
        them and no arm across the board's edge (a thing lying there or glare, not a hand at work)?"""
        return not observation.arm_lying and observation.t - self._calm_since >= self.config.read_covered_s

    @staticmethod
    def _glare_of(observation: Observation) -> np.ndarray:
        """(90,) the points glare blows out on ``observation`` (none when it cannot say)."""
        return observation.unreadable if observation.unreadable is not None else np.zeros(90, dtype=bool)

    def _glare_hides_all(self, observation: Observation) -> bool:
        """Is every point of the view nobody can see blown out by glare (no hand may be there)?"""
        return (observation.unreadable is not None
                and not (self._hidden_points(observation) & ~observation.unreadable).any())

    def _let_go(self, candidate: _Candidate, hidden: np.ndarray) -> bool:
        """Is every piece ``candidate`` lands on a ``hidden`` point known to have been let go of?

        The board cannot show it (a piece lifted and held off the board leaves its point as empty
        as one set down under the glare): a later move in the candidate does, and so does the
        mover's press of the clock (a reviewer's probe: a cannon held in the hand was recorded as
        h2e2 onto a blown-out e2, and the record never came back).
        """
        if not hidden[candidate.moves[-1].to_square]:
            return True
        return (self.clock is not None
                and self.clock.moves_pressed(self.game.position.side_to_move) >= len(candidate.moves))

    def _named_without_glare(self, decision: _Decision, observation: Observation, glare: np.ndarray) -> bool:
        """Does the view, with the ``glare`` points left out, name the candidate of ``decision`` clearly?"""
        cfg = self.config
        scorer = Scorer(observation.probs, glare, cfg.floor, cfg.bad_p, cfg.type_floor)
        without = self._decide(scorer, with_pairs=decision.candidate.kind == "pair")
        named = ((without.candidate.board == decision.candidate.board
                  or _lands_elsewhere_in(without.candidate, decision.candidate, self._blind))
                 and self._acceptable(without, scorer))
        log.debug("%s lands where glare blows the board out; the rest of the view %s it (gap %.1f)",
                  " ".join(m.iccs for m in decision.candidate.moves), "names" if named else "does not name",
                  without.gap)
        return named

    def _named_but_for_glare(self, decision: _Decision, observation: Observation, glare: np.ndarray) -> bool:
        """Is the candidate of ``decision`` a pair whose first move lands on a ``glare`` point, the
        rest of the view naming it clearly but for where on the glare that move went?

        The reply shows the first move's piece let go of, under a lamp still there. Waiting for a
        view that reads the landing stopped the record for good when the lamp stayed (a reviewer's
        probe: a steady lamp over b5 and b4, b2b5 and every move after it waited, or with a clock
        were caught up three moves later in the wrong order, h2e2 h9g7 b2b5). The pair is judged
        by the whole view, the glare points' readings included, and the moves that came near it
        there are kept as rivals (``_keep_rivals``) for a later view to correct.
        """
        candidate = decision.candidate
        if candidate.kind != "pair" or not glare[candidate.moves[0].to_square]:
            return False
        cfg = self.config
        scorer = Scorer(observation.probs, glare, cfg.floor, cfg.bad_p, cfg.type_floor)
        without = self._decide(scorer, with_pairs=True, blind=glare)
        named = _alike_but_on(without.candidate.board, candidate.board, glare) and self._acceptable(without, scorer)
        log.debug("%s: the rest of the view %s it but for the glare (gap %.1f)",
                  " ".join(m.iccs for m in candidate.moves), "names" if named else "does not name", without.gap)
        return named

    def _candidates(self, with_pairs: bool) -> list[_Candidate]:
        game, cfg = self.game, self.config
        position = game.position
        found = [_Candidate("current", position.board)]
        after: list[tuple[Move, Position]] = [(m, position.play(m)) for m in position.legal_moves()]
        found += [_Candidate("move", p.board, (m,)) for m, p in after]
        positions = game.positions
        seen = {position.board}
        for ply in range(game.ply - 1, max(-1, game.ply - cfg.restore_plies - 1), -1):
            if ply == 0 and game.ply > cfg.restart_after_plies:
                break  # the start position then is a new game set up (``_set_up_again``)
            board = positions[ply].board
            if board not in seen:
                seen.add(board)
                found.append(_Candidate("restore", board, restore_ply=ply, prior=cfg.restore_prior))
        if with_pairs:
            prior = cfg.pair_prior
            if self.clock is not None and self.clock.moves_pressed(position.side_to_move) >= 2:
                prior = 0.0
            for move, middle in after:
                for reply in middle.legal_moves():
                    found.append(_Candidate("pair", middle.play(reply).board, (move, reply), prior=prior))
        return found

    def _with_one_move_view(self, decision: _Decision, scorer: Scorer, t: float) -> _Decision:
        """The pair ``decision`` (not clear on its own) weighed with the earlier view of one move, when
        both together name the same pair clearly; else ``decision`` unchanged.

        Glare that washes out one move's target can leave the view after the reply unsure which
        move came first (a chariot taking on the washed point, or stopping on another washed one);
        the still view between them, showing the first move alone, tells them apart.
        """
        if self._one_move_view is None or self._one_move_view[0] != self.game.position.board:
            return decision
        both = self._decide(scorer, with_pairs=True, earlier=self._one_move_view[1:])
        if both.candidate.board != decision.candidate.board or not self._acceptable(both, scorer):
            return decision
        log.info("t=%.2f: %s leads by %.1f with the earlier view of %s alone (%.1f on this view)", t,
                 " ".join(m.iccs for m in both.candidate.moves), both.gap, both.candidate.moves[0].iccs, decision.gap)
        return both

    def _decide(self, scorer: Scorer, with_pairs: bool,
                earlier: tuple[Scorer, np.ndarray] | None = None, blind: np.ndarray | None = None) -> _Decision:
        """The candidate that best explains the view ``scorer`` reads, and how clearly.

        With ``earlier``, the scorer of an earlier still view since the record's last move and the
        points touched by then, each candidate also scores as well as the best of the boards it
        passed through explains that view (the record's position, its first move, itself): the two
        views are of different moments. With ``blind`` (90 points), boards that differ only there
        count as one: the gap is to the best board that differs elsewhere.
        """
        candidates = self._candidates(with_pairs)
        classes = boards_classes([c.board for c in candidates])
        # a piece cannot move where no hand came: a board changing such a point needs more evidence
        # (a misread untouched point otherwise makes its legal moves rivals of the true board)
        current = board_classes(self.game.position.board)
        untouched = ((classes != current[None, :]) & ~self._touched[None, :]).any(axis=1)
        priors = np.array([c.prior for c in candidates]) + self.config.untouched_prior * untouched
        scores = scorer.scores(classes) - priors
        if earlier is not None:
            scores = scores + self._passed_through(candidates, classes, earlier)
        order = np.argsort(-scores, kind="stable")
        best = int(order[0])
        story = self._landing_siblings(candidates, best)
        if story:
            # the same moves but for where one of them landed under glare: one story, not rivals. The
            # view cannot tell those landings apart by the scores (a point read as covered scores
            # nothing: fresh s1800000-clean-038's b7b3 onto one beat b7b4, read empty at 0.56), so
            # which is taken (the others kept as its rivals, see ``_accept``) goes by how the landing
            # points read, covered or not; a capture's point reads occupied either way, so it counts
            # by what it reads there, not by being occupied
            points = sorted({m.to_square for i in story for m in candidates[i].moves if m.to_square in self._blind})
            best = max(story, key=lambda i: (scorer.read_fit(classes[i], points), float(scores[i])))
        differs = (classes != classes[best][None, :]).any(axis=1) if blind is None else \
            ((classes != classes[best][None, :]) & ~blind[None, :]).any(axis=1)
        differs[story] = False
        runner = next((float(scores[i]) for i in order if differs[i]), -math.inf)
        best_board = candidates[best].board
        distinct: dict[str, float] = {}
        for i in order:
            distinct.setdefault(candidates[i].board, float(scores[i]))
        values = np.array(list(distinct.values()))
        weights = np.exp(values - values.max())
        told = {candidates[i].board for i in story} | {best_board}
        confidence = float(sum(w for board, w in zip(distinct, weights, strict=True) if board in told) / weights.sum())
        bad = int((scorer.bad_points(classes[best]) & ~self._settled(best_board, self._touched)).sum())
        ranked = [(float(scores[i]), candidates[i]) for i in order[:5]]
        return _Decision(candidates[best], float(scores[best]), float(scores[best]) - runner, bad, confidence, ranked)

    def _landing_siblings(self, candidates: list[_Candidate], top: int) -> list[int]:
        """``top`` and the candidates that are its moves but for one landing elsewhere under glare
        (``_lands_elsewhere_in``); empty when there are none."""
        if not self._blind or not any(move.to_square in self._blind for move in candidates[top].moves):
            return []
        siblings = [i for i in range(len(candidates)) if _lands_elsewhere_in(candidates[top], candidates[i], self._blind)]
        return [top, *siblings] if siblings else []

    def _passed_through(self, candidates: list[_Candidate], classes: np.ndarray,
                        earlier: tuple[Scorer, np.ndarray]) -> np.ndarray:
        """(N,) how well the best board each candidate passed through explains the ``earlier`` view
        (a board changing a point nothing had come near by then pays ``untouched_prior``)."""
        scorer, touched = earlier
        position = self.game.position
        current = board_classes(position.board)
        middles = {m: position.play(m).board for m in position.legal_moves()}
        first = boards_classes([middles.get(c.moves[0], position.board) if c.kind == "pair" else position.board
                                for c in candidates])

        def explains(boards: np.ndarray) -> np.ndarray:
            untouched = ((boards != current[None, :]) & ~touched[None, :]).any(axis=1)
            return scorer.scores(boards) - self.config.untouched_prior * untouched

        return np.maximum.reduce([np.full(len(candidates), float(scorer.scores(current[None, :])[0])),
                                  explains(first), explains(classes)])

    def _set_up_again(self, scorer: Scorer, observation: Observation) -> list[Event] | None:
        """Events when this view shows the pieces set up for a new game, else ``None``.

        After a game ends by resignation or a draw agreed (which the camera cannot see), the players
        set the pieces up again, and a recorder left running saw each board of the next game as one
        no continuation explained (an alert every few seconds) and took the record back when the
        next game passed through one of its positions. The start position (the standard one, or
        the game's own) seen whole and clearly after more than ``restart_after_plies`` plies is
        told once; the record stands, and views from then on are not judged against it until the
        board shows its last position again (the arbiter's corrections are taken as ever).
        """
        if self.set_up_again_at is not None:
            classes = boards_classes([self.game.position.board])
            if not observation.mask.any() and not scorer.bad_points(classes[0]).any():
                log.info("t=%.2f: the board shows the record's last position again: judged as before", observation.t)
                self.set_up_again_at = None
                return None
            self.wants_retry = False  # nothing to look at again: the views are not this game's
            return []
        if self.game.ply <= self.config.restart_after_plies or observation.mask.any():
            return None
        starts = list(dict.fromkeys([START_BOARD, self.game.positions[0].board]))
        classes = boards_classes([*starts, self.game.position.board])
        scores = scorer.scores(classes)
        best = int(np.argmax(scores[:-1]))
        if scorer.bad_points(classes[best]).any() or scores[best] - scores[-1] < 2 * self.config.margin:
            return None
        if self._within_two_moves(starts[best]):  # pieces moved out and back (a draw by repetition)
            return None
        self.set_up_again_at = t = observation.t
        self.wants_retry = False
        plies = self.game.ply
        text = (f"the pieces stand at the start position after {plies} plies: taken as set up for a new game. "
                f"This game's record stands at {plies} plies; the next game's moves are not added to it "
                "(record it as a new game). If the arbiter restored the start position instead (art. 5.8), "
                "take the moves back in the console")
        log.warning("t=%.2f: %s", t, text)
        return [Alert(t, "set_up_again", (), "", text, plies)]

    def _within_two_moves(self, board: str) -> bool:
        """Do one or two legal moves from the record's position lead to ``board``?"""
        position = self.game.position
        for move in position.legal_moves():
            after = position.play(move)
            if after.board == board or any(after.play(reply).board == board for reply in after.legal_moves()):
                return True
        return False

    def _first_seen_alone(self, candidate: _Candidate) -> bool:
        """Did the kept view of one move (``_one_move_view``) show ``candidate``'s first move made, with
        no point clearly against it? A view kept for one move can show another: a hand over a lamp's
        spot holding the lifted cannon fits the cannon set down under the spot, and the cannon then
        set down elsewhere with a reply was no pair seen apart (a reviewer's probe: its two_moves
        alert went missing)."""
        if (self._one_move_view is None or self._one_move_view[0] != self.game.position.board
                or not candidate.moves):
            return False
        after = board_classes(self.game.position.play(candidate.moves[0]).board)
        return not self._one_move_view[1].bad_points(after).any()

    # --- accepting ------------------------------------------------------------------------
    def _accept(self, decision: _Decision, observation: Observation) -> list[Event]:
        candidate, t = decision.candidate, observation.t
        events: list[Event] = []
        self._unexplained.clear()
        # a still view showed the first move alone (read, not clearly): the two were not made between still views
        first_seen_alone = self._first_seen_alone(candidate)
        self._one_move_view = None
        if candidate.kind == "current":
            if self.desynced:
                events.append(PositionRestored(t, self.game.ply, self.game.position.fen()))
                self._restored_at = t
                if self._clock_trouble:  # a knock put right brings no press back
                    self.last_trouble = t
            self._in_sync()
        elif candidate.kind == "restore":
            took_back = self._took_back(candidate, t)
            self._put_back = ((self.game.ply, self.game.moves[-1].iccs, self._presses.get(self.game.ply))
                              if took_back else None)
            taken: list[str] = []
            removed = set()
            while self.game.ply > candidate.restore_ply:
                removed.add(self.game.ply)
                taken.insert(0, self.game.pop().iccs)
            if self._own is not None:
                self._own = self._own[:self.game.ply]
            if self.clock is not None:
                self.clock.taken_back(removed)
            self._rivals = {p: r for p, r in self._rivals.items() if p <= self.game.ply}
            events.append(PositionRestored(t, self.game.ply, self.game.position.fen(), tuple(taken)))
            self._restored_at = t
            events += took_back
            self._in_sync()
            self.last_trouble = t
        else:
            away = self._unseen_since
            close = self._with_glare_rivals(candidate, self._close_rivals(decision), observation)
            events += self._record(candidate.moves, observation.t, observation.t_still, decision.confidence,
                                   rivals=close)
            if len(candidate.moves) == 2 and first_seen_alone and away is None:
                # no alert: the board stood still after the first move, which glare or blur left unclear
                # until the reply told it (three false two_moves alerts on renders, each under glare)
                log.info("t=%.2f: %s seen still before %s, read once the reply came", t, candidate.moves[0].iccs,
                         candidate.moves[1].iccs)
            elif len(candidate.moves) == 2:  # told after both, at the second: the sheet notes it after the pair
                said = (f"two moves were made while the board was not watched (the camera was away from {recording_time(away)} into the recording): "
                        "both recorded, in order; check them with the players" if away is not None
                        else "two moves were made between still views: both recorded, in order")
                events.append(TwoMovesSeen(t, "two_moves", tuple(square_name(s) for m in candidate.moves
                                                                 for s in (m.from_square, m.to_square)),
                                           "", said, self.game.ply, tuple(m.iccs for m in candidate.moves)))
            self._keep_rivals(candidate, close, observation)
            self._in_sync(t)
        return events

    def _close_rivals(self, decision: _Decision) -> tuple[tuple[Move, ...], ...]:
        """For each move ``decision`` takes (one, or a pair), the moves that nearly explained the view
        as well in its place, the other moves the same (empty when there are none).

        Glare or a hand's shadow over both points of a move and its neighbour can make the wrong
        one of two moves read best (a chariot stopping short of a cannon, or taking it). When the
        reply came before a still view showed the first move alone, the pair is judged from one
        view with the same doubt (s980000-clean-014: h0h7 b9c7 for h0h6 b9c7, both points washed
        out), and had kept no rival: the cannon on h7 moving on later could not correct it.
        """
        candidate = decision.candidate
        moves = candidate.moves
        per_ply: list[list[Move]] = [[] for _ in moves]
        for score, other in decision.ranked:
            if (other.kind not in ("move", "pair") or len(other.moves) != len(moves)
                    or other.board == candidate.board or decision.score - score > self.config.revise_window):
                continue
            differ = [i for i, (ours, theirs) in enumerate(zip(moves, other.moves, strict=True)) if ours != theirs]
            if len(differ) == 1 and other.moves[differ[0]] not in per_ply[differ[0]]:
                per_ply[differ[0]].append(other.moves[differ[0]])
        return tuple(tuple(found) for found in per_ply) if any(per_ply) else ()

    def _with_glare_rivals(self, candidate: _Candidate, close: tuple[tuple[Move, ...], ...],
                           observation: Observation) -> tuple[tuple[Move, ...], ...]:
        """``close`` (the rivals of each of ``candidate``'s moves) with every other landing of a move
        that lands on a point glare blows out, when the candidate's board with that landing differs
        from it only on glare points: the view cannot rule them out, however surely the glare
        points read (a reviewer's probe: the cannon's b2b4 onto a lamp over b4 and b5, b4 read empty
        at 0.999, was recorded as b2b5 with no rival, and when the lamp went the record could not be
        put right: a false ``unexplained`` alert instead)."""
        glare = observation.unreadable
        if glare is None or not any(glare[m.to_square] for m in candidate.moves):
            return close
        per_ply = [list(close[i]) if i < len(close) else [] for i in range(len(candidate.moves))]
        start = before = self.game.position
        for index, move in enumerate(candidate.moves):
            if glare[move.to_square]:
                for other in before.legal_moves():
                    if (other.from_square != move.from_square or other == move or not glare[other.to_square]
                            or other in per_ply[index]):
                        continue
                    board = self._board_after(start, [*candidate.moves[:index], other, *candidate.moves[index + 1:]])
                    if board is not None and _alike_but_on(board, candidate.board, glare):
                        per_ply[index].append(other)
            before = before.play(move)
        return tuple(tuple(found) for found in per_ply) if any(per_ply) else ()

    @staticmethod
    def _board_after(position: Position, moves: Sequence[Move]) -> str | None:
        """The board after ``moves`` from the position before the first of them (None when one is illegal)."""
        try:
            for move in moves:
                position = position.play(move)
        except IllegalMoveError:
            return None
        return position.board

    def _keep_rivals(self, candidate: _Candidate, close: tuple[tuple[Move, ...], ...],
                     observation: Observation) -> None:
        """Remember the rivals of the moves just recorded: later views may tell them apart, and
        ``_revise`` then corrects the record."""
        self._rivals = {p: r for p, r in self._rivals.items()
                        if self.game.ply - self.config.revise_plies < p < self.game.ply - len(candidate.moves) + 1}
        first = self.game.ply - len(candidate.moves) + 1
        for offset, (move, rivals) in enumerate(zip(candidate.moves, close, strict=False)):
            if rivals:
                self._rivals[first + offset] = _Rivals(move.iccs, rivals, observation.t_still)

    def _revise(self, scorer: Scorer, decision: _Decision, t: float) -> tuple[list[Event], _Decision] | None:
        """A recent move corrected to its rival, when only the rival explains what the board shows now.

        No continuation of the record explains this view. Each recent move recorded with a close
        rival (``_keep_rivals``) is swapped for the rival, the moves after it played again, and the
        view judged from there, any point touched since that move free to have changed
        (``_revisions``). A revision is taken when it is acceptable and leads the record's best and
        every other revision by ``revise_margin`` nats, and a second look (``wants_retry``) finds
        the same: it rewrites recorded moves, so it needs what a path of moves caught up needs.
        Returns the corrections (``MoveCorrected`` by "recorder": the revised ply, and every later
        one carried over) and the decision from the revised game, which is then the record.
        """
        cfg = self.config
        if self._revision_stale or not self._rivals:
            return None
        found = sorted(self._revisions(scorer, decision), key=lambda r: -r.score)
        best = found[0] if found else None
        if best is None or any(best.score - other.score < cfg.revise_margin for other in found[1:]):
            if best is not None:
                log.debug("t=%.2f: revisions of the record tie; none taken", t)
            self._revision_seen, self._revision_stale = None, True
            return None
        key = (best.ply, best.rival.iccs, best.decision.candidate.board)
        if key != self._revision_seen:
            log.debug("t=%.2f: ply %d as %s would explain the board; looking again", t, best.ply, best.rival.iccs)
            self._revision_seen = key
            self.wants_retry = True
            return None
        self._revision_seen = None
        ply, replaced, rivals = best.ply, self.game.moves[best.ply - 1], self._rivals[best.ply]
        log.info("t=%.2f: ply %d revised from %s to %s: only that explains the board now", t, ply, replaced.iccs,
                 best.rival.iccs)
        clocks = {number: (press.red_ms, press.black_ms) for number, press in self._presses.items()
                  if press is not None}
        confidence = 1.0 / (1.0 + math.exp(-(best.score - decision.score)))
        events: list[Event] = list(corrections(
            self.game.positions[ply - 1], ply, best.game.moves[ply - 1:], replaced.iccs, t, "recorder",
            clocks=clocks, confidence=round(confidence, 4), t_still=rivals.t_still))
        for sq in (replaced.from_square, replaced.to_square, best.rival.from_square, best.rival.to_square):
            self._unreliable.discard(sq)
            self._misread.discard(sq)
        self.game = best.game
        # the later plies' rivals were judged in positions that are gone; the move replaced is now the rival
        self._rivals = {p: r for p, r in self._rivals.items() if p < ply}
        self._rivals[ply] = _Rivals(best.rival.iccs, (replaced,), rivals.t_still)
        self._touched |= self._touched_at >= rivals.t_still
        self._offsets_ref = None  # the reference discs were judged against the other board
        self._reported_end, self._last_advisory = None, None
        return events + self._game_end(t), best.decision

    def _revisions(self, scorer: Scorer, decision: _Decision) -> list[_Revision]:
        """Each recent move swapped for each of its rivals, where the view then fits (see ``_revise``)."""
        moves = self.game.moves
        found: list[_Revision] = []
        for ply, rivals in sorted(self._rivals.items(), reverse=True):
            recent = self.game.ply - self.config.revise_plies < ply <= self.game.ply
            if not recent or moves[ply - 1].iccs != rivals.iccs:
                continue
            touched_since = self._touched | (self._touched_at >= rivals.t_still)
            for rival in rivals.moves:
                try:
                    alternative = Game(self.game.positions[0], [*moves[:ply - 1], rival, *moves[ply:]])
                except IllegalMoveError:  # a later move is not legal after the rival
                    continue
                with self._supposing(alternative, touched_since):
                    revised = self._decide(scorer, with_pairs=False)
                    if not self._acceptable(revised, scorer):
                        revised = self._decide(scorer, with_pairs=True)
                    if not self._acceptable(revised, scorer) or revised.candidate.kind == "restore":
                        continue
                if self._only_carries_on(revised, rival, moves[ply - 1]):
                    log.debug("ply %d as %s explains the board only by moving its piece on: the record stands",
                              ply, rival.iccs)
                    continue
                if revised.score >= decision.score + self.config.revise_margin:
                    found.append(_Revision(revised.score, ply, rival, alternative, revised))
        return found

    def _only_carries_on(self, revised: _Decision, rival: Move, replaced: Move) -> bool:
        """Does the revised view only move the rival's piece on, to where the recorded move's piece
        stands now by one move from its recorded point (one the rules forbid, or the record would
        explain the view)? Then the board says where the piece stands, not which of the two moves
        was made, and the earlier views chose the recorded one: the record stands and the move is
        judged from it (an illegal move is raised, not explained away by rewriting an earlier ply;
        a chariot sent i0h0 under glare, then moved h0i2, was read as i0i1 then i1i2)."""
        moves = revised.candidate.moves
        if revised.candidate.kind != "move" or moves[0].from_square != rival.to_square:
            return False
        board = list(self.game.position.board)
        piece = board[replaced.to_square]
        if piece == ".":  # the recorded piece has left its point since: another story
            return False
        board[replaced.to_square], board[moves[0].to_square] = ".", piece
        return "".join(board) == revised.candidate.board

    @contextlib.contextmanager
    def _supposing(self, game: Game, touched: np.ndarray) -> Iterator[None]:
        """Judge against ``game`` and ``touched`` for a while (a revision of the record tried)."""
        kept = self.game, self._touched
        self.game, self._touched = game, touched
        try:
            yield
        finally:
            self.game, self._touched = kept

    def _took_back(self, candidate: _Candidate, t: float) -> list[Alert]:
        """The alert when a player takes back the last move while the record stands in sync.

        No arbiter restores a position without a trouble before it (art. 5.8 follows an illegal
        move, and the recorder would be desynchronised): the board going back one ply with nothing
        wrong is the side that just moved moving again, on its opponent's turn.
        """
        if self.desynced or candidate.restore_ply != self.game.ply - 1:  # restore_ply >= 0: there is a last move
            return []
        before, last = self.game.position, self.game.moves[-1]
        alert = move_alert(before, last.to_square, last.from_square, before.board[last.to_square], t, self.game.ply)
        if alert is None:
            return []
        text = f"{alert.text}; this takes back ply {self.game.ply} ({last.iccs})"
        log.info("t=%.2f: %s", t, text)
        return [replace(alert, text=text)]

    def _off_points(self, board: str, scorer: Scorer, observation: Observation,
                    misread: bool) -> tuple[dict[int, float], dict[int, PatchShift]]:
        """Pieces of ``board`` whose discs lie off their points (square -> spacings), and those of them
        raised by how their pictures moved; ``misread``: the view reads some point wrong, so it is no
        clean view to measure later ones against.

        A piece that stood on the clean view measured before is raised when its picture, found again
        (``patch_match``), moved off its point (``_patch_moved``), and cleared when found again surely
        (``patch_sure``) not to have moved (``off_point_moved``); otherwise its disc decides. A weaker match does not overrule
        the disc: a knocked soldier under glare (inject-025) matched 0.65, 0.05 short of its move."""
        measured = observation.offsets
        if measured is None:
            return {}, {}
        cfg = self.config
        occupied = np.frombuffer(board.encode("ascii"), dtype=np.uint8) != ord(".")
        reference = None
        moves: dict[int, PatchShift] = {}
        clean = self._offsets_ref
        if clean is not None:
            same = np.array([board[sq] == clean.board[sq] for sq in range(90)])
            reference = np.where(same[:, None], clean.offsets, np.nan)
            if clean.view is not None and observation.view is not None and clean.view.shape == observation.view.shape:
                steady = np.flatnonzero(occupied & same & (self._touched_at <= clean.t))  # nothing came near since
                moves = patch_shifts(clean.view, observation.view, np.flatnonzero(occupied & same),
                                     centres=None if clean.tops is None else clean.tops / 2, steady=steady)
                moves = {sq: shift for sq, shift in moves.items() if shift.score >= cfg.patch_match}
                # a piece the clean view was the first to show, with a hand near it since: the view may
                # have caught the fingers still setting it down (a frame that cuts the board's margin
                # short shows no arm: fresh s2300000-clean-012, a chariot set on h0 was recorded with
                # the fingers on it, and its picture, moved 0.33 spacings as they let go, raised it as
                # lying off its point while its disc stood 0.18 off). Its disc decides.
                settling = {sq for sq in clean.arrived if self._touched_at[sq] > clean.t}
                moves = {sq: shift for sq, shift in moves.items() if sq not in settling}

        pictured: dict[int, PatchShift] = {}  # the pieces raised by how their pictures moved

        def judged(looked: np.ndarray, ease: float) -> dict[int, float]:
            out = off_point(measured, looked, ease * cfg.off_point, reference, ease * cfg.off_point_new,
                            ease * cfg.off_point_moved)
            for sq, shift in moves.items():
                if not looked[sq]:
                    continue
                distance = self._patch_moved(shift, None if reference is None else reference[sq], ease)
                if distance is not None:
                    log.debug("t=%.2f: %s's picture moved (%.2f, %.2f) since the clean view (match %.2f, "
                              "%.2f unmoved)", observation.t, square_name(sq), *shift.shift, shift.score, shift.still)
                    out[sq] = distance
                    pictured[sq] = shift
                elif shift.score >= cfg.patch_sure and shift.distance < ease * cfg.off_point_moved and sq in out:
                    log.debug("t=%.2f: %s's disc lies %.2f off its point, but its picture stands where it stood "
                              "(moved %.2f, match %.2f): not off", observation.t, square_name(sq), out[sq],
                              shift.distance, shift.score)
                    del out[sq]
            return out

        shifted = judged(occupied & scorer.visible, 1.0)
        suspect = {parse_square(name) for _, names in self._suspect or () for name in names}
        if suspect:  # the second look at a piece seen off its point: a measurement a hair under is no all-clear
            # its disc still counts where the point now reads "covered": a knocked piece lying half
            # off its point can read so, and a disc found there is no hand
            looked = occupied & (scorer.visible | np.isin(np.arange(90), list(suspect)))
            again = judged(looked, cfg.off_point_confirm)
            shifted.update({sq: v for sq, v in again.items() if sq in suspect})
        if not shifted and not misread and not suspect and not self._hand_in_view(observation):
            # a clean view: the reference for the next one
            fresh = residual_offsets(measured, occupied & scorer.visible)
            if reference is not None:  # a disc not found this time keeps the last place it was seen
                fresh = np.where(np.isnan(fresh) & occupied[:, None], reference, fresh)
            arrived = frozenset() if clean is None else frozenset(
                sq for sq in range(90) if board[sq] != "." and board[sq] != clean.board[sq])
            self._offsets_ref = _CleanView(board, fresh, observation.view, parallax_field(measured), observation.t,
                                           arrived)
        return shifted, pictured

    def _hidden_points(self, observation: Observation) -> np.ndarray:
        """(90,) the points of a view nobody can see: read "covered", or partly so at a hand's edge
        (``edge_hidden_p``)."""
        return observation.mask | (observation.probs[:, COVERED_INDEX] >= self.config.edge_hidden_p)

    def _hand_in_view(self, observation: Observation) -> bool:
        """May a hand be in the view: a point reads "covered" where glare does not blow the board out,
        and the same points have not read so for ``lasting_hidden_s`` (something lying there)?

        A view with a hand over part of a piece is no clean view to measure later pictures against:
        the hand, gone on the next view, moved that piece's picture (s1200000-clean-036: a hand
        bringing a chariot beside the black horse covered half of it, and the horse, never touched,
        was raised as lying 0.33 spacings off its point).
        """
        hidden = self._hidden_points(observation)
        if observation.unreadable is not None:
            hidden = hidden & ~observation.unreadable
        if not hidden.any():
            return False
        return not (observation.t - self._hidden_since >= self.config.lasting_hidden_s
                    and not (hidden & ~observation.mask).any())

    def _patch_moved(self, shift: PatchShift, before: np.ndarray | None, ease: float) -> float | None:
        """How far off its point a piece stands whose picture moved by ``shift`` since the clean view,
        where its disc lay ``before`` off its point (NaN: not measured, taken as on it); None when it
        did not move ``off_point_moved`` or does not stand ``off_point`` off (both times ``ease``), moved
        further than ``patch_reach``, or its picture matches where it moved not clearly better than
        where it stood (``patch_gain``).

        Its place on the clean view is taken no further off than a piece standing on its point
        (``off_point_moved``): a disc measured further off there was its side wall's outline more
        often than the piece, which then stood within the thresholds."""
        cfg = self.config
        if (shift.distance < ease * cfg.off_point_moved or shift.distance > cfg.patch_reach
                or shift.score - shift.still < cfg.patch_gain):
            return None
        start = np.zeros(2) if before is None or np.isnan(before[0]) else np.asarray(before, dtype=np.float64)
        length = float(np.hypot(*start))
        if length > cfg.off_point_moved:
            start = start * (cfg.off_point_moved / length)
        distance = float(np.hypot(*(start + np.asarray(shift.shift))))
        return distance if distance >= ease * cfg.off_point else None

    def _residual(self, board: str, scorer: Scorer, observation: Observation) -> list[Alert]:
        """What is wrong on a board that otherwise matches ``board``: a piece off its point, missing or extra."""
        position = Position(board, RED)
        found = changes(position, scorer, self.config.confident_p, substitutions=False)
        # the board as set up, before the first move: a piece read surely as another is a mistake (art. 1.3)
        swapped: set[int] = set()
        if self.game.ply == 0 and board == self.game.position.board:
            others = other_pieces(position, scorer).without(set(found.squares))
            found = Changes(found.vacated, tuple(sorted(found.appeared + others.appeared)), found.seen | others.seen)
            swapped = set(others.appeared)
        shifted, pictured = self._off_points(board, scorer, observation, bool(found))
        t = observation.t
        if observation.unreadable is not None:  # glare: the arbiter was told these points cannot be read
            # (``changes`` already leaves glare points out; a disc measured off its point there is set aside)
            blown = {sq for sq in shifted if observation.unreadable[sq]}
            found, shifted = _set_aside(found, shifted, blown, t, "blown out by glare: not raised")
        if observation.washed is not None:  # a disc whose edge glare half washes out is measured loosely
            # (a piece whose picture was found again is measured by all of it, not by its disc's edge)
            loose = {sq for sq, distance in shifted.items() if observation.washed[sq] >= self.config.washed_partly
                     and distance < self.config.off_point_washed and sq not in pictured}
            if loose:
                log.info("t=%.2f: %s measured off its point on a disc partly washed out by glare, by less than "
                         "%.2f spacings: not raised", t, ", ".join(square_name(sq) for sq in sorted(loose)),
                         self.config.off_point_washed)
                shifted = {sq: distance for sq, distance in shifted.items() if sq not in loose}
        if self._set_up_fault:
            # the points of the set-up fault reading so after the first moves are the board as set up
            # still, told already: not a piece knocked during the game (art. 5.9), alone or beside one
            mended = {sq for sq in self._set_up_fault if sq not in found.squares and scorer.visible[sq]}
            self._set_up_fault -= mended
            found, shifted = _set_aside(found, shifted, set(self._set_up_fault) & set(found.squares), t,
                                        "as the board was set up: told before the first move (art. 1.3)")
        untouched = {sq for sq in set(found.squares) | set(shifted)
                     if (not self._touched[sq] and sq not in self._standing) or sq in self._unreliable}
        self._misread |= untouched & set(found.squares)
        found, shifted = _set_aside(found, shifted, untouched, t,
                                    "read differently with nothing moving near: taken as misread")
        # read wrong before with nothing near: a hand passing it again proves nothing (a disc knocked
        # off the point is measured, not read, so it still counts)
        misread = {sq for sq in found.squares if sq in self._misread}
        found, shifted = _set_aside(found, shifted, misread, t, "misread before: not raised", discs=False)
        self._seen_off = frozenset(shifted)
        cfg = self.config
        self._seen_knocked = frozenset(
            sq for sq, shift in pictured.items() if sq in shifted and shifted[sq] >= cfg.knock_certain_off
            and shift.score >= cfg.knock_certain_match and shift.score - shift.still >= cfg.knock_certain_gain)
        if not found and not shifted:
            return []
        squares = sorted(set(found.squares) | set(shifted))
        parts = []
        for sq in squares:
            expected = board[sq]
            what = f"the {piece_name(expected)}" if expected != "." else "an empty point"
            if sq in shifted:
                parts.append(f"{what} on {square_name(sq)} lies {shifted[sq]:.2f} spacings off its point")
            else:
                seen = found.seen[sq]
                parts.append(f"{what} on {square_name(sq)} reads as {'empty' if seen == '.' else 'a ' + piece_name(seen)}")
        rule, put_right = "5.9", "the board must be put right (art. 5.9)"
        if swapped & set(squares):  # pieces set up in each other's places: art. 1.3 is the standard start
            standard = self.game.positions[0].board == START_BOARD
            rule = "1.3" if standard else ""
            put_right = ("the board must be set up as the start position (art. 1.3)" if standard
                         else "the board must be set up as the position the game starts from")
        text = "; ".join(parts) + f": {put_right}"
        return [BoardDisturbed(observation.t, "board_disturbed", tuple(square_name(sq) for sq in squares), rule,
                               text, self.game.ply, placement_seen(position, found))]

    def _record(self, moves: tuple[Move, ...], t: float, t_still: float, confidence: float,
                rivals: Sequence[tuple[Move, ...]] = ()) -> list[Event]:
        """Push ``moves`` onto the game and say so; ``t_still`` is when the board showing them was
        still, ``rivals`` (one tuple per move, or none) the moves the view could not rule out."""
        per_move = list(rivals) or [()] * len(moves)
        self._followed_press = None  # a new move: presses from here are its own
        self._recorded_at = t_still
        records: list[tuple[int, Move, str, str, str]] = []
        for move in moves:
            self._unreliable -= {move.from_square, move.to_square}  # another piece, or none: read afresh
            self._misread -= {move.from_square, move.to_square}
            before = self.game.position
            chinese = format_move(before, move, "chinese")
            side = before.side_to_move
            if self._own is not None:  # (None: the record is all this recorder's own reading)
                # plies the arbiter added beyond what it read, it goes on from as the record has them
                self._own = (self._own + [m.iccs for m in self.game.moves[len(self._own):]])[:self.game.ply]
                self._own.append(move.iccs)
            after = self.game.push(move)
            records.append((self.game.ply, move, chinese, side, after.fen()))
        presses: dict[int, ClockPress | None] = {}
        sides_alert: list[Event] = []  # the clock's sides found the wrong way round at the game's first move
        put_back, self._put_back = self._put_back, None
        if put_back is not None and len(records) == 1 and put_back[:2] == (records[0][0], records[0][1].iccs):
            log.info("t=%.2f: ply %d %s put back after it was taken back: its press stands", t, *put_back[:2])
            presses[records[0][0]] = put_back[2]
        elif self.clock is not None:
            # moves read only once a wrong board is explained again were made since it went wrong, and
            # those read after the camera was away may have been made any time since it went
            starts = [s for s in (self._desynced_since if self.desynced else None, self._unseen_since,
                                  self._move_hidden_since, self._glare_since) if s is not None]
            since = min(starts) if starts else None
            self._glare_since = None  # presses from here are the next move's
            unseen = self._unseen_since is not None or (self._blind_at is not None and t - self._blind_at <= BLIND_UNJUDGED_S)
            swapped = self.clock.swapped_at
            for ply, _, _, side, _ in reversed(records):  # newest first: see ClockBook.take_press
                presses[ply] = self.clock.recorded(ply, side, t, since, judged=not unseen, made=t_still)
            if swapped is None and self.clock.swapped_at is not None:
                sides_alert.append(self.clock.sides_swapped_alert(records[0][0]))
        self._presses.update(presses)
        events: list[Event] = []
        for (ply, move, chinese, side, fen), others in zip(records, per_move, strict=True):
            press = presses.get(ply)
            events.append(MoveRecorded(
                t, ply, move.iccs, chinese, side, fen, round(confidence, 4), t_still,
                press.red_ms if press else None, press.black_ms if press else None, len(moves) > 1,
                rivals=tuple(rival.iccs for rival in others)))
            log.info("t=%.2f: ply %d %s %s (confidence %.3f%s)", t, ply, move.iccs, chinese, confidence,
                     f"; not ruled out: {' '.join(r.iccs for r in others)}" if others else "")
        events += sides_alert
        if (self.clock is not None and len(records) == 1 and self._board_seen_at is not None
                and self._moving_since is not None  # two moves in one view: the first was not seen still
                and not {records[0][1].from_square, records[0][1].to_square} <= self._board_seen_blind):
            ply = records[0][0]
            # from the first view that saw the board as recorded: a press made while it stood so is
            # early even when a later view saw it unchanged again (a hand on its way in, not yet over it)
            events += self.clock.pressed_early(presses.get(ply), ply, t, (self._board_first_seen_at,
                                                                          self._moving_since), self.last_trouble)
        self._board_seen_at = self._moving_since = None  # the board shows the move now: seen afresh
        self._occupied_seen = self._red_seen = None
        events += self._game_end(t)
        return events

    def _game_end(self, t: float) -> list[Event]:
        outcome = self.game.outcome()
        if outcome is None:
            self._last_advisory = None
            return []
        key = (outcome.reason, self.game.ply)
        if key == self._reported_end or (outcome.advisory and outcome.reason == self._last_advisory):
            return []
        self._reported_end = key
        self._last_advisory = outcome.reason if outcome.advisory else None
        return [game_ended(t, self.game, outcome)]

    def blind(self, t: float) -> None:
        """The board cannot be seen at ``t`` (not found yet, or too dark to read): clock presses around
        now are not judged, nor a move read within ``BLIND_UNJUDGED_S`` of it for the press it lacks (its
        press may have come while the board could not be seen, and gone unjudged)."""
        self.last_trouble = self._blind_at = t

    def lost_sight(self, t: float, gone_since: float | None = None) -> None:
        """The camera gave no picture around ``t`` (from ``gone_since``, its last frame): what moved
        meanwhile was not seen, so no press is judged as made before its move, and presses around now
        are not judged at all. Presses made since the picture went wait for the moves the board shows
        once it is back (``_record``), however long the camera was away."""
        self._board_seen_at = self._moving_since = None
        self._occupied_seen = self._red_seen = None
        if gone_since is not None:
            self._unseen_since = min(gone_since, self._unseen_since if self._unseen_since is not None else gone_since)
        self.blind(t)

    def set_up_fault_told(self, squares: Iterable[str]) -> None:
        """The set-up fault (art. 1.3) on ``squares`` was told before the first move, by an earlier run
        of this game: its points, while they read so, are the board as set up, not pieces knocked since
        (see ``_residual``); a point that reads right again leaves it."""
        self._set_up_fault = frozenset(parse_square(name) for name in squares)

    def adopt(self, ply: int, moves: Sequence[str], t: float | None = None, taken_back: bool = False) -> None:
        """The arbiter corrected the record from ply ``ply`` on to ``moves`` (ICCS) at ``t``: judge the
        board against the corrected game from now on. A board that shows the old move is then a
        position nothing explains, and the alert says so, until the board matches again.

        When the corrected record and the moves this recorder read itself agree wherever both have a
        move (a wrong correction undone, or a move the camera missed added), moves played meanwhile,
        which nothing could explain then, are read from the next view as after a camera outage
        (``_bridge_gap``: up to ``gap_plies``, with an alert; tester 15 undid a wrong correction with
        the board five plies on, and the rest of the game was lost). From a record the recorder's own
        reading does not back (a correction of what it recorded) no bridge is read: shuffles from a
        wrong record can reach the board, and would hide the arbiter's mistake behind invented moves.
        Nor after the arbiter ``taken_back`` moves: a board still showing them is to be put back (art. 5.8)."""
        self.set_up_again_at = None  # the arbiter has judged the board: what it shows is weighed again
        own = self._own = self._own_record()  # from now on the record may hold moves this recorder did not read
        before = self.game.ply
        while self.game.ply >= ply:
            self.game.pop()
        for iccs in moves:
            self.game.push(iccs)
        if self.clock is not None and self.game.ply > before:  # moves the camera missed, added: their presses
            sides = [self.game.positions[p - 1].side_to_move for p in range(before + 1, self.game.ply + 1)]
            self.clock.added(list(zip(range(before + 1, self.game.ply + 1), sides, strict=True)),
                             t if t is not None else 0.0)
        record = [m.iccs for m in self.game.moves]
        backed = record[:len(own)] == own[:len(record)] and not taken_back  # neither says another move than the other
        self._offsets_ref = None
        self._suspect = None
        self._reported_end = None
        self._touched[:] = True
        self._standing = frozenset()
        self._set_up_fault = frozenset()
        self._unreliable.clear()
        self._misread.clear()
        self._stale.clear()
        self._rivals.clear()  # the arbiter has said what was played
        self._lost_at, self._raised = None, None  # judged afresh against the corrected record
        self._board_seen_at = self._moving_since = None
        self._occupied_seen = self._red_seen = None
        if t is not None and backed:
            self._corrected_at = t if self._corrected_at is None else self._corrected_at
        elif not backed:
            self._corrected_at = None
        self._read_before = frozenset() if backed else self._boards_read(own)
        read = [Move.from_iccs(iccs) for iccs in own]
        self._undoing = frozenset() if backed else frozenset(
            (corrected.to_square, first.to_square) for first, corrected in zip(read, self.game.moves, strict=False)
            if first != corrected and first.from_square == corrected.from_square)  # one piece, sent elsewhere

    def _boards_read(self, own: list[str]) -> frozenset[str]:
        """The boards of the game as this recorder read it (``own``), from the first ply the corrected
        record says otherwise: none of them is a board of the corrected record."""
        record = [m.iccs for m in self.game.moves]
        first = next((i for i, (a, b) in enumerate(zip(own, record, strict=False)) if a != b), min(len(own), len(record)))
        corrected = {position.board for position in self.game.positions}
        position, boards = self.game.start, set()
        for index, iccs in enumerate(own):
            position = position.play(Move.from_iccs(iccs))
            if index >= first and position.board not in corrected:
                boards.add(position.board)
        return frozenset(boards)

    def _undoes_correction(self, moves: Sequence[Move]) -> bool:
        """Would ``moves`` pass through a board of the game as this recorder read it before the
        arbiter corrected that reading (``_read_before``)? The board still shows what was played:
        the correction was wrong, and a move back to it would be one no one played (a tester's
        wrong correction h2e2 -> h2d2 came back as an invented ply d2e2)."""
        if not (self._read_before or self._undoing):
            return False
        if any((move.from_square, move.to_square) in self._undoing for move in moves):
            return True  # the corrected piece taken from where the correction put it to where it was read
        position = self.game.position
        for move in moves:
            position = position.play(move)
            if position.board in self._read_before:
                return True
        return False

    def _own_record(self) -> list[str]:
        """The moves this recorder read itself (before the arbiter's first correction: the record)."""
        return list(self._own) if self._own is not None else [m.iccs for m in self.game.moves]

    def forget_offsets(self) -> None:
        """Drop the reference disc offsets (the board was calibrated again)."""
        self._offsets_ref = None
        self._board_seen_at = self._moving_since = None  # the new grid's motion starts afresh
        self._occupied_seen = self._red_seen = None
        self._touched[:] = True
        self._unreliable.clear()
        self._misread.clear()
        self._stale.clear()
        self._forget_lamp()

    def _forget_lamp(self) -> None:
        """Judge a lamp's points afresh: another grid or another camera shows another spot."""
        self._calm_hidden, self._calm_since = None, math.inf
        self._flat_before = np.zeros(90, dtype=bool)
        self._flat_lamp = np.zeros(90, dtype=bool)

    # --- the clock ------------------------------------------------------------------------
    def press(self, press: ClockPress) -> list[Event]:
        """Events for a clock press (a press with no clock connected is ignored)."""
        if self.clock is None:
            return []
        if self._following is not None or self._followed_press == press.side:
            # a press of a ply the new source shows again: it was judged with that ply when recorded
            log.debug("press at %.2f s by %s: of a ply already recorded, shown again by the new source", press.t,
                      press.side)
            if self._following is None:  # the followed ply's own press: it comes once
                self._followed_press = None
            return []
        self._followed_press = None
        if self.set_up_again_at is not None and press.t >= self.set_up_again_at:
            log.debug("press at %.2f s by %s: after the pieces were set up again, not this game's", press.t, press.side)
            return []
        swapped = self.clock.swapped_at
        event: ClockPressed = self.clock.press(press)
        if event.ply is not None:  # the press completed a ply already recorded: its times, for corrections
            self._presses[event.ply] = press
        if swapped is None and self.clock.swapped_at is not None:  # the clock's sides read the other way round
            return [self.clock.sides_swapped_alert(event.ply or self.game.ply), event]
        return [event]

    def clock_heard(self, until: float, unheard: list[tuple[float, float]]) -> None:
        """The clock was heard up to ``until``, and not in the ``unheard`` stretches: a ply is judged
        for its press only once the clock was heard after it, and not when the clock was unheard around it."""
        if self.clock is not None:
            self.clock.heard(until, unheard)

    def tick(self, t: float) -> list[Event]:
        """Let time pass to ``t``: clock presses and moves left unmatched become alerts."""
        if self.clock is None or (not self.clock.pending and not self.clock.unpressed) or self.set_up_again_at is not None:
            return []
        # presses made while the camera was away wait, as while the board is wrong or shows a move it
        # cannot see whole yet (a point under something left on the board), for the moves it then shows;
        # and while a trouble waits for its second look (fresh s2100000-clean-010: a path of six legal
        # moves under a lamp, read but not clearly, broke on a view that matched nothing; in the 0.3 s
        # before the second look raised it, red's three presses waiting on those moves were told as
        # presses without a move, each "a second time loses the game")
        waiting = (self.desynced or self._unseen_since is not None or self._move_hidden or self._glare_may_hide
                   or self._suspect is not None)
        return self.clock.expire(t, self.last_trouble, waiting, self.game.ply)


def _flat_of(observation: Observation) -> np.ndarray:
    """(90,) the points of a lamp's flat spot on ``observation`` (none when it cannot say; the lamp's
    memory, ``_lamp_points``, keeps what the views before showed then)."""
    return np.zeros(90, dtype=bool) if observation.flat is None else np.asarray(observation.flat, dtype=bool)


def _unreliable(observation: Observation) -> np.ndarray:
    """(90,) the points whose reading counts but is never a sure contradiction: blown out by glare, or
    in a lamp's flat spot that shows nothing (s2100000-clean-028: the bare corner i9, under a lamp that
    never clipped, read as a black cannon just after a capture beside it and was raised as disturbed)."""
    return Resolver._glare_of(observation) | _flat_of(observation)


def _iccs(moves: Sequence[Move]) -> str:
    """The moves in ICCS, one space apart (for the log)."""
    return " ".join(move.iccs for move in moves)


def _lands_elsewhere_in(one: _Candidate, other: _Candidate, blind: frozenset[int]) -> bool:
    """Are ``one`` and ``other`` the same moves but for one of them, made by the same piece from the
    same point, landing on another of the ``blind`` points (glare: the view cannot tell them apart)?"""
    if one.kind not in ("move", "pair") or other.kind != one.kind or len(other.moves) != len(one.moves):
        return False
    differ = [(ours, theirs) for ours, theirs in zip(one.moves, other.moves, strict=True) if ours != theirs]
    if len(differ) != 1:
        return False
    ours, theirs = differ[0]
    return (ours.from_square == theirs.from_square and ours.to_square in blind and theirs.to_square in blind)


def _disturbances_on(alerts: Sequence[Alert], moves: Sequence[Move]) -> bool:
    """Are ``alerts`` all disturbances (a piece gone or come, a board no move explains) on points ``moves`` change?"""
    squares = {square_name(sq) for move in moves for sq in (move.from_square, move.to_square)}
    return all(alert.kind in ("board_disturbed", "unexplained") and set(alert.squares) <= squares for alert in alerts)


def _piece_reading(probs: np.ndarray) -> np.ndarray:
    """(90,) what each point reads as most likely: empty or a piece (class index; "covered" left out)."""
    return np.argmax(np.asarray(probs)[:, :PIECE_CLASSES], axis=1)


def _holds(classes: np.ndarray) -> np.ndarray:
    """(90,) what each point holds by class index: 0 empty, 1 a red piece, 2 a black one."""
    return np.where(classes == 0, 0, np.where(classes < 8, 1, 2))


def other_orders(start: Position, moves: Sequence[Move]) -> list[tuple[Move, ...]]:
    """For each of ``moves`` (plies from ``start``, read from one view), the other moves that could
    stand at that ply: each side's moves in another legal order reaching the same board (the view
    shows where the pieces ended, not in what order they went)."""
    sides = [list(moves[i::2]) for i in (0, 1)]
    others: list[set[Move]] = [set() for _ in moves]
    end = start
    for move in moves:
        end = end.play(move)
    for first in set(itertools.permutations(sides[0])):
        for second in set(itertools.permutations(sides[1])):
            order = [first[i // 2] if i % 2 == 0 else second[i // 2] for i in range(len(moves))]
            position, legal = start, True
            for move in order:
                if not position.is_legal(move):
                    legal = False
                    break
                position = position.play(move)
            if legal and list(order) != list(moves) and position.board == end.board:
                for i, move in enumerate(order):
                    if move != moves[i]:
                        others[i].add(move)
    for i, j, route in _other_routes(start, moves, end):
        others[i].add(route[i])
        others[j].add(route[j])
    return [tuple(sorted(found, key=lambda m: m.iccs)) for found in others]


def _other_routes(start: Position, moves: Sequence[Move], end: Position) -> Iterator[tuple[int, int, list[Move]]]:
    """(i, j, path) for each path that differs from ``moves`` in the point a piece moved twice passed
    through (plies i and j: a chariot a0-b0-b2 or a0-a2-b2): the view shows where it ended, not by
    which point it went (a live tester's catch-up recorded a0b0 b0b2 for a0a2 a2b2, with no mark)."""
    before = [start]
    for move in moves:
        before.append(before[-1].play(move))
    for i, first in enumerate(moves):
        j = next((k for k in range(i + 2, len(moves), 2) if moves[k].from_square == first.to_square), None)
        if j is None:  # the piece it moved did not move again (the whole path is checked below)
            continue
        for alternative in before[i].legal_moves():
            if alternative.from_square != first.from_square or alternative == first:
                continue
            path, position, legal = list(moves), start, True
            path[i] = alternative
            for k, move in enumerate(path):
                if k == j:
                    hop = next((m for m in position.legal_moves() if m.from_square == alternative.to_square
                                and m.to_square == moves[j].to_square), None)
                    if hop is None:
                        legal = False
                        break
                    move = path[j] = hop
                if not position.is_legal(move):
                    legal = False
                    break
                position = position.play(move)
            if legal and position.board == end.board:
                yield i, j, path


def _exchanged(board: str, other: str) -> tuple[int, ...]:
    """The two squares whose pieces, of one colour and of two kinds, stand the other way round in
    ``other``; empty when the boards differ in any other way."""
    differ = [sq for sq, (a, b) in enumerate(zip(board, other, strict=True)) if a != b]
    if len(differ) != 2:
        return ()
    a, b = differ
    if board[a] == "." or board[b] == "." or board[a].isupper() != board[b].isupper():
        return ()
    return (a, b) if (other[a], other[b]) == (board[b], board[a]) else ()


def _undoes_itself(moves: Sequence[Move]) -> bool:
    """Whether a path of moves brings a piece back to the point it started from: such a path can
    explain a board that differs from the record in one place by shuffles that change nothing (a
    wrong record "repaired" by invented moves), so one view is not evidence enough for it."""
    origin: dict[int, int] = {}  # where each piece that moved stands now -> where it started
    for move in moves:
        start = origin.pop(move.from_square, move.from_square)
        origin.pop(move.to_square, None)  # a piece taken there is gone
        if start == move.to_square:
            return True
        origin[move.to_square] = start
    return False


def _told(key: tuple[tuple[str, tuple[str, ...]], ...], raised: tuple[tuple[str, tuple[str, ...]], ...] | None,
          seen: str = "", raised_seen: str = "") -> bool:
    """Was the trouble ``key`` (kinds and squares of alerts) told when ``raised`` was? The same alerts,
    or a board no continuation explains, seen as ``seen``, one ordinary move on from the board
    ``raised_seen`` that none explained when it was told: players moving on a board that went wrong
    (a wrong starting position, say) change which points differ, not what is wrong. A piece that
    vanished or appeared, or an illegal move, on such a board is new trouble and is raised."""
    if raised is None:
        return False
    if key == raised:
        return True
    unexplained = {kind for kind, _ in key} == {"unexplained"} == {kind for kind, _ in raised}
    return unexplained and bool(seen) and bool(raised_seen) and _one_move_on(raised_seen, seen)


def _seen_placement(alerts: Sequence[Alert]) -> str:
    """The FEN placement the alerts saw, if they name one."""
    return next((a.fen_seen for a in alerts if isinstance(a, BoardDisturbed) and a.fen_seen), "")


def _alike_but_on(board: str, other: str, points: np.ndarray) -> bool:
    """Do two boards hold the same on every point outside ``points`` (90 booleans)?"""
    return all(board[sq] == other[sq] for sq in np.flatnonzero(~points))


def _one_move_on(before: str, after: str) -> bool:
    """Is placement ``after`` the same as ``before`` or one legal move of either side on from it?"""
    if before == after:
        return True
    for side in ("w", "b"):
        try:
            position = Position.from_fen(f"{before} {side} - - 0 1")
            if any(position.play(move).fen().split()[0] == after for move in position.legal_moves()):
                return True
        except RulesError:  # a placement the rules cannot play from (a general missing, say)
            continue
    return False


def _set_aside(found: Changes, shifted: dict[int, float], squares: set[int], t: float, why: str,
               discs: bool = True) -> tuple[Changes, dict[int, float]]:
    """``found`` and (with ``discs``) ``shifted`` less ``squares``, logged with ``why``."""
    if not squares:
        return found, shifted
    log.info("t=%.2f: %s %s", t, ", ".join(square_name(sq) for sq in sorted(squares)), why)
    kept = {sq: v for sq, v in shifted.items() if sq not in squares} if discs else shifted
    return found.without(squares), kept
