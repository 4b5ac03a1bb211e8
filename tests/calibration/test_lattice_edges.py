"""Scoring the grid's outermost lines when the board's frame and edge lie just outside them."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.board import DRAWN_SEGMENTS
from calibration.evidence import project
from calibration.lattice import score_lattice, segment_contrast

SPACING = 50.0
ORIGIN = 80.0


def _board(frame_gap: float, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """A dark-line response of a grid, a frame ``frame_gap`` and the board's edge ``margin`` spacings out."""
    h = np.array([[SPACING, 0.0, ORIGIN], [0.0, SPACING, ORIGIN], [0.0, 0.0, 1.0]])
    image = np.zeros((int(2 * ORIGIN + 9 * SPACING), int(2 * ORIGIN + 8 * SPACING)), np.float32)

    def at(u: float, v: float) -> tuple[int, int]:
        x, y = project(h, np.array([[u, v]]))[0]
        return int(round(x)), int(round(y))

    for v in range(10):
        cv2.line(image, at(0, v), at(8, v), 80.0, 3)
    for u in range(9):
        for a, b in (((u, 0), (u, 4)), ((u, 5), (u, 9))) if 0 < u < 8 else (((u, 0), (u, 9)),):
            cv2.line(image, at(*a), at(*b), 80.0, 3)
    for gap, strength, width in ((frame_gap, 80.0, 3), (margin, 120.0, 6)):
        corners = [(-gap, -gap), (8 + gap, -gap), (8 + gap, 9 + gap), (-gap, 9 + gap)]
        for i in range(4):
            cv2.line(image, at(*corners[i]), at(*corners[(i + 1) % 4]), strength, width)
    return cv2.GaussianBlur(image, (0, 0), 1.2), h


def test_edge_lines_count_as_drawn_beside_a_frame_and_a_narrow_margin() -> None:
    # the frame at 0.22 and the board's edge at 0.36 spacings: both outer side samples of an edge line
    # land on something line-like, yet the edge line itself is as clear as any other line
    response, h = _board(frame_gap=0.22, margin=0.36)
    both_sides = segment_contrast(response, h, DRAWN_SEGMENTS)
    inner_side = segment_contrast(response, h, DRAWN_SEGMENTS, inner_edges=True)
    assert np.all(inner_side > 0.5 * 80.0)
    assert np.any(both_sides < 0.3 * 80.0)  # what used to call a plainly drawn edge line missing
    plain = np.full((*response.shape, 3), 200, np.uint8)  # nothing on the board hides a line
    assert score_lattice(response, h, 80.0, frame=plain).clear == 1.0


def test_a_lattice_shifted_outwards_still_loses() -> None:
    # a lattice slid one line out puts an outermost line on the frame and the board's edge, not on the grid
    response, h = _board(frame_gap=0.22, margin=0.36)
    right = score_lattice(response, h, 80.0)
    for du, dv in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        slid = h @ np.array([[1.0, 0.0, du], [0.0, 1.0, dv], [0.0, 0.0, 1.0]])
        assert score_lattice(response, slid, 80.0).total < right.total - 0.05
