"""``xqrec render game``: a game as a video from a fixed camera, with truth JSON and clock log.

``xqrec render game --moves "h2e2 h9g7 ..." --seed N --out game.mp4 --clock clock.jsonl --truth truth.json``
The moves may instead come from a game file (``--game-file games_iccs.txt --line N``, lines as
``RESULT m1 m2 ...``); ``--inject KIND[@PLY]`` adds arbiter cases (see ``--help``).
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path

from synth.cli import distinct_outputs
from synth.game_script import ScriptOptions
from synth.style import SPLITS
from synth.video import ENCODERS, render_game
from synth.video_faults import INJECTION_KINDS

log = logging.getLogger(__name__)


def register_game(sub: argparse._SubParsersAction) -> None:
    """Add ``render game`` to the ``render`` sub-commands."""
    p = sub.add_parser("game", help="render a game as a video with truth and clock log",
                       description="Render a game (moves from a position) as an MP4 from a fixed camera: hands "
                                   "make each move, the clock is pressed, and arbiter cases can be injected.")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--moves", help='ICCS moves separated by spaces, e.g. "h2e2 h9g7"')
    source.add_argument("--game-file", type=Path, help="a file of games, one per line: RESULT m1 m2 ...")
    p.add_argument("--line", type=int, default=1, help="line of --game-file to use, from 1 (default 1)")
    p.add_argument("--plies", type=int, help="use only the first PLIES moves")
    p.add_argument("--start-fen", help="position the moves start from (default: the standard start)")
    p.add_argument("--seed", type=int, default=0, help="seed for every random choice (default 0)")
    p.add_argument("--out", type=Path, required=True, help="video file to write (.mp4)")
    p.add_argument("--truth", type=Path, help="write the truth JSON here (default: OUT with .truth.json)")
    p.add_argument("--clock", type=Path, help="write the clock log (JSON lines) here (default: OUT with .clock.jsonl)")
    p.add_argument("--inject", action="append", default=[], metavar="KIND[@PLY]",
                   help=f"inject an arbiter case (repeatable, or comma-separated): {', '.join(INJECTION_KINDS)}; "
                        "without @PLY the ply is drawn from the seed")
    p.add_argument("--fps", type=float, default=10.0, help="frames per second (default 10)")
    p.add_argument("--width", type=int, default=1280, help="frame width (default 1280)")
    p.add_argument("--height", type=int, default=720, help="frame height (default 720)")
    p.add_argument("--split", choices=SPLITS, default="train", help="style split the look is drawn from")
    p.add_argument("--time-control", default="15+10", help="MINUTES+INCREMENT_SECONDS (default 15+10)")
    p.add_argument("--think", default="1,2.2,6", metavar="MIN,MEDIAN,MAX",
                   help="still seconds before each move (default 1,2.2,6)")
    p.add_argument("--bumps", type=int, help="number of camera bumps (default: rare, drawn from the seed)")
    p.add_argument("--no-light-changes", action="store_true", help="keep the room light constant")
    p.add_argument("--encoder", choices=ENCODERS, default="auto",
                   help="auto: H.264 through ffmpeg when installed, else OpenCV mp4v")
    p.set_defaults(handler=run_game)


def _moves(args: argparse.Namespace) -> list[str]:
    if args.moves is not None:
        moves = args.moves.split()
    else:
        lines = args.game_file.read_text(encoding="utf-8").splitlines()
        if not 1 <= args.line <= len(lines):
            raise ValueError(f"--line {args.line} is outside {args.game_file} ({len(lines)} lines)")
        fields = lines[args.line - 1].split()
        moves = fields[1:] if fields and fields[0] in ("1-0", "0-1", "1/2-1/2", "*") else fields
    if args.plies is not None:
        if args.plies < 1:
            raise ValueError("--plies must be 1 or more")
        moves = moves[: args.plies]
    if not moves:
        raise ValueError("no moves to render")
    if args.bumps is not None and args.bumps < 0:
        raise ValueError("--bumps must be 0 or more")
    return moves


def _options(args: argparse.Namespace) -> ScriptOptions:
    try:
        low, median, high = (float(v) for v in args.think.split(","))
    except ValueError:
        raise ValueError(f"--think {args.think!r} is not MIN,MEDIAN,MAX") from None
    return ScriptOptions(time_control=args.time_control, think_min=low, think_median=median, think_max=high,
                         bumps=args.bumps, light_changes=not args.no_light_changes)


def _progress_line(out: Path) -> Callable[[int, int], None]:
    """A terminal line that says how far the render is, each percent (a render takes minutes)."""
    started = time.perf_counter()
    shown = [-1]

    def show(done: int, total: int) -> None:
        percent = 100 * done // max(1, total)
        if percent != shown[0]:
            shown[0] = percent
            spent = time.perf_counter() - started
            left = spent * (total - done) / done if done else 0.0
            print(f"\rrendering {out.name}: {percent:3d} % ({done}/{total} frames, about {left:.0f} s left)  ",
                  end="", file=sys.stderr, flush=True)
    return show


def run_game(args: argparse.Namespace) -> int:
    """Handler of ``render game``."""
    moves = _moves(args)
    out: Path = args.out
    truth = args.truth or out.with_suffix(".truth.json")
    clock = args.clock or out.with_suffix(".clock.jsonl")
    distinct_outputs({"--out": out, "--truth" if args.truth else "the truth file beside --out,": truth,
                      "--clock" if args.clock else "the clock log beside --out,": clock})
    started = time.perf_counter()
    result = render_game(moves, args.seed, out=out, truth_path=truth, clock_path=clock, start_fen=args.start_fen,
                         inject=args.inject, fps=args.fps, width=args.width, height=args.height, split=args.split,
                         options=_options(args), encoder=args.encoder,
                         progress=_progress_line(out) if sys.stderr.isatty() else None)
    if sys.stderr.isatty():
        print(file=sys.stderr)  # past the progress line
    kinds = ", ".join(f"{i['kind']}@{i['ply']}" for i in result.truth["injections"]) or "none"
    print(f"{out}: {len(moves)} plies, {result.frames} frames ({result.frames / args.fps:.1f} s), "
          f"{out.stat().st_size / 1e6:.2f} MB, injected: {kinds}; rendered in {time.perf_counter() - started:.1f} s")
    print(f"truth: {truth}  clock: {clock}")
    return 0
