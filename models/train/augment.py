"""Training-time augmentation of cached crops (torch, batched).

Geometry: a quarter turn, and some of the time (``free_rate``) any angle, plus sub-spacing shifts and +-10 % scale, cut
from the wider cached crop so no border shows. Photometry that keeps red red: exposure, gamma, a mild
per-channel white-balance gain (never a hue swap, never grey), sensor noise, blur and low-resolution
resampling. Everything is drawn from the ``torch.Generator`` passed in, so a run is repeatable.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def geometric(x: torch.Tensor, out_px: int, gen: torch.Generator, *, shift: float = 0.07,
              spacing_px: float = 0.0, free_rate: float = 0.5) -> torch.Tensor:
    """Rotate/shift/scale (N, 3, S, S) crops and cut the centre ``out_px`` square.

    ``shift`` is the largest offset in grid spacings (``spacing_px`` pixels each), as a calibration
    error or an off-centre piece would make.
    """
    n, _, size, _ = x.shape
    quarter = torch.randint(0, 4, (n,), generator=gen).float() * (math.pi / 2)
    free = torch.rand(n, generator=gen) * 2 * math.pi
    use_free = torch.rand(n, generator=gen) < free_rate
    angle = torch.where(use_free, free, quarter + (torch.rand(n, generator=gen) - 0.5) * math.radians(12))
    scale = 1.0 + (torch.rand(n, generator=gen) - 0.5) * 0.2
    ratio = out_px / size * scale
    cos, sin = torch.cos(angle) * ratio, torch.sin(angle) * ratio
    offset = (torch.rand(n, 2, generator=gen) - 0.5) * 2 * shift * spacing_px * 2 / size
    theta = torch.stack([torch.stack([cos, -sin, offset[:, 0]], 1), torch.stack([sin, cos, offset[:, 1]], 1)], 1)
    grid = F.affine_grid(theta, [n, 3, out_px, out_px], align_corners=False)
    return F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)


def photometric(x: torch.Tensor, gen: torch.Generator, *, soft_rate: float = 0.35,
                soft_min: float = 0.45) -> torch.Tensor:
    """Exposure, gamma, white balance, blur/low resolution and noise on (N, 3, H, W) in [0, 1]."""
    n, _, h, w = x.shape
    gamma = torch.exp((torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.7)
    x = x.clamp(1e-4, 1.0) ** gamma
    gain = 1.0 + (torch.rand(n, 3, 1, 1, generator=gen) - 0.5) * 0.2
    exposure = 0.65 + torch.rand(n, 1, 1, 1, generator=gen) * 0.7
    x = x * gain * exposure
    soft = torch.rand(n, generator=gen) < soft_rate
    if bool(soft.any()):
        factor = float(soft_min + (0.9 - soft_min) * torch.rand(1, generator=gen))
        small = F.interpolate(x[soft], scale_factor=factor, mode="area")
        x[soft] = F.interpolate(small, size=(h, w), mode="bilinear", align_corners=False)
    sigma = torch.rand(n, 1, 1, 1, generator=gen) * 0.035
    x = x + torch.randn(x.shape, generator=gen) * sigma
    return x.clamp(0.0, 1.0)
