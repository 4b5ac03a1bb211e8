"""``python -m models.train.timed``: train within a wall-clock budget on a machine lent for it (a GPU, many cores).

``make train`` renders its data first and then trains for a fixed number of steps on 2 CPU cores
(hours). A lent machine is held for minutes, so this trainer overlaps the two: worker processes
render boards of the train split (as ``build_cache`` does) while the main process trains on the
boards rendered so far, taking in new ones as they arrive. The learning rate follows a one-cycle
schedule over the time budget rather than a step count, and the same batches (one draw,
one augmentation) train every architecture named, so the nets are compared on equal terms.

At the end each net's output bias gets the prior correction of all boards rendered, its
temperature is fitted on the dev split, and it is saved as ``OUT/<arch>.pt`` (corrected,
temperature set: what ``--init`` takes), exported to ``OUT/<arch>.onnx`` with its metadata and
evaluated with onnxruntime. Along the way the raw weights go to ``OUT/<arch>.partial.pt`` every
minute (not corrected: a look at a run, not an ``--init``). Data and sampling seeds are fixed, but
which boards are trained on (all of ``--max-boards`` only if they render within the budget), in
which order, and how many steps fit in the budget depend on the machine's speed, and cuDNN is not
deterministic: a run is repeatable in its settings, not step for step.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import multiprocessing
import os
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, cast

import numpy as np
import torch
import torch.nn.functional as F

from models.train.data import CACHE_PX, BoardSpec, _render_chunk, centre, share
from models.train.export import evaluate_onnx, export_onnx
from models.train.fit import (
    FitConfig,
    augment_batch,
    expected_calibration_error,
    fit_temperature,
    prior_correction,
    sampling_prior,
    softmax,
)
from models.train.net import ARCHITECTURES, PieceNet
from synth.dataset import CLASSES
from synth.style import FACE_SETS

log = logging.getLogger("models.train.timed")


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m models.train.timed", description=__doc__)
    p.add_argument("--arch", nargs="+", choices=ARCHITECTURES, default=["deep", "compact"])
    p.add_argument("--budget-s", type=float, default=420.0, help="wall-clock seconds for the whole run")
    p.add_argument("--finish-s", type=float, default=70.0, help="of the budget, kept for exporting at the end")
    p.add_argument("--max-boards", type=int, default=12000, help="train boards to render at most")
    p.add_argument("--start-boards", type=int, default=600, help="train boards rendered before training starts")
    p.add_argument("--dev-boards", type=int, default=200)
    p.add_argument("--seed", type=int, default=5, help="dataset seed of the train split")
    p.add_argument("--faces", choices=FACE_SETS, default="wide")
    p.add_argument("--video-views", type=share, default=0.0,
                   help="share of train boards framed as a recording camera sends them (640x360 to 960x540)")
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--lr", type=float, default=4e-3)
    p.add_argument("--recolour", type=float, default=0.2)
    p.add_argument("--glyph", type=float, default=0.25)
    p.add_argument("--gain-spread", type=float, default=0.35)
    p.add_argument("--blur-rate", type=float, default=0.15)
    p.add_argument("--fit-seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 1), help="render processes")
    p.add_argument("--chunk", type=int, default=8, help="boards per render job")
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--init", action="append", default=[], metavar="ARCH=PATH",
                   help="start ARCH from the weights a run saved (OUT/ARCH.pt: prior-corrected, temperature set)")
    p.add_argument("--out", type=Path, default=Path("out/train/timed"))
    return p.parse_args()


class BoardStore:
    """The rendered boards' crops and labels on the training device, growing as renders arrive."""

    def __init__(self, capacity_boards: int, device: torch.device) -> None:
        self.crops = torch.empty((capacity_boards * 90, CACHE_PX, CACHE_PX, 3), dtype=torch.uint8, device=device)
        self.labels = torch.empty(capacity_boards * 90, dtype=torch.int64, device=device)
        self.size = 0
        self.boards = 0
        self.order = torch.empty(0, dtype=torch.int64, device=device)
        self.offsets = torch.zeros(len(CLASSES), dtype=torch.int64, device=device)
        self.counts = torch.zeros(len(CLASSES), dtype=torch.int64, device=device)

    def add(self, part: dict[str, np.ndarray]) -> None:
        crops = part["crops"].reshape(-1, CACHE_PX, CACHE_PX, 3)
        n = len(crops)
        self.crops[self.size:self.size + n] = torch.from_numpy(crops).to(self.crops.device, non_blocking=True)
        self.labels[self.size:self.size + n] = torch.from_numpy(part["labels"].reshape(-1)).to(self.labels.device)
        self.size += n
        self.boards += len(part["labels"])

    def index(self) -> None:
        """Group the crops by class (after adding), for class-balanced draws."""
        labels = self.labels[:self.size]
        self.order = torch.argsort(labels, stable=True)
        self.counts = torch.bincount(labels, minlength=len(CLASSES))
        self.offsets = torch.cumsum(self.counts, 0) - self.counts

    def label_array(self) -> np.ndarray:
        return self.labels[:self.size].cpu().numpy()

    def draw(self, mix: torch.Tensor, batch: int, gen: torch.Generator) -> torch.Tensor:
        """Crop indices: a class from ``mix``, then a crop of that class uniformly (no host sync)."""
        drawn = torch.multinomial(mix, batch, replacement=True, generator=gen)
        u = torch.rand(batch, generator=gen, device=gen.device)
        within = (u * self.counts[drawn]).long().clamp_max(self.counts[drawn] - 1)
        return self.order[self.offsets[drawn] + within]


def one_cycle(progress: float, peak: float) -> float:
    """Learning rate at ``progress`` (0..1) of the run: cosine up to ``peak`` over 15 %, cosine down to ~0."""
    start, end, warm = peak / 25.0, peak / 1e4, 0.15
    if progress < warm:
        return start + (peak - start) * (1 - math.cos(math.pi * progress / warm)) / 2
    p = min(1.0, (progress - warm) / (1 - warm))
    return end + (peak - end) * (1 + math.cos(math.pi * p)) / 2


@torch.no_grad()
def dev_logits(model: PieceNet, crops: np.ndarray, device: torch.device) -> np.ndarray:
    model.eval()
    flat = crops.reshape(-1, *crops.shape[2:])
    out = []
    for i in range(0, len(flat), 4096):
        x = torch.from_numpy(np.ascontiguousarray(centre(flat[i:i + 4096]))).to(device)
        out.append(model.logits(x.permute(0, 3, 1, 2).float().div_(255.0)).float().cpu().numpy())
    return np.concatenate(out)


def finish(model: PieceNet, labels: np.ndarray, config: FitConfig, dev: tuple[np.ndarray, np.ndarray],
           device: torch.device) -> tuple[PieceNet, float, dict[str, float]]:
    """A copy of ``model`` answering with the data's class frequencies, its temperature fitted on dev."""
    final = PieceNet(model.arch, len(CLASSES)).to(device)
    final.load_state_dict(model.state_dict())
    with torch.no_grad():
        correction = prior_correction(labels, len(CLASSES), config.class_power)
        final.head.bias.add_(torch.from_numpy(correction).float().to(device))
    logits = dev_logits(final, dev[0], device)
    flat = dev[1].reshape(-1)
    temperature = fit_temperature(logits, flat)
    final.temperature.fill_(temperature)
    figures = {"ece_before": expected_calibration_error(softmax(logits), flat),
               "ece_after": expected_calibration_error(softmax(logits, temperature), flat),
               "torch_point_accuracy": float((logits.argmax(1) == flat).mean())}
    return final.cpu().eval(), temperature, figures


def main() -> None:
    args = parse_args()
    started = time.monotonic()
    args.out.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s",
                        handlers=[logging.StreamHandler(), logging.FileHandler(args.out / "run.log")])
    device = torch.device(args.device)
    log.info("device %s%s, %d render workers, budget %.0f s", device,
             f" ({torch.cuda.get_device_name(device)})" if device.type == "cuda" else "", args.workers, args.budget_s)
    config = FitConfig(steps=0, batch=args.batch, lr=args.lr, seed=args.fit_seed, recolour=args.recolour,
                       glyph=args.glyph, gain_spread=args.gain_spread, blur_rate=args.blur_rate)
    pool = multiprocessing.get_context("spawn").Pool(args.workers)
    dev_jobs = [[BoardSpec("dev", 0, i, 0.5, False) for i in range(s, min(args.dev_boards, s + args.chunk))]
                for s in range(0, args.dev_boards, args.chunk)]
    train_jobs = [[BoardSpec("train", args.seed, i, 0.5, True, args.faces, args.video_views)
                   for i in range(s, min(args.max_boards, s + args.chunk))]
                  for s in range(0, args.max_boards, args.chunk)]
    dev_async = pool.map_async(_render_chunk, dev_jobs)
    arriving = pool.imap_unordered(_render_chunk, train_jobs)
    parts = dev_async.get()
    dev = (np.concatenate([p["crops"] for p in parts]), np.concatenate([p["labels"] for p in parts]))
    log.info("dev: %d boards rendered at %.0f s", len(dev[1]), time.monotonic() - started)

    store = BoardStore(args.max_boards, device)
    received = 0

    def take(block: bool) -> int:
        nonlocal received
        got = 0
        while received < len(train_jobs):
            try:
                part = arriving.next(timeout=None if block else 0.0)
            except multiprocessing.TimeoutError:
                break
            store.add(part)
            received += 1
            got += 1
            if block:
                break
        if got:
            store.index()
        return got

    while store.boards < args.start_boards and received < len(train_jobs):
        take(block=True)
    log.info("train: %d boards rendered at %.0f s; training starts", store.boards, time.monotonic() - started)

    torch.manual_seed(args.fit_seed)
    models = {arch: PieceNet(arch, len(CLASSES)) for arch in args.arch}
    for arch, path in (item.split("=", 1) for item in args.init):
        if arch not in models:
            raise SystemExit(f"--init {arch}=...: {arch} is not among the nets trained (--arch {' '.join(args.arch)})")
        model = models[arch]
        model.load_state_dict(torch.load(path, map_location="cpu"))
        model.temperature.fill_(1.0)
        with torch.no_grad():  # back to the scale of the shifted batches it is trained on
            correction = prior_correction(store.label_array(), len(CLASSES), config.class_power)
            model.head.bias.sub_(torch.from_numpy(correction).float())
        log.info("%s starts from %s", arch, path)
    models = {arch: model.to(device) for arch, model in models.items()}
    for model in models.values():
        cast(Any, model).to(memory_format=torch.channels_last)  # (torch's stubs lack the keyword)
    optimisers = {arch: torch.optim.AdamW(m.parameters(), lr=args.lr, weight_decay=config.weight_decay)
                  for arch, m in models.items()}
    gen = torch.Generator(device=device).manual_seed(args.fit_seed)
    train_start = time.monotonic()
    train_end = started + args.budget_s - args.finish_s
    mix = torch.from_numpy(sampling_prior(store.label_array(), len(CLASSES), config.class_power)).float().to(device)
    losses: dict[str, list[torch.Tensor]] = {arch: [] for arch in models}
    step, last_save, last_log = 0, train_start, train_start
    for m in models.values():
        m.train()
    while True:
        now = time.monotonic()
        progress = (now - train_start) / max(1e-6, train_end - train_start)
        if progress >= 1.0:
            break
        if step % 100 == 0 and take(block=False):
            mix = torch.from_numpy(sampling_prior(store.label_array(), len(CLASSES),
                                                  config.class_power)).float().to(device)
        idx = store.draw(mix, args.batch, gen)
        x = store.crops[idx].permute(0, 3, 1, 2).float().div_(255.0)
        x, y = augment_batch(x, store.labels[idx], config, gen)
        x = x.contiguous(memory_format=torch.channels_last)
        lr = one_cycle(progress, args.lr)
        for arch, model in models.items():
            opt = optimisers[arch]
            for group in opt.param_groups:
                group["lr"] = lr
            loss = F.cross_entropy(model.logits(x), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            losses[arch].append(loss.detach())
        step += 1
        if now - last_log > 30:
            last_log = now
            recent = {a: float(torch.stack(v[-200:]).mean()) for a, v in losses.items()}
            log.info("step %d, %.0f s, lr %.2e, boards %d, loss %s", step, now - started, lr, store.boards,
                     {a: round(v, 4) for a, v in recent.items()})
        if now - last_save > 60:
            last_save = now
            for arch, model in models.items():
                torch.save(model.state_dict(), args.out / f"{arch}.partial.pt")
    train_s = time.monotonic() - train_start
    pool.terminate()
    labels = store.label_array()
    log.info("trained %d steps in %.0f s on %d boards (%d crops); class counts %s", step, train_s, store.boards,
             store.size, np.bincount(labels, minlength=len(CLASSES)).tolist())
    summary: dict[str, Any] = {"steps": step, "train_s": round(train_s), "boards": store.boards}
    finals = {arch: finish(model, labels, config, dev, device) for arch, model in models.items()}
    for arch, (final, _, _) in finals.items():  # the weights first: an export that fails loses nothing
        torch.save(final.state_dict(), args.out / f"{arch}.pt")
        (args.out / f"{arch}.partial.pt").unlink(missing_ok=True)
    for arch, (final, temperature, figures) in finals.items():
        curve = [float(v) for v in torch.stack(losses[arch]).view(-1).cpu()] if losses[arch] else [float("nan")]
        extra = {
            "training": {**asdict(config), "steps": step, "arch": arch, "data_seed": args.seed, "faces": args.faces,
                         "video_views": args.video_views,
                         "train_boards": store.boards, "dev_boards": len(dev[1]), "train_s": round(train_s),
                         "budget_s": args.budget_s, "device": str(device), "torch": torch.__version__,
                         "final_loss": float(np.mean(curve[-200:])), "trainer": "models.train.timed",
                         "class_counts": np.bincount(labels, minlength=len(CLASSES)).tolist(),
                         "data": "synth train split rendered while training (hand on half the views, "
                                 "perturbed geometries), dev split for temperature"},
            "dev": figures,
        }
        path = args.out / f"{arch}.onnx"
        try:
            export_onnx(final, path, temperature=temperature, extra=extra)
            onnx_figures = evaluate_onnx(path, *dev)
        except Exception:  # noqa: BLE001  (a run's hours are in the .pt: export it on another machine)
            log.exception("exporting %s failed; its weights are in %s", arch, path.with_suffix(".pt"))
            summary[arch] = {"temperature": temperature, **figures, "export": "failed"}
            continue
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        meta["dev"].update(onnx_figures)
        path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
        summary[arch] = {"temperature": temperature, **figures, **onnx_figures}
    summary["total_s"] = round(time.monotonic() - started)
    log.info("summary %s", json.dumps(summary))
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
