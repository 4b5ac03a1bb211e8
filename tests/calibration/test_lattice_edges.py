"""Scoring the grid's outermost lines when the board's frame and edge lie just outside them."""

from __future__ import annotations

import cv2
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


def test_pale_pieces_under_a_lamps_gradient_hide_the_lines_between_them() -> None:
    # a lamp brightens the board from 0.7 to 1.3 times across (far more than a pale piece differs from
    # the board beside it); the back rank's nine pieces touch, so the line between them cannot be seen
    from calibration.evidence import project
    from calibration.lattice import hidden_segments

    response, h = _board(frame_gap=0.22, margin=0.36)
    height, width = response.shape
    gain = np.linspace(0.7, 1.3, width, dtype=np.float32)[None, :, None]
    paper = np.array([185.0, 185.0, 185.0], np.float32)
    frame = np.ascontiguousarray(np.clip(paper[None, None, :] * gain * np.ones((height, width, 1)), 0, 255))
    for u in range(9):
        x, y = project(h, np.array([[u, 0.0]]))[0]
        cx = int(round(x))
        cv2.circle(frame, (cx, int(round(y))), int(0.45 * SPACING),  # the board's local brightness, tinted
                   (paper * gain[0, cx, 0] + np.array([10.0, 0.0, 40.0])).tolist(), -1)
    hidden = hidden_segments(frame.astype(np.uint8), response, h, 80.0)
    back_rank = (DRAWN_SEGMENTS[:, 0, 1] == 0) & (DRAWN_SEGMENTS[:, 1, 1] == 0)
    assert hidden[back_rank].all()
    far = (DRAWN_SEGMENTS[:, :, 1] >= 3).all(axis=1)
    assert not hidden[far].any()
