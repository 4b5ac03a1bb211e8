"""PGN from other programs into the store: each game becomes the event log the recorder would write.

Reading is ``rules.read_pgn`` (ICCS, WXF or Chinese moves; UTF-8, GBK or Big5): a move it cannot
read stops that game, and the problem is returned with the game's number so the arbiter sees
what was left out. ``[%clk]`` comments become the clock times of the moves.
"""

from __future__ import annotations

import logging
import re

from recorder.events import Event, GameEnded, MoveRecorded, RecordingStarted, RecordingStopped
from recorder.store.db import GameInfo, GameStore
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


def import_pgn(store: GameStore, data: str | bytes, source: str = "") -> tuple[list[int], list[str]]:
    """Store every game of a PGN text or file content; returns (game ids, problems found while reading)."""
    ids: list[int] = []
    problems: list[str] = []
    for game in read_pgn(data):
        problems += game.errors
        game_id = store.create_game(source or "imported PGN", info_from_headers(game.headers))
        for event in events_from_pgn(game, source):
            store.append(game_id, event)
        store.close_game(game_id, game.result)
        ids.append(game_id)
    return ids, problems
