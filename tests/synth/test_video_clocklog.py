"""The game clock and its JSON-lines log."""

from __future__ import annotations

from pathlib import Path

import pytest

from synth.clocklog import ClockEvent, GameClock, parse_time_control, read_clock_log, write_clock_log


def test_parse_time_control() -> None:
    assert parse_time_control("15+10") == (900.0, 10.0)
    assert parse_time_control("90") == (5400.0, 0.0)
    for bad in ("x+1", "0+5", "10+-1"):
        with pytest.raises(ValueError, match="time control"):
            parse_time_control(bad)


def test_fischer_clock_switches_and_adds_the_increment() -> None:
    clock = GameClock(60.0, 2.0, "red")
    first = clock.press(5.0, "red")
    assert (first.red_ms, first.black_ms) == (57_000, 60_000) and clock.running == "black"
    second = clock.press(8.5, "black")
    assert (second.red_ms, second.black_ms) == (57_000, 58_500) and clock.running == "red"
    # pressing the button of the side that is not running changes nothing but is logged
    idle = clock.press(9.0, "black")
    assert (idle.side, idle.red_ms, idle.black_ms) == ("black", 56_500, 58_500) and clock.running == "red"
    with pytest.raises(ValueError, match="backwards"):
        clock.press(1.0, "red")
    with pytest.raises(ValueError, match="red or black"):
        clock.press(10.0, "white")


def test_time_runs_out_at_zero() -> None:
    clock = GameClock(1.0, 0.0, "black")
    assert clock.press(5.0, "black").black_ms == 0


def test_log_round_trip_and_errors(tmp_path: Path) -> None:
    events = [ClockEvent(1.25, "red", 899_000, 900_000), ClockEvent(3.5, "black", 899_000, 897_750)]
    path = tmp_path / "clock.jsonl"
    write_clock_log(path, events)
    assert path.read_text().splitlines()[0] == (
        '{"t": 1.25, "event": "press", "side": "red", "red_ms": 899000, "black_ms": 900000}')
    assert read_clock_log(path) == events
    path.write_text('{"t": 1, "event": "press", "side": "red", "red_ms": 1}\n')
    with pytest.raises(ValueError, match=":1: not a clock log line"):
        read_clock_log(path)
    path.write_text('{"t": 1, "event": "press", "side": "blue", "red_ms": 1, "black_ms": 2}\n')
    with pytest.raises(ValueError, match="not red or black"):
        read_clock_log(path)
