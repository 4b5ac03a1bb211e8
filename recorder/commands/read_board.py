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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration import BoardGeometry, BoardLocator, BoardNotFoundError
from recorder.offpoint import parallax_field, piece_offsets
from recorder.placement import legal_labels
from recorder.vision import (
    POINT_NAMES,
    PieceClassifier,
    PointProbabilities,
    colourless,
    fen_placement,
    occupied_points,
    settle_red_side,
    sureness,
)
from rules import Position

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("read-board", help="print the FEN piece placement seen in a board image")
    parser.add_argument("image", type=Path, help="photo or frame of the board")
    parser.add_argument("--calibration", type=Path, help="a saved calibration (JSON) to use instead of locating")
    parser.add_argument("--model", type=Path, help="ONNX piece classifier (default: the bundled one)")
    parser.add_argument("--json", action="store_true", help="print probabilities, geometry and timings as JSON")
    parser.set_defaults(handler=run)


# A grid spacing in the picture below MIN_SPACING_PX is too small for the characters to be read, and
# below GOOD_SPACING_PX they are often misread: of 35 held-out renders at 320x240-640x480, 8 of the 11
# boards at 12-18 px had 1-10 points wrong, and of the 24 at 18 px or more one had one point wrong.
MIN_SPACING_PX = 12
TOPS_MIN_SHIFT = 0.1  # spacings the piece tops must stand off their points to be read there instead
GOOD_SPACING_PX = 20
SURE = 0.9  # a point read with less probability is named for a person to check (300 of 326 misread test points are)


@dataclass(frozen=True)
class BoardReading:
    """What ``read_board`` saw: the probabilities, the reading the rules allow (``labels``, per point in
    ``POINT_NAMES`` order), the grid and the timings in ms."""

    probs: PointProbabilities
    labels: list[str]
    geometry: BoardGeometry
    timings: dict[str, float]

    @property
    def placement(self) -> str:
        """The FEN piece placement of ``labels``, red at the bottom."""
        return fen_placement(self.labels)

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


def read_board(image: np.ndarray, classifier: PieceClassifier, geometry: BoardGeometry | None = None) -> BoardReading:
    """Locate (unless given), rectify, classify and read with the rules."""
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    located = geometry is None  # a side found here from the colours alone may be overruled by the kinds
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
    t3 = time.perf_counter()
    labels = legal_labels(probs)
    timings["rules_ms"] = (time.perf_counter() - t3) * 1e3
    timings["total_ms"] = (time.perf_counter() - t0) * 1e3
    return BoardReading(probs, labels, geometry, timings)


# Rows of POINT_NAMES (rank 9 first) as rules squares (rank * 9 + file).
_POINT_SQUARES = np.array([(9 - row // 9) * 9 + row % 9 for row in range(90)])


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
    image = cv2.imread(str(args.image), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"cannot read an image from {args.image}")
    geometry = BoardGeometry.load(args.calibration) if args.calibration else None
    classifier = PieceClassifier(args.model)
    try:
        seen = read_board(image, classifier, geometry)
    except BoardNotFoundError as error:
        print(f"xqrec read-board: no board found in {args.image}: {error.reason}", file=sys.stderr)
        return 1
    if colourless(image):
        print(f"xqrec read-board: {args.image} has no colour (a grayscale picture): red and black pieces "
              "cannot be told apart; give a colour picture", file=sys.stderr)
        return 1
    probs, geometry, timings, placement = seen.probs, seen.geometry, seen.timings, seen.placement
    spacing = geometry.spacing_px()
    if spacing < MIN_SPACING_PX:
        print(f"xqrec read-board: the board in {args.image} is too small to read: {math.floor(spacing * 10) / 10:.1f} px per grid "
              f"spacing, at least {MIN_SPACING_PX} needed ({GOOD_SPACING_PX} or more to read reliably, a "
              f"board about {GOOD_SPACING_PX * 10} px across)", file=sys.stderr)
        return 1
    if spacing < GOOD_SPACING_PX:
        print(f"warning: the board is small in the picture ({spacing:.0f} px per grid spacing): characters this "
              f"small are often misread; {GOOD_SPACING_PX} px or more reads reliably", file=sys.stderr)
    ruled = {name: (alone, legal) for name, alone, legal in zip(POINT_NAMES, probs.labels(), seen.labels, strict=True)
             if alone != legal}  # points the classifier alone read otherwise
    problem = impossible(placement)
    if args.json:
        out: dict[str, Any] = {
            "image": str(args.image),
            "placement": placement,
            "pointwise_placement": probs.argmax_fen_placement(),  # each point's most probable class alone
            "set_by_rules": {name: {"alone": alone, "read": legal} for name, (alone, legal) in ruled.items()},
            "covered": probs.covered_points(),
            "doubtful": {name: {"read": read, "p": round(p, 4), "else": other, "p_else": round(q, 4)}
                         for name, (read, p, other, q) in seen.doubtful().items()},
            "problem": problem,  # why no game can show this placement ("" when one can)
            "model_sha256": classifier.sha256,
            "geometry": geometry.to_json(),
            "timings_ms": {k: round(v, 2) for k, v in timings.items()},
            **probs.to_json(),
        }
        print(json.dumps(out))
        return 0
    print(placement)
    covered = probs.covered_points()
    if covered:
        print(f"covered: {' '.join(covered)}")
    doubtful = seen.doubtful()
    if doubtful:  # a point the rules read otherwise than its own best class is always among them
        print(f"check (read less than {SURE:.0%} sure): " + ", ".join(
            f"{name} {read} {p:.0%} ({other} {q:.0%}{', by the rules' if name in ruled else ''})"
            for name, (read, p, other, q) in doubtful.items()))
    if problem:
        print(f"warning: no game can show this placement ({problem}); some points are misread"
              + (" or covered" if covered else ""), file=sys.stderr)
    return 0


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
