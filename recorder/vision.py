"""Vision: what stands on each of the 90 points of a rectified board.

``PieceClassifier.classify(rectified) -> PointProbabilities`` runs the ONNX piece classifier once per
board on a batch of 90 context crops (``point_crops``), one per point. ``point_crops`` is the one crop
function used both here and by the training code in ``models/train`` so that the model sees at run
time exactly what it was trained on. The runtime needs onnxruntime only (never torch).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from calibration.geometry import BoardGeometry, side_of_rank0

log = logging.getLogger(__name__)

FILES = 9
RANKS = 10
# Point order used everywhere in vision: FEN reading order (rank 9 first, files a..i within a rank).
POINT_NAMES: tuple[str, ...] = tuple(f"{'abcdefghi'[f]}{r}" for r in range(RANKS - 1, -1, -1) for f in range(FILES))
DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "piece_classifier.onnx"
EMPTY = "empty"
COVERED = "covered"


def point_index(name: str) -> int:
    """Index into ``POINT_NAMES`` of an ICCS point name such as ``"e0"``."""
    file, rank = "abcdefghi".index(name[0]), int(name[1:])
    return (RANKS - 1 - rank) * FILES + file


def rectified_layout(shape: Sequence[int]) -> tuple[float, float]:
    """(spacing px, margin in spacings) of a rectified board image, read from its size.

    ``BoardGeometry.rectify`` makes ``(8 + 2m) s + 1`` by ``(9 + 2m) s + 1`` pixels, so the height
    minus the width is the spacing and the margin follows.
    """
    height, width = int(shape[0]), int(shape[1])
    spacing = float(height - width)
    if spacing < 8:
        raise ValueError(f"a rectified board is one spacing taller than wide; got {width}x{height}")
    margin = ((width - 1) / spacing - (FILES - 1)) / 2
    if margin < 0:
        raise ValueError(f"rectified image {width}x{height} leaves no room around the grid")
    return spacing, margin


def square_centres(spacing: float, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) pixel centres of the 90 points of a rectified board, in ``rules`` square order
    (``rank * 9 + file``; rank 9 at the top, as ``BoardGeometry.rectify`` makes it)."""
    squares = np.arange(90)
    return (margin + squares % 9) * spacing, (margin + 9 - squares // 9) * spacing


def point_crops(
    rectified: np.ndarray,
    *,
    out_px: int = 40,
    context: float = 1.5,
    spacing: float | None = None,
    margin: float | None = None,
    shifts: np.ndarray | None = None,
) -> np.ndarray:
    """Square crops centred on the 90 points, ``(90, out_px, out_px, 3)`` uint8, in ``POINT_NAMES`` order.

    Each crop spans ``context`` grid spacings (so neighbouring points' edges are in view, which
    tells a piece from a shadow or a hand). The board is first shrunk with area averaging to the
    crop's scale, then the crops are sampled bilinearly at the exact (sub-pixel) point centres,
    moved by ``shifts`` ((90, 2) in ``POINT_NAMES`` order: spacings right and down) when given.
    ``spacing``/``margin`` default to the layout read from the image size (``rectified_layout``).
    """
    if rectified.ndim != 3 or rectified.shape[2] != 3:
        raise ValueError(f"expected a BGR image (H, W, 3), got shape {rectified.shape}")
    if spacing is None or margin is None:
        spacing, margin = rectified_layout(rectified.shape)
    scale = out_px / (context * spacing)
    height, width = rectified.shape[:2]
    dst_w, dst_h = max(1, round(width * scale)), max(1, round(height * scale))
    small = cv2.resize(rectified, (dst_w, dst_h), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    sx, sy = dst_w / width, dst_h / height
    idx = np.arange(len(POINT_NAMES))
    cx = (margin + idx % FILES) * spacing
    cy = (margin + idx // FILES) * spacing
    if shifts is not None:
        cx = cx + np.asarray(shifts, dtype=np.float64)[:, 0] * spacing
        cy = cy + np.asarray(shifts, dtype=np.float64)[:, 1] * spacing
    cx = (cx + 0.5) * sx - 0.5
    cy = (cy + 0.5) * sy - 0.5
    offsets = np.arange(out_px, dtype=np.float32) - (out_px - 1) / 2
    map_x = (cx[:, None, None] + offsets[None, None, :]).astype(np.float32)
    map_y = (cy[:, None, None] + offsets[None, :, None]).astype(np.float32)
    map_x = np.broadcast_to(map_x, (len(idx), out_px, out_px)).reshape(-1, out_px)
    map_y = np.broadcast_to(map_y, (len(idx), out_px, out_px)).reshape(-1, out_px)
    crops = cv2.remap(small, np.ascontiguousarray(map_x), np.ascontiguousarray(map_y), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE)
    return crops.reshape(len(idx), out_px, out_px, 3)


@dataclass(frozen=True)
class PointProbabilities:
    """Class probabilities at every point: ``probs[i, c]`` for point ``POINT_NAMES[i]`` and ``classes[c]``."""

    probs: np.ndarray
    classes: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.probs.shape != (len(POINT_NAMES), len(self.classes)):
            raise ValueError(f"probabilities must be (90, {len(self.classes)}), got {self.probs.shape}")

    @property
    def names(self) -> tuple[str, ...]:
        """Point names in row order (``POINT_NAMES``)."""
        return POINT_NAMES

    def labels(self) -> list[str]:
        """The most probable class at each point."""
        return [self.classes[i] for i in np.argmax(self.probs, axis=1)]

    def label(self, name: str) -> str:
        """The most probable class at point ``name``."""
        return self.classes[int(np.argmax(self.probs[point_index(name)]))]

    def prob(self, name: str, cls: str) -> float:
        """Probability of class ``cls`` at point ``name``."""
        return float(self.probs[point_index(name), self.classes.index(cls)])

    def confidence(self) -> np.ndarray:
        """(90,) probability of the most probable class at each point."""
        return np.max(self.probs, axis=1)

    def covered_mask(self) -> np.ndarray:
        """(90,) True where "covered" (a hand, an arm, a piece in mid-air) is the most probable class."""
        return np.argmax(self.probs, axis=1) == self.classes.index(COVERED)

    def covered_points(self) -> list[str]:
        """Names of the points read as covered."""
        return [n for n, c in zip(POINT_NAMES, self.covered_mask(), strict=True) if c]

    def pieces(self) -> dict[str, str]:
        """Point name -> FEN letter of every point whose most probable class is a piece."""
        return {n: lab for n, lab in zip(POINT_NAMES, self.labels(), strict=True) if lab not in (EMPTY, COVERED)}

    def argmax_fen_placement(self, covered: str = EMPTY) -> str:
        """The FEN piece placement (red at the bottom) of the most probable classes.

        Covered points are written as empty unless ``covered`` is ``"best_piece"``, which puts the most
        probable piece or empty class there instead (a guess under the hand).
        """
        if covered not in (EMPTY, "best_piece"):
            raise ValueError(f"covered must be 'empty' or 'best_piece', not {covered!r}")
        probs = self.probs
        if covered == "best_piece":
            probs = probs.copy()
            probs[:, self.classes.index(COVERED)] = -1.0
        return fen_placement([self.classes[i] for i in np.argmax(probs, axis=1)])

    def to_json(self, digits: int = 4) -> dict[str, Any]:
        """JSON-ready: per point name, each class's probability (rounded) and the best class."""
        return {
            "classes": list(self.classes),
            "points": {
                n: {"best": self.classes[int(np.argmax(p))], "probs": [round(float(v), digits) for v in p]}
                for n, p in zip(POINT_NAMES, self.probs, strict=True)
            },
        }


def fen_placement(labels: Sequence[str]) -> str:
    """The FEN piece placement of 90 class names in ``POINT_NAMES`` order; empty and covered points
    are written empty."""
    rows = []
    for r in range(RANKS):
        row, gap = "", 0
        for label in labels[r * FILES:(r + 1) * FILES]:
            if label in (EMPTY, COVERED):
                gap += 1
                continue
            row += (str(gap) if gap else "") + label
            gap = 0
        rows.append(row + (str(gap) if gap else ""))
    return "/".join(rows)


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# A grid spacing in the picture below MIN_SPACING_PX is too small for the characters to be read, and
# below GOOD_SPACING_PX they are often misread: of 35 held-out renders at 320x240-640x480, 8 of the 11
# boards at 12-18 px had 1-10 points wrong, and of the 24 at 18 px or more one had one point wrong.
MIN_SPACING_PX = 12
GOOD_SPACING_PX = 20


def small_board_note(spacing_px: float) -> str:
    """What to tell of a board whose grid spacing in the picture is ``spacing_px`` ("" when large enough)."""
    if spacing_px >= GOOD_SPACING_PX:
        return ""
    return (f"the board is small in the picture ({math.floor(spacing_px * 10) / 10:.1f} px per grid spacing): "
            f"characters this small are often misread; {GOOD_SPACING_PX} px or more reads reliably")


# A point read less surely than this is read again at three quarter turns (PieceClassifier.predict_crops;
# read-board's, not the recorder's).
SECOND_LOOK_BELOW = 0.99


class PieceClassifier:
    """The ONNX piece classifier and its metadata (``<model>.json``: input size, classes, normalisation, hash).

    ``threads`` bounds onnxruntime's intra-op threads (the recorder shares the CPU with the camera).
    The model hash is checked on load so a recorded game can name the exact model that read it.
    """

    def __init__(self, model_path: str | Path | None = None, *, threads: int = 2, check_hash: bool = True,
                 second_look: float = 0.0) -> None:
        import onnxruntime as ort

        if not 0.0 <= second_look <= 1.0:
            raise ValueError("second_look must be within 0-1")
        self.second_look = second_look

        self.model_path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        meta_path = self.model_path.with_suffix(".json")
        missing = [str(path) for path in (self.model_path, meta_path) if not path.is_file()]
        if missing:
            raise FileNotFoundError(f"piece classifier: no file {' and no file '.join(missing)} (a model is an "
                                    ".onnx file with its metadata .json beside it, as models/ holds them)")
        try:
            self.metadata: dict[str, Any] = json.loads(meta_path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise ValueError(f"{meta_path}: not the classifier's metadata JSON ({error})") from None
        if not isinstance(self.metadata, dict) or "sha256" not in self.metadata or "classes" not in self.metadata:
            # a picture's truth file beside a picture given as the model was taken for its metadata (a tester)
            raise ValueError(f"{meta_path} is not a classifier's metadata (no sha256 and classes): is "
                             f"{self.model_path} a model? (a model is an .onnx file with its metadata .json "
                             "beside it, as models/ holds them)")
        self.sha256 = file_sha256(self.model_path)
        if check_hash and self.metadata.get("sha256") != self.sha256:
            raise ValueError(f"{self.model_path} has sha256 {self.sha256}, metadata says {self.metadata.get('sha256')}")
        self.classes: tuple[str, ...] = tuple(self.metadata["classes"])
        crop = self.metadata["crop"]
        self.out_px = int(crop["size_px"])
        self.context = float(crop["context_spacings"])
        norm = self.metadata["normalisation"]
        self._scale = np.float32(norm.get("scale", 1.0 / 255.0))
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self._session = ort.InferenceSession(str(self.model_path), options, providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name
        self.last_timings: dict[str, float] = {}

    def crops(self, rectified: np.ndarray, *, spacing: float | None = None, margin: float | None = None,
              shifts: np.ndarray | None = None) -> np.ndarray:
        """The 90 crops this model reads, (90, size, size, 3) BGR uint8 (``shifts``: see ``point_crops``)."""
        return point_crops(rectified, out_px=self.out_px, context=self.context, spacing=spacing, margin=margin,
                           shifts=shifts)

    def predict_crops(self, crops: np.ndarray) -> np.ndarray:
        """Calibrated class probabilities (N, classes) for BGR uint8 crops (N, size, size, 3).

        A crop read less surely than ``second_look`` is read again at three quarter turns and the
        four readings are pooled (their mean log-probability). Pieces stand at any angle, so the
        turned crops are as fair a view as the first, and where the first reading hesitates the
        others often settle it: on 500 held-out test boards 98.81 % of points right read alone,
        98.99 % with a second look below ``SECOND_LOOK_BELOW`` (the errors a sixth fewer), for about
        6 points a board read again. Sure points, most of the board, are read once.

        ``read-board`` takes the second look; the recorder does not (``second_look`` 0, the
        default): its resolver weighs each reading of several still views against the legal moves,
        tuned on the model's own calibration, and with pooled readings it missed knocked pieces,
        logged moves late and lost a game under glare on its benchmark (models/MODEL_CARD.md).
        """
        probs = self._run(crops)
        unsure = np.flatnonzero(probs.max(axis=1) < self.second_look)
        if len(unsure) == 0:
            return probs
        picked = crops[unsure]
        turned = self._run(np.concatenate([np.rot90(picked, k, axes=(1, 2)) for k in (1, 2, 3)]))
        readings = np.concatenate([probs[unsure][None], turned.reshape(3, len(unsure), -1)])
        pooled = np.log(np.maximum(readings, 1e-9)).mean(axis=0)
        pooled = np.exp(pooled - pooled.max(axis=1, keepdims=True))
        probs[unsure] = pooled / pooled.sum(axis=1, keepdims=True)
        return probs

    def _run(self, crops: np.ndarray) -> np.ndarray:
        """The model's probabilities (N, classes) for BGR uint8 crops, one onnxruntime call."""
        x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) * self._scale
        (probs,) = self._session.run(None, {self._input: x})
        return np.array(probs, dtype=np.float32)

    def classify(self, rectified: np.ndarray, *, spacing: float | None = None,
                 margin: float | None = None, shifts: np.ndarray | None = None) -> PointProbabilities:
        """Probabilities of every class at the 90 points of a board rectified by ``BoardGeometry.rectify``
        (each crop moved by ``shifts`` when given: see ``point_crops``)."""
        t0 = time.perf_counter()
        crops = self.crops(rectified, spacing=spacing, margin=margin, shifts=shifts)
        t1 = time.perf_counter()
        probs = self.predict_crops(crops)
        t2 = time.perf_counter()
        self.last_timings = {"crop_ms": (t1 - t0) * 1e3, "infer_ms": (t2 - t1) * 1e3}
        return PointProbabilities(probs=probs, classes=self.classes)


# Pieces that never leave their own half: generals and advisors (the palace) and elephants (the river).
_CONFINED = {"K": 3.0, "A": 1.0, "B": 1.0}


def red_home_vote(probs: PointProbabilities) -> tuple[float, float]:
    """(vote, weight): vote > 0 when the pieces read as if red's back rank is rank 0 as named, < 0 when
    the names are turned by 180 degrees; weight is how many confined pieces (general, advisors,
    elephants; the generals count three times) the vote rests on.

    It reads the kinds the rules keep in one half, so it holds in any middlegame, not only at the
    start; a board the classifier reads with the wrong colours cannot pose as turned unless most
    confined pieces are misread the same way.
    """
    ranks = np.array([int(name[1:]) for name in POINT_NAMES])
    home_low = np.where(ranks <= 4, 1.0, -1.0)
    vote = 0.0
    weight = 0.0
    for kind, w in _CONFINED.items():
        if kind in probs.classes and kind.lower() in probs.classes:
            red = probs.probs[:, probs.classes.index(kind)]
            black = probs.probs[:, probs.classes.index(kind.lower())]
            vote += w * float((red * home_low).sum() - (black * home_low).sum())
            weight += w * float(red.sum() + black.sum())
    return (vote / weight if weight > 0 else 0.0), weight


def colourless(image: np.ndarray) -> bool:
    """Has the picture no colour (a grayscale camera or file)? Then red pieces cannot be told from
    black ones, which only their ink's colour tells apart in simplified sets."""
    if image.ndim < 3 or image.shape[2] < 3:
        return True
    small = image[:: max(1, image.shape[0] // 240), :: max(1, image.shape[1] // 320), :3].astype(np.int16)
    chroma = small.max(axis=2) - small.min(axis=2)
    return float(np.percentile(chroma, 99.5)) <= 6.0


def occupied_points(probs: PointProbabilities) -> np.ndarray:
    """(90,) the points read as more likely holding a piece than not."""
    pieces = [i for i, name in enumerate(probs.classes) if name not in ("empty", "covered")]
    return np.asarray(np.asarray(probs.probs)[:, pieces].sum(axis=1) > 0.5)


def sureness(probs: PointProbabilities, points: np.ndarray) -> float:
    """How surely a board is read on ``points`` ((90,) bool): the mean log-probability of the
    likeliest class there (0 on none); two readings of one picture compare by it over the same points."""
    if not points.any():
        return 0.0
    return float(np.log(np.maximum(np.asarray(probs.probs)[points].max(axis=1), 1e-9)).mean())


def red_at_rank0(probs: PointProbabilities, *, min_vote: float = 0.4, min_weight: float = 2.0) -> bool | None:
    """True when red's back rank is rank 0 as the points are named, False when the names are turned,
    None when too few confined pieces are seen to tell (see ``red_home_vote``)."""
    vote, weight = red_home_vote(probs)
    if weight < min_weight or abs(vote) < min_vote:
        return None
    return vote > 0


def settle_red_side(geometry: BoardGeometry, probs: PointProbabilities, *, overrule: bool = False) -> BoardGeometry:
    """``geometry`` with red's side set from the pieces' kinds (``red_at_rank0``), the point names turned
    where the pieces say so; unchanged when its side is already known or the pieces cannot tell.

    ``probs`` must be read through ``geometry``. Calibration decides red's side from the colours
    alone and leaves it open when they are not clear (pale plastic faces, a hand over a palace); the
    classifier tells red from black and the kinds from each other far more surely. With
    ``overrule`` a side calibration found from the colours is turned too when the kinds clearly say
    so: the colours count where the pieces stand, and in an endgame whose soldiers have crossed
    the river most of one side's pieces stand in the other's half; generals never leave their palace.
    """
    if geometry.red_side is not None:
        if overrule and red_at_rank0(probs, min_vote=0.6, min_weight=3.0) is False:
            log.info("the pieces' kinds put red's side opposite the colours' vote: point names turned")
            return geometry.turned()
        return geometry
    red_low = red_at_rank0(probs)
    if red_low is None:
        return geometry
    named = geometry.with_red_side(side_of_rank0(geometry.homography))
    return named if red_low else named.turned()
