"""The byte-level side of each protocol for the link: what to send, and bytes to presses and notices.

A protocol object owns its parser and a :class:`~recorder.clock.presses.PressTracker`; ``feed``
returns the items the bytes produced and ``heard`` counts the valid messages, so the link can
tell a silent line from a talking one.
"""

from __future__ import annotations

import logging
from typing import Protocol

from recorder.clock import dgt
from recorder.clock.model import CONNECTED, NO_CLOCK, RESTARTED, ClockNotice
from recorder.clock.presses import Item, PressTracker
from recorder.clock.text import TextParser, query_line

log = logging.getLogger(__name__)


class ClockProtocol(Protocol):
    name: str
    tracker: PressTracker
    heard: int  # valid messages so far (the line is alive)

    @property
    def present(self) -> bool:
        """Whether the clock itself is there (a DGT interface can answer without one)."""
        ...

    def setup(self) -> bytes: ...

    def poll(self) -> bytes: ...

    def reset(self) -> None: ...

    def talking(self) -> bool:
        """Whether the clock sends by itself now (so that a quiet line means lost messages)."""
        ...

    def feed(self, data: bytes, t: float) -> list[Item]: ...


class DgtProtocol:
    """DGT clock messages through a DGT interface."""

    name = "dgt"

    def __init__(self, tracker: PressTracker | None = None) -> None:
        self.tracker = tracker or PressTracker()
        self.parser = dgt.DgtParser()
        self.heard = 0
        self.counts: dict[str, int] = {}
        self._no_clock = False
        self._no_clock_since: float | None = None
        self._no_clock_first: float | None = None  # a first report of no clock, waiting for a second

    @property
    def present(self) -> bool:
        return not self._no_clock

    def setup(self) -> bytes:
        return bytes((dgt.SEND_UPDATE_NICE, dgt.SEND_CLOCK))

    def poll(self) -> bytes:
        return bytes((dgt.SEND_CLOCK,))

    def talking(self) -> bool:
        """A running clock's display changes each second, and each change is reported."""
        last = self.tracker.last
        return last is not None and last.running and not self._no_clock

    def reset(self) -> None:
        self.parser = dgt.DgtParser()
        self.tracker.reset_link()
        self._no_clock = False
        self._no_clock_since = None
        self._no_clock_first = None

    def feed(self, data: bytes, t: float) -> list[Item]:
        items: list[Item] = []
        for message in self.parser.feed(data):
            kind, reading = dgt.decode_time(message)
            self.counts[kind] = self.counts.get(kind, 0) + 1
            if kind == dgt.BAD:
                self.tracker.message_lost()
                continue
            self.heard += 1
            if kind == dgt.NO_CLOCK:
                # told once a second report agrees (the line has no checksum: one damaged status byte
                # is no clock unplugged; the interface reports again within a few seconds, or when polled)
                if not self._no_clock and self._no_clock_first is None:
                    self._no_clock_first = t
                elif not self._no_clock:
                    items.append(ClockNotice(t, NO_CLOCK, "the DGT interface reports no clock connected"))
                    self.tracker.reset_link()
                    self._no_clock_since = self._no_clock_first
                    self._no_clock = True
            elif kind == dgt.TIME and reading is not None:
                self._no_clock_first = None
                if self._no_clock and self._no_clock_since is not None:
                    away = (t - self._no_clock_since) * self.tracker.rate  # told in recording seconds
                    items.append(ClockNotice(t, CONNECTED, f"the clock is on the DGT interface again after {away:.1f} s",
                                             since=self._no_clock_since))
                self._no_clock = False
                self._no_clock_since = None
                items += self.tracker.reading(reading, t)
        return items


class TextProtocol:
    """The plain text line protocol of ``docs/clock-protocol.md``."""

    name = "text"

    def __init__(self, tracker: PressTracker | None = None) -> None:
        self.tracker = tracker or PressTracker()
        self.parser = TextParser()
        self.heard = 0

    @property
    def present(self) -> bool:
        return True

    def setup(self) -> bytes:
        return query_line()

    def poll(self) -> bytes:
        return query_line()

    def talking(self) -> bool:
        """The protocol's heartbeat: a ``T`` line at least once a second, running or not."""
        return True

    def reset(self) -> None:
        self.parser = TextParser()
        self.tracker.reset_link()

    def feed(self, data: bytes, t: float) -> list[Item]:
        items: list[Item] = []
        damaged = self.parser.bad_lines + self.parser.lost
        messages = self.parser.feed(data)
        if self.parser.bad_lines + self.parser.lost > damaged:
            self.tracker.message_lost(self.parser.bad_lines + self.parser.lost - damaged)
        for message in messages:
            self.heard += 1
            if message.kind == "P" and message.side is not None:
                items += self.tracker.press(message.side, message.left_ms, message.right_ms, t)
            elif message.kind == "T":
                items += self.tracker.reading(message.reading(), t)
            elif message.kind == "F" and message.side is not None:
                items += self.tracker.flag(message.side, t)
            elif message.kind == "H":
                log.info("clock says hello (seq %d)", message.seq)
                if self.tracker.presses:
                    items.append(ClockNotice(t, RESTARTED, "the clock says it was restarted in the middle of the game: "
                                             "its times may not be the game's (art. 21.4)"))
                self.tracker.reset_link()
                self.tracker.forget_times()  # said once, as a restart: its new times are not a second alert
        return items


def make_protocol(name: str, tracker: PressTracker | None = None) -> DgtProtocol | TextProtocol:
    """The protocol called ``name`` (``dgt`` or ``text``)."""
    if name == "dgt":
        return DgtProtocol(tracker)
    if name == "text":
        return TextProtocol(tracker)
    raise ValueError(f"clock protocol {name!r} is not dgt or text")
