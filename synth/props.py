"""Things on a tournament table besides the board: a chess clock beside it, score sheets and a pen
in front of the players. They are distractors for board detection (dark boxes, ruled paper with
straight lines) and never overlap the board.

Drawn into the board-plane texture like the board; the clock is a box of real height, its top
face placed by the same ray construction as the pieces so it leans correctly under perspective.
"""

from __future__ import annotations

import logging
import math

import cv2
import numpy as np

from synth import blend
from synth.board import TextureFrame, board_extent
from synth.style import ViewStyle

log = logging.getLogger(__name__)

_F = 16  # 4 bits of sub-pixel precision for cv2 drawing


def _rect(cx: float, cy: float, w: float, h: float, angle: float) -> np.ndarray:
    """Corners (4, 2) of a ``w`` x ``h`` rectangle centred at ``(cx, cy)``, rotated by ``angle`` radians."""
    c, s = math.cos(angle), math.sin(angle)
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return local @ np.array([[c, s], [-s, c]]) + (cx, cy)


def _tex(frame: TextureFrame, pts: np.ndarray) -> np.ndarray:
    out = np.empty_like(pts, dtype=float)
    out[:, 0] = (pts[:, 0] - frame.x0) * frame.scale
    out[:, 1] = (frame.y_top - pts[:, 1]) * frame.scale
    return np.round(out * _F).astype(np.int32)


def _raise(pts: np.ndarray, height: float, camera_centre: tuple[float, float, float]) -> np.ndarray:
    """Where points at ``height`` above the table appear on the table plane from the camera."""
    cx, cy, cz = camera_centre
    f = cz / (cz - height)
    return np.array([cx, cy]) + (pts - np.array([cx, cy])) * f


def _shadow(tex: np.ndarray, frame: TextureFrame, poly: np.ndarray, strength: float) -> None:
    """Darken the texture under the soft-edged hull of ``poly`` (board units), within its bounding box."""
    k = int(max(3, 0.4 * frame.scale)) | 1
    pts = _tex(frame, poly)
    lo = np.maximum(pts.min(axis=0) // _F - k, 0)
    hi = np.minimum(pts.max(axis=0) // _F + k + 1, [tex.shape[1], tex.shape[0]])
    if (hi <= lo).any():
        return
    mask = np.zeros((int(hi[1] - lo[1]), int(hi[0] - lo[0])), np.float32)
    cv2.fillConvexPoly(mask, cv2.convexHull(pts - lo * _F), 1.0, cv2.LINE_AA, 4)
    blend.scale(tex[lo[1]:hi[1], lo[0]:hi[0]], 1.0 - strength * cv2.GaussianBlur(mask, (k, k), 0))


def draw_clock(rng: np.random.Generator, tex: np.ndarray, frame: TextureFrame, style: ViewStyle,
               camera_centre: tuple[float, float, float]) -> None:
    """A dark two-button chess clock standing beside the board, its long side toward the players."""
    x0, _, x1, _ = board_extent(style)
    side = 1 if rng.random() < 0.5 else -1
    length, width, height = rng.uniform(3.8, 4.6), rng.uniform(1.6, 2.2), rng.uniform(1.0, 1.6)
    cx = (x1 + 0.5 + width / 2) if side > 0 else (x0 - 0.5 - width / 2)
    cy = 4.5 + rng.normal(0.0, 0.8)
    angle = math.radians(90 + rng.normal(0.0, 6.0))
    base = _rect(cx, cy, length, width, angle)
    top = _raise(base, height, camera_centre)
    la = math.radians(style.light_azimuth_deg)
    reach = height / math.tan(math.radians(style.light_elevation_deg))
    cast = base - reach * np.array([math.cos(la), math.sin(la)])
    _shadow(tex, frame, np.vstack([base, cast]), 0.5)
    body = tuple(float(v) for v in rng.choice([[28, 28, 30], [45, 42, 40], [20, 25, 60], [60, 60, 62]]))
    cv2.fillConvexPoly(tex, cv2.convexHull(_tex(frame, np.vstack([base, top]))),
                       tuple(v * 0.6 for v in body), cv2.LINE_AA, 4)
    cv2.fillConvexPoly(tex, _tex(frame, top), body, cv2.LINE_AA, 4)
    # display window and the two buttons on the top face
    centre = top.mean(axis=0)
    along = (top[1] - top[0]) / max(1e-6, float(np.linalg.norm(top[1] - top[0])))
    across = (top[3] - top[0]) / max(1e-6, float(np.linalg.norm(top[3] - top[0])))
    tl = float(np.linalg.norm(top[1] - top[0]))
    tw = float(np.linalg.norm(top[3] - top[0]))
    display = np.array([centre + along * a * tl * 0.3 + across * b * tw * 0.18
                        for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    cv2.fillConvexPoly(tex, _tex(frame, display), (150.0, 168.0, 150.0), cv2.LINE_AA, 4)
    for k in (-1, 1):
        digits = np.array([centre + along * (k * 0.15 + a * 0.1) * tl + across * b * tw * 0.1
                           for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
        cv2.fillConvexPoly(tex, _tex(frame, digits), (40.0, 50.0, 40.0), cv2.LINE_AA, 4)
        button = centre + along * k * tl * 0.36 + across * tw * 0.12
        r = max(1, round(0.2 * width * frame.scale * _F))
        colour = (60.0, 60.0, 200.0) if k < 0 else (200.0, 200.0, 200.0)
        u, v = _tex(frame, button[None, :])[0]
        cv2.circle(tex, (int(u), int(v)), r, colour, -1, cv2.LINE_AA, 4)


def draw_sheet(rng: np.random.Generator, tex: np.ndarray, frame: TextureFrame, style: ViewStyle, red: bool) -> None:
    """A score sheet in front of one player: ruled paper with a header box and handwriting-like strokes."""
    _, y0, _, y1 = board_extent(style)
    w, h = rng.uniform(3.0, 3.6), rng.uniform(4.2, 5.0)
    cx = rng.uniform(0.5, 7.5)
    cy = (y0 - 0.5 - h / 2) if red else (y1 + 0.5 + h / 2)
    angle = math.radians(rng.normal(0.0, 12.0) + (0.0 if red else 180.0))
    corners = _rect(cx, cy, w, h, angle)
    _shadow(tex, frame, corners + 0.04, 0.25)
    paper = tuple(float(v) for v in np.clip(np.array([232, 238, 240]) + rng.normal(0, 6, 3), 0, 255))
    cv2.fillConvexPoly(tex, _tex(frame, corners), paper, cv2.LINE_AA, 4)
    c, s = math.cos(angle), math.sin(angle)
    rot = np.array([[c, s], [-s, c]])

    def local(pts: np.ndarray | list[list[float]]) -> np.ndarray:
        return np.asarray(pts, float) @ rot + (cx, cy)

    rule = (170.0, 150.0, 140.0)
    thick = 1
    header = local([[-w * 0.45, h * 0.42], [w * 0.45, h * 0.42], [w * 0.45, h * 0.3], [-w * 0.45, h * 0.3]])
    cv2.polylines(tex, [_tex(frame, header)], True, rule, thick, cv2.LINE_AA, 4)
    rows = 16
    for i in range(rows + 1):
        y = h * 0.26 - i * (h * 0.66 / rows)
        a, b = _tex(frame, local([[-w * 0.45, y], [w * 0.45, y]]))
        cv2.line(tex, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), rule, thick, cv2.LINE_AA, 4)
    for x in (-0.3, 0.0, 0.3):
        a, b = _tex(frame, local([[x * w, h * 0.26], [x * w, h * 0.26 - h * 0.66]]))
        cv2.line(tex, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), rule, thick, cv2.LINE_AA, 4)
    ink = (120.0, 40.0, 20.0) if rng.random() < 0.6 else (30.0, 30.0, 30.0)
    filled = int(rng.integers(0, rows))
    for i in range(filled):
        y = h * 0.26 - (i + 0.5) * (h * 0.66 / rows)
        for col in (-0.3, 0.0):
            xs = col * w + 0.06 + np.sort(rng.uniform(0, w * 0.2, 4))
            ys = y + rng.normal(0, h * 0.005, 4)
            cv2.polylines(tex, [_tex(frame, local(np.column_stack([xs, ys])))], False, ink, 1, cv2.LINE_AA, 4)


def draw_pen(rng: np.random.Generator, tex: np.ndarray, frame: TextureFrame, style: ViewStyle) -> None:
    """A pen lying on the table in front of red or black."""
    _, y0, _, y1 = board_extent(style)
    y = (y0 - rng.uniform(0.6, 3.5)) if rng.random() < 0.5 else (y1 + rng.uniform(0.6, 3.5))
    x = rng.uniform(-2.0, 10.0)
    a = rng.uniform(0, math.pi)
    half = rng.uniform(1.2, 1.6) * np.array([math.cos(a), math.sin(a)])
    ends = _tex(frame, np.array([[x, y] - half, [x, y] + half]))
    colour = tuple(float(v) for v in rng.choice([[30, 30, 30], [150, 60, 20], [30, 30, 160], [220, 220, 220]]))
    width = max(1, round(0.18 * frame.scale))
    p, q = (int(ends[0][0]), int(ends[0][1])), (int(ends[1][0]), int(ends[1][1]))
    cv2.line(tex, p, q, tuple(c * 0.7 for c in colour), width, cv2.LINE_AA, 4)
    # a rounded barrel catches a line of light along its length
    cv2.line(tex, p, q, tuple(min(255.0, c * 1.2 + 40) for c in colour), max(1, width // 3), cv2.LINE_AA, 4)


def draw_props(rng: np.random.Generator, tex: np.ndarray, frame: TextureFrame, style: ViewStyle,
               camera_centre: tuple[float, float, float]) -> None:
    """The clock, score sheets and pen the style asks for (``style.props``), onto the table texture."""
    if not style.props:
        return
    for red in (True, False):
        if rng.random() < 0.7:
            draw_sheet(rng, tex, frame, style, red)
    if rng.random() < 0.5:
        draw_pen(rng, tex, frame, style)
    if rng.random() < 0.8:
        draw_clock(rng, tex, frame, style, camera_centre)
