"""Synthetic observations for resolver tests: class probabilities made from a known board."""

from __future__ import annotations

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
