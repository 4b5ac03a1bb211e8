"""Move times from the clock presses of an event log: the ``[%emt]`` of each ply and each side's time used.

A ply's move time runs from the press that started its mover's clock (the opponent's press that
completed the ply before) to the mover's own press. It is known only when both presses were seen and
matched to consecutive plies: after a press lost on the line, a press without a move, or for the first
ply (the clock's start is not a press), it is left out rather than guessed.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from recorder.events import ClockPressed, Event
from rules import BLACK, RED

log = logging.getLogger(__name__)


def move_times(events: Iterable[Event]) -> dict[int, float]:
    """Seconds each ply took, by ply number, from the ``ClockPressed`` events (the log's order)."""
    times: dict[int, float] = {}
    previous: ClockPressed | None = None
    for event in events:
        if not isinstance(event, ClockPressed) or not event.effective:
            continue
        if (event.ply is not None and previous is not None and previous.side != event.side
                and previous.ply == event.ply - 1):
            times[event.ply] = max(0.0, event.t - previous.t)
        previous = event
    return times


def time_used(events: Iterable[Event], sides: dict[int, str]) -> dict[str, float]:
    """Seconds each colour spent over the plies with a known move time (``sides``: ply -> colour)."""
    used = {RED: 0.0, BLACK: 0.0}
    for ply, seconds in move_times(events).items():
        side = sides.get(ply)
        if side in used:
            used[side] += seconds
    return used


def emt_text(seconds: float) -> str:
    """``h:mm:ss`` as a ``[%emt]`` comment writes it (whole seconds, rounded)."""
    whole = max(0, round(seconds))
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"
