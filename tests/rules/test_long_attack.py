"""Art. 23.4: nine rounds of repeating attacks over three or more points are judged as a repeated
position without waiting for a threefold repetition."""

from __future__ import annotations

from rules import Game, Move, MoveClass, MoveKind, Position
from rules.repetition import goes_round, long_attack

# The red chariot checks on every move while the black general walks round e9, e8, f8 and f9
# (black could take the chariot twice and does not; the rule does not ask why). Found by a
# random search of legal play; no position stands three times.
BOX_FEN = "5k3/9/9/9/9/9/9/9/9/R2K2C2 w"
BOX = ["a0a9", "f9f8", "a9a8", "f8f9", "a8f8", "f9e9", "f8f9", "e9e8", "f9e9", "e8f8", "e9e8", "f8f9", "e8f8", "f9e9", "f8f9", "e9e8", "f9e9", "e8f8", "e9e8", "f8f7", "e8f8"]

# Shared game 1874 (a national final, 1995), from ply 134: black's chariot checks from d4 and e4
# and chases red's loose cannons on a9 and b9, over four points, for nine rounds; the position
# stands twice. Black changed at ply 154 in the game.
CHASE_FEN = "C5C2/4ak3/4b4/8R/9/r7c/9/9/9/3K5 w - - 1 68"
CHASE = ["a9b9", "a4d4", "d0e0", "d4e4", "e0d0", "e4d4", "d0e0", "d4e4", "e0d0", "e4b4", "b9a9", "b4d4", "d0e0", "d4e4", "e0d0", "e4a4", "a9b9", "a4b4"]


def test_perpetual_check_over_four_points_loses_after_nine_rounds() -> None:
    game = Game(Position.from_fen(BOX_FEN), BOX)
    assert game.repetition() is None and len(game.occurrences()) == 1  # no threefold repetition
    verdict = game.long_attack()
    assert verdict is not None and verdict.basis == "nine_rounds"
    assert (verdict.code, verdict.result, verdict.winner) == ("perpetual_check", "0-1", "black")
    assert "23.4" in verdict.text and "长将" in verdict.text
    assert [m.ply for m in verdict.moves] == list(range(4, 22))  # the nine rounds
    # plies 1-18 are nine rounds, but the chariot's first two moves came in from outside
    assert game.long_attack(18) is None
    assert [v.ply for v in game.long_attacks()] == [19]  # the advice holds from ply 19 on, given once
    outcome = game.outcome()
    assert outcome is not None and outcome.advisory and outcome.reason == "perpetual_check"
    assert outcome.verdict is verdict or outcome.verdict == verdict
    assert "9 rounds of attacks, plies 4-21" in verdict.describe()


def test_a_chase_with_checks_over_four_points_must_change_and_then_loses() -> None:
    game = Game(Position.from_fen(CHASE_FEN), CHASE)
    verdict = game.long_attack()
    assert verdict is not None
    assert (verdict.code, verdict.must_change, verdict.result) == ("must_change", "black", None)
    assert verdict.black.label_zh == "一将一捉" and len(verdict.occurrences) == 2
    # black goes on checking and chasing for two more rounds: it did not change (23.5.2.2)
    for move in ["b9a9", "b4d4", "d0e0"]:
        game.push(move)
        assert game.outcome() is not None and game.outcome().reason == "must_change"  # type: ignore[union-attr]
    game.push("d4e4")
    lost = game.outcome()
    assert lost is not None and (lost.reason, lost.result, lost.winner) == ("forbidden_not_changed", "1-0", "red")
    # a threefold repetition that follows is judged knowing black already failed to change
    for move in ["e0d0", "e4a4"]:
        game.push(move)
    threefold = game.repetition()
    assert threefold is not None and threefold.basis == "threefold"
    assert (threefold.code, threefold.winner) == ("forbidden_not_changed", "red")
    assert game.outcome().reason == "forbidden_not_changed"  # type: ignore[union-attr]


def test_an_idle_move_ends_the_verdict_though_the_play_still_goes_round() -> None:
    game = Game(Position.from_fen(CHASE_FEN), CHASE)
    for move in ["b9a9", "b4e4", "a9b9"]:  # the chariot comes to e4 with no check: an idle move
        game.push(move)
    assert game.classify(game.ply - 1).kind is MoveKind.IDLE
    window = [Move.from_iccs(m) for m in (CHASE + ["b9a9", "b4e4", "a9b9"])[-18:]]
    assert goes_round(window[1::2]) and goes_round(window[0::2])  # the points are the cycle's
    assert game.long_attack() is None  # but black no longer attacks on every move


def test_attacks_on_two_points_after_a_lead_in_wait_for_the_threefold_repetition() -> None:
    # black's chariot comes in by i8 to i6 and then threatens mate from i4 and i6; red's chariot
    # shuffles over three points with no attack: the lead-in points are no third point of a cycle
    red = ["a2a5", "a5a3", "a3a2"] * 6
    black = ["i9i8", "i8i6"] + ["i6i4", "i4i6"] * 8
    game = Game(Position.from_fen("4k3r/2nn5/9/9/9/9/9/R8/9/5K3 w"))
    for move in (m for pair in zip(red, black, strict=True) for m in pair):
        game.push(move)
        assert game.long_attack() is None, game.ply
    assert game.repetition() is not None  # judged as a threefold repetition instead


def test_a_threefold_repetition_soon_after_the_nine_rounds_does_not_restart_the_two_rounds() -> None:
    # a four-round cycle with a lead-in: 23.4 tells black to change at ply 18, the position stands
    # a third time at ply 20; black, going on, has had its two rounds at ply 22
    cycle = ["b9a9", "b4d4", "d0e0", "d4e4", "e0d0", "e4a4", "a9b9", "a4b4"]
    moves = ["d0e0", "a4g4", "i6i7", "g4e4", "e0d0", "e4a4", "a9b9", "a4b4"] + cycle * 2
    game = Game(Position.from_fen(CHASE_FEN), moves[:18])
    assert game.long_attack() is not None and game.long_attack().must_change == "black"  # type: ignore[union-attr]
    for move in moves[18:22]:
        game.push(move)
    verdict = game.outcome()
    assert verdict is not None and game.repetition() is not None
    assert (verdict.reason, verdict.winner) == ("forbidden_not_changed", "red")
    game.pop()
    assert game.outcome().reason == "must_change"  # type: ignore[union-attr]


def test_a_capture_in_the_nine_rounds_means_play_went_on() -> None:
    # the same chase, but a red horse stood on d4 and black took it
    fen = "C5C2/4ak3/4b4/8R/9/r2N4c/9/9/9/3K5 w - - 1 68"
    moves = CHASE  # black takes the horse on d4 with its first check
    game = Game(Position.from_fen(fen), moves)
    assert game.long_attack() is None


def _classes(red: list[tuple[str, MoveKind]], black: list[tuple[str, MoveKind]]) -> list[MoveClass]:
    out: list[MoveClass] = []
    for i, ((r, rk), (b, bk)) in enumerate(zip(red, black, strict=True)):
        out.append(MoveClass(2 * i + 1, Move.from_iccs(r), "red", rk))
        out.append(MoveClass(2 * i + 2, Move.from_iccs(b), "black", bk))
    return out


CHECK, IDLE = MoveKind.CHECK, MoveKind.IDLE
GENERAL = [("e9e8", IDLE), ("e8e9", IDLE)] * 4 + [("e9e8", IDLE)]


def test_attacks_on_two_points_wait_for_the_threefold_repetition() -> None:
    red = [("a9a8", CHECK), ("a8a9", CHECK)] * 4 + [("a9a8", CHECK)]
    assert long_attack("fen", 18, [18], _classes(red, GENERAL)) is None


def test_idle_moves_on_both_sides_are_left_to_the_arbiter() -> None:
    red = [("a9a8", IDLE), ("a8a7", IDLE), ("a7a9", IDLE)] * 3
    assert long_attack("fen", 18, [18], _classes(red, GENERAL)) is None


def test_attacks_that_go_somewhere_are_no_cycle() -> None:
    red = [(f"a{r}b{r}", CHECK) if r % 2 else (f"b{r}a{r}", CHECK) for r in range(9)]
    assert not goes_round([Move.from_iccs(m) for m, _ in red])
    assert long_attack("fen", 18, [18], _classes(red, GENERAL)) is None


def test_a_three_point_cycle_of_checks_is_judged() -> None:
    red = [("a9a8", CHECK), ("a8a5", CHECK), ("a5a9", CHECK)] * 3
    verdict = long_attack("fen", 18, [18], _classes(red, GENERAL))
    assert verdict is not None and verdict.code == "perpetual_check" and verdict.winner == "black"


def test_a_long_cycles_points_are_all_counted() -> None:
    # a tester's chase round five points was told as "over 4 points": the window of nine rounds holds
    # the cycle's first point once, and only the point first reached from outside is left out
    from rules import Game, Position

    game = Game(Position.from_fen("5k3/9/c4a3/9/9/9/9/9/R8/5K3 b - - 0 1"))
    cycle = ["a7b7", "a1b1", "b7c7", "b1c1", "c7d7", "c1d1", "d7e7", "d1e1", "e7a7", "e1a1"]
    for move in cycle + cycle[:8]:
        game.push(move)
    verdict = game.long_attack()
    assert verdict is not None and "红方在5个点上长捉" in verdict.text and "over 5 points" in verdict.text
