"""``xqrec calibrate SOURCE --out calib.json --overlay overlay.png``: find the board, save the grid.

SOURCE is an image file, a video file, a camera index or a stream URL. For videos and cameras the
first frames are tried in turn until the board is found (pieces help to settle red's side). Where
the pieces' colours alone leave red's side open, the piece classifier reads the board and the
generals, advisors and elephants, which never leave their own half, settle it. A source with no
board exits with status 1 and the reason.

``xqrec calibrate SOURCE --chessboard 9x6 --out lens.json`` instead makes the one-time lens
calibration of a wide-angle camera from views of a printed chessboard (SOURCE may then also be a
folder of images); pass the result to later runs with ``--lens lens.json``.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from calibration import (
    RED_SIDES,
    BoardLocator,
    BoardNotFoundError,
    LensModel,
    calibrate_chessboard,
    draw_overlay,
)
from calibration.geometry import BoardGeometry
from recorder.commands import distinct_files
from recorder.session import blank_picture, grid_of_start_pieces
from recorder.sources import (
    IMAGE_SUFFIXES,
    open_capture,
    picture_order,
    public_name,
    read_image,
    why_no_answer,
    why_unreadable,
)
from recorder.vision import DEFAULT_MODEL, PieceClassifier, settle_red_side, small_board_note

PIECE_FRAMES = 3  # frames whose refused grids are tried against the pieces when no frame gives a board

log = logging.getLogger(__name__)



def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("calibrate", help="find the board in a frame and save its grid (JSON)")
    parser.add_argument("source", help="image or video file, camera index (0, 1, ...) or stream URL")
    parser.add_argument("--out", type=Path, default=Path("calib.json"),
                        help="calibration JSON to write (default: calib.json in the current folder)")
    parser.add_argument("--overlay", type=Path, help="also write the frame with the found grid drawn on it")
    parser.add_argument("--red-side", choices=RED_SIDES,
                        help="the image edge red sits at, used when no pieces stand to tell")
    parser.add_argument("--lens", type=Path, help="lens calibration JSON (from a chessboard) to undistort with")
    parser.add_argument("--frames", type=int, default=30, help="frames of a video/camera to try (default 30)")
    parser.add_argument("--min-confidence", type=float, default=0.5, help="refuse grids below this (0-1)")
    parser.add_argument("--model", type=Path, help="ONNX piece classifier that settles red's side (default: bundled)")
    parser.add_argument("--chessboard", metavar="COLSxROWS",
                        help="lens calibration instead: inner corners of the printed chessboard, e.g. 9x6")
    parser.set_defaults(handler=run)


def _frames(source: str, limit: int) -> Iterator[tuple[np.ndarray, str]]:
    """Frames of ``source``, each with where it came from for the user (" in NAME" for a folder's
    picture, "" otherwise): one for an image file, up to ``limit`` for a video, camera or stream.
    A source that will not open is refused with what ``record`` would say of it."""
    path = Path(source)
    if path.is_dir():
        pictures = sorted((item for item in path.iterdir() if item.suffix.lower() in IMAGE_SUFFIXES),
                          key=lambda item: picture_order(item.name))
        if not pictures:
            raise ValueError(f"no images in {source} ({', '.join(IMAGE_SUFFIXES)} files are read as frames)")
        for item in pictures:
            yield read_image(item), f" in {item.name}"
        return
    if path.suffix.lower() in (*IMAGE_SUFFIXES, ".heic", ".heif"):
        yield read_image(path), ""
        return
    if not source.isdigit() and "://" not in source and not path.exists():
        raise ValueError(f"source {source!r}: no such file or folder (a camera is a number such as 0, a stream a "
                         "URL such as rtsp://...)")
    target: str | int = int(source) if source.isdigit() else source
    capture = open_capture(target)
    if not capture.isOpened():
        why = why_unreadable(path) if path.is_file() else why_no_answer(target)
        what = "video file" if path.is_file() else "camera" if isinstance(target, int) else "stream"
        raise ValueError(f"cannot open {what} {public_name(source)}"
                         + (why if why.startswith(":") else f": {why}" if why else ""))
    try:
        for _ in range(limit):
            ok, frame = capture.read()
            if not ok:
                break
            yield frame, ""
    finally:
        capture.release()


def _calibrate_lens(args: argparse.Namespace) -> int:
    try:
        cols, rows = (int(v) for v in args.chessboard.lower().split("x"))
    except ValueError as error:
        raise ValueError(f"--chessboard wants COLSxROWS inner corners, e.g. 9x6, not {args.chessboard!r}") from error
    lens = calibrate_chessboard((frame for frame, _ in _frames(args.source, max(1, args.frames))), (cols, rows))
    lens.save(args.out)
    print(f"lens calibrated: reprojection error {lens.rms:.3f} px; wrote {args.out}")
    return 0


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse, before any work, outputs that cannot be written: a folder that does not exist, an
    overlay that names no picture format, a path the source or the lens file already names (a
    typo must not turn the only video of a game into a calibration file)."""
    distinct_files({"--out": args.out, "--overlay": args.overlay}, {"the source": Path(args.source), "--lens": args.lens})
    for option, path in (("--out", args.out), ("--overlay", args.overlay)):
        if path is not None and not path.parent.is_dir():
            raise ValueError(f"{option} {path}: the folder {path.parent} does not exist")
    if args.overlay is not None and args.overlay.suffix.lower() not in (".png", ".jpg", ".jpeg", ".bmp", ".webp"):
        raise ValueError(f"--overlay {args.overlay}: name a picture file (.png or .jpg)")


def _placed_by_pieces(refused: list[tuple[np.ndarray, str, list[BoardGeometry]]], locator: BoardLocator,
                      classifier: PieceClassifier) -> tuple[BoardGeometry, np.ndarray, str] | None:
    """A grid the locator refused, or one through the pieces' centres, on which the pieces stand as
    in the start position: a blurred or dim camera's lines may not confirm a grid that the pieces
    set up for a game do (the recorder takes such grids the same way)."""
    for frame, name, candidates in refused:
        found = grid_of_start_pieces(frame, candidates, locator, classifier)
        if found is not None:
            return found, frame, name
    return None


def run(args: argparse.Namespace) -> int:
    _check_outputs(args)
    if args.chessboard:
        return _calibrate_lens(args)
    if not 0.0 <= args.min_confidence <= 1.0:
        raise ValueError("--min-confidence must be between 0 and 1")
    lens = LensModel.load(args.lens) if args.lens else None
    locator = BoardLocator(red_side=args.red_side, lens=lens, min_confidence=args.min_confidence)
    best: tuple[BoardGeometry, np.ndarray, str] | None = None
    reason = "board not found: no frames could be read"
    refused: list[tuple[np.ndarray, str, list[BoardGeometry]]] = []  # the first frames' refused grids
    for frame, name in _frames(args.source, max(1, args.frames)):
        try:
            geometry = locator.locate(frame)
        except BoardNotFoundError as error:
            reason = f"board not found: {blank_picture(frame) or error.reason}"
            if len(refused) < PIECE_FRAMES:
                refused.append((frame, name, list(error.candidates)))
            continue
        problem = geometry.unreadable()
        if problem is not None:  # a grid the recorder and read-board would refuse: try the next frame
            reason = f"the board was found but cannot be used: {problem}; frame the whole board"
            continue
        if best is None or (best[0].red_side is None and geometry.red_side is not None) or (
                (geometry.red_side is not None) == (best[0].red_side is not None)
                and geometry.confidence > best[0].confidence):
            best = (geometry, frame, name)
        if best[0].red_side is not None and best[0].confidence >= 0.9:
            break
    by_pieces = ""
    if best is None and refused and Path(args.model or DEFAULT_MODEL).exists():
        best = _placed_by_pieces(refused, locator, PieceClassifier(args.model))
        by_pieces = " by its pieces, which stand as at a game's start, or nearly so (a few moves in; the grid lines alone did not confirm it)"
    if best is None:
        print(f"xqrec calibrate: {reason}", file=sys.stderr)
        return 1
    geometry, frame, name = best
    if geometry.red_side is None:
        classifier = PieceClassifier(args.model)
        probs = classifier.classify(geometry.rectify(frame), spacing=geometry.spacing, margin=geometry.margin)
        geometry = settle_red_side(geometry, probs)
    cut = geometry.points_off_frame()
    if cut:
        print(f"warning: {len(cut)} point(s) lie at or beyond the picture's edge ({', '.join(cut)}): pieces there "
              "cannot be read; frame the whole board", file=sys.stderr)
    small = small_board_note(geometry.spacing_px())  # as read-board warns of the same picture
    if small:
        print(f"warning: {small}", file=sys.stderr)
    geometry.save(args.out)
    if args.overlay and not cv2.imwrite(str(args.overlay), draw_overlay(frame, geometry)):
        raise OSError(f"the overlay {args.overlay} could not be written (calibration written to {args.out})")
    side = geometry.red_side or "undetermined (the pieces did not tell; use --red-side)"
    if args.red_side and geometry.red_side not in (None, args.red_side):
        side += f" (the pieces say so: --red-side {args.red_side} is only used when they cannot tell)"
    print(f"board found{name}{by_pieces}: " + ("" if by_pieces else f"confidence {geometry.confidence:.2f}, ")
          + f"spacing {geometry.spacing_px():.1f} px, "
          f"red side {side}; wrote {args.out}" + (f" and the overlay {args.overlay}" if args.overlay else ""))
    return 0
