"""Red side from ink absorption and a hand over the board (flat drawn board, known homography)."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.redside import point_inks, red_evidence
from tests.calibration.drawn import MARGIN, SPACING, draw_flat_board, start_pieces

# board (u, v) -> flat-board pixel, red at the bottom (rank 0 at the bottom row)
H = np.array([[SPACING, 0.0, MARGIN * SPACING], [0.0, -SPACING, (MARGIN + 9) * SPACING], [0.0, 0.0, 1.0]])


def _skin_blob(image: np.ndarray, centre: tuple[int, int]) -> None:
    """A hand-sized patch of skin tone (BGR) laid over the board."""
    cv2.ellipse(image, centre, (int(1.4 * SPACING), int(0.9 * SPACING)), 20, 0, 360, (110, 150, 210), -1, cv2.LINE_AA)


def test_ink_redness_tells_red_from_black_pieces() -> None:
    board = draw_flat_board(np.random.default_rng(5), start_pieces())
    ink, hand = point_inks(board, H)
    red = [ink[0, f] for f in range(9)]
    black = [ink[9, f] for f in range(9)]
    assert min(red) > max(black) + 0.3
    assert hand.max() < 0.1


def test_red_side_read_and_a_hand_over_reds_palace_is_not_taken_for_red_pieces() -> None:
    board = draw_flat_board(np.random.default_rng(6), start_pieces())
    assert red_evidence(board, H) > 0.2  # red at rank 0
    covered = board.copy()
    x, y = (MARGIN + 4) * SPACING, (MARGIN + 9 - 8) * SPACING  # over black's palace
    _skin_blob(covered, (int(x), int(y)))
    ink, hand = point_inks(covered, H)
    assert hand[8, 4] > 0.5 and hand[0, 4] == 0.0
    assert red_evidence(covered, H) >= 0.0  # never turned the wrong way by the hand
