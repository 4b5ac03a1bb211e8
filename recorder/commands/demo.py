"""``xqrec demo``: the main job on the bundled default (for now: replay a real game through the rules)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="run the recorder on the bundled default game")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    raise ValueError("the demo is not built yet")
