"""Discs found on a drawn top-down board: offsets from the points, and the piece that lies off its point."""

from __future__ import annotations

import cv2
import numpy as np

from recorder.offpoint import off_point, piece_offsets

SPACING, MARGIN = 40, 1.0


def _board(pieces: dict[int, tuple[float, float]]) -> np.ndarray:
    width, height = int((8 + 2 * MARGIN) * SPACING) + 1, int((9 + 2 * MARGIN) * SPACING) + 1
    image = np.full((height, width, 3), (150, 190, 220), np.uint8)
    for f in range(9):
        x = int((MARGIN + f) * SPACING)
        cv2.line(image, (x, int(MARGIN * SPACING)), (x, int((MARGIN + 9) * SPACING)), (40, 40, 40), 1)
    for r in range(10):
        y = int((MARGIN + r) * SPACING)
        cv2.line(image, (int(MARGIN * SPACING), y), (int((MARGIN + 8) * SPACING), y), (40, 40, 40), 1)
    for sq, (dx, dy) in pieces.items():
        cx = (MARGIN + sq % 9 + dx) * SPACING
        cy = (MARGIN + 9 - sq // 9 - dy) * SPACING
        cv2.circle(image, (int(round(cx)), int(round(cy))), int(0.45 * SPACING), (200, 225, 235), -1)
        cv2.circle(image, (int(round(cx)), int(round(cy))), int(0.45 * SPACING), (60, 60, 60), 2)
    return image


def test_a_knocked_piece_is_found_off_its_point_and_the_others_on_theirs() -> None:
    rng = np.random.default_rng(1)
    squares = [0, 2, 4, 6, 8, 19, 25, 27, 29, 31, 33, 35, 81, 83, 85, 87, 89]
    pieces = {sq: (float(rng.uniform(-0.06, 0.06)), float(rng.uniform(-0.06, 0.06))) for sq in squares}
    pieces[31] = (0.42, 0.15)  # knocked towards the next file
    offsets = piece_offsets(_board(pieces), SPACING, MARGIN)
    assert abs(offsets[31, 0] - 0.42) < 0.08 and abs(offsets[31, 1] - 0.15) < 0.08
    occupied = np.zeros(90, bool)
    occupied[squares] = True
    found = off_point(offsets, occupied, 0.3)
    assert list(found) == [31] and 0.35 < found[31] < 0.55
    assert np.isnan(offsets[40, 0])  # nothing near an empty point in the middle
