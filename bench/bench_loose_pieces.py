"""read-board on pieces knocked off their points: are they warned of, and are clean boards left alone?

A piece knocked about halfway between points (art. 5.9) can read as nothing at all, since the
classifier looks at the points; ``read_board`` then prints a placement without it. The disc search
(``recorder.offpoint.loose_pieces``) tells such pieces. This renders held-out views (the test split's
styles, positions from the shared games' openings), each as it is, set sloppily (every piece
0.1-0.22 spacings off its point in a random direction, as in a casual game: no piece is off its
point in the sense of art. 5.9) and with one piece moved 0.38-0.5 spacings off its point, reads
each as ``xqrec read-board`` does (the board located) and counts the warnings: on clean and
sloppy views every one is false, on knocked views every missing one leaves a wrong placement
unexplained (or a right one, when the piece was read anyway).

``python -m bench loose`` or ``python -m bench.bench_loose_pieces --views 40``.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import cv2
import numpy as np

from calibration import BoardNotFoundError
from recorder.commands.read_board import read_board
from recorder.vision import PieceClassifier
from rules import Position
from synth.pieces import Placement
from synth.scene import Scene
from synth.style import ViewStyle
from synth.view import place_pieces

GAMES = Path(__file__).resolve().parents[2] / "shared" / "data" / "games_iccs.txt"
SEED_BASE = 100  # seeds of the views (the test split's styles are never trained on)


def positions(count: int) -> list[Position]:
    """Middle-game positions: game i played for 10 + i % 40 plies (the start when the games are absent)."""
    if not GAMES.exists():
        return [Position.start()]
    found = []
    for index, line in enumerate(GAMES.read_text(encoding="utf-8").splitlines()[:count]):
        position = Position.start()
        for iccs in line.split()[1:][:10 + index % 40]:
            position = position.play(iccs)
        found.append(position)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench_loose_pieces", description=__doc__.split("\n")[0])
    parser.add_argument("--views", type=int, default=40, help="views, each read clean and knocked (default 40)")
    args = parser.parse_args(argv)
    logging.getLogger("recorder").setLevel(logging.ERROR)
    cv2.setNumThreads(1)
    classifier = PieceClassifier(threads=1)
    boards = positions(60)
    counts = {"clean": 0, "clean warned": 0, "sloppy": 0, "sloppy warned": 0, "knocked": 0, "knocked warned": 0,
              "knocked read right": 0, "knocked unwarned and wrong": 0, "not located": 0}
    said: list[str] = []
    for seed in range(SEED_BASE, SEED_BASE + args.views):
        position = boards[seed % len(boards)]
        style = ViewStyle.sample(np.random.default_rng([seed, 1]), split="test")
        scene = Scene(style, seed)
        placements = place_pieces(position, style, np.random.default_rng([seed, 2]))
        rng = np.random.default_rng([seed, 99])
        name = sorted(placements)[int(rng.integers(len(placements)))]
        angle, distance = rng.uniform(0, 2 * np.pi), rng.uniform(0.38, 0.5)
        piece = placements[name]
        knocked = dict(placements)
        knocked[name] = Placement(piece.letter, piece.rotation,
                                  (float(distance * np.cos(angle)), float(distance * np.sin(angle))))
        sloppy: dict[str, Placement] = {}
        for point, piece in placements.items():
            turn, off = rng.uniform(0, 2 * np.pi), rng.uniform(0.1, 0.22)
            sloppy[point] = Placement(piece.letter, piece.rotation, (float(off * np.cos(turn)), float(off * np.sin(turn))))
        for kind, board in (("clean", placements), ("sloppy", sloppy), ("knocked", knocked)):
            try:
                reading = read_board(scene.render_frame(board, [], 0.0).image, classifier)
            except BoardNotFoundError:
                counts["not located"] += 1
                continue
            warned = bool(reading.off_point or reading.between)
            if warned:
                said.append(f"{kind} {seed} ({name} {distance:.2f}): off {reading.off_point} between {reading.between}"
                            if kind == "knocked" else f"{kind} {seed}: off {reading.off_point} between {reading.between}")
            counts[kind] += 1
            counts[f"{kind} warned"] += warned
            if kind == "knocked":
                right = reading.placement == position.fen().split()[0]
                counts["knocked read right"] += right
                counts["knocked unwarned and wrong"] += not warned and not right
    for line in said:
        print(line)
    for key, value in counts.items():
        print(f"{key:28s} {value}")
    if counts["clean"] and counts["sloppy"] and counts["knocked"]:
        print(f"false warnings: clean views {counts['clean warned'] / counts['clean']:.1%}, sloppy views "
              f"{counts['sloppy warned'] / counts['sloppy']:.1%}; knocked pieces warned of: "
              f"{counts['knocked warned'] / counts['knocked']:.1%}")


if __name__ == "__main__":
    main()
