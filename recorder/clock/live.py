"""A clock for ``xqrec record``: the serial link or the keyboard, its feed, and its notices as events.

:class:`LiveClock` is what the recording loop needs: ``feed(origin)`` gives a
:class:`~recorder.clock.feed.LiveClockFeed` for the session (it is a ``ClockFeed``), ``events_until``
turns link notices into events for the event log: :class:`~recorder.events.ClockAlert` for a flag
fall, the clock lost and no clock on the interface; :class:`~recorder.events.ClockNoted` for the clock
answering (again after a gap) and which side of it is red's, stored with the game. ``pace`` replays
a video file at the clock's speed.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TextIO

from recorder.clock.feed import LiveClockFeed, paced
from recorder.clock.keyboard import KeyboardClock
from recorder.clock.link import SerialClockLink, port_problem
from recorder.clock.model import (
    DEFAULT_TIME_CONTROL,
    MAPPING,
    ChessClock,
    notice_event,
    parse_time_control,
)
from recorder.clock.presses import PressTracker, found_swapped_text, mapped_red_side
from recorder.clock.protocols import make_protocol
from recorder.events import ClockNoted, ClockPressed, Event
from rules import RED

log = logging.getLogger(__name__)


class LiveClock:
    """The clock of one recording: ``protocol`` is ``dgt``, ``text`` or ``keyboard`` (``port`` ``-``: stdin)."""

    def __init__(self, port: str, protocol: str, *, red_side: str = "left", first_mover: str = RED,
                 time_control: str | None = None, rate: float = 1.0, keys: TextIO | None = None,
                 **link_options: Any) -> None:
        if not (0 < rate < float("inf")):
            raise ValueError(f"clock rate {rate} must be a positive number")
        self.rate = rate
        self.keyboard: KeyboardClock | None = None
        self.link: SerialClockLink | None = None
        self._keys = keys
        if protocol == "keyboard":
            base_ms, increment_ms = parse_time_control(time_control or DEFAULT_TIME_CONTROL)
            self.keyboard = KeyboardClock(base_ms, increment_ms, first_mover=first_mover, rate=rate)
        else:  # the clock keeps its own time; a given time control tells what a press may add
            problem = port_problem(port)
            if problem is not None:  # refused before a game is opened: retrying it all game helps no one
                raise ValueError(f"--clock {port}: {problem}")
            increment = parse_time_control(time_control)[1] if time_control else None
            tracker = PressTracker(red_side, first_mover, rate=rate, increment_ms=increment)
            self.link = SerialClockLink(port, make_protocol(protocol, tracker), rate=rate, **link_options)
        self._feed: LiveClockFeed | None = None
        self.sides_from_log = False  # a resumed game's log named the clock's sides: nothing is guessed

    @property
    def sides_guessed(self) -> bool:
        """Are the colours of the clock's sides the link's guess (from the first side running)? A
        serial clock's are, unless a resumed game's log named them; a keyboard's are not."""
        return self.link is not None and not self.sides_from_log

    def follow_swap(self, swapped_at: float | None, ply: int) -> list[Event]:
        """Once the recording found the guessed sides the wrong way round (``swapped_at``, the clock
        book's): the link's notices are renamed from then on, and a ``clock_mapping`` note records
        the sides found (a resumed game takes them from it). Nothing while nothing was found, or again."""
        tracker = getattr(self.link.protocol, "tracker", None) if self.link is not None else None
        if (swapped_at is None or self._feed is None or self._feed.sides_swapped
                or not isinstance(tracker, PressTracker)):
            return []
        self._feed.sides_swapped = True
        red_side = "right" if tracker.map.red == "left" else "left"
        return [ClockNoted(swapped_at, "clock_mapping", found_swapped_text(red_side, ply), RED, ply)]

    def go_on(self, events: Sequence[Event], side_to_move: str) -> None:
        """Take up a stored game's clock: red keeps the clock side its log says (the last
        ``clock_mapping`` note), else the side running now is taken for ``side_to_move``'s. Without
        this a game resumed while black's time ran mapped black to red's side (every press then a
        foul). The keyboard clock, not started yet, takes up the times the last stored press left
        and runs ``side_to_move``'s time (it started red's full time again, black's press on
        resuming then flipping nothing)."""
        if self.keyboard is not None:
            pressed = [e for e in events if isinstance(e, ClockPressed)]
            left = (pressed[-1].red_ms, pressed[-1].black_ms) if pressed else None
            self.keyboard.go_on(side_to_move, left)
            return
        if self.link is None:
            return
        red_side = None
        for event in events:
            if isinstance(event, ClockNoted) and event.kind == MAPPING:
                red_side = mapped_red_side(event.text) or red_side
        tracker = getattr(self.link.protocol, "tracker", None)
        if isinstance(tracker, PressTracker):
            tracker.go_on(red_side, side_to_move)
        self.sides_from_log = red_side is not None

    def know_time_control(self, base_ms: int, increment_ms: int) -> None:
        """The game's time control, learnt from the store after the clock was made (none given on the
        command line: a resumed game's, or its event's): the keyboard clock, not started yet, runs
        it (it ran its 15+10 default under a record of 5400+30); a clock on a link is checked
        against its increment."""
        if self.keyboard is not None:
            self.keyboard.model = ChessClock(base_ms, increment_ms)
        else:
            self.know_increment(increment_ms)

    def know_increment(self, increment_ms: int) -> None:
        """The time control's increment, learnt after the link was made (the game's stored time
        control): what a press may add to the presser's time."""
        tracker = getattr(self.link.protocol, "tracker", None) if self.link is not None else None
        if isinstance(tracker, PressTracker) and tracker.increment_ms is None:
            tracker.increment_ms = increment_ms

    def board_side_to_move(self, side: str) -> None:
        """The side to move on the board now. Until the clock's sides are known, the side first seen
        running is taken for this one: a clock plugged in mid-game (black's time running) is not mapped
        as if the game were at its start (red's), which put every press on the wrong player."""
        tracker = getattr(self.link.protocol, "tracker", None) if self.link is not None else None
        if isinstance(tracker, PressTracker) and not tracker.map.confirmed:
            tracker.first_mover = side

    def start(self, origin: float | None = None) -> LiveClockFeed:
        """Start listening; recording time 0 is host time ``origin`` (default: now)."""
        origin = time.monotonic() if origin is None else origin
        if self.keyboard is not None:
            self.keyboard.follow(self._keys or sys.stdin)
            keyboard = self.keyboard
            self._feed = LiveClockFeed(keyboard.items, origin, self.rate, last_heard=keyboard.last_heard,
                                       gone=lambda: keyboard.ended_at is not None)
        else:
            assert self.link is not None
            self.link.start()
            link = self.link
            self._feed = LiveClockFeed(link.items, origin, self.rate, last_heard=lambda: link.last_heard,
                                       flush=link.release_held)
        return self._feed

    def events_until(self, t: float, ply: int = 0) -> list[Event]:
        """Events for the notices up to recording time ``t``."""
        if self._feed is None:
            return []
        return [notice_event(n, ply) for n in self._feed.notices_until(t)]

    def pace(self, source: Iterable[Any], *, live: bool | None = None, origin: float | None = None) -> Iterator[Any]:
        """A file's frames no faster than the clock's rate, a frame at recording time ``t`` not before
        host time ``origin + t / rate`` (``origin``: the clock's, else the first frame's arrival); a live
        source (``live``, else the source's own ``live``) is passed through untouched."""
        if getattr(source, "live", False) if live is None else live:
            yield from source
            return
        yield from paced(source, lambda item: getattr(item, "t", None) if hasattr(item, "image") else None,
                         self.rate, origin=origin)

    def stop(self) -> None:
        """Stop listening; what the link still holds back is queued, to be told with the last notices."""
        if self.link is not None:
            self.link.stop()
            self.link.release_held()
