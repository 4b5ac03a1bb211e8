"""Clock reports to presses: physical sides to red/black, lever changes to presses, flags to notices.

A press is the change of the lever (the side whose button went down pressed), cross-checked with
the turn the clock reports: a lever change that leaves the presser's own time running is a glitch
and is dropped. A protocol without a lever (the text lines) reports presses itself; when a report
shows the other side running without a press seen (a lost line), the press is inferred. The first
side seen running is the first mover's (red's unless the game starts with black to move): this
confirms or corrects the default mapping, and a ``clock_mapping`` notice records it with the game.
"""

from __future__ import annotations

import logging

from recorder.clock.model import (
    FLAG_FALLEN,
    LEFT,
    MAPPING,
    SIDES,
    ClockNotice,
    ClockReading,
    SideMap,
    other,
)
from recorder.clocklog_input import ClockPress
from rules import RED

log = logging.getLogger(__name__)

Item = ClockPress | ClockNotice


class PressTracker:
    """Turns a stream of readings (and explicit presses) into ClockPress values and notices."""

    def __init__(self, red_side: str = LEFT, first_mover: str = RED, *, confirm: bool = True) -> None:
        if red_side not in SIDES:
            raise ValueError(f"clock side {red_side!r} is not left or right")
        self.map = SideMap(red_side, confirmed=not confirm)
        self.first_mover = first_mover
        self._lever: str | None = None
        self._turn: str | None = None
        self._flags: set[str] = set()
        self.presses = 0
        self.glitches = 0
        self.inferred = 0
        self.last: ClockReading | None = None  # the last report taken (damaged ones left out)

    def reset_link(self) -> None:
        """Forget the lever and turn (after a reconnect) so the first new report is not taken as a press."""
        self._lever = None
        self._turn = None
        self.last = None

    def _confirm(self, running_side: str, t: float) -> list[Item]:
        if self.map.confirmed:
            return []
        self.map.confirmed = True
        expected = self.map.physical(self.first_mover)
        if running_side != expected:
            self.map.red = other(self.map.red)
            log.warning("clock: the first running side is %s; red is the clock's %s side", running_side,
                        self.map.red)
        text = f"red is the clock's {self.map.red} side (the first running side was {running_side})"
        return [ClockNotice(t, MAPPING, text, RED)]

    def _press(self, side: str, left_ms: int, right_ms: int, t: float) -> ClockPress:
        self.presses += 1
        red_ms, black_ms = (left_ms, right_ms) if self.map.red == LEFT else (right_ms, left_ms)
        return ClockPress(t, self.map.colour(side), red_ms, black_ms)

    def reading(self, reading: ClockReading, t: float) -> list[Item]:
        """A time report received at host time ``t``."""
        items: list[Item] = []
        if reading.lever_down is not None and reading.running and reading.turn == reading.lever_down:
            # a damaged report (the line has no checksum): the presser's own time cannot still run.
            # Keep the lever we trust, so that the next good report does not read as a press.
            self.glitches += 1
            log.info("clock: lever down on %s but that side's time runs; report ignored", reading.lever_down)
            return items
        if reading.running and reading.turn is not None:
            items += self._confirm(reading.turn, t)
        if reading.lever_down is not None:
            if self._lever is not None and reading.lever_down != self._lever:
                items.append(self._press(reading.lever_down, reading.left_ms, reading.right_ms, t))
            self._lever = reading.lever_down
        elif reading.running and reading.turn is not None and self._turn not in (None, reading.turn):
            assert self._turn is not None
            self.inferred += 1
            log.info("clock: %s runs without a press seen; press by %s inferred", reading.turn, self._turn)
            items.append(self._press(self._turn, reading.left_ms, reading.right_ms, t))
        if reading.running and reading.turn is not None:
            self._turn = reading.turn
        for side in SIDES:
            # a flag with the time at zero, or in two reports running (one damaged byte is not a flag fall)
            seen_before = self.last is not None and self.last.flag(side)
            if reading.flag(side) and (reading.ms(side) == 0 or seen_before):
                items += self.flag(side, t)
        self.last = reading
        return items

    def press(self, side: str, left_ms: int, right_ms: int, t: float) -> list[Item]:
        """An explicit press of button ``side`` reported by the clock (times after the press)."""
        items: list[Item] = []
        if self._turn is None or self._turn == side:
            items += self._confirm(side, t)  # the first press is by the side that was running
            self._turn = other(side)
        items.append(self._press(side, left_ms, right_ms, t))
        return items

    def flag(self, side: str, t: float) -> list[Item]:
        """``side``'s flag fell (reported once)."""
        if side in self._flags:
            return []
        self._flags.add(side)
        colour = self.map.colour(side)
        return [ClockNotice(t, FLAG_FALLEN, f"{colour}'s time is used up (art. 21.3)", colour)]
