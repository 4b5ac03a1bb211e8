"""Live clock items for the session: :class:`LiveClockFeed` has :class:`~recorder.clocklog_input.ClockFeed`'s
``until(t)``/``remaining()`` and maps host monotonic time to recording time.

For a live camera the session's frame time and the link's stamps share the monotonic clock, so
recording time is ``(host - origin) * rate`` with ``origin`` the moment the source started. A video
file replayed against a clock is read at ``rate`` times real time (:func:`paced`), so the same
mapping holds.
"""

from __future__ import annotations

import logging
import math
import queue
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import TypeVar

from recorder.clock.model import FLAG_FALLEN, ClockNotice
from recorder.clock.presses import REPORT_GAP_S, Item, named_other_way_round
from recorder.clocklog_input import ClockFeed, ClockPress

log = logging.getLogger(__name__)

T = TypeVar("T")


class LiveClockFeed(ClockFeed):
    """Presses and notices from a queue, handed out by recording time like ``ClockFeed`` (a drop-in for it)."""

    def __init__(self, items: queue.Queue[Item], origin: float, rate: float = 1.0,
                 settle_s: float = 0.5, last_heard: Callable[[], float | None] | None = None,
                 gone: Callable[[], bool] | None = None, flush: Callable[[], None] | None = None) -> None:
        super().__init__([])
        self._flush = flush  # queues what the link still holds back (a press waiting for its next report)
        if rate <= 0:
            raise ValueError(f"clock rate {rate} must be positive")
        self.source = items
        self.origin = origin
        self.rate = rate
        self.settle_s = settle_s
        self._presses: list[ClockPress] = []
        self._notices: list[ClockNotice] = []
        self._unheard: list[tuple[float, float]] = []
        self._last_heard = last_heard  # host time the link last heard the clock (None: always heard)
        self._gone = gone  # the clock can be heard no more (the keyboard's input ended)
        # a flag fell then (recording time): the clock stops, and no press can register after it, so a
        # move after it is judged for none (a DGT clock blocked after a flag fall sent no presses)
        self._stopped = math.inf
        self.sides_swapped = False  # the recording found the link's sides the wrong way round: notices are renamed

    def _to_recording(self, t: float) -> float:
        return (t - self.origin) * self.rate

    def _drain(self) -> None:
        while True:
            try:
                item = self.source.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, ClockPress):
                self._presses.append(replace(item, t=self._to_recording(item.t)))
            else:
                since = None if item.since is None else self._to_recording(item.since)
                self._notices.append(replace(item, t=self._to_recording(item.t), since=since))

    def _hand_out(self, notices: list[ClockNotice]) -> list[ClockNotice]:
        """``notices`` as handed out: the stretches they end become the ``unheard`` spans."""
        if self.sides_swapped:  # (the presses are read the other way round by the resolver's clock book)
            notices = [named_other_way_round(n) for n in notices]
        self._unheard += [(n.since, n.t) for n in notices if n.since is not None]
        self._stopped = min([self._stopped] + [n.t for n in notices if n.kind == FLAG_FALLEN])
        return notices

    def heard_until(self) -> float:
        """Recording time the clock was last heard, but no later than the start of a stretch it was not
        heard whose notice is not handed out yet: the note that the clock is back comes before the
        verdicts on the presses it lost, and until then those presses may still come."""
        if self._last_heard is None:
            return self._stopped
        host = self._last_heard()  # read before draining: the items it vouches for are queued by then
        self._drain()
        heard = -math.inf if host is None else self._to_recording(host)
        return min([heard, self._stopped] + [n.since for n in self._notices if n.since is not None])

    def heard_at_end(self, end_t: float) -> float:
        """At the end of the source: as far as ever when the clock was still being heard then (its last
        report within a few seconds), else when it was last heard."""
        heard = self.heard_until()
        if (self._gone is not None and self._gone()) or heard >= self._stopped:
            return heard  # it ended then, however near the end: moves after it had no press to be heard
        return math.inf if heard >= end_t - REPORT_GAP_S * self.rate else heard

    def unheard(self) -> list[tuple[float, float]]:
        """Stretches (recording time) when the clock could not be heard, not handed out yet: those whose
        notices have been (``notices_until``)."""
        spans, self._unheard = self._unheard, []
        return spans

    def until(self, t: float) -> list[ClockPress]:
        """Presses at or before recording time ``t`` not yet handed out."""
        self._drain()
        ready = [p for p in self._presses if p.t <= t]
        self._presses = [p for p in self._presses if p.t > t]
        return ready

    def notices_until(self, t: float) -> list[ClockNotice]:
        """Link notices at or before recording time ``t`` not yet handed out."""
        self._drain()
        ready = [n for n in self._notices if n.t <= t]
        self._notices = [n for n in self._notices if n.t > t]
        return self._hand_out(ready)

    def remaining(self) -> list[ClockPress]:
        """Every press not handed out, after waiting ``settle_s`` for ones still on the line."""
        time.sleep(self.settle_s)
        if self._flush is not None:
            self._flush()
        self._drain()
        rest, self._presses = self._presses, []
        return rest

    def remaining_notices(self) -> list[ClockNotice]:
        self._drain()
        rest, self._notices = self._notices, []
        return self._hand_out(rest)


def paced(items: Iterable[T], t_of: Callable[[T], float | None], rate: float = 1.0,
          clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
          origin: float | None = None) -> Iterator[T]:
    """``items`` no faster than ``rate`` times real time: an item at time ``t`` waits until ``origin + t / rate``."""
    start = clock() if origin is None else origin
    for item in items:
        t = t_of(item)
        if t is not None:
            wait = start + t / rate - clock()
            if wait > 0:
                sleep(wait)
        yield item
