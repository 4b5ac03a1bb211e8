"""Event logs of whole games as the recorder writes them (moves with clock presses, alerts, a restoration)."""

from __future__ import annotations

import random

from recorder.events import (
    ClockPressed,
    Event,
    GameEnded,
    IllegalMoveAlert,
    MoveRecorded,
    PositionRestored,
    RecordingStarted,
    RecordingStopped,
    event_from_json,
    event_to_json,
)
from rules import START_FEN, Move, Position, format_move

BASE_MS = 5400 * 1000
INCREMENT_MS = 30 * 1000


def game_events(moves: list[str], *, seed: int = 0, start_fen: str = START_FEN, result: str | None = None,
                faults: bool = False) -> list[Event]:
    """The events of ``moves`` played with a clock (90 min + 30 s); ``faults`` adds an illegal-move
    alert and a move taken back by the arbiter (art. 5.8) that is then played again."""
    rng = random.Random(seed)
    position = Position.from_fen(start_fen)
    events: list[Event] = [RecordingStarted(0.0, "table-3.mp4", start_fen, "ab" * 32)]
    left = {"red": BASE_MS, "black": BASE_MS}
    t = 2.0
    for ply, text in enumerate(moves, 1):
        move = Move.from_iccs(text)
        side = position.side_to_move
        if faults and ply == 5:
            events.append(IllegalMoveAlert(t, "illegal_move", ("b0", "b3"), "5.3", "the horse's leg is blocked",
                                           ply - 1, "N", "leg_blocked", "b0b3"))
        spent = rng.randint(2000, 90000)
        t += spent / 1000
        after = position.play(move)
        left[side] = left[side] - spent + INCREMENT_MS
        events.append(MoveRecorded(t, ply, move.iccs, format_move(position, move, "chinese"), side, after.fen(),
                                   0.99, t - 0.3, left["red"], left["black"]))
        events.append(ClockPressed(t + 0.2, side, left["red"], left["black"], ply))
        if faults and ply == 8:
            events.append(PositionRestored(t + 5, ply - 1, position.fen(), (move.iccs,)))
            events.append(MoveRecorded(t + 9, ply, move.iccs, format_move(position, move, "chinese"), side,
                                       after.fen(), 0.97, t + 8.7, left["red"], left["black"]))
            events.append(ClockPressed(t + 9.2, side, left["red"], left["black"], ply))
        position = after
    if result is not None:
        events.append(GameEnded(t + 1, len(moves), result, "agreed", "4", "recorded result", False))
    events.append(RecordingStopped(t + 2, int(t * 10)))
    return [event_from_json(event_to_json(event)) for event in events]  # times to the millisecond, as logged


def two_take_backs(moves: list[str]) -> list[Event]:
    """An arbiter's two take-backs (by "Li"), the second further back than the first: ``moves[:8]``
    recorded, an illegal-move alert at ply 8, plies 7-8 taken back, four other plies played, plies 5-10
    taken back (the alert acknowledged with a note), seven other plies played (``moves`` has 11 plies
    at least: the game the tests share)."""
    from recorder.events import AlertAcknowledged

    def played(line: list[str], t: float, first_ply: int, position: Position) -> list[Event]:
        out: list[Event] = []
        for ply, iccs in enumerate(line, first_ply):
            move = Move.from_iccs(iccs)
            after = position.play(move)
            out.append(MoveRecorded(t + ply, ply, iccs, format_move(position, move), "red" if ply % 2 else "black",
                                    after.fen(), 0.99, t + ply))
            position = after
        return out

    def after(line: list[str]) -> Position:
        position = Position.start()
        for iccs in line:
            position = position.play(Move.from_iccs(iccs))
        return position

    events: list[Event] = [RecordingStarted(0.0, "cam", START_FEN, "")]
    events += played(moves[:8], 0.0, 1, Position.start())
    events.append(IllegalMoveAlert(20.0, "illegal_move", ("b0", "b3"), "5.3", "the horse's leg is blocked", 8))
    events.append(PositionRestored(21.0, 6, after(moves[:6]).fen(), tuple(moves[6:8]), by="Li"))
    again = ["b0c2", "c6c5", "c3c4", "h7i7"]
    events += played(again, 30.0, 7, after(moves[:6]))
    events.append(PositionRestored(40.0, 4, after(moves[:4]).fen(), (*moves[4:6], *again), by="Li"))
    events.append(AlertAcknowledged(41.0, 10, "illegal_move", "Li", "board put right"))  # the alert, event 10
    events += played(["b0c2", "b9c7", "i0h0", "c6c5", "c3c4", "h7i7", "b2b6"], 50.0, 5, after(moves[:4]))
    return events
