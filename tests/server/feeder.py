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


def recorder_events(name: str, upto: int | None = None) -> Iterator[Event]:
    """The fixture game's events in recording order: start, then each move with its clock press
    (up to ply ``upto``)."""
    data = truth(name)
    position = Position.from_fen(data["start_fen"])
    presses = {p["ply"]: p for p in data["clock"]["presses"] if p["ply"] is not None}
    yield RecordingStarted(0.0, data["video"], data["start_fen"], "ab" * 32)
    for entry in data["plies"][:upto]:
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
    """Red's horse jumping over its blocked leg, as the resolver reports it (illegal after game_short's
    last ply; used as an injected alert elsewhere too)."""
    return IllegalMoveAlert(t, "illegal_move", ("d4", "b5"), "2.2", "马 d4-b5: the red horse's leg on c4 is blocked",
                            ply, "N", "leg_blocked", "d4b5")


# Openings for the other boards of a round (checked legal when played).
OPENINGS = {
    "central_cannon": "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 c6c5 b0c2 g6g5 h0h6 b7a7 h6g6 a9b9 b2a2 h7h3",
    "elephant": "c0e2 h9g7 h0g2 g6g5 i0h0 i9h9 b0c2 b9c7 b2a2 a9b9 a0b0 h7h3 g3g4 g5g4 e2g4",
    "pawn": "g3g4 b9c7 h0g2 c6c5 b2d2 b7a7 g2f4 a9b9 b0c2 h9g7 a0b0",
}


def scripted_events(moves: str, seed: int, base_ms: int = 5400_000, increment_ms: int = 30_000) -> list[Event]:
    """A game's events from an ICCS move list with seeded thinking times and clock presses."""
    import random

    rng = random.Random(seed)
    position = Position.start()
    left = {"red": base_ms, "black": base_ms}
    events: list[Event] = [RecordingStarted(0.0, f"camera-{seed}", position.fen(), "cd" * 32)]
    t = 3.0
    for ply, text in enumerate(moves.split(), 1):
        move = Move.from_iccs(text)
        side = position.side_to_move
        spent = rng.randint(4_000, 240_000)
        t += spent / 1000
        left[side] += increment_ms - spent
        after = position.play(move)
        events.append(MoveRecorded(t, ply, move.iccs, format_move(position, move, "chinese"), side, after.fen(),
                                   0.97, t - 0.4, left["red"], left["black"]))
        events.append(ClockPressed(t + 0.3, side, left["red"], left["black"], ply))
        position = after
    return events
