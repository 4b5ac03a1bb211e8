"""The resolver on synthetic probability streams: moves, misreads, alerts, restorations, pairs, game end."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from recorder.clocklog_input import ClockPress
from recorder.events import (
    Alert,
    BoardDisturbed,
    GameEnded,
    IllegalMoveAlert,
    MoveCorrected,
    MoveRecorded,
    PositionRestored,
    TwoMovesSeen,
)
from recorder.observer import CLASSES, Observation
from recorder.resolver import Resolver
from rules import Move, Position
from rules.squares import parse_square
from tests.recorder.synthetic import drawn_view, observe_board

GAMES = Path(__file__).resolve().parents[3] / "shared" / "data" / "games_iccs.txt"


def _games(count: int) -> list[list[str]]:
    lines = GAMES.read_text(encoding="utf-8").splitlines()[:count]
    return [line.split()[1:] for line in lines]


def _moved(board: str, src: str, dst: str) -> str:
    cells = list(board)
    a, b = parse_square(src), parse_square(dst)
    cells[b], cells[a] = cells[a], "."
    return "".join(cells)


def _look(resolver: Resolver, board: str, t: float, **kwargs: object) -> list:
    """Observe ``board``; when the resolver asks for a second look, observe it again (as the observer would)."""
    events = resolver.observe(observe_board(board, t, **kwargs))  # type: ignore[arg-type]
    if resolver.wants_retry:
        events += resolver.observe(observe_board(board, t + 0.4, **kwargs))  # type: ignore[arg-type]
    return events


def _started() -> Resolver:
    """A resolver that has seen the start position once."""
    resolver = Resolver()
    resolver.observe(observe_board(Position.start().board, 0.5))
    return resolver


def _recorded(events: list) -> list[str]:
    return [e.iccs for e in events if isinstance(e, MoveRecorded)]


@pytest.mark.skipif(not GAMES.exists(), reason="shared games not present")
def test_real_games_are_recorded_move_by_move() -> None:
    for game_index, moves in enumerate(_games(3)):
        resolver = Resolver()
        position = Position.start()
        assert resolver.observe(observe_board(position.board, 0.5, seed=game_index)) == []
        for i, move in enumerate(moves):
            position = position.play(move)
            events = resolver.observe(observe_board(position.board, 1.0 + i, seed=1000 * game_index + i))
            assert _recorded(events) == [move]
            assert not [e for e in events if isinstance(e, IllegalMoveAlert | BoardDisturbed)]
        assert [m.iccs for m in resolver.game.moves] == moves


def test_move_event_carries_notation_and_confidence() -> None:
    resolver = Resolver()
    after = Position.start().play("h2e2")
    (event,) = resolver.observe(observe_board(after.board, 2.0))
    assert isinstance(event, MoveRecorded)
    assert (event.ply, event.iccs, event.chinese, event.side) == (1, "h2e2", "炮二平五", "red")
    assert event.confidence > 0.99 and event.fen_after == after.fen()


def test_one_misread_point_neither_loses_nor_invents_a_move() -> None:
    resolver = Resolver()
    start = Position.start()
    # a piece read as empty with middling confidence: no move, no alert
    assert resolver.observe(observe_board(start.board, 1.0, misread={parse_square("a0"): (".", 0.7)})) == []
    # a real move whose destination is read only half-heartedly, and an unrelated misread point
    after = start.play("b2e2")
    events = resolver.observe(observe_board(after.board, 2.0, misread={
        parse_square("e2"): ("B", 0.5), parse_square("i3"): (".", 0.6)}))
    assert _recorded(events) == ["b2e2"]


def test_hand_over_the_destination_records_nothing() -> None:
    resolver = Resolver()
    after = Position.start().play("h2e2")
    events = resolver.observe(observe_board(after.board, 1.0, covered=(parse_square("e2"), parse_square("e3"))))
    assert events == []
    assert _recorded(resolver.observe(observe_board(after.board, 2.0))) == ["h2e2"]


def test_illegal_move_alert_names_the_rule_then_the_board_resyncs() -> None:
    resolver = Resolver()
    start = resolver.game.position
    seen = _moved(start.board, "h2", "h7")  # the cannon takes the cannon without a screen
    (alert,) = _look(resolver, seen, 1.0)
    assert isinstance(alert, IllegalMoveAlert)
    assert alert.kind == "illegal_move" and alert.squares == ("h2", "h7") and alert.violation == "no_screen"
    assert resolver.desynced
    # still wrong: record nothing; the same alert is not raised again at once (the player putting it
    # right passes a hand over the board), but as a reminder while it stands
    assert _look(resolver, seen, 2.0, seed=3) == [] and resolver.game.ply == 0
    again = _look(resolver, seen, 25.0, seed=4)
    assert [a.kind for a in again] == ["illegal_move"] and resolver.game.ply == 0
    (restored,) = _look(resolver, start.board, 26.0)
    assert isinstance(restored, PositionRestored) and restored.taken_back == ()
    assert _recorded(resolver.observe(observe_board(start.play("h2e2").board, 27.0))) == ["h2e2"]


def test_a_misread_where_no_hand_came_is_no_illegal_move() -> None:
    """The cannon on h2 reads as gone while a point no hand came near (e5) misreads as a red cannon:
    a cannon cannot go h2-e5, but nothing moved near e5 either, so no illegal move is alleged (a
    glare-washed capture and a far misread made such an alert on a fresh bench video). Without touch
    information every point may have changed, and the alert stands as before."""
    seen = _moved(Position.start().board, "h2", "e5")
    near_h2 = tuple(parse_square(name) for name in ("h2", "h3", "g2", "i2", "h1"))
    events = _look(_started(), seen, 1.0, touched=near_h2)
    assert not [e for e in events if isinstance(e, IllegalMoveAlert)]
    (alert,) = _look(_started(), seen, 1.0)
    assert isinstance(alert, IllegalMoveAlert) and alert.squares == ("h2", "e5")


def test_blocked_horse_leg() -> None:
    position = Position.from_fen("4k4/4a4/9/9/9/9/9/9/9/3NK4 w - - 0 1")
    resolver = Resolver(position)
    seen = _moved(position.board, "d0", "f1")  # the leg on e0 holds the general
    (alert,) = _look(resolver, seen, 1.0)
    assert isinstance(alert, IllegalMoveAlert) and alert.violation == "leg_blocked"
    assert "leg" in alert.text and alert.article == "2.2"


@pytest.mark.parametrize("fen, src, dst, code", [
    ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e0", "d0", "flying_general"),
    ("3k5/9/9/9/9/9/9/9/3r5/4K4 w - - 0 1", "e0", "d0", "self_check"),
])
def test_a_move_that_lets_the_general_be_taken_is_told_as_losing(fen: str, src: str, dst: str, code: str) -> None:
    # an arbiter tester: 自杀 (art. 3.4) loses once let go (4.1.3), where another illegal move may be
    # a foul only (8.1.8); the alert read like a blocked horse leg
    position = Position.from_fen(fen)
    (alert,) = _look(Resolver(position), _moved(position.board, src, dst), 1.0)
    assert isinstance(alert, IllegalMoveAlert) and alert.violation == code and alert.article == "3.4"
    assert "自杀" in alert.text and "4.1.3" in alert.text


def test_wrong_side_move() -> None:
    resolver = Resolver()
    seen = _moved(Position.start().board, "h7", "e7")
    (alert,) = _look(resolver, seen, 1.0)
    assert isinstance(alert, IllegalMoveAlert) and alert.kind == "wrong_side" and alert.piece == "c"
    (restored,) = _look(resolver, Position.start().board, 2.0)
    assert isinstance(restored, PositionRestored)


def test_a_board_set_up_otherwise_than_the_position_given_is_no_move_of_a_player() -> None:
    """A tester's --fen had red's c-pawn one step on; the board, untouched since the recorder first
    saw it, was called red moving the pawn backwards on black's turn. Nothing has moved: it is the
    set-up (or the position given) that is wrong."""
    start = Position.from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR b - - 0 1")
    resolver = Resolver(start)
    every = tuple(range(90))  # the motion watch's first view: every point (it has nothing to compare with)
    events = resolver.observe(observe_board(Position.start().board, 0.2, touched=every))
    assert resolver.wants_retry
    events += resolver.observe(observe_board(Position.start().board, 0.5, touched=()))
    alerts = [e for e in events if isinstance(e, Alert)]
    assert [(a.kind, a.squares, a.article) for a in alerts] == [("unexplained", ("c3", "c4"), "1.3")]
    assert "as set up differs from the position given with --fen" in alerts[0].text
    # once something has moved, the same difference is a move again
    resolver = Resolver(start)
    _look(resolver, start.board, 0.5, touched=every)
    moved = [e for e in _look(resolver, Position.start().board, 3.0, touched=(parse_square("c3"), parse_square("c4")))
             if isinstance(e, Alert)]
    assert [a.kind for a in moved] == ["wrong_side"]


def test_knocked_piece_after_a_move_is_flagged_and_cleared() -> None:
    resolver = Resolver()
    after = Position.start().play("h2e2")
    events = _look(resolver, after.board, 1.0, misread={parse_square("g3"): (".", 0.95)})
    assert _recorded(events) == ["h2e2"]
    (disturbed,) = [e for e in events if isinstance(e, BoardDisturbed)]
    assert disturbed.kind == "board_disturbed" and disturbed.squares == ("g3",)
    (restored,) = _look(resolver, after.board, 2.0)
    assert isinstance(restored, PositionRestored) and restored.ply == 1


def test_a_point_in_a_lamps_flat_spot_is_no_sure_contradiction() -> None:
    """s2100000-clean-028: after a capture beside it, a bare corner under a lamp that leaves it a
    flat plateau without clipping read as a black cannon for two views and was raised as a piece
    that appeared. Its square shows nothing: the reading counts, but never as a disturbance."""
    after = Position.start().play("h2e2")
    bare = parse_square("g8")
    flat = np.zeros(90, dtype=bool)
    flat[[bare, parse_square("h8"), parse_square("g7")]] = True
    near = (parse_square("h2"), parse_square("e2"), bare)

    def look(spot: np.ndarray | None) -> list:
        resolver = Resolver()
        resolver.observe(observe_board(Position.start().board, 0.5))
        events = []
        for t in (1.0, 1.4, 1.8):
            view = observe_board(after.board, t, misread={bare: ("c", 0.95)}, touched=near if t == 1.0 else ())
            events += resolver.observe(replace(view, flat=spot))
        assert _recorded(events) == ["h2e2"]
        return [e.kind for e in events if isinstance(e, Alert)]

    assert look(None) == ["board_disturbed"]
    assert look(flat) == []


def test_missing_pieces_without_a_move_are_alerted_once_no_hand_can_be_holding_them() -> None:
    resolver = Resolver()
    cells = list(Position.start().board)
    cells[parse_square("a3")] = "."
    cells[parse_square("c3")] = "."
    gone = "".join(cells)
    for t in (1.0, 1.3, 3.0, 5.5):  # a player may hold a lifted piece (or a captured one) a while
        assert resolver.observe(observe_board(gone, t)) == [] and resolver.wants_retry
    (alert,) = resolver.observe(observe_board(gone, 6.1))
    assert isinstance(alert, BoardDisturbed) and alert.kind == "board_disturbed" and set(alert.squares) == {"a3", "c3"}


def test_a_piece_held_in_the_hand_while_another_disc_misreads_raises_no_alert() -> None:
    # the red chariot is lifted off i0 and held off the board; the black cannon on b7 reads as a
    # black chariot: no red chariot went to b7 (the disc there is black), nothing is alerted
    resolver = Resolver()
    start = Position.start()
    cells = list(start.board)
    cells[parse_square("i0")] = "."
    lifted = "".join(cells)
    misread = {parse_square("b7"): ("r", 0.85)}
    for t in (1.0, 1.3, 1.6, 1.9):
        assert resolver.observe(observe_board(lifted, t, misread=misread)) == []
    events = resolver.observe(observe_board(start.play("i0i1").board, 2.5))
    assert _recorded(events) == ["i0i1"] and not [e for e in events if isinstance(e, Alert)]


def test_restoring_an_earlier_position_takes_moves_back() -> None:
    resolver = Resolver()
    position = Position.start()
    boards = [position.board]
    for i, move in enumerate(["h2e2", "h9g7", "h0g2", "i9h9"]):
        position = position.play(move)
        boards.append(position.board)
        assert _recorded(resolver.observe(observe_board(position.board, 1.0 + i))) == [move]
    (restored,) = resolver.observe(observe_board(boards[2], 10.0))
    assert isinstance(restored, PositionRestored)
    assert restored.ply == 2 and restored.taken_back == ("h0g2", "i9h9")
    assert resolver.game.ply == 2
    assert _recorded(resolver.observe(observe_board(Position.start().play("h2e2").play("h9g7").play("b0c2").board,
                                                    11.0))) == ["b0c2"]


OPENING = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]


def _played(moves: list[str], clock: bool = False) -> tuple[Resolver, Position]:
    resolver = Resolver(clock=clock)
    position = Position.start()
    for i, move in enumerate(moves):
        position = position.play(move)
        assert _recorded(resolver.observe(observe_board(position.board, 1.0 + i))) == [move]
        if clock:
            resolver.press(ClockPress(1.3 + i, "red" if i % 2 == 0 else "black", 900_000, 900_000))
    return resolver, position


def test_the_pieces_set_up_again_after_a_game_leave_its_record_alone() -> None:
    # a tester's two games in one video: the second game's boards raised an alert every few seconds
    # and, passing through a recorded position, took the first game's last plies back
    resolver, last = _played(OPENING, clock=True)
    assert not [e for e in resolver.tick(19.0) if isinstance(e, Alert)]
    (told,) = resolver.observe(observe_board(Position.start().board, 20.0))
    assert isinstance(told, Alert) and told.kind == "set_up_again" and told.ply == 6
    assert "record stands at 6 plies" in told.text
    assert resolver.game.ply == 6
    new_game = Position.start()
    for i, move in enumerate(OPENING[:4]):  # the next game, even through this game's positions
        new_game = new_game.play(move)
        assert resolver.observe(observe_board(new_game.board, 21.0 + i)) == []
        assert resolver.press(ClockPress(21.3 + i, "red" if i % 2 == 0 else "black", 900_000, 900_000)) == []
    assert resolver.tick(40.0) == []  # the next game's presses are no presses without a move of this one
    assert not resolver.wants_retry  # the observer is not asked to look again at views not this game's
    assert resolver.game.ply == 6 and [m.iccs for m in resolver.game.moves] == OPENING
    # the board put back as the record ends (it was the arbiter's look at the start): judged again
    assert resolver.observe(observe_board(last.board, 50.0)) == []
    assert _recorded(resolver.observe(observe_board(last.play("h0h6").board, 51.0))) == ["h0h6"]


def test_horses_moved_out_and_back_to_the_start_position_are_moves_not_a_new_game() -> None:
    shuffle = ["b0c2", "b9c7", "c2b0", "c7b9"] * 2  # the start position again at ply 8, by moves
    resolver, _ = _played(shuffle[:7])
    events = resolver.observe(observe_board(Position.start().board, 20.0))
    assert _recorded(events) == ["c7b9"] and not [e for e in events if isinstance(e, Alert)]
    assert resolver.set_up_again_at is None


def test_the_start_position_a_few_plies_in_is_the_arbiter_restoring_it() -> None:
    resolver, _ = _played(OPENING[:4])  # art. 5.8: an illegal first move found two rounds later
    (restored,) = resolver.observe(observe_board(Position.start().board, 20.0))
    assert isinstance(restored, PositionRestored) and restored.ply == 0
    assert restored.taken_back == tuple(OPENING[:4])


def test_two_moves_between_still_views_are_recorded_as_a_pair() -> None:
    resolver = Resolver()
    after = Position.start().play("h2e2").play("h9g7")
    events = resolver.observe(observe_board(after.board, 1.0))
    assert _recorded(events) == ["h2e2", "h9g7"]
    (pair,) = [e for e in events if isinstance(e, TwoMovesSeen)]
    assert pair.ply == 2 and events[-1] is pair  # told after both: the sheet notes it after the pair
    assert all(e.pair for e in events if isinstance(e, MoveRecorded))


def test_checkmate_becomes_a_game_end_event() -> None:
    # red rook mates on the back rank: the other rook holds rank 8, the red general holds file e
    position = Position.from_fen("3k5/8R/9/9/9/9/9/9/9/R3K4 w - - 0 1")
    resolver = Resolver(position)
    after = position.play("a0a9")
    events = resolver.observe(observe_board(after.board, 1.0))
    ended = [e for e in events if isinstance(e, GameEnded)]
    assert _recorded(events) == ["a0a9"] and ended and ended[0].reason == "checkmate" and ended[0].result == "1-0"


def test_a_lifted_piece_under_a_resting_hand_raises_no_alert() -> None:
    resolver = Resolver()
    cells = list(Position.start().board)
    cells[parse_square("h2")] = "."  # the cannon is in the hand, the hand hides two points
    events = resolver.observe(observe_board("".join(cells), 1.0, covered=(parse_square("f5"), parse_square("f6"))))
    assert events == [] and resolver.wants_retry and not resolver.desynced


def test_a_transient_confident_misread_is_not_alerted() -> None:
    resolver = Resolver()
    after = Position.start().play("h2e2")
    events = resolver.observe(observe_board(after.board, 1.0, misread={parse_square("d5"): ("R", 0.97)}))
    assert _recorded(events) == ["h2e2"] and resolver.wants_retry
    assert resolver.observe(observe_board(after.board, 1.4, seed=9)) == []
    assert not resolver.desynced


def game_ends_seen(moves: list[str]) -> tuple[Resolver, list[GameEnded]]:
    """A resolver shown each position of ``moves`` from the start, one clear still view each, and
    the game-end events it raised."""
    resolver = Resolver()
    position = Position.start()
    ended: list[GameEnded] = []
    for i, move in enumerate(moves):
        position = position.play(move)
        ended += [e for e in resolver.observe(observe_board(position.board, 1.0 + i, seed=i)) if isinstance(e, GameEnded)]
    return resolver, ended


@pytest.mark.skipif(not GAMES.exists(), reason="shared games not present")
def test_perpetual_check_verdict_becomes_an_advisory_event() -> None:
    moves = GAMES.read_text(encoding="utf-8").splitlines()[1018].split()[1:]  # line 1019: perpetual check
    resolver, ended = game_ends_seen(moves)
    assert [(e.ply, e.reason, e.advisory) for e in ended] == [(66, "perpetual_check", True)]
    assert resolver.game.ply == len(moves)  # the recorder keeps recording after the verdict
    # the moves judged, for the arbiter to check: the cycle's four, in Chinese notation, with their kinds
    (verdict,) = ended
    assert [line.split(" ")[1] for line in verdict.judged] == ["63", "64", "65", "66"]
    assert all(": 将 check" in line or ": 闲 idle" in line for line in verdict.judged)


def test_occupancy_decides_when_the_piece_type_is_misread() -> None:
    resolver = Resolver()
    after = Position.start().play("h2c2")
    # the cannon now on c2 reads as a soldier, and only half-confidently occupied
    events = resolver.observe(observe_board(after.board, 1.0, misread={parse_square("c2"): ("P", 0.5)}))
    assert _recorded(events) == ["h2c2"]


def test_a_knock_measured_a_hair_under_the_threshold_on_the_second_look_is_still_raised() -> None:
    from dataclasses import replace

    import numpy as np

    resolver = Resolver()
    board = Position.start().board
    occupied = np.array([c != "." for c in board])
    still = np.where(occupied[:, None], np.zeros((90, 2)), np.nan)  # every piece on its point
    for t in (0.5, 0.9):  # a clean view (its second look too): the reference offsets
        resolver.observe(replace(observe_board(board, t), offsets=still))
    after = Position.start().play("h2e2")
    occupied = np.array([c != "." for c in after.board])
    g3 = parse_square("g3")
    first = np.where(occupied[:, None], np.zeros((90, 2)), np.nan)
    first[g3] = (0.31, 0.0)  # knocked by the mover's hand
    events = resolver.observe(replace(observe_board(after.board, 2.0, touched=(parse_square("h2"), parse_square("e2"), g3)),
                                      offsets=first))
    assert _recorded(events) == ["h2e2"] and resolver.wants_retry  # a new trouble: looked at again first
    second = first.copy()
    second[g3] = (0.295, 0.0)  # the same piece measured a hair closer
    events = resolver.observe(replace(observe_board(after.board, 2.4, touched=()), offsets=second))
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == [("g3",)]


def test_a_knock_seen_twice_is_raised_though_a_point_elsewhere_reads_doubtfully_on_the_second_look() -> None:
    """inject-025: the second look at a knocked soldier came while glare made a black cannon half
    read as moved (the record led a legal move by under a nat): the view was 'inconclusive' and the
    knock, measured off its point on both looks, was dropped. The knock is judged on its own."""
    resolver = Resolver()
    for t in (0.5, 0.9):
        resolver.observe(replace(observe_board(Position.start().board, t), offsets=_on_points(Position.start().board)))
    after = Position.start().play("h2e2")
    g3, b7, b3 = parse_square("g3"), parse_square("b7"), parse_square("b3")
    knocked = _on_points(after.board)
    knocked[g3] = (0.36, 0.0)
    events = resolver.observe(replace(observe_board(after.board, 2.0, touched=(parse_square("h2"), parse_square("e2"), g3)),
                                      offsets=knocked))
    assert _recorded(events) == ["h2e2"] and resolver.wants_retry
    # the second look: b7's cannon reads half gone and b3 half taken (a near tie with b7b3), the knock as before
    doubtful = observe_board(after.board, 2.4, touched=(b7, b3), misread={b7: (".", 0.45), b3: ("c", 0.4)})
    events = resolver.observe(replace(doubtful, offsets=knocked))
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == [("g3",)] and not _recorded(events)


@pytest.mark.parametrize("washed", [0.0, 0.52])
def test_a_disc_half_washed_out_by_glare_needs_a_larger_shift_to_be_off_its_point(washed: float) -> None:
    # the standing benchmark's clean-034: a cannon whose disc glare half washed out (0.52 of its
    # square blown out) was measured 0.34 spacings off its point and raised; it had not moved
    resolver = Resolver()
    for t in (0.5, 0.9):
        resolver.observe(replace(observe_board(Position.start().board, t), offsets=_on_points(Position.start().board)))
    after = Position.start().play("h2e2")
    b2, g3 = parse_square("b2"), parse_square("g3")
    shifted = _on_points(after.board)
    shifted[b2] = (0.34, 0.0)
    glare = np.zeros(90)
    glare[b2] = washed
    views = [resolver.observe(replace(observe_board(after.board, t, touched=(parse_square("h2"), parse_square("e2"), b2)),
                                      offsets=shifted, washed=glare)) for t in (2.0, 2.4)]
    raised = [e.squares for events in views for e in events if isinstance(e, BoardDisturbed)]
    assert _recorded(views[0]) == ["h2e2"]
    assert raised == ([] if washed else [("b2",)])
    shifted[b2] = (0.0, 0.0)
    shifted[g3] = (0.45, 0.0)  # a knock of the usual size is raised under the same glare
    glare[g3] = washed
    events = [e for t in (3.0, 3.4) for e in resolver.observe(replace(observe_board(after.board, t, touched=(g3,)),
                                                                       offsets=shifted, washed=glare))]
    assert ("g3",) in [e.squares for e in events if isinstance(e, BoardDisturbed)]


def _on_points(board: str) -> np.ndarray:
    """Disc offsets with every piece of ``board`` on its point (NaN on empty points)."""
    occupied = np.array([c != "." for c in board])
    return np.where(occupied[:, None], np.zeros((90, 2)), np.nan)


def _seen_clean_at_start() -> Resolver:
    """A resolver that has seen the start position, every disc on its point, twice (a clean reference)."""
    resolver = Resolver()
    board = Position.start().board
    for t in (0.5, 0.9):
        resolver.observe(replace(observe_board(board, t), offsets=_on_points(board)))
    return resolver


@pytest.mark.parametrize("missed_again", [False, True])
def test_a_knocked_piece_that_reads_empty_but_is_seen_off_its_point_is_raised_without_the_hand_wait(
        missed_again: bool) -> None:
    # the neighbour knocked half off its point reads as empty there; its disc lies 0.47 away: it is
    # on the board, not in a hand, so the five seconds allowed for a piece held in a hand do not apply.
    # When the disc finder misses it on the second look with nothing moving near it, no hand took it:
    # the first judgement stands
    resolver = _seen_clean_at_start()
    after = Position.start().play("h2e2")
    assert _recorded(resolver.observe(replace(observe_board(after.board, 2.0), offsets=_on_points(after.board)))) \
        == ["h2e2"]
    g3 = parse_square("g3")
    offsets = _on_points(after.board)
    offsets[g3] = (0.47, 0.0)  # the hand, leaving, knocked it
    events = resolver.observe(replace(observe_board(after.board, 3.0, misread={g3: (".", 0.9)}, touched=(g3,)),
                                      offsets=offsets))
    assert events == [] and resolver.wants_retry
    if missed_again:
        offsets[g3] = np.nan
    events = resolver.observe(replace(observe_board(after.board, 3.4, misread={g3: (".", 0.9)}, touched=()),
                                      offsets=offsets))
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == [("g3",)]


def test_a_piece_slid_by_a_hand_that_paused_is_not_raised_when_the_hand_then_lifts_it() -> None:
    # inject-026: the hand paused while sliding a chariot towards its new point (the disc seen off its
    # point, the fingers read as board); at the next look, with the hand stirring there, the
    # piece is gone: it is in the hand, so the wait for a held piece applies, and the move comes
    resolver = _seen_clean_at_start()
    position = Position.start()
    for t, move in ((2.0, "h2e2"), (4.0, "h9g7")):
        position = position.play(move)
        assert _recorded(resolver.observe(replace(observe_board(position.board, t),
                                                  offsets=_on_points(position.board)))) == [move]
    a0 = parse_square("a0")
    offsets = _on_points(position.board)
    offsets[a0] = (0.5, 0.2)
    events = resolver.observe(replace(observe_board(position.board, 6.0, misread={a0: (".", 0.9)}, touched=(a0,)),
                                      offsets=offsets))
    assert events == [] and resolver.wants_retry
    lifted = _on_points(position.board)
    lifted[a0] = np.nan
    events = resolver.observe(replace(observe_board(position.board, 6.6, misread={a0: (".", 0.95)}, touched=(a0,)),
                                      offsets=lifted))
    assert not [e for e in events if isinstance(e, Alert)]
    after = position.play("a0a1")
    assert _recorded(resolver.observe(replace(observe_board(after.board, 7.3, touched=(a0, a0 + 9)),
                                              offsets=_on_points(after.board)))) == ["a0a1"]


def _pictured(board: str, t: float, offsets: np.ndarray, placed: dict[int, tuple[float, float]] | None = None,
              **kwargs: object) -> Observation:
    """A view of ``board`` with its disc ``offsets`` and a drawn picture, its pieces where ``placed``
    puts them (on their points otherwise)."""
    pieces = {sq: (0.0, 0.0) for sq in range(90) if board[sq] != "."}
    pieces.update(placed or {})
    return replace(observe_board(board, t, **kwargs), offsets=offsets, view=drawn_view(pieces))  # type: ignore[arg-type]


def _seen_pictured_at_start() -> tuple[Resolver, Position, int]:
    """A resolver that has seen the start position pictured twice, every piece on its point (the
    clean view); the position after h2e2, and the square g3 (whose soldier the tests knock)."""
    board = Position.start().board
    resolver = Resolver()
    for t in (0.5, 0.9):
        resolver.observe(_pictured(board, t, _on_points(board)))
    return resolver, Position.start().play("h2e2"), parse_square("g3")


@pytest.mark.parametrize("pictured", [True, False])
def test_a_disc_measured_off_its_point_is_no_knock_when_the_pieces_picture_did_not_move(pictured: bool) -> None:
    # fresh bench s980000-clean-005: a pale general on a pale board, its top too faint for the
    # circle search, was measured by its side wall's outline 0.35-0.39 towards the camera on the
    # views after a neighbour's move, and raised as knocked; its picture had not moved
    resolver, after, g3 = _seen_pictured_at_start()
    wall = _on_points(after.board)
    wall[g3] = (0.0, -0.38)
    views = [_pictured(after.board, t, wall, touched=(parse_square("h2"), parse_square("e2"), g3)) for t in (2.0, 2.4)]
    if not pictured:
        views = [replace(view, view=None) for view in views]
    events = [e for view in views for e in resolver.observe(view)]
    assert _recorded(events) == ["h2e2"]
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == ([] if pictured else [("g3",)])


def test_a_picture_matched_only_loosely_leaves_the_verdict_to_the_disc() -> None:
    # inject-025: a soldier knocked 0.38 under glare matched its earlier picture 0.65, found 0.05
    # short of where it went; a loose match must not clear a disc measured off its point
    import cv2

    resolver, after, g3 = _seen_pictured_at_start()
    knocked = _on_points(after.board)
    knocked[g3] = (0.36, 0.0)
    views = []
    for t in (2.0, 2.4):
        view = _pictured(after.board, t, knocked, touched=(parse_square("h2"), parse_square("e2"), g3))
        assert view.view is not None
        spot = view.view.copy()  # a glare spot over part of the piece's picture (it matches about 0.79)
        cv2.circle(spot, (7 * 48 + 10, 7 * 48 - 8), 9, 255, -1)
        views.append(replace(view, view=spot))
    events = [e for view in views for e in resolver.observe(view)]
    assert _recorded(events) == ["h2e2"]
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == [("g3",)]


def test_a_piece_knocked_on_a_point_glare_half_washes_out_is_raised_by_its_picture() -> None:
    # inject-023: a chariot knocked 0.37 off its point where glare half washed out its disc; a disc
    # measured there needs 0.4 (it is measured loosely), but its picture moved clearly
    resolver, after, g3 = _seen_pictured_at_start()
    glare = np.zeros(90)
    glare[g3] = 0.52
    unfound = _on_points(after.board)
    unfound[g3] = np.nan
    touched = (parse_square("h2"), parse_square("e2"), g3)
    events = [e for t in (2.0, 2.4) for e in resolver.observe(
        replace(_pictured(after.board, t, unfound, {g3: (0.0, -0.36)}, touched=touched), washed=glare))]
    assert _recorded(events) == ["h2e2"]
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == [("g3",)]


def test_a_knocked_piece_whose_disc_went_unfound_is_raised_by_how_its_picture_moved() -> None:
    resolver, after, g3 = _seen_pictured_at_start()
    unfound = _on_points(after.board)
    unfound[g3] = np.nan
    touched = (parse_square("h2"), parse_square("e2"), g3)
    events = [e for t in (2.0, 2.4) for e in resolver.observe(_pictured(after.board, t, unfound, {g3: (0.36, 0.05)},
                                                                        touched=touched))]
    assert _recorded(events) == ["h2e2"]
    raised = [e for e in events if isinstance(e, BoardDisturbed)]
    assert [e.squares for e in raised] == [("g3",)]
    measured = float(raised[0].text.split(" lies ")[1].split()[0])
    assert abs(measured - np.hypot(0.36, 0.05)) < 0.05


def test_a_piece_whose_picture_moved_as_the_fingers_let_go_of_it_is_judged_by_its_disc() -> None:
    # fresh s2300000-clean-012: the view recording i0h0 caught the fingers still on the chariot
    # (the frame cut the board's margin short, so no arm was seen); as they let go its picture moved
    # 0.33 spacings, and it was raised as lying off its point while its disc stood 0.18 off
    resolver, after, g3 = _seen_pictured_at_start()
    e2, h2 = parse_square("e2"), parse_square("h2")
    held = _on_points(after.board)
    held[e2] = (0.1, 0.1)
    assert _recorded(resolver.observe(_pictured(after.board, 2.0, held, {e2: (0.25, 0.2)}, touched=(h2, e2)))) == ["h2e2"]
    let_go = _on_points(after.board)
    let_go[e2] = (-0.1, -0.1)
    events = [e for t, near in ((2.4, (e2,)), (2.8, ())) for e in resolver.observe(
        _pictured(after.board, t, let_go, {e2: (-0.1, -0.1)}, touched=near))]
    assert not [e for e in events if isinstance(e, Alert)]
    knocked = _on_points(after.board)  # a piece standing since, knocked, is still raised by its picture
    knocked[g3] = np.nan
    events = [e for t in (3.4, 3.8) for e in resolver.observe(
        _pictured(after.board, t, knocked, {e2: (-0.1, -0.1), g3: (0.36, 0.05)}, touched=(g3,)))]
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == [("g3",)]


@pytest.mark.parametrize(("knock", "at_once"), [((0.45, 0.1), True), ((0.33, 0.1), False)])
def test_a_piece_whose_picture_moved_well_off_its_point_is_raised_at_the_first_look(
        knock: tuple[float, float], at_once: bool) -> None:
    # inject-046: a cannon knocked 0.45 at the board's edge was seen once; its second look was
    # taken for an arm lying across the edge until the hand putting it back came, and no alert was
    # raised. A picture that moved so far, so clearly, needs no second look; a nearer one does
    resolver, after, g3 = _seen_pictured_at_start()
    discs = _on_points(after.board)
    discs[g3] = knock
    events = resolver.observe(_pictured(after.board, 2.0, discs, {g3: knock},
                                        touched=(parse_square("h2"), parse_square("e2"), g3)))
    assert _recorded(events) == ["h2e2"]
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == ([("g3",)] if at_once else [])
    assert resolver.wants_retry is not at_once


# found by a reviewer of the picture measure: a knock against a camera nudge, a knock measured a
# hair over the threshold, a camera nudge in an endgame
def _nudged(view: Observation, files: float) -> np.ndarray:
    """``view``'s picture with the camera moved ``files`` spacings sideways (less than the drift check sees)."""
    import cv2

    assert view.view is not None
    shift = np.array([[1, 0, files * 48], [0, 1, 0]], dtype=np.float32)
    return np.asarray(cv2.warpAffine(view.view, shift, (view.view.shape[1], view.view.shape[0]),
                                     borderMode=cv2.BORDER_REPLICATE))


@pytest.mark.parametrize("nudge", [0.0, 0.3])
def test_knock_opposite_a_small_camera_nudge_is_still_raised(nudge: float) -> None:
    resolver, after, g3 = _seen_pictured_at_start()
    knocked = _on_points(after.board)
    knocked[g3] = (-0.34, 0.0)  # the disc (residual after the parallax field) sees the knock
    touched = (parse_square("h2"), parse_square("e2"), g3)
    views = []
    for t in (2.0, 2.4):
        v = _pictured(after.board, t, knocked, {g3: (-0.34, 0.0)}, touched=touched)
        views.append(replace(v, view=_nudged(v, nudge)))
    events = [e for v in views for e in resolver.observe(v)]
    assert _recorded(events) == ["h2e2"]
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == [("g3",)]


@pytest.mark.parametrize("knock", [0.31, 0.32, 0.33, 0.36])
def test_a_knock_the_disc_measures_over_the_threshold_is_not_cleared_by_a_quantised_picture(knock: float) -> None:
    resolver, after, g3 = _seen_pictured_at_start()
    knocked = _on_points(after.board)
    knocked[g3] = (knock, 0.0)
    touched = (parse_square("h2"), parse_square("e2"), g3)
    events = [e for t in (2.0, 2.4) for e in resolver.observe(
        _pictured(after.board, t, knocked, {g3: (knock, 0.0)}, touched=touched))]
    assert _recorded(events) == ["h2e2"]
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == [("g3",)]


@pytest.mark.parametrize("pieces_fen", ["3aka3/9/9/9/9/9/9/9/9/R2K5 w", "3aka3/9/9/9/9/9/2P1P1P2/9/9/R2K5 w"])
def test_a_small_camera_nudge_raises_no_piece_in_an_endgame(pieces_fen: str) -> None:
    start = Position.from_fen(pieces_fen)
    resolver = Resolver(start)
    board = start.board
    d0 = parse_square("d0")
    offsets = _on_points(board)
    offsets[d0] = (0.12, 0.0)  # its disc stands a little off, on every view alike (no knock)
    for t in (0.5, 0.9):
        resolver.observe(_pictured(board, t, offsets))
    after = start.play("a0a1")
    offsets = _on_points(after.board)
    offsets[d0] = (0.12, 0.0)
    every = tuple(sq for sq in range(90) if after.board[sq] != "." or board[sq] != ".")
    views = []
    for t in (2.0, 2.4):
        v = _pictured(after.board, t, offsets, touched=every)
        views.append(replace(v, view=_nudged(v, 0.2)))  # the camera nudged 0.2; the discs' fit takes it off
    events = [e for v in views for e in resolver.observe(v)]
    assert _recorded(events) == ["a0a1"]
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == []


@pytest.mark.parametrize(("moved", "raised"), [(0.5, True), (0.65, False)])
def test_a_picture_found_further_than_a_knock_goes_raises_nothing(moved: float, raised: bool) -> None:
    # s980000-clean-043: an elephant lifted for its move, the hand paused, matched its picture 0.77
    # off and was raised as knocked; the benchmark's knocks moved 0.3-0.57
    resolver, after, g3 = _seen_pictured_at_start()
    unfound = _on_points(after.board)
    unfound[g3] = np.nan
    touched = (parse_square("h2"), parse_square("e2"), g3)
    events = [e for t in (2.0, 2.4) for e in resolver.observe(_pictured(after.board, t, unfound, {g3: (moved, 0.0)},
                                                                        touched=touched))]
    assert _recorded(events) == ["h2e2"]
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == ([("g3",)] if raised else [])


def test_a_piece_whose_disc_was_missed_in_the_last_clean_view_keeps_its_earlier_place() -> None:
    # the disc of the general was not found in the last clean view; knocked 0.38 off later, it is
    # judged against where it was seen before, not as a piece seen there for the first time (0.45)
    resolver = Resolver()
    board = Position.start().board
    e0 = parse_square("e0")
    resolver.observe(replace(observe_board(board, 0.5), offsets=_on_points(board)))
    after = Position.start().play("h2e2")
    missed = _on_points(after.board)
    missed[e0] = np.nan
    assert _recorded(resolver.observe(replace(observe_board(after.board, 1.5), offsets=missed))) == ["h2e2"]
    knocked = _on_points(after.board)
    knocked[e0] = (0.0, 0.38)
    events = resolver.observe(replace(observe_board(after.board, 3.0, touched=(e0,)), offsets=knocked))
    events += resolver.observe(replace(observe_board(after.board, 3.4, touched=()), offsets=knocked))
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == [("e0",)]


def test_the_second_look_at_a_knocked_piece_counts_its_disc_where_the_point_reads_covered() -> None:
    resolver = _seen_clean_at_start()
    after = Position.start().play("h2e2")
    g3 = parse_square("g3")
    offsets = _on_points(after.board)
    offsets[g3] = (0.5, 0.1)
    touched = (parse_square("h2"), parse_square("e2"), g3)
    events = resolver.observe(replace(observe_board(after.board, 2.0, touched=touched), offsets=offsets))
    assert _recorded(events) == ["h2e2"] and resolver.wants_retry
    # half off its point, the piece now reads "covered" there: one hidden point, not a hand
    events = resolver.observe(replace(observe_board(after.board, 2.4, covered=(g3,), touched=()), offsets=offsets))
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == [("g3",)]


def test_a_capture_whose_captor_is_still_in_the_hand_raises_nothing() -> None:
    # the captured horse is off the board and the cannon still in the player's hand, held still
    # beside the board: both points read empty; that is a move under way, not a disturbed board
    resolver = _started()
    board = Position.start().board
    h2, h9 = parse_square("h2"), parse_square("h9")
    lifted = _moved(board, "h2", "h9")
    events = []
    for t in (1.0, 1.4, 2.0, 3.0):
        events += resolver.observe(observe_board(lifted, t, misread={h9: (".", 0.95)}, touched=(h2, h9) if t == 1.0 else ()))
    events += _look(resolver, lifted, 4.0, touched=(h9,))
    assert not [e for e in events if isinstance(e, Alert)]
    assert [e.iccs for e in events if isinstance(e, MoveRecorded)][-1:] == ["h2h9"]


def test_a_piece_gone_after_a_capture_that_shows_its_captor_is_raised_at_once() -> None:
    # the cannon took the horse and stands on h9 (its character read unsurely); the hand knocked
    # the chariot on i9 off the board
    resolver = _started()
    h9, i9 = parse_square("h9"), parse_square("i9")
    after = Position.start().play("h2h9")
    touched = (parse_square("h2"), h9, i9)
    events = _look(resolver, after.board, 1.0, misread={i9: (".", 0.95), h9: ("C", 0.6)}, touched=touched)
    assert _recorded(events) == ["h2h9"]
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == [("i9",)]


def test_a_point_glare_blows_out_raises_no_disturbance() -> None:
    # under the glare spot an empty point reads as a black soldier; the arbiter was told the camera
    # cannot read there, so it is not raised as an extra piece (elsewhere it would be)
    board = Position.start().board
    f5 = parse_square("f5")
    unreadable = np.zeros(90, dtype=bool)
    unreadable[f5] = True
    raised = {}
    for glare in (False, True):
        resolver = Resolver()
        resolver.observe(observe_board(board, 0.5))
        seen = replace(observe_board(board, 1.0, misread={f5: ("p", 0.9)}, touched=(f5,)),
                       unreadable=unreadable if glare else None)
        events = resolver.observe(seen)
        events += resolver.observe(replace(seen, t=1.4, touched=None))
        raised[glare] = [e.squares for e in events if isinstance(e, BoardDisturbed)]
    assert raised == {False: [("f5",)], True: []}


def test_no_move_is_taken_from_points_at_the_edge_of_a_hand() -> None:
    # the advisor goes f0e1; the hand still covers f0 and the edge of it e0, which reads empty at
    # 65 % and "covered" at 35 %: the general's step e0e1 must not be read into that view
    resolver = _started()
    e0, f0 = parse_square("e0"), parse_square("f0")
    after = Position.start().play("f0e1")
    seen = observe_board(after.board, 1.0, covered=(f0,))
    seen.probs[e0] = 0.0
    seen.probs[e0, [CLASSES.index("empty"), CLASSES.index("covered")]] = (0.65, 0.35)
    events = resolver.observe(seen)
    assert _recorded(events) == [] and resolver.wants_retry
    assert _recorded(resolver.observe(observe_board(after.board, 1.5))) == ["f0e1"]


def test_no_move_needing_a_misread_point_is_taken_while_a_hand_is_over_the_board() -> None:
    # the soldier c3 is lifted and set down on d1, where no legal move goes, under the hand: c3 and
    # c4 both read empty (c4 not quite surely), and the soldier's only move c3c4 would need c4
    # misread; the hand leaving shows the illegal move instead
    resolver = _started()
    c3, c4, d1, d0 = (parse_square(name) for name in ("c3", "c4", "d1", "d0"))
    cells = list(Position.start().board)
    cells[c3] = "."
    lifted = observe_board("".join(cells), 1.0, covered=(d1, d0), misread={c4: ("P", 0.05)})
    events = resolver.observe(lifted)
    assert _recorded(events) == [] and resolver.wants_retry
    cells[d1] = "P"
    events = resolver.observe(observe_board("".join(cells), 1.5))
    events += resolver.observe(observe_board("".join(cells), 1.9))
    assert _recorded(events) == []
    assert [e.kind for e in events if isinstance(e, Alert)] == ["illegal_move"]


def test_a_capture_is_not_taken_while_its_point_still_shows_the_captured_side() -> None:
    """A hand holds a lifted cannon still over its destination (read as empty, a little covered):
    the best legal move is the capture next door, whose point still reads as a black piece."""
    import numpy as np

    from recorder.observer import CLASSES, Observation
    from recorder.resolver_scoring import board_classes

    cells = list(Position.start().board)
    cells[parse_square("h2")] = "."  # the cannon is in the hand
    probs = np.full((90, len(CLASSES)), 1e-5)
    probs[np.arange(90), board_classes("".join(cells))] = 1.0
    h5, h9 = parse_square("h5"), parse_square("h9")
    probs[h5] = 1e-5
    probs[h5, [0, CLASSES.index("covered"), CLASSES.index("K")]] = (0.85, 0.13, 0.007)  # where it will go
    probs[h9] = 1e-5
    probs[h9, [CLASSES.index("n"), CLASSES.index("r")]] = (0.103, 0.897)  # black, kind misread
    probs /= probs.sum(axis=1, keepdims=True)
    resolver = Resolver()
    view = Observation(t=1.0, t_still=0.9, probs=probs, mask=np.zeros(90, bool), frames=2, touched=None)
    assert _recorded(resolver.observe(view)) == [] and resolver.wants_retry  # not h2h9
    placed = Position.start().play("h2h5")
    assert _recorded(resolver.observe(observe_board(placed.board, 1.5))) == ["h2h5"]


def test_an_illegal_move_to_a_doubtfully_read_point_is_raised_at_the_second_look() -> None:
    # the chariot's new point reads "red chariot" at 70 %, "empty" at 25 %: not a sure change, but
    # the illegal move explains the view best, and it must not wait as a piece perhaps in a hand
    resolver = Resolver()
    seen = _moved(Position.start().board, "i0", "g1")
    first = observe_board(seen, 1.0)
    g1 = parse_square("g1")
    row = np.full(first.probs.shape[1], 0.05 / (first.probs.shape[1] - 2))
    row[CLASSES.index("R")], row[CLASSES.index("empty")] = 0.70, 0.25
    first.probs[g1] = row
    assert resolver.observe(first) == [] and resolver.wants_retry
    again = replace(first, t=1.3)
    (alert,) = resolver.observe(again)
    assert isinstance(alert, IllegalMoveAlert) and alert.iccs == "i0g1"


def test_taking_back_the_last_move_on_the_opponents_turn_is_a_wrong_side_move() -> None:
    resolver = Resolver()
    position = Position.start()
    for i, move in enumerate(["h2e2", "h9g7"]):
        position = position.play(move)
        assert _recorded(_look(resolver, position.board, 1.0 + i)) == [move]
    events = _look(resolver, Position.start().play("h2e2").board, 4.0)  # black puts its horse back
    restored = [e for e in events if isinstance(e, PositionRestored)]
    alerts = [e for e in events if isinstance(e, IllegalMoveAlert)]
    assert [r.taken_back for r in restored] == [("h9g7",)]
    assert [(a.kind, a.iccs) for a in alerts] == [("wrong_side", "g7h9")]
    assert "takes back ply 2 (h9g7)" in alerts[0].text


def _glare_capture_recorded(clock: bool = False) -> tuple[Resolver, Position, dict[int, tuple[str, float]]]:
    """A chariot stops short of a cannon (h0h6) under glare that reads it as taking it (h0h7);
    then two quiet moves, each followed by its clock press when ``clock``. Returns the resolver
    (record: h0h7 ...), the true position and the misreads."""
    start = Position.from_fen("3k5/9/7c1/9/9/9/9/9/9/4K2R1 w - - 0 1")
    resolver = Resolver(start, clock=clock)
    resolver.observe(observe_board(start.board, 0.5))
    h6, h7 = parse_square("h6"), parse_square("h7")
    washed = {h6: (".", 0.9), h7: ("R", 0.9)}  # the chariot washed out, the cannon read as it
    truth = start
    for t, move, recorded in ((1.0, "h0h6", "h0h7"), (2.0, "d9d8", "d9d8"), (3.0, "e0e1", "e0e1")):
        side = truth.side_to_move
        truth = truth.play(move)
        near = tuple(parse_square(move[i:i + 2]) for i in (0, 2)) + ((h7,) if move == "h0h6" else ())
        assert _recorded(resolver.observe(observe_board(truth.board, t, misread=washed, touched=near))) == [recorded]
        if clock:
            resolver.press(ClockPress(t + 0.3, side, 900_000 - int(t * 1000), 900_000 - int(t * 500)))
    return resolver, truth, washed


def test_a_move_read_wrong_under_glare_is_corrected_when_a_later_view_shows_its_rival() -> None:
    resolver, truth, _ = _glare_capture_recorded()
    # the cannon the record says was taken now moves out of the glare: only h0h6 explains that,
    # and a second look must see it too (a revision rewrites recorded moves)
    truth = truth.play("h7h8")
    first = resolver.observe(observe_board(truth.board, 4.0, touched=(parse_square("h7"), parse_square("h8"))))
    assert first == [] and resolver.wants_retry
    events = resolver.observe(observe_board(truth.board, 4.4, seed=1, touched=()))
    corrected = [e for e in events if isinstance(e, MoveCorrected)]
    assert [(e.ply, e.iccs, e.was, e.by) for e in corrected] == [
        (1, "h0h6", "h0h7", "recorder"), (2, "d9d8", "d9d8", "recorder"), (3, "e0e1", "e0e1", "recorder")]
    assert corrected[0].chinese == "车二进六"
    assert [e.iccs for e in events if type(e) is MoveRecorded] == ["h7h8"]
    assert not [e for e in events if isinstance(e, Alert)]
    assert [m.iccs for m in resolver.game.moves] == ["h0h6", "d9d8", "e0e1", "h7h8"]


def test_a_move_read_under_glare_names_the_move_the_view_could_not_rule_out() -> None:
    # the arbiter is told at once (the console marks the move), not when a later view corrects it
    start = Position.from_fen("3k5/9/7c1/9/9/9/9/9/9/4K2R1 w - - 0 1")
    resolver = Resolver(start)
    resolver.observe(observe_board(start.board, 0.5))
    h6, h7 = parse_square("h6"), parse_square("h7")
    truth = start.play("h0h6")
    events = resolver.observe(observe_board(truth.board, 1.0, misread={h6: (".", 0.9), h7: ("R", 0.9)},
                                            touched=(parse_square("h0"), h6, h7)))
    (recorded,) = [e for e in events if isinstance(e, MoveRecorded)]
    assert recorded.iccs == "h0h7" and "h0h6" in recorded.rivals
    clear = truth.play("d9d8")  # a move read clearly: nothing named
    (quiet,) = [e for e in resolver.observe(observe_board(clear.board, 2.0, misread={h6: (".", 0.9), h7: ("R", 0.9)},
                                                           touched=(parse_square("d9"), parse_square("d8"))))
                if isinstance(e, MoveRecorded)]
    assert quiet.iccs == "d9d8" and quiet.rivals == ()


def test_a_pair_read_wrong_under_glare_is_corrected_when_a_later_view_shows_the_rival() -> None:
    """Both moves made before a still view (s980000-clean-014): the chariot's stop under glare is as
    unsure as when seen alone, so the pair keeps its rival and a later view corrects it."""
    start = Position.from_fen("3k5/9/7c1/9/9/9/9/9/9/4K2R1 w - - 0 1")
    resolver = Resolver(start, clock=True)
    resolver.observe(observe_board(start.board, 0.5))
    h6, h7 = parse_square("h6"), parse_square("h7")
    washed = {h6: (".", 0.9), h7: ("R", 0.9)}
    resolver.press(ClockPress(1.0, "red", 899_000, 900_000))
    resolver.press(ClockPress(1.6, "black", 899_000, 899_400))
    truth = start.play("h0h6").play("d9d8")
    near = tuple(parse_square(s) for s in ("h0", "h6", "h7", "d9", "d8"))
    events = _look(resolver, truth.board, 2.0, misread=washed, touched=near)
    recorded = [e for e in events if isinstance(e, MoveRecorded)]
    assert [(e.iccs, e.rivals) for e in recorded] == [("h0h7", ("h0h6",)), ("d9d8", ())]
    truth = truth.play("e0e1")
    resolver.press(ClockPress(3.3, "red", 897_700, 899_400))
    assert _recorded(_look(resolver, truth.board, 3.0, misread=washed,
                           touched=(parse_square("e0"), parse_square("e1")))) == ["e0e1"]
    truth = truth.play("h7h8")  # the cannon the record says was taken moves out of the glare
    events = _look(resolver, truth.board, 4.0, touched=(h7, parse_square("h8")))
    corrected = [e for e in events if isinstance(e, MoveCorrected)]
    assert [(e.ply, e.iccs, e.was) for e in corrected] == [(1, "h0h6", "h0h7"), (2, "d9d8", "d9d8"),
                                                           (3, "e0e1", "e0e1")]
    assert [m.iccs for m in resolver.game.moves] == ["h0h6", "d9d8", "e0e1", "h7h8"]


def test_a_move_seen_still_but_unclear_then_read_with_the_reply_is_no_two_moves_alert() -> None:
    """The board stood still after h0h6, whose points glare left unclear (kept as the view of one
    move), and the pair was read once the reply came (as glare shows it, h0h7, h0h6 named as not ruled
    out). The two moves were not made between still views: no two_moves alert (three false ones on
    renders, each under glare)."""
    start = Position.from_fen("3k5/9/7c1/9/9/9/9/9/9/4K2R1 w - - 0 1")
    resolver = Resolver(start, clock=True)
    resolver.observe(observe_board(start.board, 0.5))
    h6, h7 = parse_square("h6"), parse_square("h7")
    washed = {h6: (".", 0.7), h7: ("R", 0.7)}
    truth = start.play("h0h6")
    for k in range(5):  # the first look after the hand, then the looks again: none clear
        touched = (parse_square("h0"), h6, h7) if k == 0 else ()
        assert resolver.observe(observe_board(truth.board, 1.0 + 0.3 * k, misread=washed, touched=touched)) == []
    resolver.press(ClockPress(1.3, "red", 899_000, 900_000))
    truth = truth.play("d9d8")
    events = _look(resolver, truth.board, 3.0, misread=washed, touched=(parse_square("d9"), parse_square("d8")))
    assert [(e.iccs, e.rivals) for e in events if isinstance(e, MoveRecorded)] == [("h0h7", ("h0h6",)), ("d9d8", ())]
    assert not [e for e in events if isinstance(e, TwoMovesSeen)]


def test_a_new_grid_judges_a_lamps_flat_spot_afresh() -> None:
    """A point flat on two views in a row is a lamp's (read "covered" there, no hand); under a new
    grid the view before says nothing of it (a reviewer: nothing pinned the reset)."""
    flat = np.zeros(90, dtype=bool)
    flat[40] = True
    view = replace(observe_board(Position.start().board, 0.5, covered=(40,)), flat=flat)
    resolver = Resolver()
    for t in (0.5, 1.0):
        resolver.observe(replace(view, t=t))
    assert list(np.flatnonzero(resolver._lamp)) == [40]
    resolver.forget_offsets()
    resolver.observe(replace(view, t=1.5))
    assert not resolver._lamp.any()


def test_a_blown_out_point_beside_the_move_read_covered_still_lets_the_view_of_one_move_be_kept() -> None:
    """As above, with g6 beside the move blown out by glare and read "covered", and the hand's move
    passing over it (so it has not been hidden calmly): the view of one move is kept all the same,
    and the pair recorded with the reply (a reviewer's probe: when only calm glare excused a hidden
    point, no view was kept and nothing was recorded)."""
    start = Position.from_fen("3k5/9/7c1/9/9/9/9/9/9/4K2R1 w - - 0 1")
    g6, h6, h7 = parse_square("g6"), parse_square("h6"), parse_square("h7")
    glare = np.zeros(90, dtype=bool)
    glare[g6] = True
    resolver = Resolver(start, clock=True)
    resolver.observe(replace(observe_board(start.board, 0.5, covered=(g6,)), unreadable=glare))
    washed = {h6: (".", 0.7), h7: ("R", 0.7)}
    truth = start.play("h0h6")
    for k in range(5):
        touched = (parse_square("h0"), g6, h6, h7) if k == 0 else ()
        view = observe_board(truth.board, 1.0 + 0.3 * k, misread=washed, covered=(g6,), touched=touched)
        assert resolver.observe(replace(view, unreadable=glare)) == []
    resolver.press(ClockPress(1.3, "red", 899_000, 900_000))
    truth = truth.play("d9d8")
    view = observe_board(truth.board, 3.0, misread=washed, covered=(g6,), touched=(parse_square("d9"), parse_square("d8")))
    events = resolver.observe(replace(view, unreadable=glare))
    assert [(e.iccs, e.rivals) for e in events if isinstance(e, MoveRecorded)] == [("h0h7", ("h0h6",)), ("d9d8", ())]
    assert not [e for e in events if isinstance(e, TwoMovesSeen)]


def test_a_view_kept_for_one_move_does_not_excuse_a_pair_whose_first_move_it_did_not_show() -> None:
    """A hand over a lamp's spot (e2) holds the cannon lifted from h2: the still views fit h2e2, the
    cannon set down under the spot, and one is kept as the view of one move. The cannon is then set
    down on h4 and black replies before the next still view: that view never showed h2h4 (h4 read
    empty), so the pair was made between still views and is told (a reviewer's probe: the alert went
    missing once glare points stopped barring the kept view)."""
    e2, h2 = parse_square("e2"), parse_square("h2")
    glare = np.zeros(90, dtype=bool)
    glare[e2] = True
    start = Position.start()
    resolver = Resolver()
    for k, t in enumerate((0.5, 1.0, 2.0, 3.0)):
        touched = None if k == 0 else ()
        resolver.observe(replace(observe_board(start.board, t, seed=k, covered=(e2,), touched=touched), unreadable=glare))
    held = start.board[:h2] + "." + start.board[h2 + 1:]
    for i in range(4):
        view = _reading(observe_board(held, 4.0 + 0.5 * i, seed=10 + i, covered=(e2,), touched=(h2, e2)),
                        {"h2": {".": 0.55, "C": 0.35}})
        resolver.observe(replace(view, t_moved=3.8 if i == 0 else None, unreadable=glare))
    both = start.play("h2h4").play("h9g7").board
    events = resolver.observe(replace(observe_board(both, 7.0, seed=30, covered=(e2,)), unreadable=glare))
    assert [e.iccs for e in events if isinstance(e, MoveRecorded)] == ["h2h4", "h9g7"]
    assert [e.kind for e in events if isinstance(e, TwoMovesSeen)] == ["two_moves"]


def test_a_revision_keeps_the_clock_times_of_the_moves_it_carries_over() -> None:
    resolver, truth, _ = _glare_capture_recorded(clock=True)
    truth = truth.play("h7h8")
    events = _look(resolver, truth.board, 4.0, touched=(parse_square("h7"), parse_square("h8")))
    corrected = [e for e in events if isinstance(e, MoveCorrected)]
    assert [(e.ply, e.red_ms, e.black_ms) for e in corrected] == [
        (1, 899_000, 899_500), (2, 898_000, 899_000), (3, 897_000, 898_500)]


def test_a_move_the_arbiter_set_is_not_revised_by_the_recorder() -> None:
    resolver, truth, _ = _glare_capture_recorded()
    resolver.adopt(1, ["h0h7", "d9d8", "e0e1"])  # the arbiter confirms the capture in the console
    truth = truth.play("h7h8")
    events = _look(resolver, truth.board, 4.0, touched=(parse_square("h7"), parse_square("h8")))
    assert not [e for e in events if isinstance(e, MoveCorrected)]
    assert [e.kind for e in events if isinstance(e, Alert)] == ["unexplained"]


def test_a_glare_washed_point_does_not_contradict_a_move() -> None:
    """Under glare an empty point can read surely as a piece; it must not pass for where the moved piece went."""
    board = _moved(Position.start().board, "h2", "e2")
    glare = parse_square("e5")
    view = observe_board(board, 2.0, misread={glare: ("C", 0.9)})
    assert _recorded(_started().observe(view)) == []  # read as the moved cannon seen elsewhere: not accepted
    blown = np.zeros(90, dtype=bool)
    blown[glare] = True
    resolver = _started()
    events = resolver.observe(replace(view, unreadable=blown))
    assert _recorded(events) == ["h2e2"]
    assert not [e for e in events if isinstance(e, Alert)]


def test_a_move_off_a_blown_out_point_reading_covered_is_not_held_for_a_hand_one_onto_it_is() -> None:
    # s960000-clean-004: the cannon left a point glare blows out, which read "covered" on every still
    # view; the move waited 4.5 s for a hand that was not there, then came with the reply as two moves
    board = _moved(Position.start().board, "b2", "b5")
    b2 = parse_square("b2")
    blown = np.zeros(90, dtype=bool)
    blown[b2] = True
    view = observe_board(board, 2.0, covered=(b2,))
    assert _recorded(_started().observe(view)) == []  # a hand may be over b2: wait
    assert _recorded(_started().observe(replace(view, unreadable=blown))) == ["b2b5"]
    hand = observe_board(board, 2.0, covered=(b2, parse_square("c2")))  # a hand beside the glare: wait
    assert _recorded(_started().observe(replace(hand, unreadable=blown))) == []
    # a piece landing on such a point is judged once the mover's press says it was let go of and the
    # rest of the view names the move (nothing else empties b2); before the press it may be in a hand
    b5 = parse_square("b5")
    landed = replace(observe_board(board, 2.0, covered=(b5,)), unreadable=blown)
    blown[:] = False
    blown[b5] = True
    resolver = Resolver(clock=True)
    resolver.observe(observe_board(Position.start().board, 0.5))
    assert _recorded(resolver.observe(landed)) == [] and resolver.wants_retry
    resolver.press(ClockPress(2.2, "red", 900_000, 900_000))
    assert _recorded(resolver.observe(replace(landed, t=2.4))) == ["b2b5"]
    # ... and so it is when glare touches the point beside it too, which alone would tell b2b5 from
    # b2b4: the landing the points read likelier is recorded (here b4, read as the cannon at 0.6,
    # against b5 read only as covered), with the other named as its rival for a later view to correct
    # (fresh s1800000-clean-016: waiting for a view that read it, the cannon's b2b6 was raised as the
    # illegal b2b7 and caught up 46 s later as b2b5)
    b4 = parse_square("b4")
    blown[b4] = True
    washed = replace(observe_board(board, 2.0, covered=(b5,), misread={b4: ("C", 0.6)}), unreadable=blown)
    resolver = Resolver(clock=True)
    resolver.observe(observe_board(Position.start().board, 0.5))
    resolver.press(ClockPress(1.9, "red", 900_000, 900_000))
    events = resolver.observe(washed)
    assert [(e.iccs, "b2b5" in e.rivals) for e in events if isinstance(e, MoveRecorded)] == [("b2b4", True)]


def test_of_two_blown_out_landings_the_one_read_as_covered_is_no_likelier() -> None:
    """Fresh s1800000-clean-038: the black cannon's b7b4 under a lamp over b3 and b4. b3 read
    "covered" (0.74, the rest nearly all "empty"), so it was left out of the scores and b7b3 beat
    b7b4, whose point read empty at 0.56: the move waited, then the game was lost. The two landings
    are one story the view cannot tell apart; the one a piece reads likelier on, covered or not, is
    taken, the other kept as its rival."""
    position = Position.start().play("h2e2")
    b3, b4 = parse_square("b3"), parse_square("b4")
    blown = np.zeros(90, dtype=bool)
    blown[[b3, b4]] = True
    resolver = Resolver(clock=True)
    resolver.observe(replace(observe_board(Position.start().board, 0.5), unreadable=blown))
    resolver.observe(replace(observe_board(position.board, 2.0), unreadable=blown))
    resolver.press(ClockPress(2.1, "red", 900_000, 900_000))
    after = position.play("b7b4")
    view = observe_board(after.board, 4.0, misread={b4: (".", 0.56)})
    probs = view.probs.copy()
    probs[b3] = 0.0
    probs[b3, CLASSES.index("covered")], probs[b3, CLASSES.index("empty")], probs[b3, CLASSES.index("p")] = 0.74, 0.24, 0.02
    resolver.press(ClockPress(4.1, "black", 900_000, 900_000))
    events = resolver.observe(replace(view, probs=probs, mask=probs[:, CLASSES.index("covered")] >= 0.5,
                                      unreadable=blown, t=4.2))
    recorded = [e for e in events if isinstance(e, MoveRecorded)]
    assert [(e.iccs, "b7b3" in e.rivals) for e in recorded] == [("b7b4", True)]
    assert not [e for e in events if isinstance(e, Alert)]


def test_a_steady_lamp_over_the_point_a_piece_lands_on_does_not_stop_the_record() -> None:
    """With no clock, a move landing on a blown-out point reading "covered" is recorded with the
    reply that shows the piece let go of (no ``two_moves``: the first was seen still), and the moves
    after it are recorded, the lamp never moving."""
    blown = np.zeros(90, dtype=bool)
    e2 = parse_square("e2")
    blown[e2] = True
    resolver = _started()
    position = Position.start()
    events = []
    for i, move in enumerate(["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]):
        position = position.play(move)
        view = observe_board(position.board, 2.0 + 3 * i, covered=(e2,), seed=i)
        events += resolver.observe(replace(view, unreadable=blown))
    assert _recorded(events) == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0"]
    assert not [e for e in events if isinstance(e, Alert)]


@pytest.mark.parametrize("clock", [False, True])
def test_a_steady_lamp_over_two_neighbouring_points_keeps_the_record_in_order(clock: bool) -> None:
    """A reviewer's probe: a lamp over b5 and b4, the cannon landing on b5 (reading "covered").
    Only the glare told b2b5 from b2b4, so the move waited for a view that read it, which a steady
    lamp never gave: with no clock nothing more was recorded; with one, the moves were caught up
    three moves later as h2e2 h9g7 b2b5 with a lost-track alert. The reply shows the cannon let go
    of: the pair is judged from the whole view then, and every move after it as it comes."""
    blown = np.zeros(90, dtype=bool)
    b5 = parse_square("b5")
    blown[[b5, parse_square("b4")]] = True
    resolver = Resolver(clock=clock)
    resolver.observe(observe_board(Position.start().board, 0.5))
    position = Position.start()
    events: list = []
    moves = ["b2b5", "h9g7", "h2e2", "i9h9", "h0g2", "b9c7"]
    for i, move in enumerate(moves):
        side = position.side_to_move
        position = position.play(move)
        view = replace(observe_board(position.board, 2.0 + 3 * i, covered=(b5,), seed=i), unreadable=blown)
        events += resolver.observe(view)
        if clock:
            events += resolver.press(ClockPress(2.3 + 3 * i, side, 900_000, 900_000))
            events += resolver.observe(replace(view, t=2.6 + 3 * i))
    assert _recorded(events) == moves
    assert not [e for e in events if isinstance(e, Alert)]


def _horse_gone_under_a_lamp(lamp_before: bool, pressed: bool, touched_known: bool) -> list:
    """h2e2 seen whole with d8 blown out (reading a piece already when ``lamp_before``), then the
    black horse gone from b9 and d8 reading a piece; black pressed the clock when ``pressed``."""
    blown = np.zeros(90, dtype=bool)
    d8 = parse_square("d8")
    blown[d8] = True
    resolver = Resolver(clock=True)
    resolver.observe(observe_board(Position.start().board, 0.5))
    after_red = _moved(Position.start().board, "h2", "e2")
    resolver.press(ClockPress(1.8, "red", 900_000, 900_000))
    lamp = {d8: ("R", 0.8)} if lamp_before else {}
    events = resolver.observe(replace(observe_board(after_red, 2.0, misread=lamp), unreadable=blown))
    assert _recorded(events) == ["h2e2"]
    if pressed:
        resolver.press(ClockPress(4.8, "black", 900_000, 900_000))
    near = tuple(parse_square(name) for name in ("b9", "c9", "c8", "d8")) if touched_known else None
    gone = _moved(after_red, "b9", "d8")
    view = observe_board(gone, 5.0, misread={d8: ("N", 0.6)} if not lamp_before else lamp, touched=near)
    events = resolver.observe(replace(view, unreadable=blown))
    return events + resolver.observe(replace(view, t=5.3, unreadable=blown))


@pytest.mark.parametrize("pressed", [False, True])
def test_an_illegal_move_onto_a_point_glare_blows_out_is_raised_once_the_clock_is_pressed(pressed: bool) -> None:
    """Standing inject-044: the black horse's b9d8 (its leg on c9 blocked) onto a blown-out d8,
    which read a piece (of the wrong colour) once the horse stood there. Glare points are never a
    clear contradiction, so the board fit "as recorded, the horse gone", held 5 s as perhaps in a
    hand. With black's press the horse was let go of there: the illegal move is raised. Without
    it, a lamp coming on over d8 as the horse is lifted and held reads the same (a reviewer's
    probe raised a false illegal move so): held as missing, as before."""
    events = _horse_gone_under_a_lamp(lamp_before=False, pressed=pressed, touched_known=True)
    raised = [(e.kind, e.squares, e.violation) for e in events if isinstance(e, IllegalMoveAlert)]
    assert raised == ([("illegal_move", ("b9", "d8"), "leg_blocked")] if pressed else [])
    assert _recorded(events) == []


@pytest.mark.parametrize("touched_known", [False, True])
def test_a_glare_point_reading_a_piece_all_along_is_no_end_of_a_move(touched_known: bool) -> None:
    """A lamp that makes d8 read a piece on the last whole view and now proves nothing: the horse
    gone from b9 may be in a hand (with every point counted as touched, that board had been
    raised as the illegal b9d8)."""
    events = _horse_gone_under_a_lamp(lamp_before=True, pressed=True, touched_known=touched_known)
    assert not [e for e in events if isinstance(e, IllegalMoveAlert)]


def test_an_illegal_capture_onto_a_glare_point_is_raised() -> None:
    """A reviewer's probe: the red chariot's a0a9 through its own soldier onto a blown-out a9 that
    read the black chariot and now reads red. The point is occupied on both views; its colour
    changed, so it may end a move: the illegal capture is raised."""
    blown = np.zeros(90, dtype=bool)
    a9 = parse_square("a9")
    blown[a9] = True
    start = Position.start().board
    resolver = Resolver()
    resolver.observe(replace(observe_board(start, 0.5, misread={a9: ("r", 0.85)}), unreadable=blown))
    board = _moved(start, "a0", "a9")
    near = tuple(parse_square(name) for name in ("a0", "a1", "b0", "a9", "a8", "b9"))
    events: list = []
    for t in (2.0, 2.3):
        view = observe_board(board, t, misread={a9: ("R", 0.85)}, touched=near)
        events += resolver.observe(replace(view, unreadable=blown))
    raised = [(e.kind, e.squares) for e in events if isinstance(e, IllegalMoveAlert)]
    assert raised == [("illegal_move", ("a0", "a9"))]


def test_a_landing_under_glare_keeps_every_other_landing_there_as_a_rival() -> None:
    """A reviewer's probe: a steady lamp over b4 and b5, the cannon's b2b4 with b4 read empty at
    0.999 and b5 reading covered. The pair b2b5 h9g7 was recorded with no rival b2b4 (not among
    the views' five best), and when the lamp went the record could not be put right: a false
    ``unexplained`` alert. Every landing the view cannot rule out but by glare is kept now."""
    blown = np.zeros(90, dtype=bool)
    b4, b5 = parse_square("b4"), parse_square("b5")
    blown[[b4, b5]] = True
    resolver = _started()
    position = Position.start()
    events: list = []
    for i, move in enumerate(["b2b4", "h9g7"]):
        position = position.play(move)
        view = observe_board(position.board, 2.0 + 3 * i, seed=i, covered=(b5,), misread={b4: (".", 0.999)})
        events += resolver.observe(replace(view, unreadable=blown))
    recorded = [e for e in events if isinstance(e, MoveRecorded)]
    assert [e.iccs for e in recorded] == ["b2b5", "h9g7"]  # the glare alone reads so
    assert "b2b4" in recorded[0].rivals
    events = resolver.observe(observe_board(position.board, 10.0, seed=9, touched=()))
    if resolver.wants_retry:
        events += resolver.observe(observe_board(position.board, 10.4, seed=10, touched=()))
    assert [m.iccs for m in resolver.game.moves] == ["b2b4", "h9g7"]  # the lamp gone: put right
    assert not [e for e in events if isinstance(e, Alert)]


def test_a_piece_held_off_the_board_is_not_taken_as_set_down_where_glare_hides_the_board() -> None:
    # a reviewer's probe: the cannon lifted and held in the hand, away from the board, left h2 as
    # empty as h2e2 onto a blown-out e2 would; h2e2 was recorded, and when the cannon was put down on
    # h4 the record never came back (a false illegal move later blamed the player)
    blown = np.zeros(90, dtype=bool)
    e2 = parse_square("e2")
    blown[e2] = True
    start = Position.start().board
    held = start[:parse_square("h2")] + "." + start[parse_square("h2") + 1:]
    resolver = _started()
    events = resolver.observe(replace(observe_board(held, 2.0, covered=(e2,)), unreadable=blown))
    assert _recorded(events) == [] and not [e for e in events if isinstance(e, Alert)]
    put_down = Position.start().play("h2h4")
    events = resolver.observe(replace(observe_board(put_down.board, 3.5, covered=(e2,), seed=3), unreadable=blown))
    assert _recorded(events) == ["h2h4"]


def test_an_inconclusive_board_is_read_again_a_few_times() -> None:
    """A move read poorly on one look (glare, blur) is looked at again, but a board that stays unclear is let be."""
    board = _moved(Position.start().board, "h2", "e2")
    poor = {parse_square("h2"): ("C", 0.3), parse_square("e2"): (".", 0.3)}  # neither end surely read
    resolver = _started()
    looks = []
    for i in range(5):  # the first look follows the hand; the others see nothing move
        view = observe_board(board, 2.0 + 0.3 * i, misread=poor, touched=None if i == 0 else ())
        assert _recorded(resolver.observe(view)) == []
        looks.append(resolver.wants_retry)
    assert looks == [True, True, True, False, False]
    assert _recorded(resolver.observe(observe_board(board, 4.0, touched=()))) == ["h2e2"]
    resolver = _started()
    resolver.observe(observe_board(board, 2.0, misread=poor))
    assert resolver.wants_retry
    assert _recorded(resolver.observe(observe_board(board, 2.3, touched=()))) == ["h2e2"]  # the second look reads it


def test_a_board_set_up_wrong_is_alerted_before_the_first_move() -> None:
    """A horse and a chariot swapped at the start read surely as each other: the set-up is wrong (art. 1.3)."""
    start = Position.start().board
    swapped = {parse_square("a0"): ("N", 0.99), parse_square("b0"): ("R", 0.99)}
    resolver = Resolver()
    events = _look(resolver, start, 0.5, misread=swapped)
    alerts = [e for e in events if isinstance(e, BoardDisturbed)]
    assert [(a.kind, a.squares, a.article) for a in alerts] == [("board_disturbed", ("a0", "b0"), "1.3")]
    assert "the red chariot on a0 reads as a red horse" in alerts[0].text
    assert alerts[0].text.endswith("the board must be set up as the start position (art. 1.3)")
    assert "1NBAKABNR" not in alerts[0].fen_seen and alerts[0].fen_seen.endswith("NRBAKABNR")


def test_a_piece_misread_as_another_during_the_game_is_no_set_up_alert() -> None:
    """After the first move pieces do not change identity: characters read as others are misreadings."""
    resolver = _started()
    board = _moved(Position.start().board, "h2", "e2")
    assert _recorded(_look(resolver, board, 2.0)) == ["h2e2"]
    swapped = {parse_square("a0"): ("N", 0.99), parse_square("b0"): ("R", 0.99)}  # read as a swap would be
    events = _look(resolver, board, 3.0, misread=swapped, touched=(parse_square("a0"), parse_square("b0")))
    assert not [e for e in events if isinstance(e, Alert)]


def test_a_doubtful_reading_of_pieces_at_the_start_raises_nothing() -> None:
    """Only sure readings count: a swap read half-surely is the camera's doubt."""
    start = Position.start().board
    doubtful = {parse_square("a0"): ("N", 0.6), parse_square("b0"): ("R", 0.6)}
    events = _look(Resolver(), start, 0.5, misread=doubtful)
    assert not [e for e in events if isinstance(e, Alert)]


def test_pieces_misread_at_the_start_into_more_than_a_set_holds_raise_nothing() -> None:
    """Both black horses read surely as chariots would make four chariots: the camera misreads them."""
    start = Position.start().board
    misread = {parse_square("b9"): ("r", 0.99), parse_square("h9"): ("r", 0.99),
               parse_square("a0"): ("N", 0.99), parse_square("b0"): ("R", 0.99)}
    alerts = [e for e in _look(Resolver(), start, 0.5, misread=misread) if isinstance(e, Alert)]
    assert [a.squares for a in alerts] == [("a0", "b0")]  # the swap stands; the impossible reading does not
    alerts = [e for e in _look(Resolver(), start, 0.5, misread={parse_square("b9"): ("r", 0.99)}) if isinstance(e, Alert)]
    assert alerts == []


def test_a_swap_at_the_start_is_named_though_another_piece_is_misread_like_it() -> None:
    """A swap beside a misreading of the same kinds: the swap is named (with the point read like it)."""
    start = Position.start().board
    misread = {parse_square("a0"): ("N", 0.99), parse_square("b0"): ("R", 0.99), parse_square("h0"): ("R", 0.99),
               parse_square("b9"): ("N", 0.99)}  # h0's horse read as a chariot; b9's black horse as a red one
    alerts = [e for e in _look(Resolver(), start, 0.5, misread=misread) if isinstance(e, Alert)]
    assert [a.squares for a in alerts] == [("a0", "b0", "h0")]


def test_a_swap_on_a_given_start_position_asks_for_that_position_not_art_1_3() -> None:
    """Art. 1.3 is the standard start; a game begun from another position is set up as that one."""
    start = Position.from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1")
    swapped = {parse_square("a0"): ("N", 0.99), parse_square("b0"): ("R", 0.99)}
    alerts = [e for e in _look(Resolver(start), start.board, 0.5, misread=swapped) if isinstance(e, Alert)]
    assert [(a.squares, a.article) for a in alerts] == [(("a0", "b0"), "")]
    assert alerts[0].text.endswith("the board must be set up as the position the game starts from")


def test_a_board_far_from_the_start_before_the_first_move_hints_at_another_start() -> None:
    """A game filmed from an endgame study without --fen: the alert says what to do."""
    endgame = Position.from_fen("3k5/4P4/2P1P4/P7P/9/p3p3p/9/2p1p4/9/4K4 w - - 0 1")
    resolver = Resolver()
    alerts = [e for e in resolver.observe(observe_board(endgame.board, 1.0)) if isinstance(e, Alert)]
    alerts += [e for e in resolver.observe(observe_board(endgame.board, 1.4, seed=1)) if isinstance(e, Alert)]
    assert [a.kind for a in alerts] == ["unexplained"] and "record --fen" in alerts[0].text
    given = Resolver(endgame)  # --fen given, the board set up at the standard start: another hint
    alerts = [e for e in given.observe(observe_board(Position.start().board, 1.0)) if isinstance(e, Alert)]
    alerts += [e for e in given.observe(observe_board(Position.start().board, 1.4, seed=1)) if isinstance(e, Alert)]
    assert [a.kind for a in alerts] == ["unexplained"] and "given with --fen" in alerts[0].text


def test_moves_made_while_a_wrong_correction_stood_are_caught_up_once_it_is_put_right() -> None:
    """The arbiter corrects ply 3 wrongly; the players go on, and the moves that touch the points
    the correction got wrong cannot be explained; the arbiter puts ply 3 right: the views seen
    meanwhile still say where hands moved, so those moves are caught up, not explained by other
    moves (a tester's console session recorded three wrong moves here)."""
    line = ["h2e2", "h9g7", "c3c4", "b9c7", "c4c5", "i9h9", "h0g2"]
    boards = [Position.start()]
    for iccs in line:
        boards.append(boards[-1].play(iccs))
    resolver = _started()
    t = 1.0

    def play(ply: int) -> list:
        nonlocal t
        src, dst = line[ply - 1][:2], line[ply - 1][2:]
        t += 2.0
        return _look(resolver, boards[ply].board, t, touched=(parse_square(src), parse_square(dst)))

    for ply in (1, 2, 3):
        play(ply)
    resolver.adopt(1, ["h2e2", "h9g7", "a3a4"])  # the wrong correction
    play(4)  # far from the points it got wrong: recorded
    assert [m.iccs for m in resolver.game.moves] == ["h2e2", "h9g7", "a3a4", "b9c7"]
    for ply in (5, 6, 7):  # the soldier the record does not have on c4 moves on: nothing explains it
        play(ply)
    assert len(resolver.game.moves) == 4
    resolver.adopt(1, line[:4])  # put right: the board is three moves ahead of the record
    events = _look(resolver, boards[7].board, t + 1.0, touched=())
    assert [m.iccs for m in resolver.game.moves] == line
    assert [e.iccs for e in events if isinstance(e, MoveRecorded)] == line[4:]


def _recorded_then_corrected_wrongly(line: list[str]) -> tuple[Resolver, list[Position]]:
    """A resolver that recorded the first four plies of ``line`` (h2e2 h9g7 h0g2 i9h9), then took the
    arbiter's wrong correction of ply 3 (b0c2, the other horse) at 10 s; and the boards of ``line``."""
    boards = [Position.start()]
    for iccs in line:
        boards.append(boards[-1].play(iccs))
    resolver = _started()
    for ply in range(1, 5):
        _look(resolver, boards[ply].board, 2.0 * ply)
    resolver.adopt(1, ["h2e2", "h9g7", "b0c2", "i9h9"], t=10.0)
    return resolver, boards


def test_moves_made_while_the_record_was_wrong_are_read_from_the_board_once_it_is_put_right() -> None:
    # tester 15: a wrong correction stood while five plies were played; the arbiter then put the record
    # right, the board five plies on. (Read against the wrong record, the red horse going out at ply 7
    # is the other horse: the board is the same; after the fix that ply no longer follows and is read
    # again from the board)
    line = ["h2e2", "h9g7", "h0g2", "i9h9", "c3c4", "b9c7", "b0c2", "c6c5", "a0a1"]
    resolver, boards = _recorded_then_corrected_wrongly(line)
    events: list = []
    for ply in range(5, 10):
        src, dst = line[ply - 1][:2], line[ply - 1][2:]
        events += _look(resolver, boards[ply].board, 2.0 * ply + 2.0, touched=(parse_square(src), parse_square(dst)))
    kept = [m.iccs for m in resolver.game.moves][4:]  # what adopt_record keeps: those still legal after the fix
    position = boards[4]
    for iccs in list(kept):
        if Move.from_iccs(iccs) not in position.legal_moves():
            kept = kept[:kept.index(iccs)]
            break
        position = position.play(iccs)
    resolver.adopt(1, line[:4] + kept, t=20.0)  # put right
    events = _look(resolver, boards[9].board, 21.0, touched=())
    assert [m.iccs for m in resolver.game.moves][:4] == line[:4] and resolver.game.position.board == boards[9].board
    assert sorted(m.iccs for m in resolver.game.moves[4:]) == sorted(line[4:])
    if len(line) - 4 - len(kept) >= 3:  # read as after an outage: the arbiter is asked to check them
        (alert,) = [e for e in events if isinstance(e, Alert)]
        assert alert.kind == "moves_while_away" and "while the record was wrong" in alert.text


def test_a_wrong_correction_is_not_repaired_by_moves_that_change_nothing() -> None:
    # the board did not move; the record now says the other horse went out. Shuffles could explain
    # the board (the wrong horse back, a black piece out and back, the right horse out): no moves
    # may be invented; the board is a position no continuation explains
    resolver, boards = _recorded_then_corrected_wrongly(["h2e2", "h9g7", "h0g2", "i9h9"])
    events: list = []
    for k in range(3):
        events += _look(resolver, boards[4].board, 11.0 + k, touched=())
    assert not [e for e in events if isinstance(e, MoveRecorded)] and len(resolver.game.moves) == 4
    assert any(isinstance(e, Alert) and e.kind == "unexplained" for e in events)


@pytest.mark.skipif(not GAMES.exists(), reason="shared games not present")
def test_nine_rounds_of_attacks_are_advised_before_the_threefold_repetition() -> None:
    moves = GAMES.read_text(encoding="utf-8").splitlines()[507].split()[1:90]  # line 508, to ply 89
    _, ended = game_ends_seen(moves)
    # black checks and threatens mate over four points from ply 59 (art. 23.4), changes, and
    # later repeats a position three times with the same conduct: both are news for the arbiter
    assert [(e.ply, e.reason, e.advisory) for e in ended] == [(76, "must_change", True), (89, "must_change", True)]
    assert "23.4" in ended[0].text and "23.4" not in ended[1].text


def test_a_move_seen_unclearly_is_looked_at_again_not_alerted_as_a_disturbance() -> None:
    """The standing benchmark's clean-034: glare washes a cannon's old point (read half empty) and its
    new one reads as another black piece. The move explains both points better than the record but
    not by the margin a move needs; a piece 'appeared where none should stand' was raised, falsely."""
    resolver = _started()
    first = _moved(Position.start().board, "h2", "e2")
    assert _recorded(_look(resolver, first, 2.0)) == ["h2e2"]
    board = _moved(first, "h7", "f7")
    read = {"h7": {"empty": 0.55, "c": 0.07}, "f7": {"r": 0.5, "p": 0.3, "c": 0.05, "empty": 0.04}}  # as measured

    def unclear(t: float, touched: tuple[int, ...] | None) -> Observation:
        view = observe_board(board, t, touched=touched)
        probs = view.probs.copy()
        for name, given in read.items():
            row = np.full(len(CLASSES), (1.0 - sum(given.values())) / (len(CLASSES) - len(given)))
            for label, q in given.items():
                row[CLASSES.index(label)] = q
            probs[parse_square(name)] = row
        return replace(view, probs=probs)

    events = []
    for i in range(4):
        events += resolver.observe(unclear(4.0 + 0.4 * i, None if i == 0 else ()))
    assert _recorded(events) == [] and not [e for e in events if isinstance(e, Alert)]
    assert _recorded(_look(resolver, board, 9.0, touched=())) == ["h7f7"]  # a clear view records it
    # a piece that appears where no legal move brings one is still raised
    stray = _moved(board, "b0", "b5")
    raised = _look(resolver, stray, 10.0) + _look(resolver, stray, 11.0, touched=())
    assert _recorded(raised) == [] and [e for e in raised if isinstance(e, Alert)]


def test_a_wrong_correction_is_not_undone_by_a_move_the_recorder_invents() -> None:
    """A tester corrected ply 1 from h2e2 (what was played) to h2d2 in the console. The board still
    showed the cannon on e2, and the recorder explained it with a move d2e2 that no one played, so
    the record had an extra ply and every move after it the wrong side's. The board showing the
    game as the recorder read it before the correction is not explained by a move: it stays
    unexplained until the arbiter corrects the record again or the board matches it."""
    resolver = _started()
    played = _moved(Position.start().board, "h2", "e2")
    assert _recorded(_look(resolver, played, 2.0)) == ["h2e2"]
    resolver.adopt(1, ["h2d2"], 3.0)  # the arbiter's mistake
    reply = _moved(played, "b9", "c7")  # black replies on the board as it stands
    events = _look(resolver, reply, 4.0) + _look(resolver, reply, 5.0, touched=())
    assert _recorded(events) == [] and [e for e in events if isinstance(e, Alert)]
    assert [m.iccs for m in resolver.game.moves] == ["h2d2"]
    resolver.adopt(1, ["h2e2"], 6.0)  # put right: the reply is read as after a correction undone
    assert _recorded(_look(resolver, reply, 7.0)) == ["b9c7"]


def _reading(view: Observation, rows: dict[str, dict[str, float]]) -> Observation:
    """``view`` with the given points read as the given class shares (the rest spread evenly)."""
    for name, split in rows.items():
        row = np.full(len(CLASSES), (1.0 - sum(split.values())) / (len(CLASSES) - len(split)))
        for letter, p in split.items():
            row[CLASSES.index("empty" if letter == "." else letter)] = p
        view.probs[parse_square(name)] = row
    return view


def test_the_still_view_of_a_first_move_tells_which_pair_a_later_view_shows() -> None:
    """Glare over a capture's target leaves its view unclear, and the view after the reply unclear over
    which move came first (a washed empty point reads like the chariot); the two views together are not."""
    start = Position.from_fen("3k5/9/5Nr2/9/9/6P2/9/9/9/4K4 b - - 0 1")
    first = start.play("g7g5")  # the chariot takes the soldier; the horse it could have taken then moves
    both = first.play("f7d6")
    first_reads = {"g5": {"P": 0.4, "r": 0.35}, "f7": {"N": 0.5, "r": 0.35}}
    both_reads = {"g5": {"P": 0.4, "r": 0.35}, "h7": {".": 0.45, "r": 0.35}}
    near_capture = tuple(parse_square(name) for name in ("g7", "g6", "g5", "f7"))

    def reply_seen(resolver: Resolver) -> list:
        return [event for i in range(2) for event in resolver.observe(
            _reading(observe_board(both.board, 4.0 + 0.3 * i, seed=5 + i, touched=None if i == 0 else ()), both_reads))]

    resolver = Resolver(start)
    resolver.observe(observe_board(start.board, 0.5))
    for i in range(4):
        view = observe_board(first.board, 2.0 + 0.3 * i, seed=i, touched=near_capture if i == 0 else ())
        assert _recorded(resolver.observe(_reading(view, first_reads))) == []  # not clear enough alone
    events = reply_seen(resolver)
    assert _recorded(events) == ["g7g5", "f7d6"]
    # the board stood still after the first move: they were not made between still views (no two_moves)
    assert [e.kind for e in events if isinstance(e, Alert)] == []
    unaware = Resolver(start)  # the view after the reply alone does not say which move came first
    unaware.observe(observe_board(start.board, 0.5))
    assert _recorded(reply_seen(unaware)) == []


def test_plies_the_arbiter_took_back_are_not_read_back_from_a_board_still_showing_them() -> None:
    boards = [Position.start()]
    for iccs in ("h2e2", "h9g7", "h0g2", "i9h9"):
        boards.append(boards[-1].play(iccs))
    resolver = _started()
    for ply in range(1, 5):
        _look(resolver, boards[ply].board, 2.0 * ply)
    resolver.adopt(1, ["h2e2", "h9g7"], 9.0, taken_back=True)
    events = _look(resolver, boards[4].board, 10.0, touched=())
    assert _recorded(events) == [] and [e.kind for e in events if isinstance(e, Alert)] == ["unexplained"]
    events = _look(resolver, boards[2].board, 14.0)  # the arbiter put the board back (art. 5.8)
    assert any(isinstance(e, PositionRestored) for e in events) and not resolver.desynced
    assert [m.iccs for m in resolver.game.moves] == ["h2e2", "h9g7"]
    assert _recorded(_look(resolver, boards[3].board, 16.0)) == ["h0g2"]


def test_a_piece_moved_on_illegally_is_raised_not_explained_by_revising_its_earlier_move() -> None:
    """A chariot sent i0h0 under glare (i0i1 not ruled out), then moved h0i2, a step no chariot makes:
    i0i1 then i1i2 would explain the board too, by rewriting the record the views chose; the
    illegal move is raised instead, and the record stands."""
    start = Position.from_fen("3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1")
    resolver = Resolver(start)
    resolver.observe(observe_board(start.board, 0.5))
    first = start.play("i0h0")
    glare = {"h0": {"R": 0.85, ".": 0.05}, "i1": {".": 0.65, "R": 0.25}}
    events = resolver.observe(_reading(observe_board(first.board, 2.0, touched=tuple(
        parse_square(n) for n in ("i0", "h0", "i1"))), glare))
    events += resolver.observe(_reading(observe_board(first.board, 2.3, seed=1, touched=()), glare))
    (recorded,) = [e for e in events if isinstance(e, MoveRecorded)]
    assert recorded.iccs == "i0h0" and "i0i1" in recorded.rivals
    second = first.play("d9d8")
    _look(resolver, second.board, 4.0, touched=(parse_square("d9"), parse_square("d8")))
    cells = list(second.board)
    cells[parse_square("h0")], cells[parse_square("i2")] = ".", "R"
    events = _look(resolver, "".join(cells), 6.0, touched=tuple(parse_square(n) for n in ("h0", "i1", "i2")))
    assert [(e.kind, e.squares) for e in events if isinstance(e, IllegalMoveAlert)] == [("illegal_move", ("h0", "i2"))]
    assert not [e for e in events if isinstance(e, MoveCorrected)]
    assert [m.iccs for m in resolver.game.moves] == ["i0h0", "d9d8"]


def test_a_piece_read_gone_after_a_move_with_no_disc_near_it_is_held_not_raised_at_once() -> None:
    """After a move, a neighbour read as empty with its disc lying nearby is a knock, raised at once;
    with no disc anywhere near it (soft glare over it, s960000-clean-000) it is held, and a later
    look that reads it again raises nothing."""
    board = _moved(Position.start().board, "h2", "e2")
    f0 = parse_square("f0")
    near = tuple(parse_square(n) for n in ("h2", "e2", "f0"))
    offsets = np.full((90, 2), np.nan)
    for sq, letter in enumerate(board):
        if letter != "." and sq != f0:
            offsets[sq] = (0.02, -0.01)  # the disc search worked on this view, and saw none at f0
    gone = {f0: (".", 0.9)}
    resolver = _started()
    first = resolver.observe(replace(observe_board(board, 2.0, misread=gone, touched=near), offsets=offsets))
    second = resolver.observe(replace(observe_board(board, 2.4, seed=1, misread=gone, touched=()), offsets=offsets))
    assert _recorded(first) == ["h2e2"] and not [e for e in first + second if isinstance(e, Alert)]
    later = resolver.observe(replace(observe_board(board, 5.0, seed=2, touched=()), offsets=offsets))
    assert not [e for e in later if isinstance(e, Alert)]
    knocked = offsets.copy()
    knocked[f0] = (0.45, 0.1)  # the advisor's disc lies off its point: knocked, raised at once
    resolver = _started()
    events = resolver.observe(replace(observe_board(board, 2.0, misread=gone, touched=near), offsets=knocked))
    events += resolver.observe(replace(observe_board(board, 2.4, seed=1, misread=gone, touched=()), offsets=knocked))
    assert [e.kind for e in events if isinstance(e, Alert)] == ["board_disturbed"]


def test_pieces_read_in_the_other_sides_colour_only_are_waited_on_as_the_light_changing() -> None:
    # fresh bench clean-043: the light dimmed as a red chariot took a black one, and the taker, a red
    # soldier and a red horse read black for 2.5 s: "unexplained". No legal move turns a piece
    # black, and a board put wrong also vacates or fills a point: the light is waited for
    start = Position.start()
    taken = start.play("h2h9")  # the cannon takes the horse over its screen
    dim = {parse_square(sq): (letter, 0.97) for sq, letter in (("h9", "c"), ("c3", "p"), ("b0", "n"))}
    resolver = Resolver()
    assert not resolver.observe(observe_board(start.board, 0.5))
    events: list[object] = []
    for t in (1.0, 1.3, 2.0, 3.0):
        events += resolver.observe(observe_board(taken.board, t, misread=dim))
    events += resolver.observe(observe_board(taken.board, 3.5))  # the light is back
    assert _recorded(events) == ["h2h9"] and not [e for e in events if isinstance(e, Alert)]
    # the colours read wrong for longer than a hand holds a piece: the arbiter is told
    resolver = Resolver()
    resolver.observe(observe_board(start.board, 0.5))
    alerts: list[object] = []
    for t in (1.0, 1.3, 3.0, 5.5, 6.5):
        alerts += resolver.observe(observe_board(taken.board, t, misread=dim))
    assert [a.kind for a in alerts if isinstance(a, Alert)] == ["unexplained"]


def test_a_red_and_a_black_piece_of_one_kind_swapped_at_set_up_are_raised_at_once() -> None:
    # a reviewer: the wait for the light (colours read the other way round) also held this, for 5 s,
    # and a move made meanwhile was recorded with no alert at all
    cells = list(Position.start().board)
    b0, b9 = parse_square("b0"), parse_square("b9")
    cells[b0], cells[b9] = "n", "N"
    swapped = "".join(cells)
    resolver = Resolver()
    alerts = [e for t in (0.5, 0.8) for e in resolver.observe(observe_board(swapped, t, touched=()))
              if isinstance(e, Alert)]
    assert [a.kind for a in alerts] == ["unexplained"] and {"b0", "b9"} <= set(alerts[0].squares)


def test_a_piece_missing_from_the_board_as_set_up_is_raised_before_anything_moves() -> None:
    # a tester's game set up without red's g3 soldier: raised only after the first move (the wait for a
    # piece held in a hand had run into it), and then as a disturbance of the game (art. 5.9)
    start = Position.start().board
    cells = list(start)
    cells[parse_square("g3")] = "."
    missing = "".join(cells)
    resolver = Resolver()
    every = tuple(range(90))
    events = resolver.observe(observe_board(missing, 0.5, touched=every))
    events += resolver.observe(observe_board(missing, 0.9, touched=()))  # the second look, nothing moving
    (alert,) = [e for e in events if isinstance(e, Alert)]
    assert alert.squares == ("g3",) and alert.article == "1.3" and "as set up" in alert.text
    # the game starts anyway: its moves are recorded, and the same missing piece is not raised a second
    # time as a piece knocked during the game (art. 5.9; a tester's sheet carried both)
    opened = _moved(missing, "h2", "e2")
    events = resolver.observe(observe_board(opened, 5.0, touched=(parse_square("h2"), parse_square("e2"))))
    for t in (5.3, 5.6, 9.0, 11.0):
        events += resolver.observe(observe_board(opened, t, touched=()))
    assert _recorded(events) == ["h2e2"] and not [e for e in events if isinstance(e, Alert)]
    # a reviewer: once another piece goes missing, that one is raised, and the set-up fault is not named again
    a3 = parse_square("a3")
    cells = list(opened)
    cells[a3] = "."
    gone = "".join(cells)
    later = resolver.observe(observe_board(gone, 14.0, touched=(a3,)))
    for t in (14.4, 20.0, 20.4, 21.0):
        later += resolver.observe(observe_board(gone, t, touched=()))
    (raised,) = [a for a in later if isinstance(a, Alert)]
    assert raised.squares == ("a3",) and "g3" not in raised.text


def test_a_view_with_a_hand_over_half_a_piece_is_no_clean_view_to_measure_pictures_against() -> None:
    # s1200000-clean-036: the hand bringing a chariot beside the black horse covered half of it, with
    # one point read as covered; that view became the one later pictures were measured against, and
    # the horse, never touched, was raised as lying 0.33 spacings off its point once the hand was gone
    resolver, after, g3 = _seen_pictured_at_start()
    h3 = parse_square("h3")
    # the piece, half under the hand, shows its picture a third of a spacing aside (its disc is found on its point)
    hand = _pictured(after.board, 2.0, _on_points(after.board), {g3: (0.35, 0.0)}, covered=(h3,),
                     touched=(parse_square("h2"), parse_square("e2"), g3, h3))
    picture = hand.view.copy()  # type: ignore[union-attr]
    x, y = int((1.0 + g3 % 9) * 48), int((1.0 + 9 - g3 // 9) * 48)
    picture[y - 60:y + 60, x + 26:x + 90] = 30  # the hand's dark sleeve over h3 and the piece's edge
    assert _recorded(resolver.observe(replace(hand, view=picture))) == ["h2e2"]
    events = [e for t in (2.6, 3.0) for e in resolver.observe(_pictured(after.board, t, _on_points(after.board),
                                                                        touched=(g3, h3)))]
    assert not [e for e in events if isinstance(e, Alert)]


def test_a_point_reading_covered_all_along_leaves_the_clean_view_to_measure_pictures_against() -> None:
    # a reviewer's probe: something lying on e5 read "covered" on every view; no view was taken as the
    # clean one any more, and a soldier knocked 0.35 spacings off g4 was never raised
    e5 = parse_square("e5")
    board = Position.start().board
    resolver = Resolver()
    for t in (0.5, 0.9):
        resolver.observe(_pictured(board, t, _on_points(board), covered=(e5,)))
    position, t = Position.start(), 2.0
    for move in ["h2e2", "h9g7", "h0g2", "c6c5", "g3g4"]:
        position = position.play(move)
        assert _recorded(resolver.observe(_pictured(position.board, t, _on_points(position.board),
                                                    covered=(e5,)))) == [move]
        t += 2
    g4 = parse_square("g4")
    off = _on_points(position.board)
    off[g4] = (0.35, 0.0)
    events = [e for dt in (0.0, 0.4) for e in resolver.observe(
        _pictured(position.board, t + dt, off, {g4: (0.35, 0.0)}, covered=(e5,), touched=(g4,)))]
    assert [e.squares for e in events if isinstance(e, BoardDisturbed)] == [("g4",)]


def test_a_capture_under_glare_does_not_pass_for_a_quiet_landing_by_its_point_reading_occupied() -> None:
    """A reviewer's probe: a lamp over b5 and b9, red's cannon b2b5, b5 reading the red cannon at
    0.97 and b9 the black horse with its colour washed. A capture's point reads occupied whether it
    was made or not; chosen by occupancy, the capture b2b9 was recorded. The landings count by what
    their points read: b2b5, with b2b9 kept as its rival."""
    start = Position.start()
    b5, b9 = parse_square("b5"), parse_square("b9")
    blown = np.zeros(90, dtype=bool)
    blown[[b5, b9]] = True
    resolver = Resolver()
    resolver.observe(replace(observe_board(start.board, 0.5), unreadable=blown))
    view = observe_board(start.play("b2b5").board, 2.0)
    probs = view.probs.copy()
    probs[b9] = 0.0
    probs[b9, CLASSES.index("n")], probs[b9, CLASSES.index("C")], probs[b9, 0] = 0.6, 0.3999, 1e-4
    events = resolver.observe(replace(view, probs=probs, unreadable=blown))
    assert [(e.iccs, e.rivals) for e in events if isinstance(e, MoveRecorded)] == [("b2b5", ("b2b9",))]


def test_a_hand_over_a_lamps_spot_may_hold_a_piece() -> None:
    """A reviewer's probe: red lifts the b0 horse and holds it, the hand over a lamp's spot (d4 d5 e4
    e5, read "covered"). Points glare blows out count as no hand only once read so for seconds with
    nothing moving near; the piece lifted was raised as gone while the hand was still there."""
    lamp = tuple(parse_square(n) for n in ("d4", "d5", "e4", "e5"))
    blown = np.zeros(90, dtype=bool)
    blown[list(lamp)] = True
    resolver = Resolver()
    resolver.observe(replace(observe_board(Position.start().board, 0.5), unreadable=blown))
    cells = list(Position.start().board)
    cells[parse_square("b0")] = "."
    lifted = "".join(cells)
    events = []
    for k, t in enumerate(np.arange(2.0, 12.0, 0.5)):
        view = observe_board(lifted, float(t), seed=k, covered=lamp, touched=(parse_square("b0"), *lamp))
        events += resolver.observe(replace(view, unreadable=blown)) + resolver.tick(float(t) + 0.25)
    assert not [e for e in events if isinstance(e, Alert | MoveRecorded)]
