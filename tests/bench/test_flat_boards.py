"""The second renderer's game plan: the cases it injects are what the benchmark scores them as."""

from __future__ import annotations

from bench.flat_boards import FlatGame
from rules import Position

MOVES = ["c3c4", "b7c7", "b2e2", "h7e7", "h0g2", "c6c5", "b0a2", "c5c4", "a0b0", "h9g7", "b0b8", "i9i8",
         "h2h8", "a9a7"]  # a real opening (games_iccs.txt line 501)


def test_the_plan_times_every_ply_and_press_before_drawing() -> None:
    game = FlatGame(MOVES, seed=1)
    assert [p["iccs"] for p in game.plies] == MOVES
    times = [float(str(p["t_complete"])) for p in game.plies]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert [side for _, side, _, _ in game.presses] == ["red", "black"] * (len(MOVES) // 2)
    assert all(t > done for (t, _, _, _), done in zip(game.presses, times, strict=True))
    assert game.injections == []


def test_an_illegal_move_and_a_knock_are_planned_and_timed() -> None:
    game = FlatGame(MOVES, seed=2, inject=("illegal", "knock"))
    kinds = {str(i["kind"]): i for i in game.injections}
    assert set(kinds) == {"illegal", "knock"}
    for case in kinds.values():
        assert float(str(case["t_start"])) < float(str(case["t_seen"])) < float(str(case["t_end"]))
    trips = game._trips  # noqa: SLF001  (the plan the frames are drawn from)
    there, back = next((a, b) for a, b in zip(trips, trips[1:], strict=False)
                       if a.pick != a.place and (b.pick, b.place) == (a.place, a.pick))
    ply = int(str(kinds["illegal"]["ply"]))
    before = Position.start()
    for move in MOVES[:ply - 1]:
        before = before.play(move)
    assert before.piece_at(there.place) is None  # set on an empty point its piece cannot reach
    assert there.place not in {m.to_square for m in before.legal_moves() if m.from_square == there.pick}
    knocked = next(t for t in trips if t.knock is not None)
    assert knocked.knock is not None and abs(sum(knocked.knock[1])) == 0.4  # 0.4 spacings along a line
    assert any(t.pick == t.place == knocked.knock[0] for t in trips)  # and put right
