"""A two-button game clock and its log: one JSON object per line, one line per press.

A line reads ``{"t": seconds, "event": "press", "side": "red"|"black", "red_ms": n, "black_ms": n}``:
the button that was pressed and the time each side has left after the press. The clock is
a Fischer clock: the side whose button stops its own running time gains the increment.
Pressing the button of the side whose time is not running changes nothing (as on a real
clock) but is still logged, so a reader sees every press a player made.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from rules import BLACK, RED

log = logging.getLogger(__name__)

SIDES = (RED, BLACK)


@dataclass(frozen=True, slots=True)
class ClockEvent:
    """One line of a clock log."""

    t: float
    side: str
    red_ms: int
    black_ms: int
    event: str = "press"

    def to_json(self) -> dict[str, object]:
        return {"t": round(self.t, 3), "event": self.event, "side": self.side,
                "red_ms": self.red_ms, "black_ms": self.black_ms}


def parse_time_control(text: str) -> tuple[float, float]:
    """``"15+10"`` -> (900.0, 10.0): minutes for the game plus seconds added per press."""
    base, _, inc = text.partition("+")
    try:
        minutes, increment = float(base), float(inc or 0)
    except ValueError:
        raise ValueError(f"time control {text!r} is not MINUTES+SECONDS, e.g. 15+10") from None
    if minutes <= 0 or increment < 0:
        raise ValueError(f"time control {text!r} needs positive minutes and a non-negative increment")
    return minutes * 60.0, increment


class GameClock:
    """The clock on the table: two countdowns, one running at a time, started at ``t0``."""

    def __init__(self, base_s: float, increment_s: float, running: str, t0: float = 0.0) -> None:
        if running not in SIDES:
            raise ValueError(f"running side must be red or black, not {running!r}")
        self.increment_ms = round(increment_s * 1000)
        self.left_ms = {RED: round(base_s * 1000), BLACK: round(base_s * 1000)}
        self.running = running
        self.last_t = t0

    def _advance(self, t: float) -> None:
        if t < self.last_t:
            raise ValueError(f"clock time went backwards: {t} < {self.last_t}")
        used = round((t - self.last_t) * 1000)
        self.left_ms[self.running] = max(0, self.left_ms[self.running] - used)
        self.last_t = t

    def press(self, t: float, side: str) -> ClockEvent:
        """``side`` presses its button at ``t``; returns the log line."""
        if side not in SIDES:
            raise ValueError(f"side must be red or black, not {side!r}")
        self._advance(t)
        if side == self.running:
            self.left_ms[side] += self.increment_ms
            self.running = BLACK if side == RED else RED
        else:
            log.debug("press by %s at %.2f s while %s runs: no effect", side, t, self.running)
        return ClockEvent(t, side, self.left_ms[RED], self.left_ms[BLACK])


def write_clock_log(path: str | Path, events: Iterable[ClockEvent]) -> None:
    """Write ``events`` as JSON lines."""
    with open(path, "w", encoding="utf-8") as out:
        for event in events:
            out.write(json.dumps(event.to_json()) + "\n")


def read_clock_log(path: str | Path) -> list[ClockEvent]:
    """Read a clock log; raises ``ValueError`` naming the line for a malformed entry."""
    events = []
    with open(path, encoding="utf-8") as source:
        for number, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                event = ClockEvent(float(data["t"]), str(data["side"]), int(data["red_ms"]),
                                   int(data["black_ms"]), str(data["event"]))
            except (ValueError, KeyError, TypeError) as error:
                raise ValueError(f"{path}:{number}: not a clock log line ({error})") from None
            if event.side not in SIDES:
                raise ValueError(f"{path}:{number}: side {event.side!r} is not red or black")
            events.append(event)
    return events
