"""Initial lattice hypotheses do not depend on which way up the picture is."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.candidates import _hull_quad, candidate_quads, outline_quads, same_quad
from calibration.evidence import line_response, to_gray
from tests.calibration.drawn import render_drawn, start_pieces


def _same_quads(found: list[np.ndarray], expected: list[np.ndarray], tolerance: float = 2.0) -> bool:
    """Whether each expected quad is among ``found``, corners in any order."""
    def key(quad: np.ndarray) -> np.ndarray:
        return quad[np.lexsort((quad[:, 1], quad[:, 0]))]
    return all(any(np.abs(key(q) - key(e)).max() <= tolerance for q in found) for e in expected)


def _cut_outline(cut: float = 25.0, bow: float = 2.0) -> np.ndarray:
    """The hull of a 300x210 board's outline with one corner cut off (a card over it), its edges bowed
    out ``bow`` pixels (a lens's barrel) so that the hull keeps hundreds of points."""
    edge = [(0.0, 0.0), (300.0, 0.0), (300.0, 210.0 - cut), (300.0 - cut, 210.0), (0.0, 210.0)]
    centre, points = np.array([150.0, 105.0]), []
    for a, b in zip(np.array(edge), np.array(edge[1:] + edge[:1]), strict=True):
        along = np.linspace(0.0, 1.0, 60, endpoint=False)[:, None]
        normal = np.array([(b - a)[1], -(b - a)[0]]) / np.linalg.norm(b - a)
        normal = normal if np.dot((a + b) / 2 - centre, normal) > 0 else -normal
        points.append(a + along * (b - a) + bow * np.sin(np.pi * along) * normal)
    return np.asarray(cv2.convexHull(np.concatenate(points).astype(np.float32)))


def test_a_hulls_quad_does_not_depend_on_where_its_outline_starts() -> None:
    """A board's outline with one corner cut: approximated from one starting point the 4-gon dropped
    the cut's one end, from another its other end (about half the starts each), and where the
    contour search began depended on which way up the picture was."""
    hull = _cut_outline()
    assert len(hull) > 100
    quads = [_hull_quad(np.roll(hull, -start, axis=0), (0.02, 0.04, 0.06)) for start in range(0, len(hull), 7)]
    first = quads[0]
    assert first is not None and abs(cv2.contourArea(first.astype(np.float32)) - 300 * 210) < 0.06 * 300 * 210  # the cut and the bow aside
    assert all(quad is not None and np.abs(quad - first).max() < 1e-6 for quad in quads)


def test_the_same_quad_is_told_whichever_corner_it_starts_at() -> None:
    """A board turned 45 degrees: two corners about equally near the picture's top left, so the inner
    and outer edge of one outline started at different corners and were kept as two quads."""
    diamond = np.array([[320.0, 40.0], [520.0, 240.0], [320.0, 440.0], [120.0, 240.0]])
    other = np.array([[120.0, 239.5], [321.0, 40.0], [520.0, 240.0], [320.0, 440.0]])
    assert same_quad(diamond, other) and same_quad(diamond, other[::-1])
    assert not same_quad(diamond, diamond + [10.0, 0.0])


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
