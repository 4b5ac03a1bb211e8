"""``xqrec``: the command-line entry point.

Each sub-command lives in a module of its own with a ``register(subparsers)`` function
that adds its parser and sets ``handler``. The CLI is the composition root: it is the
one place that wires in the simulator's commands (``synth.cli``) beside the runtime's.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sqlite3
import sys
from collections.abc import Sequence

COMMAND_MODULES = (  # in the order a user meets them: the help lists them so
    "recorder.commands.record",
    "recorder.commands.games",
    "recorder.commands.show",
    "recorder.commands.export",
    "recorder.commands.edit",
    "recorder.commands.serve",
    "recorder.commands.calibrate",
    "recorder.commands.read_board",
    "recorder.commands.replay",
    "recorder.commands.demo",
    "recorder.commands.clock_sim",
    "synth.cli",
    "recorder.commands.perft",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="xqrec",
        description="Camera-based recorder for over-the-board Xiangqi games.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name == name:
                continue
            raise
        module.register(subparsers)
    for command in subparsers.choices.values():  # after the command too (``xqrec record FILE -v``)
        command.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                             help="log debug messages")
    return parser


class _LineFormatter(logging.Formatter):
    """Log lines that read like the commands' own ("warning: ..."); with ``with_module`` the logger's
    name too (``-v``)."""

    def __init__(self, with_module: bool) -> None:
        super().__init__("%(name)s: %(message)s" if with_module else "%(message)s")

    def format(self, record: logging.LogRecord) -> str:
        return f"{record.levelname.lower()}: {super().format(record)}"


def _command_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The sub-command's parser (``parser`` itself when there is none by that name)."""
    for action in parser._actions:  # argparse keeps its sub-parsers on the subparsers action only
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``xqrec``; returns the process exit status."""
    parser = build_parser()
    given = sys.argv[1:] if argv is None else list(argv)
    if not [word for word in given if word not in ("-v", "--verbose")]:  # a new user's first try: the commands
        parser.print_help()
        return 2
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's own parser, with its usage (argparse would show the top level's)
        _command_parser(parser, args.command).error(f"unrecognized arguments: {' '.join(extra)}")
    handler = logging.StreamHandler()
    handler.setFormatter(_LineFormatter(with_module=args.verbose))
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, handlers=[handler])
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except sqlite3.Error as error:  # a store path that cannot be opened, or a file that is not a store
        print(f"xqrec {args.command}: game store: {error} ({getattr(args, 'db', None) or 'default store'})"
              f"{_store_hint(error)}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as error:
        # Bad input (a malformed file, a missing path) is the user's to fix: say what, no traceback.
        print(f"xqrec {args.command}: {_said(error)}", file=sys.stderr)
        return 2


def _store_hint(error: sqlite3.Error) -> str:
    """What to do about a store this account may read but not write beside: SQLite keeps its lock
    files next to the store, so listing another account's games failed with "attempt to write a
    readonly database" and no word on why (a tester)."""
    if "readonly" not in str(error).replace("-", "").replace(" ", ""):
        return ""
    return ("; this account cannot write in the store's folder, where SQLite keeps its lock files: run the "
            "command as the account that records, or give it write access to the folder, or copy the store "
            "(with its -wal file) somewhere this account can write")


def _said(error: Exception) -> str:
    """An error as one line for the user: a file error as "PATH: what is wrong" (no ``[Errno 2]``)."""
    if isinstance(error, OSError) and error.strerror and error.filename is not None:
        return f"{error.filename}: {error.strerror[:1].lower()}{error.strerror[1:]}"
    return str(error)


if __name__ == "__main__":
    sys.exit(main())
