"""Chinese (art. 7.5), WXF and ICCS notation: worked examples, tandem pieces, leniency, errors."""

from __future__ import annotations

import pytest

from rules import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, Move, Position
from rules.notation import detect_notation, format_move, parse_move
from rules.notation.chinese import format_chinese, parse_chinese
from rules.notation.wxf import format_wxf, parse_wxf

# Art. 7.5's example game (both editions): full form, then the same moves in ICCS.
RULES_EXAMPLE = ["炮二平五", "马8进7", "马二进三", "车9平8", "车一平二", "炮8进4"]
RULES_EXAMPLE_ICCS = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3"]
RULES_EXAMPLE_WXF = ["C2.5", "H8+7", "H2+3", "R9.8", "R1.2", "C8+4"]


def _replay(texts: list[str]) -> list[str]:
    position, played = Position.start(), []
    for text in texts:
        move = parse_move(position, text)
        played.append(move.iccs)
        position = position.play(move)
    return played


def test_rules_example_in_every_notation_reads_and_writes() -> None:
    assert _replay(RULES_EXAMPLE) == RULES_EXAMPLE_ICCS
    assert _replay(RULES_EXAMPLE_WXF) == RULES_EXAMPLE_ICCS
    assert _replay(RULES_EXAMPLE_ICCS) == RULES_EXAMPLE_ICCS
    position = Position.start()
    for chinese, wxf, iccs in zip(RULES_EXAMPLE, RULES_EXAMPLE_WXF, RULES_EXAMPLE_ICCS, strict=True):
        move = Move.from_iccs(iccs)
        assert format_move(position, move) == chinese
        assert format_move(position, move, "wxf") == wxf
        assert format_move(position, move, "iccs") == iccs
        position = position.play(move)


def test_2011_text_writes_black_files_in_numerals_and_that_reads_too() -> None:
    assert _replay(["炮二平五", "马八进七", "马二进三", "车九平八"]) == RULES_EXAMPLE_ICCS[:4]


def test_traditional_writing_and_fullwidth_digits() -> None:
    position = Position.start().play("h2e2")
    move = Move.from_iccs("h9g7")
    assert format_chinese(position, move, traditional=True, fullwidth=True) == "馬８進７"
    assert format_chinese(position, move, traditional=True) == "馬8進7"


@pytest.mark.parametrize("text", ["俥一進一", "車一进1", "车１进一", "伡一進１", "车 一 进 一"])
def test_reading_accepts_character_variants(text: str) -> None:
    assert parse_chinese(Position.start(), text) == Move.from_iccs("i0i1")


@pytest.mark.parametrize("text", ["砲8平5", "包８平５", "炮八平五"])
def test_black_cannon_variants(text: str) -> None:
    position = Position.start().play("h2e2")
    assert parse_move(position, text) == Move.from_iccs("h7e7")


@pytest.mark.parametrize("text", ["C2=5", "c2.5", "C2.5", "C 2 . 5"])
def test_wxf_sideways_written_with_dot_or_equals(text: str) -> None:
    assert parse_wxf(Position.start(), text) == Move.from_iccs("h2e2")


def test_general_advisor_elephant_names_for_both_sides() -> None:
    position = Position.start()
    assert parse_move(position, "帥五進一") == parse_move(position, "帅五进一") == Move.from_iccs("e0e1")
    assert parse_move(position, "仕四進五") == parse_move(position, "士四进五") == Move.from_iccs("f0e1")
    assert parse_move(position, "相三进五") == parse_move(position, "象三进五") == Move.from_iccs("g0e2")
    black = position.play("h2e2")
    assert format_move(black, Move.from_iccs("e9e8")) == "将5进1"
    assert parse_move(black, "將５進１") == Move.from_iccs("e9e8")


# Short form (art. 7.5): piece, file and number, without the direction.
def test_short_form_reads_when_one_legal_move_fits() -> None:
    position = Position.start()
    for text, iccs in (("炮25", "h2e2"), ("马87", "h9g7"), ("马2 3", "h0g2"), ("车98", "i9h9")):
        move = parse_move(position, text)
        assert move.iccs == iccs
        position = position.play(move)


def test_short_form_that_fits_two_moves_is_ambiguous() -> None:
    position = Position.start()
    for iccs in ("h2e2", "h9g7", "h0g2", "i9h9"):
        position = position.play(iccs)
    with pytest.raises(AmbiguousMoveError) as raised:
        parse_move(position, "车12")  # 车一平二 or 车一进二
    assert sorted(raised.value.candidates) == ["i0h0", "i0i2"]
    assert position.fen() in str(raised.value)


# Tandem pieces, checked by hand against art. 7.5 and the WXF rules.
TANDEM = [
    # three soldiers on red's file 5
    ("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w", "e7e8", "前兵进一", "P++1"),
    ("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w", "e7d7", "前兵平六", "P+.6"),
    ("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w", "e6f6", "中兵平四", "P5.4"),
    ("3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w", "e5d5", "后兵平六", "P-.6"),
    # four soldiers on one file: numbered from the front
    ("3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w", "e8d8", "一兵平六", "++.6"),
    ("3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w", "e7d7", "二兵平六", "P+.6"),
    ("3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w", "e6d6", "三兵平六", "P-.6"),
    ("3k5/4P4/4P4/4P4/4P4/9/9/9/9/5K3 w", "e5d5", "四兵平六", "--.6"),
    # five soldiers on one file
    ("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w", "c9b9", "一兵平八", "++.8"),
    ("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w", "c8d8", "二兵平六", "P+.6"),
    ("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w", "c7b7", "三兵平八", "P7.8"),
    ("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w", "c6d6", "四兵平六", "P-.6"),
    ("2P1k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w", "c5b5", "五兵平八", "--.8"),
    # black, five soldiers: digits throughout
    ("5k3/9/9/9/9/2p6/2p6/2p6/2p6/2p1K4 b", "c0b0", "1卒平2", "++.2"),
    ("5k3/9/9/9/9/2p6/2p6/2p6/2p6/2p1K4 b", "c2b2", "3卒平2", "P3.2"),
    ("5k3/9/9/9/9/2p6/2p6/2p6/2p6/2p1K4 b", "c4b4", "5卒平2", "--.2"),
    # soldiers on two files (three on file 7, two on file 3): place and file, no piece
    ("4k4/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w", "c7b7", "前七平八", "7+.8"),
    ("4k4/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w", "c6b6", "中七平八", "77.8"),
    ("4k4/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w", "c5d5", "后七平六", "7-.6"),
    ("4k4/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w", "g6f6", "前三平四", "3+.4"),
    ("4k4/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w", "g5h5", "后三平二", "3-.2"),
    # a lone soldier beside two tandem files keeps the plain form
    ("4k4/9/9/2P1P1P2/2P3P2/9/9/9/9/3K5 w", "e6e7", "兵五进一", "P5+1"),
    # two chariots and two cannons of black on one file
    ("3k5/9/9/9/2c6/9/2c6/9/9/4K4 b", "c5b5", "后炮平2", "C-.2"),
    ("2r1k4/9/2r6/9/9/9/9/9/9/3K5 b", "c9c8", "后车进1", "R-+1"),
    ("2r1k4/9/2r6/9/9/9/9/9/9/3K5 b", "c7c8", "前车退1", "R+-1"),
]


@pytest.mark.parametrize(("fen", "iccs", "chinese", "wxf"), TANDEM)
def test_tandem_pieces(fen: str, iccs: str, chinese: str, wxf: str) -> None:
    position = Position.from_fen(fen)
    move = Move.from_iccs(iccs)
    assert format_chinese(position, move) == chinese
    assert format_wxf(position, move) == wxf
    assert parse_chinese(position, chinese) == move
    assert parse_wxf(position, wxf) == move
    traditional = format_chinese(position, move, traditional=True, fullwidth=True)
    assert parse_chinese(position, traditional) == move


def test_wxf_tandem_place_may_lead() -> None:
    position = Position.from_fen("2r1k4/9/2r6/9/9/9/9/9/9/3K5 b")
    assert parse_wxf(position, "+R-1") == parse_wxf(position, "r+-1") == Move.from_iccs("c7c8")


def test_place_after_the_piece_is_accepted() -> None:
    position = Position.from_fen("2r1k4/9/2r6/9/9/9/9/9/9/3K5 b")
    assert parse_chinese(position, "车前退1") == Move.from_iccs("c7c8")


# Leniency: a plain file number where 前/后 was due.
TWO_CHARIOTS = "4k4/9/9/9/9/R8/9/9/9/R2K5 w"


def test_plain_file_for_tandem_piece_read_when_unambiguous() -> None:
    position = Position.from_fen(TWO_CHARIOTS)
    assert format_chinese(position, Move.from_iccs("a4a8")) == "前车进四"
    assert parse_chinese(position, "车九进四") == Move.from_iccs("a4a8")  # the rear one is blocked


def test_plain_file_for_tandem_piece_ambiguous_raises() -> None:
    position = Position.from_fen(TWO_CHARIOTS)
    with pytest.raises(AmbiguousMoveError) as raised:
        parse_chinese(position, "车九进一")
    assert sorted(raised.value.candidates) == ["a0a1", "a4a5"]


def test_real_scoresheet_elephant_without_place() -> None:
    # From CCPD game 1: two black elephants on file 3; the record writes 象３退５, and so do we: two
    # elephants (or advisors) on one file part by direction, so scoresheets give the file, not 前/后
    position = Position.from_fen("2baka3/9/1n7/4p3R/2b3p2/9/4r1P1P/4B3N/9/3AKAB2 b - - 0 24")
    move = Move.from_iccs("c5e7")
    assert format_chinese(position, move, traditional=True, fullwidth=True) == "象３退５"
    assert parse_chinese(position, "象３退５") == move
    assert parse_chinese(position, "前象退５") == move  # the place is still read


# Errors carry the input and the FEN.
def test_unreadable_text_is_invalid() -> None:
    position = Position.start()
    for text in ("炮二走五", "C2*5", "", "xyz"):
        with pytest.raises(InvalidMoveError) as raised:
            parse_move(position, text)
        assert position.fen() in str(raised.value)


def test_wellformed_but_impossible_moves_are_illegal() -> None:
    position = Position.start()
    cases = ["炮四平五", "马二进四", "车一平二", "C2+9", "h2h8", "前车进一"]
    for text in cases:
        with pytest.raises(IllegalMoveError) as raised:
            parse_move(position, text)
        assert repr(text) in str(raised.value) and position.fen() in str(raised.value)


def test_formatting_an_illegal_move_raises() -> None:
    for notation in ("chinese", "wxf", "iccs"):
        with pytest.raises(IllegalMoveError):
            format_move(Position.start(), Move.from_iccs("h2h8"), notation)
    with pytest.raises(ValueError, match="unknown notation"):
        format_move(Position.start(), Move.from_iccs("h2e2"), "san")


def test_wxf_middle_soldier_must_repeat_its_file() -> None:
    with pytest.raises(InvalidMoveError):
        parse_wxf(Position.from_fen("4k4/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w"), "73.8")


@pytest.mark.parametrize(
    ("text", "notation"),
    [("h2e2", "iccs"), ("H2-E2", "iccs"), ("C2.5", "wxf"), ("3+.4", "wxf"), ("++.6", "wxf"),
     ("炮二平五", "chinese"), ("馬８進７", "chinese"), ("炮25", "chinese")],
)
def test_detect_notation(text: str, notation: str) -> None:
    assert detect_notation(text) == notation


def test_advisors_and_elephants_on_one_file_are_written_by_their_file() -> None:
    # a reviewer: 后仕进五 and 前相退五 where scoresheets (and WXF's A6+5, E7-5) give the file: the
    # direction alone tells which of the two moves, so no place is written; both forms are read
    advisors = Position.from_fen("3k5/9/9/9/9/9/9/3A5/9/3AK4 w")
    assert [format_move(advisors, Move.from_iccs(m)) for m in ("d0e1", "d2e1")] == ["仕六进五", "仕六退五"]
    assert format_move(advisors, Move.from_iccs("d0e1"), "wxf") == "A6+5"
    assert parse_move(advisors, "后仕进五") == parse_move(advisors, "仕六进五") == Move.from_iccs("d0e1")
    elephants = Position.from_fen("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w")
    assert format_move(elephants, Move.from_iccs("c4e2")) == "相七退五"
    assert format_move(elephants, Move.from_iccs("c0a2")) == "相七进九"
    # other pieces keep their place even when the direction would tell them apart
    chariots = Position.from_fen("3k5/9/9/9/9/R8/9/9/9/R3K4 w")
    assert format_move(chariots, Move.from_iccs("a0b0")).startswith("后车")
