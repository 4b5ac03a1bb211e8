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
from calibration.lens import Lens, board_to_image

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


def point_redness(frame: np.ndarray, h: np.ndarray, lens: Lens | None = None) -> np.ndarray:
    """(RANKS, FILES): redness of the ink at each point -- a disc's pixels weighted by how much darker
    than its median (the face) they are, so the glyph and rim count -- as (R - (G + B) / 2) over
    brightness: red ink is clearly positive, black, green or blue ink zero or below, whatever the face."""
    scale = 40
    m = 1.0
    to_board = np.array([[1 / scale, 0.0, -m], [0.0, 1 / scale, -m], [0.0, 0.0, 1.0]])
    size = (int((FILES - 1 + 2 * m) * scale) + 1, int((RANKS - 1 + 2 * m) * scale) + 1)
    if lens is None:
        top = cv2.warpPerspective(frame, h @ to_board, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                  borderMode=cv2.BORDER_REPLICATE)
    else:
        ys, xs = np.mgrid[0:size[1], 0:size[0]]
        grid = np.c_[xs.ravel(), ys.ravel()].astype(np.float64) / scale - m
        src = board_to_image(h, lens, grid).reshape(size[1], size[0], 2).astype(np.float32)
        top = cv2.remap(frame, src[..., 0], src[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    r = int(_DISC * scale)
    yy, xx = np.mgrid[-r:r + 1, -r:r + 1]
    inside = (xx**2 + yy**2) <= r * r
    cy = np.round((m + np.arange(RANKS)) * scale).astype(int)
    cx = np.round((m + np.arange(FILES)) * scale).astype(int)
    rows = cy[:, None, None, None] + yy[None, None, :, :]
    cols = cx[None, :, None, None] + xx[None, None, :, :]
    patches = top[rows, cols].astype(np.float32)[:, :, inside]  # (RANKS, FILES, K, 3)
    brightness = patches.mean(axis=-1)
    redness = (patches[..., 2] - 0.5 * (patches[..., 0] + patches[..., 1])) / (brightness + 10.0)
    face = np.median(brightness, axis=-1, keepdims=True)
    weight = np.clip(face - brightness - 8.0, 0.0, None)  # ink: clearly darker than the face
    return (weight * redness).sum(axis=-1) / (weight.sum(axis=-1) + 1e-6)


def _split(values: np.ndarray) -> tuple[float, float]:
    """Otsu's threshold between two groups of ``values`` and the groups' separation (gap between
    their means over their pooled spread); (nan, 0) when fewer than two values."""
    if len(values) < 2:
        return float("nan"), 0.0
    ordered = np.sort(values)
    best_i, best_between = 1, -1.0
    for i in range(1, len(ordered)):
        low, high = ordered[:i], ordered[i:]
        between = len(low) * len(high) * (high.mean() - low.mean()) ** 2
        if between > best_between:
            best_i, best_between = i, between
    low, high = ordered[:best_i], ordered[best_i:]
    spread = np.sqrt((low.var() * len(low) + high.var() * len(high)) / len(ordered)) + 0.01
    return float((ordered[best_i - 1] + ordered[best_i]) / 2), float((high.mean() - low.mean()) / spread)


def red_side_evidence(frame: np.ndarray, h: np.ndarray, lens: Lens | None = None) -> RedSideEvidence:
    """Vote for the side red sits on under board-to-image ``h`` (see the module docstring)."""
    if frame.ndim != 3:
        return RedSideEvidence(0.0, 0, 0.0, [], [])
    occupied = ring_points(frame, h, lens) >= 0.75
    redness = point_redness(frame, h, lens)
    cells = [(f, r) for r in range(RANKS) for f in range(FILES) if occupied[r, f]]
    values = np.array([redness[r, f] for f, r in cells])
    threshold, separation = _split(values)
    if not np.isfinite(threshold):
        return RedSideEvidence(0.0, len(cells), 0.0, [], [])
    red = [c for c, v in zip(cells, values, strict=True) if v > threshold]
    black = [c for c, v in zip(cells, values, strict=True) if v <= threshold]
    gap = float(values[values > threshold].mean() - values[values <= threshold].mean())
    vote = 0.0
    total = 0.0
    for (f, r) in cells:
        weight = 3.0 if (f, r) in _PALACE else 2.0 if (f, r) in _ELEPHANT else 1.0
        colour = 1.0 if (f, r) in red else -1.0
        half = 1.0 if r < RANKS // 2 else -1.0
        vote += weight * colour * half
        total += weight
    value = vote / max(total, 1e-9)
    low = {c for c in _PALACE if c[1] < RANKS // 2}
    high = _PALACE - low
    red_home, black_home = (low, high) if value > 0 else (high, low)
    kings_agree = bool(set(red) & red_home) and bool(set(black) & black_home)
    return RedSideEvidence(value, len(cells), separation, red, black, gap, kings_agree)


def red_evidence(frame: np.ndarray, h: np.ndarray, lens: Lens | None = None, min_separation: float = 2.0,
                 min_gap: float = 0.08) -> float:
    """Signed strength of the vote (> 0: red at rank 0); 0.0 when it is not safe to say.

    The pieces' colours must split clearly into a redder and a less red group. When each palace holds
    a piece of the colour the vote gives its side (the kings), a clear majority is enough; otherwise
    (a king hidden or missed) the vote must be strong and both groups hold several pieces -- a hand's
    fingers mistaken for a piece or two cannot turn the board.
    """
    evidence = red_side_evidence(frame, h, lens)
    if evidence.separation < min_separation or evidence.gap < min_gap:
        return 0.0
    if evidence.kings_agree and abs(evidence.value) >= 0.2:
        return evidence.value
    if abs(evidence.value) >= 0.5 and len(evidence.red) >= 2 and len(evidence.black) >= 2:
        return evidence.value
    return 0.0
