"""The clock model, time controls, the keyboard clock, the live feed and pacing."""

from __future__ import annotations

import io
import math
import queue

import pytest

from recorder.clock.feed import LiveClockFeed, paced
from recorder.clock.keyboard import KeyboardClock
from recorder.clock.model import (
    CONNECTED,
    FLAG_FALLEN,
    LEFT,
    QUIET,
    RIGHT,
    ChessClock,
    ClockNotice,
    parse_time_control,
)
from recorder.clock.presses import Item
from recorder.clocklog_input import ClockPress


def test_clock_counts_down_adds_the_increment_and_flags() -> None:
    clock = ChessClock(10_000, 2_000)
    clock.start(LEFT, 0.0)
    assert not clock.press(RIGHT, 1.0)  # the button of the side not running does nothing
    assert clock.press(LEFT, 3.0) and clock.remaining_ms(LEFT, 3.0) == 9_000
    assert clock.remaining_ms(RIGHT, 5.5) == 7_500
    reading = clock.reading(20.0)
    assert reading.right_flag and reading.right_ms == 0 and not reading.running and reading.left_ms == 9_000


def test_time_controls() -> None:
    assert parse_time_control("15+10") == (900_000, 10_000)
    assert parse_time_control("90s") == (90_000, 0)
    for bad in ("", "x+1", "0+5", "5+-1"):
        with pytest.raises(ValueError):
            parse_time_control(bad)


def test_keyboard_clock_keeps_times() -> None:
    now = [100.0]
    keyboard = KeyboardClock(60_000, 1_000, clock=lambda: now[0])
    keyboard.start_clock()
    now[0] = 104.0
    assert keyboard.key("\n") == ClockPress(104.0, "red", 57_000, 60_000)
    now[0] = 106.5
    assert keyboard.key("b\n") == ClockPress(106.5, "black", 57_000, 58_500)
    assert keyboard.key("huh") is None and keyboard.ignored == 1
    items = [keyboard.items.get_nowait() for _ in range(keyboard.items.qsize())]
    assert isinstance(items[0], ClockNotice) and items[0].kind == CONNECTED and len(items) == 4
    assert isinstance(items[3], ClockNotice) and items[3].since == 104.5  # the typist's slip: a press lost


def test_keyboard_clock_times_run_at_the_clock_rate() -> None:
    """A video replayed at 4x against the keyboard: 10.5 s of host time are 42 s on the game's clock,
    and the feed puts the press at recording time 42 s; times left agree with it."""
    now = [100.0]
    keyboard = KeyboardClock(900_000, 0, clock=lambda: now[0], rate=4.0)
    keyboard.start_clock()
    now[0] = 110.5
    press = keyboard.key("red")
    assert press == ClockPress(110.5, "red", 900_000 - 42_000, 900_000)
    feed = LiveClockFeed(keyboard.items, origin=100.0, rate=4.0, settle_s=0.0)
    assert [(p.t, p.red_ms) for p in feed.until(1e9)] == [(42.0, 858_000)]
    with pytest.raises(ValueError):
        KeyboardClock(60_000, rate=0.0)


def test_keyboard_follows_a_stream() -> None:
    keyboard = KeyboardClock(60_000).follow(io.StringIO("red\nblack\n"))
    assert keyboard._thread is not None
    keyboard._thread.join(2)
    kinds = [type(keyboard.items.get_nowait()).__name__ for _ in range(3)]
    assert kinds == ["ClockNotice", "ClockPress", "ClockPress"]


def test_live_feed_maps_host_time_to_recording_time() -> None:
    items: queue.Queue[Item] = queue.Queue()
    feed = LiveClockFeed(items, origin=1000.0, rate=2.0, settle_s=0.0)
    items.put(ClockPress(1002.0, "red", 1, 2))
    items.put(ClockNotice(1001.0, CONNECTED, "hello"))
    items.put(ClockPress(1005.0, "black", 1, 2))
    assert feed.until(3.9) == [] and feed.notices_until(3.9)[0].t == 2.0
    assert feed.until(4.0) == [ClockPress(4.0, "red", 1, 2)]
    assert feed.remaining() == [ClockPress(10.0, "black", 1, 2)] and feed.until(99) == []


def test_live_feed_says_how_far_the_clock_was_heard_and_when_it_was_not() -> None:
    items: queue.Queue[Item] = queue.Queue()
    heard: list[float | None] = [None]
    feed = LiveClockFeed(items, origin=100.0, rate=2.0, last_heard=lambda: heard[0])
    assert feed.heard_until() == -math.inf  # not heard yet
    heard[0] = 104.0
    items.put(ClockNotice(104.0, QUIET, "quiet", since=101.5))
    # until its notice is handed out, the stretch is not told and the clock counts as heard only up to it
    # (the note comes before the verdicts that depend on it)
    assert feed.heard_until() == 3.0 and feed.unheard() == []
    assert feed.notices_until(7.9) == []
    assert [n.kind for n in feed.notices_until(10.0)] == [QUIET]  # still logged as a notice
    assert feed.heard_until() == 8.0
    assert feed.unheard() == [(3.0, 8.0)] and feed.unheard() == []
    assert LiveClockFeed(queue.Queue(), origin=0.0).heard_until() == math.inf  # a keyboard: always heard
    # at the end of the source: a clock still talking vouches for every press to come; a silent one does not
    assert feed.heard_at_end(10.0) == math.inf and feed.heard_at_end(30.0) == 8.0


def test_after_a_flag_fall_the_clock_is_heard_no_more_for_the_moves_presses() -> None:
    """Tester: a DGT clock blocks when a flag falls, so presses after it cannot register, and every
    later move was alerted move_without_press. The clock counts as heard up to the flag fall only."""
    items: queue.Queue[Item] = queue.Queue()
    heard: list[float | None] = [120.0]
    feed = LiveClockFeed(items, origin=100.0, last_heard=lambda: heard[0])
    items.put(ClockNotice(105.0, FLAG_FALLEN, "red's flag fell"))
    assert feed.heard_until() == 20.0  # not handed out yet
    assert [n.kind for n in feed.notices_until(6.0)] == [FLAG_FALLEN]
    heard[0] = 140.0
    assert feed.heard_until() == 5.0 and feed.heard_at_end(40.0) == 5.0


def test_paced_waits_for_real_time() -> None:
    now = [0.0]
    slept: list[float] = []

    def sleep(s: float) -> None:
        slept.append(s)
        now[0] += s

    out = list(paced([0.0, 1.0, 3.0], lambda t: t, rate=2.0, clock=lambda: now[0], sleep=sleep))
    assert out == [0.0, 1.0, 3.0] and slept == [0.5, 1.0]


def test_the_keyboard_clock_tells_a_flag_fall_once() -> None:
    """Tester: a keyboard clock's red time reached 0:00:00 on the sheet and no flag_fallen came."""
    now = [100.0]
    keyboard = KeyboardClock(10_000, 0, clock=lambda: now[0])
    keyboard.start_clock()
    keyboard.items.get_nowait()  # clock started
    now[0] = 105.0
    keyboard.last_heard()
    assert keyboard.items.empty()  # 5 s left
    now[0] = 111.0
    keyboard.last_heard()
    keyboard.last_heard()
    (notice,) = [keyboard.items.get_nowait() for _ in range(keyboard.items.qsize())]
    assert isinstance(notice, ClockNotice) and notice.kind == FLAG_FALLEN and notice.side == "red"


def test_once_the_sides_are_found_the_other_way_round_the_notices_name_them_so() -> None:
    """Tester: a clock started on the wrong side was read the other way round from its first press,
    but a later flag fall was still told as the other player's."""
    items: queue.Queue[Item] = queue.Queue()
    feed = LiveClockFeed(items, origin=100.0)
    items.put(ClockNotice(101.0, FLAG_FALLEN, "red's time is used up (art. 21.3)", "red"))
    assert feed.notices_until(2.0)[0].side == "red"  # as the link named it, before anything was found
    feed.sides_swapped = True
    items.put(ClockNotice(105.0, FLAG_FALLEN, "red's time is used up (art. 21.3)", "red"))
    items.put(ClockNotice(106.0, CONNECTED, "clock back on /dev/ttyUSB0 after a 3.0 s gap"))
    flag, back = feed.notices_until(10.0)
    assert (flag.text, flag.side) == ("black's time is used up (art. 21.3)", "black")
    assert back.text == "clock back on /dev/ttyUSB0 after a 3.0 s gap"  # names no colour
