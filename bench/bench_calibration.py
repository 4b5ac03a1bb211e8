"""Board calibration on rendered camera views: found rate, refusals, point error, red side, speed.

Targets (issue "Board calibration"): on >= 300 views of the synth "test" split (styles and seeds not
used while developing; tilt up to 25 degrees, any rotation, 0-32 pieces, some with a hand over the
board), the board is found on >= 99 % of views and never returned wrong with high confidence; mean
point error <= 2 % and max <= 6 % of the grid spacing; red's side right on every view with pieces;
full calibration under 300 ms per 1280x960 frame and the drift check under 20 ms, on one core.

Writes one row per view to ``out/bench/calibration.csv`` and overlays of the worst views (and every
refusal) to ``out/bench/calibration_overlays/``.

``python -m bench calibration`` or ``python -m bench.bench_calibration --views 300 --split test``.
"""

from __future__ import annotations

import argparse
import csv
import logging
import statistics
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration import BoardGeometry, BoardLocator, BoardNotFoundError, draw_overlay
from recorder.vision import PieceClassifier, settle_red_side
from rules import Position
from synth.hand_shape import HandOverlay, HandPose
from synth.scene import Scene
from synth.style import SPLIT_SEED_BASE, ViewStyle
from synth.view import render_position

logger = logging.getLogger(__name__)

WRONG = 25.0  # mean point error (% of spacing) above which a returned grid counts as wrong
SIZE = (1280, 960)


@dataclass
class View:
    """One rendered view and its truth."""

    index: int
    seed: int
    image: np.ndarray
    points: dict[str, tuple[float, float]]
    red_side: str
    pieces: int
    hand: bool
    style: ViewStyle
    fen: str = ""


def _random_position(rng: np.random.Generator) -> Position:
    """A position reached by random play from the start, thinned to a random piece count (kings kept)."""
    position = Position.start()
    for _ in range(int(rng.integers(0, 120))):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(moves[int(rng.integers(len(moves)))])
    target = int(rng.integers(2, 33))
    fen = position.fen()
    board, rest = fen.split(" ", 1)
    cells = [list(_expand(row)) for row in board.split("/")]
    occupied = [(r, f) for r in range(10) for f in range(9) if cells[r][f] not in ".kK"]
    rng.shuffle(occupied)
    for attempt in range(20):
        keep = occupied[: max(0, target - 2)] if attempt == 0 else occupied[: max(0, target - 2 - attempt)]
        trial = [["." if (cells[r][f] not in ".kK" and (r, f) not in keep) else cells[r][f] for f in range(9)]
                 for r in range(10)]
        try:
            return Position.from_fen("/".join(_compress(row) for row in trial) + " " + rest)
        except ValueError:
            continue
    return position


def _expand(row: str) -> str:
    return "".join("." * int(ch) if ch.isdigit() else ch for ch in row)


def _compress(cells: list[str]) -> str:
    out, run = "", 0
    for ch in cells:
        if ch == ".":
            run += 1
            continue
        if run:
            out, run = out + str(run), 0
        out += ch
    return out + (str(run) if run else "")


def make_view(index: int, split: str = "test") -> View:
    """View ``index`` of the benchmark: a seeded style of ``split``; empty, start or random positions."""
    seed = SPLIT_SEED_BASE[split] + 7_000_000 + index
    rng = np.random.default_rng(seed)
    style = ViewStyle.sample(rng, split=split, width=SIZE[0], height=SIZE[1])
    hand = bool(rng.random() < 0.25)
    kind = index % 8
    if kind == 0:  # empty board
        scene = Scene(style, seed)
        overlays = [HandOverlay(HandPose.sample(np.random.default_rng([seed, 3]), scene))] if hand else []
        frame = scene.render_frame({}, overlays, 0.0)
        return View(index, seed, frame.image, dict(frame.points), scene.red_side(), 0, hand, style)
    position = Position.start() if kind == 1 else _random_position(rng)
    fen = position.fen()
    image, truth = render_position(fen, seed, style=style, hand=hand)
    pieces = sum(ch.isalpha() for ch in fen.split(" ")[0])
    return View(index, seed, image, dict(truth.points), truth.red_side, pieces, hand, style, fen)


_TURNED_SIDE = {"bottom": "right", "right": "top", "top": "left", "left": "bottom"}


def turned_portrait(view: View) -> View:
    """``view`` turned a quarter turn anticlockwise: a portrait picture (a camera or phone mounted on
    its side), its true points and red's side turned with it."""
    width = view.image.shape[1]
    points = {name: (y, width - 1 - x) for name, (x, y) in view.points.items()}
    return replace(view, image=np.ascontiguousarray(np.rot90(view.image)), points=points,
                   red_side=_TURNED_SIDE.get(view.red_side, view.red_side))


def point_errors(geometry: BoardGeometry, view: View) -> tuple[np.ndarray, float]:
    """Per-point error in % of the true grid spacing; an undetermined red side may be turned."""
    names = sorted(view.points)
    truth = np.array([view.points[n] for n in names])
    spacing = float(np.median([np.hypot(*(np.array(view.points[f"{f}{r}"]) - view.points[f"{f}{r + 1}"]))
                               for f in "abcdefghi" for r in range(9)]))
    found = geometry.points()
    err = np.hypot(*(np.array([found[n] for n in names]) - truth).T) / spacing * 100
    if geometry.red_side is None:
        turned = geometry.turned().points()
        err2 = np.hypot(*(np.array([turned[n] for n in names]) - truth).T) / spacing * 100
        if err2.mean() < err.mean():
            err = err2
    return err, spacing


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def run(views: int, split: str, out: Path, overlays: int, defocus: float = 0.0,
        portrait: bool = False) -> dict[str, float]:
    """Run the benchmark; returns the headline figures. ``defocus`` (pixels) blurs every view further
    with a Gaussian of that sigma, as a camera a little out of focus or a soft webcam lens would;
    ``portrait`` turns every view a quarter turn (960x1280)."""
    cv2.setNumThreads(1)
    out.mkdir(parents=True, exist_ok=True)
    shots = out / "calibration_overlays"
    shots.mkdir(exist_ok=True)
    locator = BoardLocator()
    classifier = PieceClassifier(threads=1)
    rows: list[dict[str, Any]] = []
    keep: list[tuple[float, View, BoardGeometry | None, str]] = []
    for index in range(views):
        view = make_view(index, split)
        if portrait:
            view = turned_portrait(view)
        if defocus > 0:
            view.image = cv2.GaussianBlur(view.image, (0, 0), defocus)
        started, started_cpu = time.perf_counter(), time.process_time()
        geometry: BoardGeometry | None
        try:
            geometry = locator.locate(view.image)
            reason = ""
        except BoardNotFoundError as error:
            geometry, reason = None, error.reason
        locate_ms = 1000 * (time.perf_counter() - started)
        locate_cpu_ms = 1000 * (time.process_time() - started_cpu)
        row: dict[str, Any] = {
            "view": index, "seed": view.seed, "pieces": view.pieces, "hand": int(view.hand),
            "board": view.style.board_material, "lines": view.style.line_name, "face": view.style.piece_face,
            "tilt": round(view.style.tilt_deg, 1), "roll": round(view.style.roll_deg, 1),
            "barrel": round(view.style.barrel, 3), "blur": view.style.blur_sigma,
            "found": int(geometry is not None), "reason": reason, "locate_ms": round(locate_ms, 1),
            "locate_cpu_ms": round(locate_cpu_ms, 1),
        }
        if geometry is not None:
            err, spacing = point_errors(geometry, view)
            drift_times = []
            for _ in range(3):
                t0 = time.process_time()
                drift = geometry.check_drift(view.image)
                drift_times.append(1000 * (time.process_time() - t0))
            row.update({
                "confidence": round(geometry.confidence, 3), "spacing_px": round(spacing, 1),
                "mean_err_pct": round(float(err.mean()), 3), "max_err_pct": round(float(err.max()), 3),
                "wrong": int(err.mean() > WRONG), "red_side": geometry.red_side or "", "true_red_side": view.red_side,
                "red_ok": int(geometry.red_side == view.red_side),
                "drift_ms": round(min(drift_times), 2), "drift_moved": int(drift.moved),
                **{k: round(v, 4) for k, v in geometry.details.items()},
            })
            settled = geometry
            if geometry.red_side is None:  # as `xqrec calibrate` and `read-board` do: the kinds settle it
                probs = classifier.classify(geometry.rectify(view.image), spacing=geometry.spacing,
                                            margin=geometry.margin)
                settled = settle_red_side(geometry, probs)
            row.update({"red_side_settled": settled.red_side or "",
                        "red_ok_settled": int(settled.red_side == view.red_side)})
            keep.append((float(err.max()), view, geometry, ""))
        else:
            keep.append((1e9, view, None, reason))
        rows.append(row)
        logger.debug("view %d: %s", index, row)
    fields: list[str] = []
    for row in rows:
        fields.extend(k for k in row if k not in fields)
    with (out / "calibration.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    for old in shots.glob("*.png"):
        old.unlink()
    found_views = sorted((item for item in keep if item[2] is not None), key=lambda item: -item[0])
    refused_views = [item for item in keep if item[2] is None]
    picks = [("worst", item) for item in found_views[:overlays]]
    picks += [("refused", item) for item in refused_views[:overlays]]
    picks += [("sample", item) for item in found_views[overlays::max(1, len(found_views) // 4)][:4]]
    for rank, (kind, (_, view, geometry, reason)) in enumerate(picks):
        if geometry is not None:
            image = draw_overlay(view.image, geometry)
        else:
            image = view.image.copy()
            cv2.putText(image, f"refused: {reason}"[:90], (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 255), 2)
        cv2.imwrite(str(shots / f"{kind}{rank:02d}_view{view.index}.png"), image)
    found = [r for r in rows if r["found"]]
    with_pieces = [r for r in found if int(r["pieces"]) > 0]
    figures = {
        "views": float(len(rows)),
        "found_pct": 100.0 * len(found) / max(len(rows), 1),
        "refused": float(len(rows) - len(found)),
        "wrong_high_conf": float(sum(int(r["wrong"]) for r in found)),
        "mean_err_pct": statistics.fmean(float(r["mean_err_pct"]) for r in found) if found else float("nan"),
        "max_err_pct": max((float(r["max_err_pct"]) for r in found), default=float("nan")),
        "red_ok_pct": 100.0 * sum(int(r["red_ok"]) for r in with_pieces) / max(len(with_pieces), 1),
        "red_undetermined": float(sum(1 for r in with_pieces if not r["red_side"])),
        "red_wrong": float(sum(1 for r in with_pieces if r["red_side"] and not int(r["red_ok"]))),
        "with_pieces": float(len(with_pieces)),
        "red_settled_ok_pct": 100.0 * sum(int(r["red_ok_settled"]) for r in with_pieces) / max(len(with_pieces), 1),
        "red_settled_undetermined": float(sum(1 for r in with_pieces if not r["red_side_settled"])),
        "red_settled_wrong": float(sum(1 for r in with_pieces if r["red_side_settled"] and not int(r["red_ok_settled"]))),
        "locate_median_ms": statistics.median(float(r["locate_cpu_ms"]) for r in rows),
        "locate_p95_ms": _percentile([float(r["locate_cpu_ms"]) for r in rows], 0.95),
        "locate_max_ms": max(float(r["locate_cpu_ms"]) for r in rows),
        "locate_wall_median_ms": statistics.median(float(r["locate_ms"]) for r in rows),
        "drift_median_ms": statistics.median(float(r["drift_ms"]) for r in found) if found else float("nan"),
        "drift_p95_ms": _percentile([float(r["drift_ms"]) for r in found], 0.95),
        "drift_false_moves": float(sum(int(r["drift_moved"]) for r in found)),
    }
    return figures


def main(argv: list[str] | None = None) -> None:
    """Print the calibration figures (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=300)
    parser.add_argument("--split", default="test", choices=("train", "dev", "test"))
    parser.add_argument("--out", type=Path, default=Path("out/bench"))
    parser.add_argument("--overlays", type=int, default=8,
                        help="how many of the worst found views (and of the refusals) to save as overlays")
    parser.add_argument("--defocus", type=float, default=0.0,
                        help="blur every view further by a Gaussian of this sigma in pixels (a soft camera)")
    parser.add_argument("--portrait", action="store_true",
                        help="turn every view a quarter turn: a camera mounted on its side (960x1280)")
    args = parser.parse_args(argv)
    figures = run(args.views, args.split, args.out, args.overlays, args.defocus, args.portrait)
    softened = f", defocused by a {args.defocus:g} px Gaussian" if args.defocus else ""
    width, height = (SIZE[1], SIZE[0]) if args.portrait else SIZE
    print(f"calibration on {int(figures['views'])} {args.split}-split views at {width}x{height}{softened} (one core):")
    print(f"  found {figures['found_pct']:.1f} %  refused {int(figures['refused'])}  "
          f"wrong with high confidence {int(figures['wrong_high_conf'])}")
    print(f"  point error: mean {figures['mean_err_pct']:.2f} %  max {figures['max_err_pct']:.2f} % of the spacing")
    print(f"  red side right on {figures['red_ok_pct']:.1f} % of {int(figures['with_pieces'])} found views with pieces "
          f"(undetermined {int(figures['red_undetermined'])}, wrong {int(figures['red_wrong'])}) from the colours alone;")
    print(f"    with the piece classifier settling the open ones (as calibrate and read-board do): "
          f"{figures['red_settled_ok_pct']:.1f} % (undetermined {int(figures['red_settled_undetermined'])}, "
          f"wrong {int(figures['red_settled_wrong'])})")
    print(f"  locate (CPU time, one thread): median {figures['locate_median_ms']:.0f} ms  "
          f"p95 {figures['locate_p95_ms']:.0f} ms  max {figures['locate_max_ms']:.0f} ms  "
          f"(wall median {figures['locate_wall_median_ms']:.0f} ms on a shared machine)")
    print(f"  drift check (CPU): median {figures['drift_median_ms']:.1f} ms  p95 {figures['drift_p95_ms']:.1f} ms  "
          f"(false 'moved' on the calibration frame: {int(figures['drift_false_moves'])})")
    print(f"  rows: {args.out / 'calibration.csv'}  overlays: {args.out / 'calibration_overlays'}")


if __name__ == "__main__":
    main()
