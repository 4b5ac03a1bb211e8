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
    assert _play(moves, short=True) == ["炮25", "马23", "马23", "车12", "车12", "炮24"]


def test_short_form_names_the_place_of_tandem_pieces() -> None:
    tandem = Position.from_fen("3k5/9/9/9/9/4R4/9/9/4R4/4K4 w - - 0 1")
    assert format_move(tandem, Move.from_iccs("e1d1"), "chinese") == "后车平六"
    assert format_move(tandem, Move.from_iccs("e1d1"), "chinese", short=True) == "后车6"
    assert format_move(tandem, Move.from_iccs("e4e6"), "chinese", short=True, fullwidth=True) == "前车２"


def test_unambiguous_short_moves_read_back() -> None:
    position = Position.start()
    for text in ["h2e2", "h9g7", "b0c2"]:
        move = Move.from_iccs(text)
        short = format_move(position, move, "chinese", short=True)
        assert parse_move(position, short, "chinese") == move
        position = position.play(move)
