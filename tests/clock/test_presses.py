"""Readings to presses: the side mapping, lever presses with the turn cross-check, inferred presses, flags."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from recorder.clock.link import SerialClockLink
from recorder.clock.model import (
    FLAG_FALLEN,
    LEFT,
    LOG_DAMAGED,
    MAPPING,
    RIGHT,
    TIMES_CHANGED,
    ClockNotice,
    ClockReading,
    other,
)
from recorder.clock.presses import PressTracker, log_time_faults, mapped_red_side, mapping_text
from recorder.clock.protocols import make_protocol
from recorder.clocklog_input import ClockPress, load_clock_log


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


def test_a_resumed_game_keeps_the_clock_side_its_log_gave_red() -> None:
    # taken up while black's time runs (on the right): the first running side is not red's
    tracker = PressTracker(red_side=LEFT)
    tracker.go_on(mapped_red_side(mapping_text(LEFT, LEFT)), "black")
    assert tracker.reading(_dgt(700_000, 650_000, RIGHT), 0.0) == []  # no new mapping: it stands
    (press,) = tracker.reading(_dgt(700_000, 655_000, LEFT), 3.0)
    assert press == ClockPress(3.0, "black", 700_000, 655_000) and tracker.map.red == LEFT


def test_a_resumed_game_with_no_mapping_logged_takes_the_running_side_for_the_side_to_move() -> None:
    tracker = PressTracker(red_side=LEFT)
    tracker.go_on(None, "black")  # black to move, and its time runs on the right: red is left
    (notice,) = tracker.reading(_dgt(700_000, 650_000, RIGHT), 0.0)
    assert isinstance(notice, ClockNotice) and tracker.map.red == LEFT
    assert mapped_red_side(notice.text) == LEFT and mapped_red_side("the clock answered") is None


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
    # red's time has run 0.6 s when the report after black's press comes: the press was 0.6 s before it
    tracker.reading(ClockReading(61_000, 59_000, True, RIGHT), 3.0)
    (press,) = tracker.reading(ClockReading(60_400, 60_500, True, LEFT), 4.0)
    assert press.side == "black" and press.t == pytest.approx(3.4)


def test_explicit_presses_and_a_flag_once() -> None:
    tracker = PressTracker()
    assert tracker.press(LEFT, 61_000, 60_000, 1.0)[-1] == ClockPress(1.0, "red", 61_000, 60_000)
    assert tracker.reading(ClockReading(61_000, 59_000, True, RIGHT), 2.0) == []  # consistent: no inferred press
    flags = tracker.reading(_dgt(61_000, 0, RIGHT, running=False, flag_right=True), 61.0)
    flags += tracker.reading(_dgt(61_000, 0, RIGHT, running=False, flag_right=True), 62.0)
    assert [(n.kind, n.side) for n in flags if isinstance(n, ClockNotice)] == [(FLAG_FALLEN, "black")]


def test_a_single_flag_bit_with_time_left_is_noise() -> None:
    tracker = PressTracker()
    tracker.reading(_dgt(61_000, 50_000, RIGHT), 0.0)
    assert tracker.reading(_dgt(61_000, 49_000, RIGHT, flag_right=True), 1.0) == []
    assert tracker.reading(_dgt(61_000, 48_000, RIGHT), 2.0) == []
    tracker.reading(_dgt(61_000, 3_000, RIGHT, flag_right=True), 47.0)
    (notice,) = tracker.reading(_dgt(61_000, 2_000, RIGHT, flag_right=True), 48.0)
    assert isinstance(notice, ClockNotice) and notice.kind == FLAG_FALLEN


def _changed(items: list) -> list[ClockNotice]:
    return [i for i in items if isinstance(i, ClockNotice) and i.kind == TIMES_CHANGED]


def test_times_that_rise_without_a_press_are_flagged_once_two_reports_agree() -> None:
    tracker = PressTracker()
    tracker.reading(_dgt(600_000, 600_000, LEFT), 0.0)
    tracker.reading(_dgt(599_000, 600_000, LEFT), 1.0)
    assert _changed(tracker.reading(_dgt(610_000, 600_000, RIGHT), 1.5)) == []  # red's press with its 10 s
    assert _changed(tracker.reading(_dgt(610_000, 599_000, RIGHT), 2.5)) == []
    assert _changed(tracker.reading(_dgt(610_000, 900_000, RIGHT), 3.5)) == []  # once: perhaps a damaged report
    assert _changed(tracker.reading(_dgt(610_000, 598_000, RIGHT), 4.5)) == []  # and it was
    assert tracker.reading(_dgt(610_000, 900_000, RIGHT), 5.5) == []
    (notice,) = _changed(tracker.reading(_dgt(610_000, 899_000, RIGHT), 6.5))  # black's time set to 15 min
    assert notice.side == "black" and "9:58 to 14:59" in notice.text and "21.4" in notice.text
    assert _changed(tracker.reading(_dgt(610_000, 898_000, RIGHT), 7.5)) == []  # the new times are trusted now


def _pressed_once(tracker: PressTracker) -> None:
    """Red's first press at 1 s: from then on the times are the game's."""
    tracker.reading(_dgt(300_000, 290_000, LEFT), 0.0)
    tracker.reading(_dgt(310_000, 290_000, RIGHT), 1.0)


def _game_of_presses(tracker: PressTracker, presses: int = 4, increment_ms: int = 10_000) -> tuple[int, int]:
    """Presses each second with ``increment_ms`` each; returns the times after the last (red to run next)."""
    left, right, turn = 300_000, 300_000, LEFT
    tracker.reading(_dgt(left, right, turn), 0.0)
    for n in range(1, presses + 1):
        if turn == LEFT:
            left += increment_ms - 1_000
        else:
            right += increment_ms - 1_000
        turn = other(turn)
        tracker.reading(_dgt(left, right, turn), float(n))
    return left, right


def test_a_rise_well_under_an_increment_without_a_press_is_flagged() -> None:
    tracker = PressTracker()
    left, right = _game_of_presses(tracker)  # the presses show a 10 s increment
    tracker.reading(_dgt(left + 30_000, right, LEFT), 5.0)  # red's time set 30 s up while it runs
    (notice,) = _changed(tracker.reading(_dgt(left + 29_000, right, LEFT), 6.0))
    assert notice.side == "red" and "5:18 to 5:47" in notice.text


def test_a_rise_at_a_press_beyond_the_given_increment_is_flagged() -> None:
    tracker = PressTracker(increment_ms=10_000)
    _pressed_once(tracker)
    tracker.reading(_dgt(310_000, 289_000, RIGHT), 2.0)
    tracker.reading(_dgt(340_000, 300_000, LEFT), 2.5)  # black's press adds 11 s, and red's time 30 s
    (notice,) = _changed(tracker.reading(_dgt(339_000, 300_000, LEFT), 3.5))
    assert notice.side == "red"


def test_a_reconnect_allows_the_increments_of_presses_unheard_but_not_a_reset() -> None:
    tracker = PressTracker()
    _pressed_once(tracker)
    tracker.reset_link()  # a second unheard: each side may have pressed once meanwhile
    assert tracker.reading(_dgt(330_000, 300_000, RIGHT), 2.0) == []
    assert tracker.reading(_dgt(330_000, 299_000, RIGHT), 3.0) == []
    tracker.reset_link()
    tracker.reading(_dgt(900_000, 900_000, RIGHT), 4.0)  # a clock restarted at 15 minutes a side
    (notice,) = _changed(tracker.reading(_dgt(900_000, 899_000, RIGHT), 5.0))
    assert notice.side == "" and "red's from 5:30 to 15:00" in notice.text and "black's" in notice.text


def test_the_same_rise_without_a_reconnect_is_flagged() -> None:
    tracker = PressTracker()
    _pressed_once(tracker)
    tracker.reading(_dgt(330_000, 300_000, RIGHT), 2.0)
    assert len(_changed(tracker.reading(_dgt(330_000, 299_000, RIGHT), 3.0))) == 1


def test_the_next_period_added_at_a_press_and_a_clock_set_before_the_game_are_no_change() -> None:
    tracker = PressTracker()
    tracker.reading(_dgt(0, 183_000, LEFT, running=False), 0.0)  # the last game's times
    tracker.reading(_dgt(3_600_000, 3_600_000, LEFT, running=False), 5.0)  # set for this game
    tracker.reading(_dgt(3_600_000, 3_600_000, LEFT), 6.0)
    tracker.reading(_dgt(3_599_000, 3_600_000, LEFT), 7.0)
    tracker.reading(_dgt(4_199_000, 3_600_000, RIGHT), 7.5)  # red's press at move 30: ten more minutes (art. 6.2)
    tracker.reading(_dgt(4_199_000, 3_599_000, RIGHT), 8.5)
    tracker.reading(_dgt(4_199_000, 3_598_000, RIGHT), 9.5)
    assert tracker.times_changed == 0


def test_explicit_presses_carry_their_increment_and_nothing_else() -> None:
    tracker = PressTracker()
    tracker.press(LEFT, 305_000, 300_000, 1.0)
    tracker.press(RIGHT, 305_000, 304_000, 2.0)
    assert tracker.times_changed == 0
    tracker.press(LEFT, 310_000, 330_000, 3.0)  # black's time 26 s up at red's press
    tracker.reading(ClockReading(310_000, 329_000, True, RIGHT), 4.0)
    assert tracker.times_changed == 1


def test_a_damaged_report_trusted_as_a_press_is_put_right_without_a_notice() -> None:
    tracker = PressTracker()
    tracker.reading(_dgt(4_055_000, 4_032_000, LEFT), 0.0)
    tracker.reading(_dgt(4_054_000, 4_032_000, LEFT), 1.0)
    tracker.reading(_dgt(4_091_000, 4_032_000, RIGHT), 1.7)  # red's press, its 30 s read as 37 s
    assert tracker.reading(_dgt(4_084_000, 4_031_000, RIGHT), 1.8) == []
    assert tracker.reading(_dgt(4_084_000, 4_030_000, RIGHT), 2.8) == []
    assert tracker.times_changed == 0


def test_a_live_clock_taken_up_again_reads_the_mapping_from_the_stored_notes() -> None:
    from recorder.clock.live import LiveClock
    from recorder.events import ClockNoted

    clock = LiveClock("/dev/ttyUSB-not-opened-until-start", "text", red_side=LEFT)
    notes = [ClockNoted(1.0, "clock_connected", "the clock answered"),
             ClockNoted(1.2, MAPPING, mapping_text(RIGHT, RIGHT), "red")]
    clock.go_on(notes, "black")
    assert clock.link is not None
    tracker = clock.link.protocol.tracker
    assert (tracker.map.red, tracker.map.confirmed) == (RIGHT, True)


def test_a_press_seen_in_a_late_report_carries_the_times_at_the_press() -> None:
    # a tester's noisy line: the report showing a press came after the side now running had used
    # time, and the times used counted that as a press lost on the line (one increment a side)
    tracker = PressTracker()
    tracker.reading(_dgt(900_000, 900_000, LEFT), 1.0)
    tracker.reading(_dgt(899_000, 900_000, LEFT), 2.0)
    (press,) = tracker.reading(_dgt(905_000, 898_800, RIGHT), 4.3)  # the reports between were damaged
    assert press == ClockPress(4.3, "red", 905_000, 900_000)  # black's time as it stood until the press
    (inferred,) = tracker.reading(ClockReading(903_700, 904_000, True, LEFT), 8.0)  # no lever: inferred
    assert isinstance(inferred, ClockPress)
    assert (inferred.side, inferred.red_ms, inferred.black_ms) == ("black", 905_000, 904_000)


def test_a_press_whose_own_time_jumped_waits_for_the_next_report_to_say_its_time() -> None:
    """A tester's noisy DGT line read red's press as 15:40 (a 29 s gain on a 10 s increment); the next
    report, red's clock standing, said 15:17 and the scoresheet kept 15:40. The press now waits one
    report, and takes the presser's time from it while the presser's clock stands."""
    tracker = PressTracker()
    left, right = _game_of_presses(tracker)  # 10 s a press; red to run
    assert tracker.reading(_dgt(left - 1_000, right, LEFT), 5.0) == []
    assert tracker.reading(_dgt(left + 29_000, right, RIGHT), 5.5) == []  # red's press, misread: held
    (press,) = tracker.reading(_dgt(left + 8_000, right - 1_000, RIGHT), 6.5)
    assert press == ClockPress(5.5, "red", left + 8_000, right) and tracker.times_changed == 0
    # a time really set by hand at a press: the press goes out as reported, and the change is told
    tracker = PressTracker()
    left, right = _game_of_presses(tracker)
    tracker.reading(_dgt(left - 1_000, right, LEFT), 5.0)
    assert tracker.reading(_dgt(left + 119_000, right, RIGHT), 5.5) == []
    press, notice = tracker.reading(_dgt(left + 119_000, right - 1_000, RIGHT), 6.5)
    assert press == ClockPress(5.5, "red", left + 119_000, right)
    assert isinstance(notice, ClockNotice) and notice.kind == TIMES_CHANGED


def test_a_held_press_is_given_out_as_reported_when_no_report_can_say_its_time() -> None:
    """A reviewer: after the line dropped, the first report a minute on gave the held press its time;
    and a recording that ended before the next report lost the press."""
    tracker = PressTracker()
    left, right = _game_of_presses(tracker)
    tracker.reading(_dgt(left - 1_000, right, LEFT), 5.0)
    assert tracker.reading(_dgt(left + 29_000, right, RIGHT), 5.5) == []  # held
    tracker.reset_link()
    items = tracker.reading(_dgt(left - 13_000, right - 25_000, RIGHT), 65.0)
    assert ClockPress(5.5, "red", left + 29_000, right) in items
    tracker = PressTracker()
    left, right = _game_of_presses(tracker)
    tracker.reading(_dgt(left - 1_000, right, LEFT), 5.0)
    tracker.reading(_dgt(left + 29_000, right, RIGHT), 5.5)
    assert tracker.release_held() == [ClockPress(5.5, "red", left + 29_000, right)]  # the recording ends
    assert tracker.release_held() == []


def test_a_live_clock_learns_the_increment_of_the_games_stored_time_control() -> None:
    """A reviewer: a game's time control taken from its event did not tell the link what a press may add."""
    from recorder.clock.live import LiveClock

    clock = LiveClock("/dev/ttyUSB-not-opened-until-start", "dgt")
    assert clock.link is not None and clock.link.protocol.tracker.increment_ms is None
    clock.know_increment(30_000)
    assert clock.link.protocol.tracker.increment_ms == 30_000
    given = LiveClock("/dev/ttyUSB-not-opened-until-start", "dgt", time_control="90+10")
    given.know_increment(30_000)  # --time-control said it already
    assert given.link is not None and given.link.protocol.tracker.increment_ms == 10_000


def test_a_clock_adding_more_than_the_time_control_says_is_told_once_and_its_increment_taken() -> None:
    # a tester's clock ran 15+10 under --time-control 15+5: 23 'times changed' alerts, one a press
    tracker = PressTracker(increment_ms=5_000)
    left, right, turn, t = 300_000, 300_000, LEFT, 0.0
    notices: list[ClockNotice] = []
    tracker.reading(_dgt(left, right, turn), t)
    for _ in range(12):
        for _ in range(2):  # the side running uses two seconds, reported each second
            t += 1.0
            left, right = (left - 1_000, right) if turn == LEFT else (left, right - 1_000)
            notices += _changed(tracker.reading(_dgt(left, right, turn), t))
        left, right = (left + 10_000, right) if turn == LEFT else (left, right + 10_000)
        turn, t = other(turn), t + 0.5
        notices += _changed(tracker.reading(_dgt(left, right, turn), t))
    assert len(notices) == 1 and "adds 10 s at each press, not the 5 s" in notices[0].text  # not "set by hand" first
    assert tracker.increment_ms == 10_000


def _game(tracker: PressTracker, gains: list[int]) -> list[tuple[int, ClockNotice]]:
    """Presses adding ``gains`` (ms) in turn, two seconds of thinking each reported each second:
    the 'times changed' notices, each with the number of the press it came at (1 the first)."""
    left, right, turn, t = 300_000, 300_000, LEFT, 0.0
    told: list[tuple[int, ClockNotice]] = []
    tracker.reading(_dgt(left, right, turn), t)
    for number, gain in enumerate(gains, 1):
        for _ in range(2):
            t += 1.0
            left, right = (left - 1_000, right) if turn == LEFT else (left, right - 1_000)
            told += [(number, notice) for notice in _changed(tracker.reading(_dgt(left, right, turn), t))]
        left, right = (left + gain, right) if turn == LEFT else (left, right + gain)
        turn, t = other(turn), t + 0.5
        told += [(number, notice) for notice in _changed(tracker.reading(_dgt(left, right, turn), t))]
    return told


def test_a_rise_at_one_press_that_the_next_does_not_repeat_is_told_as_set_by_hand_then() -> None:
    # an increment told at the second press only held back the first: a time set by hand at a press
    # (20 s added to the presser, the clock's 5 s at every other press) must still be told
    told = _game(PressTracker(increment_ms=5_000), [5_000, 5_000, 25_000] + [5_000] * 6)
    assert len(told) == 1 and "set by hand" in told[0][1].text and "from 5:01 to 5:26" in told[0][1].text
    assert told[0][0] == 5  # at that side's next press, which added the 5 s it should
    # two minutes added is no increment: told at once (once a second report agrees, before press 4)
    told = _game(PressTracker(increment_ms=5_000), [5_000, 5_000, 125_000] + [5_000] * 6)
    assert [number for number, _ in told] == [4] and "set by hand" in told[0][1].text
    assert told[0][1].t < 11.0  # the reports of the thinking after press 3 (at 8.5 s)


def test_a_rise_at_a_sides_last_press_is_told_when_the_recording_ends() -> None:
    # the rise waits for that side's next press to say whether it was set by hand or is the clock's
    # increment; at the game's last press there is none, and it was never told at all
    tracker = PressTracker(increment_ms=5_000)
    told = _game(tracker, [5_000] * 6 + [25_000, 5_000])
    assert told == []  # held: press 7 is red's last (black's press 8 the game's)
    untold = tracker.rise_untold()
    assert len(untold) == 1 and untold[0].kind == TIMES_CHANGED and "set by hand" in untold[0].text
    assert "red's last press heard" in untold[0].text and "from 5:0" in untold[0].text
    assert untold[0].t < 21.0  # dated when the rise came (press 7 at 20.5 s), not when the recording ended
    assert tracker.rise_untold() == []  # told once
    assert PressTracker(increment_ms=5_000).rise_untold() == []
    # the serial link queues it with a held press as the recording ends (LiveClock.stop)
    link = SerialClockLink("fake", make_protocol("dgt"))
    link.protocol.tracker.increment_ms = 5_000
    _game(link.protocol.tracker, [5_000] * 6 + [25_000, 5_000])
    link.release_held()
    (queued,) = list(link.items.queue)
    assert isinstance(queued, ClockNotice) and queued.kind == TIMES_CHANGED and "last press heard" in queued.text


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.parametrize("name", ["game_short", "game_faults"])
def test_the_clock_logs_of_whole_games_show_no_time_fault(name: str) -> None:
    # game_faults holds a press without a move and a move without a press: no fault of the times
    presses = load_clock_log(FIXTURES / f"{name}.clock.jsonl").presses
    assert len(presses) >= 8 and log_time_faults(presses) == ([], [])


def test_a_logged_press_with_times_no_clock_can_show_is_a_line_written_wrong() -> None:
    # a tester's log: red had 0:00 left at one press and 15:12 again at the next, taken without a word
    presses = load_clock_log(FIXTURES / "game_short.clock.jsonl").presses
    broken = [*presses[:4], replace(presses[4], red_ms=1), *presses[5:]]
    (fault,) = log_time_faults(broken).faults
    assert (fault.kind, fault.t, fault.side) == (LOG_DAMAGED, presses[4].t, presses[4].side)
    assert "red 0:00" in fault.text and "not to be trusted" in fault.text


def test_logged_times_set_anew_by_hand_are_told_once_where_they_changed() -> None:
    presses = load_clock_log(FIXTURES / "game_short.clock.jsonl").presses
    reset = [*presses[:5], *(replace(press, red_ms=press.red_ms + 437_000) for press in presses[5:])]
    (fault,) = log_time_faults(reset).faults
    assert (fault.kind, fault.t) == (TIMES_CHANGED, presses[5].t) and "set by hand" in fault.text
    # the same change at the last press: nothing after it tells a written-wrong line from a reset
    last = [*presses[:-1], replace(presses[-1], black_ms=presses[-1].black_ms + 437_000)]
    assert [fault.kind for fault in log_time_faults(last).faults] == [TIMES_CHANGED]


@pytest.mark.parametrize("base_ms, increment_ms", [(5_400_000, 30_000), (900_000, 10_000), (300_000, 0)])
def test_a_log_of_moves_slower_and_faster_than_the_increment_shows_no_time_fault(base_ms: int,
                                                                                  increment_ms: int) -> None:
    # a reviewer: at 5400+30 a fast move after slow ones read as the clock set by hand (4-31 false
    # alerts a game): what a press added was taken without the time its move ran
    import random

    rng = random.Random(base_ms + increment_ms)
    left, t, side, presses = {"red": base_ms, "black": base_ms}, 0.0, "red", []
    for _ in range(60):
        spent = rng.uniform(2.0, 45.0)
        t += spent
        left[side] += increment_ms - round(spent * 1000)
        presses.append(ClockPress(round(t, 3), side, left["red"], left["black"]))
        side = "black" if side == "red" else "red"
    assert log_time_faults(presses) == ([], [])
    odd = presses[30]
    broken = [*presses[:30], replace(odd, red_ms=1) if odd.side == "red" else replace(odd, black_ms=1), *presses[31:]]
    assert [fault.kind for fault in log_time_faults(broken).faults] == [LOG_DAMAGED]


def test_lines_missing_from_a_log_are_presses_lost_not_times_written_wrong() -> None:
    # an arbiter tester deleted the presses of plies 3 and 4: both moves were blamed on the players, and
    # ply 5's good line was called written wrong
    presses = load_clock_log(FIXTURES / "game_short.clock.jsonl").presses
    gappy = [*presses[:2], *presses[4:]]
    assert log_time_faults(gappy) == ([], [(presses[1].t, presses[4].t)])
