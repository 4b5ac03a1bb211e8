"""Is the camera's picture good enough to read the pieces by? Too dark, or without colour.

The classifier tells red pieces from black ones by their ink's colour (simplified sets write 车 马 炮
alike for both sides), and reads a piece's character and edge by its contrast. A camera set to
grayscale gives no colour; one in a dim hall, or with too short an exposure, gives too little of
both. Neither is the players' doing: the recorder says so once, and while the picture is too dark it
does not judge clock presses, since a move it cannot see is no press without a move (a tester's dim
video had both players told they pressed without moving, a second time losing the game).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from recorder.events import Alert, Event

log = logging.getLogger(__name__)

# a picture whose brightest parts are darker than this (of 255) is too dark to see colours in: the
# pale faces of the pieces and the board's light wood are the brightest parts of a board lit for play
DARK = 60
DARK_CLEARED = 72  # ... and one that was too dark is bright enough again above this (no flicker in and out)
BRIGHTEST_PERCENTILE = 99.5
# a frame has colour when this many of its pixels do (their channels this far apart): a grayscale
# camera's compressed picture strays a level or two; one red piece's ink covers hundreds
COLOURED_PIXELS = 20
COLOURED_CHROMA = 16


def brightest(image: np.ndarray) -> float:
    """How bright the brightest parts of ``image`` are (0-255): a high percentile, so a few hot
    pixels or a lamp's reflection do not count."""
    step = max(1, min(image.shape[:2]) // 240)
    return float(np.percentile(image[::step, ::step], BRIGHTEST_PERCENTILE))


def colourless_frame(frame: np.ndarray) -> bool:
    """Has a camera frame no colour? Judged by a few pixels, not a share of them: a grey board on a
    grey table may show colour only in a red general's ink (a reviewer's endgame, under half a percent
    of the board, read as no colour by ``vision.colourless``'s percentile)."""
    if frame.ndim < 3 or frame.shape[2] < 3:
        return True
    # per channel with OpenCV, in 8 bits: a whole frame on every still view (numpy's int16 took 55 ms at 1280x960)
    blue, green, red = cv2.split(np.ascontiguousarray(frame[:, :, :3]))
    chroma = cv2.subtract(cv2.max(cv2.max(blue, green), red), cv2.min(cv2.min(blue, green), red))
    return int(cv2.countNonZero(cv2.compare(chroma, np.full_like(chroma, COLOURED_CHROMA), cv2.CMP_GT))) < COLOURED_PIXELS


@dataclass
class PictureQuality:
    """Judges still views of the board (rectified), and tells the arbiter once when the picture is
    too dark or has no colour. ``dark`` says whether presses should go unjudged now."""

    dark: bool = False
    dark_told: bool = False
    colour_told: bool = False

    def judge(self, board: np.ndarray, frame: np.ndarray, t: float, ply: int) -> list[Event]:
        """The alerts a still view calls for at ``t``: its board (rectified, BGR) too dark, the camera's
        whole ``frame`` without colour (the board alone is not enough: a grey board's only colour may
        be a red general's ink, under half a percent of it, in an endgame a reviewer rendered)."""
        events: list[Event] = []
        level = brightest(board)
        was_dark = self.dark
        self.dark = level < (DARK_CLEARED if was_dark else DARK)
        if self.dark and not self.dark_told:
            self.dark_told = True
            text = (f"the picture of the board is too dark (its brightest parts at {level:.0f} of 255): pieces may be "
                    "misread, red told from black wrongly and moves missed, so clock presses are not judged while it "
                    "stays so; give the board more light, or the camera a longer exposure")
            log.warning("t=%.2f: %s", t, text)
            events.append(Alert(t, "picture_dark", (), "", text, ply))
        elif was_dark and not self.dark:
            self.dark_told = False  # told again should it darken again
            log.info("t=%.2f: the picture is bright enough again (brightest parts at %.0f of 255): clock presses "
                     "are judged again", t, level)
        if not self.colour_told and colourless_frame(frame):
            self.colour_told = True
            text = ("the camera gives no colour (a grayscale picture): red and black pieces are told apart by their "
                    "ink's colour, so a piece's side may be misread and a move missed or doubted; set the camera to "
                    "colour")
            log.warning("t=%.2f: %s", t, text)
            events.append(Alert(t, "picture_colourless", (), "", text, ply))
        return events
