"""``python -m models.train``: render data with synth, train, calibrate, export to ONNX, evaluate the ONNX file.

Stages (each cached under ``out/train``): render the train and dev splits into crop caches, train the
network for a fixed number of steps (fixed seeds: the run is repeatable), fit the softmax temperature
on dev, export ``models/piece_classifier.onnx`` + ``.json``, and evaluate the ONNX file with
onnxruntime on dev. ``--arch separable --out out/train/separable.onnx`` trains the comparison model.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch

from models.train.data import build_cache, cache_name, share
from models.train.export import evaluate_onnx, export_onnx, import_onnx
from models.train.fit import (
    FitConfig,
    expected_calibration_error,
    fit_temperature,
    logits_of,
    prior_correction,
    softmax,
    train,
)
from models.train.net import ARCHITECTURES, PieceNet
from synth.style import FACE_SETS

log = logging.getLogger("models.train")


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m models.train", description=__doc__)
    p.add_argument("--arch", choices=ARCHITECTURES, default="deep")
    p.add_argument("--train-boards", type=int, default=4000)
    p.add_argument("--dev-boards", type=int, default=200)
    p.add_argument("--steps", type=int, default=11000)
    p.add_argument("--class-power", type=float, default=0.4,
                   help="batches draw each class ~ count ** power (1: as the data comes)")
    p.add_argument("--recolour", type=float, default=0.0,
                   help="share of piece crops whose ink is painted in the other side's colour (label swapped)")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--seed", type=int, default=0, help="dataset seed (names the caches)")
    p.add_argument("--faces", choices=FACE_SETS, default="base",
                   help="the train split's faces ('wide': with the brush, handwritten and gothic faces added)")
    p.add_argument("--video-views", type=share, default=0.0,
                   help="share of train boards framed as a recording camera sends them (640x360 to 960x540)")
    p.add_argument("--fit-seed", type=int, default=0, help="seed of batch sampling and augmentation")
    p.add_argument("--workers", type=int, default=2, help="render processes")
    p.add_argument("--threads", type=int, default=2, help="torch threads")
    p.add_argument("--cache", type=Path, default=Path("out/train"))
    p.add_argument("--out", type=Path, default=Path("models/piece_classifier.onnx"))
    start = p.add_mutually_exclusive_group()
    start.add_argument("--init", type=Path, help="start from these weights (a .pt state dict saved by a run)")
    start.add_argument("--init-onnx", type=Path,
                       help="start from an exported model (its batch norms folded: their statistics stay fixed)")
    p.add_argument("--camera", action="store_true",
                   help="stronger camera augmentation: colour gains +-25 %% (a lamp's cast) and defocus on 30 %% of crops")
    p.add_argument("--glyph", type=float, default=0.0,
                   help="share of crops whose character strokes are made heavier or lighter and bent")
    p.add_argument("--no-progress", action="store_true")
    return p.parse_args()


def load(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """(crops (boards, 90, S, S, 3), labels (boards, 90)) from a cache file."""
    with np.load(path) as data:
        return data["crops"], data["labels"]


def main() -> None:
    args = parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    progress = not args.no_progress
    started = time.perf_counter()
    train_path = build_cache("train", args.seed, args.train_boards,
                             args.cache / cache_name("train", args.seed, args.train_boards, args.faces, args.video_views),
                             hand_rate=0.5, perturb=True, workers=args.workers, progress=progress, faces=args.faces,
                             video_share=args.video_views)
    dev_path = build_cache("dev", args.seed, args.dev_boards, args.cache / cache_name("dev", args.seed, args.dev_boards),
                           hand_rate=0.5, perturb=False, workers=args.workers, progress=progress)
    render_s = time.perf_counter() - started
    crops, labels = load(train_path)
    crops = crops.reshape(-1, *crops.shape[2:])
    labels = labels.reshape(-1)
    log.info("train crops %s, class counts %s", crops.shape, np.bincount(labels).tolist())
    torch.manual_seed(args.seed)
    model = PieceNet(args.arch, 16)
    if args.init is not None:
        model.load_state_dict(torch.load(args.init))
    elif args.init_onnx is not None:
        model = import_onnx(args.init_onnx, args.arch)
        with torch.no_grad():  # back to the scale of the shifted batches it is trained on
            correction = prior_correction(labels, model.head.out_features, args.class_power)
            model.head.bias.sub_(torch.from_numpy(correction).float())
    config = FitConfig(steps=args.steps, batch=args.batch, lr=args.lr, seed=args.fit_seed, threads=args.threads,
                       class_power=args.class_power, recolour=args.recolour, freeze_bn=args.init_onnx is not None,
                       gain_spread=0.5 if args.camera else 0.2, blur_rate=0.3 if args.camera else 0.0,
                       glyph=args.glyph)
    t0 = time.perf_counter()
    losses = train(model, crops, labels, config, progress=progress,
                   checkpoint=args.cache / f"{args.out.stem}.partial.pt")
    train_s = time.perf_counter() - t0
    torch.save(model.state_dict(), args.cache / f"{args.out.stem}.pt")  # as trained: what --init goes on from
    with torch.no_grad():  # answer with the data's class frequencies, not the batches'
        correction = prior_correction(labels, model.head.out_features, config.class_power)
        model.head.bias.add_(torch.from_numpy(correction).float())
    del crops
    dev_crops, dev_labels = load(dev_path)
    dev_logits = logits_of(model, dev_crops.reshape(-1, *dev_crops.shape[2:]))
    flat = dev_labels.reshape(-1)
    temperature = fit_temperature(dev_logits, flat)
    ece_before = expected_calibration_error(softmax(dev_logits), flat)
    ece_after = expected_calibration_error(softmax(dev_logits, temperature), flat)
    log.info("temperature %.3f: dev ECE %.5f -> %.5f", temperature, ece_before, ece_after)
    extra = {
        "training": {**asdict(config), "arch": args.arch, "data_seed": args.seed, "faces": args.faces,
                     "video_views": args.video_views, "train_boards": args.train_boards,
                     "dev_boards": args.dev_boards, "render_s": round(render_s), "train_s": round(train_s),
                     "final_loss": float(np.mean(losses[-100:])), "torch": torch.__version__,
                     "init": str(args.init or args.init_onnx) if (args.init or args.init_onnx) else None,
                     "data": "synth train split (hand on half the views, perturbed geometries), dev split for temperature"},
        "dev": {"ece_before": ece_before, "ece_after": ece_after},
    }
    export_onnx(model, args.out, temperature=temperature, extra=extra)
    figures = evaluate_onnx(args.out, dev_crops, dev_labels)
    meta_path = args.out.with_suffix(".json")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["dev"].update(figures)
    meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({"onnx_dev": figures, "temperature": temperature, "ece_before": ece_before,
                      "ece_after": ece_after, "total_s": round(time.perf_counter() - started)}, indent=1))


if __name__ == "__main__":
    main()
