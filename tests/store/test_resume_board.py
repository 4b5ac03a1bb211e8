"""A resumed resolver judges the board against the last recorded position: the same board or the next
move carries on with the next ply number; a board nothing explains is an alert, not a silent jump."""

from __future__ import annotations

from recorder.events import Alert, MoveRecorded, PositionRestored
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


def test_a_resumed_live_source_goes_on_in_time() -> None:
    from recorder.sources import Frame, Gap
    from recorder.store.resume import continue_times, live_offset

    store = GameStore(":memory:")
    game = store.create_game("cam")
    for event in game_events(MOVES[:4])[:-1]:
        store.append(game, event)
    point = resume_point(store, game)
    offset = live_offset(point)
    assert offset > point.t  # the camera's clock starts at 0 again; the record's time does not
    image = None
    items: list[Frame | Gap] = [Frame(image, 0.0, 0), Gap(2.0, 5.0, "stalled", 3), Frame(image, 5.1, 1)]  # type: ignore[arg-type]
    moved = list(continue_times(items, offset))
    assert [i.t for i in moved] == [offset, offset + 2.0, offset + 5.1]
    assert isinstance(moved[1], Gap) and moved[1].t_resumed == offset + 5.0
    assert live_offset(None) == 0.0
