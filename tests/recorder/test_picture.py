"""The camera's picture too dark, or without colour: told once, and a dark one's presses not judged."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from recorder.clocklog_input import read_clock_log
from recorder.events import Alert, ClockAlert
from recorder.picture import DARK, DARK_CLEARED, PictureQuality
from recorder.session import RecordingSession
from recorder.sources import Frame, open_source
from tests.recorder.oracle import OracleClassifier

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _board(brightest: float) -> np.ndarray:
    """A colourful board picture whose brightest parts are about ``brightest``."""
    rng = np.random.default_rng(3)
    picture = rng.uniform(0.2, 1.0, (480, 432, 3)) * np.array([0.55, 0.8, 1.0])  # yellowish wood, BGR
    return np.clip(picture * brightest, 0, 255).astype(np.uint8)


def _views(brightest: float) -> tuple[np.ndarray, np.ndarray]:
    board = _board(brightest)
    return board, board


def test_a_dark_picture_is_told_once_until_it_brightens_past_a_margin() -> None:
    quality = PictureQuality()
    assert quality.judge(*_views(220), 0.5, 0) == [] and not quality.dark
    (told,) = quality.judge(*_views(45), 3.0, 4)
    assert isinstance(told, Alert) and told.kind == "picture_dark" and told.ply == 4
    assert "brightest parts at 4" in told.text and quality.dark
    assert quality.judge(*_views(45), 4.0, 4) == []  # once
    assert quality.judge(*_views((DARK + DARK_CLEARED) / 2), 5.0, 4) == [] and quality.dark  # no flicker out
    assert quality.judge(*_views(200), 6.0, 5) == [] and not quality.dark
    (again,) = quality.judge(*_views(40), 90.0, 30)  # dark again later: told again
    assert again.kind == "picture_dark"


def test_a_picture_without_colour_is_told_once() -> None:
    quality = PictureQuality()
    grey = cv2.cvtColor(cv2.cvtColor(_board(220), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    (told,) = quality.judge(grey, grey, 1.0, 0)
    assert isinstance(told, Alert) and told.kind == "picture_colourless" and "set the camera to colour" in told.text
    assert quality.judge(grey, grey, 2.0, 0) == [] and not quality.dark


def test_a_grey_board_whose_only_colour_is_a_red_generals_ink_has_colour() -> None:
    # a reviewer's endgame on a grey board, grey pieces and table: the red general's ink, under 0.5 %
    # of the board, was told to be no colour at all
    frame = np.full((360, 640, 3), 150, np.uint8)
    frame += np.random.default_rng(1).integers(0, 3, frame.shape, dtype=np.uint8)  # a sensor's grain, no colour
    cv2.circle(frame, (320, 300), 4, (40, 40, 190), -1)  # the ink of one red piece, small and far
    assert PictureQuality().judge(frame[100:, 150:500], frame, 1.0, 40) == []


@pytest.mark.skipif(not (FIXTURES / "game_short.mp4").exists(), reason="fixture video missing")
def test_a_dim_camera_is_told_at_once_and_judges_no_press() -> None:
    """The short fixture at a quarter of its brightness, with a press without a move added (a
    tester's dim camera had both players told they pressed without moving, a second time losing).
    The picture is told too dark at once, and no press or move is judged a clock fault. (The moves
    themselves go unseen at this light: hands change the dim picture too little to read as motion.)"""
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    oracle = OracleClassifier(truth)
    presses = read_clock_log(FIXTURES / "game_short.clock.jsonl")
    presses.insert(1, type(presses[0])(presses[0].t + 1.0, "black", presses[0].red_ms, presses[0].black_ms))  # no move
    session = RecordingSession(oracle, presses=presses, source_name="dim")
    for item in open_source(str(FIXTURES / "game_short.mp4")):
        if isinstance(item, Frame):
            oracle.frame = item.index
            item = Frame((item.image * 0.25).astype(np.uint8), item.t, item.index)
        session.feed(item)
    session.finish()
    kinds = [e.kind for e in session.log.events if isinstance(e, Alert)]
    assert kinds[0] == "picture_dark" and kinds.count("picture_dark") == 1
    assert not [e for e in session.log.events if isinstance(e, ClockAlert)]
