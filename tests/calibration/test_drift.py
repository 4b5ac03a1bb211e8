"""Drift check and monitor on drawn boards: in place, moved, occluded; re-calibration and red side."""

from __future__ import annotations

import numpy as np
import pytest

from calibration import BoardGeometry, BoardLocator, DriftMonitor
from tests.calibration.drawn import render_drawn, start_pieces


@pytest.fixture(scope="module")
def calibrated() -> tuple[np.ndarray, BoardGeometry]:
    view = render_drawn(41, pieces=start_pieces(), tilt_deg=12.0, rotation_deg=20.0)
    return view.image, BoardLocator().locate(view.image)


def test_same_frame_is_in_place(calibrated: tuple[np.ndarray, BoardGeometry]) -> None:
    frame, geometry = calibrated
    result = geometry.check_drift(frame)
    assert not result.moved and not result.occluded and result.score > 0.8


def test_shifted_frame_has_moved(calibrated: tuple[np.ndarray, BoardGeometry]) -> None:
    frame, geometry = calibrated
    shift = int(round(0.3 * geometry.spacing_px()))
    assert geometry.check_drift(np.roll(frame, shift, axis=1)).moved
    assert geometry.check_drift(np.roll(frame, -shift, axis=0)).moved


def test_covered_board_waits(calibrated: tuple[np.ndarray, BoardGeometry]) -> None:
    frame, geometry = calibrated
    result = geometry.check_drift(np.full_like(frame, 128))
    assert result.occluded and not result.moved


def test_monitor_recalibrates_after_a_confirmed_move(calibrated: tuple[np.ndarray, BoardGeometry]) -> None:
    frame, geometry = calibrated
    moved = render_drawn(41, pieces=start_pieces(), tilt_deg=12.0, rotation_deg=35.0).image
    monitor = DriftMonitor(BoardLocator(), geometry, interval=2.0, confirm=2)
    assert monitor.feed(frame, 0.0) is None
    assert monitor.feed(moved, 1.0) is None  # not due yet
    assert monitor.feed(moved, 2.0) is None  # first sighting of the move
    update = monitor.feed(moved, 4.0)
    assert update is not None and update.reason == "moved" and update.shift > 0.5
    assert update.new.red_side == geometry.red_side  # still named from red's view
    assert monitor.geometry is update.new
    assert monitor.feed(moved, 6.0) is None


def test_monitor_settles_red_side_when_pieces_appear() -> None:
    empty = render_drawn(43, tilt_deg=8.0, rotation_deg=5.0)
    geometry = BoardLocator().locate(empty.image)
    assert geometry.red_side is None
    monitor = DriftMonitor(BoardLocator(), geometry, interval=1.0)
    assert monitor.feed(empty.image, 0.0) is None
    full = render_drawn(43, pieces=start_pieces(), tilt_deg=8.0, rotation_deg=5.0)
    update = monitor.feed(full.image, 1.0)
    assert update is not None and update.reason == "red side found"
    assert update.new.red_side == full.red_side == "bottom"
    a0 = np.array(update.new.point(0, 0))
    assert np.hypot(*(a0 - full.points["a0"])) < 0.1 * full.spacing_px
