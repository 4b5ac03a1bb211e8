"""LiveClock: the keyboard clock through the feed, notices as ClockAlert events, pacing only for files."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest

from recorder.clock.link import port_problem
from recorder.clock.live import LiveClock
from recorder.clock.model import DISCONNECTED, FLAG_FALLEN, ClockNotice, notice_event
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
    # the two lines were all the input: the arbiter hears that no press is read from here, and the
    # moves made after it are not judged for their presses (the clock was heard only until then)
    assert [e.kind for e in events if isinstance(e, ClockAlert)] == ["clock_disconnected"]
    assert 0 <= feed.heard_until() < 1.0
    assert feed.heard_at_end(1.0) < 1.0  # ended just before the recording did: still not heard after it


def test_a_keyboard_input_that_cannot_be_read_ends_the_clock_with_its_reason() -> None:
    keys = io.TextIOWrapper(io.BytesIO(b"red\n\xff\xfe\n"), encoding="utf-8")
    clock = LiveClock("-", "keyboard", keys=keys)
    feed = clock.start(time.monotonic())
    time.sleep(0.1)
    alerts = [e for e in clock.events_until(1e9) if isinstance(e, ClockAlert)]
    assert [a.kind for a in alerts] == ["clock_disconnected"] and "could not be read" in alerts[0].text
    assert feed.heard_at_end(1.0) < 1.0


def test_a_keyboard_clock_heard_while_its_input_is_open() -> None:
    reader, writer = os.pipe()
    with os.fdopen(reader, encoding="utf-8") as keys, os.fdopen(writer, "w", encoding="utf-8") as typing:
        clock = LiveClock("-", "keyboard", keys=keys)
        feed = clock.start(time.monotonic())
        typing.write("red\n")
        typing.flush()
        time.sleep(0.1)
        assert [p.side for p in feed.until(1e9)] == ["red"]
        assert feed.heard_until() >= 0.1  # heard up to now: presses still to come are not taken for lost
        assert not [e for e in clock.events_until(1e9) if isinstance(e, ClockAlert)]


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


def test_a_port_that_can_never_be_a_clock_is_refused_at_once(tmp_path: Path) -> None:
    # tester 16: these were retried with a warning all game long, and the game recorded with no clock
    afile = tmp_path / "notes.txt"
    afile.write_text("x", encoding="utf-8")
    for port, said in (("foo://bar", "foo:// is not a kind of port"), (str(tmp_path), "is a folder"),
                       (str(afile), "is a regular file"), ("a.b://c", "a.b:// is not"), ("1x://c", "1x:// is not"),
                       ("socket ://h:1", "socket :// is not"),
                       ("/dev/null", "character device that is no terminal")):  # tester: retried all game
        with pytest.raises(ValueError, match=said):
            LiveClock(port, "text")
    master, slave = os.openpty()
    try:
        link = tmp_path / "clock"
        link.symlink_to(os.ttyname(slave))  # a link to a terminal device, as a pty's or a udev name is
        for maybe in ("loop://", "socket://localhost:7000", "rfc2217://h:2217", "hwgrep://0403", str(link),
                      str(tmp_path / "ttyUSB9"), "COM3"):
            assert port_problem(maybe) is None  # a clock that may answer, or be plugged in later
    finally:
        os.close(master)
        os.close(slave)


def test_a_clock_plugged_in_mid_game_maps_its_running_side_to_the_side_to_move_then() -> None:
    """Tester: a text clock started 3 plies into the game, black's time running on the right, was
    mapped as red = right (the first mover's), and every press after went to the wrong player."""
    from recorder.clock.model import LEFT, RIGHT, ClockReading
    from recorder.clock.presses import PressTracker

    clock = LiveClock("/dev/null-no-such-port", "text")
    tracker = clock.link.protocol.tracker  # type: ignore[union-attr]
    assert isinstance(tracker, PressTracker)
    clock.board_side_to_move("black")  # the recorder's board: black to move when the clock is first heard
    assert tracker.first_mover == "black"
    tracker.reading(ClockReading(880_000, 870_000, True, RIGHT), 0.0)  # black's time runs, on the right
    assert tracker.map.red == LEFT and tracker.map.confirmed
    clock.board_side_to_move("red")  # known now: the board no longer moves it
    assert tracker.first_mover == "black" and tracker.map.red == LEFT


def test_a_mistyped_keyboard_press_is_the_typists_slip_not_a_players_foul() -> None:
    # a tester typed "x" for red's press: the move was then alerted as made without a press
    clock = LiveClock("-", "keyboard", time_control="1+0", keys=io.StringIO("\nx\nred\n"))
    feed = clock.start(time.monotonic())
    time.sleep(0.1)
    assert [p.side for p in feed.until(1e9)] == ["red", "red"]
    events = clock.events_until(1e9, ply=2)
    (typo,) = [e for e in events if isinstance(e, ClockNoted) and e.kind == "clock_quiet"]
    assert "'x' is not red, black or an empty line: a press typed then is lost" in typo.text
    spans = feed.unheard()
    assert len(spans) == 1 and spans[0][1] - spans[0][0] > 0  # the press meant then: not judged


def test_a_resumed_game_on_the_keyboard_clock_goes_on_with_its_times_and_turn() -> None:
    """A game taken up again with black to move (``record --resume GAME --clock -``): the keyboard
    clock started red's full time again, so black's first press flipped nothing and every time
    after it was wrong. It now runs black's time first, from the times the last press left."""
    from recorder.events import ClockPressed

    stored = [ClockPressed(10.0, "red", 905_000, 900_000, 1), ClockPressed(20.0, "black", 905_000, 897_000, 2),
              ClockPressed(31.0, "red", 899_000, 897_000, 3)]
    clock = LiveClock("-", "keyboard", time_control="15+10", keys=io.StringIO("black\n"))
    clock.go_on(stored, "black")
    feed = clock.start(time.monotonic())
    time.sleep(0.1)
    (press,) = feed.until(1e9)
    assert press.side == "black" and press.red_ms == 899_000
    assert 897_000 + 10_000 - 1_000 < press.black_ms <= 897_000 + 10_000  # black's time ran, then the increment
    assert clock.keyboard is not None and clock.keyboard.model.running is not None  # the press flipped it


def test_a_file_taken_up_again_is_paced_from_where_it_goes_on() -> None:
    """A tester resumed a game from the same file with the keyboard clock at --clock-rate 2: the part
    already recorded was read paced, 58 s on the clock charged to the side to move. Frames are paced
    from the clock's origin (the recording time the run starts at), so the first one read on comes at once."""
    from types import SimpleNamespace

    clock = LiveClock("-", "keyboard", time_control="15+10")
    frames = [SimpleNamespace(t=40.0 + i * 0.01, image=None) for i in range(3)]
    started = time.monotonic()
    assert list(clock.pace(frames, live=False, origin=started - 40.0)) == frames
    assert time.monotonic() - started < 5.0  # not the 40 s recorded before
