"""``xqrec export GAME``: a stored game as PGN, the PDF scoresheet or text; ``--round`` a whole round: one
multi-game PGN, every scoresheet in one PDF (each game from a new page) or every text record one after
another, in board order."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from recorder.commands.games import add_db_argument, open_existing_store
from recorder.exports.pgn import export_pgn
from recorder.exports.round_pgn import event_pgn, round_pgn, round_sheets_pdf, round_text
from recorder.exports.text import export_text
from recorder.store.recording import game_number


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("export", help="export a stored game: PGN, PDF scoresheet or text")
    parser.add_argument("game", type=game_number, nargs="?", help="game id (see xqrec games)")
    parser.add_argument("--round", nargs=2, metavar=("EVENT", "ROUND"),
                        help="instead of one game: every game of this round (one PGN for broadcasters, with "
                             "moves, clocks, results and how each game ended, but no alert, note or comment; one PDF with a "
                             "scoresheet per game; or the text records one after another)")
    parser.add_argument("--event", metavar="EVENT",
                        help="instead of one game: every game of this tournament, round by round and by board "
                             "in each (as --round gives one round)")
    parser.add_argument("--format", choices=("pgn", "pdf", "txt"), default="pgn",
                        help="pgn (default), the printed scoresheet as pdf, or the record as txt")
    parser.add_argument("--notation", choices=("chinese", "wxf", "iccs"), default=None,
                        help="PGN move notation (default iccs; the PDF and text are always Chinese)")
    parser.add_argument("--short", action="store_true", help="PDF: the short notation of art. 7.5 (炮25; no direction sign, so a move "
                        "can read two ways: the full form is the record to check)")
    parser.add_argument("--paper", choices=("A4", "A5"), default="A4", help="PDF paper size (default A4)")
    parser.add_argument("--out", type=Path, help="write here (default: standard output; required for pdf)")
    add_db_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    named = sum(choice is not None for choice in (args.game, args.round, args.event))
    if named != 1:
        raise ValueError("name a GAME, --round EVENT ROUND or --event EVENT" + (", only one" if named else ""))
    return _export(args)


def _export(args: argparse.Namespace) -> int:
    if args.format != "pdf" and (args.short or args.paper != "A4"):
        raise ValueError("--short and --paper shape the PDF scoresheet: add --format pdf --out FILE")
    with open_existing_store(args.db) as store:
        if args.out is not None and store.path is not None:
            _not_the_store(args.out, store.path)
        if args.round is not None or args.event is not None:
            # "?" is how a PGN writes an unknown event or round (the round PGN says so): the store keeps it empty
            if args.round is not None:
                event, round_name = (_stored_name(name) for name in args.round)
            else:
                event, round_name = _stored_name(args.event), None
            if args.format == "pgn":
                return _emit(round_pgn(store, event, round_name, args.notation or "iccs") if round_name is not None
                             else event_pgn(store, event, args.notation or "iccs"), args.out)
            if args.format == "pdf":
                if args.out is None:
                    raise ValueError("--format pdf needs --out FILE")
                pdf = round_sheets_pdf(store, event, round_name, short=args.short, paper=args.paper)
                with _writing(args.out):
                    args.out.write_bytes(pdf)
                return 0
            return _emit(round_text(store, event, round_name), args.out)
        try:
            row = store.game(args.game)
        except KeyError as error:
            raise ValueError(error.args[0]) from None
        events = store.events(row.id)
        if row.void:  # exported on purpose (a dispute), but not to pass for a game of the round
            print(f"xqrec export: warning: game {row.id} is void ({row.void})", file=sys.stderr)
        elif row.not_over:  # a sheet of a game cut short must not pass for a whole one
            print(f"xqrec export: warning: game {row.id} is not over ({row.not_over}): the record ends at ply "
                  f"{row.plies}, result {row.result or '*'}", file=sys.stderr)
        if args.format == "pdf":
            if args.out is None:
                raise ValueError("--format pdf needs --out FILE")
            from recorder.exports.pdf import write_scoresheet_pdf

            with _writing(args.out):
                write_scoresheet_pdf(args.out, events, row.info, short=args.short, paper=args.paper,
                                     not_over=row.not_over)
            return 0
        if args.format == "txt":
            return _emit(export_text(events, row.info, void=row.void), args.out)
        return _emit(export_pgn(events, row.info, args.notation or "iccs", row.pgn_tags), args.out)


def _stored_name(name: str) -> str:
    """An event or round as the store keeps it: PGN's unknown "?" is stored empty."""
    return "" if name.strip() == "?" else name


def _emit(text: str, out: Path | None) -> int:
    if out is None:
        sys.stdout.write(text)
    else:
        with _writing(out):
            out.write_text(text, encoding="utf-8")
    return 0


@contextmanager
def _writing(out: Path) -> Iterator[None]:
    """A failed write or close (a full disk), which names no file, names ``out``."""
    try:
        yield
    except OSError as error:
        if error.filename is None:
            raise OSError(error.errno, error.strerror or str(error), str(out)) from None
        raise


def _not_the_store(out: Path, store: Path) -> None:
    """``ValueError`` when ``out`` is the store or one of its companion files: one typo must not
    replace every game in it with a scoresheet."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        companion = Path(f"{store}{suffix}")
        same = (os.path.samefile(out, companion) if out.exists() and companion.exists()
                else os.path.realpath(out) == os.path.realpath(companion))
        if same:
            raise ValueError(f"--out {out} is the game store{' file ' + companion.name if suffix else ''} "
                             f"({store}): give another path (nothing was written)")
