"""``xqrec demo``: the main job on the bundled default.

Until the camera pipeline lands, the demo replays a real master game from ``../shared/data``
(line 13 of ``games_iccs.txt``: a repetition the rules call a draw) through the rules engine
and prints its scoresheet in Chinese notation with the verdicts.
"""

from __future__ import annotations

import argparse

from recorder.commands.replay import load_shared_line, scoresheet_lines

DEMO_LINE = 13


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="run the recorder on the bundled default game")
    parser.add_argument("--line", type=int, default=DEMO_LINE, help="game line of games_iccs.txt to replay")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    record = load_shared_line(args.line)
    print(f"Replaying game {args.line} of ../shared/data/games_iccs.txt through the rules engine\n")
    print("\n".join(scoresheet_lines(record)))
    return 0
