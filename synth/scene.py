"""A :class:`Scene` is one table seen by one camera: board texture, camera, light and piece
artist, fixed across the frames of a video. ``render`` draws pieces and overlays for one moment.

Pipeline per frame: copy the static board texture, cast piece shadows, draw pieces (all in the
board plane), warp once into the camera (one remap when the lens is distorted), draw overlays
(hands) in image space, then light, noise, blur and JPEG.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from rules.squares import FILE_NAMES
from synth.board import TextureFrame, board_extent, render_static
from synth.camera import Camera, apply_homography
from synth.light import finish, illumination
from synth.pieces import PieceArtist, Placement
from synth.props import draw_props
from synth.style import ViewStyle

log = logging.getLogger(__name__)

POINT_NAMES = [f"{FILE_NAMES[f]}{r}" for r in range(10) for f in range(9)]
MAX_TEXTURE_SIDE = 4096
MAP_STEP = 4


class Overlay(Protocol):
    """Something between the board and the camera (a hand, an arm). Draws itself onto the float32
    BGR image and returns its coverage mask (float32 0..1, image sized)."""

    def draw(self, image: np.ndarray, scene: Scene) -> np.ndarray: ...


@dataclass
class Frame:
    """One rendered moment: the image, truth points, points hidden by overlays and their mask, and
    the share of each point's neighbourhood the overlays cover (points they reach only)."""

    image: np.ndarray
    points: dict[str, tuple[float, float]]
    covered: list[str] = field(default_factory=list)
    cover_mask: np.ndarray | None = None
    cover_shares: dict[str, float] = field(default_factory=dict)


COVERED_SHARE = 0.4  # a point is covered when more of its neighbourhood than this is under a hand


def _covered(shares: dict[str, float], threshold: float = COVERED_SHARE) -> list[str]:
    return [name for name in POINT_NAMES if shares[name] > threshold]


def point_xy(name: str) -> tuple[float, float]:
    """Board coordinates (file, rank) of an ICCS point name."""
    return float(FILE_NAMES.index(name[0])), float(int(name[1]))


class Scene:
    """The fixed part of a view or video: style, camera, board texture, light.

    ``seed`` drives every random choice made here; per-frame noise is drawn from ``(seed, t)``.
    """

    def __init__(self, style: ViewStyle, seed: int) -> None:
        self.style = style
        self.seed = seed
        rng = np.random.default_rng([seed, 7001])
        self.camera = Camera.pose(
            width=style.width, height=style.height, tilt_deg=style.tilt_deg, tilt_azimuth_deg=style.tilt_azimuth_deg,
            roll_deg=style.roll_deg, distance=style.distance, coverage=style.coverage,
            centre_shift=style.centre_shift, extent=board_extent(style), barrel=style.barrel,
        )
        self.frame = self._texture_frame()
        self.static = render_static(rng, self.frame, style, self.camera.centre)
        draw_props(np.random.default_rng([seed, 7003]), self.static, self.frame, style, self.camera.centre)
        self.artist = PieceArtist(style, self.frame, self.camera.centre, rng)
        self.gain, self.glare = illumination(rng, style)
        grid = np.array([point_xy(n) for n in POINT_NAMES])
        projected = self.camera.project(grid)
        self.points: dict[str, tuple[float, float]] = {
            n: (float(p[0]), float(p[1])) for n, p in zip(POINT_NAMES, projected, strict=True)
        }
        self.tex_to_image = self.camera.homography @ np.linalg.inv(self.frame.matrix)
        self._maps = self._distortion_maps() if style.barrel else None

    @property
    def spacing_px(self) -> float:
        """Grid spacing in image pixels near the board centre."""
        return self.camera.board_scale()

    def _texture_frame(self) -> TextureFrame:
        cam, st = self.camera, self.style
        w, h = st.width, st.height
        ts = np.linspace(0, 1, 9)
        border = np.vstack([
            np.column_stack([ts * (w - 1), np.zeros_like(ts)]), np.column_stack([ts * (w - 1), np.full_like(ts, h - 1)]),
            np.column_stack([np.zeros_like(ts), ts * (h - 1)]), np.column_stack([np.full_like(ts, w - 1), ts * (h - 1)]),
        ])
        seen = cam.image_to_board(border)
        x0, y0, x1, y1 = board_extent(st)
        lo = np.minimum(seen.min(axis=0), [x0, y0]) - 0.5
        hi = np.maximum(seen.max(axis=0), [x1, y1]) + 0.5
        lo = np.maximum(lo, [-14.0, -14.0])
        hi = np.minimum(hi, [22.0, 23.0])
        scale = cam.board_scale() * 1.15
        scale = min(scale, MAX_TEXTURE_SIDE / float(max(hi - lo)))
        width = int(math.ceil((hi[0] - lo[0]) * scale)) + 1
        height = int(math.ceil((hi[1] - lo[1]) * scale)) + 1
        return TextureFrame(float(lo[0]), float(hi[1]), float(scale), width, height)

    def _distortion_maps(self) -> tuple[np.ndarray, np.ndarray]:
        """Texture coordinates of every output pixel (through the lens model), as remap maps.

        The map is smooth, so it is computed exactly on a grid every ``STEP`` pixels and enlarged
        with linear interpolation aligned so that the samples fall on pixel coordinates
        ``STEP * j - STEP + (STEP - 1) / 2``; interpolation error is far below 0.01 px.
        """
        st, step = self.style, MAP_STEP
        nw, nh = -(-st.width // step) + 2, -(-st.height // step) + 2
        off = (step - 1) / 2 - step
        xs = (np.arange(nw, dtype=np.float64) * step + off)[None, :].repeat(nh, 0)
        ys = (np.arange(nh, dtype=np.float64) * step + off)[:, None].repeat(nw, 1)
        und = self.camera.undistort(np.column_stack([xs.ravel(), ys.ravel()]))
        tex = apply_homography(np.linalg.inv(self.tex_to_image), und)
        big = (nw * step, nh * step)
        crop = (slice(step, step + st.height), slice(step, step + st.width))
        mx = cv2.resize(tex[:, 0].reshape(nh, nw).astype(np.float32), big, interpolation=cv2.INTER_LINEAR)[crop]
        my = cv2.resize(tex[:, 1].reshape(nh, nw).astype(np.float32), big, interpolation=cv2.INTER_LINEAR)[crop]
        return cv2.convertMaps(mx, my, cv2.CV_16SC2)

    def warp(self, tex: np.ndarray) -> np.ndarray:
        """Board texture to camera image (float32 BGR); warped as 8-bit, which is 2-3x faster."""
        size = (self.style.width, self.style.height)
        tex8 = cv2.convertScaleAbs(tex)
        if self._maps is None:
            out = cv2.warpPerspective(tex8, self.tex_to_image, size, flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REPLICATE)
        else:
            out = cv2.remap(tex8, self._maps[0], self._maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return out.astype(np.float32)

    def board_to_image(self, xy: np.ndarray) -> np.ndarray:
        """Final-image pixels of board-plane points ``(N, 2)``."""
        return self.camera.project(xy)

    def undistorted(self, xy: np.ndarray) -> np.ndarray:
        """Undistorted pixels of board-plane points (before the lens model)."""
        return apply_homography(self.camera.homography, xy)

    def render(
        self, placements: Mapping[str, Placement], overlays: Sequence[Overlay] = (), t: float = 0.0
    ) -> tuple[np.ndarray, dict[str, tuple[float, float]]]:
        """(image, truth points) for ``placements`` keyed by ICCS point name at time ``t``."""
        frame = self.render_frame(placements, overlays, t)
        return frame.image, frame.points

    def render_frame(self, placements: Mapping[str, Placement], overlays: Sequence[Overlay] = (), t: float = 0.0) -> Frame:
        """Like :meth:`render` but also returns the points hidden by overlays."""
        tex = self.static.copy()
        pieces = []
        for name, p in placements.items():
            x, y = point_xy(name)
            pieces.append((x + p.offset[0], y + p.offset[1], p))
        self.artist.draw_shadows(tex, pieces)
        self.artist.draw(tex, pieces)
        image = self.warp(tex)
        cover = np.zeros(image.shape[:2], np.float32)
        for overlay in overlays:
            np.maximum(cover, overlay.draw(image, self), out=cover)
        frame_rng = np.random.default_rng([self.seed, 7002, int(round(t * 1000))])
        out = finish(image, self.gain, self.glare, self.style, frame_rng)
        if not overlays:
            return Frame(out, dict(self.points))
        shares = self.cover_shares(cover)
        return Frame(out, dict(self.points), _covered(shares), cover, {k: v for k, v in shares.items() if v > 0})

    def covered_points(self, cover: np.ndarray, threshold: float = COVERED_SHARE) -> list[str]:
        """Points whose neighbourhood (a quarter spacing around) is mostly under ``cover``."""
        return _covered(self.cover_shares(cover), threshold)

    def cover_shares(self, cover: np.ndarray) -> dict[str, float]:
        """How much of each point's neighbourhood (a quarter spacing around) lies under ``cover`` (0-1)."""
        r = 0.25 * self.spacing_px
        offsets = np.array([[0, 0], [r, 0], [-r, 0], [0, r], [0, -r], [r, r], [-r, -r], [r, -r], [-r, r]]) * 0.8
        h, w = cover.shape
        out = {}
        for name in POINT_NAMES:
            px, py = self.points[name]
            samples = np.array([px, py]) + offsets
            xi = np.clip(np.round(samples[:, 0]).astype(int), 0, w - 1)
            yi = np.clip(np.round(samples[:, 1]).astype(int), 0, h - 1)
            out[name] = float(cover[yi, xi].mean())
        return out

    def red_side(self) -> str:
        """The image edge red's back rank faces: bottom, top, left or right."""
        pts = self.camera.project(np.array([[4.0, 4.5], [4.0, 0.0]]))
        dx, dy = pts[1] - pts[0]
        if abs(dx) > abs(dy):
            return "right" if dx > 0 else "left"
        return "bottom" if dy > 0 else "top"
