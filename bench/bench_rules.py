"""Rules speed and correctness: legal-move generation beside pyffish, perft(4), the full cross-check.

Targets (issue, "Speed"): legal moves of one position in under 0.2 ms median and perft(4)
from the start in under 60 s, both on one core. The pass over the real games times our
generator and Fairy-Stockfish's on the same positions and compares their move sets, so
the whole 2 998-game cross-check comes out of the same run.

``python -m bench rules`` (all games) or ``python -m bench.bench_rules --games 500``.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from collections.abc import Sequence

import pyffish

from bench.pyffish_crosscheck import VARIANT, CrossCheck, compare_moves, game_positions, read_games, spread
from rules import Position, perft

logger = logging.getLogger(__name__)

PERFT_4_START = 3_290_240
TARGET_MEDIAN_US = 200.0
TARGET_PERFT_S = 60.0


def _percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def timed_pass(games: Sequence[tuple[str, list[str]]], indices: Sequence[int]) -> tuple[dict[str, list[float]], CrossCheck]:
    """Time three generators on every position of the chosen games and compare our moves with pyffish's.

    ``ours``: ``legal_moves()`` on a fresh ``Position`` value (no cached answer), as the
    recorder calls it; ``ours+fen``: ``Position.from_fen(fen).legal_moves()``, parsing and
    validating like pyffish must; ``pyffish``: ``pyffish.legal_moves`` on the FEN.
    Each call is timed in this thread's CPU time, so other processes on a shared
    machine do not inflate the figures (the single-threaded call runs on one core).
    """
    times: dict[str, list[float]] = {"ours": [], "ours+fen": [], "pyffish": []}
    report = CrossCheck()
    clock = time.thread_time_ns
    for index in indices:
        _, moves = games[index]
        for ply, position in enumerate(game_positions(moves)):
            fen = position.fen()
            fresh = Position(position.board, position.side_to_move, position.quiet_plies, position.fullmove)
            start = clock()
            fresh.legal_moves()
            times["ours"].append((clock() - start) / 1000)
            start = clock()
            Position.from_fen(fen).legal_moves()
            times["ours+fen"].append((clock() - start) / 1000)
            start = clock()
            theirs = pyffish.legal_moves(VARIANT, fen, [])
            times["pyffish"].append((clock() - start) / 1000)
            compare_moves(fresh, fen, theirs, f"game line {index + 1} ply {ply}", report)
    return times, report


def run(game_count: int | None = None) -> None:
    """Print the figures for ``game_count`` games spread over the file (all when ``None``)."""
    games = read_games()
    indices = spread(game_count, len(games)) if game_count else list(range(len(games)))
    # One process, one thread: the figures are for one core.
    started, started_cpu = time.perf_counter(), time.process_time()
    times, report = timed_pass(games, indices)
    pass_s, pass_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    print(f"legal-move generation on {report.positions} positions of {len(indices)} real games, "
          f"per-call CPU time, one thread (pass: {pass_s:.0f} s wall, {pass_cpu:.0f} s CPU)")
    print(f"  {'generator':<10} {'median us':>10} {'p95 us':>9} {'mean us':>9} {'positions/s':>12}")
    for name, values in times.items():
        total_s = sum(values) / 1e6
        print(f"  {name:<10} {statistics.median(values):>10.1f} {_percentile(values, 0.95):>9.1f} "
              f"{statistics.fmean(values):>9.1f} {len(values) / total_s:>12.0f}")
    ours, theirs = statistics.median(times["ours"]), statistics.median(times["pyffish"])
    verdict = "met" if ours < TARGET_MEDIAN_US else "MISSED"
    print(f"  median ratio pyffish/ours: {theirs / ours:.1f}x; "
          f"target median < {TARGET_MEDIAN_US:.0f} us: {verdict}")

    started, started_cpu = time.perf_counter(), time.process_time()
    leaves = perft(Position.start(), 4)
    perft_s, perft_cpu = time.perf_counter() - started, time.process_time() - started_cpu
    verdict = "met" if perft_cpu < TARGET_PERFT_S and leaves == PERFT_4_START else "MISSED"
    print(f"perft(4) from the start: {leaves} leaves (expected {PERFT_4_START}) in {perft_cpu:.1f} s CPU "
          f"({perft_s:.1f} s wall); target < {TARGET_PERFT_S:.0f} s: {verdict}")

    print(f"cross-check with pyffish: {report.positions} positions, {report.moves} legal moves, "
          f"{report.ends} game ends compared; {len(report.mismatches)} mismatches")
    for mismatch in report.mismatches[:20]:
        print(f"  {mismatch}")


def main() -> None:
    """All 2 998 games: speed beside pyffish, perft(4), and the full cross-check."""
    run(None)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="games spread over the file (default: all)")
    run(parser.parse_args().games)
