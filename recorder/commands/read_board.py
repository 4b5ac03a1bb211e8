"""``xqrec read-board IMAGE``: find the board, read every point, print the FEN piece placement.

Calibrates the image (or loads ``--calibration``), rectifies it, classifies the 90 points with the
ONNX piece classifier, takes the most probable reading the rules allow (``recorder.placement``: no third
chariot, no advisor off its points) and prints its placement with red at the bottom. When the calibration could not
tell red's side from the colours, or the kinds clearly disagree with it, the kinds settle it
(``recorder.vision.settle_red_side``) and the board is read again turned. A steep view is read
again with the crops on the pieces' tops (``at_piece_tops``).
``--json`` prints probabilities per point, the geometry and the timings instead.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from calibration import BoardGeometry, BoardLocator, BoardNotFoundError
from recorder.glare import washed_out
from recorder.observer import crop_shifts, point_rows
from recorder.offpoint import GLARE_NO_PATCH, find_discs, loose_pieces, parallax_field, piece_offsets
from recorder.picture import DARK
from recorder.placement import legal_labels
from recorder.session import grid_of_start_pieces
from recorder.sources import read_picture
from recorder.vision import (
    COVERED,
    EMPTY,
    GOOD_SPACING_PX,
    MIN_SPACING_PX,
    POINT_NAMES,
    SECOND_LOOK_BELOW,
    PieceClassifier,
    PointProbabilities,
    colourless,
    fen_placement,
    occupied_points,
    point_index,
    settle_red_side,
    small_board_note,
    sureness,
)
from rules import Position
from rules.squares import PIECE_LIMITS, piece_name

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "read-board", help="print the FEN piece placement seen in a board image",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Prints the placement (FEN, red at the bottom), then the points not in the picture, those\n"
               "read as covered (a hand) and those read less than 90% sure, for a person to check.\n"
               "Warnings on stderr say when not to trust the reading (a mirrored picture read flipped\n"
               "back, a board cut off by the picture's edge, points covered by a hand, glare, red's side\n"
               "not told, many points read unsure or overruled by the rules, a placement no game can\n"
               "show). Pictures: JPEG, PNG, BMP, TIFF, WebP (not HEIC).\n"
               "Exit status: 0 a placement was printed; 1 no board found, or no pieces can be read in it\n"
               "(grayscale or too dark, board too small), or --calibration does not fit the picture;\n"
               "2 the file cannot be read or an option is wrong.")
    parser.add_argument("image", type=Path, help="photo or frame of the board")
    parser.add_argument("--calibration", type=Path, help="a saved calibration (JSON) to use instead of locating")
    parser.add_argument("--model", type=Path, help="ONNX piece classifier (default: the bundled one)")
    parser.add_argument("--json", action="store_true", help="print probabilities, geometry and timings as JSON")
    parser.set_defaults(handler=run)


TOPS_MIN_SHIFT = 0.1  # spacings the piece tops must stand off their points to be read there instead
SURE = 0.9  # a point read with less probability is named for a person to check (300 of 326 misread test points are)
MIRROR_TRY = -0.03  # a located board read less surely than this is read flipped left to right too
MIRROR_MARGIN = 0.03  # and the flipped reading taken when it is surer by this much
MIRROR_SURE = -0.1  # and sure in itself (a mirrored set read straight again reads surely)
MIRROR_MIN_PIECES = 10  # fewer pieces than this are not enough to tell a mirrored picture by
UNRELIABLE_OVERRULED = 5  # this many overruled points make a reading unreliable (see BoardReading.warnings)
# This many points read less than SURE make a reading doubtful as a whole: of 48 frames of clean bench videos
# read as they are, 13 had 8 or more (5 of them wrong), 35 had fewer (1 wrong, under glare).
UNRELIABLE_DOUBTFUL = 8
GLARE_WASHED = 0.3  # a point whose piece-sized square is this much blown out to white may read wrong (as the recorder)
# a piece read this sure that the rules changed for a kind's count: the choice may be wrong (bench_read_board_warnings:
# at 0.5 it came with 12 of 42 right readings, at 0.9 with 6, and every wrong one is warned of either way)
OVER_LIMIT_SURE = 0.9
GLARE_WARN_POINTS = 10  # glare over this many points is warned of (a few blown-out points are common and harmless)
OVERRULED_P = 0.05  # the rules read a point as a class the classifier gave less than this: overruled
MIN_PICTURE_PX = 9 * MIN_SPACING_PX  # a picture narrower than this cannot hold a board to read
# a picture whose brightest parts are darker than recorder.picture.DARK is too dark to see colours in;
# where the board's lines were found, one this dark is refused (between the two, warned of):
# renders scaled to brightest parts at 25-56 read right, a tester's picture at 22 (dimmed, then
# compressed) read six points wrong
DARK_FOUND = 32


@dataclass(frozen=True)
class BoardReading:
    """What ``read_board`` saw: the probabilities, the reading the rules allow (``labels``, per point in
    ``POINT_NAMES`` order), the grid, the timings in ms and the points the picture does not show
    (``unseen``: cut off by its edge; read as covered)."""

    probs: PointProbabilities
    labels: list[str]
    geometry: BoardGeometry
    timings: dict[str, float]
    unseen: tuple[str, ...] = ()
    mirrored: bool = False
    glared: tuple[str, ...] = ()  # points glare washes out (GLARE_WASHED)
    off_point: dict[str, float] = field(default_factory=dict)  # pieces standing off their points (spacings)
    between: dict[str, float] = field(default_factory=dict)  # empty points nearest a piece lying between points
    # the grid lines did not confirm the board (why not): it was placed by pieces standing as at a game's start
    by_pieces: str = ""

    @property
    def placement(self) -> str:
        """The FEN piece placement of ``labels``, red at the bottom."""
        return fen_placement(self.labels)

    def sureness(self) -> float:
        """The mean log-probability of the likeliest class over the points read as occupied."""
        return sureness(self.probs, occupied_points(self.probs))

    def set_by_rules(self) -> dict[str, tuple[str, str]]:
        """Points the rules read otherwise than the classifier's own best class: name -> (alone, read)."""
        return {name: (alone, legal) for name, alone, legal in zip(POINT_NAMES, self.probs.labels(), self.labels,
                                                                    strict=True) if alone != legal}

    def covered(self) -> list[str]:
        """Points the reading leaves covered, the picture's cut-off ones aside: those the classifier read
        so (a hand, glare) and those the rules set so because no reading they allow fits the point better
        (under glare a general read as a red elephant on e9; a chariot over the count of two). The
        placement writes them empty, so they must be named."""
        return [name for name, label in zip(POINT_NAMES, self.labels, strict=True)
                if label == COVERED and name not in self.unseen]

    def over_limit(self, sure: float = OVER_LIMIT_SURE) -> str:
        """The piece kinds the classifier alone read more of than a side has, where the rules had to
        take one read at least ``sure`` for something else, with their points (``"4 red chariots
        (b2, e2, a0, i0; 2 allowed)"``); "" when none. A third chariot read 30 % is a misread the
        rules put right; one read 95 % may be the right one and another the misread."""
        told = []
        classes, labels, ruled = self.probs.classes, self.probs.labels(), self.set_by_rules()
        for letter, limit in PIECE_LIMITS.items():
            for piece in (letter, letter.lower()):
                rows = [(row, name) for row, name, label in zip(self.probs.probs, POINT_NAMES, labels, strict=True)
                        if label == piece and name not in self.unseen]
                changed = [row[classes.index(piece)] for row, name in rows if name in ruled]
                if len(rows) > limit and changed and max(changed) >= sure:
                    told.append(f"{len(rows)} {piece_name(piece)}s ({', '.join(name for _, name in rows)}; "
                                f"{limit} allowed)")
        return "; ".join(told)

    def overruled(self) -> list[str]:
        """Points the rules read as a class the classifier gave almost no chance (``OVERRULED_P``):
        one or two are misread pieces; many say the picture itself is off (its colours, a mirror)."""
        classes = self.probs.classes
        return [name for row, name, label in zip(self.probs.probs, POINT_NAMES, self.labels, strict=True)
                if name not in self.unseen and row[classes.index(label)] < OVERRULED_P]

    def warnings(self, problem: str = "") -> list[str]:
        """What a person should know before trusting this reading, one sentence each."""
        out = []
        if self.by_pieces:
            out.append(f"the board's lines did not confirm it ({self.by_pieces}); it was placed by its pieces, which "
                       "stand as at a game's start, or nearly so: a sharper picture, or a calibration "
                       "(--calibration), reads any position")
        if self.mirrored:
            out.append("the picture looks mirrored (the characters read better flipped left to right): it was "
                       "read flipped back; a camera's mirror setting or a photo of a mirror does this")
        small = small_board_note(self.geometry.spacing_px())
        if small:
            out.append(small)
        if self.off_point:
            out.append(f"{len(self.off_point)} piece(s) stand off their points ({_distances(self.off_point)} of a grid "
                       "spacing): each was read at its nearest point, which may not be where it belongs; set them "
                       "on their points (art. 5.9)")
        if self.between:
            out.append(f"a piece seems to lie between points, read as no piece ({_distances(self.between, 'near ')} "
                       "of a grid spacing off): the placement may miss it; set it on its point (art. 5.9) and read again")
        if self.unseen:
            out.append(f"{len(self.unseen)} point(s) are cut off by the picture's edge ({', '.join(self.unseen)}): "
                       "what stands there is not read and the placement shows them empty; frame the whole board")
        if self.geometry.red_side is None:
            out.append("red's side could not be told from the pieces: the placement puts red where the board's "
                       "naming put rank 0, which may be upside down")
        doubtful = self.doubtful()
        ruled = self.set_by_rules()
        # glare is told where it touches the reading (a bright white board "washed out" everywhere but
        # read surely is no news): points under it read unsure, set by the rules, or read as covered
        covered = self.covered()
        hurt = [name for name in self.glared if name in doubtful or name in ruled or name in covered]
        if len(self.glared) >= GLARE_WARN_POINTS and hurt:
            out.append(f"glare washes out {len(self.glared)} point(s), and {len(hurt)} of them read unsure "
                       f"({_names(hurt)}): a piece there may be misread (its colour above all) or missed; move the "
                       "light or the camera")
        seen_covered = [name for name in covered if name not in ruled]  # the classifier's own reading
        if seen_covered:
            why = "a hand, or glare?" if set(seen_covered) <= set(self.glared) else "a hand?"
            out.append(f"{len(seen_covered)} point(s) are covered ({_names(seen_covered)}: {why}): what stands "
                       "there is not read and the placement shows them empty")
        left = [name for name in covered if name in ruled]
        if left:
            out.append(f"{len(left)} point(s) read as no piece the rules allow there ({_names(left)}): the "
                       "placement shows them empty; check what stands there")
        over = self.over_limit()
        if over:
            out.append(f"the camera read {over}: the rules kept the surest and read the others as their next "
                       "likeliest kind, which may not be the right choice; check those points")
        overruled = self.overruled()
        if len(overruled) >= UNRELIABLE_OVERRULED:
            out.append(f"the rules had to overrule the camera's reading on {len(overruled)} points "
                       f"({_names(overruled)}): this reading is unreliable; are the picture's colours true "
                       "(no sepia or tinted filter, red ink looking red), and is it sharp and not heavily compressed?")
        elif len(doubtful) >= UNRELIABLE_DOUBTFUL:
            by_rules = sum(1 for name in doubtful if name in ruled)
            out.append(f"{len(doubtful)} points read less than {SURE:.0%} sure ({by_rules} of them set by the rules): "
                       "a reading this unsure is often wrong somewhere; check those points (glare, blur, heavy "
                       "compression or an unusual set make a picture read poorly)")
        if problem:
            out.append(f"no game can show this placement ({problem}); some points are misread"
                       + (" or not seen" if self.unseen or self.covered() else ""))
        return out

    def doubtful(self, sure: float = SURE) -> dict[str, tuple[str, float, str, float]]:
        """Points whose reading has a probability under ``sure``: name -> (read, its probability,
        the likeliest other class, its probability). Most misread points are among them."""
        out = {}
        classes = self.probs.classes
        for row, name, label in zip(self.probs.probs, POINT_NAMES, self.labels, strict=True):
            read = classes.index(label)
            if row[read] < sure:
                other = max((c for c in range(len(classes)) if c != read), key=lambda c: row[c])
                out[name] = (label, float(row[read]), classes[other], float(row[other]))
        return out


def _names(points: Iterable[str], most: int = 12) -> str:
    """Point names for a warning: the first ``most``, then how many more."""
    names = list(points)
    shown = ", ".join(names[:most])
    return shown if len(names) <= most else f"{shown} and {len(names) - most} more"


def _distances(points: dict[str, float], prefix: str = "") -> str:
    """``"c4 0.40, e6 0.41"``: points with how far off they are."""
    return ", ".join(f"{prefix}{name} {distance:.2f}" for name, distance in points.items())


OFF_THE_BOARD = (0.5, 2.5)  # spacings a grid knocked off its board lies from it (another board further off is not it)
TROUBLE_MARGIN = 2  # points overruled or covered that a given grid's reading must have more of to be refused


def _trouble(seen: BoardReading) -> int:
    """Points the rules overruled or read covered: what a grid placed off the board makes of its pieces."""
    read_covered = {name for name in seen.probs.covered_points() if name not in seen.unseen}
    return len(seen.overruled()) + len(read_covered | set(seen.covered()))


def _grid_off_the_board(seen: BoardReading, image: np.ndarray, classifier: PieceClassifier) -> str:
    """Why the given calibration's reading ``seen`` is of a grid knocked off the board ("" when it is
    not, or no board is found): it has ``TROUBLE_MARGIN`` or more points overruled or covered, a corner
    of its grid lies ``OFF_THE_BOARD`` spacings from every corner of the grid the locator finds, and
    read on that grid the pieces have ``TROUBLE_MARGIN`` fewer such points.

    A grid a whole spacing off still puts nearly every line on a board line, so the line check passes
    it (a tester's calibration moved by one spacing read a wrong placement, exit 0); the recorder
    catches it by the pieces disagreeing with the game, which a single picture does not have. Its
    reading gives it away: a file or rank of points on the margin reads covered, and pieces named one
    point over stand where the rules forbid (an advisor out of its palace). A clean reading is not
    looked at again (the locator costs more than the reading), nor is a board further off (a
    neighbouring board in view, where a hand made the reading unsure: a reviewer's)."""
    if seen.mirrored or _trouble(seen) < TROUBLE_MARGIN:  # (read flipped: its grid is the flipped picture's)
        return ""
    try:
        located = BoardLocator().locate(image)
    except BoardNotFoundError:  # the calibration is what there is to go on
        return ""
    given = seen.geometry
    corners = ("a0", "i0", "a9", "i9")  # as a set: the located grid may name them from the other side
    ours_points, found_points = given.points(), located.points()  # (each call projects all 90)
    ours = np.array([ours_points[name] for name in corners])
    found = np.array([found_points[name] for name in corners])
    apart = np.hypot(ours[:, None, 0] - found[None, :, 0], ours[:, None, 1] - found[None, :, 1]).min(axis=1)
    off = float(apart.max() / max(given.spacing_px(), 1e-6))
    if not OFF_THE_BOARD[0] <= off <= OFF_THE_BOARD[1]:
        return ""
    other = _read(image, classifier, located, located=True)
    ours_trouble, other_trouble = _trouble(seen), _trouble(other)
    if ours_trouble < other_trouble + TROUBLE_MARGIN:
        return ""
    return (f"its grid lies {off:.1f} spacings from the board found in the picture, and read on it {ours_trouble} "
            f"points are covered or stand where the rules forbid, against {other_trouble} on the board found: "
            "another camera, or the camera or board moved")


def read_board(image: np.ndarray, classifier: PieceClassifier, geometry: BoardGeometry | None = None) -> BoardReading:
    """Locate (unless given), rectify, classify and read with the rules; a picture that reads much
    better flipped left to right (a mirror image: the characters belong to no set) is read flipped.

    Only a located board of :data:`MIRROR_MIN_PIECES` pieces or more whose reading is unsure
    (:data:`MIRROR_TRY`) is read flipped too, and the flipped reading is taken when it is sure
    (:data:`MIRROR_SURE`), surer by :data:`MIRROR_MARGIN` and no more points of it go against the
    rules (boards of 3-6 pieces were flipped wrongly 5 times in 29 before the piece and sureness
    limits). Held-out views (test split, 30 renders at 640x480 to 1920x1080 and 30 flat
    drawings, 59 found), each read as it is and mirrored: 48 of the 59 mirrored pictures were read
    flipped back, none of the 59 others; the placement was right on 50 of them as they are and on
    45 mirrored; 13 of the 59 straight pictures were read flipped as well (the time it costs). A
    mirrored picture of few pieces, one read surely as it is, or a board too small to read at all
    (:data:`MIN_SPACING_PX`) is read as it is. A calibration given is flipped with the picture: one
    made from the same mirrored camera names the points as the mirror shows them.
    """
    seen = _read(image, classifier, geometry, located=geometry is None)
    # read surely, but with more of a kind than a side has (a tester's mirrored picture in a bold sans
    # face read 4 black cannons, sure of each): tried flipped too
    if ((seen.sureness() >= MIRROR_TRY and not seen.over_limit()) or occupied_points(seen.probs).sum() < MIRROR_MIN_PIECES
            or seen.geometry.spacing_px() < MIN_SPACING_PX):
        return seen  # a few pieces' sureness is too noisy to tell a mirror by
    started = time.perf_counter()
    flipped_grid = seen.geometry.mirrored()  # found again only with an asymmetric lens model
    try:
        flipped = _read(np.ascontiguousarray(image[:, ::-1]), classifier, flipped_grid,
                        located=geometry is None or flipped_grid is None)
    except BoardNotFoundError:
        flipped = None
    seen.timings["mirror_ms"] = (time.perf_counter() - started) * 1e3  # the stages are the first reading's
    seen.timings["total_ms"] += seen.timings["mirror_ms"]
    if flipped is None or flipped.sureness() < MIRROR_SURE:
        return seen
    surer = flipped.sureness() > seen.sureness() + MIRROR_MARGIN and len(flipped.overruled()) <= len(seen.overruled())
    # or as sure, and within the pieces each side has where the reading as it is was not
    counted = (bool(seen.over_limit()) and not flipped.over_limit() and flipped.sureness() >= seen.sureness()
               and len(flipped.overruled()) < len(seen.overruled()))
    return replace(flipped, mirrored=True, timings=seen.timings) if surer or counted else seen


def _read(image: np.ndarray, classifier: PieceClassifier, geometry: BoardGeometry | None,
          located: bool) -> BoardReading:
    """Locate (unless given), rectify, classify and read with the rules. The side of a ``located``
    grid was found from the colours alone and may be overruled by the kinds."""
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    if geometry is None:
        geometry = BoardLocator().locate(image)
        timings["calibrate_ms"] = (time.perf_counter() - t0) * 1e3
    t1 = time.perf_counter()
    rectified = geometry.rectify(image)
    timings["rectify_ms"] = (time.perf_counter() - t1) * 1e3
    probs = classifier.classify(rectified, spacing=geometry.spacing, margin=geometry.margin)
    timings.update(classifier.last_timings)
    settled = settle_red_side(geometry, probs, overrule=located)
    if settled.red_side is not None:
        turned = not np.allclose(settled.homography, geometry.homography)
        geometry = settled
        if turned:
            t2 = time.perf_counter()
            rectified = geometry.rectify(image)
            probs = classifier.classify(rectified, spacing=geometry.spacing, margin=geometry.margin)
            timings["turned_ms"] = (time.perf_counter() - t2) * 1e3
    t2 = time.perf_counter()
    probs = at_piece_tops(rectified, classifier, geometry, probs)
    timings["tops_ms"] = (time.perf_counter() - t2) * 1e3
    unseen = tuple(geometry.points_off_frame())
    probs = covering(probs, unseen)
    washed = washed_out(rectified, geometry.spacing, geometry.margin)
    glared = tuple(name for name in POINT_NAMES
                   if name not in unseen and washed[_SQUARE_OF_NAME[name]] >= GLARE_WASHED)
    t3 = time.perf_counter()
    labels = legal_labels(probs)
    timings["rules_ms"] = (time.perf_counter() - t3) * 1e3
    t4 = time.perf_counter()
    occupied = np.zeros(90, dtype=bool)
    occupied[_POINT_SQUARES] = [label != EMPTY for label in labels]
    read_covered = set(probs.covered_points())
    hidden = {_SQUARE_OF_NAME[name] for name, label in zip(POINT_NAMES, labels, strict=True)
              if label == COVERED or name in unseen or name in read_covered}
    discs = find_discs(rectified, geometry.spacing, geometry.margin, occupied=occupied,
                       blind=washed >= GLARE_NO_PATCH)  # as the recorder: a washed patch's lines are no disc
    loose = loose_pieces(discs, occupied)
    off = {_NAME_OF_SQUARE[sq]: d for sq, d in sorted(loose.off.items()) if sq not in hidden}
    pieces = _pieces_at(rectified, classifier, geometry, discs.offsets, [sq for sq in loose.between if sq not in hidden])
    between = {_NAME_OF_SQUARE[sq]: d for sq, d in sorted(loose.between.items()) if sq in pieces}
    timings["discs_ms"] = (time.perf_counter() - t4) * 1e3
    timings["total_ms"] = (time.perf_counter() - t0) * 1e3
    return BoardReading(probs, labels, geometry, timings, unseen, glared=glared, off_point=off, between=between)


def covering(probs: PointProbabilities, names: tuple[str, ...] | list[str]) -> PointProbabilities:
    """``probs`` with the points ``names`` read as covered: what the picture does not show is not
    read as empty (a piece cut off by the picture's edge went missing from the placement)."""
    if not names:
        return probs
    rows = np.array([point_index(name) for name in names])
    out = np.array(probs.probs, dtype=np.float64, copy=True)
    out[rows] = 0.0
    out[rows, probs.classes.index(COVERED)] = 1.0
    return PointProbabilities(out, probs.classes)


# Rows of POINT_NAMES (rank 9 first) as rules squares (rank * 9 + file).
_POINT_SQUARES = np.array([(9 - row // 9) * 9 + row % 9 for row in range(90)])
_SQUARE_OF_NAME = {name: int(_POINT_SQUARES[row]) for row, name in enumerate(POINT_NAMES)}
_NAME_OF_SQUARE = {square: name for name, square in _SQUARE_OF_NAME.items()}


BETWEEN_PIECE = 0.5  # a disc between points read this surely as a piece, centred on it, is told as one


def _pieces_at(rectified: np.ndarray, classifier: PieceClassifier, geometry: BoardGeometry, offsets: np.ndarray,
               squares: list[int]) -> set[int]:
    """Those of ``squares`` (empty points nearest a disc no piece claims; ``offsets`` (90, 2) in
    spacings right and up, as ``find_discs`` gives them) whose disc, read with a crop centred on it,
    is a piece.

    A circle the search finds between points is a knocked piece or something round in the picture:
    the grain of a wood board, its printed rings, a shadow. A tester's stills warned falsely of a
    piece between points on 6 of 14 boards, each a circle in the wood's grain; centred on the
    circle, the classifier reads a piece or the board as surely as it reads any point."""
    if not squares:
        return set()
    shifts = crop_shifts(offsets, squares)
    crops = classifier.crops(rectified, spacing=geometry.spacing, margin=geometry.margin, shifts=shifts)[point_rows(squares)]
    probs = classifier.predict_crops(crops)
    piece = 1.0 - probs[:, classifier.classes.index(EMPTY)] - probs[:, classifier.classes.index(COVERED)]
    return {sq for sq, p in zip(squares, piece, strict=True) if p >= BETWEEN_PIECE}


def at_piece_tops(rectified: np.ndarray, classifier: PieceClassifier, geometry: BoardGeometry,
                  probs: PointProbabilities) -> PointProbabilities:
    """The board read again with each crop on where the pieces' tops stand, when the camera looks
    at it steeply enough that they stand well off their points, and the surer of the two readings.

    A piece's top is its height above the board, so the rectified board (the board's plane) shows
    it shifted away from the point beneath the camera, by about a third of a spacing at 45 degrees;
    the crops, centred on the points, then hold part of the top and the piece's side. The shift is
    the field fitted to the discs found (``recorder.offpoint``). On 8 held-out renders each at 45
    and 55 degrees of tilt, read under the rules: 710 -> 718 and 677 -> 709 of 720 points; at 25
    degrees nothing changes.
    """
    field = parallax_field(piece_offsets(rectified, geometry.spacing, geometry.margin))
    if field is None or float(np.median(np.hypot(field[:, 0], field[:, 1]))) < TOPS_MIN_SHIFT:
        return probs
    shifts = np.stack([field[_POINT_SQUARES, 0], -field[_POINT_SQUARES, 1]], axis=1)  # right, down
    moved = classifier.classify(rectified, spacing=geometry.spacing, margin=geometry.margin, shifts=shifts)
    points = occupied_points(probs) | occupied_points(moved)  # a reading that drops a piece is no surer for it
    return moved if sureness(moved, points) > sureness(probs, points) else probs


def run(args: argparse.Namespace) -> int:
    image, damage = read_picture(args.image)
    if damage:
        print(f"xqrec read-board: warning: {args.image} is damaged (the decoder said: {damage}): parts of the "
              "picture may be wrong", file=sys.stderr)
    height, width = image.shape[:2]
    if min(height, width) < MIN_PICTURE_PX:
        print(f"xqrec read-board: {args.image} is {width}x{height} pixels: too small to hold a readable board",
              file=sys.stderr)
        return 1
    geometry = BoardGeometry.load(args.calibration) if args.calibration else None
    if geometry is not None and tuple(geometry.image_size) == (width, height):
        fit = geometry.check_drift(image)  # the recorder's check that a stored grid still sits on the board
        if fit.moved:
            print(f"xqrec read-board: the calibration {args.calibration} does not fit {args.image}: only "
                  f"{fit.score:.0%} of the board lines seen are where its grid puts them (another camera, or the "
                  "camera or board moved); calibrate again, or leave out --calibration to locate the board",
                  file=sys.stderr)
            return 1
    classifier = PieceClassifier(args.model, second_look=SECOND_LOOK_BELOW)  # one picture: unsure points read twice
    seen: BoardReading | BoardNotFoundError
    try:
        seen = read_board(image, classifier, geometry)
    except BoardNotFoundError as refusal:
        seen = _placed_by_pieces(image, classifier, refusal)
    if isinstance(seen, BoardNotFoundError):
        error = seen
        if damage:  # the damage, not the camera, is the likelier cause
            print(f"xqrec read-board: no board found in {args.image}: {error.reason}. The file is damaged (see "
                  "above): a whole copy of the picture may read", file=sys.stderr)
            return 1
        brightest = float(np.percentile(image, 99.5))
        if brightest < DARK:  # the likelier cause than blur (a tester's picture at 1 % brightness)
            print(f"xqrec read-board: no board found in {args.image}: the picture is too dark (its brightest parts "
                  f"at {brightest:.0f} of 255): give it more light or a longer exposure", file=sys.stderr)
            return 1
        print(f"xqrec read-board: no board found in {args.image}: {error.reason}. A sharper picture with the "
              "whole board in it helps; a camera that gives doubtful pictures can be calibrated once on its "
              "video (xqrec calibrate VIDEO --out calib.json, which tries many frames and, where the lines do not "
              "show, places the board by pieces set up for a game) and read with "
              "--calibration calib.json", file=sys.stderr)
        return 1
    brightest = float(np.percentile(image, 99.5))
    if brightest < DARK_FOUND or colourless(image):
        why = (f"is too dark to see colours (its brightest parts at {brightest:.0f} of 255)" if brightest < DARK
               else "has no colour (a grayscale picture)")
        print(f"xqrec read-board: {args.image} {why}: red and black pieces cannot be told apart; give a "
              "colour picture" + (" with more light" if brightest < DARK else ""), file=sys.stderr)
        return 1
    shifted = _grid_off_the_board(seen, image, classifier) if args.calibration else ""
    if shifted:
        print(f"xqrec read-board: the calibration {args.calibration} does not fit {args.image}: {shifted}; "
              "calibrate again, or leave out --calibration to locate the board", file=sys.stderr)
        return 1
    probs, geometry, timings, placement = seen.probs, seen.geometry, seen.timings, seen.placement
    spacing = geometry.spacing_px()
    if spacing < MIN_SPACING_PX:
        print(f"xqrec read-board: the board in {args.image} is too small to read: {math.floor(spacing * 10) / 10:.1f} px per grid "
              f"spacing, at least {MIN_SPACING_PX} needed ({GOOD_SPACING_PX} or more to read reliably, a "
              f"board about {GOOD_SPACING_PX * 10} px across)", file=sys.stderr)
        return 1
    ruled = seen.set_by_rules()  # points the classifier alone read otherwise
    problem = impossible(placement)
    covered = seen.covered()
    warnings = seen.warnings(problem)
    if brightest < DARK:
        warnings.insert(0, f"the picture is dark (its brightest parts at {brightest:.0f} of 255): colours and "
                           "characters may be misread; give it more light or a longer exposure")
    if args.json:
        out: dict[str, Any] = {
            "image": str(args.image),
            "placement": placement,
            "pointwise_placement": probs.argmax_fen_placement(),  # each point's most probable class alone
            "set_by_rules": {name: {"alone": alone, "read": legal} for name, (alone, legal) in ruled.items()},
            "covered": covered,
            "unseen": list(seen.unseen),  # cut off by the picture's edge: written empty in the placement
            "glared": list(seen.glared),  # washed out by glare: a piece there may read wrong
            "off_point": {name: round(d, 3) for name, d in seen.off_point.items()},  # spacings off its point
            "between_points": {name: round(d, 3) for name, d in seen.between.items()},  # a disc read as no piece
            # what set the grid: its lines, a calibration given, or pieces standing as at a game's start
            "placed_by": "pieces" if seen.by_pieces else "calibration" if args.calibration else "lines",
            "mirrored": seen.mirrored,  # read flipped left to right
            "geometry_of": "the picture flipped left to right" if seen.mirrored else "the picture",
            "doubtful": {name: {"read": read, "p": round(p, 4), "else": other, "p_else": round(q, 4)}
                         for name, (read, p, other, q) in seen.doubtful().items()},
            "problem": problem,  # why no game can show this placement ("" when one can)
            "warnings": warnings,
            "model_sha256": classifier.sha256,
            "geometry": geometry.to_json(),
            "timings_ms": {k: round(v, 2) for k, v in timings.items()},
            **probs.to_json(),
        }
        print(json.dumps(out))
        return 0
    print(placement)
    if seen.unseen:
        print(f"not in the picture: {' '.join(seen.unseen)}")
    if covered:
        print(f"covered: {' '.join(covered)}")
    doubtful = seen.doubtful()
    if doubtful:  # a point the rules read otherwise than its own best class is always among them
        print(f"check (read less than {SURE:.0%} sure): " + ", ".join(
            f"{name} {read} {p:.0%} ({other} {q:.0%}{', by the rules' if name in ruled else ''})"
            for name, (read, p, other, q) in doubtful.items()))
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return 0


def _placed_by_pieces(image: np.ndarray, classifier: PieceClassifier,
                      refusal: BoardNotFoundError) -> BoardReading | BoardNotFoundError:
    """The board read on a grid its lines did not confirm, placed by pieces standing as at a game's
    start (``grid_of_start_pieces``, as ``calibrate`` and the recorder place such a board: bench
    inject-044's first frame, faint red lines under glare); the ``refusal`` when they do not."""
    started = time.perf_counter()
    placed = grid_of_start_pieces(image, refusal.candidates, BoardLocator(), classifier)
    if placed is None:
        return refusal
    placing_ms = (time.perf_counter() - started) * 1e3  # the locator's refusal before it is not counted
    seen = read_board(image, classifier, placed)
    timings = {"by_pieces_ms": placing_ms, **seen.timings}
    timings["total_ms"] = timings.get("total_ms", 0.0) + placing_ms
    return replace(seen, by_pieces=refusal.reason, timings=timings)


def impossible(placement: str) -> str:
    """Why ``placement`` (FEN, red at the bottom) cannot occur in a game, by the rules' position checks;
    "" when it can. A reading that fails them has misread points, however sure each point looked."""
    reasons = []
    for side in ("w", "b"):  # a picture does not say who is to move
        try:
            Position.from_fen(f"{placement} {side}")
        except ValueError as error:
            reasons.append(str(error).split(": ", 1)[-1])
        else:
            return ""
    return reasons[0]
