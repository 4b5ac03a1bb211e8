"""Readings to presses: the side mapping, lever presses with the turn cross-check, inferred presses, flags."""

from __future__ import annotations

from recorder.clock.model import FLAG_FALLEN, LEFT, MAPPING, RIGHT, ClockNotice, ClockReading
from recorder.clock.presses import PressTracker
from recorder.clocklog_input import ClockPress


def _dgt(left: int, right: int, turn: str, *, running: bool = True, flag_right: bool = False) -> ClockReading:
    lever_down = LEFT if turn == RIGHT else RIGHT  # the side not running has its button down
    return ClockReading(left, right, running, turn, lever_down, False, flag_right)


def test_lever_change_is_a_press_with_red_on_the_left() -> None:
    tracker = PressTracker()
    first = tracker.reading(_dgt(900_000, 900_000, LEFT), 1.0)
    assert len(first) == 1 and isinstance(first[0], ClockNotice) and first[0].kind == MAPPING
    assert tracker.reading(_dgt(899_000, 900_000, LEFT), 2.0) == []
    press = tracker.reading(_dgt(905_000, 900_000, RIGHT), 2.5)
    assert press == [ClockPress(2.5, "red", 905_000, 900_000)]
    press = tracker.reading(_dgt(905_000, 904_000, LEFT), 4.0)
    assert press == [ClockPress(4.0, "black", 905_000, 904_000)]
    assert tracker.presses == 2


def test_first_running_side_corrects_the_mapping() -> None:
    tracker = PressTracker(red_side=LEFT)
    (notice,) = tracker.reading(_dgt(600_000, 600_000, RIGHT), 0.0)
    assert isinstance(notice, ClockNotice)
    assert notice.kind == MAPPING and "right" in notice.text and tracker.map.red == RIGHT
    (press,) = tracker.reading(_dgt(600_000, 605_000, LEFT), 3.0)
    assert press == ClockPress(3.0, "red", 605_000, 600_000)


def test_black_first_from_a_given_position() -> None:
    tracker = PressTracker(first_mover="black")
    tracker.reading(_dgt(600_000, 600_000, LEFT), 0.0)
    assert tracker.map.red == RIGHT


def test_lever_against_the_turn_is_a_glitch() -> None:
    tracker = PressTracker()
    tracker.reading(_dgt(900_000, 900_000, LEFT), 0.0)
    odd = ClockReading(899_000, 900_000, True, LEFT, LEFT)  # lever says left pressed, but left still runs
    assert tracker.reading(odd, 1.0) == [] and tracker.glitches == 1
    assert tracker.reading(_dgt(898_000, 900_000, LEFT), 2.0) == []  # the good report after it is no press
    (press,) = tracker.reading(_dgt(905_000, 900_000, RIGHT), 3.0)
    assert press == ClockPress(3.0, "red", 905_000, 900_000)


def test_reconnect_does_not_invent_a_press() -> None:
    tracker = PressTracker()
    tracker.reading(_dgt(900_000, 900_000, LEFT), 0.0)
    tracker.reset_link()
    assert tracker.reading(_dgt(905_000, 899_000, RIGHT), 9.0) == []


def test_turn_change_without_a_press_line_infers_one() -> None:
    tracker = PressTracker()
    tracker.reading(ClockReading(60_000, 60_000, True, LEFT), 0.0)
    (press,) = tracker.reading(ClockReading(61_000, 60_000, True, RIGHT), 2.0)
    assert press == ClockPress(2.0, "red", 61_000, 60_000) and tracker.inferred == 1


def test_explicit_presses_and_a_flag_once() -> None:
    tracker = PressTracker()
    assert tracker.press(LEFT, 61_000, 60_000, 1.0)[-1] == ClockPress(1.0, "red", 61_000, 60_000)
    assert tracker.reading(ClockReading(61_000, 59_000, True, RIGHT), 2.0) == []  # consistent: no inferred press
    flags = tracker.reading(_dgt(61_000, 0, RIGHT, running=False, flag_right=True), 3.0)
    flags += tracker.reading(_dgt(61_000, 0, RIGHT, running=False, flag_right=True), 4.0)
    assert [(n.kind, n.side) for n in flags if isinstance(n, ClockNotice)] == [(FLAG_FALLEN, "black")]


def test_a_single_flag_bit_with_time_left_is_noise() -> None:
    tracker = PressTracker()
    tracker.reading(_dgt(61_000, 50_000, RIGHT), 0.0)
    assert tracker.reading(_dgt(61_000, 49_000, RIGHT, flag_right=True), 1.0) == []
    assert tracker.reading(_dgt(61_000, 48_000, RIGHT), 2.0) == []
    tracker.reading(_dgt(61_000, 3_000, RIGHT, flag_right=True), 3.0)
    (notice,) = tracker.reading(_dgt(61_000, 2_000, RIGHT, flag_right=True), 4.0)
    assert isinstance(notice, ClockNotice) and notice.kind == FLAG_FALLEN
