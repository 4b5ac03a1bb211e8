"""``xqrec games``: list the games in the store (id, state, board, players, plies, result); ``--import``
stores the games of a PGN file written elsewhere (any notation; UTF-8, GBK or Big5)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from recorder.store import GameStore
from recorder.store.importer import import_pgn


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    """``--db FILE``: the game store (default: one file in the user's data directory)."""
    parser.add_argument("--db", type=Path, help="game store (default $XDG_DATA_HOME/xiangqi-recorder/recorder.sqlite3)")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("games", help="list the recorded games in the store")
    add_db_argument(parser)
    parser.add_argument("--open", action="store_true", help="only games not closed (recording or interrupted)")
    parser.add_argument("--event", help="only games of this tournament")
    parser.add_argument("--round", help="only games of this round")
    parser.add_argument("--import", dest="import_pgn", type=Path, metavar="PGN",
                        help="first store the games of this PGN file")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with GameStore(args.db) as store:
        if args.import_pgn is not None:
            ids, problems = import_pgn(store, args.import_pgn.read_bytes(), str(args.import_pgn))
            print(f"imported {len(ids)} game(s) from {args.import_pgn}")
            for problem in problems:
                print(f"  not read: {problem}", file=sys.stderr)
        games = store.games(status="open" if args.open else None, event=args.event, round_name=args.round)
        if not games:
            print("no games")
            return 0
        print(f"{'id':>4}  {'state':<11} {'event/round/board':<28} {'red':<12} {'black':<12} {'plies':>5}  "
              f"{'result':<7} {'updated':<20} source")
        for game in games:
            where = "/".join(part for part in (game.info.event, game.info.round,
                                               "" if game.info.board is None else f"board {game.info.board}") if part)
            print(f"{game.id:>4}  {game.state:<11} {where[:28]:<28} {game.info.red[:12]:<12} "
                  f"{game.info.black[:12]:<12} {game.plies:>5}  {game.result:<7} {game.updated:<20} {game.source}")
    return 0
