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
