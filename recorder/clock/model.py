"""Values shared by the clock protocols: physical sides, a time report, link notices, a clock model.

The clock knows only its ``left`` and ``right`` sides (as seen facing its display). The 2011 rules
(art. 6) put the clock at the first mover's left; a player sitting at red's end with the clock at his
left hand and its display turned towards the board sees red's half on the display's left, so red is
``left`` by default. The first side whose time runs confirms (or corrects) that mapping.

:class:`ChessClock` is the arithmetic of a two-sided clock (base time, Fischer increment, flags);
the emulator and the keyboard clock both run on it.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from recorder.events import ClockAlert, ClockNoted, Event
from rules import BLACK, RED

log = logging.getLogger(__name__)

LEFT = "left"
RIGHT = "right"
SIDES = (LEFT, RIGHT)

# kinds of ClockNotice
CONNECTED = "clock_connected"
DISCONNECTED = "clock_disconnected"
FLAG_FALLEN = "flag_fallen"
NO_CLOCK = "no_clock"
MAPPING = "clock_mapping"
QUIET = "clock_quiet"
TIMES_CHANGED = "clock_times_changed"
RESTARTED = "clock_restarted"
LOG_DAMAGED = "clock_log_damaged"  # a logged press whose times the presses around it contradict


# notice kind -> (alert kind, rule article): what the arbiter must hear
_ALERTS = {
    FLAG_FALLEN: ("flag_fallen", "21.3"),
    DISCONNECTED: ("clock_disconnected", "21.4"),
    NO_CLOCK: ("no_clock", "21.4"),
    TIMES_CHANGED: ("clock_times_changed", "21.4"),
    LOG_DAMAGED: ("clock_log_damaged", ""),
    RESTARTED: ("clock_restarted", "21.4"),
}
# notice kind -> event kind: what is only logged (the clock answered; which side of it is red's; the
# line fell quiet: the plies whose press it may have lost get their own note from the resolver)
_NOTED = {CONNECTED: "clock_connected", MAPPING: "clock_mapping", QUIET: "clock_quiet"}


def notice_event(notice: ClockNotice, ply: int = 0) -> Event:
    """The event-log form of a notice (its ``t`` already in recording time): an alert, or a
    :class:`ClockNoted` for the notices that call for no arbiter."""
    if notice.kind in _NOTED:
        return ClockNoted(notice.t, _NOTED[notice.kind], notice.text, notice.side, ply)
    kind, article = _ALERTS.get(notice.kind, (notice.kind, ""))
    return ClockAlert(notice.t, kind, (), article, notice.text, ply, notice.side)


def other(side: str) -> str:
    """The other physical side."""
    return RIGHT if side == LEFT else LEFT


@dataclass(frozen=True)
class ClockReading:
    """One time report in physical terms: times left (ms), whose time runs, the lever, the flags.

    ``turn`` is the side whose time runs (or would run when paused), ``None`` when the clock does
    not say; ``lever_down`` is the side whose button is down (the side that pressed last), ``None``
    when the protocol has no lever.
    """

    left_ms: int
    right_ms: int
    running: bool
    turn: str | None = None
    lever_down: str | None = None
    left_flag: bool = False
    right_flag: bool = False
    battery_low: bool = False

    def ms(self, side: str) -> int:
        return self.left_ms if side == LEFT else self.right_ms

    def flag(self, side: str) -> bool:
        return self.left_flag if side == LEFT else self.right_flag


@dataclass(frozen=True)
class ClockNotice:
    """A link-state or clock-state notice for the session: ``t`` in host monotonic seconds.

    ``kind`` is one of ``clock_connected``, ``clock_disconnected``, ``flag_fallen``, ``no_clock``,
    ``clock_mapping``, ``clock_quiet``, ``clock_times_changed``, ``clock_restarted``; ``side`` names the colour it concerns (``red``/``black``) or is
    empty. ``since`` is set on a notice that ends a stretch when the clock could not be heard (back
    after a disconnection, or a line that fell quiet for a while): the host time it was last heard,
    so that presses lost in between are not blamed on the players.
    """

    t: float
    kind: str
    text: str
    side: str = ""
    since: float | None = None


@dataclass
class SideMap:
    """Which physical side is red's; ``confirmed`` once a running clock has shown it."""

    red: str = LEFT
    confirmed: bool = False

    def colour(self, side: str) -> str:
        return RED if side == self.red else BLACK

    def physical(self, colour: str) -> str:
        return self.red if colour == RED else other(self.red)


class ChessClock:
    """A two-sided countdown clock with a Fischer increment, driven by an external time source.

    Times are in milliseconds; ``now`` arguments are seconds of any monotonic clock. The side to
    run at the start is set by :meth:`start`. A press by the running side stops it, adds the
    increment and starts the other; a press by the other side does nothing (as on a real clock).
    A side whose time reaches zero has its flag fallen and the clock stops.
    """

    def __init__(self, base_ms: int, increment_ms: int = 0) -> None:
        if base_ms <= 0 or increment_ms < 0:
            raise ValueError(f"time control {base_ms} ms + {increment_ms} ms is not valid")
        self.increment_ms = increment_ms
        self._left = {LEFT: base_ms, RIGHT: base_ms}
        self.running: str | None = None  # side whose time runs now
        self.turn: str = LEFT  # side to run (kept while paused)
        self.lever_down: str = RIGHT  # the button down: the side not running
        self.flags = {LEFT: False, RIGHT: False}
        self._since = 0.0

    def start(self, side: str, now: float) -> None:
        """Start (or resume) the clock with ``side``'s time running."""
        self.running = self.turn = side
        self.lever_down = other(side)
        self._since = now

    def set_left(self, side: str, left_ms: int) -> None:
        """Set ``side``'s time left (a game taken up with the times it had): none left is its flag fallen."""
        if left_ms < 0:
            raise ValueError(f"time left {left_ms} ms must not be negative")
        self._left[side] = left_ms
        self.flags[side] = left_ms == 0

    def pause(self, now: float) -> None:
        self._settle(now)
        self.running = None

    def _settle(self, now: float) -> None:
        side = self.running
        if side is None:
            return
        spent = max(0.0, now - self._since) * 1000
        self._since = now
        self._left[side] = max(0, self._left[side] - round(spent))
        if self._left[side] == 0 and not self.flags[side]:
            self.flags[side] = True
            self.running = None

    def remaining_ms(self, side: str, now: float) -> int:
        """Time left to ``side`` at ``now``."""
        self._settle(now)
        return self._left[side]

    def press(self, side: str, now: float) -> bool:
        """``side`` presses its button; returns whether that flipped the clock."""
        self._settle(now)
        if self.running != side:
            return False
        self._left[side] += self.increment_ms
        self.running = self.turn = other(side)
        self.lever_down = side
        self._since = now
        return True

    def reading(self, now: float) -> ClockReading:
        """The clock's state at ``now`` as a report."""
        self._settle(now)
        return ClockReading(self._left[LEFT], self._left[RIGHT], self.running is not None, self.turn,
                            self.lever_down, self.flags[LEFT], self.flags[RIGHT])


DEFAULT_TIME_CONTROL = "15+10"  # minutes + increment seconds of a live clock when none is given
_TIME_CONTROL = re.compile(r"\d+(\.\d+)?s?(\+\d+(\.\d+)?)?")


def parse_time_control(text: str) -> tuple[int, int]:
    """``"15+10"`` (minutes + seconds a move) or ``"900s+10"`` as (base ms, increment ms)."""
    if not _TIME_CONTROL.fullmatch(text.strip()):
        raise ValueError(f"time control {text!r} is not 'minutes+increment_seconds'")
    base, _, increment = text.strip().partition("+")
    try:
        base_ms = round(float(base[:-1]) * 1000) if base.endswith("s") else round(float(base) * 60000)
        increment_ms = round(float(increment or 0) * 1000)
    except ValueError:
        raise ValueError(f"time control {text!r} is not 'minutes+increment_seconds'") from None
    if base_ms <= 0 or increment_ms < 0:
        raise ValueError(f"time control {text!r} is not valid")
    return base_ms, increment_ms


def time_control_argument(text: str) -> str:
    """A command line's ``--time-control``, checked as it is given (a wrong one is an error at once,
    not a clock that never starts)."""
    import argparse

    try:
        parse_time_control(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{error}, e.g. 15+10 or 90+30") from None
    return text
