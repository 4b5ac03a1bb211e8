"""Procedural surface textures (wood grain, paper fibre, cloth weave, vinyl, plastic, table tops).

Each function returns a float32 BGR image (0..255) of the requested size. Noise is made at low
resolution and enlarged, which keeps a full board texture to a few milliseconds.
"""

from __future__ import annotations

import logging

import cv2
import numpy as np

from synth import blend

log = logging.getLogger(__name__)


def smooth_noise(rng: np.random.Generator, height: int, width: int, cell: float) -> np.ndarray:
    """Value noise in 0..1 with features about ``cell`` pixels wide."""
    gh = max(2, int(height / cell) + 2)
    gw = max(2, int(width / cell) + 2)
    small = rng.random((gh, gw), dtype=np.float32)
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)


def _tint(colour: tuple[int, int, int], field: np.ndarray) -> np.ndarray:
    """``colour`` scaled per pixel by ``field`` (a 2-D brightness factor), as float32 BGR."""
    return blend.tint(colour, field)


def wood(
    rng: np.random.Generator, height: int, width: int, colour: tuple[int, int, int], px_per_unit: float,
    *, angle_deg: float = 0.0, contrast: float = 0.22, waviness: float = 1.0,
) -> np.ndarray:
    """Wood with long grain lines along ``angle_deg``, darker late-wood bands and slow colour drift.

    The grain is a random 1-D growth-ring profile (bands of varied width and darkness) looked up
    at ``across + warp``, so the cost is a few array operations whatever the detail.
    """
    a = np.deg2rad(angle_deg)
    xs = np.arange(width, dtype=np.float32)[None, :]
    ys = np.arange(height, dtype=np.float32)[:, None]
    across = (ys * np.float32(np.cos(a)) - xs * np.float32(np.sin(a))) * np.float32(4.0)
    warp = smooth_noise(rng, height, width, max(6.0, px_per_unit * 2.5)) * np.float32(px_per_unit * 3.6 * waviness)
    warp += smooth_noise(rng, height, width, max(3.0, px_per_unit * 0.6)) * np.float32(px_per_unit * 0.5 * waviness)
    # the ring profile at 4 samples per pixel: each year a light early-wood band fading into a dark line
    period = px_per_unit * float(rng.uniform(0.12, 0.35)) * 4
    n = 4096
    years = int(n / max(period * 0.5, 3)) + 2
    widths = np.maximum(3, (period * rng.uniform(0.5, 1.6, years)).astype(np.int64))
    starts = np.cumsum(widths) - widths
    depth = rng.uniform(0.5, 1.0, years).astype(np.float32)
    start_of = np.repeat(starts, widths)[:n]
    width_of = np.repeat(widths, widths)[:n]
    t = (np.arange(n) - start_of) / (width_of - 1)
    profile = (t**4).astype(np.float32) * np.repeat(depth, widths)[:n]
    profile = np.convolve(profile, np.ones(3, np.float32) / 3, mode="same").astype(np.float32)
    idx = (across + warp).astype(np.int32) % n
    bands = profile[idx]
    drift = smooth_noise(rng, height, width, max(8.0, px_per_unit * 3))
    field = 1.0 - contrast * bands - 0.08 * (drift - 0.5)
    return _tint(colour, field.astype(np.float32))


def paper(rng: np.random.Generator, height: int, width: int, colour: tuple[int, int, int], px_per_unit: float) -> np.ndarray:
    """Paper or card: faint mottling and fine fibre noise."""
    mottle = smooth_noise(rng, height, width, max(6.0, px_per_unit * 1.5))
    fibre = smooth_noise(rng, height, width, 2.0)
    field = 1.0 - 0.05 * (mottle - 0.5) - 0.035 * (fibre - 0.5)
    return _tint(colour, field)


def cloth(rng: np.random.Generator, height: int, width: int, colour: tuple[int, int, int], px_per_unit: float) -> np.ndarray:
    """Woven cloth: a weave pattern at a few threads per pixel-unit plus slow unevenness."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    pitch = max(2.2, px_per_unit * 0.06)
    weave = 0.5 * (np.sin(xs * (2 * np.pi / pitch)) * np.sin(ys * (2 * np.pi / pitch))) + 0.5
    slow = smooth_noise(rng, height, width, max(8.0, px_per_unit * 2))
    field = 1.0 - 0.07 * weave - 0.1 * (slow - 0.5)
    return _tint(colour, field.astype(np.float32))


def vinyl(rng: np.random.Generator, height: int, width: int, colour: tuple[int, int, int], px_per_unit: float) -> np.ndarray:
    """Vinyl roll-up mat: smooth with wide soft waves left by being rolled."""
    ys, _ = np.mgrid[0:height, 0:width].astype(np.float32)
    period = px_per_unit * float(rng.uniform(2.5, 5.0))
    waves = np.sin(ys * (2 * np.pi / period) + rng.uniform(0, 6.3)).astype(np.float32)
    grain = smooth_noise(rng, height, width, 2.5)
    field = 1.0 + 0.045 * waves - 0.02 * (grain - 0.5)
    return _tint(colour, field)


def table(
    rng: np.random.Generator, height: int, width: int, material: str, colour: tuple[int, int, int], px_per_unit: float
) -> np.ndarray:
    """The table top around the board, made at a third of the resolution and enlarged."""
    small_h, small_w = max(4, height // 4), max(4, width // 4)
    scale = px_per_unit / 4
    if material in ("dark-wood", "light-wood"):
        small = wood(rng, small_h, small_w, colour, scale * 1.5, angle_deg=float(rng.uniform(0, 180)), contrast=0.14,
                     waviness=0.25)
    elif material == "cloth":
        slow = smooth_noise(rng, small_h, small_w, max(4.0, scale * 3))
        small = _tint(colour, 1.0 - 0.12 * (slow - 0.5))
    else:
        speck = smooth_noise(rng, small_h, small_w, 1.5)
        small = _tint(colour, 1.0 - 0.05 * (speck - 0.5))
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)


def surface(
    rng: np.random.Generator, height: int, width: int, material: str, colour: tuple[int, int, int], px_per_unit: float
) -> np.ndarray:
    """The board's surface in ``material`` (wood, paper, cloth, vinyl, plastic)."""
    if material == "wood":
        angle = float(rng.choice([0.0, 90.0]) + rng.normal(0, 2))
        return wood(rng, height, width, colour, px_per_unit, angle_deg=angle, contrast=float(rng.uniform(0.07, 0.15)))
    if material == "cloth":
        return cloth(rng, height, width, colour, px_per_unit)
    if material == "vinyl":
        return vinyl(rng, height, width, colour, px_per_unit)
    return paper(rng, height, width, colour, px_per_unit)  # paper and plastic sheets share the base
