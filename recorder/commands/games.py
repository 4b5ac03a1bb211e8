"""``xqrec games``: list the games in the store (id, state, board, players, plies, result); ``--import``
stores the games of a PGN file written elsewhere (any notation; UTF-8, GBK or Big5), skipping, with a
line each, games the store holds already."""

from __future__ import annotations

import argparse
import sys
import unicodedata
from pathlib import Path

from recorder.store import GameStore, default_db_path
from recorder.store.db import GameRow, in_round_order
from recorder.store.importer import NOT_IMPORTED, import_pgn
from rules.pgn import PgnError, decode_pgn


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    """``--db FILE``: the game store (default: one file in the user's data directory)."""
    parser.add_argument("--db", type=Path, help="game store (default $XDG_DATA_HOME/xiangqi-recorder/recorder.sqlite3)")


def open_existing_store(db: Path | None) -> GameStore:
    """The store at ``db`` (or the default) for reading; a path with no store is an error, not a new store
    (a mistyped ``--db`` would otherwise list "no games" and leave an empty file behind); an empty
    database is not made a store, and another program's database is refused unchanged."""
    path = db if db is not None else default_db_path()
    if not path.exists():
        raise FileNotFoundError(f"no game store at {path}" + ("" if db is not None else " (nothing recorded yet)"))
    return GameStore(path, create=False)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("games", help="list the recorded games in the store")
    add_db_argument(parser)
    parser.add_argument("--open", action="store_true", help="only games not closed (recording, stopped or interrupted)")
    parser.add_argument("--all", action="store_true", help="void games too (xqrec edit GAME --void)")
    parser.add_argument("--event", help="only games of this tournament")
    parser.add_argument("--round", help="only games of this round")
    parser.add_argument("--import", dest="import_pgn", type=Path, metavar="PGN",
                        help="first store the games of this PGN file (exit status 1 when some of its games "
                        "could not be read and were left out, 2 when none could)")
    parser.add_argument("--encoding", metavar="CODEC",
                        help="the PGN file's text encoding (e.g. big5, gbk, utf-8) when the names read wrong: "
                        "without it the encoding is guessed, and named when it is not UTF-8")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.db is None and args.import_pgn is None and not default_db_path().exists():
        print(f"no games (nothing recorded yet; the store will be {default_db_path()})")
        return 0
    data = args.import_pgn.read_bytes() if args.import_pgn is not None else b""  # read before a store is made
    made = args.import_pgn is not None and not (args.db if args.db is not None else default_db_path()).exists()
    status = None
    try:
        status = _list(args, data)
    finally:
        if made and status in (None, NOTHING_IMPORTED):  # a store made for games that were not there: not left
            path = args.db if args.db is not None else default_db_path()
            if path.exists():
                with GameStore(path, create=False) as store:
                    empty = not store.games()  # (unless another program stored a game in it meanwhile)
                if empty:
                    for part in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
                        part.unlink(missing_ok=True)
    return status


def decoded(data: bytes, encoding: str) -> str:
    """``data`` as text in the ``encoding`` the user named (``ValueError`` saying where it fails)."""
    try:
        return data.decode(encoding).removeprefix("\ufeff")
    except LookupError:
        raise ValueError(f"--encoding {encoding}: no such text encoding") from None
    except UnicodeDecodeError as error:
        raise ValueError(f"the file is not {encoding} text ({error.reason} at byte {error.start})") from None


NOTHING_IMPORTED = 2  # exit status of ``games --import`` when the file gave no game
SOME_NOT_IMPORTED = 1  # ... when some of its games were left out (a script must not take the file as stored)


def _list(args: argparse.Namespace, data: bytes) -> int:
    with GameStore(args.db) if args.import_pgn is not None else open_existing_store(args.db) as store:
        if args.import_pgn is not None:
            try:
                text, encoding = (decoded(data, args.encoding), args.encoding) if args.encoding else decode_pgn(data)
                imported = import_pgn(store, text, str(args.import_pgn.resolve()))  # named by where it is, as recordings are
            except PgnError as error:  # an unreadable encoding: name the file it is about
                raise ValueError(f"{args.import_pgn}: {error}") from None
            if not args.encoding and encoding not in ("utf-8", "utf-8-sig", "utf-16"):
                print(f"  note: {args.import_pgn} read as {encoding} (guessed; if the names read wrong, give "
                      "--encoding big5, gbk...)", file=sys.stderr)
            skipped = f"; {len(imported.duplicates)} skipped, already stored" if imported.duplicates else ""
            not_imported = len({problem[problem.rfind("(game "):] for problem in imported.problems
                                if problem.endswith(NOT_IMPORTED)})  # games, not their problem lines
            refused = f"; {not_imported} not imported" if not_imported else ""
            print(f"imported {len(imported.ids)} game(s) from {args.import_pgn}{skipped}{refused}")
            for duplicate in imported.duplicates:
                print(f"  skipped: {duplicate}", file=sys.stderr)
            for problem in imported.problems:  # a game left out whole, or a note on a game stored
                print(f"  {'left out' if problem.endswith(NOT_IMPORTED) else 'note'}: {problem}", file=sys.stderr)
            if not imported.ids and not imported.duplicates:
                why = ("not one game could be read whole (above)" if imported.problems
                       else "it holds no PGN game")
                print(f"xqrec games: nothing imported from {args.import_pgn}: {why}", file=sys.stderr)
                return NOTHING_IMPORTED
            if not_imported:
                print(f"xqrec games: {not_imported} game(s) of {args.import_pgn} not imported (above); the games "
                      "listed below are stored", file=sys.stderr)
            partly = bool(not_imported)
        else:
            partly = False
        games = store.games(status="open" if args.open else None, event=args.event, round_name=args.round,
                            void=None if args.all else False)
        voided = 0 if args.all else len(store.games(status="open" if args.open else None, event=args.event,
                                                    round_name=args.round, void=True))
        hidden = f" ({voided} void game(s) not listed: --all lists them)" if voided else ""
        if not games:
            asked = [part for part in (f"in round {args.round!r}" if args.round else "",
                                       f"of the event {args.event!r}" if args.event else "") if part]
            held = _held_instead(store, args.event, args.round) if args.event or args.round else ""
            print(" ".join(["no open games" if args.open else "no games", *asked, f"in {store.path}"]) + held
                  + hidden + ("; the demo's games are in out/demo/demo.sqlite3 (--db)"
                              if args.db is None and Path("out/demo/demo.sqlite3").exists() else ""))
            return SOME_NOT_IMPORTED if partly else 0
        if args.round:  # one round's games as its pairings are read: by board
            games.sort(key=lambda game: (game.info.event, game.info.board is None, game.info.board or 0, game.id))
        for line in _table(games):
            print(line)
        if hidden:
            print(hidden.strip(" ()"))
    return SOME_NOT_IMPORTED if partly else 0


def _held_instead(store: GameStore, event: str | None, round_name: str | None) -> str:
    """What the store holds where a listing filtered by ``event`` or ``round_name`` found nothing (an
    organiser tester): the events held when the event has no games (a typo, most likely), else the
    rounds played last, in round order."""
    if event and not store.games(event=event):
        events = sorted({g.info.event for g in store.games() if g.info.event})
        named = "; ".join(repr(name) for name in events[:8]) + (f" and {len(events) - 8} more" if len(events) > 8 else "")
        return f" (the store holds the events {named})" if named else " (the store holds no named event)"
    newest: dict[tuple[str, str], int] = {}
    for game in store.games(event=event) if event else store.games():
        if game.info.round:
            key = (game.info.event, game.info.round)
            newest[key] = max(newest.get(key, 0), game.id)
    latest = sorted(newest, key=lambda key: newest[key])[-8:]
    named = "; ".join(f"round {name!r} of {tournament!r}" if tournament else f"round {name!r}"
                      for tournament, name in in_round_order(latest))
    return f" (the store holds {named})" if named else ""


def _table(games: list[GameRow]) -> list[str]:
    """The games as lines of a table, each column as wide as what it holds: the round and the board
    are never cut (an organiser picks a game by them); an event's or a player's name longer than
    its cap is, with an ellipsis."""
    columns = [("id", ">", None), ("state", "<", None), ("event", "<", 24), ("round", "<", None),
               ("board", ">", None), ("red", "<", 16), ("black", "<", 16), ("plies", ">", None),
               ("result", "<", None), ("updated", "<", None)]
    rows = [[str(game.id), game.state, game.info.event, game.info.round,
             "" if game.info.board is None else str(game.info.board), game.info.red, game.info.black,
             str(game.plies), game.result, game.updated] for game in games]
    widths = [max([_columns(name)] + [min(_columns(row[i]), cap or 10_000) for row in rows])
              for i, (name, _, cap) in enumerate(columns)]

    def line(cells: list[str]) -> str:
        return "  ".join(_fit(cell, width) if align == "<" else " " * max(width - _columns(cell), 0) + cell
                         for cell, width, (_, align, _) in zip(cells, widths, columns, strict=True))

    lines = [line([name for name, _, _ in columns]) + "  source"]
    for game, row in zip(games, rows, strict=True):
        lines.append(line(row) + f"  {game.source}" + (f"  (void: {game.void})" if game.void else ""))
    return lines


def _fit(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns, or cut with an ellipsis so a cut name does not pass
    for whole; Chinese characters take two columns."""
    if _columns(text) <= width:
        return text + " " * (width - _columns(text))
    cut = ""
    for char in text:
        if _columns(cut + char) > width - 1:
            break
        cut += char
    return cut + "…" + " " * (width - 1 - _columns(cut))


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)
