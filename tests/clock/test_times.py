"""Move times from presses: each ply from the opponent's press to its own; lost presses leave gaps."""

from __future__ import annotations

from recorder.clock.times import emt_text, move_times, time_used
from recorder.events import ClockPressed, MoveRecorded


def test_move_times_and_time_used() -> None:
    events = [
        ClockPressed(5.3, "red", 904_000, 900_000, 1),
        MoveRecorded(5.0, 2, "h9g7", "马8进7", "black", "", 1.0),
        ClockPressed(9.1, "black", 904_000, 906_000, 2),
        ClockPressed(9.5, "black", 904_000, 906_000, None, effective=False),  # a second press: nothing
        ClockPressed(12.5, "red", 911_000, 906_000, 3),
        ClockPressed(24.0, "black", 911_000, 910_000, 6),  # plies 4 and 5 were pressed while the line was out
        ClockPressed(28.8, "red", 918_000, 910_000, 7),
    ]
    times = move_times(events)
    assert times == {2: 9.1 - 5.3, 3: 12.5 - 9.1, 7: 28.8 - 24.0}
    used = time_used(events, {1: "red", 2: "black", 3: "red", 6: "black", 7: "red"})
    assert round(used["red"], 3) == round(3.4 + 4.8, 3) and round(used["black"], 3) == 3.8
    assert emt_text(3.6) == "0:00:04" and emt_text(3725) == "1:02:05"
