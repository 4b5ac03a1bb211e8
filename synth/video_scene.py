"""The board scene a game video is filmed in: the still renderer's :class:`synth.scene.Scene`
behind the small interface the video renderer needs (:class:`BoardScene`)."""

from __future__ import annotations

import dataclasses
import logging
import math
from typing import Any, Protocol

import numpy as np

from rules.squares import square_name
from synth.hands import Light
from synth.scene import POINT_NAMES, Scene, point_xy
from synth.style import ViewStyle
from synth.video_timeline import BoardState

log = logging.getLogger(__name__)


class BoardScene(Protocol):
    """What the video renderer needs from a scene: still images of board states and the camera."""

    width: int
    height: int

    def render_state(self, state: BoardState) -> np.ndarray:
        """The board with these pieces, no hands (BGR uint8)."""
        ...

    def project(self, xyz: np.ndarray) -> np.ndarray:
        """Final-image pixels of board points ``(N, 3)`` (grid units, z up)."""
        ...

    def points(self) -> dict[str, tuple[float, float]]:
        """Pixel position of each of the 90 points, ICCS names."""
        ...

    def light(self) -> Light:
        """The main light's direction in image axes (for hand shading and shadows)."""
        ...

    def gain(self) -> np.ndarray | None:
        """The scene's illumination (H, W, 3 float32) to light hands like the board, if any."""
        ...

    def describe(self) -> dict[str, Any]:
        """JSON for the truth file: style, camera, which image edge red faces."""
        ...


def video_style(seed: int, width: int, height: int, split: str = "train") -> ViewStyle:
    """A look for a video: sampled from ``seed`` like a still view, but framed by a fixed camera that
    shows mostly the board, with light sensor noise and no JPEG round trip (the codec compresses)."""
    style = ViewStyle.sample(np.random.default_rng([seed, 1]), split=split, width=width, height=height)
    framed = framed_by_camera(style, np.random.default_rng([seed, 2]))
    return dataclasses.replace(framed, jpeg_quality=0, noise_sigma=min(style.noise_sigma, 1.2),
                               blur_sigma=min(style.blur_sigma, 0.8))


def framed_by_camera(style: ViewStyle, rng: np.random.Generator) -> ViewStyle:
    """``style`` framed as a tournament camera frames the board: it fills most of the picture, and the
    camera is mostly mounted square to the table (a few degrees off), now and then at any angle."""
    shift = (style.centre_shift[0] * 0.3, style.centre_shift[1] * 0.3)
    roll = style.roll_deg
    if rng.random() < 0.85:
        roll = (round(roll / 90.0) * 90.0 + float(rng.normal(0.0, 3.0))) % 360.0
    return dataclasses.replace(style, coverage=float(rng.uniform(0.8, 0.95)), centre_shift=shift, roll_deg=roll)


class RenderedScene:
    """:class:`BoardScene` over the still renderer's :class:`Scene`."""

    def __init__(self, style: ViewStyle, seed: int) -> None:
        self.scene = Scene(style, seed)
        self.style = style
        self.width, self.height = style.width, style.height

    def render_state(self, state: BoardState) -> np.ndarray:
        from synth.pieces import Placement as PiecePlacement

        placements = {}
        for sq, p in state:
            facing = 0.0 if p.piece.isupper() else 180.0
            placements[square_name(sq)] = PiecePlacement(p.piece, (p.rotation + facing) % 360.0, (p.dx, p.dy))
        image, _ = self.scene.render(placements, (), 0.0)
        return image

    def project(self, xyz: np.ndarray) -> np.ndarray:
        cam = self.scene.camera
        return cam.distort(cam.project_3d(np.asarray(xyz, float)))

    def points(self) -> dict[str, tuple[float, float]]:
        return {name: self.scene.points[name] for name in POINT_NAMES}

    def light(self) -> Light:
        az = math.radians(self.style.light_azimuth_deg)
        centre = np.array([[4.0, 4.5], [4.0 + math.cos(az), 4.5 + math.sin(az)]])
        a, b = self.scene.camera.project(centre)
        return Light(math.degrees(math.atan2(-(b[1] - a[1]), b[0] - a[0])), self.style.light_elevation_deg)

    def gain(self) -> np.ndarray | None:
        return self.scene.gain.astype(np.float32)

    def describe(self) -> dict[str, Any]:
        from synth.view import camera_json

        return {"style": self.style.to_dict(), "camera": camera_json(self.scene), "red_side": self.scene.red_side(),
                "spacing_px": self.scene.spacing_px}


__all__ = ["POINT_NAMES", "BoardScene", "RenderedScene", "point_xy", "video_style"]
