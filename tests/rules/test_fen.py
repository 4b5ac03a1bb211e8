"""FEN input and output: the start position, aliases, round trips and every kind of invalid FEN."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import START_FEN, InvalidFenError, Position, RulesError
from rules.squares import SQUARES, standing_problem

# Generals on d9 and e0: not on one file, so a base that is legal by itself.
BASE_BLACK = "3k5"
BASE_RED = "4K4"


def fen_with(rows: dict[int, str], side: str = "w") -> str:
    """A FEN whose ranks are '9' except those given (rank number -> row text)."""
    return "/".join(rows.get(rank, "9") for rank in range(9, -1, -1)) + f" {side}"


INVALID = [
    # (what, FEN, pattern the reason must contain)
    ("two red generals", fen_with({9: BASE_BLACK, 1: "4K4", 0: BASE_RED}), "two red generals"),
    ("two black generals", fen_with({9: BASE_BLACK, 8: "4k4", 0: "3K5"}), "two black generals"),
    ("no red general", fen_with({9: BASE_BLACK}), "no red general"),
    ("no black general", fen_with({0: BASE_RED}), "no black general"),
    ("red general outside palace", fen_with({9: BASE_BLACK, 0: "2K6"}), "red general on c0 is outside its palace"),
    ("black general outside palace", fen_with({6: "4k4", 0: "3K5"}), "black general on e6 is outside its palace"),
    ("general across the river", fen_with({9: BASE_BLACK, 5: "5K3"}), "red general on f5 is outside its palace"),
    ("elephant off its points", fen_with({9: BASE_BLACK, 0: "4KB3"}), "red elephant on f0 is off the elephant's points"),
    ("elephant over the river", fen_with({9: BASE_BLACK, 5: "2B6", 0: BASE_RED}), "red elephant on c5 is off"),
    ("black elephant off", fen_with({9: BASE_BLACK, 6: "4b4", 0: BASE_RED}), "black elephant on e6 is off"),
    ("advisor off its points", fen_with({9: BASE_BLACK, 1: "3A5", 0: BASE_RED}), "red advisor on d1 is off the advisor's points"),
    ("black advisor outside", fen_with({9: BASE_BLACK, 7: "2a6", 0: BASE_RED}), "black advisor on c7 is off"),
    ("soldier behind its start", fen_with({9: BASE_BLACK, 2: "4P4", 0: BASE_RED}), "red soldier on e2 stands behind its start"),
    ("soldier on its back rank", fen_with({9: BASE_BLACK, 0: "P3K4"}), "red soldier on a0 stands behind"),
    ("black soldier behind", fen_with({9: BASE_BLACK, 7: "8p", 0: BASE_RED}), "black soldier on i7 stands behind"),
    ("soldier off its file before the river", fen_with({9: BASE_BLACK, 4: "1P7", 0: BASE_RED}), "red soldier on b4 is off the soldiers' files"),
    ("three red generals", fen_with({9: BASE_BLACK, 1: "4K4", 0: "3K1K3"}), "3 red generals"),
    ("two soldiers on one file before the river", fen_with({9: BASE_BLACK, 4: "4P4", 3: "4P4", 0: BASE_RED}), "red soldier on e4 shares its file"),
    ("black soldiers on one file before the river", fen_with({9: BASE_BLACK, 6: "p8", 5: "p8", 0: BASE_RED}), "black soldier on a6 shares its file"),
    ("six soldiers", fen_with({9: BASE_BLACK, 5: "PPPPPP3", 0: BASE_RED}), "6 red soldiers, at most 5"),
    ("three chariots", fen_with({9: BASE_BLACK, 5: "rrr6", 0: BASE_RED}), "3 black chariots, at most 2"),
    ("three horses", fen_with({9: BASE_BLACK, 5: "N1N1N4", 0: BASE_RED}), "3 red horses, at most 2"),
    ("three cannons", fen_with({9: BASE_BLACK, 5: "c1c1c4", 0: BASE_RED}), "3 black cannons, at most 2"),
    ("three advisors", fen_with({9: "3k1a3", 7: "3a1a3", 0: BASE_RED}), "3 black advisors, at most 2"),
    ("three elephants", fen_with({9: "2bk2b2", 7: "4b4", 0: BASE_RED}), "3 black elephants, at most 2"),
    ("generals facing", fen_with({9: "4k4", 0: BASE_RED}), "generals face each other on file e"),
    ("generals facing far apart", fen_with({7: "3k5", 2: "3K5"}), "generals face each other on file d"),
    ("waiting side in check", fen_with({9: BASE_BLACK, 0: "3R1K3"}), r"side not on move \(black\) is in check"),
    ("waiting red side in check", fen_with({9: BASE_BLACK, 5: "4r4", 0: BASE_RED}, "b"), r"side not on move \(red\) is in check"),
    ("nine ranks", "9/9/9/9/9/9/9/9/4K4 w", "9 ranks, expected 10"),
    ("unknown letter", fen_with({9: BASE_BLACK, 5: "4X4", 0: BASE_RED}), "unknown piece letter 'X' on rank 5"),
    ("rank too long", fen_with({9: BASE_BLACK, 5: "9N", 0: BASE_RED}), "rank 5 has more than 9 files"),
    ("rank too short", fen_with({9: BASE_BLACK, 5: "8", 0: BASE_RED}), "rank 5 has 8 files, expected 9"),
    ("bad side to move", fen_with({9: BASE_BLACK, 0: BASE_RED}, "x"), "side to move 'x'"),
    ("empty", "   ", "empty FEN"),
]


@pytest.mark.parametrize(("fen", "pattern"), [(fen, pattern) for _, fen, pattern in INVALID], ids=[w for w, _, _ in INVALID])
def test_invalid_fen_says_what_is_wrong(fen: str, pattern: str) -> None:
    with pytest.raises(InvalidFenError, match=pattern) as caught:
        Position.from_fen(fen)
    assert caught.value.fen == fen
    assert isinstance(caught.value, RulesError) and isinstance(caught.value, ValueError)


def test_base_used_by_invalid_cases_is_itself_valid() -> None:
    position = Position.from_fen(fen_with({9: BASE_BLACK, 0: BASE_RED}))
    assert position.general_square("red") == 4 and position.general_square("black") == 84


def test_waiting_side_check_is_fine_when_that_side_is_to_move() -> None:
    # The same placement as the "waiting side in check" case, but black to move: legal.
    position = Position.from_fen(fen_with({9: BASE_BLACK, 0: "3R1K3"}, "b"))
    assert position.in_check()


def test_start_position_fen() -> None:
    start = Position.start()
    assert start.fen() == START_FEN
    assert Position.from_fen(START_FEN) == start
    assert start.side_to_move == "red"
    assert len(start.legal_moves()) == 44


def test_aliases_r_for_red_and_e_h_for_elephant_horse() -> None:
    aliased = Position.from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1")
    assert aliased == Position.start()
    assert aliased.fen() == START_FEN
    assert aliased.piece_at("b0") == "N" and aliased.piece_at("c9") == "b"


def test_side_field_is_case_insensitive_and_optional() -> None:
    board = START_FEN.split()[0]
    assert Position.from_fen(board).side_to_move == "red"
    assert Position.from_fen(board + " W").side_to_move == "red"
    assert Position.from_fen(board + " b").side_to_move == "black"
    assert Position.from_fen(board + " B").fen().split()[1] == "b"


def test_counters_are_read_and_written() -> None:
    position = Position.from_fen("3k5/9/9/9/9/9/9/9/9/4K4 b - - 17 42")
    assert (position.quiet_plies, position.fullmove) == (17, 42)
    assert position.fen() == "3k5/9/9/9/9/9/9/9/9/4K4 b - - 17 42"
    after = position.play("d9d8")
    assert after.fen() == "9/3k5/9/9/9/9/9/9/9/4K4 w - - 18 43"


def test_counters_after_a_capture_and_a_quiet_move() -> None:
    position = Position.start().play("h2h9")  # cannon takes horse
    assert position.quiet_plies == 0 and position.fullmove == 1
    position = position.play("i9h9")  # chariot takes cannon
    assert position.quiet_plies == 0 and position.fullmove == 2
    position = position.play("h0g2")
    assert position.quiet_plies == 1 and position.fullmove == 2
    assert position.fen() == "rnbakabr1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4N2/9/RNBAKAB1R b - - 1 2"


def test_equality_ignores_counters_but_not_side() -> None:
    board = START_FEN.split()[0]
    a = Position.from_fen(board + " w - - 0 1")
    b = Position.from_fen(board + " w - - 9 30")
    assert a == b and hash(a) == hash(b)
    assert a != Position.from_fen(board + " b - - 0 1")


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=60))
def test_random_play_round_trips_through_fen_and_leaves_positions_unchanged(choices: list[int]) -> None:
    position = Position.start()
    for choice in choices:
        moves = position.legal_moves()
        if not moves:
            break
        move = moves[choice % len(moves)]
        before_fen, before_board = position.fen(), position.board
        after = position.play(move)
        # Positions are values: play returns a new one, the old one is untouched.
        assert after is not position
        assert position.fen() == before_fen and position.board == before_board
        assert position.legal_moves() == moves
        assert after.side_to_move != position.side_to_move
        again = Position.from_fen(after.fen())
        assert again == after and again.fen() == after.fen()
        assert sorted(m.iccs for m in again.legal_moves()) == sorted(m.iccs for m in after.legal_moves())
        position = after


def test_legal_moves_list_is_a_copy() -> None:
    position = Position.start()
    moves = position.legal_moves()
    moves.clear()
    assert len(position.legal_moves()) == 44


def test_public_attributes_cannot_be_assigned() -> None:
    position = Position.start()
    with pytest.raises(AttributeError):
        position.board = "." * 90  # type: ignore[misc]
    with pytest.raises(AttributeError):
        position.side_to_move = "black"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        position.extra = 1  # type: ignore[attr-defined]


def test_standing_problem_counts_the_points_each_piece_may_stand_on() -> None:
    """Generals 9 points, advisors 5, elephants 7, soldiers 55 (5 files x 2 ranks before the river and
    all 45 beyond it); horses, chariots and cannons anywhere. Black's are red's turned about."""
    counts = {letter: sum(standing_problem(letter, sq) is None for sq in range(SQUARES)) for letter in "KABNRCPkabnrcp"}
    assert counts == {**{k: n for k, n in zip("KABNRCP", (9, 5, 7, 90, 90, 90, 55), strict=True)},
                      **{k: n for k, n in zip("kabnrcp", (9, 5, 7, 90, 90, 90, 55), strict=True)}}
    assert all(standing_problem(p.lower(), 89 - sq) is None for p in "KABP" for sq in range(SQUARES)
               if standing_problem(p, sq) is None)
