"""The board drawn in its own plane: table, board surface and edge, grid lines, palaces,
cross marks, river text, folds.

Everything is drawn into a texture whose pixels map linearly to board units (a
:class:`TextureFrame`), so one perspective warp later puts it in the camera image. Grid and
border lines are rasterised analytically (exact area coverage) so their centres sit exactly on
the board points the truth reports.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

import cv2
import numpy as np

from synth import blend, textures
from synth.fonts import glyph_mask
from synth.style import RIVER_TEXTS, ViewStyle

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TextureFrame:
    """Texture pixel ``(u, v) = ((x - x0) * scale, (y_top - y) * scale)`` for board point ``(x, y)``."""

    x0: float
    y_top: float
    scale: float
    width: int
    height: int

    @property
    def matrix(self) -> np.ndarray:
        """3x3 affine map from board units to texture pixels."""
        s = self.scale
        return np.array([[s, 0, -self.x0 * s], [0, -s, self.y_top * s], [0, 0, 1]], float)

    def to_tex(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.x0) * self.scale, (self.y_top - y) * self.scale


def board_extent(style: ViewStyle) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of the board's outer edge in board units."""
    m = style.margin
    return (-m, -m, 8.0 + m, 9.0 + m)


def _coverage_1d(stop: int, centre: float, width: float, start: int = 0) -> np.ndarray:
    """Exact area coverage (0..1) of pixels ``start..stop-1`` by a band ``width`` wide centred at ``centre``."""
    idx = np.arange(start, stop, dtype=np.float32)
    lo = np.clip(idx + 0.5 - (centre - width / 2), 0, 1)
    hi = np.clip((centre + width / 2) - (idx - 0.5), 0, 1)
    return np.clip(lo + hi - 1, 0, 1)


def _hline(ink: np.ndarray, v: float, u0: float, u1: float, width: float) -> None:
    """Axis-aligned horizontal band from ``u0`` to ``u1`` at row ``v`` (texture pixels)."""
    r0, r1 = max(0, int(math.floor(v - width / 2 - 1))), min(ink.shape[0], int(math.ceil(v + width / 2 + 2)))
    c0, c1 = max(0, int(math.floor(u0 - 1))), min(ink.shape[1], int(math.ceil(u1 + 2)))
    if r0 >= r1 or c0 >= c1:
        return
    rows = _coverage_1d(r1, v, width, r0)
    cols = _coverage_1d(c1, (u0 + u1) / 2, u1 - u0, c0)
    np.maximum(ink[r0:r1, c0:c1], rows[:, None] * cols[None, :], out=ink[r0:r1, c0:c1])


def _vline(ink: np.ndarray, u: float, v0: float, v1: float, width: float) -> None:
    _hline(ink.T, u, v0, v1, width)


def _seg(layer: np.ndarray, p: tuple[float, float], q: tuple[float, float], width: float) -> None:
    """A line segment at any angle, anti-aliased, onto ``layer`` (palace diagonals and marks)."""
    shift = 4
    f = 1 << shift
    cv2.line(
        layer, (round(p[0] * f), round(p[1] * f)), (round(q[0] * f), round(q[1] * f)), 1.0,
        max(1, round(width)), cv2.LINE_AA, shift,
    )


def _stamp(ink: np.ndarray, mask: np.ndarray, cu: float, cv: float, angle_deg: float) -> None:
    """Put a glyph ``mask`` centred at texture point ``(cu, cv)``, rotated by ``angle_deg``."""
    h, w = mask.shape
    m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), angle_deg, 1.0)
    m[0, 2] += cu - (w - 1) / 2
    m[1, 2] += cv - (h - 1) / 2
    side = int(max(h, w) * 1.5) + 2
    u0, v0 = int(cu) - side // 2, int(cv) - side // 2
    m[0, 2] -= u0
    m[1, 2] -= v0
    layer = cv2.warpAffine(mask, m, (side, side), flags=cv2.INTER_LINEAR)
    a0, b0 = max(0, v0), max(0, u0)
    a1, b1 = min(ink.shape[0], v0 + side), min(ink.shape[1], u0 + side)
    if a0 >= a1 or b0 >= b1:
        return
    np.maximum(ink[a0:a1, b0:b1], layer[a0 - v0 : a1 - v0, b0 - u0 : b1 - u0], out=ink[a0:a1, b0:b1])


def draw_ink(frame: TextureFrame, style: ViewStyle) -> np.ndarray:
    """The ink layer (0..1 coverage) of grid, border, palaces, cross marks and river text."""
    ink = np.zeros((frame.height, frame.width), np.float32)
    s = frame.scale
    lw = max(0.8, style.line_width * s)
    t = frame.to_tex
    for rank in range(10):
        u0, v = t(0.0, rank)
        u1, _ = t(8.0, rank)
        _hline(ink, v, u0 - lw / 2, u1 + lw / 2, lw)
    for file in range(9):
        u, _ = t(file, 0.0)
        if file in (0, 8):
            _vline(ink, u, t(0, 9.0)[1] - lw / 2, t(0, 0.0)[1] + lw / 2, lw)
        else:
            _vline(ink, u, t(0, 9.0)[1] - lw / 2, t(0, 5.0)[1] + lw / 2, lw)
            _vline(ink, u, t(0, 4.0)[1] - lw / 2, t(0, 0.0)[1] + lw / 2, lw)
    # outer border: a heavier frame a little outside the grid
    g = style.border_gap
    bw = max(0.5, style.border_width * s)
    _frame(ink, frame, g, bw)
    if style.border_double:  # a second, thin frame just outside the heavy one
        _frame(ink, frame, g + style.border_width / 2 + 0.07, lw)
    layer = np.zeros_like(ink)
    for r0 in (0, 7):
        _seg(layer, t(3, r0), t(5, r0 + 2), lw)
        _seg(layer, t(5, r0), t(3, r0 + 2), lw)
    if style.cross_marks:
        _cross_marks(layer, frame, lw)
    if lw < 1:
        layer *= lw
    np.maximum(ink, layer, out=ink)
    _river_text(ink, frame, style)
    if style.file_numbers:
        _file_numbers(ink, frame, style)
    return ink


def _frame(ink: np.ndarray, frame: TextureFrame, gap: float, width_px: float) -> None:
    """A rectangle ``gap`` units outside the grid, lines ``width_px`` wide."""
    (u0, v0), (u1, v1) = frame.to_tex(-gap, 9 + gap), frame.to_tex(8 + gap, -gap)
    half = width_px / 2
    _hline(ink, v0, u0 - half, u1 + half, width_px)
    _hline(ink, v1, u0 - half, u1 + half, width_px)
    _vline(ink, u0, v0 - half, v1 + half, width_px)
    _vline(ink, u1, v0 - half, v1 + half, width_px)


def _cross_marks(ink: np.ndarray, frame: TextureFrame, lw: float) -> None:
    """The L-shaped marks around cannon and soldier points (not on the side facing the board edge)."""
    points = [(1, 2), (7, 2), (1, 7), (7, 7)] + [(f, r) for f in (0, 2, 4, 6, 8) for r in (3, 6)]
    gap, arm = 0.08, 0.2
    for f, r in points:
        for sx in (-1, 1):
            if not 0 <= f + sx <= 8:
                continue
            for sy in (-1, 1):
                cx, cy = f + sx * gap, r + sy * gap
                corner = frame.to_tex(cx, cy)
                _seg(ink, corner, frame.to_tex(cx + sx * arm, cy), lw)
                _seg(ink, corner, frame.to_tex(cx, cy + sy * arm), lw)


def _river_text(ink: np.ndarray, frame: TextureFrame, style: ViewStyle) -> None:
    left, right = RIVER_TEXTS[style.river_script]
    size = max(6, round(0.62 * frame.scale))
    simplified = style.river_script == "simplified"
    for text, x_mid, facing_black in ((left, 2.0, False), (right, 6.0, style.river_facing == "both")):
        chars = text if not facing_black else text[::-1]
        for i, ch in enumerate(chars):
            x = x_mid + (i - 0.5) * 1.1
            cu, cv = frame.to_tex(x, 4.5)
            _stamp(ink, glyph_mask(style.river_font, ch, size, simplified), cu, cv, 180.0 if facing_black else 0.0)


FILE_NUMERALS = ("123456789", "九八七六五四三二一")  # black's files from black's right, red's from red's right


def _file_numbers(ink: np.ndarray, frame: TextureFrame, style: ViewStyle) -> None:
    """The file numbers most printed boards carry between the border and the edge, each side's
    facing its player: Arabic for black above rank 9, Chinese for red below rank 0."""
    frame_out = style.border_gap + style.border_width / 2  # the frame's outer edge, beyond the grid
    if style.border_double:  # and the thin second frame drawn just outside it
        frame_out += 0.07 + style.line_width
    strip = style.margin - frame_out  # room between the frame and the board's edge
    if strip < 0.2:
        return
    size = max(5, round(min(0.5, 0.7 * strip) * frame.scale))
    away = frame_out + strip / 2
    simplified = style.river_script == "simplified"
    for x in range(9):
        cu, cv = frame.to_tex(x, 9 + away)
        _stamp(ink, glyph_mask(style.river_font, FILE_NUMERALS[0][x], size, simplified), cu, cv, 180.0)
        cu, cv = frame.to_tex(x, -away)
        _stamp(ink, glyph_mask(style.river_font, FILE_NUMERALS[1][x], size, simplified), cu, cv, 0.0)


def _folds(rng: np.random.Generator, field: np.ndarray, frame: TextureFrame, style: ViewStyle) -> None:
    """Fold creases of a plastic or paper sheet: a narrow bright/dark ridge across the sheet."""
    x0, y0, x1, y1 = board_extent(style)
    for i in range(style.folds):
        vertical = (i % 2 == 0) == bool(rng.random() < 0.5)
        pos = rng.uniform(0.3, 0.7)
        width = max(1.5, 0.06 * frame.scale)
        amp = float(rng.uniform(0.05, 0.12))
        if vertical:
            u, _ = frame.to_tex(x0 + pos * (x1 - x0), 0)
            d = np.arange(field.shape[1], dtype=np.float32) - u
            ridge = amp * np.tanh(d / width) * np.exp(-((d / (3 * width)) ** 2))
            field += ridge[None, :]
        else:
            _, v = frame.to_tex(0, y0 + pos * (y1 - y0))
            d = np.arange(field.shape[0], dtype=np.float32) - v
            ridge = amp * np.tanh(d / width) * np.exp(-((d / (3 * width)) ** 2))
            field += ridge[:, None]


def _wear(rng: np.random.Generator, field: np.ndarray, scale: float, wear: float) -> None:
    """Stains and grime of a board in use: soft darker blotches where a noise field runs high,
    and a faint darkening toward the players' edges where hands rest."""
    h, w = field.shape
    blotch = textures.smooth_noise(rng, h, w, max(4.0, scale * rng.uniform(0.6, 1.5)))
    field -= wear * 0.12 * np.clip((blotch - 0.72) / 0.28, 0, 1)
    ys = np.linspace(-1.0, 1.0, h, dtype=np.float32)
    field -= (wear * 0.04 * ys**4)[:, None]


def render_static(
    rng: np.random.Generator, frame: TextureFrame, style: ViewStyle, camera_centre: tuple[float, float, float]
) -> np.ndarray:
    """Table, board (with its visible edge and shadow), ink and folds as a float32 BGR texture."""
    s = frame.scale
    tex = textures.table(rng, frame.height, frame.width, style.table_material, style.table_colour, s)
    x0, y0, x1, y1 = board_extent(style)
    (bu0, bv0), (bu1, bv1) = frame.to_tex(x0, y1), frame.to_tex(x1, y0)
    # the board's drop shadow on the table
    la = math.radians(style.light_azimuth_deg)
    reach = (style.board_thickness + 0.05) / math.tan(math.radians(style.light_elevation_deg))
    du, dv = -math.cos(la) * reach * s, math.sin(la) * reach * s
    f = 16
    k = int(max(3, 0.25 * s)) | 1
    pad = k + 2
    sr0, sr1 = max(0, int(min(bv0, bv0 + dv)) - pad), min(frame.height, int(max(bv1, bv1 + dv)) + pad)
    sc0, sc1 = max(0, int(min(bu0, bu0 + du)) - pad), min(frame.width, int(max(bu1, bu1 + du)) + pad)
    shadow = np.zeros((sr1 - sr0, sc1 - sc0), np.float32)
    rect = np.array([[bu0 + du, bv0 + dv], [bu1 + du, bv0 + dv], [bu1 + du, bv1 + dv], [bu0 + du, bv1 + dv]])
    rect -= (sc0, sr0)
    cv2.fillConvexPoly(shadow, np.round(rect * f).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    soft = cv2.GaussianBlur(shadow, (k, k), 0)
    shadowed = tex[sr0:sr1, sc0:sc1]
    blend.scale(shadowed, 1.0 - 0.45 * soft)
    # the board's side edge seen under perspective: its bottom outline projected onto the top plane
    if style.board_thickness > 0.02:
        cx, cy, cz = camera_centre
        fz = cz / (cz + style.board_thickness)
        bottom = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)
        proj = np.array([cx, cy]) + (bottom - np.array([cx, cy])) * fz
        poly = np.array([frame.to_tex(px, py) for px, py in proj])
        top = np.array([[bu0, bv0], [bu1, bv0], [bu1, bv1], [bu0, bv1]])
        hull = cv2.convexHull(np.round(np.vstack([poly, top]) * f).astype(np.int32))
        edge_colour = tuple(float(c) * 0.55 for c in style.board_colour)
        cv2.fillConvexPoly(tex, hull, edge_colour, cv2.LINE_AA, 4)
    # board surface
    r0, r1 = max(0, int(math.floor(bv0))), min(frame.height, int(math.ceil(bv1)) + 1)
    c0, c1 = max(0, int(math.floor(bu0))), min(frame.width, int(math.ceil(bu1)) + 1)
    surf = textures.surface(rng, r1 - r0, c1 - c0, style.board_material, style.board_colour, s)
    field = np.ones((r1 - r0, c1 - c0), np.float32)
    sub = TextureFrame(frame.x0 + c0 / s, frame.y_top - r0 / s, s, c1 - c0, r1 - r0)
    if style.folds:
        _folds(rng, field, sub, style)
    if style.wear > 0:
        _wear(rng, field, s, style.wear)
    if style.folds or style.wear > 0:
        blend.scale(surf, field)
    cover = np.outer(_coverage_1d(r1, (bv0 + bv1) / 2, bv1 - bv0, r0), _coverage_1d(c1, (bu0 + bu1) / 2, bu1 - bu0, c0))
    region = tex[r0:r1, c0:c1]
    blend.lerp(region, surf, cover)
    # ink, with a little unevenness in how it took
    ink_r = draw_ink(sub, style)
    ink_r *= 0.85 + 0.15 * textures.smooth_noise(rng, r1 - r0, c1 - c0, max(3.0, s * 0.3))
    blend.lerp(region, style.line_colour, ink_r)
    return tex
