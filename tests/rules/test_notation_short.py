"""The short form of art. 7.5 (``炮25 马87``): the rules' own example, places, and reading it back."""

from __future__ import annotations

from rules import Move, Position, format_move, parse_move


def _play(moves: list[str], **options: bool) -> list[str]:
    position, out = Position.start(), []
    for text in moves:
        move = Move.from_iccs(text)
        out.append(format_move(position, move, "chinese", **options))
        position = position.play(move)
    return out


def test_article_7_5_example() -> None:
    # 1、炮二平五 马八进七 2、马二进三 车九平八 3、车一平二 炮八进四 (the 2011 text writes black in numerals)
    moves = ["h2e2", "b9c7", "h0g2", "a9b9", "i0h0", "b7b3"]
    assert _play(moves) == ["炮二平五", "马2进3", "马二进三", "车1平2", "车一平二", "炮2进4"]
    # the rules print 车12 for both chariots, which reads as 平 or 进 alike: written in full, it reads back
    assert _play(moves, short=True) == ["炮25", "马23", "马23", "车1平2", "车一平二", "炮24"]


def test_short_forms_with_a_place_read_back() -> None:
    """The writer gave 后车6 and 2兵6, which the reader refused (a reviewer, against art. 7.5's 后车6)."""
    tandem = Position.from_fen("3k5/9/9/9/9/9/9/5R3/5R3/4K4 w - - 0 1")
    assert parse_move(tandem, "后车6") == parse_move(tandem, "后车平六") == Move.from_iccs("f1d1")
    soldiers = Position.from_fen("3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w - - 0 1")  # four on the e file
    move = parse_move(soldiers, "二兵平六")
    assert format_move(soldiers, move, "chinese", short=True) == "2兵6"
    assert parse_move(soldiers, "2兵6") == move
    two_files = Position.from_fen("3k5/9/2P1P4/2P1P4/9/9/9/9/9/4K4 w - - 0 1")
    move = parse_move(two_files, "前七平八")
    assert format_move(two_files, move, "chinese", short=True) == "前78"
    assert parse_move(two_files, "前78") == move


def test_short_form_names_the_place_of_tandem_pieces() -> None:
    tandem = Position.from_fen("3k5/9/9/9/9/4R4/9/9/4R4/4K4 w - - 0 1")
    assert format_move(tandem, Move.from_iccs("e1d1"), "chinese") == "后车平六"
    assert format_move(tandem, Move.from_iccs("e1d1"), "chinese", short=True) == "后车6"
    assert format_move(tandem, Move.from_iccs("e4e6"), "chinese", short=True) == "前车进二"  # 前车2: 进 or 平
    black = Position.from_fen("4k4/9/4r4/9/9/3prp3/9/9/9/3K5 b - - 0 1")  # the soldiers bar 平
    assert format_move(black, Move.from_iccs("e4e1"), "chinese", short=True, fullwidth=True) == "前车３"


def test_unambiguous_short_moves_read_back() -> None:
    position = Position.start()
    for text in ["h2e2", "h9g7", "b0c2"]:
        move = Move.from_iccs(text)
        short = format_move(position, move, "chinese", short=True)
        assert parse_move(position, short, "chinese") == move
        position = position.play(move)
