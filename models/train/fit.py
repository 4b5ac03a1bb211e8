"""Training loop, temperature scaling and the calibration error (ECE)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from models.train.augment import geometric, glyph_variety, photometric, recolour_ink
from models.train.data import CACHE_CONTEXT, CACHE_PX, CROP_PX, centre
from models.train.net import PieceNet

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FitConfig:
    """Optimisation settings: steps of ``batch`` crops, AdamW with a one-cycle learning rate."""

    steps: int = 6000
    batch: int = 256
    lr: float = 3e-3
    weight_decay: float = 1e-4
    label_smoothing: float = 0.0
    seed: int = 0
    threads: int = 2
    free_rotation: float = 0.2  # share of crops turned by any angle (the rest by quarter turns +- 6 deg)
    soft_rate: float = 0.15  # share of crops resampled at lower resolution
    soft_min: float = 0.6  # lowest resampling factor
    class_power: float = 0.4  # batches draw class c with probability ~ count_c ** power (1: as in the data)
    recolour: float = 0.0  # share of piece crops painted in the other side's ink (side from colour, not glyph)
    gain_spread: float = 0.2  # width of each colour channel's gain around 1 (0.2: +-10 %)
    blur_rate: float = 0.0  # share of crops defocused (Gaussian up to 1.6 px)
    glyph: float = 0.0  # share of crops whose strokes are made heavier/lighter and bent (augment.glyph_variety)
    freeze_bn: bool = False  # keep batch norms' running statistics (a model imported from ONNX: export.import_onnx)


def sampling_prior(labels: np.ndarray, classes: int, power: float) -> np.ndarray:
    """The class mix of the training batches: ``count ** power``, normalised.

    Most points are empty, so drawing crops as they come spends most steps on the easiest class; a
    power below 1 shifts the batches towards the pieces. ``prior_correction`` undoes the shift in
    the model's output.
    """
    counts = np.bincount(labels, minlength=classes).astype(np.float64)
    mix = np.where(counts > 0, counts, 0.0) ** power
    return np.asarray(mix / mix.sum())


def prior_correction(labels: np.ndarray, classes: int, power: float) -> np.ndarray:
    """Logit offsets (log data prior - log batch prior) that turn a model trained on the shifted batches
    back into one that answers with the data's class frequencies (logit adjustment)."""
    counts = np.bincount(labels, minlength=classes).astype(np.float64)
    data = np.maximum(counts, 1.0) / counts.sum()
    batch = np.maximum(sampling_prior(labels, classes, power), 1e-12)
    return np.asarray(np.log(data) - np.log(batch))


def to_tensor(crops: np.ndarray) -> torch.Tensor:
    """(N, H, W, 3) uint8 BGR -> (N, 3, H, W) float in [0, 1] (channel order kept: BGR)."""
    return torch.from_numpy(np.ascontiguousarray(crops)).permute(0, 3, 1, 2).float().div_(255.0)


def augment_batch(x: torch.Tensor, y: torch.Tensor, config: FitConfig,
                  gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Cached crops (N, 3, CACHE_PX, CACHE_PX) in [0, 1] and their labels -> augmented runtime crops
    (N, 3, CROP_PX, CROP_PX) and labels (recolouring swaps a piece's side); drawn on ``gen``'s device."""
    spacing_px = CACHE_PX / CACHE_CONTEXT
    if config.glyph > 0:  # no draw otherwise (the seeded stream of the shipped model's training)
        x = glyph_variety(x, gen, rate=config.glyph, spacing_px=spacing_px)
    if config.recolour > 0:
        x, y = recolour_ink(x, y, gen, spacing_px=spacing_px, rate=config.recolour)
    x = geometric(x, CROP_PX, gen, spacing_px=spacing_px, free_rate=config.free_rotation)
    x = photometric(x, gen, soft_rate=config.soft_rate, soft_min=config.soft_min,
                    gain_spread=config.gain_spread, blur_rate=config.blur_rate)
    return x, y


def train(model: PieceNet, crops: np.ndarray, labels: np.ndarray, config: FitConfig,
          progress: bool = True, checkpoint: Path | None = None, every: int = 1000) -> list[float]:
    """Train ``model`` on cached crops (N, CACHE_PX, CACHE_PX, 3) with augmentation; returns the loss curve.

    With ``checkpoint``, the weights are saved there every ``every`` steps (to look at a long run early).
    """
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    gen = torch.Generator().manual_seed(config.seed)
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=config.lr, total_steps=config.steps, pct_start=0.15)
    labels_t = torch.from_numpy(labels.astype(np.int64))
    classes = int(model.head.out_features)
    mix = torch.from_numpy(sampling_prior(labels, classes, config.class_power))
    members = [torch.from_numpy(np.flatnonzero(labels == c)) for c in range(classes)]
    losses: list[float] = []
    model.train()
    if config.freeze_bn:
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.eval()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=config.steps, desc=f"train {model.arch}", unit="step")
    started = time.perf_counter()
    for step in range(config.steps):
        drawn = torch.multinomial(mix, config.batch, replacement=True, generator=gen)
        idx = torch.empty(config.batch, dtype=torch.int64)
        for c in torch.unique(drawn).tolist():
            where = drawn == c
            pool = members[c]
            idx[where] = pool[torch.randint(0, len(pool), (int(where.sum()),), generator=gen)]
        x, y = augment_batch(to_tensor(crops[idx.numpy()]), labels_t[idx], config, gen)
        loss = F.cross_entropy(model.logits(x), y, label_smoothing=config.label_smoothing)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
        if bar is not None:
            bar.update(1)
            if step % 50 == 0:
                bar.set_postfix(loss=f"{np.mean(losses[-50:]):.4f}")
        if checkpoint is not None and (step + 1) % every == 0:
            torch.save(model.state_dict(), checkpoint)
            log.info("step %d: loss %.4f over the last %d steps", step + 1, np.mean(losses[-every:]), every)
    if bar is not None:
        bar.close()
    log.info("trained %s for %d steps in %.0f s", model.arch, config.steps, time.perf_counter() - started)
    model.eval()
    return losses


@torch.no_grad()
def logits_of(model: PieceNet, crops: np.ndarray, batch: int = 1024) -> np.ndarray:
    """Uncalibrated logits of the runtime (centre) crops of cached crops."""
    model.eval()
    out = [model.logits(to_tensor(centre(crops[i:i + batch]))).numpy() for i in range(0, len(crops), batch)]
    return np.concatenate(out)


def softmax(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Row-wise softmax of logits / temperature."""
    z = logits / temperature
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The temperature that minimises the negative log-likelihood on held-out (dev) logits."""
    best_t, best_nll = 1.0, float("inf")
    for t in np.exp(np.linspace(np.log(0.3), np.log(5.0), 200)):
        p = softmax(logits, float(t))
        nll = float(-np.mean(np.log(p[np.arange(len(labels)), labels] + 1e-12)))
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    return best_t


def expected_calibration_error(probs: np.ndarray, labels: np.ndarray, bins: int = 15) -> float:
    """ECE of the top-class confidence: the bin-weighted mean |accuracy - confidence| over ``bins`` bins."""
    conf = probs.max(axis=1)
    right = probs.argmax(axis=1) == labels
    edges = np.linspace(0.0, 1.0, bins + 1)
    ece = 0.0
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        inside = (conf > lo) & (conf <= hi)
        if inside.any():
            ece += inside.mean() * abs(right[inside].mean() - conf[inside].mean())
    return float(ece)
