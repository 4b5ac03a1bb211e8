"""Training data: synth renders -> geometry -> ``BoardGeometry.rectify`` -> ``recorder.vision.point_crops``.

Each board is rendered by ``synth`` (style and seed ranges of one split), rectified through a
``BoardGeometry`` built from the renderer's own camera (its homography and barrel lens, which match
``calibration``'s radial model) and cut into 90 context crops by the runtime's crop function. Crops are
cached at a wider context than the model reads (``CACHE_CONTEXT``) at the same pixel scale, so training
can rotate them and cut the centre without seeing the crop border; the centre of a cached crop is
exactly the runtime crop.

Training boards also get perturbed geometries (corner errors of a few % of a spacing, or a plain
homography fitted to the distorted points without a lens model) so the classifier tolerates the errors
a real calibration makes.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import time
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from calibration.geometry import BoardGeometry
from calibration.lens import RadialDistortion
from recorder.vision import POINT_NAMES, point_crops
from synth.dataset import CLASSES, view_seed
from synth.positions import occupied_names, random_position
from synth.style import ViewStyle
from synth.video_scene import framed_by_camera
from synth.view import ViewTruth, render_view

log = logging.getLogger(__name__)

CROP_PX = 48  # what the model reads (about 37 px per grid spacing: a piece's character ~18 px tall)
CONTEXT = 1.3  # spacings spanned by a model crop (the piece and the edges of its neighbours)
CACHE_PX = 72  # cached crops: same scale, wider view (room to rotate)
CACHE_CONTEXT = CONTEXT * CACHE_PX / CROP_PX


@dataclass(frozen=True)
class BoardSpec:
    """One board to render: split, dataset seed and index; ``hand`` and ``perturb`` switches; the face set;
    the share of boards seen as a recording camera frames them (``VIDEO_SIZES``)."""

    split: str
    seed: int
    index: int
    hand_rate: float
    perturb: bool
    faces: str = "base"
    video_share: float = 0.0


def truth_geometry(truth: ViewTruth, width: int, height: int) -> BoardGeometry:
    """The exact geometry of a render: its board-to-pixel homography and barrel lens."""
    h = np.array(truth.camera["homography"], dtype=np.float64)
    barrel = float(truth.camera.get("barrel", 0.0))
    lens = RadialDistortion(k=barrel, image_size=(width, height)) if barrel else None
    return BoardGeometry(homography=h / h[2, 2], image_size=(width, height), confidence=1.0,
                         red_side="bottom", lens=lens)


def perturbed_geometry(geometry: BoardGeometry, truth: ViewTruth, rng: np.random.Generator) -> BoardGeometry:
    """A geometry with calibration-like errors: moved grid corners, or no lens model at all."""
    if geometry.lens is not None and rng.random() < 0.3:
        names = list(truth.points)
        board = np.array([[float("abcdefghi".index(n[0])), float(n[1:])] for n in names])
        image = np.array([truth.points[n] for n in names])
        h, _ = cv2.findHomography(board, image, 0)
        return BoardGeometry(homography=h / h[2, 2], image_size=geometry.image_size, confidence=1.0,
                             red_side="bottom", lens=None)
    corners = np.array([[0.0, 0.0], [8.0, 0.0], [8.0, 9.0], [0.0, 9.0]])
    sigma = float(rng.uniform(0.01, 0.06))
    moved = corners + rng.normal(0.0, sigma, size=corners.shape)
    # board -> moved board, then the true camera: the named points drift by up to ~2 sigma spacings
    drift = cv2.getPerspectiveTransform(corners.astype(np.float32), moved.astype(np.float32)).astype(np.float64)
    h = geometry.homography @ drift
    return BoardGeometry(homography=h / h[2, 2], image_size=geometry.image_size, confidence=1.0,
                         red_side="bottom", lens=geometry.lens)


def labels_of(truth: ViewTruth) -> np.ndarray:
    """Class index per point (``POINT_NAMES`` order): the piece, empty, or covered under a hand."""
    from rules import Position

    occupied = occupied_names(Position.from_fen(truth.fen))
    covered = set(truth.covered)
    out = [CLASSES.index("covered" if n in covered else occupied.get(n, "empty")) for n in POINT_NAMES]
    return np.array(out, dtype=np.int64)


def render_sample(split: str, seed: int, index: int, hand_rate: float,
                  faces: str = "base", video_share: float = 0.0) -> tuple[np.ndarray, ViewTruth, bool, int]:
    """(image, truth, whether a hand is in view, view seed) of view ``index`` of a split's dataset ``seed``:
    a random position in a style of the split (``faces``: see ``ViewStyle.sample``), drawn from the view
    seed alone (repeatable). ``video_share`` of the views are framed as a recording camera frames a
    board, at a video's size (``VIDEO_SIZES``), with a codec's loss."""
    s = view_seed(split, seed, index)
    rng = np.random.default_rng([s, 4])
    position = random_position(rng)
    style = ViewStyle.sample(np.random.default_rng([s, 1]), split=split, faces=faces)
    video_rng = np.random.default_rng([s, 11])
    if video_share and video_rng.random() < video_share:
        style = video_view_style(style, video_rng)
    hand = bool(rng.random() < hand_rate)
    image, truth, _ = render_view(position.fen(), s, style=style, hand=hand, split=split)
    return image, truth, hand, s


def share(text: str) -> float:
    """A command-line share (``--video-views``): a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a share from 0 to 1")
    return value


VIDEO_SIZES = ((640, 360), (854, 480), (960, 540))  # streams a recording camera sends: 28-42 px per spacing


def video_view_style(style: ViewStyle, rng: np.random.Generator) -> ViewStyle:
    """``style`` as a recording camera sees it: the board fills most of a small video frame, square to it
    or nearly, and a codec has softened it (a JPEG round trip stands in for the codec)."""
    width, height = VIDEO_SIZES[int(rng.choice(len(VIDEO_SIZES), p=[0.6, 0.2, 0.2]))]
    framed = framed_by_camera(replace(style, width=width, height=height), rng)
    return replace(framed, noise_sigma=min(style.noise_sigma, 1.5), blur_sigma=min(style.blur_sigma, 0.8),
                   jpeg_quality=int(rng.choice((55, 70, 85))))


def render_board(spec: BoardSpec) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]:
    """(crops (90, CACHE_PX, CACHE_PX, 3) uint8, labels (90,), hand flags (90,), seed, the share of
    each point's neighbourhood under the hand (90,), what stands on each point, hand or not (90,))
    for one board."""
    image, truth, hand, s = render_sample(spec.split, spec.seed, spec.index, spec.hand_rate, spec.faces,
                                           spec.video_share)
    geometry = truth_geometry(truth, image.shape[1], image.shape[0])
    prng = np.random.default_rng([s, 7])
    if spec.perturb and prng.random() < 0.7:
        geometry = perturbed_geometry(geometry, truth, prng)
    rectified = geometry.rectify(image)
    crops = point_crops(rectified, out_px=CACHE_PX, context=CACHE_CONTEXT,
                        spacing=geometry.spacing, margin=geometry.margin)
    flags = np.array([hand] * len(POINT_NAMES), dtype=bool)
    cover = np.array([truth.cover.get(name, 0.0) for name in POINT_NAMES], dtype=np.float16)
    return crops, labels_of(truth), flags, s, cover, labels_of(replace(truth, covered=[]))


def _render_chunk(specs: list[BoardSpec]) -> dict[str, np.ndarray]:
    cv2.setNumThreads(1)
    parts = [render_board(spec) for spec in specs]
    return {
        "crops": np.stack([p[0] for p in parts]),
        "labels": np.stack([p[1] for p in parts]),
        "hand": np.stack([p[2] for p in parts]),
        "seeds": np.array([p[3] for p in parts], dtype=np.int64),
        "cover": np.stack([p[4] for p in parts]),
        "content": np.stack([p[5] for p in parts]),
    }


def cache_name(split: str, seed: int, boards: int, faces: str = "base", video_share: float = 0.0) -> str:
    """File name of a crop cache; it carries the crop geometry, so a change of crop never reuses stale crops."""
    wide = "" if faces == "base" else f"_{faces}"
    video = f"_video{video_share:g}" if video_share else ""
    return f"{split}{wide}{video}_s{seed}_n{boards}_{CACHE_PX}px_{CACHE_CONTEXT:.2f}sp.npz"


def build_cache(split: str, seed: int, boards: int, out: Path, *, hand_rate: float, perturb: bool,
                workers: int = 2, chunk: int = 25, progress: bool = True, faces: str = "base",
                require: tuple[str, ...] = (), video_share: float = 0.0) -> Path:
    """Render ``boards`` boards of ``split`` into ``out`` (an .npz of crops, labels, hand flags, seeds,
    cover shares).

    Reuses the file when it already holds the same request (and the arrays named in ``require``:
    caches made before the cover shares lack them); renders in ``workers`` processes, in chunks,
    resuming from chunk files under ``out.with_suffix('.parts')`` after an interruption.
    """
    if out.exists():
        with np.load(out) as cached:
            if len(cached["seeds"]) == boards and set(require) <= set(cached.files):
                log.info("reusing %s (%d boards)", out, boards)
                return out
    parts_dir = out.with_suffix(".parts")
    parts_dir.mkdir(parents=True, exist_ok=True)
    jobs = []
    for start in range(0, boards, chunk):
        path = parts_dir / f"{start:06d}_{min(boards, start + chunk):06d}.npz"
        if path.exists() and require:
            with np.load(path) as part:
                if not set(require) <= set(part.files):
                    path.unlink()
        if not path.exists():
            specs = [BoardSpec(split, seed, i, hand_rate, perturb, faces, video_share) for i in range(start, min(boards, start + chunk))]
            jobs.append((path, specs))
    started = time.perf_counter()
    bar = _progress(len(jobs), f"render {split}", progress)
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        results = pool.imap(_render_chunk, [specs for _, specs in jobs])
        for (path, _), result in zip(jobs, results, strict=True):
            np.savez(path, **result)  # type: ignore[arg-type]
            bar.update(1)
    bar.close()
    log.info("rendered %d chunks of %s in %.0f s", len(jobs), split, time.perf_counter() - started)
    files = sorted(p for p in parts_dir.glob("*.npz") if int(p.stem.split("_")[1]) <= boards)
    merged: dict[str, list[np.ndarray]] = {}
    for path in files:
        with np.load(path) as part:
            for key in part.files:
                merged.setdefault(key, []).append(part[key])
    np.savez(out, **{k: np.concatenate(v) for k, v in merged.items()})  # type: ignore[arg-type]
    return out


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, desc: str, enabled: bool) -> _NoBar:
    if not enabled:
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="chunk")


def centre(crops: np.ndarray, size: int = CROP_PX) -> np.ndarray:
    """The runtime crop (``size`` px) from the middle of cached crops (N, CACHE_PX, CACHE_PX, 3)."""
    lo = (crops.shape[1] - size) // 2
    return crops[:, lo:lo + size, lo:lo + size]
