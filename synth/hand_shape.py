"""A hand and forearm reaching over the board from a player's side, drawn in image space.

The shape is a tapered forearm (optionally in a sleeve) from the image edge to the wrist, a palm,
four fingers and a thumb, filled with a skin tone and shaded by the distance to the outline so
it reads as rounded; it also casts a soft shadow on the board. Sizes follow an adult hand
against a board of 4-5 cm spacing (palm about two spacings wide).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from synth import blend

if TYPE_CHECKING:
    from synth.scene import Scene

log = logging.getLogger(__name__)

SKIN_TONES = ((125, 162, 222), (108, 146, 206), (88, 122, 182), (66, 95, 150), (50, 70, 112), (138, 172, 228))
SLEEVES = ((40, 40, 40), (160, 90, 40), (200, 200, 200), (50, 50, 120), (70, 110, 60), (120, 120, 120))
_F = 8  # sub-pixel bits for cv2 drawing, as a multiplier


@dataclass(frozen=True)
class HandPose:
    """A hand in image pixels: the arm enters at ``entry`` and the fingertips point at ``tip``.

    ``scale`` is the grid spacing in pixels; ``spread`` opens the fingers (0..1); ``sleeve``
    is a BGR colour or None for a bare arm; ``lift`` how far the shadow falls beside the hand
    (in spacings).
    """

    entry: tuple[float, float]
    tip: tuple[float, float]
    scale: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int] | None
    spread: float = 0.2
    lift: float = 0.8
    shadow_dir: tuple[float, float] = (0.6, 0.8)
    curl: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0)
    thumb_angle: float = 40.0
    handed: int = 1

    @classmethod
    def sample(cls, rng: np.random.Generator, scene: Scene, target: tuple[float, float] | None = None) -> HandPose:
        """A plausible pose reaching for ``target`` (pixels; default a random board point) from a
        player's side of the board."""
        names = list(scene.points)
        if target is None:
            target = scene.points[names[int(rng.integers(len(names)))]]
        # the player sits behind red's or black's back rank
        side = "red" if rng.random() < 0.5 else "black"
        base = scene.camera.project(np.array([[4.0, -6.0 if side == "red" else 15.0]]))[0]
        base = base + rng.normal(0, scene.spacing_px * 2.0, 2)
        direction = np.asarray(target) - base
        direction /= max(1e-6, float(np.linalg.norm(direction)))
        # walk back from the target to the image edge along the arm
        w, h = scene.style.width, scene.style.height
        entry = np.asarray(target, float)
        for _ in range(400):
            if not (-40 <= entry[0] <= w + 40 and -40 <= entry[1] <= h + 40):
                break
            entry = entry - direction * max(4.0, scene.spacing_px * 0.25)
        la = rng.uniform(0, 2 * math.pi)
        tip = np.asarray(target, float) + direction * scene.spacing_px * rng.uniform(-0.2, 0.4)
        return cls(
            entry=(float(entry[0]), float(entry[1])),
            tip=(float(tip[0]), float(tip[1])),
            scale=scene.spacing_px * float(rng.uniform(0.95, 1.2)),
            skin=SKIN_TONES[int(rng.integers(len(SKIN_TONES)))],
            sleeve=SLEEVES[int(rng.integers(len(SLEEVES)))] if rng.random() < 0.6 else None,
            spread=float(rng.uniform(0.0, 0.45)),
            lift=float(rng.uniform(0.3, 1.2)),
            shadow_dir=(math.cos(la), math.sin(la)),
            curl=tuple(float(v) for v in rng.uniform(0.45, 1.0, 4)),  # type: ignore[arg-type]
            thumb_angle=float(rng.uniform(20.0, 60.0)),
            handed=1 if rng.random() < 0.85 else -1,
        )


def _capsule(mask: np.ndarray, p: np.ndarray, q: np.ndarray, radius: float) -> None:
    cv2.line(mask, tuple(np.round(p * _F).astype(int)), tuple(np.round(q * _F).astype(int)), 1.0,
             max(1, round(2 * radius)), cv2.LINE_AA, 3)


def hand_masks(pose: HandPose, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(skin mask, sleeve mask) as float32 0..1 images of ``shape`` (height, width)."""
    skin = np.zeros(shape, np.float32)
    sleeve = np.zeros(shape, np.float32)
    s = pose.scale
    entry, tip = np.asarray(pose.entry), np.asarray(pose.tip)
    d = tip - entry
    d /= max(1e-6, float(np.linalg.norm(d)))
    n = np.array([-d[1], d[0]])
    finger_len = 1.7 * s
    palm_len = 2.1 * s
    knuckles = tip - d * finger_len
    wrist = knuckles - d * palm_len
    arm_w, wrist_w = 1.45 * s, 1.1 * s
    forearm = np.array([entry + n * arm_w / 2, wrist + n * wrist_w / 2, wrist - n * wrist_w / 2, entry - n * arm_w / 2])
    cv2.fillConvexPoly(skin, np.round(forearm * _F).astype(np.int32), 1.0, cv2.LINE_AA, 3)
    palm_w = 1.9 * s
    palm = np.array([wrist + n * wrist_w / 2, knuckles + n * palm_w / 2, knuckles - n * palm_w / 2, wrist - n * wrist_w / 2])
    cv2.fillConvexPoly(skin, np.round(palm * _F).astype(np.int32), 1.0, cv2.LINE_AA, 3)
    centre = (wrist + knuckles) / 2
    axes = (round(palm_len * 0.55 * _F), round(palm_w * 0.5 * _F))
    angle = math.degrees(math.atan2(d[1], d[0]))
    cv2.ellipse(skin, tuple(np.round(centre * _F).astype(int)), axes, angle, 0, 360, 1.0, -1, cv2.LINE_AA, 3)
    # fingers, index to little: tapered, a little fanned, curled ones look shorter from above
    side = float(pose.handed)
    lengths = (0.95, 1.05, 0.98, 0.78)
    for i, frac in enumerate((0.34, 0.11, -0.12, -0.34)):
        base = knuckles + n * side * frac * palm_w - d * 0.1 * s
        fan = side * (frac / 0.34) * pose.spread * 0.3
        fd = d * math.cos(fan) + n * math.sin(fan)
        length = finger_len * lengths[i] * pose.curl[i]
        mid = base + fd * length * 0.55
        width = 0.2 * s * (1.0 if i < 3 else 0.88)
        _capsule(skin, base, mid, width * 1.08)
        _capsule(skin, mid, base + fd * length, width * 0.9)
    # the thumb: from the side of the palm near the wrist, bent at its joint
    ta = math.radians(pose.thumb_angle)
    td = d * math.cos(ta) + n * side * math.sin(ta)
    thumb_base = wrist + d * palm_len * 0.25 + n * side * palm_w * 0.38
    joint = thumb_base + td * 0.75 * s
    td2 = d * math.cos(ta * 0.4) + n * side * math.sin(ta * 0.4)
    _capsule(skin, thumb_base, joint, 0.27 * s)
    _capsule(skin, joint, joint + td2 * 0.6 * s, 0.21 * s)
    if pose.sleeve is not None:
        cuff = entry + (wrist - entry) * 0.55
        cuff_w = arm_w * 1.25
        poly = np.array([entry + n * cuff_w / 2, cuff + n * cuff_w / 2, cuff - n * cuff_w / 2, entry - n * cuff_w / 2])
        cv2.fillConvexPoly(sleeve, np.round(poly * _F).astype(np.int32), 1.0, cv2.LINE_AA, 3)
    return skin, sleeve


@dataclass(frozen=True)
class HandOverlay:
    """An :class:`synth.scene.Overlay` that draws a :class:`HandPose`."""

    pose: HandPose

    def draw(self, image: np.ndarray, scene: Scene) -> np.ndarray:
        """Shadow, then arm and hand, onto ``image`` (float32 BGR, in place); returns the coverage."""
        h, w = image.shape[:2]
        skin, sleeve = hand_masks(self.pose, (h, w))
        body = np.maximum(skin, sleeve)
        ys, xs = np.nonzero(body > 0)
        if len(xs) == 0:
            return body
        pad = int(self.pose.scale * 2)
        y0, y1 = max(0, ys.min() - pad), min(h, ys.max() + pad + 1)
        x0, x1 = max(0, xs.min() - pad), min(w, xs.max() + pad + 1)
        roi = (slice(y0, y1), slice(x0, x1))
        # shadow: the same silhouette shifted and blurred
        shift = np.array(self.pose.shadow_dir) * self.pose.lift * self.pose.scale
        m = np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32)
        shadow = cv2.warpAffine(body[roi], m, (x1 - x0, y1 - y0))
        k = int(self.pose.scale * 0.8) | 1
        shadow = cv2.GaussianBlur(shadow, (k, k), 0)
        img = image[roi]
        blend.scale(img, 1.0 - 0.45 * shadow)
        # a rounded body: height from the distance to the outline, lit from the shadow's opposite side
        binary = (body[roi] > 0.5).astype(np.uint8)
        dist = cv2.distanceTransform(binary, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)
        height = np.sqrt(np.clip(dist / (0.45 * self.pose.scale), 0, 1)).astype(np.float32)
        height = cv2.GaussianBlur(height, (0, 0), max(0.8, 0.08 * self.pose.scale))
        gx = cv2.Sobel(height, cv2.CV_32F, 1, 0, ksize=3) * (self.pose.scale / 8.0)
        gy = cv2.Sobel(height, cv2.CV_32F, 0, 1, ksize=3) * (self.pose.scale / 8.0)
        lx, ly = -self.pose.shadow_dir[0], -self.pose.shadow_dir[1]
        lambert = np.clip(0.85 + 0.18 * (gx * lx + gy * ly), 0.55, 1.1)
        shade = (0.62 + 0.38 * height) * lambert
        # skin reddens in its shadows (light scattered under the surface): blue and green fall faster
        b, g, r = (float(c) for c in self.pose.skin)
        colour = cv2.merge([b * shade**1.35, g * shade**1.15, r * shade]).astype(np.float32)
        if self.pose.sleeve is not None:
            blend.lerp(colour, blend.tint(self.pose.sleeve, shade), sleeve[roi])
        blend.lerp(img, colour, body[roi])
        return body
