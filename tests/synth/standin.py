"""A plain stand-in board scene for the game-video tests: flat board, discs with letters, a
pinhole camera looking straight down (so tests do not depend on the still renderer's looks)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from synth.hands import Light
from synth.video_timeline import BoardState


class StandInScene:
    """Implements the :class:`synth.video.BoardScene` protocol with simple drawing."""

    def __init__(self, width: int = 320, height: int = 240, red_bottom: bool = True) -> None:
        self.width, self.height = width, height
        self.red_bottom = red_bottom
        self.cam_z = 30.0
        self.focal = height * 0.82 / 9.0 * self.cam_z

    def project(self, xyz: np.ndarray) -> np.ndarray:
        pts = np.asarray(xyz, float)
        f = self.focal / (self.cam_z - pts[:, 2])
        sign = 1.0 if self.red_bottom else -1.0
        u = self.width / 2 + sign * (pts[:, 0] - 4.0) * f
        v = self.height / 2 - sign * (pts[:, 1] - 4.5) * f
        return np.column_stack([u, v])

    def render_state(self, state: BoardState) -> np.ndarray:
        image = np.full((self.height, self.width, 3), (60, 90, 120), np.uint8)
        corners = self.project(np.array([[-0.7, -0.7, 0], [8.7, -0.7, 0], [8.7, 9.7, 0], [-0.7, 9.7, 0]]))
        cv2.fillPoly(image, [np.round(corners).astype(np.int32)], (120, 180, 220))
        for f in range(9):
            a, b = self.project(np.array([[f, 0, 0], [f, 9, 0]], float))
            cv2.line(image, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), (30, 30, 30), 1)
        for r in range(10):
            a, b = self.project(np.array([[0, r, 0], [8, r, 0]], float))
            cv2.line(image, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), (30, 30, 30), 1)
        radius = int(round(self.focal / self.cam_z * 0.42))
        for sq, placement in state:
            x, y = sq % 9 + placement.dx, sq // 9 + placement.dy
            centre = np.round(self.project(np.array([[x, y, 0.3]]))[0]).astype(int)
            cv2.circle(image, tuple(centre), radius, (200, 225, 235), -1, cv2.LINE_AA)
            ink = (40, 40, 190) if placement.piece.isupper() else (30, 30, 30)
            cv2.putText(image, placement.piece.upper(), (int(centre[0]) - radius // 2, int(centre[1]) + radius // 2),
                        cv2.FONT_HERSHEY_SIMPLEX, radius / 18.0, ink, 1, cv2.LINE_AA)
        return image


class StandInSceneFull(StandInScene):
    """The stand-in with the rest of the :class:`synth.video_scene.BoardScene` protocol."""

    def points(self) -> dict[str, tuple[float, float]]:
        out = {}
        for r in range(10):
            for f in range(9):
                p = self.project(np.array([[f, r, 0.0]]))[0]
                out[f"{'abcdefghi'[f]}{r}"] = (float(p[0]), float(p[1]))
        return out

    def light(self) -> Light:
        return Light(120.0, 60.0)

    def gain(self) -> np.ndarray | None:
        return None

    def describe(self) -> dict[str, Any]:
        return {"stand_in": True, "red_side": "bottom" if self.red_bottom else "top"}
