"""A player's hand and forearm seen from the camera above the board.

The hand is modelled in 3-D board units (1 = one grid spacing, z up): a forearm with a
sleeve, a palm, four bent fingers and a thumb, posed so the fingertips pinch a piece at a
given point and the arm runs back towards the player's shoulder. Every part is projected
with the scene's camera, so perspective is right; the parts are rasterised into a height
field whose slopes give the shading (soft rounded fingers with creases between them, a
cylindrical forearm), then skin tone, nails, skin texture and a soft shadow cast on the
board along the light direction are added. Drawing touches only the hand's bounding box.
"""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

log = logging.getLogger(__name__)

Projector = Callable[[np.ndarray], np.ndarray]
"""Maps board points ``(N, 3)`` (x, y, z in grid units) to final-image pixels ``(N, 2)``."""

# BGR skin tones from light to dark, and sleeve colours.
SKIN_TONES = ((168, 190, 236), (140, 172, 224), (120, 150, 205), (96, 128, 182), (70, 98, 150), (50, 70, 112))
SLEEVES = ((40, 40, 42), (150, 110, 60), (220, 220, 222), (60, 60, 140), (90, 120, 90),
           (130, 130, 128), (40, 60, 100), (170, 150, 120))

# The right hand, palm down, fingers pointing along +u, thumb on +v; (u, v, z) in grid units
# with the pinch point at the origin. Fingers are (knuckle, middle joint, tip, width).
_FINGERS = (
    ((-1.00, 0.33, 0.75), (-0.45, 0.26, 0.70), (0.10, 0.16, 0.28), 0.27),  # index
    ((-1.05, 0.06, 0.78), (-0.40, 0.02, 0.74), (0.22, -0.04, 0.30), 0.28),  # middle
    ((-1.00, -0.21, 0.74), (-0.45, -0.26, 0.68), (0.02, -0.30, 0.30), 0.26),  # ring
    ((-0.92, -0.45, 0.68), (-0.55, -0.50, 0.60), (-0.22, -0.52, 0.30), 0.22),  # little
)
_THUMB = ((-1.75, 0.45, 0.75), (-0.85, 0.62, 0.55), (-0.05, 0.40, 0.26), 0.31)
# The palm as a broad, flattened tube from the knuckles to the wrist: (u, v, z) axis and widths.
_PALM = (((-1.02, -0.05, 0.80), (-1.70, 0.02, 0.86), (-2.35, 0.0, 0.92)), (1.14, 1.12, 0.96))
_WRIST_U, _WRIST_W = -2.35, 0.98


@dataclass(frozen=True)
class HandLook:
    """How one person's hand looks: skin (BGR), sleeve (BGR), sizes and handedness."""

    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    size: float = 1.0
    left: bool = False

    @classmethod
    def pick(cls, skin: int, sleeve: int, size: float = 1.0) -> HandLook:
        """A look from the palette indices used in timelines."""
        return cls(SKIN_TONES[skin % len(SKIN_TONES)], SLEEVES[sleeve % len(SLEEVES)], size)


@dataclass(frozen=True)
class HandPose:
    """Where the hand is: pinch point (x, y) on the board, lift ``z`` (0 = touching), arm direction,
    and ``grip``: 1 = fingers closed round a piece, 0 = relaxed and open (reaching, leaving)."""

    x: float
    y: float
    z: float
    shoulder: tuple[float, float]
    grip: float = 1.0


def _opened(point: tuple[float, float, float], openness: float, reach: float) -> tuple[float, float, float]:
    """A finger point moved forward, spread sideways and raised as the hand opens."""
    u, v, z = point
    return u + reach * openness, v * (1.0 + 0.35 * openness), z + 0.15 * openness * reach


def _frame(pose: HandPose, look: HandLook) -> Callable[[float, float, float], tuple[float, float, float]]:
    """Local (u, v, z) -> board (x, y, z) for a pose."""
    dx, dy = pose.x - pose.shoulder[0], pose.y - pose.shoulder[1]
    norm = math.hypot(dx, dy) or 1.0
    ux, uy = dx / norm, dy / norm
    # +v is the thumb side: left of the pointing direction for a right hand seen from above.
    vx, vy = (-uy, ux) if not look.left else (uy, -ux)
    lift = 0.12 + 1.6 * pose.z
    s = look.size

    def to_board(u: float, v: float, z: float) -> tuple[float, float, float]:
        u, v = u * s, v * s
        return pose.x + u * ux + v * vx, pose.y + u * uy + v * vy, z * s + lift

    return to_board


@dataclass
class _Part:
    """A projected body part: its outline (pixels), its axis with half widths (pixels, for tubes),
    the height of its axis in grid units and its kind (skin, finger, sleeve, palm)."""

    polygon: np.ndarray
    axis: np.ndarray
    half: np.ndarray
    height: float
    kind: str


def _capsule(points: list[tuple[float, float, float]], widths: list[float],
             to_board: Callable[[float, float, float], tuple[float, float, float]],
             project: Projector, kind: str) -> _Part:
    """A tapered tube along local points: its projected axis, half widths and a bounding outline."""
    pts = np.array(points, float)
    sides = []
    for i, (u, v, z) in enumerate(pts):
        a = pts[min(i + 1, len(pts) - 1)] - pts[max(i - 1, 0)]
        n = math.hypot(a[0], a[1]) or 1.0
        sides.append((u - a[1] / n * widths[i] / 2, v + a[0] / n * widths[i] / 2, z))
    axis = project(np.array([to_board(*p) for p in pts]))
    side = project(np.array([to_board(*p) for p in sides]))
    half = np.linalg.norm(side - axis, axis=1)
    grow = np.concatenate([axis - half[:, None], axis + half[:, None]])
    return _Part(grow, axis, half, float(np.mean(pts[:, 2])), kind)


def _arm_length(to_board: Callable[[float, float, float], tuple[float, float, float]],
                project: Projector, width: int, height: int) -> float:
    """How far back (in grid units) the forearm must reach to leave the image (at most 14)."""
    wrist = project(np.array([to_board(_WRIST_U, 0.0, 1.0)]))[0]
    last = wrist
    for length in np.arange(3.0, 14.5, 0.5):
        p = project(np.array([to_board(_WRIST_U - length, 0.0, 1.0 + 0.1 * length)]))[0]
        if not np.all(np.isfinite(p)) or np.dot(p - wrist, last - wrist) < 0:
            return float(length - 0.5)
        last = p
        margin = 0.25 * max(width, height)
        if p[0] < -margin or p[1] < -margin or p[0] > width + margin or p[1] > height + margin:
            return float(length)
    return 14.0


def hand_parts(pose: HandPose, look: HandLook, project: Projector, width: int, height: int) -> list[_Part]:
    """The projected parts of the hand, back to front (forearm, sleeve, palm, thumb, fingers)."""
    to_board = _frame(pose, look)
    reach = _arm_length(to_board, project, width, height)
    u0, u1 = _WRIST_U, _WRIST_U - reach
    sleeve_u = _WRIST_U - min(2.6, reach * 0.45)
    forearm = _capsule([(u0 + 0.1, 0.0, 0.9), (sleeve_u, 0.0, 1.1), (u1, 0.0, 1.0 + 0.1 * reach)],
                       [_WRIST_W, 1.22, 1.35], to_board, project, "skin")
    forearm.height = 0.95
    sleeve = _capsule([(sleeve_u + 0.15, 0.0, 1.3), (u1 - 0.5, 0.0, 1.05 + 0.1 * reach)],
                      [1.45, 1.6], to_board, project, "sleeve")
    sleeve.height = 0.6
    palm = _capsule(list(_PALM[0]), list(_PALM[1]), to_board, project, "palm")
    palm.height = 0.85
    parts = [forearm, sleeve, palm]
    openness = 1.0 - min(1.0, max(0.0, pose.grip))
    thumb = _capsule([_THUMB[0], _opened(_THUMB[1], openness, 0.1), _opened(_THUMB[2], openness, 0.2)],
                     [_THUMB[3] * 1.25, _THUMB[3], _THUMB[3] * 0.85], to_board, project, "finger")
    parts.append(thumb)
    for knuckle, joint, tip, w in _FINGERS:
        bent = [knuckle, _opened(joint, openness, 0.12), _opened(tip, openness, 0.3)]
        parts.append(_capsule(bent, [w * 1.1, w, w * 0.85], to_board, project, "finger"))
    return parts


def _box(parts: list[_Part], width: int, height: int, pad: int) -> tuple[int, int, int, int] | None:
    allpts = np.concatenate([p.polygon for p in parts])
    allpts = allpts[np.all(np.isfinite(allpts), axis=1)]
    if not len(allpts):
        return None
    x0, y0 = np.floor(allpts.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(allpts.max(axis=0)).astype(int) + pad
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    if x1 <= x0 or y1 <= y0:
        return None
    return int(x0), int(y0), int(x1), int(y1)


def _fill(shape: tuple[int, int], polygon: np.ndarray, origin: tuple[int, int]) -> np.ndarray:
    """Anti-aliased coverage (float32 0..1) of a polygon in a box starting at ``origin``."""
    canvas = np.zeros(shape, np.uint8)
    pts = np.round((polygon - np.asarray(origin, float)) * 4).astype(np.int32)
    cv2.fillPoly(canvas, [pts], 255, lineType=cv2.LINE_AA, shift=2)
    return canvas.astype(np.float32) / 255.0


_GRAIN = 256


@functools.lru_cache(maxsize=1)
def _grain_tile() -> np.ndarray:
    """A fixed tile of soft noise for skin and cloth texture (read-only)."""
    noise = np.random.default_rng(7321).standard_normal((_GRAIN, _GRAIN)).astype(np.float32)
    padded = np.pad(noise, 8, mode="wrap")
    tile = np.ascontiguousarray(cv2.GaussianBlur(padded, (0, 0), 1.2)[8:-8, 8:-8])
    tile = (tile / (float(tile.std()) or 1.0)).astype(np.float32)
    tile.setflags(write=False)
    return tile


@dataclass(frozen=True)
class Light:
    """Direction of the main light (unit vector from the board towards the light, image axes + up)."""

    azimuth_deg: float = 135.0
    elevation_deg: float = 60.0

    def vector(self) -> np.ndarray:
        az, el = math.radians(self.azimuth_deg), math.radians(self.elevation_deg)
        return np.array([math.cos(az) * math.cos(el), -math.sin(az) * math.cos(el), math.sin(el)], np.float32)


def _tube_field(part: _Part, box: tuple[int, int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(coverage 0..1, height profile in pixels) of a tube inside ``box`` (x0, y0, x1, y1).

    The palm's cross-section is flatter than a finger's or the forearm's (a squarer profile)."""
    x0, y0, x1, y1 = box
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    best_ratio = np.full(xs.shape, np.inf, np.float32)
    best_half = np.ones(xs.shape, np.float32)
    for a, b, ha, hb in zip(part.axis[:-1], part.axis[1:], part.half[:-1], part.half[1:], strict=True):
        d = (b - a).astype(np.float32)
        length2 = float(d @ d) or 1e-6
        t = np.clip(((xs - a[0]) * d[0] + (ys - a[1]) * d[1]) / length2, 0.0, 1.0)
        px, py = xs - (a[0] + t * d[0]), ys - (a[1] + t * d[1])
        half = np.maximum(0.5, ha + t * (hb - ha)).astype(np.float32)
        ratio = np.sqrt(px * px + py * py) / half
        closer = ratio < best_ratio
        best_ratio = np.where(closer, ratio, best_ratio)
        best_half = np.where(closer, half, best_half)
    cover = np.clip((1.0 - best_ratio) * best_half + 0.5, 0.0, 1.0)
    r2 = best_ratio * best_ratio
    if part.kind == "palm":
        r2 = r2 * r2
    profile = np.sqrt(np.clip(1.0 - r2, 0.0, 1.0)) * best_half
    return cover, profile


def _sub_box(part: _Part, outer: tuple[int, int, int, int]) -> tuple[int, int, int, int] | None:
    pts = part.polygon
    x0 = max(outer[0], int(np.floor(pts[:, 0].min())) - 2)
    y0 = max(outer[1], int(np.floor(pts[:, 1].min())) - 2)
    x1 = min(outer[2], int(np.ceil(pts[:, 0].max())) + 2)
    y1 = min(outer[3], int(np.ceil(pts[:, 1].max())) + 2)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def draw_hand(image: np.ndarray, pose: HandPose, look: HandLook, project: Projector,
              light: Light | None = None, seed: int = 0, gain: np.ndarray | None = None) -> np.ndarray:
    """Draw the hand onto ``image`` (BGR uint8, in place) and return its coverage mask (uint8 0/255).

    ``gain`` (H, W, 3), when given, is the scene's illumination, applied to the hand's colours so
    it is lit like the board beneath it.
    """
    light = light or Light()
    height, width = image.shape[:2]
    mask_full = np.zeros((height, width), np.uint8)
    parts = hand_parts(pose, look, project, width, height)
    here = project(np.array([[pose.x, pose.y, 0.0], [pose.x + 1.0, pose.y, 0.0], [pose.x, pose.y + 1.0, 0.0]]))
    scale = float((np.linalg.norm(here[1] - here[0]) + np.linalg.norm(here[2] - here[0])) / 2)
    lift = 0.12 + 1.6 * pose.z
    lvec = light.vector()
    flat = math.hypot(float(lvec[0]), float(lvec[1])) or 1.0
    reach = (lift + 0.9) / max(0.3, math.tan(math.radians(light.elevation_deg))) * scale * 0.6
    shadow_dx, shadow_dy = -float(lvec[0]) / flat * reach, -float(lvec[1]) / flat * reach
    pad = int(abs(shadow_dx) + abs(shadow_dy) + scale) + 4
    box = _box(parts, width, height, pad)
    if box is None:
        return mask_full
    x0, y0, x1, y1 = box
    shape = (y1 - y0, x1 - x0)
    heightmap = np.zeros(shape, np.float32)
    alpha = np.zeros(shape, np.float32)
    cloth = np.zeros(shape, np.float32)
    nails = np.zeros(shape, np.float32)
    for part in parts:
        sub = _sub_box(part, box)
        if sub is None:
            continue
        cover, profile = _tube_field(part, sub)
        sl = (slice(sub[1] - y0, sub[3] - y0), slice(sub[0] - x0, sub[2] - x0))
        level = part.height * scale * 0.5 + profile
        inside = cover > 0.5
        heightmap[sl] = np.where(inside, np.maximum(heightmap[sl] * (alpha[sl] > 0.5), level), heightmap[sl])
        if part.kind == "sleeve":
            cloth[sl] = np.maximum(cloth[sl], cover)
        else:
            cloth[sl] *= 1.0 - cover
        nails[sl] *= 1.0 - cover
        if part.kind == "finger":
            tip, joint = part.axis[-1], part.axis[-2]
            direction = (tip - joint) / (np.linalg.norm(tip - joint) or 1.0)
            centre = tip - direction * part.half[-1] * 0.9 - np.array([sub[0], sub[1]])
            nail = np.zeros(cover.shape, np.uint8)
            axes = (int(part.half[-1] * 0.75 * 4), int(part.half[-1] * 0.6 * 4))
            angle = math.degrees(math.atan2(float(direction[1]), float(direction[0])))
            cv2.ellipse(nail, (int(centre[0] * 4), int(centre[1] * 4)), axes, angle, 0, 360, 255, -1,
                        cv2.LINE_AA, 2)
            nails[sl] = np.maximum(nails[sl], nail.astype(np.float32) / 255.0 * cover)
        alpha[sl] = np.maximum(alpha[sl], cover)
    if not (alpha > 0.02).any():
        return mask_full
    # shading from the height field's slopes, computed only where the hand is
    smooth = cv2.GaussianBlur(heightmap, (0, 0), max(0.7, scale * 0.045))
    sel = alpha > 0.004
    ys, xs = np.nonzero(sel)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)[sel] / 8.0
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)[sel] / 8.0
    norm = np.sqrt(gx * gx + gy * gy + 1.0)
    lambert = np.clip((-gx * lvec[0] - gy * lvec[1] + lvec[2]) / norm, 0.0, 1.0)
    spec = (lambert / norm) ** 14
    # skin grain moves with the hand: a fixed tile read relative to the pinch point
    tile = _grain_tile()
    anchor = np.round(here[0]).astype(int) - np.array([x0, y0])
    grain = tile[(ys - anchor[1] + seed) % _GRAIN, (xs - anchor[0] + 3 * seed) % _GRAIN][:, None]
    skin = np.asarray(look.skin, np.float32)
    sleeve = np.asarray(look.sleeve, np.float32)
    rim = (1.0 / norm < 0.7).astype(np.float32)[:, None]  # steep sides (between fingers): a little redder
    redder = np.asarray((0.9, 0.93, 1.05), np.float32)
    skin_col = skin * (1.0 + (redder - 1.0) * rim) * (1.0 + 0.015 * grain)
    nail_col = np.minimum(255.0, skin * np.asarray((1.1, 1.12, 1.04), np.float32) + 20.0)
    skin_col += (nail_col - skin_col) * (0.75 * nails[sel][:, None])
    cloth_sel = cloth[sel][:, None]
    folds = 1.0 + 0.07 * np.sin(smooth[sel] / max(1.0, scale * 0.06))[:, None]
    cloth_col = sleeve * folds * (1.0 + 0.012 * grain)
    base = skin_col + (cloth_col - skin_col) * cloth_sel
    shade = (0.4 + 0.65 * lambert)[:, None]
    gloss = spec[:, None] * (0.14 - 0.11 * cloth_sel) * 255.0
    colour = base * shade + gloss
    if gain is not None:
        colour *= gain[y0:y1, x0:x1][sel]
    roi = image[y0:y1, x0:x1].astype(np.float32)
    m = np.array([[1, 0, shadow_dx], [0, 1, shadow_dy]], np.float32)
    shadow = cv2.warpAffine(alpha, m, (shape[1], shape[0]))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, scale * (0.12 + 0.18 * lift)))
    roi *= (1.0 - 0.5 * shadow * (1.0 - alpha))[..., None]
    under = roi[sel]
    roi[sel] = under + (colour - under) * alpha[sel][:, None]
    image[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    mask_full[y0:y1, x0:x1] = (alpha > 0.5).astype(np.uint8) * 255
    return mask_full
