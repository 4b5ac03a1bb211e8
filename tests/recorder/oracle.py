"""A stand-in classifier that answers from a synth video's truth (to test the pipeline without a model).

It is told the index of the frame being read (``frame``) by the test driver; inside a still view
of the truth it reports that view's board with probability ``p``, elsewhere "covered" everywhere
(a hand is over the board).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from recorder.observer import CLASSES
from recorder.sources import Frame

_VISION_CLASSES = CLASSES  # the stand-in answers in the recorder's own class order, FEN reading order


def _board_of(placement: str) -> list[str]:
    """90 cells (square = rank * 9 + file) of a FEN placement, unchecked: a still view may show an illegal board."""
    board = ["."] * 90
    for row, text in enumerate(placement.split("/")):
        file = 0
        for char in text:
            if char.isdigit():
                file += int(char)
            else:
                board[(9 - row) * 9 + file] = char
                file += 1
    return board


@dataclass
class OracleResult:
    probs: np.ndarray
    classes: tuple[str, ...]


class OracleClassifier:
    """Truth-driven ``classify``: set ``frame`` before each call (see the module doc)."""

    def __init__(self, truth: dict[str, Any], p: float = 0.95, off_point_empty: bool = False) -> None:
        self.truth = truth
        self.p = p
        self.off_point_empty = off_point_empty  # read a piece far off its point as empty (else as its piece)
        self.frame = 0
        self.calls = 0
        self._cache: dict[str, np.ndarray] = {}

    def _board_probs(self, placement: str, off_point: tuple[str, ...] = ()) -> np.ndarray:
        key = placement + "|" + ",".join(off_point)
        if key not in self._cache:
            board = _board_of(placement)
            for name in off_point:  # a piece well off its point: its point reads empty
                board[int(name[1]) * 9 + "abcdefghi".index(name[0])] = "."
            probs = np.full((90, len(CLASSES)), (1 - self.p) / (len(CLASSES) - 1))
            for row in range(90):
                rank, file = 9 - row // 9, row % 9
                letter = board[rank * 9 + file]
                probs[row, CLASSES.index("empty" if letter == "." else letter)] = self.p
            self._cache[key] = probs
        return self._cache[key]

    def classify(self, rectified: np.ndarray) -> OracleResult:
        self.calls += 1
        for still in self.truth["stills"]:
            if still["from_frame"] <= self.frame <= still["to_frame"]:
                off = tuple(sorted(still.get("off_point", {}))) if self.off_point_empty else ()
                return OracleResult(self._board_probs(still["board"], off), _VISION_CLASSES)
        probs = np.full((90, len(CLASSES)), 0.001)
        probs[:, CLASSES.index("covered")] = 1.0
        return OracleResult(probs / probs.sum(axis=1, keepdims=True), _VISION_CLASSES)


def tracking_frames(source: Any, oracle: OracleClassifier) -> Any:
    """``source`` itself, made to tell the stand-in classifier which frame is read (its kind kept: the
    recorder treats a camera, a file and a followed folder differently)."""
    base = type(source)

    def tracked(self: Any) -> Iterator[Any]:
        for item in base.__iter__(self):
            if isinstance(item, Frame):
                oracle.frame = item.index
            yield item

    source.__class__ = type(f"Tracked{base.__name__}", (base,), {"__iter__": tracked})
    return source


def use_oracle_in_record(oracle: OracleClassifier, setattr_: Callable[[Any, str, Any], None]) -> None:
    """Make ``xqrec record`` read frames through the real source but classify with ``oracle``.

    ``setattr_`` is ``monkeypatch.setattr`` in a test, or plain ``setattr`` in a subprocess driver.
    """
    import recorder.commands.record as record_command
    import recorder.sources

    real_open = recorder.sources.open_source
    setattr_(recorder.sources, "open_source",
             lambda spec, fps=None, **how: tracking_frames(real_open(spec, fps=fps, **how), oracle))
    setattr_(record_command, "_classifier", lambda args: oracle)
