"""Export to ONNX, write the metadata beside it, and evaluate the ONNX file with onnxruntime."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import numpy as np
import torch

from models.train.data import CONTEXT, CROP_PX, centre
from models.train.net import PieceNet, count_params
from recorder.vision import PieceClassifier, file_sha256
from synth.dataset import CLASSES

log = logging.getLogger(__name__)


def export_onnx(model: PieceNet, path: Path, *, temperature: float, extra: dict[str, Any]) -> dict[str, Any]:
    """Write ``path`` (probabilities with the temperature folded in) and ``path.with_suffix('.json')``."""
    model.eval()
    model.temperature.fill_(temperature)
    path.parent.mkdir(parents=True, exist_ok=True)
    example = torch.rand(90, 3, CROP_PX, CROP_PX)
    torch.onnx.export(model, (example,), str(path), input_names=["crops"], output_names=["probs"],
                      dynamic_axes={"crops": {0: "points"}, "probs": {0: "points"}}, opset_version=17,
                      dynamo=False)
    meta: dict[str, Any] = {
        "name": "piece_classifier",
        "architecture": model.arch,
        "parameters": count_params(model),
        "classes": list(CLASSES),
        "input": {"name": "crops", "layout": "NCHW", "channel_order": "BGR", "dtype": "float32",
                  "shape": ["points", 3, CROP_PX, CROP_PX]},
        "output": {"name": "probs", "shape": ["points", len(CLASSES)], "kind": "calibrated softmax"},
        "crop": {"size_px": CROP_PX, "context_spacings": CONTEXT, "function": "recorder.vision.point_crops",
                 "points_order": "FEN reading order: rank 9 to 0, files a to i"},
        "normalisation": {"scale": 1.0 / 255.0,
                          "in_model": "per-crop standardisation over all pixels and channels"},
        "temperature": temperature,
        **extra,
    }
    meta["sha256"] = file_sha256(path)
    meta["size_bytes"] = path.stat().st_size
    path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    log.info("exported %s (%d bytes, sha256 %s)", path, meta["size_bytes"], meta["sha256"][:12])
    return meta


def evaluate_onnx(path: Path, crops: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """Per-point and whole-board accuracy of the ONNX file (through ``PieceClassifier``) on cached boards.

    ``crops`` are (boards, 90, S, S, 3) cached crops whose centres are the runtime crops.
    """
    from models.train.fit import expected_calibration_error

    clf = PieceClassifier(path, threads=2)
    boards = crops.shape[0]
    probs = np.concatenate([clf.predict_crops(centre(crops[b])) for b in range(boards)])
    flat = labels.reshape(-1)
    pred = probs.argmax(axis=1)
    right = (pred == flat).reshape(boards, -1)
    covered = flat == CLASSES.index("covered")
    return {
        "boards": float(boards),
        "point_accuracy": float(right.mean()),
        "board_accuracy": float(right.all(axis=1).mean()),
        "covered_recall": float((pred[covered] == flat[covered]).mean()) if covered.any() else float("nan"),
        "ece": expected_calibration_error(probs, flat),
    }
