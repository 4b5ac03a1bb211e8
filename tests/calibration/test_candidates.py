"""Initial lattice hypotheses do not depend on which way up the picture is."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.candidates import _hull_quad, candidate_quads, outline_quads
from calibration.evidence import line_response, to_gray
from tests.calibration.drawn import render_drawn, start_pieces


def _same_quads(found: list[np.ndarray], expected: list[np.ndarray], tolerance: float = 2.0) -> bool:
    """Whether each expected quad is among ``found``, corners in any order."""
    def key(quad: np.ndarray) -> np.ndarray:
        return quad[np.lexsort((quad[:, 1], quad[:, 0]))]
    return all(any(np.abs(key(q) - key(e)).max() <= tolerance for q in found) for e in expected)


def test_a_hulls_quad_does_not_depend_on_where_its_outline_starts() -> None:
    """A board's outline with one corner cut (a card lying over it): approximated from some starts
    it kept five corners or lost one, so a faint-lined board was outlined in half its turns only."""
    edge = [(0.0, 0.0), (300.0, 0.0), (300.0, 190.0), (285.0, 210.0), (0.0, 210.0)]
    points = np.concatenate([np.linspace(a, b, 40, endpoint=False) for a, b in zip(edge, edge[1:] + edge[:1], strict=True)])
    hull = cv2.convexHull(points.astype(np.float32))
    quads = [_hull_quad(np.roll(hull, -start, axis=0), (0.02, 0.04, 0.06)) for start in range(len(hull))]
    assert all(quad is not None for quad in quads)
    first = quads[0]
    assert first is not None and abs(cv2.contourArea(first.astype(np.float32)) - 300 * 210) < 0.03 * 300 * 210
    assert all(quad is not None and np.abs(quad - first).max() < 1e-6 for quad in quads)


def test_a_portrait_picture_gets_the_quads_of_the_same_picture_turned_landscape() -> None:
    """The two-way stroke search smoothed by the picture's width: a 640x360 board found turned one
    way was refused turned a quarter round (360 wide, half the smoothing), a tester's red-lined one."""
    view = render_drawn(7, pieces=start_pieces(), size=(640, 360))
    response = line_response(view.image, 5, dark=True)
    height, width = response.shape
    # the board's quads: those along the picture's own edge are no board
    landscape = [q for q in candidate_quads(response)
                 if not np.any((np.abs(q) < 1) | (np.abs(q - [width - 1, height - 1]) < 1))]
    portrait = candidate_quads(np.ascontiguousarray(response.T))
    assert len(landscape) >= 2 and _same_quads([q[:, ::-1] for q in portrait], landscape)


def test_a_board_outline_is_the_same_turned_half_round() -> None:
    view = render_drawn(11, pieces=start_pieces(), size=(640, 360))
    gray = to_gray(view.image)
    height, width = gray.shape
    upright = outline_quads(gray)
    turned = outline_quads(np.ascontiguousarray(gray[::-1, ::-1]))
    assert upright and _same_quads([np.array([width - 1, height - 1]) - q for q in turned], upright)
