"""An int8 copy of the piece classifier for slow machines: static quantization with onnxruntime.

``python -m models.train.quantize [--model models/piece_classifier.onnx] [--out ...int8.onnx]``
calibrates the activation ranges on rendered dev-split boards (never the test split), quantizes
weights per channel (QDQ format) and writes the model with a metadata file beside it, as the
runtime expects (``xqrec read-board --model``, ``bench.bench_classifier --model``). On 2 cores it
reads a board about 1.8 times faster (AVX2 without VNNI) for about 0.15 points of per-point accuracy (see the model
card); the float model stays the default.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

import numpy as np

from models.train.data import build_cache, cache_name, centre
from recorder.vision import DEFAULT_MODEL, file_sha256

log = logging.getLogger(__name__)

CACHE_DIR = Path("out/train")


def quantize(model: Path, out: Path, boards: int = 40, workers: int = 2) -> dict[str, object]:
    """Write an int8 copy of ``model`` to ``out`` (and its metadata); returns the metadata."""
    import onnxruntime as ort
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    meta = json.loads(model.with_suffix(".json").read_text(encoding="utf-8"))
    scale = float(meta["normalisation"]["scale"])
    input_name = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"]).get_inputs()[0].name
    path = build_cache("dev", 0, boards, CACHE_DIR / cache_name("dev", 0, boards), hand_rate=0.5, perturb=False,
                       workers=workers, progress=False)
    with np.load(path) as data:
        crops = data["crops"]

    class Reader(CalibrationDataReader):
        """Feeds the calibrator one board (90 crops, as the runtime prepares them) at a time."""

        def __init__(self) -> None:
            self.boards = iter([np.ascontiguousarray(centre(board).transpose(0, 3, 1, 2), dtype=np.float32) * scale
                                for board in crops])

        def get_next(self) -> dict[str, np.ndarray] | None:
            board = next(self.boards, None)
            return None if board is None else {input_name: board}

    prepared = out.with_suffix(".pre.onnx")
    quant_pre_process(str(model), str(prepared))
    try:
        # 7-bit weights (reduce_range): without VNNI, onnxruntime's u8 x s8 kernels add pairs of products
        # in 16 bits, which full-range weights saturate; on an AVX2-only CPU the full-range copy read
        # 97.02 % of points (98.81 % float), this one 98.66 % (see the model card)
        quantize_static(str(prepared), str(out), Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                        reduce_range=True, activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    finally:
        prepared.unlink(missing_ok=True)
    meta = {**meta, "name": f"{meta['name']}_int8", "quantization": {
        "kind": "static int8 (QDQ, per-channel 7-bit weights, uint8 activations)", "from": model.name,
        "from_sha256": meta.get("sha256"), "calibration": f"{boards} dev-split boards"}}
    meta["sha256"] = file_sha256(out)
    meta["size_bytes"] = out.stat().st_size
    out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    log.info("wrote %s (%d bytes)", out, meta["size_bytes"])
    return meta


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL)
    parser.add_argument("--out", type=Path, default=None, help="default: beside the model, .int8.onnx")
    parser.add_argument("--boards", type=int, default=40, help="dev-split boards for the activation ranges")
    args = parser.parse_args(argv)
    out = args.out or args.model.with_name(args.model.stem + ".int8.onnx")
    meta = quantize(args.model, out, args.boards)
    print(f"{out}: {meta['size_bytes']} bytes, sha256 {str(meta['sha256'])[:12]}")


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
