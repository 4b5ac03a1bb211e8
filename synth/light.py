"""Light and sensor effects in image space: gradient, colour cast, glare, shadows of people,
noise, blur and JPEG.

The illumination is built at an eighth of the resolution and enlarged (it is smooth by nature),
and sensor noise comes from a fixed pre-drawn tile shifted by a seeded offset, so a view costs a
few milliseconds here.
"""

from __future__ import annotations

import functools
import logging
import math

import cv2
import numpy as np

from synth import blend
from synth.style import ViewStyle

log = logging.getLogger(__name__)

_TILE = 1024


@functools.lru_cache(maxsize=1)
def _noise_tile() -> np.ndarray:
    tile = np.random.default_rng(20240601).standard_normal((_TILE, _TILE, 3)).astype(np.float32)
    tile.setflags(write=False)
    return tile


def illumination(rng: np.random.Generator, style: ViewStyle) -> tuple[np.ndarray, np.ndarray]:
    """(gain, glare) three-channel maps at full resolution: gain multiplies the image, glare is
    added (0..255)."""
    w, h = style.width, style.height
    sw, sh = max(8, w // 8), max(8, h // 8)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xs /= sw
    ys /= sh
    a = rng.uniform(0, 2 * math.pi)
    ramp = (xs - 0.5) * math.cos(a) + (ys - 0.5) * math.sin(a)
    gain = style.exposure * (1.0 + style.gradient * ramp)
    # vignetting, mild
    gain *= 1.0 - 0.12 * ((xs - 0.5) ** 2 + (ys - 0.5) ** 2)
    for _ in range(style.people_shadows):
        # a person's head/shoulder or arm: a big soft dark blob entering from an edge
        cx, cy = _edge_point(rng)
        rx, ry = rng.uniform(0.15, 0.45), rng.uniform(0.06, 0.3)  # round heads to long arms
        rot = rng.uniform(0, math.pi)
        u = (xs - cx) * math.cos(rot) + (ys - cy) * math.sin(rot)
        v = -(xs - cx) * math.sin(rot) + (ys - cy) * math.cos(rot)
        blob = np.exp(-((u / rx) ** 2 + (v / ry) ** 2) ** 1.5)
        gain *= 1.0 - rng.uniform(0.2, 0.45) * blob
    glare = np.zeros((sh, sw), np.float32)
    for _ in range(style.glare_spots):
        # a window or lamp reflected by a glossy surface: a soft elongated patch with a brighter core
        gx, gy = rng.uniform(0.15, 0.85), rng.uniform(0.15, 0.85)
        r = rng.uniform(0.06, 0.18)
        stretch = rng.uniform(1.0, 2.5)
        rot = rng.uniform(0, math.pi)
        u = (xs - gx) * math.cos(rot) + (ys - gy) * h / w * math.sin(rot)
        v = -(xs - gx) * math.sin(rot) + (ys - gy) * h / w * math.cos(rot)
        d2 = (u / stretch) ** 2 + v**2
        glare += style.glare_strength * 255.0 * (0.6 * np.exp(-d2 / (r * r)) + 0.4 * np.exp(-d2 / (0.2 * r * r)))
    gain3 = blend.tint(style.cast, gain.astype(np.float32))
    gain_full = cv2.resize(gain3, (w, h), interpolation=cv2.INTER_LINEAR)
    glare_full = blend.expand3(cv2.resize(glare, (w, h), interpolation=cv2.INTER_LINEAR))
    return gain_full, glare_full


def _focus_falloff(image: np.ndarray, style: ViewStyle) -> np.ndarray:
    """Blend toward a blurred copy along a ramp across the frame (the far side of a tilted view)."""
    h, w = image.shape[:2]
    sigma = 0.6 + 2.0 * style.focus_falloff * max(w, h) / 1280
    blurred = cv2.GaussianBlur(image, (0, 0), sigma)
    a = math.radians(style.focus_angle_deg)
    xs = (np.arange(w, dtype=np.float32) / w - 0.5) * np.float32(math.cos(a))
    ys = (np.arange(h, dtype=np.float32) / h - 0.5) * np.float32(math.sin(a))
    ramp = np.clip((xs[None, :] + ys[:, None]) * 1.6 + 0.2, 0, 1).astype(np.float32)
    blend.lerp(image, blurred, ramp)
    return image


def motion_kernel(length: float, angle_deg: float) -> np.ndarray:
    """A normalised line kernel ``length`` pixels long at ``angle_deg`` (a straight streak)."""
    size = int(math.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    c = (size - 1) / 2
    a = math.radians(angle_deg)
    dx, dy = math.cos(a) * (length - 1) / 2, math.sin(a) * (length - 1) / 2
    f = 16
    cv2.line(kernel, (round((c - dx) * f), round((c - dy) * f)), (round((c + dx) * f), round((c + dy) * f)), 1.0, 1,
             cv2.LINE_AA, 4)
    return kernel / max(float(kernel.sum()), 1e-6)


def _edge_point(rng: np.random.Generator) -> tuple[float, float]:
    side = int(rng.integers(4))
    t = float(rng.uniform(0.1, 0.9))
    return [(t, -0.05), (t, 1.05), (-0.05, t), (1.05, t)][side]


def _noise(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Unit Gaussian noise ``(h, w, 3)``: a seeded window into a fixed pre-drawn tile."""
    tile = _noise_tile()
    if h <= _TILE and w <= _TILE:
        oy = int(rng.integers(0, _TILE - h + 1))
        ox = int(rng.integers(0, _TILE - w + 1))
        flip = int(rng.integers(4))
        window = tile[oy:oy + h, ox:ox + w]
        return window[::-1] if flip & 1 else window
    oy, ox = (int(v) for v in rng.integers(0, _TILE, 2))
    reps = (math.ceil((h + oy) / _TILE), math.ceil((w + ox) / _TILE), 1)
    return np.tile(tile, reps)[oy:oy + h, ox:ox + w]


def finish(
    image: np.ndarray, gain: np.ndarray, glare: np.ndarray, style: ViewStyle, rng: np.random.Generator
) -> np.ndarray:
    """Apply light, blur, noise and JPEG to a float32 BGR image; returns uint8 BGR."""
    out = cv2.multiply(image, gain)
    if style.glare_spots:
        out += glare
    if style.blur_sigma > 0:
        out = cv2.GaussianBlur(out, (0, 0), style.blur_sigma)
    if style.focus_falloff > 0:
        out = _focus_falloff(out, style)
    if style.motion_blur >= 1.0:
        out = cv2.filter2D(out, -1, motion_kernel(style.motion_blur, style.motion_angle_deg))
    if style.noise_sigma > 0:
        out = cv2.scaleAdd(_noise(rng, out.shape[0], out.shape[1]), float(style.noise_sigma), out)
    np.clip(out, 0, 255, out=out)
    result: np.ndarray = out.astype(np.uint8)
    if style.jpeg_quality:
        ok, buf = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, int(style.jpeg_quality)])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            result = decoded
    return result
