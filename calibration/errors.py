"""The vision layer's error hierarchy (calibration raises it; the recorder's vision stages reuse it)."""

from __future__ import annotations


class RecognitionError(Exception):
    """A frame could not be interpreted well enough to act on it."""


class BoardNotFoundError(RecognitionError):
    """No board grid was found (or not surely enough); ``reason`` says why, for people and logs."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
