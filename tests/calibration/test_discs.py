"""Grids from the pieces (``calibration.discs``, ``BoardLocator.from_pieces``): where blur has washed
the grid lines out and the locator refuses the board, the pieces' circles still place it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration import BoardLocator, BoardNotFoundError
from synth.style import ViewStyle
from synth.view import render_position

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def _shaken(seed: int) -> tuple[np.ndarray, dict[str, tuple[float, float]]]:
    """A held-out 640x360 view of the start with 7 px of vertical motion blur (a camera that shakes)."""
    style = ViewStyle.sample(np.random.default_rng([seed, 7]), split="test", width=640, height=360)
    image, truth = render_position(START, seed, style=style, split="test")
    kernel = np.zeros((7, 7), np.float32)
    kernel[:, 3] = 1 / 7
    return cv2.filter2D(image, -1, kernel), truth.points


@pytest.mark.parametrize("seed", [2, 4, 6])
def test_a_blurred_board_the_locator_refuses_is_placed_by_its_pieces(seed: int) -> None:
    image, points = _shaken(seed)
    with pytest.raises(BoardNotFoundError):
        BoardLocator().locate(image)
    names = sorted(points)
    true = np.array([points[name] for name in names])
    spacing = float(np.linalg.norm(np.subtract(points["a1"], points["a0"])))
    grids = BoardLocator().from_pieces(image)
    assert grids and all(grid.confidence == 0.0 and grid.red_side is None for grid in grids)
    # the first is the board (named either way round: the pieces on it tell which, for the recorder)
    error = min(float(np.linalg.norm(np.array([named.points()[n] for n in names]) - true, axis=1).mean())
                for named in (grids[0], grids[0].turned()))
    assert error < 0.15 * spacing


def test_too_few_pieces_give_no_grid() -> None:
    style = ViewStyle.sample(np.random.default_rng([3, 7]), split="test", width=640, height=360)
    image, _ = render_position("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", 3, style=style, split="test")  # two generals
    assert BoardLocator().from_pieces(image) == []
