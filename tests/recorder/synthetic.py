"""Synthetic observations for resolver tests: class probabilities made from a known board."""

from __future__ import annotations

import cv2
import numpy as np

from recorder.observer import CLASSES, Observation
from recorder.resolver_scoring import board_classes

COVERED = CLASSES.index("covered")


def observe_board(board: str, t: float, *, p: float = 0.97, seed: int = 0, misread: dict[int, tuple[str, float]] | None = None,
                  covered: tuple[int, ...] = (), touched: tuple[int, ...] | None = None) -> Observation:
    """An observation of ``board`` (90 chars): the true class gets ``p`` (jittered), the rest share the remainder.

    ``misread`` maps squares to (letter, probability) read there instead; ``covered`` squares read "covered";
    ``touched`` lists the squares something moved near since the last view (None: not known, all of them).
    """
    rng = np.random.default_rng(seed)
    probs = rng.uniform(0.2, 1.0, (90, len(CLASSES)))
    probs[:, COVERED] *= 0.05
    truth = board_classes(board)
    for sq in range(90):
        rest = probs[sq] / probs[sq].sum() * (1.0 - p)
        rest[truth[sq]] = 0.0
        rest = rest / rest.sum() * (1.0 - p)
        rest[truth[sq]] = p
        probs[sq] = rest
    for sq, (letter, q) in (misread or {}).items():
        index = CLASSES.index("empty" if letter == "." else letter)
        row = probs[sq] * (1.0 - q) / (1.0 - probs[sq, index])
        row[index] = q
        probs[sq] = row
    for sq in covered:
        probs[sq] = 0.01 / (len(CLASSES) - 1)
        probs[sq, COVERED] = 0.99
    mask = probs[:, COVERED] >= 0.5
    near = None
    if touched is not None:
        near = np.zeros(90, dtype=bool)
        near[list(touched)] = True
    return Observation(t=t, t_still=t - 0.1, probs=probs, mask=mask, frames=2, touched=near)


def drawn_view(pieces: dict[int, tuple[float, float]], *, spacing: int = 48, margin: float = 1.0, gain: float = 1.0,
               lift: float = 0.0) -> np.ndarray:
    """A grey rectified board (``BoardGeometry.rectify``'s layout) whose pieces are pale discs with
    a dark stroke each (their characters), at ``pieces`` offsets from their points (spacings, file
    and rank directions); ``gain``/``lift`` change the light."""
    width, height = int((8 + 2 * margin) * spacing) + 1, int((9 + 2 * margin) * spacing) + 1
    image = np.full((height, width), 185.0)
    for f in range(9):
        x = int((margin + f) * spacing)
        cv2.line(image, (x, int(margin * spacing)), (x, int((margin + 9) * spacing)), 40.0, 1)
    for r in range(10):
        y = int((margin + r) * spacing)
        cv2.line(image, (int(margin * spacing), y), (int((margin + 8) * spacing), y), 40.0, 1)
    for sq, (dx, dy) in sorted(pieces.items()):
        cx = (margin + sq % 9 + dx) * spacing
        cy = (margin + 9 - sq // 9 - dy) * spacing
        centre = (int(round(cx)), int(round(cy)))
        cv2.circle(image, centre, int(0.42 * spacing), 205.0, -1)
        angle = np.pi * ((sq * 0.618) % 1.0)  # each piece's stroke its own way
        reach = 0.22 * spacing
        ends = [(int(round(cx + s * reach * np.cos(angle))), int(round(cy + s * reach * np.sin(angle)))) for s in (-1, 1)]
        cv2.line(image, ends[0], ends[1], 90.0, 3)
        cv2.circle(image, (centre[0] + spacing // 10, centre[1] - spacing // 13), 3, 120.0, -1)
    return np.clip(image * gain + lift, 0, 255).astype(np.uint8)
