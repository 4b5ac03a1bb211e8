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


def import_onnx(path: Path, arch: str) -> PieceNet:
    """A ``PieceNet`` holding the weights of an exported model, to train further from it.

    The export folds each batch norm into its convolution, so the imported batch norms are
    identities with the folded bias (train them with ``FitConfig.freeze_bn``: their running
    statistics are not the data's). The head keeps the exported bias, which includes the prior
    correction (subtract it before training on the shifted batches); the temperature is left out.
    """
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    convs = [node for node in graph.node if node.op_type == "Conv"]
    model = PieceNet(arch, len(CLASSES))
    layers = list(model.features.modules())
    blocks = [(conv, norm) for conv, norm in zip(layers, layers[1:], strict=False)
              if isinstance(conv, torch.nn.Conv2d) and isinstance(norm, torch.nn.BatchNorm2d)]
    if len(blocks) != len(convs):
        raise ValueError(f"{path} has {len(convs)} convolutions, a {arch} net {len(blocks)}: not that architecture")
    with torch.no_grad():
        for (conv, norm), node in zip(blocks, convs, strict=True):
            kernel, bias = np.array(weights[node.input[1]]), np.array(weights[node.input[2]])
            if tuple(conv.weight.shape) != kernel.shape:
                raise ValueError(f"{path}: a {kernel.shape} kernel where a {arch} net has {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(kernel))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(bias))
            assert norm.running_mean is not None and norm.running_var is not None  # tracked: PieceNet's default
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        model.head.weight.copy_(torch.from_numpy(np.array(weights["head.weight"])))
        model.head.bias.copy_(torch.from_numpy(np.array(weights["head.bias"])))
    model.eval()
    return model
