"""The board as set up before the first move: right set-ups raise nothing, swapped pieces are named.

Before a game the arbiter needs to know the board is set up as the start position (art. 1.3).
A piece missing or extra is a point read empty or occupied; a set-up mistake that keeps every
point occupied (a horse and a chariot swapped) shows only in the piece kinds, which the recorder
otherwise never alerts on (during a game a piece read as another is a misread character).

Each view is a test-split render (styles, faces and seeds never used in training) of the start
position or of a set-up with pieces swapped, fed to a ``RecordingSession`` as 2 s of a still
board. A view whose board is not found is counted apart. A right set-up counts as a false alert
when anything but a glare warning is raised; a wrong one as found when an alert names exactly
the swapped points, as partly found when it names some of them.

``python -m bench setup`` or ``python -m bench.bench_setup --views 40``.
"""

from __future__ import annotations

import argparse
import logging
import time

import numpy as np

from recorder.events import Alert
from recorder.session import RecordingSession
from recorder.sources import Frame
from recorder.vision import PieceClassifier
from rules.squares import parse_square
from synth.style import SPLIT_SEED_BASE, ViewStyle
from synth.view import render_position

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# (name, placement, the points whose pieces are not where the start puts them)
SET_UPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("right", START, ()),
    ("red horse and chariot swapped", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/NRBAKABNR w - - 0 1",
     ("a0", "b0")),
    ("cannons and horses swapped", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1N5N1/9/RCBAKABCR w - - 0 1",
     ("b0", "h0", "b2", "h2")),
    ("black horse and chariot swapped", "rnbakabrn/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
     ("h9", "i9")),
)
SIZES = ((1280, 960), (960, 720), (800, 600))


def judge(classifier: PieceClassifier, image: np.ndarray, seconds: float = 2.0, fps: float = 10.0) -> list[Alert]:
    """The alerts (glare warnings aside) a session raises on ``seconds`` of the still ``image``."""
    session = RecordingSession(classifier, source_name="set-up")
    for index in range(int(seconds * fps)):
        session.feed(Frame(image, index / fps, index))
    session.finish()
    return [e for e in session.log.events if isinstance(e, Alert) and e.kind != "glare"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--views", type=int, default=24, help="renders per set-up")
    parser.add_argument("--model", default=None)
    args = parser.parse_args([] if argv is None else argv)
    classifier = PieceClassifier(args.model, threads=2)
    started = time.perf_counter()
    for name, fen, swapped in SET_UPS:
        want = {parse_square(sq) for sq in swapped}
        found = partly = alerted = lost = 0
        for i in range(args.views):
            seed = SPLIT_SEED_BASE["test"] + 950_000 + i
            width, height = SIZES[i % len(SIZES)]
            style = ViewStyle.sample(np.random.default_rng([seed, 1]), split="test", width=width, height=height)
            image, _ = render_position(fen, seed, style=style)
            alerts = judge(classifier, image)
            if any(alert.kind == "board_not_found" for alert in alerts):
                lost += 1
                continue
            named = {parse_square(sq) for alert in alerts for sq in alert.squares}
            alerted += bool(alerts)
            found += bool(want) and named == want
            partly += bool(want) and bool(named & want) and named != want
        seen = args.views - lost
        if swapped:
            print(f"{name:34s} found {found}/{seen}, partly {partly}, not at all {seen - found - partly}"
                  f" (board not found on {lost})")
        else:
            print(f"{name:34s} false alerts {alerted}/{seen} (board not found on {lost})")
    print(f"({len(SET_UPS) * args.views} views of 2 s in {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    import sys

    logging.basicConfig(level=logging.WARNING)
    main(sys.argv[1:])
