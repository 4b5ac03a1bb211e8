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


def flat_plateaus(grey: np.ndarray, spacing: float, margin: float, read_empty: np.ndarray, *,
                  share: float = 0.3) -> np.ndarray | None:
    """(90,) True where a point's piece-sized square is a bright, textureless plateau: a lamp's
    spot that shows nothing there, at whatever level the camera left it; None when the view cannot
    say (fewer than ten points read as bare crossings: a view read mostly "covered").

    ``washed_out`` knows glare by clipped pixels, but a camera that lowers its gain after clipping
    (auto exposure, a dimming room) leaves the spot a flat grey near the paper's own brightness
    (fresh s1800000-clean-016: a cannon set down there read empty at 0.84), and a lamp that never
    clipped leaves one near 220 (s2100000-clean-028: the bare corner i9 read as a black cannon;
    s2100000-clean-010: the horse on b0 read empty all game). Every point is a crossing of printed
    lines, so its square has texture; a square whose grey spread is under ``share`` of the middle
    spread of the squares ``read_empty`` (the view's own measure of a bare crossing, for its board,
    print and blur), and which is at least as bright as the board's middle square, shows nothing.
    Over 294 stills of 98 rendered game videos 252 points were so (1 in 100, in 15 videos, each
    under a lamp), 102 of them not found by clipping; 40 held a piece, and the classifier read 33
    of those wrong. ``grey`` is the rectified board in grey; layout as ``washed_out``.
    """
    empty = np.asarray(read_empty, dtype=bool)
    if empty.sum() < 10:  # too few bare crossings to know what one looks like here
        return None
    picture = np.asarray(grey, dtype=np.float32)
    side = max(3, int(round(0.9 * spacing)))
    mean = cv2.blur(picture, (side, side), borderType=cv2.BORDER_REPLICATE)
    square = cv2.blur(picture * picture, (side, side), borderType=cv2.BORDER_REPLICATE)
    x, y = square_centres(spacing, margin)
    px = np.clip(np.rint(x).astype(int), 0, picture.shape[1] - 1)
    py = np.clip(np.rint(y).astype(int), 0, picture.shape[0] - 1)
    level = mean[py, px].astype(np.float64)
    spread = np.sqrt(np.maximum(square[py, px].astype(np.float64) - level * level, 0.0))
    bare = float(np.median(spread[empty]))
    return np.asarray((spread < share * bare) & (level >= np.median(level)), dtype=bool)
