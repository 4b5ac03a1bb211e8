"""Repetition verdicts (art. 23, 25, 26) on constructed cycles, cross-checked with Fairy-Stockfish.

pyffish squares use ranks 1-10, so ICCS ``h2e2`` is its ``h3e3``. ``is_optional_game_end`` returns
``(ended, value)`` with the value for the side to move: > 0 it wins, < 0 it loses, 0 a draw.
Where it disagrees with the rule text, the text decides and the test says so.
"""

from __future__ import annotations

from dataclasses import replace

import pyffish
import pytest

from rules import Game, Move, MoveClass, MoveKind, Position, SideCategory
from rules.move_kinds import FALSE_ROOT, SHORT_ROOT, UNPROTECTED, Chase
from rules.repetition import judge

CASES: dict[str, tuple[str, list[str]]] = {
    # 25.1: the red chariot checks on every move, black's general only steps aside.
    "perpetual_check": ("3k5/9/9/9/9/9/9/9/R8/5K3 w", ["a1d1", "d9e9"] + ["d1e1", "e9d9", "e1d1", "d9e9"] * 2),
    # 25.2: both sides shuffle an advisor.
    "mutual_idle": ("3ak4/9/9/8p/9/9/P8/9/9/3A1K3 w", ["d0e1", "d9e8", "e1d0", "e8d9"] * 2),
    # 25.3: the chariot follows the unprotected cannon from c7 to g7 and back; black only flees.
    "chase_unprotected": ("3k5/9/2c6/9/9/9/9/6R2/9/5K3 w", ["g2c2", "c7g7", "c2g2", "g7c7"] * 2),
    # 26.1: the general itself chases the unprotected cannon.
    "general_chase": ("5k3/9/9/9/9/9/9/4K4/3c5/9 w", ["e2e1", "d1d2", "e1e2", "d2d1"] * 2),
    # 26.1: a soldier itself chases the unprotected cannon.
    "soldier_chase": ("3k5/9/3c5/4P4/9/9/9/9/9/5K3 w", ["e6d6", "d7e7", "d6e6", "e7d7"] * 2),
    # 26.7: soldiers before the river are not chased pieces...
    "uncrossed_soldiers": ("3ak4/9/9/2p3p2/9/9/6R2/9/9/3K5 w", ["g3c3", "d9e8", "c3g3", "e8d9"] * 2),
    # ... soldiers across the river are (the 1999 text's 25.3), so this is a perpetual chase.
    "crossed_soldiers": ("3ak4/9/9/9/9/2p3p2/9/6R2/9/3K5 w", ["g2c2", "d9e8", "c2g2", "e8d9"] * 2),
    # 26.9.1: one check, one chase (the unprotected cannon on c2).
    "check_and_chase": ("5a3/5k3/9/9/9/9/9/2cR5/3K5/9 w", ["d2d8", "f8f7", "d8d2", "f7f8"] * 2),
}


def play(name: str, extra_cycles: int = 0) -> Game:
    fen, moves = CASES[name]
    cycle = moves[-4:]
    return Game(Position.from_fen(fen), moves + cycle * extra_cycles)


def to_pyffish(iccs: str) -> str:
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def pyffish_first_end(fen: str, moves: list[str]) -> tuple[int, int] | None:
    """(ply, value for the side to move) where Fairy-Stockfish first sees a repetition end."""
    converted = [to_pyffish(m) for m in moves]
    full_fen = fen + " - - 0 1"
    for ply in range(1, len(converted) + 1):
        ended, value = pyffish.is_optional_game_end("xiangqi", full_fen, converted[:ply])
        if ended:
            return ply, value
    return None


def test_perpetual_check_loses_25_1() -> None:
    game = play("perpetual_check")
    verdict = game.repetition(9)  # black to move, the position after Rd1+ for the third time
    assert verdict is not None
    assert (verdict.code, verdict.result, verdict.winner, verdict.article) == ("perpetual_check", "0-1", "black", "25.1")
    assert verdict.red.category is SideCategory.PERPETUAL_CHECK
    assert verdict.black.category is SideCategory.ALLOWED
    assert verdict.count == 3 and verdict.occurrences == (1, 5, 9)
    assert "长将" in verdict.text and "25.1" in verdict.text
    assert all(m.kind is MoveKind.CHECK for m in verdict.moves if m.side == "red")
    assert [m.ply for m in verdict.cycle] == [6, 7, 8, 9]


def test_pyffish_agrees_on_perpetual_check() -> None:
    fen, moves = CASES["perpetual_check"]
    # same ply, black to move and winning
    assert pyffish_first_end(fen, moves) == (9, pyffish.VALUE_MATE)
    assert play("perpetual_check").repetition(9) is not None


def test_capture_as_first_move_of_the_cycle_is_not_counted_23_2() -> None:
    # The cycle starts with Rxd1+ (a capture): 23.2 leaves that occurrence out, so the third
    # counted repetition comes one ply later than Fairy-Stockfish's (which counts it). Text decides.
    fen = "3k5/9/9/9/9/9/9/9/R2p5/5K3 w"
    moves = ["a1d1", "d9e9"] + ["d1e1", "e9d9", "e1d1", "d9e9"] * 2 + ["d1e1"]
    game = Game(Position.from_fen(fen), moves)
    assert game.repetition(9) is None
    verdict = game.repetition(10)
    assert verdict is not None and verdict.code == "perpetual_check" and verdict.occurrences == (2, 6, 10)
    assert pyffish_first_end(fen, moves) == (9, pyffish.VALUE_MATE)


def test_the_draw_is_due_when_neither_side_changed_within_two_rounds() -> None:
    # an arbiter tester: idle moves repeated to a fifth standing still read "either may change within
    # two rounds", never that the draw was due (23.5.2.1)
    game = Game(Position.from_fen("5k3/9/9/9/9/9/9/9/9/3K5 w"), ["d0d1", "f9f8", "d1d0", "f8f9"] * 3)
    told, due = game.repetition(8), game.repetition(12)
    assert told is not None and (told.code, told.count) == ("draw_both_allowed", 3)
    assert due is not None and (due.code, due.result, due.article, due.count) == ("draw_not_changed", "1/2-1/2",
                                                                                  "23.5.2.1", 4)
    assert "Neither side changed within two rounds: the game is drawn (art. 23.5.2.1, 25.2)" in due.text
    assert [e.codes for e in game.repetitions()] == [("draw_both_allowed", "draw_not_changed")]
    outcome = game.outcome()
    assert outcome is not None and (outcome.reason, outcome.result, outcome.advisory) == ("draw_not_changed",
                                                                                          "1/2-1/2", True)


@pytest.mark.parametrize("name", ["mutual_idle", "general_chase", "soldier_chase", "uncrossed_soldiers"])
def test_both_allowed_draw_25_2_and_pyffish_agrees(name: str) -> None:
    verdict = play(name).repetition()
    assert verdict is not None
    assert (verdict.code, verdict.result, verdict.article) == ("draw_both_allowed", "1/2-1/2", "25.2")
    # the draw is due if neither changes within the two rounds 23.5.2 gives every side
    assert "两个回合内不变作和" in verdict.text and "within two rounds" in verdict.text and "23.5.2.1" in verdict.text
    fen, moves = CASES[name]
    assert pyffish_first_end(fen, moves) == (8, 0)


def test_general_and_soldier_chases_are_allowed_26_1() -> None:
    for name in ("general_chase", "soldier_chase"):
        verdict = play(name).repetition()
        assert verdict is not None
        red = [m for m in verdict.moves if m.side == "red"]
        assert all(m.kind is MoveKind.IDLE and "26.1" in " ".join(m.notes) for m in red)


def test_perpetual_chase_of_unprotected_piece_must_change_25_3() -> None:
    game = play("chase_unprotected")
    verdict = game.repetition()
    assert verdict is not None
    assert (verdict.code, verdict.result, verdict.must_change, verdict.article) == ("must_change", None, "red", "25.3")
    assert verdict.red.category is SideCategory.PERPETUAL_CHASE and verdict.red.label_zh == "长捉"
    assert {c.target_piece for m in verdict.moves for c in m.chases} == {"c"}
    outcome = game.outcome()
    assert outcome is not None and outcome.advisory and outcome.result is None and outcome.reason == "must_change"
    # Fairy-Stockfish names the same culprit but declares the loss at once (red to move, losing);
    # the text (25.3, 23.5.2) first asks red to change. Red repeating once more then loses.
    fen, moves = CASES["chase_unprotected"]
    assert pyffish_first_end(fen, moves) == (8, -pyffish.VALUE_MATE)
    again = play("chase_unprotected", extra_cycles=1).repetition()
    assert again is not None
    assert (again.code, again.result, again.winner, again.article) == ("forbidden_not_changed", "0-1", "black", "23.5.2.2")


def test_pyffish_disagrees_on_chasing_crossed_soldiers() -> None:
    # Fairy-Stockfish calls it a draw; a soldier across the river is a piece (1999 art. 25.3, 2011
    # 26.7 excludes only soldiers before the river), so chasing an unprotected one for ever is a
    # forbidden 长捉无根子 (26.9.1): the text decides, red must change.
    verdict = play("crossed_soldiers").repetition()
    assert verdict is not None and verdict.code == "must_change" and verdict.must_change == "red"
    fen, moves = CASES["crossed_soldiers"]
    assert pyffish_first_end(fen, moves) == (8, 0)


def test_one_check_one_chase_is_forbidden_24_13() -> None:
    # Fairy-Stockfish calls it a draw; 24.13 (and 26.9.1) name 一将一捉 as forbidden: the text decides.
    verdict = play("check_and_chase").repetition()
    assert verdict is not None
    assert verdict.red.label_zh == "一将一捉" and verdict.red.forbidden
    assert (verdict.code, verdict.must_change) == ("must_change", "red")
    assert "(art. 25.3, 23.5.2.2)" in verdict.text  # 26.9 is for both sides forbidden
    fen, moves = CASES["check_and_chase"]
    assert pyffish_first_end(fen, moves) == (8, 0)


def _classes(pattern: dict[str, list[MoveKind]]) -> list[MoveClass]:
    moves: list[MoveClass] = []
    for index in range(len(pattern["red"])):
        for side in ("red", "black"):
            ply = len(moves) + 1
            moves.append(MoveClass(ply, Move.from_iccs("a0a1"), side, pattern[side][index]))
    return moves


def _chasing(pattern: dict[str, list[str]]) -> list[MoveClass]:
    """Both sides chase on every move: each entry names the target piece and why it is lost."""
    moves: list[MoveClass] = []
    for index in range(len(pattern["red"])):
        for side in ("red", "black"):
            target, reason = pattern[side][index].split(":", 1)
            chase = Chase(0, 1, "N" if side == "red" else "n", target, reason)
            moves.append(MoveClass(len(moves) + 1, Move.from_iccs("a0a1"), side, MoveKind.CHASE, (chase,)))
    return moves


SHORT = "c:" + SHORT_ROOT  # a cannon short of protectors (少根子): chased, not of 26.9.1's kinds
LOOSE = "c:" + UNPROTECTED
FALSE = "c:" + FALSE_ROOT  # a false root counts as none (24.16)


@pytest.mark.parametrize(("red", "black", "code", "must"), [
    ([LOOSE, LOOSE], [SHORT, SHORT], "must_change", "red"),  # 长捉无根子 against chases of 少根子
    (["r:" + SHORT_ROOT, "r:" + SHORT_ROOT], [SHORT, SHORT], "must_change", "red"),  # 长捉车, protected or not
    ([FALSE, LOOSE], [SHORT, SHORT], "must_change", "red"),  # 一捉无根子一捉无根子 (a false root)
    ([SHORT, SHORT], ["r:wins material in the exchange", LOOSE], "must_change", "black"),  # 一捉车一捉无根子
    ([LOOSE, SHORT], [SHORT, SHORT], "draw_both_forbidden", None),  # one chase of 少根子 takes red off the list
    ([LOOSE, LOOSE], ["r:" + UNPROTECTED] * 2, "draw_both_forbidden", None),  # both listed, each by one piece
    ([SHORT, SHORT], [SHORT, SHORT], "draw_both_forbidden", None),
])
def test_both_sides_forbidden_the_side_of_26_9_1s_kinds_alone_must_change(
        red: list[str], black: list[str], code: str, must: str | None) -> None:
    moves = _chasing({"red": red, "black": black})
    verdict = judge("fen", 4, (0, 2, 4), moves)
    assert (verdict.code, verdict.must_change) == (code, must)
    if must:
        assert verdict.article == "26.9.1" and "(art. 25.4, 26.9.1, 23.5.2.2)" in verdict.text
        assert "属第26.9.1条所列" in verdict.text
        # the same cycle once more and the side still chasing so: it did not change (23.5.2.2)
        again = judge("fen", 8, (0, 2, 4, 6, 8), moves, earlier=moves)
        assert (again.code, again.winner) == ("forbidden_not_changed", "black" if must == "red" else "red")
    else:
        assert verdict.article == "26.9.4" and verdict.result == "1/2-1/2"


def _joint(pattern: dict[str, list[str]]) -> list[MoveClass]:
    """As ``_chasing``; an entry ending in "+" is a joint chase (联合捉子, 24.17: a second piece takes part)."""
    moves = _chasing({side: [entry.rstrip("+") for entry in entries] for side, entries in pattern.items()})
    out = []
    for move in moves:
        entry = pattern[move.side][(move.ply - 1) // 2]
        if entry.endswith("+"):
            move = replace(move, chases=tuple(replace(c, partners=(40,)) for c in move.chases))
        out.append(move)
    return out


CHARIOT = "r:" + UNPROTECTED


@pytest.mark.parametrize(("red", "black", "must", "article"), [
    ([CHARIOT, CHARIOT], [CHARIOT + "+", CHARIOT + "+"], "red", "26.9.2"),  # 长捉车 against 联合捉车
    ([LOOSE + "+", LOOSE + "+"], [LOOSE, LOOSE], "black", "26.9.3"),  # 联合捉无根子 against 长捉无根子
    ([CHARIOT, CHARIOT], [CHARIOT + "+", CHARIOT], None, "26.9.4"),  # black chased alone once: both alone
    ([CHARIOT + "+", CHARIOT + "+"], [CHARIOT + "+", CHARIOT + "+"], None, "26.9.4"),  # both jointly
    ([CHARIOT, CHARIOT], [LOOSE + "+", LOOSE + "+"], None, "26.9.4"),  # not the same kind of piece
])
def test_a_side_chasing_alone_against_a_joint_chase_of_the_same_kind_must_change_26_9_2_3(
        red: list[str], black: list[str], must: str | None, article: str) -> None:
    moves = _joint({"red": red, "black": black})
    verdict = judge("fen", 4, (0, 2, 4), moves)
    assert (verdict.must_change, verdict.article) == (must, article)
    if must:
        assert verdict.code == "must_change" and f"(art. 25.4, {article}, 23.5.2.2)" in verdict.text
        assert "联合捉" in verdict.text and "joint chase" in verdict.text
        again = judge("fen", 8, (0, 2, 4, 6, 8), moves, earlier=moves)
        assert (again.code, again.winner) == ("forbidden_not_changed", "black" if must == "red" else "red")
    else:
        assert verdict.code == "draw_both_forbidden"


def test_a_perpetual_mate_threat_against_chases_of_protected_pieces_must_change() -> None:
    moves = _chasing({"red": [SHORT, SHORT], "black": [SHORT, SHORT]})
    moves = [m if m.side == "red" else MoveClass(m.ply, m.move, m.side, MoveKind.MATE_THREAT) for m in moves]
    verdict = judge("fen", 4, (0, 2, 4), moves)
    assert (verdict.code, verdict.must_change, verdict.black.label_zh) == ("must_change", "black", "长杀")


def test_mutual_perpetual_check_is_a_draw() -> None:
    # Both sides forbidden (25.4): no one-sided perpetual check, so a draw (26.9.4; 1999 art. 26.3).
    moves = _classes({"red": [MoveKind.CHECK] * 4, "black": [MoveKind.CHECK] * 4})
    verdict = judge("fen", 8, (0, 4, 8), moves)
    assert (verdict.code, verdict.result, verdict.article) == ("draw_both_forbidden", "1/2-1/2", "26.9.4")
    assert "within two rounds" in verdict.text and "23.5.2.1" in verdict.text


def test_perpetual_check_against_a_perpetual_chase_still_loses() -> None:
    moves = _classes({"red": [MoveKind.CHASE] * 4, "black": [MoveKind.CHECK] * 4})
    verdict = judge("fen", 8, (0, 4, 8), moves)
    assert (verdict.code, verdict.winner) == ("perpetual_check", "red")


def test_mixed_checks_and_idle_moves_are_allowed() -> None:
    moves = _classes({"red": [MoveKind.CHECK, MoveKind.IDLE] * 2, "black": [MoveKind.IDLE] * 4})
    verdict = judge("fen", 8, (0, 4, 8), moves)
    assert verdict.code == "draw_both_allowed"


def test_describe_lists_every_move_for_the_arbiter() -> None:
    verdict = play("check_and_chase").repetition()
    assert verdict is not None
    text = verdict.describe()
    assert "一将一捉" in text and "Advice for the arbiter" in text
    assert text.count("\n  ply ") == len(verdict.moves) == 8


# Plies 104-128 of line 309 of the shared games (black to move first). Black's chariot chases red's
# unprotected horse, and in the 8-ply cycles it also makes an idle move (f7b7); at the end it goes
# round the 4-ply cycle h7-f7 twice, chasing on every move, and leaves with f7c7.
LINE_309_FEN = "3nk2N1/4a4/5r3/p3P3p/4R4/P8/9/9/9/4K4 b - - 16 52"
LINE_309_MOVES = ("f7h7 h9f8 h7f7 f8h9 f7b7 e6d6 b7e7 d6e6 e7h7 h9f8 h7f7 f8h9"
                  " f7b7 e6d6 b7e7 d6e6 e7h7 h9f8 h7f7 f8h9 f7h7 h9f8 h7f7 f8h9")


def test_a_shorter_cycle_is_judged_once_it_has_gone_round_three_times_23_1() -> None:
    """Positions of the short cycle stand for the fourth and fifth time, counted with the long
    cycles before it; but its pure chases went round only twice (23.1 asks for three times), so the
    verdict stays that of the long cycles. Once they go round a third time, black must change."""
    game = Game(Position.from_fen(LINE_309_FEN), LINE_309_MOVES.split())
    assert len(game.occurrences()) == 5
    # neither changed within two rounds of the draw told (an arbiter tester: the draw due was never said)
    assert [e.codes for e in game.repetitions()] == [("draw_both_allowed", "draw_not_changed")]
    game.push("f7h7")  # the third time round the short cycle
    verdict = game.repetition()
    assert verdict is not None
    assert (verdict.code, verdict.must_change) == ("must_change", "black")
    assert verdict.black.category is SideCategory.PERPETUAL_CHASE
    assert {c.target_piece for m in verdict.moves if m.side == "black" for c in m.chases} == {"N"}


def test_a_side_told_to_change_has_two_rounds_in_a_cycle_of_any_length() -> None:
    # a tester's chase of an unprotected cannon round three points (a cycle of three rounds): red,
    # told to change at ply 12, repeated at 14 and 16 and was found lost only at 18, the position's
    # fourth time; 23.5.2 gives two rounds ("两个回合内变着"), not one more cycle
    game = Game(Position.from_fen("5k3/9/c4a3/9/9/9/9/9/R8/5K3 b - - 0 1"))
    codes = {}
    for move in ["a7b7", "a1b1", "b7c7", "b1c1", "c7a7", "c1a1"] * 3:
        game.push(move)
        verdict = game.repetition()
        codes[game.ply] = None if verdict is None else (verdict.code, verdict.must_change)
    assert codes[11] is None and codes[12] == codes[15] == ("must_change", "red")
    assert codes[16] == codes[18] == ("forbidden_not_changed", "red")
