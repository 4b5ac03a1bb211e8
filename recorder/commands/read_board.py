"""``xqrec read-board IMAGE``: find the board, read every point, print the FEN piece placement.

Calibrates the image (or loads ``--calibration``), rectifies it, classifies the 90 points with the
ONNX piece classifier and prints the placement with red at the bottom. When the calibration could not
tell red's side (and the pieces show red's general in the top palace), the board is read turned.
``--json`` prints probabilities per point, the geometry and the timings instead.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration import BoardGeometry, BoardLocator, BoardNotFoundError
from recorder.vision import PieceClassifier, PointProbabilities, point_index

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("read-board", help="print the FEN piece placement seen in a board image")
    parser.add_argument("image", type=Path, help="photo or frame of the board")
    parser.add_argument("--calibration", type=Path, help="a saved calibration (JSON) to use instead of locating")
    parser.add_argument("--model", type=Path, help="ONNX piece classifier (default: the bundled one)")
    parser.add_argument("--json", action="store_true", help="print probabilities, geometry and timings as JSON")
    parser.set_defaults(handler=run)


def red_upside_down(probs: PointProbabilities) -> bool:
    """True when the generals read as red's in the top palace and black's in the bottom one."""
    top = [n for n in ("d9", "e9", "f9", "d8", "e8", "f8", "d7", "e7", "f7")]
    bottom = [n for n in ("d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2")]
    col_k, col_kb = probs.classes.index("K"), probs.classes.index("k")
    red_top = max(float(probs.probs[point_index(n), col_k]) for n in top)
    red_bottom = max(float(probs.probs[point_index(n), col_k]) for n in bottom)
    black_top = max(float(probs.probs[point_index(n), col_kb]) for n in top)
    black_bottom = max(float(probs.probs[point_index(n), col_kb]) for n in bottom)
    return red_top + black_bottom > red_bottom + black_top + 0.5


def read_board(image: np.ndarray, classifier: PieceClassifier,
               geometry: BoardGeometry | None = None) -> tuple[PointProbabilities, BoardGeometry, dict[str, float]]:
    """Locate (unless given), rectify and classify; returns probabilities, geometry and timings (ms)."""
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
    if geometry.red_side is None and red_upside_down(probs):
        geometry = geometry.turned()
        t2 = time.perf_counter()
        probs = classifier.classify(geometry.rectify(image), spacing=geometry.spacing, margin=geometry.margin)
        timings["turned_ms"] = (time.perf_counter() - t2) * 1e3
    timings["total_ms"] = (time.perf_counter() - t0) * 1e3
    return probs, geometry, timings


def run(args: argparse.Namespace) -> int:
    image = cv2.imread(str(args.image), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"cannot read an image from {args.image}")
    geometry = BoardGeometry.load(args.calibration) if args.calibration else None
    classifier = PieceClassifier(args.model)
    try:
        probs, geometry, timings = read_board(image, classifier, geometry)
    except BoardNotFoundError as error:
        print(f"xqrec read-board: no board found in {args.image}: {error.reason}", file=sys.stderr)
        return 1
    placement = probs.argmax_fen_placement()
    if args.json:
        out: dict[str, Any] = {
            "image": str(args.image),
            "placement": placement,
            "covered": probs.covered_points(),
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
    return 0
