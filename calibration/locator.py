"""``BoardLocator``: find the board in a frame without markers, fit and refine the 9x10 lattice.

Stages: (1) thin-line evidence on a reduced copy of the frame; (2) candidate quadrilaterals around
the largest stroke networks and, inside each, 1D fits of 9 and 10 evenly spaced lines; (3) the best
few hypotheses are refined at full resolution against the line evidence (robust to pieces and
hands); (4) each is checked against its neighbours one line over, the river gap and the palace
diagonals; (5) the winner's score becomes the confidence, and a weak one is refused rather than
returned; (6) the point names are oriented (never mirrored) and red's side found from the pieces.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from calibration.board import FILES
from calibration.candidates import (
    Hypothesis,
    candidate_quads,
    hypotheses_from_quad,
    outline_quads,
    realign,
    same_quad,
)
from calibration.discs import disc_lattices
from calibration.errors import BoardNotFoundError
from calibration.evidence import line_response, project, spacing_px, to_gray
from calibration.geometry import RED_SIDES, BoardGeometry, side_of_rank0
from calibration.lattice import LatticeScore, score_lattice, shifted
from calibration.lens import Lens, RadialDistortion
from calibration.redside import red_evidence
from calibration.refine import refine

log = logging.getLogger(__name__)

MIRROR = np.array([[-1.0, 0.0, FILES - 1.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])


@dataclass(frozen=True)
class _Fit:
    h: np.ndarray
    lens: Lens | None
    score: LatticeScore
    rms: float
    margin: float  # total-score lead over the best one-line-shifted alternative
    confidence: float
    relabelled: bool = False  # a shifted or transposed naming of the refined lattice won


SOFT_KERNEL = 4.0  # spacings per kernel of the second look at a soft picture (the first: 6)


def _full_response(gray: np.ndarray, h: np.ndarray, dark: bool, per_kernel: float = 6.0) -> np.ndarray:
    """Line evidence at full resolution around the lattice, with a kernel of ``1 / per_kernel``
    spacing (a wider one sees lines that defocus has run into their neighbours)."""
    spacing = spacing_px(h)
    kernel = int(np.clip(spacing / per_kernel, 5, 21 if per_kernel >= 6 else 31)) | 1
    corners = project(h, np.array([[-1.5, -1.5], [9.5, -1.5], [9.5, 10.5], [-1.5, 10.5]]))
    height, width = gray.shape[:2]
    x0, y0 = np.clip(np.floor(corners.min(axis=0)).astype(int), 0, [width, height])
    x1, y1 = np.clip(np.ceil(corners.max(axis=0)).astype(int), 0, [width, height])
    out = np.zeros(gray.shape[:2], np.float32)
    if x1 - x0 < 16 or y1 - y0 < 16:
        return out
    out[y0:y1, x0:x1] = line_response(gray[y0:y1, x0:x1], kernel, dark=dark, blur=1.0)
    return out


def _confidence(score: LatticeScore, rms: float, margin: float) -> float:
    """Map the evidence to 0..1; every factor must hold for a high value.

    Of the drawn segments not hidden by pieces or hands most must be found (``clear``), enough of
    them in all (``supported``: a small patch of grid-like texture is not a board), the line places
    must agree with one homography to a few hundredths of a spacing (``rms``), the river's gap must be
    bare, some of the palaces' diagonals must be drawn where the lattice puts them (a lattice of the
    wrong spacing can sit on most lines of a faint grid, never on the diagonals), and the naming
    must beat every one-line shifted or transposed naming (``margin``).
    """
    return _evidence(score.clear, score.supported, score.river, score.palace, rms, margin, clear_from=0.75, clear_span=0.15)


def _evidence(clear: float, supported: float, river: float, palace: float, rms: float, margin: float, *,
              clear_from: float, clear_span: float) -> float:
    """The factors of ``_confidence``; the share of visible lines found counts from ``clear_from`` and
    in full ``clear_span`` above it."""
    found = np.clip((clear - clear_from) / clear_span, 0.0, 1.0)
    amount = np.clip((supported - 40) / 50, 0.0, 1.0)
    bare_river = 0.5 + 0.5 * np.clip((river - 0.3) / 0.5, 0.0, 1.0)
    diagonals = 0.5 + 0.5 * np.clip(palace / 0.25, 0.0, 1.0)
    fit = np.clip((0.03 - rms) / 0.015, 0.0, 1.0)
    lead = np.clip(margin / 0.15, 0.0, 1.0)
    return float(found * amount * bare_river * diagonals * fit * lead)


def refused_standing(geometry: BoardGeometry) -> float:
    """How near a refused grid came to being found (0..1), to rank refused grids for other evidence.

    The factors of ``_confidence`` with the bar on the share of visible lines found lowered: a board
    full of pieces on faint, thin lines (a 640x360 frame, a board turned across the picture) shows
    half its segments or fewer, and the grid lying on them then scored no better than a lattice of
    half the spacing that also lay on most lines, though that one names its lines no better than its
    one-line-shifted neighbours (a low ``margin``) and misses the river.
    """
    details = geometry.details
    return _evidence(details.get("clear", 0.0), details.get("supported", 0.0), details.get("river", 0.0),
                     details.get("palace", 0.0), details.get("rms", 1.0), details.get("margin", 0.0),
                     clear_from=0.3, clear_span=0.45)


def _refused_order(geometry: BoardGeometry) -> tuple[float, float, float]:
    """Sort key of refused grids: most confident first, then nearest to being found, then most lines."""
    return -geometry.confidence, -refused_standing(geometry), -geometry.details.get("clear", 0.0)


def _same_grid(a: BoardGeometry, b: BoardGeometry) -> bool:
    """Do two grids put the board's points within a quarter spacing of each other (in either naming)?"""
    grid = np.array([[u, v] for u in range(FILES) for v in range(10)], dtype=np.float64)
    here = project(a.homography, grid)
    spacing = max(spacing_px(a.homography), 1e-9)
    for other in (b, b.turned()):
        if np.linalg.norm(project(other.homography, grid) - here, axis=1).mean() < 0.25 * spacing:
            return True
    return False


REFUSED_OFFERED = 4  # distinct refused grids a refusal carries for other evidence (the pieces) to confirm


@dataclass
class _Pass:
    """One detection pass after its cheap low-resolution stage."""

    source: np.ndarray  # the frame (gray or colour) whose lines are refined at full resolution
    dark: bool
    starts: list[np.ndarray]  # full-resolution starting homographies, best coarse score first
    lead: float  # the best coarse score: which pass to refine first
    cache: dict[int, np.ndarray] = field(default_factory=dict)  # full-resolution evidence by kernel size
    # the board's outlines in the coarse evidence, and that evidence with its scale: lattices centred
    # in them are made and refined only when no start above gave a confident grid
    outlines: list[np.ndarray] = field(default_factory=list)
    coarse: tuple[np.ndarray, float] | None = None

    def centred_starts(self, count: int) -> list[np.ndarray]:
        """The ``count`` lattices centred in the board's outlines (``hypotheses_from_quad``) of best
        coarse score, as full-resolution starting homographies."""
        if self.coarse is None or not self.outlines:
            return []
        response, factor = self.coarse
        found = [hyp for quad in self.outlines for hyp in hypotheses_from_quad(response, quad, centred=True)]
        scored = sorted(((score_lattice(response, hyp.h).total, hyp) for hyp in found), key=lambda item: -item[0])
        up = np.diag([1 / factor, 1 / factor, 1.0])
        return [up @ hyp.h for _, hyp in scored[:count]]


def _better(fit: _Fit, than: _Fit) -> bool:
    """Whether ``fit`` beats ``than``: by confidence, and between fits refused alike (most often all at
    0) by the share of the visible lines found, so the grid offered for confirming by the pieces is
    the one that lies on most of the board's lines."""
    return fit.confidence > than.confidence or (fit.confidence == than.confidence and fit.score.clear > than.score.clear)


CENTRED_STARTS = 4  # lattices centred in the board's outline refined at most, per pass
SMALL_FRAME = 600  # frames with a shorter short side get a second try at twice the size


class BoardLocator:
    """Finds the board in a frame: ``locate(frame) -> BoardGeometry`` or ``BoardNotFoundError``."""

    def __init__(self, *, red_side: str | None = None, lens: Lens | None = None, fit_distortion: bool = True,
                 min_confidence: float = 0.5, detect_size: int = 640, max_hypotheses: int = 4,
                 lead_hypotheses: int = 2) -> None:
        if red_side is not None and red_side not in RED_SIDES:
            raise ValueError(f"red side must be one of {', '.join(RED_SIDES)}, not {red_side!r}")
        self.red_side = red_side
        self.lens = lens
        self.fit_distortion = fit_distortion
        self.min_confidence = min_confidence
        self.detect_size = detect_size
        self.max_hypotheses = max_hypotheses
        self.lead_hypotheses = lead_hypotheses
        self.colour_ratio = 1.45  # how much stronger the colour channels' lines must be to be refined first
        self.min_red_evidence = 0.2
        self.timings: dict[str, float] = {}

    def locate(self, frame: np.ndarray) -> BoardGeometry:
        """Find the board in ``frame`` (BGR or gray); raises ``BoardNotFoundError`` with the reason.

        A small frame (under ``SMALL_FRAME`` pixels on its short side) where no grid is found is tried
        once more at twice the size: at 640x360 a board's lines are one or two pixels wide and washed
        out by blur or glare, and the line detector's kernels were sized for larger images.
        """
        if frame is None or frame.ndim not in (2, 3) or min(frame.shape[:2]) < 32:
            raise BoardNotFoundError("not an image")
        try:
            return self._locate(frame)
        except BoardNotFoundError as error:
            if min(frame.shape[:2]) >= SMALL_FRAME or self.lens is not None:
                raise
            first = error
        try:
            big = self._locate(cv2.resize(frame, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC))
        except BoardNotFoundError as error:
            candidates = _distinct(first.candidates + [_halved(c, frame) for c in error.candidates])
            raise BoardNotFoundError(first.reason, candidates[:REFUSED_OFFERED]) from None
        log.info("board found on the frame at twice its size (%dx%d)", frame.shape[1], frame.shape[0])
        return _halved(big, frame)

    def from_pieces(self, frame: np.ndarray, max_grids: int = 6) -> list[BoardGeometry]:
        """Unconfirmed grids through the pieces' centres (:mod:`calibration.discs`), for a caller that
        can check them against the position it expects: where blur or glare hid the grid lines (the
        locator refused the board) the pieces still show it. Confidence 0, red's side unknown."""
        height, width = frame.shape[:2]
        grids = []
        for h in disc_lattices(frame):
            if np.linalg.det(_jacobian(h)) > 0:  # names must not be mirrored: files run left to right
                h = h @ MIRROR
            h = self._onto_lines(frame, h)
            if _plausible(h, frame.shape[:2]):
                grids.append(BoardGeometry(homography=h / h[2, 2], image_size=(width, height), confidence=0.0,
                                           red_side=None, lens=self.lens, details={"from_pieces": 1.0}))
                if len(grids) == max_grids:  # the rest are not refined for nothing
                    break
        return grids

    def _onto_lines(self, frame: np.ndarray, h: np.ndarray) -> np.ndarray:
        """``h`` (a grid through the pieces' tops) moved onto what grid lines still show, when the
        refinement moves its points half a spacing or less on average: the tops stand off their points with the
        camera's tilt, and a fit through them alone can be a fraction of a spacing off at a corner
        (0.7 at a blurred board's, where three pieces then read wrong). With no lines to go by it
        stays as it is."""
        full = _full_response(frame, h, True)
        strength = score_lattice(full, h, lens=self.lens).strength
        refined = refine(full, h, strength, lens=self.lens)
        if not _plausible(refined.h, frame.shape[:2]):
            return h
        grid = np.array([[u, v] for u in range(FILES) for v in range(10)], dtype=np.float64)
        moved = np.linalg.norm(project(refined.h, grid) - project(h, grid), axis=1).mean() / max(spacing_px(h), 1e-9)
        return refined.h if moved < 0.5 else h  # on average: a corner may move more, a line's shift moves all

    def _locate(self, frame: np.ndarray) -> BoardGeometry:
        started = time.perf_counter()
        height, width = frame.shape[:2]
        work = frame
        gray = work  # colour when given: lines are sought in whichever channel shows them best
        best: _Fit | None = None
        # every pass's best: a refusal offers the distinct ones (not the soft look's, which sits less
        # exactly on a grid the pieces would confirm as well: see below)
        fits: list[_Fit] = []
        reason = "no grid-like line structure"
        # Cheap first: the low-resolution evidence of the dark-line passes (gray, colour channel) decides
        # which is refined first, and each gets only its leading hypotheses until one is confident; the
        # rest are refined only when no pass gave a confident grid (red ink on green cloth is faint in
        # gray, so refining four gray hypotheses before the colour pass wasted most of the time).
        shared: dict[int, np.ndarray] = {}  # both dark passes refine against the same full-resolution evidence
        coarse = {colour: self._coarse(gray, True, colour) for colour in ((False, True) if gray.ndim == 3 else (False,))}
        order = sorted(coarse, key=lambda colour: colour and not self._colour_first(coarse))
        passes: list[_Pass | None] = [None] * len(order)
        lead_count = min(self.lead_hypotheses, self.max_hypotheses)
        for stage in (range(lead_count), range(lead_count, self.max_hypotheses)):
            for slot, colour in enumerate(order):
                if stage.start == 0:
                    passes[slot], why = self._prepare(coarse[colour], gray, True, shared)
                    reason = why if best is None and why else reason
                prepared = passes[slot]
                if prepared is None:
                    continue
                fit = self._refine_pass(prepared, work, stage)
                fits += [fit] if fit is not None else []
                if fit is not None and (best is None or _better(fit, best)):
                    best = fit
                if best is not None and best.confidence >= self.min_confidence:
                    break
            if best is not None and best.confidence >= self.min_confidence:
                break
        if best is None or best.confidence < self.min_confidence:
            # glare or blur hid the lines at one end of the board: the lattices centred in its outline
            for prepared in passes:
                starts = prepared.centred_starts(CENTRED_STARTS) if prepared is not None else []
                if prepared is not None and starts:
                    fit = self._refine_pass(prepared, work, range(len(starts)), starts=starts)
                    fits += [fit] if fit is not None else []
                    if fit is not None and (best is None or _better(fit, best)):
                        best = fit
                    if best is not None and best.confidence >= self.min_confidence:
                        break
        if best is None and any(passes):
            reason = "no lattice fitted"
        if best is None or best.confidence < 0.3:  # light lines on a dark board only when dark ones gave nothing
            light, why = self._prepare(self._coarse(gray, False, False), gray, False, {})
            fit = self._refine_pass(light, work, range(self.max_hypotheses)) if light else None
            fits += [fit] if fit is not None else []
            if fit is not None and (best is None or _better(fit, best)):
                best = fit
            elif best is None:
                reason = why or "no lattice fitted"
        if best is not None and best.confidence < self.min_confidence:
            soft = self._soft_look(gray, best, work)
            # only a look that finds the board replaces the fit: a refused one is what the recorder
            # confirms by the pieces, and the wide kernel's grid sits less exactly (a knock measured
            # on it, 0.50 spacings on the thin kernel's, went unraised: bench inject-048)
            if soft is not None and soft.confidence >= self.min_confidence:
                best = soft
        self.timings["fit_ms"] = 1000 * (time.perf_counter() - started)
        if best is None:
            raise BoardNotFoundError(reason)
        geometry = self._geometry(best, work)
        if best.confidence < self.min_confidence:
            refused = _distinct([geometry] + [self._geometry(fit, work) for fit in fits if fit is not best])
            raise BoardNotFoundError(
                f"lattice fit too weak (confidence {best.confidence:.2f} < {self.min_confidence:.2f}; "
                f"{best.score.clear:.0%} of visible grid lines found, residual {best.rms:.3f} spacing)",
                candidates=refused[:REFUSED_OFFERED])
        self.timings["total_ms"] = 1000 * (time.perf_counter() - started)
        return geometry

    def _geometry(self, best: _Fit, frame: np.ndarray) -> BoardGeometry:
        """The fit as a ``BoardGeometry``: names oriented (never mirrored), red's side from the pieces."""
        height, width = frame.shape[:2]
        h = best.h
        if np.linalg.det(_jacobian(h)) > 0:  # names must not be mirrored: files run left to right
            h = h @ MIRROR
        evidence = red_evidence(frame, h, best.lens) if frame.ndim == 3 else 0.0
        red_side: str | None
        if evidence <= -self.min_red_evidence:
            h = h @ np.array([[-1.0, 0.0, 8.0], [0.0, -1.0, 9.0], [0.0, 0.0, 1.0]])
            red_side = side_of_rank0(h)
        elif evidence >= self.min_red_evidence:
            red_side = side_of_rank0(h)
        else:
            red_side = None
        geometry = BoardGeometry(
            homography=h / h[2, 2], image_size=(width, height), confidence=best.confidence,
            red_side=red_side, lens=best.lens,
            details={"clear": best.score.clear, "supported": best.score.supported, "drawn": best.score.drawn, "river": best.score.river, "palace": best.score.palace,
                     "outside": best.score.outside, "rms": best.rms, "margin": best.margin,
                     "red_evidence": evidence})
        if red_side is None and self.red_side is not None:
            geometry = geometry.with_red_side(self.red_side)
        return geometry

    def _coarse(self, gray: np.ndarray, dark: bool, colour: bool) -> tuple[np.ndarray, float]:
        """Low-resolution line evidence of one pass (gray or strongest colour channel) and its scale."""
        height, width = gray.shape[:2]
        factor = min(1.0, self.detect_size / max(width, height))
        seen = gray if colour or gray.ndim == 2 else to_gray(gray)
        small = cv2.resize(seen, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA) if factor < 1 else seen
        return line_response(small, 5, dark=dark), factor

    def _colour_first(self, coarse: dict[bool, tuple[np.ndarray, float]]) -> bool:
        """Whether the colour channels show the thin lines clearly stronger than gray (cheap: two percentiles).

        The strongest channel always responds at least about as much as gray; only a large ratio (lines
        of one ink on a cloth of another colour, faint once averaged to gray) moves the colour pass first.
        """
        gray_level = float(np.percentile(coarse[False][0][::2, ::2], 99))
        colour_level = float(np.percentile(coarse[True][0][::2, ::2], 99))
        return colour_level > self.colour_ratio * max(gray_level, 1.0)

    def _prepare(self, coarse: tuple[np.ndarray, float], gray: np.ndarray, dark: bool,
                 cache: dict[int, np.ndarray]) -> tuple[_Pass | None, str]:
        """Candidate stage of one detection pass: hypotheses ranked by their coarse lattice score."""
        response, factor = coarse
        quads = candidate_quads(response)
        outlines: list[np.ndarray] = []
        if dark:  # the board's outline, in case glare or blur left too few lines to outline the grid
            small = cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA) if factor < 1 else gray
            outlines = outline_quads(to_gray(small) if small.ndim == 3 else small)
            quads += [q for q in outlines if not any(same_quad(q, other) for other in quads)]
        if not quads:
            return None, "no grid-like line structure"
        hyps: list[Hypothesis] = []
        for quad in quads:
            hyps.extend(hypotheses_from_quad(response, quad))
        if not hyps:
            return None, "no board-sized line structure"
        scored = sorted(((score_lattice(response, hyp.h).total, hyp) for hyp in hyps), key=lambda item: -item[0])
        up = np.diag([1 / factor, 1 / factor, 1.0])
        return _Pass(source=gray, dark=dark, starts=[up @ hyp.h for _, hyp in scored], lead=scored[0][0],
                     cache=cache, outlines=outlines, coarse=coarse), ""

    def _refine_pass(self, prepared: _Pass, frame: np.ndarray, indices: range,
                     starts: list[np.ndarray] | None = None) -> _Fit | None:
        """Refine the pass's hypotheses of the given ranks (of ``starts`` instead, when given) at full
        resolution; best fit (early exit > 0.9)."""
        gray, dark = prepared.source, prepared.dark
        starts = prepared.starts if starts is None else starts
        best: _Fit | None = None
        best_response, best_strength = np.zeros((1, 1), np.float32), 0.0
        for index in indices:
            if index >= len(starts):
                break
            h0 = starts[index]
            if not _plausible(h0, gray.shape[:2]):
                continue
            kernel = int(np.clip(spacing_px(h0) / 6, 5, 21)) | 1
            if kernel not in prepared.cache:
                prepared.cache[kernel] = _full_response(gray, h0, dark)
            full = prepared.cache[kernel]
            strength = score_lattice(full, h0, lens=self.lens).strength
            refined = refine(full, h0, strength, lens=self.lens,
                             fit_radial=self.fit_distortion and self.lens is None)
            if not _plausible(refined.h, gray.shape[:2]):
                continue
            fit = self._assess(full, refined.h, refined.lens, refined.rms, frame)
            if fit.relabelled:  # the lines were right but named wrongly: refit with the right names
                again = refine(full, fit.h, strength, lens=refined.lens, windows=(0.15, 0.08, 0.05),
                               fit_radial=self.fit_distortion and self.lens is None)
                if _plausible(again.h, gray.shape[:2]):
                    fit = self._assess(full, again.h, again.lens, again.rms, frame)
            if fit.confidence < 0.9 and index < 2:  # slid along a line family? refit both combs in its view
                start = realign(full, fit.h)
                if _plausible(start, gray.shape[:2]):
                    again = refine(full, start, strength, lens=fit.lens, windows=(0.2, 0.1, 0.06),
                                   fit_radial=self.fit_distortion and self.lens is None)
                    if _plausible(again.h, gray.shape[:2]):
                        other = self._assess(full, again.h, again.lens, again.rms, frame)
                        if other.confidence > fit.confidence:
                            fit = other
            if best is None or _better(fit, best):
                best, best_response, best_strength = fit, full, strength
            if best.confidence > 0.9:
                break
        if best is not None and best.confidence < 0.9:
            # the best fit refined again from where it ended, the search windows wide again: a fit that
            # took its last steps with narrow windows (relabelled or realigned) can stay tilted towards
            # strokes beside the grid (a board's file numbers) that the full search leaves behind
            again = refine(best_response, best.h, best_strength, lens=best.lens,
                           fit_radial=self.fit_distortion and self.lens is None)
            if _plausible(again.h, gray.shape[:2]):
                other = self._assess(best_response, again.h, again.lens, again.rms, frame)
                if other.confidence > best.confidence:
                    best = other
        return best

    def _soft_look(self, gray: np.ndarray, weak: _Fit, frame: np.ndarray) -> _Fit | None:
        """The weak fit refined and judged again against line evidence of a wider kernel.

        In a picture a little out of focus (a soft webcam, a phone focused on the pieces) the grid's
        outermost lines run into the board's frame beside them, and the palace's short lines into the
        pieces' edges: the thin-line kernel, a sixth of a spacing, no longer sees them, too few of the
        visible lines are found and a grid lying right on the others is refused. A kernel of a
        quarter spacing sees such bands whole. Only a fit already refused gets this second look, so
        a sharp picture's grid is found as before.
        """
        full = _full_response(gray, weak.h, True, SOFT_KERNEL)
        strength = score_lattice(full, weak.h, lens=self.lens).strength
        refined = refine(full, weak.h, strength, lens=weak.lens,
                         fit_radial=self.fit_distortion and self.lens is None)
        if not _plausible(refined.h, gray.shape[:2]):
            return None
        fit = self._assess(full, refined.h, refined.lens, refined.rms, frame)
        log.debug("soft look at a weak fit: confidence %.2f -> %.2f", weak.confidence, fit.confidence)
        return fit

    def _assess(self, response: np.ndarray, h: np.ndarray, lens: Lens | None, rms: float,
                frame: np.ndarray) -> _Fit:
        """Score ``h`` and its one-line-shifted neighbours; keep the best labelling."""
        base = score_lattice(response, h, lens=lens)
        strength = base.strength
        candidates = [(h, base)]
        for du in (-1, 0, 1):
            for dv in (-1, 0, 1):
                if du or dv:
                    alt = shifted(h, du, dv)
                    candidates.append((alt, score_lattice(response, alt, strength, lens)))
        top = max(candidates, key=lambda item: item[1].total)[1]
        if top.river < 0.8 or top.palace < 0.5:  # maybe the 9x10 lattice read across: files along ranks
            for c in (-2, -1, 0, 1):
                for d in (-1, 0, 1, 2):
                    alt = h @ np.array([[0.0, 1.0, c], [1.0, 0.0, d], [0.0, 0.0, 1.0]])
                    candidates.append((alt, score_lattice(response, alt, strength, lens)))
        order = sorted(range(len(candidates)), key=lambda i: -candidates[i][1].total)
        (h_best, s_best), (_, s_next) = candidates[order[0]], candidates[order[1]]
        margin = s_best.total - s_next.total
        s_best = score_lattice(response, h_best, strength, lens, frame)
        return _Fit(h=h_best, lens=lens, score=s_best, rms=rms, margin=margin,
                    confidence=_confidence(s_best, rms, margin), relabelled=order[0] != 0)


def _distinct(grids: list[BoardGeometry]) -> list[BoardGeometry]:
    """``grids`` in ``_refused_order``, each kept only when no grid before it is the same grid."""
    kept: list[BoardGeometry] = []
    for grid in sorted(grids, key=_refused_order):
        if not any(_same_grid(grid, other) for other in kept):
            kept.append(grid)
    return kept


def _halved(big: BoardGeometry, frame: np.ndarray) -> BoardGeometry:
    """A geometry found on the frame at twice its size, for the frame itself."""
    # pixel centres: x_big = 2 x + 0.5; the radial lens is normalised to the frame and keeps its k
    to_small = np.array([[0.5, 0.0, -0.25], [0.0, 0.5, -0.25], [0.0, 0.0, 1.0]])
    height, width = frame.shape[:2]
    lens = RadialDistortion(big.lens.k, (width, height)) if isinstance(big.lens, RadialDistortion) else None
    return replace(big, homography=to_small @ big.homography, image_size=(width, height), lens=lens,
                   details={**big.details, "upscaled": 2.0})


def _plausible(h: np.ndarray, shape: tuple[int, ...]) -> bool:
    """A homography that could be a camera's view of the board: finite, in front, convex, sane scale."""
    if not np.all(np.isfinite(h)):
        return False
    corners = np.array([[-1.0, -1.0, 1.0], [9.0, -1.0, 1.0], [9.0, 10.0, 1.0], [-1.0, 10.0, 1.0]])
    w = corners @ h[2]
    if not (np.all(w > 0) or np.all(w < 0)):
        return False  # the horizon crosses the board
    quad = project(h, corners[:, :2])
    edges = np.roll(quad, -1, axis=0) - quad
    cross = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    if not (np.all(cross > 0) or np.all(cross < 0)):
        return False
    spacing = spacing_px(h)
    return bool(5.0 <= spacing <= max(shape) / 4)


def _jacobian(h: np.ndarray) -> np.ndarray:
    """d(image)/d(board) at the board's centre."""
    c = np.array([[4.0, 4.5], [5.0, 4.5], [4.0, 5.5]])
    p = project(h, c)
    return np.c_[p[1] - p[0], p[2] - p[0]]
