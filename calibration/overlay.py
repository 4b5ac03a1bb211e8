"""An image of the found grid drawn over the frame, for people to check a calibration at a glance."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.board import FILES, RANKS
from calibration.geometry import CONFIRMED_BY_PIECES, BoardGeometry


def draw_overlay(frame: np.ndarray, geometry: BoardGeometry) -> np.ndarray:
    """A copy of ``frame`` with the grid's lines, its 90 points, the red side and the confidence drawn."""
    out = frame.copy() if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    scale = max(1, int(round(max(out.shape[:2]) / 800)))

    def poly(board: np.ndarray, colour: tuple[int, int, int]) -> None:
        pts = geometry.points_array(board)
        cv2.polylines(out, [np.round(pts * 4).astype(np.int32)], False, colour, scale, cv2.LINE_AA, 2)

    steps = np.linspace(0.0, 1.0, 17)[:, None]
    for file in range(FILES):
        poly(np.c_[np.full(len(steps), file), steps * (RANKS - 1)], (0, 255, 0))
    for rank in range(RANKS):
        poly(np.c_[steps * (FILES - 1), np.full(len(steps), rank)], (0, 255, 0))
    for r0 in (0, 7):
        poly(np.array([[3.0, r0], [5.0, r0 + 2.0]]), (0, 200, 0))
        poly(np.array([[5.0, r0], [3.0, r0 + 2.0]]), (0, 200, 0))
    for (x, y) in geometry.points().values():
        cv2.circle(out, (int(round(x)), int(round(y))), 2 * scale, (255, 0, 255), -1, cv2.LINE_AA)
    if geometry.red_side is not None:
        # red's back rank in red, with a marker at a0 (red's left corner)
        poly(np.c_[steps * (FILES - 1), np.zeros(len(steps))], (0, 0, 255))
        x, y = geometry.point(0, 0)
        cv2.circle(out, (int(round(x)), int(round(y))), 6 * scale, (0, 0, 255), 2 * scale, cv2.LINE_AA)
    side = geometry.red_side or "undetermined"
    by_pieces = CONFIRMED_BY_PIECES in geometry.details  # the lines did not confirm it: its pieces did
    text = f"{'placed by the pieces' if by_pieces else f'confidence {geometry.confidence:.2f}'}  red side: {side}"
    # white on a dark box: an outline drawn as thicker text does not line up with the text on OpenCV 5;
    # the text shrinks to fit a small picture's width (at 320x180 the side was cut off)
    size = 0.8 * scale
    (width, height), below = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, scale)
    while width > out.shape[1] - 24 and size > MIN_TEXT_SCALE:  # text width is not quite linear in size
        size = max(MIN_TEXT_SCALE, size * 0.9)
        (width, height), below = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, scale)
    base = 10 + height
    cv2.rectangle(out, (4, base - height - 6), (16 + width, base + below + 4), (0, 0, 0), -1)
    cv2.putText(out, text, (10, base), cv2.FONT_HERSHEY_SIMPLEX, size, (255, 255, 255), scale, cv2.LINE_AA)
    return out


MIN_TEXT_SCALE = 0.3  # smaller is unreadable: a picture narrower than this text shows part of it
