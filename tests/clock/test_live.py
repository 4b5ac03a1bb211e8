"""LiveClock: the keyboard clock through the feed, notices as ClockAlert events, pacing only for files."""

from __future__ import annotations

import io
import time

import pytest

from recorder.clock.live import LiveClock, notice_event
from recorder.clock.model import DISCONNECTED, FLAG_FALLEN, ClockNotice
from recorder.events import ClockAlert, ClockNoted, event_from_json, event_to_json


def test_keyboard_clock_through_the_live_feed() -> None:
    clock = LiveClock("-", "keyboard", time_control="1+0", keys=io.StringIO("\nblack\n"))
    origin = time.monotonic()
    feed = clock.start(origin)
    time.sleep(0.1)
    presses = feed.until(1e9)
    assert [p.side for p in presses] == ["red", "black"]
    assert all(0 <= p.t < 1.0 for p in presses) and presses[0].black_ms == 60_000
    events = clock.events_until(1e9, ply=3)
    assert [(e.kind, e.ply) for e in events if isinstance(e, ClockNoted)] == [("clock_connected", 3)]
    assert not [e for e in events if isinstance(e, ClockAlert)]  # the clock answering calls for no arbiter


def test_notices_become_alerts_that_round_trip() -> None:
    flag = notice_event(ClockNotice(12.5, FLAG_FALLEN, "black's time is used up (art. 21.3)", "black"), ply=40)
    assert isinstance(flag, ClockAlert) and (flag.kind, flag.article, flag.side) == ("flag_fallen", "21.3", "black")
    assert event_from_json(event_to_json(flag)) == flag
    lost = notice_event(ClockNotice(3.0, DISCONNECTED, "lost"))
    assert isinstance(lost, ClockAlert) and lost.kind == "clock_disconnected"


def test_pacing_skips_live_sources_and_rejects_bad_rates() -> None:
    class Live(list[int]):
        live = True

    clock = LiveClock("loop://", "dgt", rate=1000.0)
    assert list(clock.pace(Live([1, 2]))) == [1, 2]
    with pytest.raises(ValueError):
        LiveClock("loop://", "dgt", rate=0)
    with pytest.raises(ValueError):
        LiveClock("loop://", "dgt", rate=float("nan"))
    keyboard = LiveClock("-", "keyboard", rate=4.0, keys=io.StringIO(""))
    assert keyboard.keyboard is not None and keyboard.keyboard.rate == 4.0  # its times follow --clock-rate
    with pytest.raises(ValueError):
        LiveClock("loop://", "morse")
