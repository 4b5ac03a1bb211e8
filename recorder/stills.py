"""The camera's still frame of each alert, kept as a JPEG for the arbiter console and for disputes.

The recorder writes one picture per alert into a folder beside the game store and logs an
``AlertFrame`` event naming it (relative to the store's folder, so a store can be moved whole).
A picture that cannot be written is logged and skipped: it never stops the recording.
"""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np

from recorder.events import Alert, AlertFrame

log = logging.getLogger(__name__)


class StillSaver:
    """Saves frames under ``folder``; event paths are relative to ``relative_to`` (the store's folder)."""

    def __init__(self, folder: Path, relative_to: Path, *, max_width: int = 960, quality: int = 85) -> None:
        self.folder = folder
        self.relative_to = relative_to
        self.max_width = max_width
        self.quality = quality

    def save(self, image: np.ndarray, alert: Alert) -> AlertFrame | None:
        """Write ``image`` as the still of ``alert``; the event to log, or ``None`` if it could not be written."""
        path = self.folder / f"alert-{alert.t:09.2f}s-{alert.kind}.jpg"
        scale = min(1.0, self.max_width / max(1, image.shape[1]))
        picture = image if scale >= 1.0 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if not cv2.imwrite(str(path), picture, [cv2.IMWRITE_JPEG_QUALITY, self.quality]):
                raise OSError("the JPEG encoder refused the frame")
        except (OSError, cv2.error) as error:
            log.warning("still frame of the %s alert at %.1f s not saved: %s", alert.kind, alert.t, error)
            return None
        try:
            name = str(path.resolve().relative_to(self.relative_to.resolve()))
        except ValueError:
            name = str(path.resolve())
        return AlertFrame(alert.t, name, alert.kind)
