"""Which dark-line pass the locator refines first: gray unless a colour channel shows the lines far better."""

from __future__ import annotations

import cv2
import numpy as np

from calibration import BoardLocator


def _ruled(cloth: tuple[int, int, int], ink: tuple[int, int, int]) -> np.ndarray:
    """A 1280x960 BGR frame of a noisy cloth ruled with thin lines of ``ink`` every 60 px."""
    rng = np.random.default_rng(5)
    frame = np.clip(np.array(cloth, np.float32) + rng.normal(0, 3, (960, 1280, 3)), 0, 255).astype(np.uint8)
    for k in range(200, 1100, 60):
        cv2.line(frame, (k, 150), (k, 810), ink, 2, cv2.LINE_AA)
    for k in range(150, 820, 60):
        cv2.line(frame, (200, k), (1080, k), ink, 2, cv2.LINE_AA)
    return frame


def _colour_first(frame: np.ndarray) -> bool:
    locator = BoardLocator()
    coarse = {colour: locator._coarse(frame, True, colour) for colour in (False, True)}
    return locator._colour_first(coarse)


def test_red_ink_on_green_cloth_goes_to_the_colour_pass_first() -> None:
    # about the same gray level, but the green channel shows the red lines as dark strokes
    assert _colour_first(_ruled(cloth=(40, 110, 40), ink=(40, 40, 200)))


def test_black_ink_on_wood_stays_with_the_gray_pass() -> None:
    assert not _colour_first(_ruled(cloth=(120, 175, 215), ink=(35, 35, 45)))
