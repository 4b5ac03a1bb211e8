"""The ``Position`` value: pieces, moves, checks, game ends, attackers, and real games played through."""

from __future__ import annotations

import pytest

from rules import (
    BLACK,
    RED,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Position,
    parse_square,
    perft,
)
from tests.conftest import read_games


def fen_with(rows: dict[int, str], side: str = "w") -> str:
    """A FEN whose ranks are '9' except those given (rank number -> row text)."""
    return "/".join(rows.get(rank, "9") for rank in range(9, -1, -1)) + f" {side}"


def test_start_position_pieces() -> None:
    start = Position.start()
    pieces = dict(start.pieces())
    assert len(pieces) == 32
    assert sorted(pieces.values()).count("P") == 5 and sorted(pieces.values()).count("p") == 5
    assert start.piece_at("e0") == "K" and start.piece_at("e9") == "k"
    assert start.piece_at("h2") == "C" and start.piece_at(parse_square("b7")) == "c"
    assert start.piece_at("e4") is None
    assert start.general_square(RED) == parse_square("e0")
    assert start.general_square(BLACK) == parse_square("e9")
    assert start.side_to_move == RED and not start.in_check()
    assert not start.is_checkmate() and not start.is_stalemate()


def test_start_legal_moves_by_piece() -> None:
    moves = {m.iccs for m in Position.start().legal_moves()}
    assert len(moves) == 44
    # chariots 4, horses 4, elephants 4, advisors 2, general 1, cannons 24, soldiers 5
    assert {"a0a1", "a0a2", "i0i1", "i0i2"} <= moves
    assert {"b0a2", "b0c2", "h0g2", "h0i2"} <= moves
    assert {"c0a2", "c0e2", "g0e2", "g0i2", "d0e1", "f0e1", "e0e1"} <= moves
    assert {"h2h9", "b2b9", "h2e2", "h2h1", "h2h6"} <= moves and "h2h7" not in moves
    assert {"a3a4", "c3c4", "e3e4", "g3g4", "i3i4"} <= moves


def test_play_accepts_move_and_iccs_text() -> None:
    start = Position.start()
    by_text = start.play("h2e2")
    assert by_text == start.play(Move.from_iccs("h2e2")) == start.play("H2-E2")
    assert by_text.piece_at("e2") == "C" and by_text.piece_at("h2") is None
    assert by_text.side_to_move == BLACK
    assert start.is_legal(Move.from_iccs("h2e2")) and not start.is_legal(Move.from_iccs("h2h7"))


def test_play_rejects_bad_text_and_illegal_moves() -> None:
    start = Position.start()
    with pytest.raises(InvalidMoveError):
        start.play("h2")
    with pytest.raises(InvalidMoveError):
        start.play("h2h2")
    with pytest.raises(InvalidMoveError):
        start.play("z2e2")
    with pytest.raises(IllegalMoveError, match="no piece on e4") as caught:
        start.play("e4e5")
    assert caught.value.fen == start.fen() and caught.value.text == "e4e5"


def test_check_capture_and_gives_check() -> None:
    start = Position.start()
    # h2e2 lines the cannon up on e but e3 and e6 are two screens: no check.
    assert not start.gives_check(Move.from_iccs("h2e2"))
    assert start.is_capture(Move.from_iccs("h2h9")) and not start.is_capture(Move.from_iccs("h2e2"))
    chariot = Position.from_fen(fen_with({9: "3k5", 1: "R8", 0: "4K4"}))
    assert not chariot.in_check()
    assert chariot.gives_check(Move.from_iccs("a1d1")) and not chariot.gives_check(Move.from_iccs("a1b1"))
    after = chariot.play("a1d1")
    assert after.in_check() and after.side_to_move == BLACK


def test_cannon_check_through_a_screen() -> None:
    position = Position.from_fen(fen_with({9: "3k5", 5: "3n5", 2: "7C1", 0: "4K4"}))
    assert position.gives_check(Move.from_iccs("h2d2"))
    assert position.play("h2d2").in_check()


def test_horse_check_and_its_blocked_leg() -> None:
    position = Position.from_fen(fen_with({9: "3k5", 7: "2N6", 0: "4K4"}, "b"))
    assert position.in_check()  # c7 horse hits d9 via its leg on c8
    blocked = Position.from_fen(fen_with({9: "3k5", 8: "2n6", 7: "2N6", 0: "4K4"}, "b"))
    assert not blocked.in_check()


def test_soldier_checks_forward_and_sideways_but_not_backwards() -> None:
    assert Position.from_fen(fen_with({9: "4k4", 8: "4P4", 0: "3K5"}, "b")).in_check()
    assert Position.from_fen(fen_with({8: "3kP4", 0: "4K4"}, "b")).in_check()
    assert not Position.from_fen(fen_with({8: "3k5", 9: "3P5", 0: "4K4"}, "b")).in_check()


def test_checkmate_and_stalemate() -> None:
    mate = Position.from_fen("3k5/3R5/9/2N6/9/9/9/9/9/4K4 b")
    assert mate.in_check() and mate.legal_moves() == [] and mate.is_checkmate() and not mate.is_stalemate()
    stalemate = Position.from_fen("3k5/4P4/9/9/9/9/9/9/9/4K4 b")
    assert not stalemate.in_check() and stalemate.is_stalemate() and not stalemate.is_checkmate()


def test_with_side_to_move_keeps_the_placement() -> None:
    start = Position.start()
    black = start.with_side_to_move(BLACK)
    assert black.board == start.board and black.side_to_move == BLACK and black != start
    assert start.with_side_to_move(RED) is start
    assert {m.iccs for m in black.legal_moves()} >= {"h9g7", "h7e7", "e6e5"}


def test_attackers() -> None:
    start = Position.start()
    assert start.attackers("h9", RED) == [parse_square("h2")]  # cannon over the h7 screen
    assert start.attackers("h7", RED) == []  # no screen: the cannon does not attack it
    assert start.attackers("e4", RED) == [parse_square("e3")]  # an empty point
    # Protectors of one's own piece: the i0 chariot guards the h0 horse.
    assert start.attackers("h0", RED) == [parse_square("i0")]
    # A pinned piece still attacks.
    pinned = Position.from_fen(fen_with({9: "3k5", 7: "4r4", 3: "4R4", 2: "3p5", 0: "4K4"}))
    assert parse_square("e3") in pinned.attackers("d3", RED)


def test_positions_work_as_dict_keys() -> None:
    a = Position.start().play("h2e2").play("h9g7")
    b = Position.start().play("h2e2").play("h9g7")
    c = Position.start().play("h0g2")
    assert a == b and a is not b
    assert len({a: 1, b: 2, c: 3}) == 2
    assert str(a).splitlines()[-1] == "a b c d e f g h i"
    assert repr(a).startswith("Position.from_fen(")


def test_real_games_play_through_and_end_as_recorded() -> None:
    games = read_games()
    finished = 0
    for result, moves in games[::20]:
        position = Position.start()
        for text in moves:
            position = position.play(text)
        if not position.legal_moves():
            finished += 1
            loser_result = "0-1" if position.side_to_move == RED else "1-0"
            assert result == loser_result, (result, position.fen())
    assert finished >= 1


@pytest.mark.parametrize("line", [3, 5, 64])
def test_games_that_end_in_mate_or_stalemate(line: int) -> None:
    result, moves = read_games()[line - 1]
    position = Position.start()
    for text in moves:
        position = position.play(text)
    assert position.is_checkmate() or position.is_stalemate()
    assert result == ("0-1" if position.side_to_move == RED else "1-0")


@pytest.mark.slow
def test_perft_4_from_the_start() -> None:
    assert perft(Position.start(), 4) == 3_290_240
