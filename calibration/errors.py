"""The vision layer's error hierarchy (calibration raises it; the recorder's vision stages reuse it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class RecognitionError(Exception):
    """A frame could not be interpreted well enough to act on it."""


class BoardNotFoundError(RecognitionError):
    """No board grid was found (or not surely enough); ``reason`` says why, for people and logs.

    ``candidates`` are the best grids that were fitted but refused as too weak (``BoardGeometry``
    objects with their low confidence), best first: a caller may confirm one with other evidence (what
    the pieces on it read as), never use one unconfirmed.
    """

    def __init__(self, reason: str, candidates: Sequence[Any] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.candidates = list(candidates)
