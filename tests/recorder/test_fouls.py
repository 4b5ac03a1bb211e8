"""Fouls counted as they are raised, and the advice when a count decides the game (art. 4.1.8-4.1.10)."""

from __future__ import annotations

from recorder.events import Alert, ClockAlert, Event, GameEnded, IllegalMoveAlert
from recorder.fouls import MOVE_RULES, SECOND_PRESS, THREE_FOULS, FoulTally, offender


def press(t: float, side: str, ply: int) -> ClockAlert:
    return ClockAlert(t, "press_without_move", (), "8.1.7", f"{side} pressed the clock without a move", ply, side)


def illegal(t: float, piece: str, ply: int, kind: str = "illegal_move") -> IllegalMoveAlert:
    return IllegalMoveAlert(t, kind, ("h2", "h5"), "2.2", "illegal move", ply, piece=piece)


def test_a_second_press_without_a_move_is_advised_as_a_loss() -> None:
    # an arbiter tester: black's second press (art. 4.1.9) came before a perpetual check, which the
    # console then offered as the only ruling needed
    tally = FoulTally()
    assert tally.after([press(10.0, "black", 3)]) == []
    assert tally.after([press(12.0, "red", 4)]) == []  # one each: nothing decided
    (advice,) = tally.after([press(31.0, "black", 8)])
    assert isinstance(advice, GameEnded) and advice.advisory
    assert (advice.result, advice.reason, advice.article, advice.ply, advice.t) == ("1-0", SECOND_PRESS, "4.1.9", 8, 31.0)
    assert "after move 2 (red) and after move 4 (black)" in advice.text and "red wins" in advice.text


def test_a_second_move_against_the_rules_and_a_third_foul_are_advised() -> None:
    tally = FoulTally()
    assert tally.after([illegal(5.0, "C", 6)]) == []
    (second,) = tally.after([illegal(9.0, "N", 9, "wrong_side")])
    assert (second.result, second.reason, second.article) == ("0-1", MOVE_RULES, "4.1.8")
    assert "illegal move after move 3 (black), move out of turn after move 5 (red)" in second.text
    (third,) = tally.after([press(20.0, "red", 12)])  # a third foul of another kind
    assert (third.result, third.reason, third.article) == ("0-1", THREE_FOULS, "4.1.10")
    assert tally.after([illegal(30.0, "k", 15)]) == []  # black's first


def test_a_third_foul_that_is_also_a_second_illegal_move_is_advised_under_4_1_10() -> None:
    # a reviewer: game_faults' black (a press, an illegal move, a move out of turn) was advised under
    # 4.1.8 with its hedge about the event's level; three fouls lose at every level
    tally = FoulTally()
    tally.after([press(10.0, "black", 3), illegal(20.0, "c", 5)])
    (advice,) = tally.after([illegal(30.0, "p", 7, "wrong_side")])
    assert (advice.reason, advice.article, advice.result) == (THREE_FOULS, "4.1.10", "1-0")


def test_a_foul_ruled_no_foul_does_not_count() -> None:
    # a reviewer: a press the arbiter ruled no foul (stored before a restart) still made the next
    # one a "second" press, a loss under 4.1.9
    from recorder.events import NO_FOUL, AlertAcknowledged

    first = press(10.0, "black", 3)
    tally = FoulTally()
    tally.seed([first, AlertAcknowledged(12.0, 1, "press_without_move", "Liu", "", ruling=NO_FOUL)])
    assert tally.after([press(30.0, "black", 8)]) == []
    live = FoulTally()  # ruled while the recorder runs: the console's ruling reaches the tally
    live.after([first])
    live.ruled(first, NO_FOUL)
    assert live.after([press(30.0, "black", 8)]) == []
    live.ruled(first, "foul")  # the ruling withdrawn: it counts again
    (advice,) = live.after([press(40.0, "black", 9)])
    assert advice.article == "4.1.10"  # its third (the first counted again, and two since)


def test_presses_another_games_clock_log_made_are_not_counted() -> None:
    tally = FoulTally()
    tally.after([press(10.0, "black", 3)])
    tally.after([Alert(11.0, "clock_log_mismatch", (), "", "the clock log is another game's", 5)])
    assert tally.after([press(30.0, "black", 14)]) == []


def test_the_press_that_reveals_another_games_clock_log_is_not_advised_as_a_loss() -> None:
    # a tester's run with another game's log: "presses no longer judged", then at once "red pressed
    # the clock without a move a second time ... loses the game", from the press told with it
    tally = FoulTally()
    assert tally.after([press(10.0, "red", 3)]) == []
    told: list[Event] = [press(57.3, "red", 11), Alert(57.3, "clock_log_mismatch", (), "", "the clock log is another game's", 11)]
    assert tally.after(told) == []
    assert tally.after([press(80.0, "red", 30)]) == []  # the presses before it are forgotten too
    # an illegal move told in the same batch before the mismatch: the press it puts in doubt is no third
    # foul (a reviewer), and the second illegal move's own loss is the one advised
    tally = FoulTally()
    assert tally.after([illegal(10.0, "R", 5)]) == [] and tally.after([press(20.0, "red", 9)]) == []
    batch: list[Event] = [illegal(30.0, "N", 13), Alert(31.0, "clock_log_mismatch", (), "", "another game's log", 13)]
    (advice,) = tally.after(batch)
    assert advice.reason == MOVE_RULES and advice.article == "4.1.8"


def test_a_resumed_game_counts_the_fouls_recorded_before_and_does_not_advise_again() -> None:
    earlier = [press(10.0, "black", 3), illegal(12.0, "c", 4), illegal(14.0, "p", 6)]
    tally = FoulTally()
    tally.seed(earlier)  # advice 4.1.8 was given by the run before
    (advice,) = tally.after([press(40.0, "black", 20)])
    assert advice.reason == SECOND_PRESS  # the fourth foul: its press is the second


def test_the_offender_of_an_alert_read_back_from_a_pgn_is_named_in_its_words() -> None:
    assert offender(Alert(1.0, "illegal_move", (), "2.2", "illegal move of the black horse b9b7")) == "black"
    assert offender(illegal(1.0, "R", 1)) == "red"
    assert offender(Alert(1.0, "illegal_move", (), "2.2", "")) == ""


def test_a_ruling_made_in_the_console_reaches_the_recording() -> None:
    from recorder.events import NO_FOUL, AlertAcknowledged
    from recorder.store.db import GameInfo, GameStore
    from recorder.store.resume import StoreRecording

    store = GameStore(":memory:")
    run = StoreRecording.open(store, "cam", GameInfo())
    alert = press(10.0, "black", 3)
    run.sink(alert)
    (seq,) = [seq for seq, event in store.events_after(run.game_id, 0) if event == alert]
    store.append(run.game_id, AlertAcknowledged(11.0, seq, alert.kind, "Liu", "", ruling=NO_FOUL))  # the console
    assert run.corrections() == [] and run.rulings == [(alert, NO_FOUL)]


def test_an_advice_names_the_fouls_by_the_set_up_games_own_move_numbers() -> None:
    from rules import Position

    start = Position.from_fen("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 40")  # black to move at move 40
    tally = FoulTally(start)
    presses = [ClockAlert(t, "press_without_move", (), "8.1.7", "pressed without a move", ply, "black")
               for t, ply in ((3.0, 0), (9.0, 3))]
    (advice,) = [found for press in presses for found in tally.after([press])]
    assert "(before the first move and after move 41 (black))" in advice.text
