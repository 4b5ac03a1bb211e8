"""PGN from other programs into the store: each game becomes the event log the recorder would write.

Reading is ``rules.read_pgn`` (ICCS, WXF or Chinese moves; UTF-8, GBK or Big5): a move it cannot
read stops that game, and the problem is returned with the game's number so the arbiter sees
what was left out. ``[%clk]`` comments become the clock times of the moves. A game the store
holds already (same tags and moves: the same file imported twice) is skipped and named.
"""

from __future__ import annotations

import logging
import re
from typing import NamedTuple

from recorder.events import Event, GameEnded, MoveRecorded, RecordingStarted, RecordingStopped
from recorder.scoresheet import rebuild
from recorder.store.db import GameInfo, GameRow, GameStore
from rules import PgnGame, format_move, read_pgn

log = logging.getLogger(__name__)

_CLK = re.compile(r"\[%clk\s+(\d+):(\d\d):(\d\d)\]")


def _clock_ms(comment: str) -> int | None:
    match = _CLK.search(comment)
    if match is None:
        return None
    hours, minutes, seconds = (int(part) for part in match.groups())
    return ((hours * 60 + minutes) * 60 + seconds) * 1000


def events_from_pgn(game: PgnGame, source: str = "") -> list[Event]:
    """The event log of a read PGN game: one ``MoveRecorded`` per move (a second apart), its result."""
    position = game.start_position()
    events: list[Event] = [RecordingStarted(0.0, source, position.fen())]
    clocks: dict[str, int | None] = {"red": None, "black": None}
    for ply, move in enumerate(game.moves, 1):
        side = position.side_to_move
        after = position.play(move)
        comment = game.move_comments[ply - 1] if ply - 1 < len(game.move_comments) else ""
        clocks[side] = _clock_ms(comment)
        events.append(MoveRecorded(float(ply), ply, move.iccs, format_move(position, move, "chinese"), side,
                                   after.fen(), 1.0, None, clocks["red"], clocks["black"]))
        position = after
    end = float(len(game.moves) + 1)
    if game.result in ("1-0", "0-1", "1/2-1/2"):
        events.append(GameEnded(end, len(game.moves), game.result, "recorded", "", "result as recorded in the PGN",
                                False))
    events.append(RecordingStopped(end, 0, "imported"))
    return events


def info_from_headers(headers: dict[str, str]) -> GameInfo:
    """The store's game details from PGN tags (``?`` and empty tags are left empty)."""
    def tag(name: str) -> str:
        value = headers.get(name, "").strip()
        return "" if value in ("?", "????.??.??") else value

    board = tag("Board")
    return GameInfo(event=tag("Event"), site=tag("Site"), round=tag("Round"), date=tag("Date"),
                    board=int(board) if board.isdigit() else None, red=tag("Red"), black=tag("Black"),
                    time_control=tag("TimeControl"))


class Imported(NamedTuple):
    """What :func:`import_pgn` did: the new games' ids, the problems met while reading, and the games
    skipped because the store holds them already (one line each, naming the stored game)."""

    ids: list[int]
    problems: list[str]
    duplicates: list[str]


def _same_details(row: GameRow, info: GameInfo, result: str) -> bool:
    """The details the store keeps per game (a tournament's site and a round's date are the first
    game's, so they are not compared; board 0 is kept as none)."""
    return (row.info.event, row.info.round, row.info.board, row.info.red, row.info.black,
            row.info.time_control, row.result) == (info.event, info.round, info.board or None, info.red, info.black,
                                                   info.time_control, result)


def find_duplicate(store: GameStore, game: PgnGame) -> int | None:
    """The id of a stored game with the same tags and moves as ``game`` (same start, same result), if any."""
    info = info_from_headers(game.headers)
    fen = game.start_position().fen()
    moves = [move.iccs for move in game.moves]
    for row in store.games(event=info.event or None, round_name=info.round or None):
        if _same_details(row, info, game.result) and row.plies == len(moves) and row.start_fen == fen \
                and rebuild(store.events(row.id)).moves == moves:
            return row.id
    return None


def import_pgn(store: GameStore, data: str | bytes, source: str = "") -> Imported:
    """Store every game of a PGN text or file content that the store does not hold already; returns
    (game ids, problems found while reading, games skipped as already stored)."""
    result = Imported([], [], [])
    for number, game in enumerate(read_pgn(data), 1):
        result.problems.extend(game.errors)
        stored = find_duplicate(store, game)
        if stored is not None:
            log.debug("game %d of %s is game %d of the store", number, source, stored)
            result.duplicates.append(f"game {number} is already stored as game {stored} (same tags and moves)")
            continue
        game_id = store.create_game(source or "imported PGN", info_from_headers(game.headers))
        for event in events_from_pgn(game, source):
            store.append(game_id, event)
        store.close_game(game_id, game.result)
        result.ids.append(game_id)
    return result
