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

from synth import blend, textures
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
    """Draws the pieces of one scene.

    Each piece kind's top face (grain, ring, carved or printed character) is rendered once per
    scene as an upright BGRA sprite; a piece is then one rotated, scaled, sub-pixel placed warp
    of its sprite times a bevel/highlight map that stays fixed to the light, plus its side wall.
    """

    def __init__(self, style: ViewStyle, frame: TextureFrame, camera_centre: tuple[float, float, float],
                 rng: np.random.Generator) -> None:
        self.style = style
        self.frame = frame
        self.camera_centre = camera_centre
        self.chars = character_set(style, rng)
        self.radius_px = style.piece_radius * frame.scale
        cz = camera_centre[2]
        self.sprite_radius = self.radius_px * cz / (cz - style.piece_height)
        self.half = int(math.ceil(self.sprite_radius * 1.05)) + 3
        self.size = 2 * self.half + 1
        size = self.size
        if style.piece_face == "wood":
            self.grain = textures.wood(rng, size * 4, size * 4, style.piece_colour, frame.scale * 0.6,
                                       angle_deg=float(rng.uniform(0, 180)), contrast=0.16)
        else:
            n = textures.smooth_noise(rng, size * 4, size * 4, 2.0)
            self.grain = blend.tint(style.piece_colour, 1.0 - 0.03 * (n - 0.5))
        la = math.radians(style.light_azimuth_deg)
        self.light_dir = (math.cos(la), -math.sin(la))  # in texture axes (v points down)
        self._rng = rng
        ys, xs = np.mgrid[0:size, 0:size].astype(np.float32) - self.half
        self._dx, self._dy = xs, ys
        self._d = np.sqrt(xs * xs + ys * ys)
        self._sprites: dict[str, np.ndarray] = {}
        self.shade = self._shade_map()

    def _shade_map(self) -> np.ndarray:
        """Bevel and gloss, fixed to the light direction: a multiplier per sprite pixel."""
        r, d = self.sprite_radius, self._d
        bevel_w = max(1.2, 0.14 * r)
        e = np.clip((d - (r - bevel_w)) / bevel_w, 0, 1)
        lx, ly = self.light_dir
        facing = (self._dx * lx + self._dy * ly) / np.maximum(d, 1e-3)
        shade = 1.0 + e * (0.28 * facing - 0.12)
        if self.style.piece_face == "plastic":
            hx, hy = self._dx - 0.35 * lx * r, self._dy - 0.35 * ly * r
            shade += 0.3 * np.exp(-(hx * hx + hy * hy) / (0.15 * r * r))
        elif self.style.piece_face == "bone":
            shade += 0.08 * np.exp(-(self._dx**2 + self._dy**2) / (0.5 * r * r))
        return shade.astype(np.float32)

    def sprite(self, letter: str) -> np.ndarray:
        """The upright top face of ``letter`` as float32 BGRA (alpha = the disc)."""
        cached = self._sprites.get(letter)
        if cached is not None:
            return cached
        st, r, d, size = self.style, self.sprite_radius, self._d, self.size
        gy, gx = self._rng.integers(0, self.grain.shape[0] - size, 2)
        face = self.grain[gy:gy + size, gx:gx + size].copy()
        ink_colour = np.asarray(st.red_ink if letter.isupper() else st.black_ink, np.float32)
        strength = float(self._rng.uniform(0.8, 0.97))  # paint worn or thin on some kinds
        ink = np.zeros((size, size), np.float32)
        if st.ring:
            ring_w = max(0.7, 0.05 * r)
            ink = np.maximum(ink, np.clip(ring_w / 2 + 0.5 - np.abs(d - 0.8 * r), 0, 1))
            if st.double_ring:  # a thin second ring just inside the rim
                thin = max(0.6, 0.03 * r)
                ink = np.maximum(ink, np.clip(thin / 2 + 0.5 - np.abs(d - 0.88 * r), 0, 1))
        glyph_px = max(5, round(r * (1.28 if st.ring else 1.5)))
        glyph = glyph_mask(st.font, self.chars[letter], glyph_px, st.charset == "simplified")
        gh, gw = glyph.shape
        m = np.array([[1, 0, self.half - (gw - 1) / 2], [0, 1, self.half - (gh - 1) / 2]], np.float32)
        ink = np.maximum(ink, cv2.warpAffine(glyph, m, (size, size), flags=cv2.INTER_LINEAR))
        if st.carved:
            # a carved groove: its upper wall in shadow, the lower one catching light
            shifted = np.roll(ink, 1, axis=0)
            wall_dark = np.clip(ink - shifted, 0, 1)
            wall_lit = np.clip(shifted - ink, 0, 1)
            blend.scale(face, 1.0 - 0.3 * wall_lit)
            blend.lerp(face, ink_colour * 0.8, strength * ink)
            blend.scale(face, 1.0 - 0.25 * wall_dark)
        else:
            blend.lerp(face, ink_colour, strength * ink)
        alpha = np.clip(r - d + 0.5, 0, 1)
        out = np.dstack([face, alpha]).astype(np.float32)
        self._sprites[letter] = out
        return out

    def _top(self, x: float, y: float, h: float) -> tuple[float, float, float]:
        cx, cy, cz = self.camera_centre
        f = cz / (cz - h)
        return cx + (x - cx) * f, cy + (y - cy) * f, f

    def draw_shadows(self, tex: np.ndarray, pieces: list[tuple[float, float, Placement]]) -> None:
        """Soft shadows cast by all pieces onto the board, darkening the texture in place."""
        if not pieces:
            return
        st, s = self.style, self.frame.scale
        reach = 0.55 * st.piece_height / math.tan(math.radians(st.light_elevation_deg))
        lx, ly = self.light_dir
        centres = []
        for x, y, p in pieces:
            u, v = self.frame.to_tex(x, y)
            centres.append((u - lx * (reach + p.lift) * s, v - ly * (reach + p.lift) * s))
        k = int(max(3, 0.22 * s)) | 1
        pad = int(self.radius_px * 1.1) + k + 2
        arr = np.asarray(centres)
        r0, r1 = max(0, int(arr[:, 1].min()) - pad), min(tex.shape[0], int(arr[:, 1].max()) + pad)
        c0, c1 = max(0, int(arr[:, 0].min()) - pad), min(tex.shape[1], int(arr[:, 0].max()) + pad)
        if r0 >= r1 or c0 >= c1:
            return
        mask = np.zeros((r1 - r0, c1 - c0), np.float32)
        f = 16
        rad = round(self.radius_px * 1.02 * f)
        for u, v in centres:
            cv2.circle(mask, (round((u - c0) * f), round((v - r0) * f)), rad, 1.0, -1, cv2.LINE_AA, 4)
        soft = cv2.GaussianBlur(mask, (k, k), 0)
        region = tex[r0:r1, c0:c1]
        blend.scale(region, 1.0 - 0.5 * soft)

    def draw(self, tex: np.ndarray, pieces: list[tuple[float, float, Placement]]) -> None:
        """Draw each piece (base centre ``x, y`` in board units) onto the texture, far ones first."""
        cx, cy, _ = self.camera_centre
        order = sorted(pieces, key=lambda item: -math.hypot(item[0] - cx, item[1] - cy))
        for x, y, p in order:
            self._draw_one(tex, x, y, p)

    def _draw_one(self, tex: np.ndarray, x: float, y: float, p: Placement) -> None:
        st, frame = self.style, self.frame
        top_x, top_y, fz = self._top(x, y, p.lift + st.piece_height)
        bx, by, fb = self._top(x, y, p.lift)
        r_top = self.radius_px * fz
        r_base = self.radius_px * fb
        bu, bv = frame.to_tex(bx, by)
        tu, tv = frame.to_tex(top_x, top_y)
        # side wall: the hull of the base and top circles
        pts = np.vstack([_RING * r_base + (bu, bv), _RING * r_top + (tu, tv)])
        hull = cv2.convexHull(np.round(pts * 16).astype(np.int32))
        dim = 0.62 if st.piece_face == "wood" else 0.8
        cv2.fillConvexPoly(tex, hull, tuple(float(c) * dim for c in st.piece_colour), cv2.LINE_AA, 4)
        # the lower half of the wall is darker (it faces down and away from the light)
        mu, mv = (bu + tu) / 2, (bv + tv) / 2
        r_mid = (r_base + r_top) / 2
        low = np.vstack([_RING * r_base + (bu, bv), _RING * r_mid + (mu, mv)])
        hull = cv2.convexHull(np.round(low * 16).astype(np.int32))
        cv2.fillConvexPoly(tex, hull, tuple(float(c) * dim * 0.78 for c in st.piece_colour), cv2.LINE_AA, 4)
        # top face: the sprite rotated about its centre, scaled and placed at (tu, tv)
        half, size = self.half, self.size
        u0, v0 = int(math.floor(tu)) - half, int(math.floor(tv)) - half
        a0, b0 = max(0, v0), max(0, u0)
        a1, b1 = min(tex.shape[0], v0 + size), min(tex.shape[1], u0 + size)
        if a0 >= a1 or b0 >= b1:
            return
        m = cv2.getRotationMatrix2D((float(half), float(half)), p.rotation, r_top / self.sprite_radius)
        m[0, 2] += tu - u0 - half
        m[1, 2] += tv - v0 - half
        face = cv2.warpAffine(self.sprite(p.letter), m, (size, size), flags=cv2.INTER_LINEAR)
        t = np.array([[1, 0, tu - u0 - half], [0, 1, tv - v0 - half]], np.float32)
        shade = cv2.warpAffine(self.shade, t, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        sub = (slice(a0 - v0, a1 - v0), slice(b0 - u0, b1 - u0))
        rgb = face[sub][..., :3].copy()
        blend.scale(rgb, shade[sub] * _piece_tone(p.letter, x, y))
        blend.lerp(tex[a0:a1, b0:b1], rgb, face[sub][..., 3])


def _piece_tone(letter: str, x: float, y: float) -> float:
    """A stable brightness factor (0.95-1.05) per piece and place: no two discs are quite alike."""
    h = math.sin(round(x) * 12.9898 + round(y) * 78.233 + ord(letter) * 3.71) * 43758.5453
    return 0.95 + 0.1 * (h - math.floor(h))


_ANGLES = np.linspace(0, 2 * np.pi, 32, endpoint=False)
_RING = np.column_stack([np.cos(_ANGLES), np.sin(_ANGLES)])
