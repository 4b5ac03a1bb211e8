"""Xiangqi pieces drawn into the board texture: a disc with thickness, bevel shading, a soft
shadow, a ring and a carved or printed character.

The disc is a short cylinder standing on the board. Its top face, seen from the camera, lands on
the board plane scaled by ``cz / (cz - h)`` about the camera's foot point, so drawing the top
face there (and the side wall as the hull between base and top) gives the right thickness under
perspective with the single board warp that follows.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

import cv2
import numpy as np

from synth import textures
from synth.board import TextureFrame
from synth.fonts import glyph_mask
from synth.style import ViewStyle

log = logging.getLogger(__name__)

CHARACTERS = {
    "traditional": {"K": "帥", "A": "仕", "B": "相", "N": "傌", "R": "俥", "C": "炮", "P": "兵",
                    "k": "將", "a": "士", "b": "象", "n": "馬", "r": "車", "c": "砲", "p": "卒"},
    "simplified": {"K": "帅", "A": "仕", "B": "相", "N": "马", "R": "车", "C": "炮", "P": "兵",
                   "k": "将", "a": "士", "b": "象", "n": "马", "r": "车", "c": "炮", "p": "卒"},
}
# Variants seen on real sets, chosen per scene: red chariot/horse as 車/馬, black cannon as 包.
VARIANTS = {"traditional": {"R": "車", "N": "馬", "c": "包"}, "simplified": {"c": "包"}}


@dataclass(frozen=True)
class Placement:
    """A piece on a point: FEN ``letter``, ``rotation`` in degrees (counter-clockwise seen from
    above; 0 = upright for red), ``offset`` from the point in grid units (+x toward file i,
    +y toward rank 9), ``lift`` in grid units above the board (a piece being moved)."""

    letter: str
    rotation: float = 0.0
    offset: tuple[float, float] = (0.0, 0.0)
    lift: float = 0.0


def character_set(style: ViewStyle, rng: np.random.Generator) -> dict[str, str]:
    """The characters of one set, with the style's script and a random choice of common variants."""
    chars = dict(CHARACTERS[style.charset])
    for letter, variant in VARIANTS[style.charset].items():
        if rng.random() < 0.35:
            chars[letter] = variant
    return chars


class PieceArtist:
    """Draws the pieces of one scene; caches glyphs, the face grain and local pixel grids."""

    def __init__(self, style: ViewStyle, frame: TextureFrame, camera_centre: tuple[float, float, float],
                 rng: np.random.Generator) -> None:
        self.style = style
        self.frame = frame
        self.camera_centre = camera_centre
        self.chars = character_set(style, rng)
        self.radius_px = style.piece_radius * frame.scale
        self.glyph_px = max(5, round(self.radius_px * (1.12 if style.ring else 1.3)))
        size = int(self.radius_px * 2.6) + 6
        if style.piece_face == "wood":
            self.grain = textures.wood(rng, size * 3, size * 3, style.piece_colour, frame.scale * 0.6,
                                       angle_deg=float(rng.uniform(0, 180)), contrast=0.18)
        else:
            n = textures.smooth_noise(rng, size * 3, size * 3, 2.0)
            self.grain = textures._tint(style.piece_colour, 1.0 - 0.03 * (n - 0.5))
        la = math.radians(style.light_azimuth_deg)
        self.light_dir = (math.cos(la), -math.sin(la))  # in texture axes (v points down)
        self._rng = rng

    def _top(self, x: float, y: float, h: float) -> tuple[float, float, float]:
        cx, cy, cz = self.camera_centre
        f = cz / (cz - h)
        return cx + (x - cx) * f, cy + (y - cy) * f, f

    def draw_shadows(self, tex: np.ndarray, pieces: list[tuple[float, float, Placement]]) -> None:
        """Soft shadows cast by all pieces onto the board, darkening the texture in place."""
        if not pieces:
            return
        st, s = self.style, self.frame.scale
        mask = np.zeros(tex.shape[:2], np.float32)
        reach = 0.55 * st.piece_height / math.tan(math.radians(st.light_elevation_deg))
        f = 16
        for x, y, p in pieces:
            lx, ly = self.light_dir
            u, v = self.frame.to_tex(x, y)
            u -= lx * (reach + p.lift) * s
            v -= ly * (reach + p.lift) * s
            cv2.circle(mask, (round(u * f), round(v * f)), round(self.radius_px * 1.02 * f), 1.0, -1, cv2.LINE_AA, 4)
        k = int(max(3, 0.22 * s)) | 1
        soft = cv2.GaussianBlur(mask, (k, k), 0)
        tex *= (1.0 - 0.5 * soft)[..., None]

    def draw(self, tex: np.ndarray, pieces: list[tuple[float, float, Placement]]) -> None:
        """Draw each piece (base centre ``x, y`` in board units) onto the texture, far ones first."""
        cx, cy, _ = self.camera_centre
        order = sorted(pieces, key=lambda item: -math.hypot(item[0] - cx, item[1] - cy))
        for x, y, p in order:
            self._draw_one(tex, x, y, p)

    def _draw_one(self, tex: np.ndarray, x: float, y: float, p: Placement) -> None:
        st, frame = self.style, self.frame
        base_h = p.lift
        top_x, top_y, fz = self._top(x, y, base_h + st.piece_height)
        bx, by, fb = self._top(x, y, base_h)
        r_top = self.radius_px * fz
        r_base = self.radius_px * fb
        bu, bv = frame.to_tex(bx, by)
        tu, tv = frame.to_tex(top_x, top_y)
        red = p.letter.isupper()
        # side wall: the hull of the base and top circles
        angles = np.linspace(0, 2 * np.pi, 40, endpoint=False)
        ring = np.column_stack([np.cos(angles), np.sin(angles)])
        pts = np.vstack([ring * r_base + (bu, bv), ring * r_top + (tu, tv)])
        hull = cv2.convexHull(np.round(pts * 16).astype(np.int32))
        side = tuple(float(c) * 0.62 for c in st.piece_colour)
        cv2.fillConvexPoly(tex, hull, side, cv2.LINE_AA, 4)
        # top face patch
        half = int(r_top) + 3
        u0, v0 = int(math.floor(tu)) - half, int(math.floor(tv)) - half
        size = 2 * half + 1
        a0, b0 = max(0, v0), max(0, u0)
        a1, b1 = min(tex.shape[0], v0 + size), min(tex.shape[1], u0 + size)
        if a0 >= a1 or b0 >= b1:
            return
        ys, xs = np.mgrid[v0:v0 + size, u0:u0 + size].astype(np.float32)
        dx, dy = xs - tu, ys - tv
        d = np.sqrt(dx * dx + dy * dy)
        alpha = np.clip(r_top - d + 0.5, 0, 1)
        gy, gx = self._rng.integers(0, self.grain.shape[0] - size, 2)
        face = self.grain[gy:gy + size, gx:gx + size].copy()
        # bevel: the rim catches light on one side and falls off on the other
        bevel_w = max(1.2, 0.14 * r_top)
        e = np.clip((d - (r_top - bevel_w)) / bevel_w, 0, 1)
        lx, ly = self.light_dir
        facing = (dx * lx + dy * ly) / np.maximum(d, 1e-3)
        shade = 1.0 + e * (0.28 * facing - 0.12)
        if st.piece_face == "plastic":
            hl = np.exp(-(((dx - 0.35 * lx * r_top) ** 2 + (dy - 0.35 * ly * r_top) ** 2) / (0.18 * r_top * r_top)))
            face += (255.0 - face) * (0.25 * hl)[..., None]
        face *= shade[..., None]
        ink_colour = np.asarray(st.red_ink if red else st.black_ink, np.float32)
        ink = np.zeros((size, size), np.float32)
        if st.ring:
            rr = 0.8 * r_top
            ring_w = max(0.6, 0.05 * r_top)
            ink = np.maximum(ink, np.clip(ring_w / 2 + 0.5 - np.abs(d - rr), 0, 1))
        glyph = glyph_mask(st.font, self.chars[p.letter], self.glyph_px, st.charset == "simplified")
        gh, gw = glyph.shape
        m = cv2.getRotationMatrix2D(((gw - 1) / 2, (gh - 1) / 2), p.rotation, fz)
        m[0, 2] += tu - u0 - (gw - 1) / 2
        m[1, 2] += tv - v0 - (gh - 1) / 2
        g = cv2.warpAffine(glyph, m, (size, size), flags=cv2.INTER_LINEAR)
        ink = np.maximum(ink, g)
        if st.carved:
            # a carved groove: dark on the side toward the light, a faint highlight on the other
            sx, sy = round(lx), round(ly)
            shifted = np.roll(np.roll(ink, sy, axis=0), sx, axis=1)
            groove = np.clip(ink - shifted, 0, 1)
            lip = np.clip(shifted - ink, 0, 1)
            face *= (1.0 - 0.35 * lip)[..., None]
            face += (ink_colour * 0.8 - face) * (0.92 * ink)[..., None]
            face += (255.0 - face) * (0.12 * groove)[..., None]
        else:
            face += (ink_colour - face) * (0.95 * ink)[..., None]
        region = tex[a0:a1, b0:b1]
        sub = (slice(a0 - v0, a1 - v0), slice(b0 - u0, b1 - u0))
        region += (face[sub] - region) * alpha[sub][..., None]
