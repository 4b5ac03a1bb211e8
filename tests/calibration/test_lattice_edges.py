"""Scoring the grid's outermost lines when the board's frame and edge lie just outside them."""

from __future__ import annotations

import numpy as np

from calibration.board import DRAWN_SEGMENTS
from calibration.lattice import score_lattice, segment_contrast
from tests.calibration.drawn import grid_response

SPACING = 50.0
ORIGIN = 80.0


def _board(frame_gap: float, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """A dark-line response of a grid, a frame ``frame_gap`` and the board's edge ``margin`` spacings out."""
    return grid_response(SPACING, ORIGIN, 80.0, [(frame_gap, 80.0, 3), (margin, 120.0, 6)])


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
