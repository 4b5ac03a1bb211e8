"""Which side red sits on, from the colours of the pieces standing on the board.

Red's king and advisors never leave red's palace and its elephants never cross the river, so the
half of the board where the red pieces stand -- counting palace and elephant points more -- is
red's. Occupied points are those ringed by an edge all around (a disc's rim, side or shadow); each occupied point's colour is its mean redness relative to its brightness; the pieces
are split into the redder and the less red group where the gap between them is widest (no fixed
colour thresholds: faces, inks, lighting and white balance vary). Without pieces, or when the two
groups are not clearly apart, the side stays undetermined.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.board import FILES, RANKS, all_points
from calibration.evidence import sample, to_gray
from calibration.lens import Lens, board_to_image, source_maps

log = logging.getLogger(__name__)

_PALACE = {(f, r) for f in (3, 4, 5) for r in (0, 1, 2, 7, 8, 9)}
_ELEPHANT = {(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}
_ELEPHANT |= {(f, 9 - r) for f, r in _ELEPHANT}
_DISC = 0.3  # colour disc radius, spacings


@dataclass(frozen=True)
class RedSideEvidence:
    """The vote: ``value`` > 0 means red at rank 0, < 0 at rank 9; ``separation`` of the colour groups."""

    value: float
    occupied: int
    separation: float
    red: list[tuple[int, int]]
    black: list[tuple[int, int]]
    gap: float = 0.0  # mean redness of the red group minus that of the black group
    kings_agree: bool = False  # each palace holds a piece of the colour the vote gives its side
    ink_gap: float = 0.0  # ink redness (by absorption) of the red group minus that of the black group


def ring_points(frame: np.ndarray, h: np.ndarray, lens: Lens | None = None) -> np.ndarray:
    """(RANKS, FILES) fraction of directions around each point with a clear edge 0.22-0.64 spacings out.

    A piece is a disc about 0.45 spacings in radius: its rim (or its side and shadow) closes a ring of
    edges all around the point, wherever the piece is nudged. An empty crossing shows edges in its four
    line directions only, a hand on one side only.
    """
    gray = to_gray(frame).astype(np.float32)
    angles = np.linspace(0.0, 2 * np.pi, 32, endpoint=False)
    radii = np.linspace(0.22, 0.64, 15)
    dirs = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    pts = all_points()
    probe = pts[:, None, None, :] + radii[None, None, :, None] * dirs[None, :, None, :]
    values = sample(gray, board_to_image(h, lens, probe))
    steps = np.abs(np.diff(values, axis=2)).max(axis=2)
    tau = max(5.0, 0.35 * float(np.percentile(steps, 95)))
    return (steps > tau).mean(axis=1).reshape(RANKS, FILES)


_SCALE = 40  # rectified pixels per spacing
_MARGIN = 1.0  # spacings around the grid


def _rectified(frame: np.ndarray, h: np.ndarray, lens: Lens | None) -> np.ndarray:
    """The board seen from straight above, ``_SCALE`` pixels per spacing, ``_MARGIN`` around the grid."""
    scale, m = _SCALE, _MARGIN
    to_board = np.array([[1 / scale, 0.0, -m], [0.0, 1 / scale, -m], [0.0, 0.0, 1.0]])
    size = (int((FILES - 1 + 2 * m) * scale) + 1, int((RANKS - 1 + 2 * m) * scale) + 1)
    if lens is None:
        return np.asarray(cv2.warpPerspective(frame, h @ to_board, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                              borderMode=cv2.BORDER_REPLICATE))
    map_x, map_y = source_maps(h @ to_board, lens, size)
    return np.asarray(cv2.remap(frame, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))


def _discs(top: np.ndarray) -> np.ndarray:
    """(RANKS, FILES, K, ...) float32: the pixels of ``top`` in a disc around every point."""
    r = int(_DISC * _SCALE)
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    inside = (xx**2 + yy**2) <= r * r
    cy = np.round((_MARGIN + np.arange(RANKS)) * _SCALE).astype(int)
    cx = np.round((_MARGIN + np.arange(FILES)) * _SCALE).astype(int)
    rows = cy[:, None, None, None] + yy[None, None, :, :]
    cols = cx[None, :, None, None] + xx[None, None, :, :]
    return np.asarray(top[rows, cols].astype(np.float32)[:, :, inside])


def point_redness(frame: np.ndarray, h: np.ndarray, lens: Lens | None = None) -> np.ndarray:
    """(RANKS, FILES): redness of the ink at each point -- a disc's pixels weighted by how much darker
    than its median (the face) they are, so the glyph and rim count -- as (R - (G + B) / 2) over
    brightness: red ink is clearly positive, black, green or blue ink zero or below, whatever the face."""
    return _redness(_rectified(frame, h, lens))


def _redness(top: np.ndarray) -> np.ndarray:
    """``point_redness`` of the rectified view ``top``."""
    patches = _discs(top)
    brightness = _channel_mean(patches)
    redness = (patches[..., 2] - 0.5 * (patches[..., 0] + patches[..., 1])) / (brightness + 10.0)
    face = np.median(brightness, axis=-1, keepdims=True)
    weight = np.clip(face - brightness - 8.0, 0.0, None)  # ink: clearly darker than the face
    return np.asarray((weight * redness).sum(axis=-1) / (weight.sum(axis=-1) + 1e-6))


def point_inks(frame: np.ndarray, h: np.ndarray, lens: Lens | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(ink redness, hand cover), each (RANKS, FILES), from a disc around every point.

    Each pixel is compared with the disc's median colour (a piece's face) channel by channel: ink
    absorbs light, and red ink absorbs green and blue but hardly red, whereas black, green or blue
    ink (and shadow) absorb red as much or more. The ink redness is the absorption-weighted mean of
    (green-blue absorption - red absorption) / green-blue absorption over the ink pixels: about 0 or
    below for black ink, clearly positive for red, whatever the face's colour, the light or how thinly
    the ink covers a pixel. The hand cover is the fraction of the disc under a broad skin-coloured
    area: skin is saturated red-orange with green above blue (thin red glyph strokes on a wooden face
    can look alike, but only a hand or arm fills a region half a spacing across).
    """
    return _inks(_rectified(frame, h, lens))


def _inks(rectified: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``point_inks`` of the rectified view."""
    top = rectified.astype(np.float32)
    b, g, r = top[..., 0], top[..., 1], top[..., 2]
    warm = r - g
    skin = ((warm > 0.2 * ((b + g + r) / 3 + 10.0)) & (r - b > 0.33 * r) & (g - b > 0.4 * warm)
            & (g - b < warm)).astype(np.uint8)
    size = int(0.5 * _SCALE) | 1
    broad = cv2.morphologyEx(skin, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    cover = _discs(broad).mean(axis=-1)
    patches = _discs(top)
    face = np.median(patches, axis=2, keepdims=True) + 1.0
    absorbed = 1.0 - (patches + 1.0) / face  # (RANKS, FILES, K, 3) per channel, 0 = like the face
    cool = 0.5 * (absorbed[..., 0] + absorbed[..., 1])
    dark = _channel_mean(absorbed)
    weight = np.where(dark > 0.1, dark, 0.0)
    score = np.clip((cool - absorbed[..., 2]) / np.maximum(cool, 0.05), -1.0, 1.0)
    return (weight * score).sum(axis=-1) / (weight.sum(axis=-1) + 1e-6), cover


def _channel_mean(pixels: np.ndarray) -> np.ndarray:
    """Mean over the last (colour) axis; numpy's reduction over a length-3 axis is ten times slower."""
    return np.asarray((pixels[..., 0] + pixels[..., 1] + pixels[..., 2]) / 3)


def _split(values: np.ndarray) -> tuple[float, float]:
    """Otsu's threshold between two groups of ``values`` and the groups' separation (gap between
    their means over their pooled spread); (nan, 0) when fewer than two values."""
    if len(values) < 2:
        return float("nan"), 0.0
    ordered = np.sort(values)
    n = len(ordered)
    sizes = np.arange(1, n)  # the low group's size for every cut
    low_sum = np.cumsum(ordered)[:-1]
    between = sizes * (n - sizes) * ((ordered.sum() - low_sum) / (n - sizes) - low_sum / sizes) ** 2
    best_i = 1 + int(np.argmax(between))
    low, high = ordered[:best_i], ordered[best_i:]
    spread = np.sqrt((low.var() * len(low) + high.var() * len(high)) / len(ordered)) + 0.01
    return float((ordered[best_i - 1] + ordered[best_i]) / 2), float((high.mean() - low.mean()) / spread)


def _vote(red: list[tuple[int, int]], black: list[tuple[int, int]]) -> float:
    """-1..1: red pieces in the rank-0 half and black in the rank-9 half count for rank 0 (palace and
    elephant points more), the other way round against."""
    vote = 0.0
    weights = 0.0
    for (f, r) in red + black:
        weight = 3.0 if (f, r) in _PALACE else 2.0 if (f, r) in _ELEPHANT else 1.0
        colour = 1.0 if (f, r) in red else -1.0
        half = 1.0 if r < RANKS // 2 else -1.0
        vote += weight * colour * half
        weights += weight
    return vote / max(weights, 1e-9)


def red_side_evidence(frame: np.ndarray, h: np.ndarray, lens: Lens | None = None) -> RedSideEvidence:
    """Vote for the side red sits on under board-to-image ``h`` (see the module docstring)."""
    if frame.ndim != 3:
        return RedSideEvidence(0.0, 0, 0.0, [], [])
    occupied = ring_points(frame, h, lens) >= 0.75
    top = _rectified(frame, h, lens)  # built once: with a lens it is most of this function's time
    ink, hand = _inks(top)
    occupied &= hand < 0.25  # a hand over a point is no evidence of a piece's colour
    redness = _redness(top)
    cells = [(f, r) for r in range(RANKS) for f in range(FILES) if occupied[r, f]]
    values = np.array([redness[r, f] for f, r in cells])
    threshold, separation = _split(values)
    if not np.isfinite(threshold):
        return RedSideEvidence(0.0, len(cells), 0.0, [], [])
    red = [c for c, v in zip(cells, values, strict=True) if v > threshold]
    black = [c for c, v in zip(cells, values, strict=True) if v <= threshold]
    if not red or not black:  # all the pieces one colour (a grayscale picture): no vote
        return RedSideEvidence(0.0, len(cells), 0.0, red, black)
    gap = float(values[values > threshold].mean() - values[values <= threshold].mean())
    # the absorption check must agree: red's group's ink clearly redder than black's
    ink_gap = float(np.mean([ink[r, f] for f, r in red]) - np.mean([ink[r, f] for f, r in black]))
    value = _vote(red, black)
    # the same vote with the pieces split by ink absorption alone must point the same way
    inks = np.array([ink[r, f] for f, r in cells])
    ink_threshold, _ = _split(inks)
    ink_value = _vote([c for c, v in zip(cells, inks, strict=True) if v > ink_threshold],
                      [c for c, v in zip(cells, inks, strict=True) if v <= ink_threshold])
    if value * ink_value <= 0:
        ink_gap = 0.0
    low = {c for c in _PALACE if c[1] < RANKS // 2}
    high = _PALACE - low
    red_home, black_home = (low, high) if value > 0 else (high, low)
    kings_agree = bool(set(red) & red_home) and bool(set(black) & black_home)
    return RedSideEvidence(value, len(cells), separation, red, black, gap, kings_agree, ink_gap)


def red_evidence(frame: np.ndarray, h: np.ndarray, lens: Lens | None = None, min_separation: float = 2.0,
                 min_gap: float = 0.08, min_ink_gap: float = 0.1) -> float:
    """Signed strength of the vote (> 0: red at rank 0); 0.0 when it is not safe to say.

    The pieces' colours must split clearly into a redder and a less red group, and the ink of the
    redder group must absorb clearly less red light than the other's (so a shadow or a reddish face
    cannot pose as red ink). When each palace holds a piece of the colour the vote gives its side
    (the kings), a clear majority is enough; otherwise (a king hidden or missed) the vote must be
    strong and both groups hold several pieces.
    """
    evidence = red_side_evidence(frame, h, lens)
    if evidence.ink_gap < min_ink_gap or evidence.separation < min_separation:
        return 0.0
    if evidence.gap < min_gap and evidence.ink_gap < 3 * min_ink_gap:  # a clear ink gap may stand in
        return 0.0
    if evidence.kings_agree and abs(evidence.value) >= 0.2:
        return evidence.value
    if abs(evidence.value) >= 0.5 and len(evidence.red) >= 2 and len(evidence.black) >= 2:
        return evidence.value
    return 0.0
