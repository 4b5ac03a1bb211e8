"""read-board's warnings against the truth: are wrong readings warned of, and right ones left alone?

A warning that comes with every reading is read by nobody; a wrong reading with none passes for
right. This takes still frames of the recorder benchmark's clean videos (a few frames before a hand
arrives: the board stands as the plies before it left it), reads each with ``read_board`` as
``xqrec read-board`` does (the board located, no calibration given) and counts, for right and wrong
placements, how many came with a warning, and which warnings came.

It needs the benchmark's videos (``python -m bench.bench_recorder --render-only``, 45-60 min once).
``python -m bench read_board`` or ``python -m bench.bench_read_board_warnings --every 3``.
"""

from __future__ import annotations

import argparse
import json
import logging
from collections import Counter

import cv2

from bench.bench_recorder import VIDEOS
from calibration import BoardNotFoundError
from recorder.commands.read_board import impossible, read_board
from recorder.vision import PieceClassifier

HANDS = (5, 15, 25)  # the hands before which a frame is read (plies 5, 15, 25 of a 30-ply video)
# how each warning of BoardReading.warnings begins -> its name here
KINDS = {"glare washes out": "glare", "point(s) are covered": "covered", "points read less than": "unsure",
         "the camera read": "over the count", "the rules had to overrule": "overruled",
         "the board is small": "small board", "point(s) are cut off": "cut off", "the picture looks mirrored": "mirrored",
         "red's side could not": "red's side", "no game can show": "impossible"}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench_read_board_warnings", description=__doc__.split("\n")[0])
    parser.add_argument("--every", type=int, default=3, help="read every Nth clean video (default 3: 17 of 50)")
    args = parser.parse_args(argv)
    logging.getLogger("recorder").setLevel(logging.ERROR)
    videos = sorted(VIDEOS.glob("clean-*-p30.mp4"))[::max(1, args.every)]
    if not videos:
        print(f"no benchmark videos in {VIDEOS}: python -m bench.bench_recorder --render-only")
        return
    classifier = PieceClassifier()
    tally: Counter[tuple[bool, bool]] = Counter()
    kinds: Counter[tuple[bool, str]] = Counter()
    not_found = 0
    for video in videos:
        truth = json.loads(video.with_suffix("").with_suffix(".truth.json").read_text(encoding="utf-8"))
        capture = cv2.VideoCapture(str(video))
        for hand in HANDS:
            frame_at = truth["hands"][hand]["frame_first"] - 3
            fen = truth["start_fen"]
            for ply in truth["plies"]:
                if ply["frame_complete"] < frame_at:
                    fen = ply["fen_after"]
            capture.set(cv2.CAP_PROP_POS_FRAMES, frame_at)
            ok, image = capture.read()
            if not ok:
                continue
            try:
                reading = read_board(image, classifier)
            except BoardNotFoundError:
                not_found += 1
                continue
            right = reading.placement == fen.split()[0]
            warnings = reading.warnings(impossible(reading.placement))
            tally[right, bool(warnings)] += 1
            for warning in warnings:
                kind = next((name for key, name in KINDS.items() if key in warning), "other")
                kinds[right, kind] += 1
        capture.release()
    right, wrong = tally[True, True] + tally[True, False], tally[False, True] + tally[False, False]
    print(f"{len(videos)} clean videos, {right + wrong} still frames read ({not_found} more with no board found)")
    print(f"wrong placements: {wrong}, warned {tally[False, True]}; right placements: {right}, "
          f"warned {tally[True, True]}")
    for is_right in (False, True):
        told = ", ".join(f"{kind} {n}" for (r, kind), n in sorted(kinds.items()) if r == is_right)
        print(f"  warnings on {'right' if is_right else 'wrong'} readings: {told or 'none'}")


if __name__ == "__main__":
    main()
