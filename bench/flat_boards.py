"""Boards drawn flat, a second renderer for the benchmarks: a look neither training nor ``synth`` makes.

``synth`` renders pieces as lit 3-D discs on textured boards; the classifier and the board locator
were trained and tuned on its views. This draws a board the way a diagram or a printed set looks
from straight above (solid pieces with a ring and a character, plain lines, no lighting model), then
puts it on a table in perspective with a brightness gradient, blur, noise and JPEG, so that what the
benchmarks measure on it is how the pipeline copes with a look it never saw. The characters come
from the test split's faces only.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules import Position
from synth.fonts import glyph_mask
from synth.pieces import CHARACTERS

FACES = ("noto-serif-bold", "noto-sans-bold", "cwfs", "hanamin")  # the test split's faces (synth.style)
SIZES = ((640, 480), (800, 600), (1024, 768), (1280, 960), (1920, 1080))
BLACK_INKS = ((25, 25, 25), (40, 110, 30), (150, 60, 20))  # BGR: black, green, blue
RED_INK = (30, 30, 190)


@dataclass(frozen=True)
class FlatView:
    """One drawn view: the image, the placement it shows (FEN, red at the bottom) and how it was drawn."""

    image: np.ndarray
    placement: str
    face: str
    size: tuple[int, int]


def placement_points(placement: str) -> list[str]:
    """The 90 points of a FEN piece placement in reading order (rank 9 first), "." where empty; for
    comparing readings point by point, including readings no game could show."""
    return [c for row in placement.split("/") for c in "".join("." * int(ch) if ch.isdigit() else ch for ch in row)]


def draw_view(fen: str, rng: np.random.Generator) -> FlatView:
    """A flat drawing of ``fen`` in perspective on a table, every choice drawn from ``rng``."""
    face = FACES[int(rng.integers(len(FACES)))]
    charset = "traditional" if face in ("cwfs", "hanamin") or rng.random() < 0.5 else "simplified"
    size = SIZES[int(rng.integers(len(SIZES)))]
    board = _draw_board(Position.from_fen(fen), face, charset, rng)
    image = _on_table(board, size, rng)
    return FlatView(image, fen.split()[0], face, size)


def _draw_board(position: Position, face: str, charset: str, rng: np.random.Generator) -> np.ndarray:
    spacing, margin = 96, 80
    width, height = 8 * spacing + 2 * margin, 9 * spacing + 2 * margin
    paper = np.array([rng.uniform(150, 215), rng.uniform(185, 230), rng.uniform(205, 240)])
    img = np.empty((height, width, 3), np.uint8)
    img[:] = paper.astype(np.uint8)
    line = tuple(int(v) for v in (rng.uniform(10, 60), rng.uniform(10, 50), rng.uniform(10, 90)))
    thick = int(rng.integers(2, 5))

    def at(file: float, rank: float) -> tuple[int, int]:  # rank 9 at the top
        return int(round(margin + file * spacing)), int(round(margin + (9 - rank) * spacing))

    for rank in range(10):
        cv2.line(img, at(0, rank), at(8, rank), line, thick, cv2.LINE_AA)
    for file in range(9):
        if file in (0, 8):
            cv2.line(img, at(file, 0), at(file, 9), line, thick, cv2.LINE_AA)
        else:
            cv2.line(img, at(file, 0), at(file, 4), line, thick, cv2.LINE_AA)
            cv2.line(img, at(file, 5), at(file, 9), line, thick, cv2.LINE_AA)
    for low in (0, 7):
        cv2.line(img, at(3, low), at(5, low + 2), line, thick, cv2.LINE_AA)
        cv2.line(img, at(5, low), at(3, low + 2), line, thick, cv2.LINE_AA)
    gap = int(spacing * 0.15)
    cv2.rectangle(img, (margin - gap, margin - gap), (width - margin + gap, height - margin + gap), line,
                  thick + 2, cv2.LINE_AA)
    face_colour = np.array([rng.uniform(160, 235), rng.uniform(190, 240), rng.uniform(215, 250)])
    black_ink = BLACK_INKS[int(rng.integers(len(BLACK_INKS)))]
    radius = spacing * rng.uniform(0.40, 0.46)
    upright = rng.random() < 0.5  # each side's characters face its player; otherwise any angle
    for sq, letter in position.pieces():
        x, y = at(sq % 9 + rng.normal(0, 0.02), sq // 9 + rng.normal(0, 0.02))
        ink = RED_INK if letter.isupper() else black_ink
        cv2.circle(img, (x, y), int(radius), (face_colour * 0.6).astype(np.uint8).tolist(), -1, cv2.LINE_AA)
        cv2.circle(img, (x, y), int(radius * 0.94), face_colour.astype(np.uint8).tolist(), -1, cv2.LINE_AA)
        cv2.circle(img, (x, y), int(radius * 0.8), ink, max(1, thick - 1), cv2.LINE_AA)
        angle = (0.0 if letter.isupper() else 180.0) + rng.normal(0, 5) if upright else rng.uniform(0, 360)
        _stamp(img, glyph_mask(face, CHARACTERS[charset][letter], int(radius * 1.15), charset == "simplified"),
               (x, y), angle, ink)
    return img


def _stamp(img: np.ndarray, mask: np.ndarray, centre: tuple[int, int], angle: float, ink: tuple[int, ...]) -> None:
    """Blend ``ink`` into ``img`` through ``mask`` (0-1) turned by ``angle`` degrees, centred on ``centre``."""
    h, w = mask.shape
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    mask = cv2.warpAffine(mask.astype(np.float32), turn, (w, h))
    x0, y0 = centre[0] - w // 2, centre[1] - h // 2
    region = img[y0:y0 + h, x0:x0 + w].astype(np.float32)
    alpha = mask[:region.shape[0], :region.shape[1], None]
    img[y0:y0 + h, x0:x0 + w] = (region * (1 - alpha) + np.array(ink, np.float32) * alpha).astype(np.uint8)


def _on_table(board: np.ndarray, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    width, height = size
    table = np.empty((height, width, 3), np.uint8)
    table[:] = rng.uniform(30, 150, 3).astype(np.uint8)
    table = np.asarray(cv2.add(table, rng.integers(0, 25, table.shape, dtype=np.uint8)), dtype=np.uint8)
    bh, bw = board.shape[:2]
    tall = height * rng.uniform(0.7, 0.92)  # the board's height in the picture
    wide = tall * bw / bh
    cx, cy = width / 2 + rng.uniform(-0.1, 0.1) * width, height / 2 + rng.uniform(-0.03, 0.03) * height
    tilt = rng.uniform(0.0, 0.12) * wide  # the far edge looks narrower, as from a camera before the board
    corners = np.array([[cx - wide / 2 + tilt / 2, cy - tall / 2], [cx + wide / 2 - tilt / 2, cy - tall / 2],
                        [cx + wide / 2, cy + tall / 2], [cx - wide / 2, cy + tall / 2]], dtype=np.float32)
    corners += rng.normal(0, 0.01 * tall, corners.shape).astype(np.float32)
    spin = cv2.getRotationMatrix2D((cx, cy), rng.uniform(-6, 6), 1.0)
    corners = np.asarray(cv2.transform(corners[None], spin)[0], dtype=np.float32)
    homography = cv2.getPerspectiveTransform(np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], dtype=np.float32), corners)
    warped = cv2.warpPerspective(board, homography, (width, height), flags=cv2.INTER_AREA)
    inside = cv2.warpPerspective(np.full((bh, bw), 255, np.uint8), homography, (width, height)) > 127
    table[inside] = warped[inside]
    shade = np.linspace(rng.uniform(0.7, 1.0), rng.uniform(1.0, 1.25), width, dtype=np.float32)[None, :, None]
    image = np.clip(cv2.GaussianBlur(table, (0, 0), rng.uniform(0.5, 1.2)) * shade
                    + rng.normal(0, 3, table.shape), 0, 255).astype(np.uint8)
    _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR))
