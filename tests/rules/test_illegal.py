"""Why a physical move is illegal: every reason of art. 2 and 3.4, and None exactly for legal moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from rules import IllegalMoveError, InvalidMoveError, Move, Position
from rules.squares import SQUARES, opponent, side_of
from tests.rules.random_positions import play_randomly, random_placement, seeds


def fen_with(rows: dict[int, str], side: str = "w") -> str:
    """A FEN whose ranks are '9' except those given (rank number -> row text)."""
    return "/".join(rows.get(rank, "9") for rank in range(9, -1, -1)) + f" {side}"


START = Position.start().fen()
AFTER_H2H9 = "rnbakabCr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 1"

CASES = [
    # (id, FEN, move, code, words the explanation must contain)
    ("wrong side", START, "h9g7", "wrong_side", "red's turn, not black's"),
    ("wrong side black to move", AFTER_H2H9, "h0g2", "wrong_side", "black's turn, not red's (red horse)"),
    ("own piece", START, "a0a3", "own_piece", "a3 holds red's own soldier"),
    ("empty square", START, "e4e5", "empty_square", "no piece on e4"),
    ("no move", START, "e3e3", "no_move", "did not move"),
    ("horse leg blocked by own piece", START, "b0d1", "leg_blocked", "horse's leg on c0 is blocked"),
    ("horse leg blocked by enemy piece", fen_with({9: "3k5", 3: "4p4", 2: "4N4", 0: "4K4"}), "e2f4", "leg_blocked", "leg on e3"),
    ("black horse leg blocked", START.replace(" w ", " b "), "h9f8", "leg_blocked", "black horse's leg on g9"),
    ("horse onto its own cannon", START, "b0b2", "own_piece", "b2 holds red's own cannon"),
    ("horse not an L", fen_with({9: "3k5", 4: "4N4", 0: "4K4"}), "e4g6", "bad_step", "horse moves one point straight"),
    ("elephant eye blocked", fen_with({9: "3k5", 1: "3N5", 0: "2B1K4"}), "c0e2", "eye_blocked", "eye on d1 is blocked"),
    ("elephant eye blocked by enemy", fen_with({9: "3k5", 3: "7p1", 4: "6B2", 0: "4K4"}), "g4i2", "eye_blocked", "eye on h3"),
    ("elephant crosses river", fen_with({9: "3k5", 4: "2B6", 0: "4K4"}), "c4e6", "crosses_river", "may not cross the river"),
    ("black elephant crosses river", fen_with({9: "3k5", 5: "6b2", 0: "4K4"}, "b"), "g5e3", "crosses_river", "black elephant"),
    ("elephant bad step", START, "c0d2", "bad_step", "exactly two points diagonally"),
    ("general leaves palace", fen_with({9: "4k4", 0: "3K5"}), "d0c0", "leaves_palace", "red general may not leave the palace"),
    ("general leaves palace forward", fen_with({9: "4k4", 2: "3K5"}), "d2d3", "leaves_palace", "general may not leave"),
    ("general two steps", fen_with({9: "4k4", 0: "3K5"}), "d0d2", "bad_step", "one point straight"),
    ("general diagonal", fen_with({9: "4k4", 0: "3K5"}), "d0e1", "bad_step", "one point straight"),
    ("advisor leaves palace", START, "d0c1", "leaves_palace", "red advisor may not leave the palace"),
    ("advisor straight", fen_with({9: "4k4", 1: "4A4", 0: "3K5"}), "e1e2", "bad_step", "one point diagonally"),
    ("cannon capture without screen", START, "h2h7", "no_screen", "has none"),
    ("cannon capture along rank without screen", fen_with({9: "3k5", 2: "1C3n3", 0: "4K4"}), "b2f2", "no_screen", "has none"),
    (
        "cannon two screens",
        fen_with({9: "3k5", 7: "4n4", 5: "4p4", 4: "4P4", 2: "4C4", 0: "4K4"}),
        "e2e7",
        "two_screens",
        "has 2",
    ),
    ("cannon jumps without capture", START, "h2h8", "screen_without_capture", "without capturing"),
    ("chariot jumps", START, "a0a5", "path_blocked", "cannot jump over pieces"),
    ("chariot diagonal", fen_with({9: "3k5", 4: "4R4", 0: "4K4"}), "e4f5", "bad_step", "along a file or a rank"),
    ("soldier backwards", fen_with({9: "3k5", 5: "4P4", 0: "4K4"}), "e5e4", "soldier_back", "may not move backwards"),
    ("black soldier backwards", fen_with({9: "3k5", 4: "4p4", 0: "4K4"}, "b"), "e4e5", "soldier_back", "black soldier"),
    ("soldier sideways before river", START, "e3d3", "soldier_sideways", "only after crossing the river"),
    ("black soldier sideways before river", START.replace(" w ", " b "), "c6d6", "soldier_sideways", "black soldier"),
    ("soldier two steps", START, "a3a5", "bad_step", "one point forward"),
    ("flying generals: general steps onto the file", fen_with({9: "4k4", 0: "3K5"}), "d0e0", "flying_general", "face each other"),
    ("flying generals: screen leaves the file", fen_with({9: "4k4", 1: "4N4", 0: "4K4"}), "e1c2", "flying_general", "face each other"),
    (
        "self check: pinned chariot",
        fen_with({9: "3k5", 7: "4r4", 3: "4R4", 0: "4K4"}),
        "e3d3",
        "self_check",
        "left in check by the black chariot on e7",
    ),
    (
        "self check: general walks into a horse",
        fen_with({9: "3k5", 3: "3n5", 0: "4K4"}),
        "e0e1",
        "self_check",
        "black horse on d3",
    ),
    (
        "self check: general walks into a soldier",
        fen_with({9: "3k5", 1: "5p3", 0: "4K4"}),
        "e0e1",
        "self_check",
        "black soldier on f1",
    ),
    ("cannon screen moves away (h2h9 then g9e7)", AFTER_H2H9, "g9e7", "self_check", "red cannon on h9"),
    ("ignores check", fen_with({9: "3k5", 7: "4r4", 0: "R3K4"}), "a0a1", "ignores_check", "in check and stays in check"),
    ("ignores check: general stays on the file", fen_with({9: "3k5", 7: "4r4", 0: "R3K4"}), "e0e1", "ignores_check", "black chariot on e7"),
]


@pytest.mark.parametrize(("fen", "iccs", "code", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_violation_names_the_rule(fen: str, iccs: str, code: str, words: str) -> None:
    position = Position.from_fen(fen)
    found = position.violation(iccs[:2], iccs[2:])
    assert found is not None, f"{iccs} should be illegal in {fen}"
    assert found.code == code
    assert words in found.text
    assert found.article in ("2.1", "2.2", "2.3", "3.4")
    assert position.explain_illegal(iccs[:2], iccs[2:]) == found.text
    if iccs[:2] != iccs[2:]:
        assert Move.from_iccs(iccs) not in position.legal_moves()
        with pytest.raises(IllegalMoveError) as caught:
            position.play(iccs)
        assert caught.value.reason == found.text
        assert caught.value.fen == position.fen()
        assert iccs in str(caught.value) and found.text in str(caught.value)


LEGAL = [
    ("cannon captures over one screen", START, "h2h9"),
    ("cannon captures over one screen on a file", fen_with({9: "3k5", 7: "4n4", 5: "4p4", 4: "4P4", 2: "4C4", 0: "4K4"}), "e2e5"),
    ("elephant stays on its side", fen_with({9: "3k5", 4: "2B6", 0: "4K4"}), "c4e2"),
    ("soldier sideways after the river", fen_with({9: "3k5", 5: "4P4", 0: "4K4"}), "e5d5"),
    ("pinned chariot slides along the pin", fen_with({9: "3k5", 7: "4r4", 3: "4R4", 0: "4K4"}), "e3e6"),
    ("pinned chariot takes the pinner", fen_with({9: "3k5", 7: "4r4", 3: "4R4", 0: "4K4"}), "e3e7"),
    ("general steps out of check", fen_with({9: "3k5", 7: "4r4", 0: "R3K4"}), "e0f0"),
    ("block the check", fen_with({9: "3k5", 7: "4r4", 1: "R8", 0: "4K4"}), "a1e1"),
    ("black takes the cannon back", AFTER_H2H9, "i9h9"),
]


@pytest.mark.parametrize(("fen", "iccs"), [c[1:] for c in LEGAL], ids=[c[0] for c in LEGAL])
def test_legal_moves_have_no_violation(fen: str, iccs: str) -> None:
    position = Position.from_fen(fen)
    assert position.violation(iccs[:2], iccs[2:]) is None
    assert position.explain_illegal(iccs[:2], iccs[2:]) is None
    assert Move.from_iccs(iccs) in position.legal_moves()


def test_h2h9_then_black_may_not_unscreen_the_cannon() -> None:
    position = Position.start().play("h2h9")
    assert position.fen() == AFTER_H2H9
    assert not position.in_check()
    legal = {move.iccs for move in position.legal_moves()}
    assert "g9e7" not in legal and "g9i7" not in legal
    # f9 and g9 both stand between the cannon and the general: neither may leave.
    assert "f9e8" not in legal
    assert "i9h9" in legal and "h7h8" in legal
    with pytest.raises(IllegalMoveError, match="g9e7"):
        position.play("g9e7")


def test_squares_may_be_numbers_or_names() -> None:
    position = Position.start()
    assert position.violation(7 + 2 * 9, 7 + 9 * 9) is None  # h2h9
    assert position.violation("H2", "h7") == position.violation(25, 70)
    with pytest.raises(InvalidMoveError):
        position.violation("z1", "a1")
    with pytest.raises(InvalidMoveError):
        position.violation(90, 0)


def assert_violation_iff_illegal(position: Position) -> None:
    """For every (from, to) pair: ``violation`` is None exactly when the move is legal."""
    legal = {(m.from_square, m.to_square) for m in position.legal_moves()}
    found = set()
    for src in range(SQUARES):
        for dst in range(SQUARES):
            verdict = position.violation(src, dst)
            if verdict is None:
                found.add((src, dst))
            else:
                assert verdict.code and verdict.text, (position.fen(), src, dst)
    assert found == legal, f"{position.fen()}: only violation-free {sorted(found - legal)}, only legal {sorted(legal - found)}"


@settings(max_examples=50, deadline=None, derandomize=True)
@given(seeds)
def test_violation_is_none_exactly_for_legal_moves_after_random_play(seed: int) -> None:
    rng = random.Random(seed)
    positions = play_randomly(rng, rng.randint(0, 120))
    assert_violation_iff_illegal(positions[-1])


@settings(max_examples=50, deadline=None, derandomize=True)
@given(seeds)
def test_violation_is_none_exactly_for_legal_moves_on_random_placements(seed: int) -> None:
    assert_violation_iff_illegal(random_placement(random.Random(seed)))


@settings(max_examples=50, deadline=None, derandomize=True)
@given(seeds)
def test_violation_answers_for_the_side_not_to_move_too(seed: int) -> None:
    # the recorder asks it of a move by the side not on turn (art. 2.1): with the side to move in
    # check, that side's piece can land on the general's point, and reading it crashed a full-length
    # recording ("substring not found")
    rng = random.Random(seed)
    for position in play_randomly(rng, rng.randint(0, 120)):
        other = position.with_side_to_move(opponent(position.side_to_move))
        for src in range(90):
            if other.board[src] == "." or side_of(other.board[src]) != other.side_to_move:
                continue
            for dst in range(90):
                verdict = other.violation(src, dst)
                assert verdict is None or (verdict.code and verdict.text)
