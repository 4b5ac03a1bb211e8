"""``xqrec show GAME``: print a stored game's record (scoresheet in Chinese notation) with its alerts."""

from __future__ import annotations

import argparse

from recorder.commands.games import add_db_argument, open_existing_store
from recorder.exports.text import export_text
from recorder.store.recording import game_number


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("show", help="print a stored game's record with its alerts")
    parser.add_argument("game", type=game_number, help="game id (see xqrec games)")
    add_db_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with open_existing_store(args.db) as store:
        try:
            row = store.game(args.game)
        except KeyError as error:
            raise ValueError(error.args[0]) from None
        print(f"game {row.id} ({row.state}, source {row.source}, model {(row.model_sha256 or '?')[:12]})")  # the model card's short form
        print(export_text(store.events(row.id), row.info, void=row.void), end="")
    return 0
