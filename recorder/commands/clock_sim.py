"""``xqrec clock-sim``: a game clock emulator on a pseudo-terminal (DGT messages or the text lines).

Prints the pty's path (and makes ``--link`` a symlink to it), then runs the clock: presses come from
``--script`` and from the keyboard (``l``/``r`` or ``red``/``black`` lines, an empty line for the
running side, ``q`` to quit).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from pathlib import Path

from recorder.clock.model import DEFAULT_TIME_CONTROL, time_control_argument

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("clock-sim", help="emulate a game clock (DGT or text protocol) on a pty")
    parser.add_argument("--protocol", choices=("dgt", "text"), default="dgt", help="wire protocol (default dgt)")
    parser.add_argument("--time-control", default=DEFAULT_TIME_CONTROL, type=time_control_argument,
                        help=f"minutes + increment seconds a move (default {DEFAULT_TIME_CONTROL})")
    parser.add_argument("--script", type=Path, help="presses and faults (clock-log JSON lines or '<t> <side>')")
    parser.add_argument("--red-side", choices=("left", "right"), default="left",
                        help="red's side of the clock as seen facing its display (default left)")
    parser.add_argument("--first", choices=("red", "black"), default="red", help="the side that runs first")
    parser.add_argument("--noise", type=float, default=0.0, help="rate of bytes changed on the line (0..1)")
    parser.add_argument("--drop", type=float, default=0.0, help="rate of bytes dropped on the line (0..1)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the line noise and garbage")
    parser.add_argument("--speed", type=float, default=1.0, help="clock seconds per real second (default 1)")
    parser.add_argument("--wait-host", action="store_true",
                        help="start the clock when the host first writes (lines a script up with a recorder)")
    parser.add_argument("--duration", type=float, help="stop after this many real seconds")
    parser.add_argument("--link", type=Path, help="also make this path a symlink to the pty")
    parser.add_argument("--no-keys", action="store_true", help="ignore the keyboard (stdin)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from recorder.clock.model import parse_time_control
    from recorder.clock.sim import ClockSim, open_pty, parse_script, serve

    base_ms, increment_ms = parse_time_control(args.time_control)
    sim = ClockSim(args.protocol, base_ms, increment_ms, red_side=args.red_side, first_mover=args.first,
                   noise=args.noise, drop=args.drop, seed=args.seed, speed=args.speed)
    script = []
    if args.script is not None:
        with open(args.script, encoding="utf-8") as lines:
            script = parse_script(lines, sim.sides)

    def stop(signum: int, _frame: object) -> None:
        raise SystemExit(0)  # through the clean-up below: a link left behind would point at a pty reused later

    # set before the link is made and the path printed: a caller may stop it as soon as it reads the path
    for signum in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, stop)
    if args.link is not None and not args.link.parent.is_dir():
        raise ValueError(f"--link {args.link}: no folder {args.link.parent}")
    master, slave, path = open_pty()
    made = False  # the link is this run's: removed at the end
    try:
        if args.link is not None:
            if args.link.is_symlink() and not args.link.exists():
                args.link.unlink()  # its own link of an earlier run, to a pty gone since
            elif args.link.is_symlink() and os.path.realpath(args.link).startswith("/dev/pts/"):
                args.link.unlink()  # a link to a pty (an emulator's): replaced
            elif args.link.is_symlink() or args.link.exists():
                raise ValueError(f"--link {args.link} is already there and is not an emulator's link to a pty: "
                                 "give another path (nothing was removed)")
            args.link.symlink_to(path)
            made = True
        print(path, flush=True)
        keys = None if args.no_keys or not sys.stdin or sys.stdin.closed else sys.stdin
        serve(sim, master, script, keys=keys, wait_host=args.wait_host, duration=args.duration)
    finally:
        os.close(master)
        os.close(slave)
        if made and args.link is not None and args.link.is_symlink():
            args.link.unlink()
    log.info("clock-sim: %d presses", sim.presses)
    return 0
