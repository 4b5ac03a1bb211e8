"""PGN export: tags, [%clk]/[%emt] per move, alerts and corrections as comments; written, read back and
written again it is the same; PGN from other programs (Chinese moves, GBK) loads, bad moves are reported."""

from __future__ import annotations

import pytest

from recorder.events import (
    GameEnded,
    IllegalMoveAlert,
    ResultMarked,
    corrections,
)
from recorder.exports.pgn import export_pgn, move_times, read_clocks, to_pgn_game
from recorder.scoresheet import rebuild
from recorder.store import GameInfo
from rules import Move, Position, read_pgn, write_pgn
from tests.exports.game_events import BASE_MS, INCREMENT_MS, game_events, two_take_backs

MOVES = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "c6c5", "c3c4", "h7i7", "b2b6"]
INFO = GameInfo(event="全国个人赛", site="北京", round="3", date="2026.11.30", board=7, red="许银川", black="吕钦",
                time_control="5400+30")


@pytest.mark.parametrize("notation", ["iccs", "chinese", "wxf"])
def test_written_pgn_reads_back_identically(notation: str) -> None:
    events = game_events(MOVES, faults=True, result="1/2-1/2")
    text = export_pgn(events, INFO, notation)
    (back,) = read_pgn(text)
    expected = to_pgn_game(events, INFO)
    assert [m.iccs for m in back.moves] == MOVES
    assert back.move_comments == expected.move_comments and back.comment == expected.comment
    assert back.result == "1/2-1/2" and not back.errors
    for name in ("Event", "Site", "Date", "Round", "Red", "Black", "Result", "TimeControl"):
        assert back.headers[name] == expected.headers[name]
    assert back.headers["Game"] == "Chinese Chess"
    assert back.headers["Format"] == {"iccs": "ICCS", "chinese": "Chinese", "wxf": "WXF"}[notation]
    assert write_pgn(back, notation) == text


def test_clock_comments_are_the_recorded_times() -> None:
    events = game_events(MOVES, seed=3)
    game = rebuild(events)
    (back,) = read_pgn(export_pgn(events, INFO))
    marks = read_clocks(back)
    assert [m.clk_ms for m in marks] == [p.clock_ms // 1000 * 1000 for p in game.plies if p.clock_ms]  # as the clock shows
    spent = move_times(game, INFO.time_control)
    assert spent[0] == BASE_MS - game.plies[0].clock_ms + INCREMENT_MS  # type: ignore[operator]
    assert [m.emt_ms for m in marks] == [round(s / 1000) * 1000 for s in spent if s is not None]
    # with no time control given, the clock's own setting is read from its presses (the base from the
    # first press, the increment from those after it): the same times, the first move's included
    no_control = read_pgn(export_pgn(events, GameInfo()))[0]
    assert no_control.headers["TimeControl"] == INFO.time_control
    assert read_clocks(no_control) == marks


def test_alerts_and_corrections_are_comments_at_their_move() -> None:
    events = game_events(MOVES, faults=True)
    (back,) = read_pgn(export_pgn(events, INFO, "chinese"))
    assert "alert illegal_move b0 b3 (art. 5.3)" in back.move_comments[3]
    assert "taken back: c6c5" in back.move_comments[6] and "art. 5.8" in back.move_comments[6]


def test_distinct_comments_are_separated_and_an_empty_article_is_left_out() -> None:
    events = game_events(MOVES[:10], seed=2)
    before = Position.start()
    for text in MOVES[:9]:
        before = before.play(Move.from_iccs(text))
    corrected = corrections(before, 10, [Move.from_iccs("h7i7")], "b9c7", 60.0, "arbiter")
    mate = GameEnded(61.0, 10, "1-0", "checkmate", "4.1.1", "black is mated", False)
    resigned = ResultMarked(62.0, 10, "1-0", "arbiter", "", "black resigned", False, by="arbiter")
    alert = IllegalMoveAlert(59.0, "illegal_move", ("b0", "b3"), "5.3", "turn the board or the camera", 10)
    for ended in (mate, resigned):
        (back,) = read_pgn(export_pgn([*events, alert, *corrected, ended], INFO))
        comment = back.move_comments[9]
        assert "camera; arbiter: ply 10 corrected to h7i7" in comment
        if ended is mate:
            assert "(炮8平9), was b9c7; end (checkmate, art. 4.1.1): black is mated" in comment
        else:
            assert "(炮8平9), was b9c7; end (arbiter): black resigned" in comment and "art. )" not in comment


def test_a_non_standard_start_writes_fen() -> None:
    fen = "3k5/9/9/9/9/4R4/9/9/4R4/4K4 w - - 0 1"
    text = export_pgn(game_events(["e4e6", "d9d8"], start_fen=fen), INFO, "chinese")
    assert f'[FEN "{Position.from_fen(fen).fen()}"]' in text
    (back,) = read_pgn(text)
    assert [m.iccs for m in back.moves] == ["e4e6", "d9d8"] and back.start_fen == Position.from_fen(fen).fen()


def test_pgn_from_other_programs_in_gbk_and_with_bad_moves() -> None:
    text = ('[Game "Chinese Chess"]\n[Red "胡荣华"]\n[Black "杨官璘"]\n[Result "1-0"]\n\n'
            "1. 炮二平五 马８进７ 2. 马二进三 车９平８ {好棋} 3. 车一平二 1-0\n")
    (game,) = read_pgn(text.encode("gbk"))
    assert game.encoding in ("gbk", "gb18030") and game.headers["Red"] == "胡荣华"
    assert [m.iccs for m in game.moves] == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]
    assert game.move_comments[3] == "好棋"
    (bad,) = read_pgn("1. 炮二平五 马8进7 2. 车一进九 *\n")
    assert len(bad.moves) == 2 and bad.errors and "ply 3" in bad.errors[0]


def test_notes_of_moves_taken_back_stay_where_the_record_went_back_to() -> None:
    """Two take-backs, the second further back than the first: nothing said about the moves taken
    back lands on a move played later at the same ply number."""
    from recorder.exports.text import export_text

    events = two_take_backs(MOVES)
    game = to_pgn_game(events, INFO)
    assert all(comment == "" for comment in game.move_comments[4:]), game.move_comments[4:]
    (gone_back,) = [c for c in game.move_comments[:4] if c]
    # the arbiter's note on the alert straight after it (the import gives it to the alert before it)
    assert gone_back.index("alert illegal_move") < gone_back.index("board put right") \
        < gone_back.index("position after ply 6") < gone_back.index("position after ply 4")
    assert game.move_comments.index(gone_back) == 3
    sheet = export_text(events, INFO)
    assert sheet.count("position after move") == 2 and "ply" not in sheet.split("Alerts, corrections")[1]
    # the moves taken back are numbered as the sheet numbers moves (plies 7-8 are round 4), not by ply
    taken = next(line for line in sheet.splitlines() if line.startswith("taken back (art. 5.8): "))
    assert taken.startswith("taken back (art. 5.8): 4. 马八进七, 4... 卒3进1; 3. 车一平二, 3... 马2进3, 4. ")


def test_a_press_back_before_the_first_move_is_told_before_it() -> None:
    """The clock's note on a press back made before ply 1, judged after it, stays before it, beside
    the press without a move it answers (a reviewer found it moved after ply 1: ply 0 read as none)."""
    from recorder.events import ClockAlert, ClockNoted, MoveRecorded, RecordingStarted
    from recorder.exports.pgn import notes_of

    after_one = Position.start().play(Move.from_iccs("h2e2")).fen()
    events = [RecordingStarted(0.0, "cam", Position.start().fen()),
              MoveRecorded(6.2, 1, "h2e2", "炮二平五", "red", after_one, 1.0, 6.0, 910000, 905000),
              ClockAlert(12.0, "press_without_move", (), "8.1.7", "red pressed the clock at 2.0 s", 0, "red"),
              ClockNoted(12.0, "press_back", "black pressed the clock at 3.0 s, 1.0 s after red's press", "black", 0)]
    assert [ply for ply, _ in notes_of(events)] == [0, 0]


def test_termination_says_how_the_game_ended_when_that_is_known() -> None:
    """A broadcaster's tester: the feed's PGN gave the result but not how the game ended."""
    from recorder.events import ResultMarked

    def tag(ended: GameEnded | None) -> str | None:
        events = game_events(["h2e2", "h9g7"])
        stop = events.pop()
        events += [ended, stop] if ended is not None else [stop]
        return read_pgn(export_pgn(events))[0].headers.get("Termination")

    assert tag(None) is None  # still going
    assert tag(GameEnded(30.0, 2, "1-0", "checkmate", "4.1.1", "将死", False)) == "normal"
    marked = [("21.3", "time forfeit"), ("4.1.12", "normal"), ("4.1.9", "rules infraction"),
              ("25.1", "rules infraction"), ("4.1.7", "abandoned"), ("", None), ("4.1.11", "rules infraction"),
              ("4.1.5", "rules infraction"), ("23", "rules infraction"), ("4.2.1", "normal"), ("9.9", None)]
    for article, expected in marked:
        assert tag(ResultMarked(30.0, 2, "0-1", "arbiter", article, "", False, by="A")) == expected, article
    # an arbiter tester: a draw the repetition rules give (neither side must change) broke no rule;
    # 自杀 (art. 3.4: generals facing, a general left to be taken) is one
    drawn = [("25.2", "normal"), ("26.9.4", "normal"), ("23.5.2.1", "normal"), ("4.2.3", "normal"),
             ("", "normal")]  # a broadcaster tester's agreed draw, marked with no article, had none
    for article, expected in drawn:
        assert tag(ResultMarked(30.0, 2, "1/2-1/2", "arbiter", article, "", False, by="A")) == expected, article
    assert tag(ResultMarked(30.0, 2, "0-1", "arbiter", "3.4", "", False, by="A")) == "rules infraction"
