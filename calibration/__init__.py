"""Board calibration: find the board in a camera frame, the homography, rectify, drift check.

``BoardLocator().locate(frame) -> BoardGeometry`` (or ``BoardNotFoundError``); the geometry maps
board points to pixels and back, rectifies frames, checks drift and saves as JSON.
"""

from calibration.drift import CalibrationUpdate, DriftCheck, DriftMonitor, DriftResult
from calibration.errors import BoardNotFoundError, RecognitionError
from calibration.geometry import RED_SIDES, BoardGeometry
from calibration.lens import LensModel, RadialDistortion, calibrate_chessboard
from calibration.locator import BoardLocator
from calibration.overlay import draw_overlay

__all__ = [
    "RED_SIDES",
    "BoardGeometry",
    "BoardLocator",
    "BoardNotFoundError",
    "CalibrationUpdate",
    "DriftCheck",
    "DriftMonitor",
    "DriftResult",
    "LensModel",
    "RadialDistortion",
    "RecognitionError",
    "calibrate_chessboard",
    "draw_overlay",
]
