"""Simulator speed: still views per second at 640x480 and 1280x960 on one core.

Target (issue, "Interface and speed"): at least 20 views per second at 640x480 on one core.
Each view is a fresh scene (new style, board texture, camera, light) and a fresh random
position, the way ``xqrec render dataset`` makes them; OpenCV is held to one thread. Both wall
time and this process's CPU time are reported: on a shared machine the wall figure also counts
time spent waiting for a core, the CPU figure does not.

``python -m bench synth`` or ``python -m bench.bench_synth --n 100``.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from collections.abc import Sequence

import cv2
import numpy as np

from synth.positions import random_position
from synth.style import ViewStyle
from synth.view import render_position

logger = logging.getLogger(__name__)

TARGET_VIEWS_PER_S = 20.0
RESOLUTIONS = ((640, 480), (1280, 960))


def time_views(width: int, height: int, n: int, seed: int = 0) -> tuple[list[float], list[float]]:
    """(wall seconds, CPU seconds) of ``n`` views at ``width`` x ``height``."""
    walls, cpus = [], []
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        fen = random_position(rng).fen()
        style = ViewStyle.sample(np.random.default_rng([seed, i, 1]), width=width, height=height)
        hand = bool(rng.random() < 0.25)
        w0, c0 = time.perf_counter(), time.process_time()
        render_position(fen, seed * 100_000 + i, style=style, hand=hand)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    return walls, cpus


def main(argv: Sequence[str] | None = None) -> None:
    """Print views per second (wall and CPU) and the median time per view at each resolution."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=60, help="views per resolution (default 60)")
    args = parser.parse_args(list(argv) if argv is not None else [])
    cv2.setNumThreads(1)
    render_position("4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1", 0)  # warm caches (fonts, noise tile)
    for width, height in RESOLUTIONS:
        walls, cpus = time_views(width, height, args.n)
        wall_rate = len(walls) / sum(walls)
        cpu_rate = len(cpus) / sum(cpus)
        verdict = ""
        if (width, height) == (640, 480):
            verdict = "  PASS" if cpu_rate >= TARGET_VIEWS_PER_S else "  FAIL"
            verdict += f" (target {TARGET_VIEWS_PER_S:.0f} views/s on one core)"
        print(
            f"synth {width}x{height}: {cpu_rate:.1f} views/s CPU, {wall_rate:.1f} views/s wall, "
            f"median {statistics.median(walls) * 1000:.1f} ms wall over {args.n} views{verdict}"
        )


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
