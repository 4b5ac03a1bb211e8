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


def test_a_point_blown_out_by_glare_gets_no_empty_evidence_from_a_missing_disc() -> None:
    from recorder.offpoint import fuse_discs, washed_out

    spacing, margin = 48.0, 1.0
    board = np.full((int(11 * spacing), int(10 * spacing), 3), 150, np.uint8)
    x, y = int((margin + 4) * spacing), int((margin + 9 - 4) * spacing)  # the point e4
    board[y - 20:y + 21, x - 20:x + 21] = 255  # a lamp mirrored there
    blown = washed_out(board, spacing, margin)
    e4, a0 = 4 * 9 + 4, 0
    assert blown[e4] > 0.6 and blown[a0] == 0.0
    probs = np.zeros((90, 16))
    probs[:, 1] = 0.6  # a red general, say, more likely than not
    probs[:, 0] = 0.4
    offsets = np.full((90, 2), np.nan)
    offsets[10:20] = 0.0  # discs found on other points: the search worked on this picture
    fused = fuse_discs(probs, offsets, 10.0, blind=blown >= 0.3)
    assert fused[a0, 0] > 0.8  # no disc where one could be seen: empty
    assert np.allclose(fused[e4], probs[e4])  # no disc under the glare: nothing learnt
