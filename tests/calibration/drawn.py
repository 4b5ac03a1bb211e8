"""A private, simple board drawer for calibration tests: cv2 lines on a textured board, warped.

It is deliberately independent of ``synth`` so the locator's tests do not lean on one renderer:
a flat board image is drawn (grid, river gap, palace diagonals, point marks, outer frame, optional
discs for pieces), then warped into a camera frame by a random tilt/rotation homography.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.evidence import project

SPACING = 60  # pixels per grid spacing on the flat board
MARGIN = 1.0  # board margin around the grid, in spacings


@dataclass(frozen=True)
class DrawnView:
    image: np.ndarray
    points: dict[str, tuple[float, float]]
    red_side: str
    spacing_px: float


def _flat_xy(file: float, rank: float) -> tuple[float, float]:
    """Flat-board pixel of a board point, red at the bottom."""
    return (MARGIN + file) * SPACING, (MARGIN + 9 - rank) * SPACING


def draw_flat_board(rng: np.random.Generator, pieces: dict[tuple[int, int], str] | None = None) -> np.ndarray:
    """The flat board (red at the bottom), with discs for ``pieces`` ((file, rank) -> 'r'|'b')."""
    width = int((8 + 2 * MARGIN) * SPACING)
    height = int((9 + 2 * MARGIN) * SPACING)
    base = np.array([120, 175, 215], dtype=np.float32) + rng.uniform(-20, 20, 3)
    grain = cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 3) * 25
    board = np.clip(base[None, None, :] + grain[:, :, None], 0, 255).astype(np.uint8)
    ink = (35, 35, 45)
    thick = 2

    def line(a: tuple[float, float], b: tuple[float, float], t: int = thick) -> None:
        pa = (int(round(_flat_xy(*a)[0])), int(round(_flat_xy(*a)[1])))
        pb = (int(round(_flat_xy(*b)[0])), int(round(_flat_xy(*b)[1])))
        cv2.line(board, pa, pb, ink, t, cv2.LINE_AA)

    for rank in range(10):
        line((0, rank), (8, rank))
    for file in range(9):
        if file in (0, 8):
            line((file, 0), (file, 9))
        else:
            line((file, 0), (file, 4))
            line((file, 5), (file, 9))
    for r0 in (0, 7):
        line((3, r0), (5, r0 + 2))
        line((5, r0), (3, r0 + 2))
    frame = 0.35
    line((-frame, -frame), (8 + frame, -frame), 4)
    line((-frame, 9 + frame), (8 + frame, 9 + frame), 4)
    line((-frame, -frame), (-frame, 9 + frame), 4)
    line((8 + frame, -frame), (8 + frame, 9 + frame), 4)
    marks = [(1, 2), (7, 2), (1, 7), (7, 7)] + [(f, r) for f in (0, 2, 4, 6, 8) for r in (3, 6)]
    for f, r in marks:
        for sx in (-1, 1):
            for sy in (-1, 1):
                if not 0 <= f + sx * 0.3 <= 8:
                    continue
                a = (f + sx * 0.1, r + sy * 0.1)
                line(a, (f + sx * 0.25, r + sy * 0.1), 1)
                line(a, (f + sx * 0.1, r + sy * 0.25), 1)
    for (f, r), colour in (pieces or {}).items():
        cx, cy = _flat_xy(f + rng.uniform(-0.05, 0.05), r + rng.uniform(-0.05, 0.05))
        radius = int(SPACING * 0.44)
        centre = (int(cx), int(cy))
        cv2.circle(board, centre, radius, (150, 200, 230), -1, cv2.LINE_AA)
        cv2.circle(board, centre, radius, (60, 90, 120), 2, cv2.LINE_AA)
        glyph = (40, 40, 200) if colour == "r" else (30, 30, 30)
        cv2.circle(board, centre, int(radius * 0.8), glyph, 2, cv2.LINE_AA)
        for _ in range(3):
            a = (centre[0] + int(rng.uniform(-12, 12)), centre[1] + int(rng.uniform(-12, 12)))
            b = (centre[0] + int(rng.uniform(-12, 12)), centre[1] + int(rng.uniform(-12, 12)))
            cv2.line(board, a, b, glyph, 3, cv2.LINE_AA)
    return board


def start_pieces() -> dict[tuple[int, int], str]:
    """Where the 32 pieces of the standard start stand, with their colours."""
    pieces: dict[tuple[int, int], str] = {}
    for f in range(9):
        pieces[(f, 0)] = "r"
        pieces[(f, 9)] = "b"
    for f in (1, 7):
        pieces[(f, 2)] = "r"
        pieces[(f, 7)] = "b"
    for f in (0, 2, 4, 6, 8):
        pieces[(f, 3)] = "r"
        pieces[(f, 6)] = "b"
    return pieces


def render_drawn(
    seed: int,
    *,
    pieces: dict[tuple[int, int], str] | None = None,
    size: tuple[int, int] = (1280, 960),
    tilt_deg: float | None = None,
    rotation_deg: float | None = None,
    hand: bool = False,
) -> DrawnView:
    """Draw a board and warp it into a ``size`` camera frame; returns the frame and the true points."""
    flat = draw_flat_board(np.random.default_rng([seed, 1]), pieces)
    rng = np.random.default_rng([seed, 2])  # the camera does not depend on what stands on the board
    fh, fw = flat.shape[:2]
    width, height = size
    tilt = math.radians(rng.uniform(0, 25) if tilt_deg is None else tilt_deg)
    rot = math.radians(rng.uniform(0, 360) if rotation_deg is None else rotation_deg)
    # A pinhole camera looking at the board (centred at the origin, z=0) from a tilted direction.
    focal = 1.1 * width
    corners = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], dtype=np.float64)
    scale = rng.uniform(0.75, 0.95) * min(width, height) / max(fw, fh)
    world = (corners - [fw / 2, fh / 2]) * scale
    az = rng.uniform(0, 2 * math.pi)
    axis = np.array([math.cos(az), math.sin(az), 0.0])
    rvec = axis * tilt
    rmat, _ = cv2.Rodrigues(rvec)
    pts3 = np.c_[world, np.zeros(4)] @ rmat.T
    distance = focal
    proj = pts3[:, :2] * focal / (distance + pts3[:, 2:3])
    c, s = math.cos(rot), math.sin(rot)
    proj = proj @ np.array([[c, -s], [s, c]]).T
    proj += [width / 2 + rng.uniform(-0.05, 0.05) * width, height / 2 + rng.uniform(-0.05, 0.05) * height]
    homography = cv2.getPerspectiveTransform(corners.astype(np.float32), proj.astype(np.float32))
    table = np.full((height, width, 3), rng.uniform(40, 90, 3), dtype=np.float32)
    table += cv2.GaussianBlur(rng.normal(0, 1, (height, width)).astype(np.float32), (0, 0), 6)[:, :, None] * 30
    image = cv2.warpPerspective(flat, homography, size, dst=np.clip(table, 0, 255).astype(np.uint8),
                                borderMode=cv2.BORDER_TRANSPARENT, flags=cv2.INTER_AREA)
    if hand:
        centre = proj.mean(axis=0) + rng.uniform(-0.2, 0.2, 2) * min(width, height)
        edge = proj[int(rng.integers(4))]
        direction = (centre - edge) / (np.linalg.norm(centre - edge) + 1e-9)
        start = edge - direction * 200
        cv2.line(image, tuple(int(v) for v in start), tuple(int(v) for v in centre), (120, 150, 205), 70)
        cv2.ellipse(image, tuple(int(v) for v in centre), (60, 45), 30, 0, 360, (120, 150, 205), -1)
    noise = rng.normal(0, 3, image.shape)
    image = np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    points: dict[str, tuple[float, float]] = {}
    names = "abcdefghi"
    flat_pts = np.array([_flat_xy(f, r) for r in range(10) for f in range(9)], dtype=np.float64)
    warped = cv2.perspectiveTransform(flat_pts.reshape(-1, 1, 2), homography).reshape(-1, 2)
    for i, (x, y) in enumerate(warped):
        r, f = divmod(i, 9)
        points[f"{names[f]}{r}"] = (float(x), float(y))
    a0, a9 = np.array(points["a0"]), np.array(points["a9"])
    i0 = np.array(points["i0"])
    back = (a0 + i0) / 2 - (warped.mean(axis=0))
    del a9
    if abs(back[0]) > abs(back[1]):
        red_side = "right" if back[0] > 0 else "left"
    else:
        red_side = "bottom" if back[1] > 0 else "top"
    spacing = float(np.linalg.norm(warped[1] - warped[0]))
    return DrawnView(image=image, points=points, red_side=red_side, spacing_px=spacing)


def grid_response(spacing: float, origin: float, grid: float,
                  outlines: list[tuple[float, float, int]]) -> tuple[np.ndarray, np.ndarray]:
    """A dark-line response image of an axis-aligned grid (lines of strength ``grid``) with rectangular
    ``outlines`` around it, each (spacings outside the grid, strength, width): a board's frame, its
    edge. Blurred like a camera's; returned with its board-to-image homography."""
    h = np.array([[spacing, 0.0, origin], [0.0, spacing, origin], [0.0, 0.0, 1.0]])
    image = np.zeros((int(2 * origin + 9 * spacing), int(2 * origin + 8 * spacing)), np.float32)

    def at(u: float, v: float) -> tuple[int, int]:
        x, y = project(h, np.array([[u, v]]))[0]
        return int(round(x)), int(round(y))

    for v in range(10):
        cv2.line(image, at(0, v), at(8, v), grid, 3)
    for u in range(9):
        for a, b in (((u, 0), (u, 4)), ((u, 5), (u, 9))) if 0 < u < 8 else (((u, 0), (u, 9)),):
            cv2.line(image, at(*a), at(*b), grid, 3)
    for gap, strength, width in outlines:
        corners = [(-gap, -gap), (8 + gap, -gap), (8 + gap, 9 + gap), (-gap, 9 + gap)]
        for i in range(4):
            cv2.line(image, at(*corners[i]), at(*corners[(i + 1) % 4]), strength, width)
    return cv2.GaussianBlur(image, (0, 0), 1.2), h
