"""A resumed resolver judges the board against the last recorded position: the same board or the next
move carries on with the next ply number; a board nothing explains is an alert, not a silent jump."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from recorder.events import Alert, MoveRecorded, PositionRestored, RecordingStopped
from recorder.resolver import Resolver
from recorder.store import GameStore, prime_resolver, resume_point
from rules import Move, Position
from tests.exports.game_events import game_events
from tests.recorder.synthetic import observe_board

MOVES = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]


def _resumed(plies: int) -> tuple[Resolver, Position]:
    store = GameStore(":memory:")
    game = store.create_game("cam")
    for event in game_events(MOVES[:plies])[:-1]:
        store.append(game, event)
    point = resume_point(store, game)
    resolver = Resolver(Position.start())
    prime_resolver(resolver, point)
    return resolver, point.position


def test_the_last_recorded_board_and_the_next_move_go_on() -> None:
    resolver, position = _resumed(5)
    assert resolver.observe(observe_board(position.board, 100.0)) == []
    after = position.play(Move.from_iccs(MOVES[5]))
    events = [e for e in resolver.observe(observe_board(after.board, 105.0, seed=1)) if isinstance(e, MoveRecorded)]
    assert [(e.ply, e.iccs) for e in events] == [(6, MOVES[5])]


def test_a_board_nothing_explains_is_an_alert() -> None:
    resolver, position = _resumed(5)
    wrong = Position.from_fen("3k5/9/9/9/9/4R4/9/9/4R4/4K4 w - - 0 1")
    events: list[object] = []
    for step in range(4):
        events += resolver.observe(observe_board(wrong.board, 100.0 + step, seed=step))
    assert any(isinstance(e, Alert) for e in events)
    assert not any(isinstance(e, MoveRecorded | PositionRestored) for e in events)
    assert resolver.game.ply == 5 and resolver.game.position == position


def test_a_resumed_live_source_goes_on_at_the_real_time_of_the_game() -> None:
    # The recorder of a live game was down ten minutes: the camera's times start at 0 again, and the
    # record's must go on ten minutes later, so alert times still match the hall's clock and footage.
    from recorder.sources import Frame, Gap
    from recorder.store.resume import MAX_AWAY_S, RESUME_GAP_S, continue_times, resume_offset

    store = GameStore(":memory:")
    game = store.create_game("cam")
    for event in game_events(MOVES[:4])[:-1]:
        store.append(game, event)
    point = resume_point(store, game)
    assert point.time_base is not None
    stored_at = point.t - point.time_base  # the wall-clock time of the promptest event's time
    offset = resume_offset(point, live=True, now=stored_at + 600.0)
    assert offset == pytest.approx(point.time_base + stored_at + 600.0) and offset > point.t + 500.0
    assert resume_offset(point, live=True, now=stored_at - 50.0) == point.t + RESUME_GAP_S  # never before it
    assert resume_offset(point, live=False, now=stored_at + 600.0) == point.t + RESUME_GAP_S  # a file's own times
    assert resume_offset(point, live=True, now=stored_at + MAX_AWAY_S + 600.0) == point.t + RESUME_GAP_S  # clock set
    assert resume_offset(replace(point, time_base=None), live=True) == point.t + RESUME_GAP_S  # before schema 4
    assert resume_offset(None, live=True) == 0.0
    image = None
    items: list[Frame | Gap] = [Frame(image, 0.0, 0), Gap(2.0, 5.0, "stalled", 3), Frame(image, 5.1, 1)]  # type: ignore[arg-type]
    moved = list(continue_times(items, offset))
    assert [i.t for i in moved] == [offset, offset + 2.0, offset + 5.1]
    assert isinstance(moved[1], Gap) and moved[1].t_resumed == offset + 5.0


def test_events_stored_late_do_not_shorten_the_time_away() -> None:
    # An acknowledgement made while the recorder was down takes the last event's time but is stored
    # later, as is a camera loss dated from its last frame: the promptest event ties time to the clock.
    from recorder.events import AlertAcknowledged

    store = GameStore(":memory:")
    game = store.create_game("cam")
    for event in game_events(MOVES[:2])[:-1]:
        store.append(game, event)
    first = resume_point(store, game)
    time.sleep(0.05)
    store.append(game, AlertAcknowledged(first.t, 1, "illegal_move", "arbiter", "", ""))
    assert resume_point(store, game).time_base == first.time_base


def test_a_resumed_live_run_starts_with_the_time_away_as_a_gap() -> None:
    # Moves made while nothing recorded are read from the first still view as after a camera outage
    # (with an alert), not left as a board no continuation explains.
    from recorder.sources import Frame, Gap
    from recorder.store.recording import resume_session
    from recorder.store.resume import StoreRecording

    store = GameStore(":memory:")
    recording = StoreRecording.open(store, "cam")
    for event in game_events(MOVES[:4])[:-1]:
        recording.sink(event)
    recording.sink(RecordingStopped(recording.game().plies[-1].t + 1.0, 100, "interrupted"))
    again = StoreRecording.open(store, "cam")
    assert again.resume is not None
    offset = again.start_run(seekable=False, live=True)
    session = _Session()
    items = list(resume_session(session, again, [Frame(None, 0.5, 0)], seekable=False))  # type: ignore[arg-type]
    gap, frame = items
    assert isinstance(gap, Gap) and (gap.t, gap.t_resumed) == (again.resume.t, offset)
    assert gap.reason == "the recorder was not running"
    assert isinstance(frame, Frame) and frame.t == pytest.approx(offset + 0.5)
    assert session.resolver.game.ply == 4


def test_moves_made_while_the_recorder_was_away_are_read_after_the_gap() -> None:
    resolver, position = _resumed(3)
    resolver.lost_sight(200.0, gone_since=100.0)  # what the session does with the resume gap
    after = position
    for iccs in MOVES[3:6]:  # three plies: more than a fast player's pair
        after = after.play(Move.from_iccs(iccs))
    events: list[object] = []
    for step in range(3):
        events += resolver.observe(observe_board(after.board, 201.0 + step, seed=step))
    recorded = [e for e in events if isinstance(e, MoveRecorded)]
    assert [e.ply for e in recorded] == [4, 5, 6] and sorted(e.iccs for e in recorded) == sorted(MOVES[3:6])
    assert resolver.game.position.board == after.board
    # black's two moves could have come in either order: both plies name the other order's move
    assert all(e.rivals for e in recorded if e.ply in (4, 6))
    assert any(isinstance(e, Alert) and e.kind == "moves_while_away" for e in events)


class _Session:
    """What resume_session needs of a session: a resolver to prime, its foul tally and a start to set."""

    def __init__(self) -> None:
        from recorder.fouls import FoulTally

        self.resolver = Resolver(Position.start())
        self.fouls = FoulTally()
        self.start = Position.start()


def test_a_game_whose_pieces_were_set_up_again_stays_so_when_the_recorder_restarts() -> None:
    # a reviewer: the freeze was not stored, so a restarted recorder judged the next game's boards
    # against this one's record again
    store = GameStore(":memory:")
    game = store.create_game("cam")
    events = game_events(MOVES)[:-1]
    for event in events:
        store.append(game, event)
    store.append(game, Alert(90.0, "set_up_again", (), "", "the pieces stand at the start position", 6))
    resolver = Resolver(Position.start())
    prime_resolver(resolver, resume_point(store, game))
    assert resolver.set_up_again_at == 90.0
    assert resolver.observe(observe_board(Position.start().play(MOVES[0]).board, 100.0)) == []
    assert resolver.game.ply == 6


def test_a_piece_missing_at_set_up_is_not_raised_again_after_a_restart() -> None:
    # a finding left open: the set-up fault (art. 1.3) told before the first move stands on its points;
    # a recorder restarted after the first move forgot it and raised the same point as knocked (5.9)
    from rules.squares import parse_square

    def moved(board: str, src: str, dst: str) -> str:
        cells = list(board)
        cells[parse_square(dst)], cells[parse_square(src)] = cells[parse_square(src)], "."
        return "".join(cells)

    cells = list(Position.start().board)
    cells[parse_square("g3")] = "."
    missing = "".join(cells)
    first = Resolver(Position.start())
    events = first.observe(observe_board(missing, 0.5, touched=tuple(range(90))))
    events += first.observe(observe_board(missing, 0.9, touched=()))
    opened = moved(missing, "h2", "e2")
    events += first.observe(observe_board(opened, 5.0, touched=(parse_square("h2"), parse_square("e2"))))
    for t in (5.3, 5.6, 9.0):
        events += first.observe(observe_board(opened, t, touched=()))
    assert [(e.squares, e.article) for e in events if isinstance(e, Alert)] == [(("g3",), "1.3")]
    assert [e.iccs for e in events if isinstance(e, MoveRecorded)] == ["h2e2"]
    store = GameStore(":memory:")
    game = store.create_game("cam")
    for event in events:
        store.append(game, event)
    resolver = Resolver(Position.start())
    prime_resolver(resolver, resume_point(store, game))
    later: list[object] = []
    for t in (100.0, 100.4, 104.0, 106.0):
        later += resolver.observe(observe_board(opened, t, touched=()))
    replied = moved(opened, "h9", "g7")
    later += resolver.observe(observe_board(replied, 110.0, touched=(parse_square("h9"), parse_square("g7"))))
    for t in (110.3, 110.6, 114.0):
        later += resolver.observe(observe_board(replied, t, touched=()))
    assert [e.iccs for e in later if isinstance(e, MoveRecorded)] == ["h9g7"]
    assert not [e for e in later if isinstance(e, Alert)]
