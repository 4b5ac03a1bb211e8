"""The text record and the text scoresheet carry the same notes as the PGN and the PDF
(``game_notes``): alerts, restorations, corrections, the advice for the arbiter and the game's end."""

from __future__ import annotations

from recorder.events import Event, GameEnded, MoveCorrected
from recorder.exports.pgn import export_pgn, game_notes
from recorder.exports.text import export_text
from recorder.scoresheet import rebuild, scoresheet_text
from recorder.store import GameInfo
from rules import Position, format_move
from tests.exports.game_events import game_events

MOVES = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "c6c5", "c3c4", "h7i7"]
PERPETUAL = "红方单方面长将，判负 (art. 25.1)"


def _events() -> list[Event]:
    events = game_events(MOVES, faults=True)
    stop = events.pop()  # RecordingStopped stays last
    events.append(GameEnded(stop.t - 1, len(MOVES), "0-1", "perpetual_check", "25.1", PERPETUAL, True))
    return [*events, stop]


def test_text_export_has_the_advice_and_every_note_of_the_pgn() -> None:
    events = _events()
    text = export_text(events, GameInfo(event="Open", round="2", board=1))
    assert PERPETUAL in text and "after move 5 (black): Advice, perpetual check: 红方单方面长将，判负 (art. 25.1)" in text
    assert "perpetual_check" not in text  # a sheet names the reason in words, the PGN by its code
    for _, note in game_notes(events, rebuild(events)):
        assert note in " ".join(export_pgn(events).split())  # the PGN wraps its lines at 79
    for _, note in game_notes(events, rebuild(events), sheet=True):  # moves named as the sheet numbers them
        assert note in text
    assert "after move 4 (red) restored" in text and "after ply 7 restored" in " ".join(export_pgn(events).split())
    assert text.count(PERPETUAL) == 1  # in the notes only, not again under the moves


def test_scoresheet_text_shows_the_advice_and_the_end() -> None:
    events = _events()
    sheet = scoresheet_text(rebuild(events))
    assert f"after move 5 (black): arbiter's ruling needed (perpetual check, art. 25.1, suggests 0-1): {PERPETUAL}" in sheet
    assert PERPETUAL not in scoresheet_text(rebuild(events), verdicts=False)


def _added_after_the_last(before_stop: float, at: str) -> tuple[list[Event], MoveCorrected, Event]:
    """The events of MOVES without their last (the stop, returned apart) and a ply 11 Zhang added
    ``before_stop`` seconds before it."""
    events = game_events(MOVES)
    stop = events.pop()
    position = Position.start()
    for iccs in MOVES:
        position = position.play(iccs)
    extra = position.legal_moves()[0]
    added = MoveCorrected(stop.t - before_stop, 11, extra.iccs, format_move(position, extra, "chinese"), position.side_to_move,
                          position.play(extra).fen(), 1.0, None, None, None, False, "Zhang", "", at)
    return events, added, stop


def test_a_move_added_after_the_last_is_worded_as_added_everywhere() -> None:
    events, added, stop = _added_after_the_last(1, "2026-01-01T00:00:00Z")
    events += [added, stop]
    sentence = f"Zhang: ply 11 added by the arbiter: {added.iccs} ({added.chinese})"
    assert sentence in export_pgn(events)  # read back by the import
    assert sentence.replace("ply 11", "move 6 (red)") in export_text(events)
    assert ", was" not in export_text(events)


def test_equipment_trouble_is_told_apart_from_fouls_and_the_arbiters_notes_are_kept() -> None:
    # a tester's exports listed a camera outage under fouls, dropped the arbiter's note on an alert,
    # and left moves without times unexplained
    from recorder.events import Alert, AlertAcknowledged, ClockAlert, ClockNoted, SourceGap

    events = game_events(MOVES)
    stop = events.pop()
    events += [Alert(40.0, "camera_lost", (), "", "the camera gave no picture from 40.0 s", 10),
               SourceGap(40.0, 55.5, "no frame for 3.0 s", 4),
               ClockAlert(56.0, "move_without_press", (), "6", "ply 10 by black was made but the clock was not "
                          "pressed", 10, "black"),
               ClockNoted(57.0, "clock_connected", "clock connected on /dev/ttyUSB0 (dgt)"),
               ClockNoted(58.0, "clock_connected", "clock back on /dev/ttyUSB0 after a 16.4 s gap"),
               ClockNoted(59.0, "press_unheard", "ply 10 by black: no clock press heard", "black", 10)]
    events.append(AlertAcknowledged(60.0, len(events) - 3, "move_without_press", "Zhang Wei",
                                    "press made during the camera gap; checked"))
    events.append(AlertAcknowledged(61.0, 1 + len(game_events(MOVES)) - 1, "camera_lost", "Arbiter Liu", "cable"))
    events.append(stop)
    notes = [text for _, text in game_notes(events, rebuild(events))]
    assert "equipment camera_lost: the camera gave no picture from 40.0 s" in notes
    assert "camera: no picture from 0:00:40.0 to 0:00:55.5 of the recording (no frame for 3.0 s)" in notes
    assert any(n.startswith("alert move_without_press (art. 6)") for n in notes)  # a player's matter stays an alert
    assert "arbiter Zhang Wei on the move_without_press alert: press made during the camera gap; checked" in notes
    assert "Arbiter Liu on the camera_lost alert: cable" in notes  # not "arbiter Arbiter Liu" (tester 15)
    assert "clock: clock back on /dev/ttyUSB0 after a 16.4 s gap" in notes
    assert "clock: ply 10 by black: no clock press heard" in notes
    assert not any("clock connected on" in n for n in notes)  # the clock answering at the start is no news
    text = export_text(events, GameInfo())
    assert all(n in text for _, n in game_notes(events, rebuild(events), sheet=True))
    # the sheet says it in words, and tells the equipment's troubles from the players' matters
    assert "Camera lost (equipment): the camera gave no picture from 40.0 s" in text
    assert "Move without clock press: ply 10 by black was made but the clock was not pressed (art. 6)" in text
    assert "arbiter Zhang Wei on the move without clock press alert: press made during the camera gap" in text
    assert "camera_lost" not in text and "move_without_press" not in text


def test_notes_name_the_round_as_the_scoresheet_numbers_it_for_a_game_begun_from_a_position() -> None:
    from recorder.exports.text import round_of

    assert (round_of(3), round_of(4)) == ("after move 2 (red)", "after move 2 (black)")
    later = Position.from_fen("2Rrka3/4a4/6n2/8p/p1C6/2P6/c3cp2P/N3C4/4N4/2BAKAB2 w - - 18 31")
    assert (round_of(1, later), round_of(2, later), round_of(3, later)) == (
        "after move 31 (red)", "after move 31 (black)", "after move 32 (red)")
    black_first = Position.from_fen("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 5")
    assert (round_of(1, black_first), round_of(2, black_first)) == ("after move 5 (black)", "after move 6 (red)")


def test_a_sheet_says_when_the_arbiter_corrected_a_move_and_who_marked_the_result() -> None:
    # an arbiter tester: the sheets named who corrected a move but not when, and the result an
    # arbiter marked as "end (arbiter): ..." with no name. The PGN keeps its notes as they were.
    from recorder.events import ResultMarked

    events, added, stop = _added_after_the_last(2, "2026-01-01T18:23:41Z")
    first = ResultMarked(stop.t - 1.6, 11, "0-1", "arbiter", "", "red lost on time", False, by="Liu",
                         at="2026-01-01T18:31:00Z")
    reopened = ResultMarked(stop.t - 1.3, 11, None, "arbiter", "", "the flag was a clock fault", False, by="Wu",
                            at="2026-01-01T18:35:10Z")
    marked = ResultMarked(stop.t - 1, 11, "1-0", "arbiter", "", "black resigned", False, by="Liu",
                          at="2026-01-01T18:40:02Z")
    events += [added, first, reopened, marked, stop]
    text = export_text(events)
    # the results marked and reopened before the one that stands: the sheet keeps their history
    assert "arbiter Liu: result 0-1 marked: red lost on time (18:31 UTC)" in text
    assert "arbiter Wu: result reopened (*): the flag was a clock fault (18:35 UTC)" in text
    assert f"Zhang: move 6 (red) added by the arbiter: {added.iccs} ({added.chinese}) (18:23 UTC)" in text
    assert "End: black resigned (marked by Liu, 18:40 UTC)" in text
    pgn = export_pgn(events)
    assert "18:23" not in pgn and "marked by" not in pgn  # the PGN reads back as it was written


def test_a_result_marked_with_an_article_and_no_words_still_says_how_and_who() -> None:
    # an arbiter tester: `edit --result 1-0 --article 4.1.12 --by Arb` left "Result: 1-0" on the
    # sheet, "无 none" in the PDF's notes and nothing in the PGN: not how it ended, nor who marked it
    from recorder.events import ResultMarked

    events, _, stop = _added_after_the_last(2, "2026-01-01T18:23:41Z")
    marked = ResultMarked(stop.t - 1, 11, "1-0", "arbiter", "4.1.12", "", False, by="Arb", at="2026-01-01T18:40:02Z")
    text = export_text(events + [marked, stop])
    assert "Result:       1-0 (art. 4.1.12)" in text
    assert "End: result 1-0 marked (art. 4.1.12) (marked by Arb, 18:40 UTC)" in text
    assert "end (arbiter, art. 4.1.12): result 1-0 marked}" in " ".join(export_pgn(events + [marked, stop]).split())


def test_a_sheet_says_who_acknowledged_an_alert_without_a_note() -> None:
    # an arbiter tester: an alert acknowledged with no note was on the sheet as if no one had dealt with it
    from recorder.events import Alert, AlertAcknowledged

    events = game_events(MOVES)
    stop = events.pop()
    events.append(Alert(40.0, "piece_displaced", ("e3",), "", "the soldier on e3 stands off its point", 10))
    alert_seq = len(events)
    events.append(GameEnded(41.0, 10, "0-1", "perpetual_check", "25.1", PERPETUAL, True))
    advice_seq = len(events)
    events += [AlertAcknowledged(42.0, alert_seq, "piece_displaced", "Zhang", "", "2026-01-01T18:05:00Z"),
               AlertAcknowledged(43.0, advice_seq, "perpetual_check", "Liu", "", "2026-01-01T18:06:30Z"), stop]
    text = export_text(events)
    assert "the soldier on e3 stands off its point (acknowledged by Zhang, 18:05 UTC)" in text
    assert f"{PERPETUAL} (acknowledged by Liu, 18:06 UTC)" in text
    assert "acknowledged" not in export_pgn(events)  # the PGN's notes read back as they were written


def test_sheet_notes_go_in_the_order_of_the_moves() -> None:
    """Notes of a clock outage are told once the clock is back, after later moves' alerts: a tester's
    sheet went "after 2. / after 3... / after 2... / after 3."; the sheet lists them by move."""
    from recorder.events import ClockNoted

    events = _events()
    stop = events.pop()
    late = [ClockNoted(stop.t - 0.5, "press_unheard", f"the press of ply {ply} may not have been heard", "red", ply)
            for ply in (3, 1)]
    events += [*late, stop]
    text = export_text(events, GameInfo())
    notes = text.split("Alerts, corrections and verdicts:\n")[1].splitlines()
    plies = [ply for ply, _ in game_notes(events, rebuild(events), sheet=True)]
    assert plies == sorted(plies) and len(notes) == len(plies)
    assert notes.index("  after move 1 (red): clock: the press of ply 1 may not have been heard") < notes.index(
        "  after move 2 (red): clock: the press of ply 3 may not have been heard")


def test_the_sheets_count_each_side_s_foul_alerts_and_say_how_the_game_ended() -> None:
    # a player tester: nothing totalled the fouls (two illegal moves lose under art. 4.1.8), and how
    # the game ended was only the last note line
    from recorder.events import ClockAlert, IllegalMoveAlert, ResultMarked
    from recorder.scoresheet import foul_alerts

    events = game_events(MOVES)
    stop = events.pop()
    events += [IllegalMoveAlert(20.0, "illegal_move", ("b0", "b3"), "2.2", "illegal move of the red horse b0b3: "
                                "the horse's leg is blocked (art. 2.2)", 2, "N", "leg_blocked", "b0b3"),
               IllegalMoveAlert(30.0, "wrong_side", ("h7", "h0"), "2.1", "black moved the black cannon h7h0 but it "
                                "is red's turn (art. 2.1)", 3, "c", "wrong_side", "h7h0"),
               ClockAlert(40.0, "press_without_move", (), "8.1.7", "red pressed the clock at 40.0 s without a move "
                          "(art. 8.1.7)", 4, "red"),
               ResultMarked(stop.t - 1, len(MOVES), "0-1", "arbiter", "4.1.12", "红方认输 resigned", False, by="Li"),
               stop]
    assert foul_alerts(rebuild(events)) == {"red": {"illegal_move": 1, "press_without_move": 1},
                                            "black": {"wrong_side": 1}}
    text = export_text(events)
    assert ("Foul alerts:  red 2 (illegal move 1, clock pressed without a move 1); black 1 (moved out of turn 1)" in text)
    assert "Illegal move of the red horse b0b3: the horse's leg is blocked (art. 2.2)" in text  # not "Illegal move: illegal move"
    # a reviewer: a game read back from its PGN keeps its alerts' words only, and counted no foul
    from recorder.store import GameStore
    from recorder.store.importer import import_pgn

    store = GameStore(":memory:")
    (game_id,) = import_pgn(store, export_pgn(events), "g.pgn").ids
    assert foul_alerts(rebuild(store.events(game_id))) == foul_alerts(rebuild(events))
    assert "Result:       0-1 (红方认输 resigned)" in text
    # a reviewer: read back from the PGN, the arbiter's reason is still the result's words (it read
    # "result marked by the arbiter"), and a PGN with a result and no words gives none ("(recorded)")
    assert "Result:       0-1 (红方认输 resigned)" in export_text(store.events(game_id))
    (bare,) = import_pgn(store, '[Event "x"]\n[Result "1-0"]\n\n1. h2e2 h9g7 1-0\n', "bare.pgn").ids
    assert "Result:       1-0\n" in export_text(store.events(bare))


def test_a_sheet_names_an_alert_s_squares_unless_its_words_do() -> None:
    from recorder.events import Alert
    from recorder.exports.pgn import alert_sentence

    named = Alert(1.0, "board_disturbed", ("c2", "c3"), "5.9", "the red horse c2c3 lies off its point", 3)
    assert alert_sentence(named) == "Board disturbed: the red horse c2c3 lies off its point (art. 5.9)"
    unnamed = Alert(1.0, "two_moves", ("a0", "a1"), "", "two moves were made between still views", 3)
    assert alert_sentence(unnamed) == "Two moves at once (a0 a1): two moves were made between still views"
    later = Alert(1.0, "board_disturbed", ("e2",), "", "note e25: something else", 3)  # not e2
    assert alert_sentence(later).startswith("Board disturbed (e2): ")


def test_the_chinese_sheet_opens_each_alert_and_advice_with_the_rules_own_title() -> None:
    # the PDF is a Chinese form: an arbiter there read only English notes ("Clock pressed without a move: ...")
    from recorder.events import Alert, GameEnded, IllegalMoveAlert
    from recorder.exports.pgn import alert_sentence, ended_comment

    press = Alert(1.0, "press_without_move", (), "8.1.7", "black pressed the clock without a move", 3)
    assert alert_sentence(press, chinese=True) == \
        "未走棋先按钟 Clock pressed without a move: black pressed the clock without a move (art. 8.1.7)"
    assert alert_sentence(press) == "Clock pressed without a move: black pressed the clock without a move (art. 8.1.7)"
    horse = IllegalMoveAlert(1.0, "illegal_move", ("b0", "b3"), "2.2", "illegal move of the red horse b0b3: blocked", 3)
    assert alert_sentence(horse, chinese=True).startswith("违反行棋规定 Illegal move of the red horse b0b3")
    later = Alert(1.0, "kind_from_a_later_version", (), "", "something", 3)  # no title: the English stands alone
    assert alert_sentence(later, chinese=True) == alert_sentence(later) == "Kind from a later version: something"
    fouls = GameEnded(2.0, 18, "1-0", "three_fouls", "4.1.10", "black's third foul", advisory=True)
    assert ended_comment(fouls, sheet=True, chinese=True).startswith("三次犯规，判负 Advice, third foul: loses: ")
    assert ended_comment(fouls, sheet=False, chinese=True) == ended_comment(fouls)  # the PGN keeps its codes


def test_a_game_decided_by_the_rules_says_how_in_a_few_words_and_the_article_once() -> None:
    # a new user: "Result: 1-0 (黑方被将死…(第3.2条、第4.1.1条)。 Black is checkmated … (art. 3.2, 4.1.1).)" and
    # the same sentence again in the end note, there followed by "(art. 4.1.1)" a third time
    events: list[Event] = game_events(["h2e2", "h9g7"])[:-1]
    said = "黑方被将死，红方胜（第3.2条、第4.1.1条）。 Black is checkmated: red wins (art. 3.2, 4.1.1)."
    events.append(GameEnded(events[-1].t + 1, 2, "1-0", "checkmate", "4.1.1", said, False))
    text = export_text(events)
    assert "Result:       1-0 (checkmate, art. 4.1.1)" in text
    assert text.count("Black is checkmated") == 1 and "(art. 4.1.1)" not in text


def test_a_foul_advice_on_the_sheet_names_its_fouls_as_the_sheet_numbers_moves() -> None:
    # a reviewer: the third-foul advice said "after ply 5, ... after ply 17" on sheets numbered by round
    from recorder.events import ClockAlert, IllegalMoveAlert
    from recorder.fouls import FoulTally

    moves = ["h2e2", "h9g7", "h0g2", "i9h9", "c3c4", "g6g5", "b0c2", "b9c7", "b2b4", "g9e7",
             "i0h0", "a9a8", "a0a1", "h7h5", "c2d4", "a8f8", "e2c2", "h5h4", "g0e2", "h9h8"]
    events = game_events(moves)
    alerts = [ClockAlert(30.0, "press_without_move", (), "8.1.7", "black pressed the clock without a move", 5, "black"),
              IllegalMoveAlert(60.0, "illegal_move", ("h5", "f5"), "2.2", "the black cannon cannot jump", 17, "c"),
              IllegalMoveAlert(70.0, "wrong_side", ("h4", "h2"), "2.1", "black moved out of turn", 18, "c")]
    tally = FoulTally()
    advice = [found for alert in alerts for found in tally.after([alert])]
    assert advice and "after move 3 (red), illegal move after move 9 (red), move out of turn after move 9 (black)" \
        in advice[-1].text
    events = events[:-1] + alerts + advice + events[-1:]
    notes = [text for _, text in game_notes(events, rebuild(events), sheet=True)]
    assert not [text for text in notes if "ply " in text], notes
    assert "ply " not in export_text(events).split("Alerts, corrections and verdicts:")[1]
