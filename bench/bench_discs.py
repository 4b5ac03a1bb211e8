"""The recorder's disc search as evidence of occupancy: how often it finds a piece, and an empty point.

``recorder.offpoint.piece_offsets`` looks for round piece tops on the rectified board; the session
weighs "a disc on the point" and "no disc within reach" against the classifier's reading as a
likelihood ratio (``SessionConfig.disc_evidence``). That ratio should come from measurement: this
benchmark renders views of a split (no hands, the true geometry, so calibration errors play no
part), runs the disc search and counts, for pieces and for empty points, a disc on the point, a
disc only further off (no evidence either way) and none. Points washed out by glare are counted
apart (a missing disc there is not used as evidence). It also counts where the classifier alone
has occupancy wrong, and what the disc search said there.

Given the classifier's occupied points (as the session gives them, default), points read as
occupied without a circle may take a faint one, which measures where a piece stands but is no
evidence (counted as "faint"); ``--search-alone`` measures the search without them.

``python -m bench discs`` or ``python -m bench.bench_discs --views 300 --split test``.
"""

from __future__ import annotations

import argparse
import logging
from collections import Counter

import cv2
import numpy as np

from models.train.data import render_sample, truth_geometry
from recorder.glare import washed_out
from recorder.observer import to_square_order
from recorder.offpoint import DISC_NEAR, GLARE_NO_PATCH, MIN_DISCS, find_discs
from recorder.session import SessionConfig
from recorder.vision import PieceClassifier
from rules import Position

DATASET_SEED = 7  # a seed of the split's range that no training or other benchmark draws


def measure(views: int, split: str, glare_blind: float, with_reading: bool = True) -> Counter[tuple[str, str]]:
    """Counts of (truth, what the disc search saw) and of (classifier error, what it saw); with
    ``with_reading`` the search is given the classifier's occupied points, as in the session."""
    cv2.setNumThreads(1)
    classifier = PieceClassifier(threads=1)
    counts: Counter[tuple[str, str]] = Counter()
    for index in range(views):
        image, truth, _, _ = render_sample(split, DATASET_SEED, index, hand_rate=0.0)
        geometry = truth_geometry(truth, image.shape[1], image.shape[0])
        rectified = geometry.rectify(image)
        washed = washed_out(rectified, geometry.spacing, geometry.margin)
        blind = washed >= glare_blind
        result = classifier.classify(rectified)
        occupied_p = to_square_order(result.probs, result.classes)[:, 1:-1].sum(axis=1)
        # as the session does: points the classifier reads as occupied may take a faint circle (no evidence)
        discs = find_discs(rectified, geometry.spacing, geometry.margin,
                           occupied=occupied_p > 0.5 if with_reading else None, blind=washed >= GLARE_NO_PATCH)
        offsets = discs.offsets
        board = Position.from_fen(truth.fen).board
        # from where each point's top should be, as fuse_discs weighs it
        shift = np.zeros((90, 2)) if discs.field is None else discs.field
        distance = np.hypot(offsets[:, 0] - shift[:, 0], offsets[:, 1] - shift[:, 1])
        found = ~np.isnan(distance) & ~discs.faint
        if int(found.sum()) < MIN_DISCS:  # fuse_discs uses nothing from a picture where the search failed
            counts[("search failed", "views")] += 1
            continue
        for square in range(90):
            truth_name = "piece" if board[square] != "." else "empty"
            seen = ("faint (no evidence)" if discs.faint[square] else "disc" if found[square] and distance[square] <= DISC_NEAR
                    else "further off" if found[square] else "none")
            if blind[square]:
                seen += " (glare)"
            counts[(truth_name, seen)] += 1
            if (truth_name == "piece") != (occupied_p[square] >= 0.5):
                counts[(f"classifier wrong on {truth_name}", seen)] += 1
    return counts


def report(counts: Counter[tuple[str, str]], config_ratio: float) -> None:
    """Print the table and the likelihood ratios it supports."""
    for truth_name in ("piece", "empty"):
        total = sum(n for (t, _), n in counts.items() if t == truth_name)
        row = ", ".join(f"{seen} {n} ({n / max(total, 1):.2%})" for (t, seen), n in sorted(counts.items()) if t == truth_name)
        print(f"{truth_name} points {total}: {row}")
    wrong = [(key, n) for key, n in sorted(counts.items()) if key[0].startswith("classifier wrong")]
    prefix = len("classifier wrong on ")
    print("classifier occupancy wrong: " + (", ".join(f"{t[prefix:]} with {seen}: {n}" for (t, seen), n in wrong) or "none"))
    if counts[("search failed", "views")]:
        print(f"views where the search found fewer than 4 discs (not used): {counts[('search failed', 'views')]}")
    piece, empty = counts[("piece", "disc")], counts[("empty", "disc")]
    pieces = sum(n for (t, s), n in counts.items() if t == "piece" and "glare" not in s)
    empties = sum(n for (t, s), n in counts.items() if t == "empty" and "glare" not in s)
    none_piece, none_empty = counts[("piece", "none")], counts[("empty", "none")]
    disc_ratio = (piece / max(pieces, 1)) / max(empty / max(empties, 1), 1 / max(empties, 1))
    none_ratio = (none_empty / max(empties, 1)) / max(none_piece / max(pieces, 1), 1 / max(pieces, 1))
    print(f"likelihood ratio of a disc for 'occupied' {disc_ratio:.0f} ({empty} of {empties} empty points had one; "
          f"none counts as one); of no disc for 'empty' {none_ratio:.1f}; the session uses {config_ratio:g} both ways")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--views", type=int, default=300)
    parser.add_argument("--split", choices=("train", "dev", "test"), default="test")
    parser.add_argument("--search-alone", action="store_true",
                        help="do not give the search the classifier's occupied points (no faint circles)")
    args = parser.parse_args([] if argv is None else argv)
    config = SessionConfig()
    given = "the search alone" if args.search_alone else "the search given the classifier's occupied points"
    print(f"{args.views} views of the {args.split} split, no hands, true geometry; {given}")
    report(measure(args.views, args.split, config.glare_blind, not args.search_alone), config.disc_evidence)


if __name__ == "__main__":
    import sys

    logging.basicConfig(level=logging.WARNING)
    main(sys.argv[1:])
