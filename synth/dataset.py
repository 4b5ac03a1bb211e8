"""Training data from the simulator: full views with truth JSON, or per-point crops of the
rectified board with labels (empty, the 14 piece kinds, covered).

Every view ``i`` of a dataset has its own seed derived from (split, dataset seed, i), so a dataset
is reproducible and the three splits never share a seed (nor, through :class:`ViewStyle`, a font
or palette).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from rules import Position
from synth.positions import occupied_names, random_position
from synth.scene import POINT_NAMES, Scene, point_xy
from synth.style import SPLIT_SEED_BASE, ViewStyle
from synth.view import ViewTruth, render_view

log = logging.getLogger(__name__)

CLASSES = ("empty", "K", "A", "B", "N", "R", "C", "P", "k", "a", "b", "n", "r", "c", "p", "covered")


def view_seed(split: str, seed: int, index: int) -> int:
    """The render seed of view ``index`` of a dataset; disjoint ranges per split."""
    return SPLIT_SEED_BASE[split] + (seed * 1_000_003 + index) % 100_000_000


@dataclass(frozen=True)
class DatasetOptions:
    """What to generate: ``n`` views from dataset ``seed`` in ``split``; ``hand_rate`` of them with
    a hand; fixed ``width``/``height`` or sampled ones; crops of ``crop_px`` around each point of a
    board rectified at ``spacing_px`` pixels per grid spacing."""

    n: int
    seed: int = 0
    split: str = "train"
    hand_rate: float = 0.25
    width: int | None = None
    height: int | None = None
    crops: bool = False
    spacing_px: int = 40
    crop_px: int = 48
    shard_views: int = 100


def dataset_view(options: DatasetOptions, index: int) -> tuple[np.ndarray, ViewTruth, Scene]:
    """View ``index`` of the dataset: its random position, style and hand all follow from its seed."""
    s = view_seed(options.split, options.seed, index)
    rng = np.random.default_rng([s, 4])
    position = random_position(rng)
    style = ViewStyle.sample(np.random.default_rng([s, 1]), split=options.split,
                             width=options.width, height=options.height)
    hand = bool(rng.random() < options.hand_rate)
    return render_view(position.fen(), s, style=style, hand=hand, split=options.split)


def generate_views(options: DatasetOptions) -> Iterator[tuple[int, np.ndarray, ViewTruth, Scene]]:
    """Yield (index, image, truth, scene) for each view of the dataset, in order."""
    for i in range(options.n):
        image, truth, scene = dataset_view(options, i)
        yield i, image, truth, scene


def rectify(image: np.ndarray, scene: Scene, spacing_px: int, pad_px: int) -> np.ndarray:
    """The board seen square-on with red at the bottom, ``spacing_px`` per grid spacing and
    ``pad_px`` around the outer points, using the scene's exact camera and lens model."""
    w = 8 * spacing_px + 2 * pad_px
    h = 9 * spacing_px + 2 * pad_px
    vs, us = np.mgrid[0:h, 0:w].astype(np.float64)
    bx = (us - pad_px) / spacing_px
    by = 9.0 - (vs - pad_px) / spacing_px
    pix = scene.board_to_image(np.column_stack([bx.ravel(), by.ravel()]))
    mx = pix[:, 0].reshape(h, w).astype(np.float32)
    my = pix[:, 1].reshape(h, w).astype(np.float32)
    return cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def point_crops(
    image: np.ndarray, truth: ViewTruth, scene: Scene, spacing_px: int, crop_px: int
) -> tuple[np.ndarray, list[int], list[str]]:
    """(crops (90, crop, crop, 3), class indices, point names) for one view."""
    pad = int(math.ceil(crop_px / 2)) + 1
    board = rectify(image, scene, spacing_px, pad)
    occupied = occupied_names_from_fen(truth.fen)
    covered = set(truth.covered)
    crops, labels = [], []
    for name in POINT_NAMES:
        x, y = point_xy(name)
        u = pad + round(x * spacing_px)
        v = pad + round((9 - y) * spacing_px)
        c0, r0 = u - crop_px // 2, v - crop_px // 2
        crops.append(board[r0 : r0 + crop_px, c0 : c0 + crop_px])
        label = "covered" if name in covered else occupied.get(name, "empty")
        labels.append(CLASSES.index(label))
    return np.stack(crops), labels, list(POINT_NAMES)


def occupied_names_from_fen(fen: str) -> dict[str, str]:
    """ICCS point name -> piece letter of a FEN."""
    return occupied_names(Position.from_fen(fen))


def write_dataset(options: DatasetOptions, outdir: Path) -> dict[str, object]:
    """Write the dataset under ``outdir``; returns the manifest (also written as manifest.json).

    Full views: ``views/NNNNNN.jpg`` + ``views/NNNNNN.json`` (truth). Crops: ``crops_KKK.npz``
    shards holding ``images`` (N, crop, crop, 3) BGR uint8, ``labels`` (N,) indices into
    ``CLASSES``, ``points`` and ``seeds``.
    """
    outdir.mkdir(parents=True, exist_ok=True)
    counts = dict.fromkeys(CLASSES, 0)
    shard_imgs: list[np.ndarray] = []
    shard_labels: list[int] = []
    shard_points: list[str] = []
    shard_seeds: list[int] = []
    shards: list[str] = []

    def flush() -> None:
        if not shard_imgs:
            return
        name = f"crops_{len(shards):03d}.npz"
        np.savez_compressed(outdir / name, images=np.concatenate(shard_imgs), labels=np.asarray(shard_labels, np.int16),
                            points=np.asarray(shard_points), seeds=np.asarray(shard_seeds, np.int64))
        shards.append(name)
        shard_imgs.clear()
        shard_labels.clear()
        shard_points.clear()
        shard_seeds.clear()

    views_dir = outdir / "views"
    for i, image, truth, scene in generate_views(options):
        if options.crops:
            crops, labels, names = point_crops(image, truth, scene, options.spacing_px, options.crop_px)
            shard_imgs.append(crops)
            shard_labels.extend(labels)
            shard_points.extend(names)
            shard_seeds.extend([truth.seed] * len(names))
            for index in labels:
                counts[CLASSES[index]] += 1
            if (i + 1) % options.shard_views == 0:
                flush()
        else:
            views_dir.mkdir(exist_ok=True)
            cv2.imwrite(str(views_dir / f"{i:06d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
            (views_dir / f"{i:06d}.json").write_text(json.dumps(truth.to_json()), encoding="utf-8")
            occupied = occupied_names_from_fen(truth.fen)
            for name in POINT_NAMES:
                label = "covered" if name in truth.covered else occupied.get(name, "empty")
                counts[label] += 1
    flush()
    manifest: dict[str, object] = {
        "kind": "crops" if options.crops else "views",
        "n_views": options.n,
        "seed": options.seed,
        "split": options.split,
        "classes": list(CLASSES),
        "counts": counts,
        "spacing_px": options.spacing_px,
        "crop_px": options.crop_px,
        "shards": shards,
    }
    (outdir / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest
