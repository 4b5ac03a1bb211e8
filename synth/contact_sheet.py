"""The simulator's contact sheet for ``docs/synth.md``: 24 samples, still views and (when
:mod:`synth.video` is installed) frames of a rendered game video.

``python -m synth.contact_sheet [--out docs/images/synth-contact-sheet.png] [--seed 0]``
"""

from __future__ import annotations

import argparse
import logging
import tempfile
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from rules import START_FEN
from synth.positions import random_position
from synth.style import ViewStyle
from synth.view import render_position

log = logging.getLogger(__name__)

TILE = (288, 216)
COLUMNS = 6
SAMPLES = 24
VIDEO_FRAMES = 6
VIDEO_MOVES = ("h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b2b6", "c6c5", "e2e6", "h7h3")


def _fit(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` scaled to fit ``size`` (w, h), centred on a dark background."""
    w, h = size
    scale = min(w / image.shape[1], h / image.shape[0])
    small = cv2.resize(image, (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale))),
                       interpolation=cv2.INTER_AREA)
    tile = np.full((h, w, 3), 24, np.uint8)
    y0, x0 = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
    tile[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
    return tile


def _label(tile: np.ndarray, text: str) -> None:
    cv2.rectangle(tile, (0, tile.shape[0] - 16), (tile.shape[1], tile.shape[0]), (0, 0, 0), -1)
    cv2.putText(tile, text, (4, tile.shape[0] - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.36, (235, 235, 235), 1, cv2.LINE_AA)


def still_tiles(n: int, seed: int) -> list[np.ndarray]:
    """``n`` still views of random positions and styles (some with a hand), labelled."""
    tiles = []
    for i in range(n):
        s = seed * 1000 + i
        rng = np.random.default_rng([s, 9])
        fen = START_FEN if i % 4 == 0 else random_position(rng).fen()
        split = ("train", "dev", "test")[i % 3]
        style = ViewStyle.sample(np.random.default_rng([s, 1]), split=split, width=640, height=480)
        image, truth = render_position(fen, s, style=style, hand=(i % 5 == 3), split=split)
        tile = _fit(image, TILE)
        st = truth.style
        _label(tile, f"{st['board_material']} / {st['piece_face']} / {st['font']} / tilt {st['tilt_deg']:.0f}")
        tiles.append(tile)
    return tiles


def video_tiles(n: int, seed: int) -> list[np.ndarray]:
    """``n`` frames spread over a short rendered game, or none when :mod:`synth.video` is absent."""
    try:
        from synth import video
    except ImportError:
        log.info("synth.video is not available: the sheet shows still views only")
        return []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "game.mp4"
        video.render_game(list(VIDEO_MOVES), seed, out=out, width=640, height=480)
        frames = video.read_frames(out)
    if not frames:
        return []
    picks = np.linspace(len(frames) * 0.1, len(frames) - 1, n).astype(int)
    tiles = []
    for k in picks:
        tile = _fit(frames[int(k)], TILE)
        _label(tile, f"video frame {int(k)} of {len(frames)}")
        tiles.append(tile)
    return tiles


def build_sheet(seed: int = 0, with_video: bool = True) -> np.ndarray:
    """The 24-sample sheet as one BGR image (stills first, then video frames)."""
    video = video_tiles(VIDEO_FRAMES, seed) if with_video else []
    tiles = still_tiles(SAMPLES - len(video), seed) + video
    rows = [np.hstack(tiles[r:r + COLUMNS]) for r in range(0, len(tiles), COLUMNS)]
    return np.vstack(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """Write the contact sheet image."""
    parser = argparse.ArgumentParser(description="Write the simulator's 24-sample contact sheet.")
    parser.add_argument("--out", type=Path, default=Path("docs/images/synth-contact-sheet.png"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-video", action="store_true", help="still views only")
    args = parser.parse_args(argv)
    sheet = build_sheet(args.seed, with_video=not args.no_video)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), sheet)
    print(f"wrote {args.out} ({sheet.shape[1]}x{sheet.shape[0]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
