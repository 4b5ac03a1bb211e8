"""Event log round trip, and the game rebuilt from it: moves, clock times, restorations, PGN, scoresheet."""

from __future__ import annotations

from pathlib import Path

import pytest

from recorder.commands.record import status_line
from recorder.events import (
    ClockPressed,
    EventLog,
    GameEnded,
    IllegalMoveAlert,
    MoveCorrected,
    MoveRecorded,
    PositionRestored,
    RecordingStarted,
    ResultMarked,
    event_from_json,
    event_to_json,
    read_events,
)
from recorder.exports import export_pgn
from recorder.scoresheet import rebuild, scoresheet_text
from rules import START_FEN, Move, Position, format_move, read_pgn


def _move(ply: int, iccs: str, position: Position, t: float, red_ms: int | None = None,
          black_ms: int | None = None) -> MoveRecorded:
    after = position.play(iccs)
    return MoveRecorded(t, ply, iccs, format_move(position, Move.from_iccs(iccs), "chinese"), position.side_to_move, after.fen(), 0.99, t - 0.2, red_ms, black_ms)


def _game_events() -> list:
    p0 = Position.start()
    p1 = p0.play("h2e2")
    p2 = p1.play("h9g7")
    p3 = p2.play("h0g2")
    return [
        RecordingStarted(0.0, "video.mp4", START_FEN),
        _move(1, "h2e2", p0, 3.0, 903000, 900000),
        _move(2, "h9g7", p1, 6.0),
        ClockPressed(6.3, "black", 903000, 905000, 2),
        _move(3, "h0g2", p2, 9.0),
        IllegalMoveAlert(12.0, "illegal_move", ("b9", "d8"), "2.2", "the horse's leg is blocked", 3, "n",
                         "leg_blocked", "b9d8"),
        _move(4, "i9h9", p3, 15.0),
        PositionRestored(20.0, 2, p2.fen(), ("h0g2", "i9h9")),
        _move(3, "b0c2", p2, 25.0),
    ]


def test_events_round_trip_through_json_lines(tmp_path: Path) -> None:
    events = _game_events()
    path = tmp_path / "game.events.jsonl"
    with EventLog(path) as log:
        log.extend(events)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(events)
    assert all('"type"' in line for line in lines)
    assert read_events(path) == events
    data = event_to_json(events[1])
    assert data["type"] == "MoveRecorded" and data["iccs"] == "h2e2" and data["chinese"] == "炮二平五"


def test_unknown_or_broken_events_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown event type"):
        event_from_json({"type": "Nonsense", "t": 1})
    with pytest.raises(ValueError, match="missing"):
        event_from_json({"type": "MoveRecorded", "t": 1})


def test_rebuild_applies_restorations_and_clock_times() -> None:
    game = rebuild(_game_events())
    assert game.moves == ["h2e2", "h9g7", "b0c2"]
    assert [e.iccs for e in game.corrected] == ["h0g2", "i9h9"]
    assert game.plies[0].clock_ms == 903000 and game.plies[1].clock_ms == 905000 and game.plies[2].clock_ms is None
    assert [a.kind for a in game.alerts] == ["illegal_move"]


def test_pgn_from_the_log_reads_back_with_clock_comments() -> None:
    text = export_pgn(_game_events(), notation="iccs")
    assert '[Game "Chinese Chess"]' in text and "[%clk 0:15:03]" in text
    (back,) = read_pgn(text)
    assert [m.iccs for m in back.moves] == ["h2e2", "h9g7", "b0c2"]
    chinese = export_pgn(_game_events(), notation="chinese")
    assert "炮二平五" in chinese


def test_scoresheet_in_chinese_notation_with_result() -> None:
    events = _game_events() + [GameEnded(30.0, 3, "1-0", "checkmate", "4.1.1", "黑方被将死", False)]
    sheet = scoresheet_text(rebuild(events))
    lines = sheet.splitlines()
    assert lines[0].startswith("  1. 炮二平五") and "马8进7" in lines[0]
    assert lines[1].startswith("  2. 马八进七")
    assert "1-0" in sheet and "taken back" in sheet


def test_the_recorders_own_correction_rebuilds_the_game_and_is_shown_once() -> None:
    p0 = Position.start()
    p1, wrong = p0.play("h2e2"), p0.play("h2h5")
    fixed = MoveCorrected(30.0, 1, "h2e2", "炮二平五", "red", p1.fen(), 0.97, 2.8, None, None, False, "recorder", "h2h5")
    again = MoveCorrected(30.0, 2, "h9g7", "马8进7", "black", p1.play("h9g7").fen(), 1.0, None, None, None, False,
                          "recorder", "h9g7")
    events = [RecordingStarted(0.0, "video.mp4", START_FEN), _move(1, "h2h5", p0, 3.0), _move(2, "h9g7", wrong, 6.0),
              fixed, again]
    assert rebuild(events).moves == ["h2e2", "h9g7"]
    assert status_line(again) is None  # a later ply carried over unchanged is not news
    assert "corrected by recorder (was h2h5)" in (status_line(fixed) or "")
    pgn = export_pgn(events, notation="iccs")
    assert "recorder: ply 1 corrected to h2e2 (炮二平五), was h2h5" in pgn and "was h9g7" not in pgn


def test_a_game_end_judged_on_a_move_corrected_later_is_dropped_but_the_arbiters_result_stands() -> None:
    p0 = Position.start()
    p1 = p0.play("h2e2")
    start = [RecordingStarted(0.0, "video.mp4", START_FEN), _move(1, "h2e2", p0, 3.0)]
    mate = GameEnded(3.0, 1, "1-0", "checkmate", "3.1", "red mates", False)
    fixed = MoveCorrected(9.0, 1, "b2e2", "炮八平五", "red", p0.play("b2e2").fen(), 0.97, 2.8, None, None, False,
                          "recorder", "h2e2")
    assert rebuild([*start, mate]).result == "1-0"
    assert rebuild([*start, mate, fixed]).result == "*"
    marked = ResultMarked(4.0, 1, "0-1", "resignation", "", "red resigned", False, by="arbiter")
    assert rebuild([*start, marked, fixed]).result == "0-1"
    assert rebuild([*start, mate, fixed]).moves == ["b2e2"] and p1.board != p0.play("b2e2").board


def test_a_move_the_camera_could_not_rule_out_another_for_says_so_on_the_terminal_and_round_trips() -> None:
    from dataclasses import replace

    from recorder.events import event_from_json, event_to_json

    p0 = Position.start()
    recorded = MoveRecorded(3.0, 1, "h2e2", "炮二平五", "red", p0.play("h2e2").fen(), 0.99, 2.8, rivals=("h2d2",))
    assert (status_line(recorded) or "").endswith("? not ruled out: h2d2")
    assert event_from_json(event_to_json(recorded)) == recorded
    old = event_to_json(replace(recorded, rivals=()))
    del old["rivals"]  # a log written before the field: read as no rivals
    assert event_from_json(old) == replace(recorded, rivals=())


def test_every_alert_kind_raised_in_the_code_is_in_alert_kinds() -> None:
    """ALERT_KINDS is what an imported PGN's alert sentences are checked against: a kind raised but
    missing from it would come back from a PGN as a plain comment."""
    import re
    from pathlib import Path

    from recorder.clock.model import _ALERTS
    from recorder.events import ALERT_KINDS, EQUIPMENT_KINDS

    root = Path(__file__).resolve().parents[2] / "recorder"
    raised = set()
    for path in root.rglob("*.py"):
        raised |= set(re.findall(r"(?:Alert|BoardDisturbed|ClockAlert|TwoMovesSeen|IllegalMoveAlert)\([^,()]*, *\"([a-z_]+)\"",
                                 path.read_text(encoding="utf-8")))
    raised |= {kind for kind, _ in _ALERTS.values()}
    assert len(raised) > 15 and raised <= ALERT_KINDS and EQUIPMENT_KINDS <= ALERT_KINDS


def test_every_alert_kind_and_every_reason_the_rules_give_has_words_for_people() -> None:
    """The console and the sheets name alerts and advice by KIND_TITLES, one home for the words: a
    kind left out would show as its code."""
    import re
    from pathlib import Path

    from recorder.events import ALERT_KINDS, KIND_TITLES, KIND_TITLES_ZH, kind_title

    rules = Path(__file__).resolve().parents[2] / "rules"
    reasons = set()
    for path in rules.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        reasons |= set(re.findall(r"return \"([a-z_]+)\", ", text))  # a repetition verdict's code
        reasons |= set(re.findall(r"Outcome\([^()]*?, [^()]*?, \"([a-z_]+)\"", text))
    assert {"perpetual_check", "must_change", "natural_limit", "checkmate"} <= reasons
    assert ALERT_KINDS | reasons <= set(KIND_TITLES)
    assert ALERT_KINDS | reasons <= set(KIND_TITLES_ZH)  # the PDF's Chinese form titles every one
    assert kind_title("press_without_move") == "Clock pressed without a move"
    assert kind_title("kind_from_a_later_version") == "Kind from a later version" and kind_title("") == "Alert"


def test_times_of_the_recording_read_as_a_video_player_shows_them() -> None:
    from recorder.events import recording_time

    assert recording_time(104.04) == "0:01:44.0"
    assert recording_time(10523.46) == "2:55:23.5"  # a three-hour game: not "10523.5 s"
    assert recording_time(59.96) == "0:01:00.0" and recording_time(-0.2) == "0:00:00.0"


def test_the_text_sheet_names_the_moves_as_the_pdf_does_whatever_the_store_says() -> None:
    # a reviewer: a store written before advisors and elephants were named by their file kept 前象退5
    # on the text sheet, while the PDF, which names moves from the position, said 象3退5
    from dataclasses import replace as replaced

    from recorder.events import MoveRecorded
    from tests.exports.game_events import game_events

    events = game_events(["h2e2", "h9g7", "h0g2", "i9h9"])
    old = [replaced(e, chinese="旧名") if isinstance(e, MoveRecorded) and e.ply == 2 else e for e in events]
    text = scoresheet_text(rebuild(old))
    assert "旧名" not in text and "马8进7" in text


def test_presses_without_a_move_just_before_a_clock_mismatch_are_not_counted_as_fouls() -> None:
    # an arbiter tester: a log 3 s early gave both players two presses without a move (a loss under
    # art. 4.1.9) before the recorder found the presses did not follow the board; the sheet counted them
    from recorder.events import ClockAlert
    from recorder.exports.text import export_text
    from recorder.scoresheet import foul_alerts
    from tests.exports.game_events import game_events

    def fault(ply: int, side: str) -> ClockAlert:
        return ClockAlert(ply * 5.0, "press_without_move", (), "8.1.7", f"{side} pressed the clock", ply, side)

    events = game_events(["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"])
    early = [fault(1, "red"), fault(2, "black"), fault(3, "red"), fault(4, "black"),
             ClockAlert(20.0, "clock_log_mismatch", (), "", "the clock's presses do not follow", 4, ""),
             fault(6, "black")]  # told after the mismatch: counted (the presses followed again)
    game = rebuild([*events, *early])
    assert len(game.doubtful) == 4 and foul_alerts(game) == {"red": {}, "black": {"press_without_move": 1}}
    assert "4 press(es) without a move not counted" in export_text([*events, *early])
    long_before = [fault(1, "red"), ClockAlert(80.0, "clock_log_mismatch", (), "", "presses after the video", 16, "")]
    assert foul_alerts(rebuild([*events, *long_before]))["red"] == {"press_without_move": 1}
    # the loss advised at the second press, before the mismatch was told: the sheets say it no
    # longer holds (a tester's PDF printed it as standing beside a foul box counting no such press)
    from recorder.events import GameEnded
    from recorder.fouls import SECOND_PRESS

    advised = GameEnded(15.0, 3, "0-1", SECOND_PRESS, "4.1.9", "red pressed the clock without a move a second time",
                        advisory=True)
    told = [fault(1, "red"), fault(3, "red"), advised,
            ClockAlert(20.0, "clock_log_mismatch", (), "", "the clock's presses do not follow", 4, "")]
    text = export_text([*events, *told])
    assert "a second time (art. 4.1.9) (it no longer holds" in text and "red has 0 of the 2" in text
