"""``xqrec perft DEPTH [--fen FEN]``: count leaf positions, the move generator's standard check."""

from __future__ import annotations

import argparse
import time

from rules import Position, perft


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("perft", help="count the positions DEPTH plies ahead (move-generator check)")
    parser.add_argument("depth", type=int, help="plies to search (1-6 are practical)")
    parser.add_argument("--fen", help="start position (default: the standard start)")
    parser.add_argument("--divide", action="store_true", help="also print the count below each legal move")
    parser.add_argument("--time", action="store_true", help="print the elapsed time to stderr")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.depth < 0:
        raise ValueError("DEPTH must be 0 or more")
    position = Position.from_fen(args.fen) if args.fen else Position.start()
    started = time.perf_counter()
    if args.divide and args.depth >= 1:
        total = 0
        for move in sorted(position.legal_moves(), key=lambda m: m.iccs):
            count = perft(position.play(move), args.depth - 1)
            total += count
            print(f"{move.iccs} {count}")
        print()
        print(total)
    else:
        print(perft(position, args.depth))
    if args.time:
        import sys

        print(f"{time.perf_counter() - started:.3f} s", file=sys.stderr)
    return 0
