"""Training-time augmentation of cached crops (torch, batched).

Geometry: a quarter turn, and some of the time (``free_rate``) any angle, plus sub-spacing shifts and +-10 % scale, cut
from the wider cached crop so no border shows. Photometry that keeps red red: exposure, gamma, a mild
per-channel white-balance gain (never a hue swap, never grey), sensor noise, blur and low-resolution
resampling. Everything is drawn from the ``torch.Generator`` passed in (on its device: a CUDA generator
for crops on the GPU), so a run is repeatable.
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
    quarter = torch.randint(0, 4, (n,), generator=gen, device=gen.device).float() * (math.pi / 2)
    free = torch.rand(n, generator=gen, device=gen.device) * 2 * math.pi
    use_free = torch.rand(n, generator=gen, device=gen.device) < free_rate
    jitter = (torch.rand(n, generator=gen, device=gen.device) - 0.5) * math.radians(12)
    angle = torch.where(use_free, free, quarter + jitter)
    scale = 1.0 + (torch.rand(n, generator=gen, device=gen.device) - 0.5) * 0.2
    ratio = out_px / size * scale
    cos, sin = torch.cos(angle) * ratio, torch.sin(angle) * ratio
    offset = (torch.rand(n, 2, generator=gen, device=gen.device) - 0.5) * 2 * shift * spacing_px * 2 / size
    theta = torch.stack([torch.stack([cos, -sin, offset[:, 0]], 1), torch.stack([sin, cos, offset[:, 1]], 1)], 1)
    grid = F.affine_grid(theta, [n, 3, out_px, out_px], align_corners=False)
    return F.grid_sample(x, grid, mode="bilinear", padding_mode="border", align_corners=False)


def photometric(x: torch.Tensor, gen: torch.Generator, *, soft_rate: float = 0.35,
                soft_min: float = 0.45, gain_spread: float = 0.2, blur_rate: float = 0.0,
                blur_max: float = 1.6) -> torch.Tensor:
    """Exposure, gamma, white balance, blur/low resolution and noise on (N, 3, H, W) in [0, 1].

    ``gain_spread`` is the width of each channel's gain around 1 (0.2: +-10 %); ``blur_rate`` of the
    crops are defocused by a Gaussian of up to ``blur_max`` pixels (one sigma per batch).
    """
    n, _, h, w = x.shape
    gamma = torch.exp((torch.rand(n, 1, 1, 1, generator=gen, device=gen.device) - 0.5) * 0.7)
    x = x.clamp(1e-4, 1.0) ** gamma
    gain = 1.0 + (torch.rand(n, 3, 1, 1, generator=gen, device=gen.device) - 0.5) * gain_spread
    exposure = 0.65 + torch.rand(n, 1, 1, 1, generator=gen, device=gen.device) * 0.7
    x = x * gain * exposure
    soft = torch.rand(n, generator=gen, device=gen.device) < soft_rate
    if bool(soft.any()):
        factor = float(soft_min + (0.9 - soft_min) * torch.rand(1, generator=gen, device=gen.device))
        small = F.interpolate(x[soft], scale_factor=factor, mode="area")
        x[soft] = F.interpolate(small, size=(h, w), mode="bilinear", align_corners=False)
    if blur_rate > 0:  # no draw otherwise: the seeded stream stays the one the shipped model was trained with
        blurred = torch.rand(n, generator=gen, device=gen.device) < blur_rate
        if bool(blurred.any()):
            sigma_px = 0.4 + (blur_max - 0.4) * float(torch.rand(1, generator=gen, device=gen.device))
            x[blurred] = _gaussian_blur(x[blurred], sigma_px)
    sigma = torch.rand(n, 1, 1, 1, generator=gen, device=gen.device) * 0.035
    x = x + torch.randn(x.shape, generator=gen, device=gen.device) * sigma
    return x.clamp(0.0, 1.0)


def _gaussian_blur(x: torch.Tensor, sigma: float) -> torch.Tensor:
    """(N, 3, H, W) blurred by a Gaussian of ``sigma`` pixels (separable, edges replicated)."""
    radius = max(1, int(math.ceil(2.5 * sigma)))
    taps = torch.exp(-(torch.arange(-radius, radius + 1, dtype=x.dtype, device=x.device) ** 2) / (2 * sigma * sigma))
    taps = taps / taps.sum()
    channels = x.shape[1]
    padded = F.pad(x, (radius, radius, radius, radius), mode="replicate")
    across = F.conv2d(padded, taps.view(1, 1, 1, -1).repeat(channels, 1, 1, 1), groups=channels)
    return F.conv2d(across, taps.view(1, 1, -1, 1).repeat(channels, 1, 1, 1), groups=channels)


def glyph_variety(x: torch.Tensor, gen: torch.Generator, *, rate: float, spacing_px: float) -> torch.Tensor:
    """Vary the hand that cut the characters on ``rate`` of the (N, 3, S, S) crops in [0, 1].

    A real set's characters are nobody's font: strokes heavier or lighter than any face we render,
    shapes drawn a little differently. Half the chosen crops get strokes (whatever is darker than its
    surround: ink, ring, lines) thickened or thinned by half a pixel; every chosen crop is warped by
    a smooth random field of up to a twentieth of a spacing, which bends strokes without moving the
    piece.
    """
    n, _, h, w = x.shape
    pick = torch.rand(n, generator=gen, device=gen.device) < rate
    if not bool(pick.any()):
        return x
    idx = torch.nonzero(pick).squeeze(1)
    k = len(idx)
    crops = x[idx]
    weight = torch.rand(k, generator=gen, device=gen.device)  # < 0.25 heavier, 0.25-0.5 lighter, else as drawn
    fine = F.interpolate(crops, scale_factor=2, mode="bilinear", align_corners=False)
    heavier = F.avg_pool2d(-F.max_pool2d(-fine, 3, 1, 1), 2)  # dark strokes grow
    lighter = F.avg_pool2d(F.max_pool2d(fine, 3, 1, 1), 2)  # dark strokes shrink
    crops = torch.where((weight < 0.25)[:, None, None, None], heavier,
                        torch.where((weight < 0.5)[:, None, None, None], lighter, crops))
    coarse = torch.randn(k, 2, 5, 5, generator=gen, device=gen.device)
    field = F.interpolate(coarse, size=(h, w), mode="bicubic", align_corners=False)
    amplitude = torch.rand(k, 1, 1, 1, generator=gen, device=gen.device) * 0.05 * spacing_px  # pixels
    field = field / field.abs().amax(dim=(1, 2, 3), keepdim=True).clamp_min(1e-6) * amplitude
    base = F.affine_grid(torch.eye(2, 3, device=x.device).expand(k, 2, 3), [k, 3, h, w], align_corners=False)
    grid = base + field.permute(0, 2, 3, 1) * torch.tensor([2.0 / w, 2.0 / h], device=x.device)
    out = x.clone()
    out[idx] = F.grid_sample(crops, grid, mode="bilinear", padding_mode="border", align_corners=False)
    return out


# Ink colours (RGB in [0, 1]) a recoloured piece gets: red, and the black side's black, green, blue.
_RED_INKS = ((0.72, 0.12, 0.10), (0.60, 0.08, 0.12), (0.80, 0.25, 0.15))
_BLACK_INKS = ((0.10, 0.10, 0.10), (0.20, 0.20, 0.22), (0.08, 0.35, 0.18), (0.10, 0.18, 0.45))


def recolour_ink(x: torch.Tensor, labels: torch.Tensor, gen: torch.Generator, *, spacing_px: float,
                 rate: float = 0.15, red: tuple[int, int] = (1, 8),
                 black: tuple[int, int] = (8, 15)) -> tuple[torch.Tensor, torch.Tensor]:
    """Paint the ink of some piece crops in the other side's colour and swap their side in the label.

    The simplified sets write 车 马 炮 alike for both sides, so the side must come from the ink's
    colour, never from the character; recolouring teaches that (a red 將 is still a general, and red).
    Ink is what is darker than the piece's face (the median of the centre) within the character's
    disc (0.28 spacing around the point); it keeps how much darker it is and takes the new
    colour in that proportion. ``x`` is (N, 3, S, S) BGR in [0, 1], centred on the points.
    """
    n, _, h, w = x.shape
    pick = (labels >= red[0]) & (labels < black[1]) & (torch.rand(n, generator=gen, device=gen.device) < rate)
    if not bool(pick.any()):
        return x, labels
    idx = torch.nonzero(pick).squeeze(1)
    k = len(idx)
    crops = x[idx]
    yy, xx = torch.meshgrid(torch.arange(h, dtype=x.dtype, device=x.device), torch.arange(w, dtype=x.dtype, device=x.device), indexing="ij")
    disc = (((yy - (h - 1) / 2) ** 2 + (xx - (w - 1) / 2) ** 2) <= (0.28 * spacing_px) ** 2)
    inside = crops[:, :, disc]  # (k, 3, P)
    face = inside.median(dim=2).values[:, :, None, None]
    face_lum = face.mean(dim=1, keepdim=True).clamp_min(1e-3)
    dark = (1.0 - crops.mean(dim=1, keepdim=True) / face_lum).clamp(0.0, 1.0) * disc
    solid = torch.quantile(dark.reshape(k, -1), 0.99, dim=1).clamp_min(0.15)[:, None, None, None]
    alpha = (dark / solid).clamp(0.0, 1.0)
    was_red = labels[idx] < red[1]
    inks = []
    for to_black in was_red.tolist():
        table = _BLACK_INKS if to_black else _RED_INKS
        r, g, b = table[int(torch.randint(0, len(table), (1,), generator=gen, device=gen.device))]
        inks.append((b, g, r))  # BGR
    scale = 0.7 + 0.6 * torch.rand(k, 1, 1, 1, generator=gen, device=gen.device)
    target = torch.minimum(torch.tensor(inks, dtype=x.dtype, device=x.device)[:, :, None, None] * scale, face)
    painted = torch.where(alpha > 0.08, face * (1.0 - alpha) + target * alpha, crops)
    out = x.clone()
    out[idx] = painted.clamp(0.0, 1.0)
    new_labels = labels.clone()
    shift = black[0] - red[0]
    new_labels[idx] = torch.where(was_red, labels[idx] + shift, labels[idx] - shift)
    return out, new_labels
