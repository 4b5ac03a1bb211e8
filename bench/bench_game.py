"""Cost of ``Game`` for a recorder that pushes a move and asks ``outcome()`` after every move.

Replays the real games (``../shared/data/games_iccs.txt``) and prints the time per move for
``push`` + ``outcome()`` (median, 99th percentile, worst), the time of a ``repetitions()`` scan
per game that has a threefold repetition, the slowest single move classification, how the
repetition episodes' first verdicts are spread, and the games where nine rounds of attacks would
be judged without a threefold repetition (art. 23.4).

``python -m bench game`` (all games) or ``python -m bench.bench_game --games 500``.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from rules import Game

logger = logging.getLogger(__name__)

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "games_iccs.txt"


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(limit: int | None = None) -> None:
    """Replay up to ``limit`` games and print the figures."""
    if not DATA.exists():
        print(f"bench_game: {DATA} is missing, nothing to measure")
        return
    lines = DATA.read_text(encoding="utf-8").splitlines()[:limit]
    per_move: list[float] = []
    scans: list[float] = []
    codes: Counter[str] = Counter()
    nine_rounds: list[str] = []
    outcomes: Counter[str] = Counter()
    slowest = (0.0, "")
    clock = time.perf_counter
    for number, line in enumerate(lines, 1):
        _, *moves = line.split()
        game = Game()
        outcome = None
        for move in moves:
            start = clock()
            game.push(move)
            outcome = game.outcome()
            elapsed = clock() - start
            per_move.append(elapsed * 1000)
            if elapsed > slowest[0]:
                slowest = (elapsed, f"line {number} ply {game.ply}")
        outcomes[outcome.reason if outcome else "none"] += 1
        start = clock()
        episodes = Game(moves=moves).repetitions()
        if episodes:
            scans.append((clock() - start) * 1000)
            codes.update(e.first.code for e in episodes)
        nine_rounds += [f"line {number} ply {v.ply} {v.code}" for v in game.long_attacks()]
    print(f"bench_game: {len(lines)} games, {len(per_move)} moves")
    print(f"  push+outcome per move: median {statistics.median(per_move):.3f} ms, "
          f"p99 {_percentile(per_move, 0.99):.3f} ms, worst {slowest[0] * 1000:.1f} ms ({slowest[1]})")
    if scans:
        print(f"  repetitions() scan, {len(scans)} games with a threefold repetition: "
              f"median {statistics.median(scans):.1f} ms, worst {max(scans):.1f} ms")
    print(f"  first verdict of each repetition episode: {dict(codes.most_common())}")
    print(f"  nine rounds of attacks without a threefold repetition (23.4): {len(nine_rounds)}"
          + (f" ({'; '.join(nine_rounds)})" if nine_rounds else ""))
    print(f"  outcome() after the last move: {dict(outcomes.most_common())}")


def main(argv: list[str] | None = None) -> None:
    """Entry point for ``python -m bench``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=None, help="only the first N games")
    args = parser.parse_args(argv if argv is not None else [])
    run(args.games)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    import sys

    main(sys.argv[1:])
