"""Game-video rendering speed and size: frames per second (CPU time) and MB per minute of video.

Renders the first 8 plies of a real game at 1280x720, 10 fps, with the default pacing, once
with each available encoder, and prints the figures. The demo video (80 plies) takes about
ten times as long.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from synth.video import render_game

GAMES = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "games_iccs.txt"
FALLBACK = ["c3c4", "h9g7", "b0c2", "g6g5", "a0a1", "g9e7", "c2d4", "b9c7"]


def main() -> None:
    moves = GAMES.read_text().splitlines()[4].split()[1:9] if GAMES.exists() else FALLBACK
    encoders = ["opencv"] + (["ffmpeg"] if shutil.which("ffmpeg") else [])
    with tempfile.TemporaryDirectory() as folder:
        for encoder in encoders:
            out = Path(folder) / f"{encoder}.mp4"
            wall, cpu = time.perf_counter(), time.process_time()
            result = render_game(moves, 7, out=out, truth_path=Path(folder) / "t.json", encoder=encoder)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            minutes = result.frames / 10.0 / 60.0
            hands = sum(1 for h in result.truth["hands"] if h["frame_first"] is not None)
            print(f"encoder {encoder}: {len(moves)} plies, {result.frames} frames ({result.frames / 10:.1f} s of video), "
                  f"{hands} hand visits; {result.frames / cpu:.1f} frames per CPU second "
                  f"({cpu:.1f} s CPU, {wall:.1f} s wall; CPU excludes an ffmpeg child); "
                  f"{out.stat().st_size / 1e6 / minutes:.2f} MB per minute of video")
