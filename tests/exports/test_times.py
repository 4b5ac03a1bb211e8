"""Move times and time used with extra clock presses (a press without a move, an arbiter's presses
around a restoration, a press that changed nothing, a lost press): a move took the time from the
press that started the mover's clock to the press that completed it, and time used is what the
clock shows; the PGN, the text record and the PDF all say the same."""

from __future__ import annotations

from dataclasses import replace

import pytest

from recorder.events import (
    ClockAlert,
    ClockPressed,
    Event,
    MoveRecorded,
    PositionRestored,
    RecordingStarted,
    event_from_json,
    event_to_json,
)
from recorder.exports import pdf as pdf_module
from recorder.exports.pgn import export_pgn, read_clocks
from recorder.exports.text import export_text
from recorder.exports.times import (
    clock_text,
    clock_time_control,
    move_times,
    time_control_disagrees,
    time_control_of,
    time_used,
)
from recorder.scoresheet import rebuild
from recorder.store import GameInfo
from rules import START_FEN, Move, Position, format_move, read_pgn

BASE, INC = 900_000, 10_000
INFO = GameInfo(red="甲", black="乙", time_control="900+10")
MOVES = ["h2e2", "h9g7", "h0g2", "i9h9", "c3c4", "g6g5", "b0c2", "b9c7", "b2b4", "g9e7", "i0h0", "a9a8"]


class _Clock:
    """A Fischer clock (red's time runs from t = 0): each press gives both times after it."""

    def __init__(self) -> None:
        self.left = {"red": BASE, "black": BASE}
        self.running, self.since = "red", 0.0
        self.ran = {"red": 0, "black": 0}  # how long each side's time has run, to the press

    def press(self, t: float, side: str, ply: int | None) -> ClockPressed:
        spent = round((t - self.since) * 1000)
        effective = side == self.running
        if effective:
            self.left[side] += INC - spent
            self.ran[side] += spent
            self.running, self.since = ("black" if side == "red" else "red"), t
            times = self.left
        else:
            times = {**self.left, self.running: self.left[self.running] - spent}
        return ClockPressed(t, side, times["red"], times["black"], ply, effective)


def _faults_game() -> tuple[list[Event], _Clock]:
    """Twelve plies like tests/fixtures/game_faults: presses without a move after ply 5, a move
    without a press (ply 7) and a press that changed nothing (ply 8), a press before its move was
    recorded (ply 11), and the arbiter pressing the clock round a restoration before ply 12."""
    clock = _Clock()
    events: list[Event] = [RecordingStarted(0.0, "cam", START_FEN)]
    position = Position.from_fen(START_FEN)
    # ply: (time the move was recorded, time of its press)
    plan = {1: (4.7, 5.027), 2: (9.8, 10.337), 3: (13.5, 13.97), 4: (18.2, 18.742), 5: (21.9, 22.295),
            6: (28.9, 29.084), 7: (32.6, None), 8: (36.3, 36.566), 9: (40.4, 40.737), 10: (45.9, 46.486),
            11: (50.6, 50.43), 12: (63.0, 63.4)}
    for ply, text in enumerate(MOVES, 1):
        move = Move.from_iccs(text)
        side, chinese, before = position.side_to_move, format_move(position, move, "chinese"), position
        position = position.play(move)
        t, pressed = plan[ply]
        if ply == 6:  # black, then red, press with no move on the board
            events += [clock.press(23.582, "black", None), clock.press(25.384, "red", None)]
        if ply == 12:  # black presses without a move, the arbiter restores and gives black the clock back
            events.append(clock.press(55.0, "black", None))
            events.append(PositionRestored(57.0, 11, before.fen()))
            events.append(clock.press(58.2, "red", None))
        if ply == 11 and pressed is not None:  # pressed, then recorded with the press's times
            press = clock.press(pressed, side, None)
            events += [press, MoveRecorded(t, ply, text, chinese, side, position.fen(), 1.0, t - 0.1,
                                           press.red_ms, press.black_ms)]
            continue
        events.append(MoveRecorded(t, ply, text, chinese, side, position.fen(), 1.0, t - 0.1))
        if pressed is not None:
            events.append(clock.press(pressed, side, ply))
    return [event_from_json(event_to_json(event)) for event in events], clock


def test_a_move_took_the_time_from_the_press_that_started_its_clock() -> None:
    events, _ = _faults_game()
    game = rebuild(events)
    assert not game.plies[7].press.effective  # type: ignore[union-attr]
    spent = move_times(game, INFO.time_control)
    assert spent[0] == 5027  # the first move: from the start of the clock (base - left + increment)
    assert spent[1:5] == [5310, 3633, 4772, 3553]
    assert spent[5] == 3700  # black's clock started with red's press without a move, not at ply 5
    assert spent[6] is None  # red did not press
    assert spent[7] is None  # black's press changed nothing: black's clock never ran
    assert spent[8] is None  # red's clock ran since ply 6: over plies 7, 8 and 9, not this one alone
    assert spent[9] == 5749
    assert spent[10] == 3944  # its press came before the move was recorded
    assert spent[11] == 5200  # from the arbiter's press that gave black the clock back
    assert move_times(game)[1:] == spent[1:] and move_times(game)[0] is None  # no base: the first is unknown
    # a time control that cannot be this clock's (a 15-minute clock recorded with --tc 5400+30): the
    # first move is not given as 75 minutes; the others come from the presses as before
    wrong = move_times(game, "5400+30")
    assert wrong[0] is None and wrong[1:] == spent[1:]
    first = game.plies[0].press
    assert first is not None and time_control_disagrees("900+10", first, "red") is None
    told = time_control_disagrees("5400+30", first, "red")
    assert told is not None and "red 0:15:04 after the first move" in told and "1:30:00" in told
    assert time_control_disagrees("300", first, "red") is not None  # more left than a 5-minute start


def test_time_used_is_what_the_clock_shows() -> None:
    events, clock = _faults_game()
    used = time_used(rebuild(events), INFO.time_control)
    assert used == clock.ran  # every second each clock ran, presses without a move included
    assert time_used(rebuild(events)) == {"red": None, "black": None}  # no base time: cannot be told


@pytest.mark.parametrize("lost", [(3,), (4,), (3, 4), (9, 10), (2, 3, 4), (2, 3, 4, 5), (9, 10, 11)])
def test_time_used_counts_the_increments_of_presses_the_line_lost(lost: tuple[int, ...]) -> None:
    """A tester found time used short by one increment for each press the clock's line lost (the
    press flipped the clock all the same); a press lost, or a pair, shows in the next press's times,
    and the moves made meanwhile tell how many more (another tester's line, silent over three
    moves, left a side 10 s short)."""
    events, clock = _faults_game()
    heard = [e for e in events if not (isinstance(e, ClockPressed) and e.ply in lost)]
    assert time_used(rebuild(heard), INFO.time_control) == clock.ran


def test_time_used_is_not_told_once_the_clock_was_set_again() -> None:
    # tester 16: after a restarted clock the sheet still gave base + increments - time left, 22 s off
    events, _ = _faults_game()
    t = max(e.t for e in events) + 1
    reset = ClockAlert(t, "clock_times_changed", (), "21.4", "the clock's times changed with no press", len(MOVES), "")
    assert time_used(rebuild(events + [reset]), INFO.time_control) == {"red": None, "black": None}
    assert "Time used" not in export_text(events + [reset], INFO)


def test_pgn_text_and_pdf_say_the_same_times(monkeypatch: pytest.MonkeyPatch) -> None:
    events, clock = _faults_game()
    marks = read_clocks(read_pgn(export_pgn(events, INFO))[0])
    assert [m.emt_ms for m in marks] == [5000, 5000, 4000, 5000, 4000, 4000, None, None, None, 6000, 4000, 5000]
    expected = f"red {clock_text(clock.ran['red'])}, black {clock_text(clock.ran['black'])}"
    assert f"Time used:    {expected}" in export_text(events, INFO)
    drawn: list[str] = []
    real = pdf_module._Sheet.text_cell

    def spy(self: pdf_module._Sheet, x: float, y: float, w: float, h: float, text: str, **kwargs: object) -> None:
        real(self, x, y, w, h, text, **kwargs)  # type: ignore[arg-type]
        drawn.append(text.strip())

    monkeypatch.setattr(pdf_module._Sheet, "text_cell", spy)
    pdf_module.scoresheet_pdf(events, INFO)
    assert f"红方 {clock_text(clock.ran['red'])}" in drawn and f"黑方 {clock_text(clock.ran['black'])}" in drawn


def test_without_presses_the_clock_differences_are_used() -> None:
    events, _ = _faults_game()
    pressed = {e.ply: e for e in events if isinstance(e, ClockPressed) and e.ply is not None}
    moves = []  # a game read from PGN: clock times on the moves, no presses
    for event in events:
        if isinstance(event, MoveRecorded):
            press = pressed.get(event.ply)
            times = (press.red_ms, press.black_ms) if press else (event.red_ms, event.black_ms)
            moves.append(MoveRecorded(event.t, event.ply, event.iccs, event.chinese, event.side, event.fen_after,
                                      1.0, None, *times))
    game = rebuild([events[0], *moves])
    assert not game.presses
    spent = move_times(game, INFO.time_control)
    assert spent[:5] == [5027, 5310, 3633, 4772, 3553] and spent[6] is None
    # time used is the clock's account, the base and an increment a move less the last time shown: the
    # sum of the move times lost ply 8's (ply 7 has no clock time to count it from)
    used = time_used(game, INFO.time_control)
    for side in ("red", "black"):
        own = [entry for entry in game.plies if entry.side == side]
        last = max(index for index, entry in enumerate(own) if entry.clock_ms is not None)
        assert used[side] == BASE + INC * (last + 1) - (own[last].clock_ms or 0)
    summed = sum(s for s, p in zip(spent, game.plies, strict=True) if s is not None and p.side == "red")
    assert (used["red"] or 0) > summed


def test_a_time_control_the_clock_contradicts_is_told_and_no_time_used_comes_of_it() -> None:
    # a tester's --tc 900+5 on a clock running +10: every move gained 5 s, and the sheet said 0:00:00
    from recorder.exports.times import clock_contradicts, parse_pgn_time_control

    events, clock = _faults_game()
    game = rebuild(events)
    base, increment = parse_pgn_time_control(INFO.time_control) or (0, 0)
    assert clock_contradicts(game, INFO.time_control) is None
    short = f"{base // 1000}+{increment // 2000}"  # half the increment
    told = clock_contradicts(game, short)
    assert told is not None and f"more than the time control {short} can give" in told
    assert time_used(game, short) == {"red": None, "black": None}
    assert "Time used" not in export_text(events, GameInfo(time_control=short))
    assert clock_contradicts(game, f"{base // 1000 + 600}+{increment // 1000}") is None  # more time: not impossible


def test_a_far_longer_time_control_gives_no_time_used() -> None:
    # a player tester: a 15-minute game that took an event's 5400+30 had "Time used red 1:21:27" on
    # its sheet (75 minutes put on move one); the first press says the control cannot be the clock's
    from recorder.exports.times import clock_contradicts

    events, _ = _faults_game()
    game = rebuild(events)
    told = clock_contradicts(game, "5400+30")
    assert told is not None and "after the first move" in told
    assert time_used(game, "5400+30") == {"red": None, "black": None}
    assert "Time used" not in export_text(events, GameInfo(time_control="5400+30"))


def test_without_a_time_control_given_the_clocks_own_setting_is_read_from_its_presses() -> None:
    # a finding left open: with no --tc the PGN had no TimeControl, the PDF's box was empty and no time
    # used was told, while the clock's presses showed 15 minutes and 10 s a move all along
    events, clock = _faults_game()
    game = rebuild(events)
    assert clock_time_control(game) == "900+10"
    assert time_control_of(game, "") == ("900+10", True) and time_control_of(game, "5400") == ("5400", False)
    text = export_text(events, GameInfo())
    assert "Time control: 900+10 (15 min + 10 s a move, read from the clock)" in text
    assert pdf_module._time_control_box(game, "") == "15′+10″ (clock)"
    assert f"Time used:    red {clock_text(clock.ran['red'])}, black {clock_text(clock.ran['black'])}" in text
    read = read_pgn(export_pgn(events, GameInfo()))[0]
    assert read.headers["TimeControl"] == "900+10" and read_clocks(read)[0].emt_ms == 5000  # the first move too


def test_a_clock_setting_is_not_read_where_the_presses_cannot_tell_it() -> None:
    events, _ = _faults_game()
    lost = [e for e in events if not (isinstance(e, ClockPressed) and e.ply == 3)]  # a press lost early
    t = max(e.t for e in events) + 1
    reset = ClockAlert(t, "clock_times_changed", (), "21.4", "the clock's times changed with no press", len(MOVES), "")
    odd_base = [replace(e, black_ms=e.black_ms + 3_500) if isinstance(e, ClockPressed) else e for e in events]
    # red gained 4 s more at one press (no one increment), or black's stopped time moved
    uneven = [replace(e, red_ms=e.red_ms + 4_000) if isinstance(e, ClockPressed) and e.ply == 3 else e for e in events]
    moved = [replace(e, red_ms=e.red_ms - 4_000) if isinstance(e, ClockPressed) and e.ply == 2 else e for e in events]
    for case in (lost, events + [reset], odd_base, uneven, moved):
        assert clock_time_control(rebuild(case)) == ""
    assert "Time control" not in export_text(lost, GameInfo())


def test_a_time_control_is_said_in_words_on_the_sheets() -> None:
    # a player tester: the sheet's header said "900+10", where players write 15+10
    from recorder.exports.times import time_control_words

    assert [time_control_words(tc) for tc in ("5400+30", "900", "40/7200:1800+30", "*180", "?", "-", "90 min")] == [
        "90 min + 30 s a move", "15 min", "40 moves in 120 min, then 30 min + 30 s a move", "3 min a move", "", "", ""]
    events, _ = _faults_game()
    assert "Time control: 900+10 (15 min + 10 s a move)" in export_text(events, INFO)
    assert pdf_module._time_control_box(rebuild(events), "900") == "15′ ≠ clock"
    assert pdf_module._time_control_box(rebuild(events), "1200+10") == "20′+10″"  # more time: not impossible
    assert pdf_module._time_control_box(rebuild(events), "40/7200:1800") == "40/7200:1800"


def test_a_time_control_the_clock_contradicts_is_said_so_on_the_stored_sheets() -> None:
    # a finding left open: a wrong --tc was warned of while recording, but the stored sheets gave it as
    # the game's with no word; and a sandglass control (*30) on a 90-minute clock was taken in silence
    from recorder.exports.times import clock_contradicts

    events, _ = _faults_game()
    game = rebuild(events)
    assert "Time control: 5400+30 (90 min + 30 s a move; but the clock ran 900+10)" in export_text(
        events, GameInfo(time_control="5400+30"))
    assert pdf_module._time_control_box(game, "5400+30") == "90′+30″ ≠ clock"
    told = clock_contradicts(game, "*30")
    assert told is not None and "*30 gives 0:00:30 a move" in told
    assert "Time control: *30 (30 s a move; but the clock ran 900+10)" in export_text(events, GameInfo(time_control="*30"))
    assert clock_contradicts(game, "*1200") is None  # 20 minutes a move: nothing the clock showed exceeds it
    # a reviewer: time an arbiter added by hand (the clock set again) is no contradiction of a sandglass
    later = [e for e in events if not (isinstance(e, ClockPressed) and e.ply == 1)]  # recorded from ply 2 on
    assert clock_contradicts(rebuild(later), "*30") is not None
    t = max(e.t for e in events) + 1
    reset = ClockAlert(t, "clock_times_changed", (), "21.4", "the clock's times changed with no press", len(MOVES), "")
    assert clock_contradicts(rebuild([*later, reset]), "*30") is None


def test_a_clock_with_a_second_period_is_not_read_as_its_first() -> None:
    # a reviewer: a 40/7200:1800 clock read as 7200+0, which its own later times contradict
    events: list[Event] = [RecordingStarted(0.0, "cam", START_FEN)]
    shuttle = ["h0g2", "h9g7", "g2h0", "g7h9"]  # horses out and back: legal for as long as it takes
    position, left, t = Position.from_fen(START_FEN), {"red": 7_200_000, "black": 7_200_000}, 0.0
    for ply in range(1, 101):
        move = Move.from_iccs(shuttle[(ply - 1) % 4])
        side, chinese = position.side_to_move, format_move(position, move, "chinese")
        position = position.play(move)
        t += 60.0
        left[side] -= 60_000
        if ply in (79, 80):  # the 40th move of each side: the second period's half hour is added
            left[side] += 1_800_000
        events += [MoveRecorded(t, ply, move.iccs, chinese, side, position.fen(), 1.0, t - 0.1),
                   ClockPressed(t + 0.2, side, left["red"], left["black"], ply, True)]
    game = rebuild(events)
    assert clock_time_control(game) == "" and "Time control" not in export_text(events, GameInfo())
    assert clock_time_control(rebuild(events[:2 * 78 + 1])) == "7200+0"  # before the period: no telling


def test_time_used_says_where_it_stops_when_the_clock_went_unheard_before_the_end() -> None:
    # a tester's DGT clock was lost at move 9 of 15: the sheets gave the time used to then as the game's
    events, _ = _faults_game()
    unheard = [replace(e, red_ms=None, black_ms=None) if isinstance(e, MoveRecorded) and e.ply >= 10 else e
               for e in events if not (isinstance(e, ClockPressed) and (e.ply or 0) >= 10)]
    text = export_text(unheard, INFO)
    assert "Time used:" in text and "(to move 5 (red): no press heard after it)" in text
    assert "no press heard" not in export_text(events, INFO)
    # presses heard before their moves were recorded (a live camera's delay) name no ply: still heard
    early = [replace(e, ply=None) if isinstance(e, ClockPressed) and (e.ply or 0) >= 10 else e for e in events]
    assert "no press heard" not in export_text(early, INFO)


def test_a_move_timed_across_a_change_of_source_takes_its_time_from_the_clocks_readings() -> None:
    # a tester's game resumed from another camera: the first move after it had no [%emt], the time
    # between the sources not being the game's; the clock's own readings tell it
    from recorder.events import SOURCE_CHANGED, SourceGap

    clock = _Clock()
    events: list[Event] = [RecordingStarted(0.0, "cam", START_FEN)]
    position = Position.from_fen(START_FEN)
    pressed = [5.027, 10.337, 13.97, 18.742]
    shift = 0.0
    for ply, (text, at) in enumerate(zip(MOVES[:4], pressed, strict=True), 1):
        if ply == 3:  # the camera was replaced after ply 2: the new run's times go on 28 s later
            events.append(SourceGap(11.0, 39.0, SOURCE_CHANGED))
            shift = 28.0
        move = Move.from_iccs(text)
        side, chinese = position.side_to_move, format_move(position, move, "chinese")
        position = position.play(move)
        press = clock.press(at, side, ply)
        events += [MoveRecorded(at - 0.3 + shift, ply, text, chinese, side, position.fen(), 1.0, at - 0.4 + shift),
                   replace(press, t=at + shift)]
    spent = move_times(rebuild(events), INFO.time_control)
    assert spent == [5027, 5310, 3633, 4772]
    assert move_times(rebuild(events))[2] is None  # with no time control the increment is not known


def test_lost_presses_are_counted_from_the_times_when_a_player_also_forgot_to_press() -> None:
    """A reviewer: the line lost a press, and a player meanwhile moved without pressing; counted
    from the moves made meanwhile, each side got an increment it never had. The clocks' times tell
    the flips: one clock ran all along, less an increment each flip."""
    from recorder.exports.times import increments

    base, inc = 900_000, 10_000
    left, running, last = {"red": base, "black": base}, "red", 0.0
    heard: list[ClockPressed] = []
    given = {"red": 0, "black": 0}

    def move(t: float, side: str, press: bool, is_heard: bool = True) -> None:
        nonlocal running, last
        left[running] -= int((t - last) * 1000)
        last = t
        flipped = press and side == running
        if flipped:
            left[side] += inc
            given[side] += 1
            running = "black" if side == "red" else "red"
        if press and is_heard:
            heard.append(ClockPressed(t, side, left["red"], left["black"], effective=flipped))

    move(10, "red", True)
    move(22, "black", True, is_heard=False)  # lost on the line
    move(31, "red", False)  # forgot to press
    move(44, "black", True, is_heard=False)  # pressed a stopped clock: nothing
    move(52, "red", True)
    assert increments(heard, "red", inc) == given == {"red": 2, "black": 1}
    # three presses lost in a row (two of red's, one of black's), heard again at black's press
    left, running, last = {"red": base, "black": base}, "red", 0.0
    heard, given = [], {"red": 0, "black": 0}
    for t, side, is_heard in ((10, "red", True), (20, "black", True), (33, "red", False), (47, "black", False),
                              (58, "red", False), (71, "black", True)):
        move(t, side, True, is_heard)
    assert increments(heard, "red", inc) == given == {"red": 3, "black": 3}
