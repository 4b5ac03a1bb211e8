"""Events as a live recorder writes them to the store, from the fixture games' truth files."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from recorder.events import ClockPressed, Event, IllegalMoveAlert, MoveRecorded, RecordingStarted
from rules import Move, Position, format_move

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def truth(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.truth.json").read_text(encoding="utf-8"))


def recorder_events(name: str) -> Iterator[Event]:
    """The fixture game's events in recording order: start, then each move with its clock press."""
    data = truth(name)
    position = Position.from_fen(data["start_fen"])
    presses = {p["ply"]: p for p in data["clock"]["presses"] if p["ply"] is not None}
    yield RecordingStarted(0.0, data["video"], data["start_fen"], "ab" * 32)
    for entry in data["plies"]:
        move = Move.from_iccs(entry["iccs"])
        press = presses.get(entry["ply"])
        after = position.play(move)
        red_ms = press["red_ms"] if press else None
        black_ms = press["black_ms"] if press else None
        yield MoveRecorded(entry["t_complete"], entry["ply"], move.iccs, format_move(position, move, "chinese"),
                           entry["side"], after.fen(), 0.98, entry["t_complete"], red_ms, black_ms)
        if press:
            yield ClockPressed(press["t"], press["side"], press["red_ms"], press["black_ms"], entry["ply"])
        position = after


def illegal_alert(t: float, ply: int) -> IllegalMoveAlert:
    """A horse jumping over a blocked leg, as the resolver reports it."""
    return IllegalMoveAlert(t, "illegal_move", ("g7", "f5"), "5.3", "马 g7-f5: the horse's leg is blocked",
                            ply, "n", "leg_blocked", "g7f5")
