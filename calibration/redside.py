"""Which side red sits on, from the colours of the pieces standing on the board.

Red pieces carry red ink (glyphs, rims); black pieces dark ink. Whatever the position, red's king and
advisors never leave red's palace and its elephants never cross the river, so the half of the board
holding more red ink -- weighted towards the palace and elephant points -- is red's. The board's own
drawing is symmetric under a half turn, so comparing each point with its opposite point cancels it
(even red-inked grid lines), leaving only the pieces. Without pieces the evidence is near zero and
the side stays undetermined.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.board import FILES, RANKS

_S = 24  # rectified pixels per spacing
_R = 0.38  # disc radius, spacings

_PALACE = {(f, r) for f in (3, 4, 5) for r in (0, 1, 2)}
_ELEPHANT = {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}


def _weights() -> np.ndarray:
    w = np.ones((RANKS, FILES))
    for f, r in _ELEPHANT:
        w[r, f] = 2.0
    for f, r in _PALACE:
        w[r, f] = 3.0
    return w


_W = _weights()


def point_inks(frame: np.ndarray, h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per board point (rank, file): fraction of red-ink and of dark-ink pixels in a disc around it."""
    m = 1.0
    to_board = np.array([[1 / _S, 0.0, -m], [0.0, 1 / _S, -m], [0.0, 0.0, 1.0]])
    size = (int((FILES - 1 + 2 * m) * _S), int((RANKS - 1 + 2 * m) * _S))
    top = cv2.warpPerspective(frame, h @ to_board, size, flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_REPLICATE)
    hsv = cv2.cvtColor(top, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[..., 0].astype(np.int16), hsv[..., 1], hsv[..., 2]
    red = (((hue <= 8) | (hue >= 168)) & (sat >= 110) & (val >= 60)).astype(np.float32)
    lum = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY).astype(np.float32)
    dark = (lum < 0.55 * float(np.median(lum))).astype(np.float32) * (sat < 110)
    r = int(_R * _S)
    disc = np.zeros((2 * r + 1, 2 * r + 1), np.float32)
    cv2.circle(disc, (r, r), r, 1.0, -1)
    disc /= disc.sum()
    red_mean = cv2.filter2D(red, -1, disc, borderType=cv2.BORDER_CONSTANT)
    dark_mean = cv2.filter2D(dark, -1, disc, borderType=cv2.BORDER_CONSTANT)
    ys = (m + np.arange(RANKS)) * _S
    xs = (m + np.arange(FILES)) * _S
    iy = np.clip(np.round(ys).astype(int), 0, size[1] - 1)
    ix = np.clip(np.round(xs).astype(int), 0, size[0] - 1)
    return red_mean[np.ix_(iy, ix)], dark_mean[np.ix_(iy, ix)]


def red_evidence(frame: np.ndarray, h: np.ndarray) -> float:
    """Positive when red sits at rank 0 of board-to-image ``h``, negative at rank 9, ~0 without pieces.

    The value is the weighted mean, over the points of the rank-0 half, of (red ink minus dark ink)
    there minus the same at the opposite point: roughly the fraction of a disc that differs.
    """
    if frame.ndim != 3:
        return 0.0
    red, dark = point_inks(frame, h)
    ink = red - 0.5 * dark
    turned = ink[::-1, ::-1]
    diff = (ink - turned) * _W
    half = diff[: RANKS // 2]
    return float(half.sum() / _W[: RANKS // 2].sum())
