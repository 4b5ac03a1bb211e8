"""Glare: the points of the rectified board that a lamp's reflection blows out to white.

Under a strong spot the character, the ink's colour and even the disc's edge are gone, so the
circle search finds no disc there although a piece may stand there (``recorder.offpoint``: a
missing disc is then no evidence of an empty point). On the classifier benchmark, points blown
out over 95 % of their square are read wrong 8 % of the time, mostly pieces as empty (1 %
elsewhere).
"""

from __future__ import annotations

import cv2
import numpy as np

from recorder.vision import square_centres


def washed_out(rectified: np.ndarray, spacing: float, margin: float, *, clipped: int = 250,
               white: int = 225) -> np.ndarray:
    """(90,) share of each point's piece-sized square (0.9 spacings across) that is blown out to white.

    A pixel is blown out when it is near white (every channel at least ``white``) and at least one
    channel is clipped (``clipped`` or more): a camera clips glare first and balances its colours
    after, so blown-out pixels are often tinted (a yellow board's glare reads 238, 252, 253).
    Rows are ``rules`` squares (``rank * 9 + file``); ``spacing``/``margin`` are the rectified
    layout (pixels per spacing, border in spacings), rank 9 at the top as ``BoardGeometry.rectify``
    makes it.
    """
    picture = np.asarray(rectified)
    if picture.ndim == 2:
        blown = (picture >= clipped).astype(np.float32)
    else:
        channels = cv2.split(picture)  # (numpy's max over the last axis costs ten times as much)
        brightest = cv2.max(cv2.max(channels[0], channels[1]), channels[2])
        darkest = cv2.min(cv2.min(channels[0], channels[1]), channels[2])
        blown = ((brightest >= clipped) & (darkest >= white)).astype(np.float32)
    side = max(3, int(round(0.9 * spacing)))
    share = cv2.blur(blown, (side, side), borderType=cv2.BORDER_REPLICATE)
    x, y = square_centres(spacing, margin)
    px = np.clip(np.rint(x).astype(int), 0, share.shape[1] - 1)
    py = np.clip(np.rint(y).astype(int), 0, share.shape[0] - 1)
    return np.asarray(share[py, px], dtype=np.float64)
