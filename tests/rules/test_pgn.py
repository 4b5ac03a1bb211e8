"""Xiangqi PGN: the 300 original Big5 scoresheets, encodings, movetext features, writing, round trips."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules import Move, PgnError, PgnGame, Position, read_pgn, write_pgn
from rules.pgn import decode_pgn
from tests.conftest import SHARED_DATA

PGN_DIR = SHARED_DATA / "pgn-chinese"


def _scoresheets() -> list[Path]:
    files = sorted(PGN_DIR.glob("*.pgn"))
    if not files:
        pytest.skip("../shared/data/pgn-chinese is not present")
    return files


def test_all_big5_scoresheets_read_to_the_exact_iccs_moves(games: list[tuple[str, list[str]]]) -> None:
    files = _scoresheets()
    assert len(files) == 300
    for path in files:
        (game,) = read_pgn(path.read_bytes())
        result, moves = games[int(path.stem) - 1]
        assert game.errors == [], path.name
        assert game.encoding == "cp950"
        assert [move.iccs for move in game.moves] == moves, path.name
        assert game.result == result, path.name
        assert game.headers["Game"] == "Chinese Chess"


def _round_trip(game: PgnGame) -> None:
    for notation in ("chinese", "wxf", "iccs"):
        for traditional in (False, True) if notation == "chinese" else (False,):
            text = write_pgn(game, notation, traditional=traditional, fullwidth=traditional)
            (again,) = read_pgn(text)
            assert again.errors == []
            assert again.moves == game.moves and again.result == game.result
            assert again.comment == game.comment and again.move_comments == game.move_comments
            assert again.start_position() == game.start_position()
            for name, value in game.headers.items():
                assert name in ("Format", "FEN", "Game") or again.headers[name] == value
            assert write_pgn(again, notation, traditional=traditional, fullwidth=traditional) == text


def test_scoresheets_round_trip_through_every_notation() -> None:
    for path in random.Random(3).sample(_scoresheets(), 12):
        (game,) = read_pgn(path.read_bytes())
        _round_trip(game)


@pytest.mark.slow
def test_all_scoresheets_round_trip_through_every_notation() -> None:
    for path in _scoresheets():
        (game,) = read_pgn(path.read_bytes())
        _round_trip(game)


def test_unescaped_quotes_in_tags_are_kept() -> None:
    text = '[Game "Chinese Chess"]\n[Event ""城大建材杯"全國象棋大師冠軍賽"]\n\n1. 炮二平五 *\n'
    (game,) = read_pgn(text)
    assert game.headers["Event"] == '"城大建材杯"全國象棋大師冠軍賽'
    assert '[Event "\\"城大建材杯\\"全國象棋大師冠軍賽"]' in write_pgn(game)
    assert read_pgn(write_pgn(game))[0].headers["Event"] == game.headers["Event"]


# --- encodings -------------------------------------------------------------------------

SIMPLE = '[Game "Chinese Chess"]\n[Red "许银川"]\n[Black "吕钦"]\n[Result "1-0"]\n\n1. 炮二平五 马8进7\n2. 马二进三 1-0\n'
TRADITIONAL = SIMPLE.replace("许银川", "許銀川").replace("吕钦", "呂欽").replace("马", "馬").replace("进", "進")


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (SIMPLE.encode("utf-8"), "utf-8"),
        (b"\xef\xbb\xbf" + SIMPLE.encode("utf-8"), "utf-8-sig"),
        (SIMPLE.encode("gbk"), "gbk"),
        (SIMPLE.encode("gb18030"), "gbk"),
        (TRADITIONAL.encode("big5"), "cp950"),
        (TRADITIONAL.encode("utf-16"), "utf-16"),
    ],
)
def test_encodings_are_detected(data: bytes, encoding: str) -> None:
    (game,) = read_pgn(data)
    assert game.encoding == encoding
    assert [m.iccs for m in game.moves] == ["h2e2", "h9g7", "h0g2"]
    assert game.headers["Red"] in ("许银川", "許銀川")


def test_traditional_text_in_gbk_is_not_mistaken_for_big5() -> None:
    text, encoding = decode_pgn(TRADITIONAL.encode("gb18030"))
    assert text == TRADITIONAL and encoding in ("gbk", "gb18030")


def test_a_binary_file_that_begins_like_utf16_is_refused_as_no_pgn() -> None:
    # a tester's import of a binary file printed Python's "'utf-16-le' codec can't decode byte 0x65"
    data = b"\xff\xfe" + bytes(range(200)) + b"\x00\xd8e"  # a lone surrogate: no UTF-16 text
    with pytest.raises(PgnError, match="begin as UTF-16 text but are not.*is it a PGN file"):
        decode_pgn(data)


def test_undecodable_bytes_say_where_they_are_and_which_codecs_failed() -> None:
    with pytest.raises(PgnError, match=r"at line 2, column 3 \(bytes ff ff 0a\): no text in utf-8, gbk, gb18030, cp950"):
        read_pgn(b'[Game "Chinese Chess"]\n1.\xff\xff\n')


# --- movetext --------------------------------------------------------------------------

MULTI = """\
[Game "Chinese Chess"]
[Event "Test"]
[Red "A"]
[Black "B"]
[Format "WXF"]

{Opening comment}
1. C2.5 H8+7 {[%clk 0:59:50] a black reply}
; a line comment
2. H2+3 $1 R9.8!? (2... C8.6 3. R1.2) 3. R1.2 C8+4 1/2-1/2

[Game "Chinese Chess"]
[Red "C"]
[Black "D"]
[FEN "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 b - - 0 40"]
[Format "ICCS"]

40... D9-D8 41. e7e8 0-1
[Game "Chinese Chess"]
[Result "*"]

1.炮二平五 1...马8进7 2.兵三进一 *
"""


def test_multi_game_file_with_comments_variations_and_fen() -> None:
    first, second, third = read_pgn(MULTI)
    assert [m.iccs for m in first.moves] == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3"]
    assert first.comment == "Opening comment"
    assert first.move_comments[1] == "[%clk 0:59:50] a black reply; a line comment"
    assert first.result == "1/2-1/2"
    assert first.errors == [] and first.notes == ["game 1: variation left out: '(2... C8.6 3. R1.2)'"]
    assert second.start_position().side_to_move == "black"
    assert [m.iccs for m in second.moves] == ["d9d8", "e7e8"]
    assert second.result == "0-1"
    assert [m.iccs for m in third.moves] == ["h2e2", "h9g7", "g3g4"]


def test_writer_emits_roster_fen_format_and_numbering() -> None:
    game = read_pgn(MULTI)[1]
    text = write_pgn(game, "chinese")
    assert text.splitlines()[:11] == [
        '[Game "Chinese Chess"]',
        '[Event "?"]',
        '[Site "?"]',
        '[Date "?"]',
        '[Round "?"]',
        '[Red "C"]',
        '[Black "D"]',
        '[Result "0-1"]',
        '[SetUp "1"]',
        '[FEN "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 b - - 0 40"]',
        '[Format "Chinese"]',
    ]
    assert text.endswith("\n40... 将4进1\n41. 前兵进一\n0-1\n")
    standard = write_pgn(read_pgn(MULTI)[0], "wxf")
    assert "[FEN" not in standard and "[SetUp" not in standard and '[Format "WXF"]' in standard
    assert "1. C2.5 H8+7 {[%clk 0:59:50] a black reply; a line comment}" in standard


def test_bad_move_stops_the_game_leniently_or_raises_when_strict() -> None:
    text = '[Game "Chinese Chess"]\n\n1. 炮二平五 马8进7 2. 车一进十 马二进三 *\n'
    (game,) = read_pgn(text)
    assert [m.iccs for m in game.moves] == ["h2e2", "h9g7"]
    assert len(game.errors) == 1 and "ply 3" in game.errors[0] and "车一进十" in game.errors[0]
    assert game.result == "*"
    with pytest.raises(PgnError, match="ply 3"):
        read_pgn(text, strict=True)


def test_built_game_writes_and_reads_back() -> None:
    game = PgnGame(headers={"Event": "Club", "Red": "R", "Black": "B"})
    position = Position.start()
    for iccs in ("h2e2", "h9g7", "h0g2"):
        game.add_move(Move.from_iccs(iccs))
        position = position.play(iccs)
    game.move_comments[0] = "the central cannon"
    game.result = "1-0"
    _round_trip(game)
    assert game.positions()[-1] == position


def test_printed_move_list_as_in_the_rules_text() -> None:
    """Art. 7.5's layout: numbers with 、, full-width spaces, black files as numerals, a BOM."""
    text = "\ufeff1、炮二平五　马八进七\n2、马二进三　车九平八\n3．车一平二　炮八进四\n"
    (game,) = read_pgn(text)
    assert [m.iccs for m in game.moves] == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3"]
    assert game.errors == [] and game.result == "*"


def test_a_tag_without_its_bracket_is_a_malformed_tag_not_a_move() -> None:
    text = '[Event "x"\n[Red "A"]\n\n1. h2e2 h9g7 *\n'
    (game,) = read_pgn(text)
    assert game.errors == ["game 1: malformed tag on line 1 (no closing ']'): '[Event \"x\"'"]
    assert game.headers == {"Red": "A"} and [m.iccs for m in game.moves] == ["h2e2", "h9g7"]
    with pytest.raises(PgnError, match="game 1: malformed tag on line 1"):
        read_pgn(text, strict=True)
    (_, second) = read_pgn('[Red "A"]\n\n1. h2e2 *\n\n[Event "y" x]\n\n1. h2e2 *\n')
    assert second.errors == ["game 2: malformed tag on line 5: '[Event \"y\" x]'"]


def test_clock_annotations_outside_comments_are_not_tags() -> None:
    (game,) = read_pgn('[Red "A"]\n\n1. h2e2\n[%clk 0:10:00]\n*\n')
    assert not any("malformed tag" in e for e in game.errors)


def test_a_bad_move_is_not_logged_as_well_as_returned(caplog: pytest.LogCaptureFixture) -> None:
    """The caller says it once, in its own words (an import keeps what was read, a replay refuses)."""
    with caplog.at_level("DEBUG", logger="rules.pgn"):
        (game,) = read_pgn('[Game "Chinese Chess"]\n\n1. h2e2 h9g7 2. e2e9 *\n')
    assert len(game.errors) == 1
    assert not [r for r in caplog.records if r.levelno >= 30]


def test_comments_are_written_without_stray_spaces() -> None:
    game = PgnGame()
    game.comment = " opening  note "
    game.add_move(Move.from_iccs("h2e2"), "[%clk 0:15:13] ")
    game.add_move(Move.from_iccs("h9g7"), "  ")
    text = write_pgn(game, "iccs")
    assert "1. H2-E2 {[%clk 0:15:13]}" in text and "{opening note}" in text and "{ " not in text
    assert "h9g7 {" not in text
    assert write_pgn(read_pgn(text)[0], "iccs") == text


def test_a_comment_never_closed_cuts_the_game_and_says_what_is_lost() -> None:
    text = '[Event "u"]\n\n1. h2e2 h9g7 {fine} 2. h0g2 {open\n2... i9h9\n\n[Event "v"]\n\n1. c3c4 *\n'
    (game,) = read_pgn(text)  # the second game is inside the open comment
    assert [m.iccs for m in game.moves] == ["h2e2", "h9g7", "h0g2"] and game.cut
    assert game.errors == ["game 1: the comment opened with '{' on line 3 is never closed with '}': "
                           "the moves, result or games after it (to line 8) are not read"]
    with pytest.raises(PgnError, match="never closed"):
        read_pgn(text, strict=True)
    (last,) = read_pgn("1. h2e2 h9g7 {a last word, not closed\n")  # nothing after it is lost
    assert [m.iccs for m in last.moves] == ["h2e2", "h9g7"] and not last.errors and not last.cut
    assert last.notes == ["game 1: the comment opened with '{' on line 1 is never closed with '}' (no move after it)"]
    (after,) = read_pgn("1. h2e2 h9g7 1-0 {Red won on time\nin the end\n")  # a closing comment: nothing lost
    assert after.result == "1-0" and not after.errors and len(after.moves) == 2
    (inline,) = read_pgn("1. h2e2 h9g7 {note 2. h0g2 i9h9 1-0\n")  # reviewer: on one line, still play lost
    assert inline.cut and "to line 1" in inline.errors[0] and len(inline.moves) == 2


def test_a_variation_never_closed_cuts_the_game() -> None:
    (game,) = read_pgn("1. h2e2 (1. b2e2 h9g7 h9g7 2. h0g2 1-0\n")
    assert game.cut and [m.iccs for m in game.moves] == ["h2e2"]
    assert game.errors == ["game 1: the variation '(1. b2e2 h9g7 h9g7 2. h0g2 1-0' is never closed with ')': "
                           "the moves after its '(' are not read"]
    with pytest.raises(PgnError, match="never closed"):
        read_pgn("1. h2e2 (1. b2e2 h9g7\n", strict=True)


def test_a_result_tag_the_movetext_contradicts_is_named() -> None:
    (game,) = read_pgn('[Result "0-1"]\n\n1. h2e2 h9g7 1-0\n')
    assert game.result == "1-0" and not game.errors
    assert game.notes == ["game 1: the Result tag says 0-1 but the moves end with 1-0; 1-0 is taken"]


def test_moves_that_end_without_a_result_are_noted_as_maybe_cut_short() -> None:
    (game,) = read_pgn('[Result "1-0"]\n\n1. h2e2 h9g7 2. h0g2\n')
    assert game.result == "1-0" and not game.cut
    assert game.notes == ["game 1: the moves end without a result (1-0, 0-1, 1/2-1/2 or *): the file may be cut "
                          "short; the Result tag's 1-0 is taken"]
    (whole,) = read_pgn("1. h2e2 h9g7 *\n")
    assert not whole.notes


def test_a_backslash_before_anything_but_a_quote_or_a_backslash_is_kept_in_a_tag() -> None:
    (game,) = read_pgn('[Site "C:\\Games\\xq"]\n[Event "a \\"b\\" c\\\\d"]\n\n1. h2e2 *\n')
    assert game.headers["Site"] == "C:\\Games\\xq" and game.headers["Event"] == 'a "b" c\\d'
    assert read_pgn(write_pgn(game, "iccs"))[0].headers["Site"] == "C:\\Games\\xq"


def test_annotators_glyphs_and_nags_are_kept_at_the_start_of_their_moves_comment() -> None:
    """A tester's annotated file lost every '!?' and '$1' without a note."""
    (game,) = read_pgn("1. h2e2! {good} h9g7 $6 2. h0g2!? $14 {x} i9h9?? *\n")
    assert [m.iccs for m in game.moves] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert game.move_comments == ["! good", "?!", "!? $14 x", "??"]
    # written back as NAGs, as PGN's export format asks (other programs read "{!}" as a note)
    written = write_pgn(game, "iccs")
    assert written.splitlines()[-5:-1] == \
        ["1. H2-E2 $1 {good}", "1... H9-G7 $6", "2. H0-G2 $5 $14 {x}", "2... I9-H9 $4"]
    assert "{!" not in written and "{?" not in written
    assert read_pgn(written)[0].move_comments == game.move_comments


def test_a_nested_variation_is_named_as_written() -> None:
    # the note dropped the inner parentheses, so it read as one line of moves that was never played
    (game,) = read_pgn("1. h2e2 (1. c3c4 (1. b2e2 h9g7) h9g7) h9g7 () 2. h0g2 ) *\n")
    assert [m.iccs for m in game.moves] == ["h2e2", "h9g7", "h0g2"] and game.errors == []
    assert game.notes == ["game 1: variation left out: '(1. c3c4 (1. b2e2 h9g7) h9g7)'"]  # not the empty one


def test_two_comments_after_one_move_stay_two_notes() -> None:
    # a tester's "{a} {b}" came back as "{a b}": the first note's last sentence ran into the second
    (game,) = read_pgn("{intro} {more} 1. h2e2 {Red opens.} {Black was late} h9g7 {} {x} *")
    assert game.comment == "intro; more"
    assert game.move_comments == ["Red opens.; Black was late", "x"]
    (again,) = read_pgn(write_pgn(game, "iccs"))
    assert again.move_comments == game.move_comments and again.comment == game.comment


def test_written_lines_keep_to_the_export_width_and_read_back_the_same() -> None:
    # a player tester: an arbiter's notes made comment lines of 427 characters (PGN: 79, at most 255)
    game = read_pgn(MULTI)[0]
    long_note = "alert illegal_move b0 b3 (art. 2.2): the horse's leg is blocked; " * 6
    game.move_comments[2] = long_note.strip()
    game.headers["Red"] = "Line1\nLine2"  # a name typed with a line break would end the tag
    text = write_pgn(game, "chinese")
    assert max(len(line) for line in text.splitlines()) <= 79
    assert '[Red "Line1 Line2"]' in text
    (back,) = read_pgn(text)[:1]
    assert back.move_comments[2] == game.move_comments[2] and back.headers["Red"] == "Line1 Line2"
    assert [m.iccs for m in back.moves] == [m.iccs for m in game.moves]


def test_the_short_form_as_the_rulebook_prints_it_spaced_reads() -> None:
    # an arbiter tester: art. 7.5's example sheet writes "马2 3" and "炮8 4"; the reader split them
    (game,) = read_pgn('[Game "Chinese Chess"]\n\n1. 炮25 马87 2. 马2 3 车98 3. 车一平二 炮8 4 *\n')
    assert [m.iccs for m in game.moves] == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3"]
    assert not game.errors


def test_a_file_cut_short_in_a_games_tags_is_no_empty_game() -> None:
    # a player tester: `head -c 132 game.pgn` was imported as a finished game of no moves
    (cut,) = read_pgn('[Game "Chinese Chess"]\n[Event "Test"]\n[Red "A"]\n[Black "B')
    assert cut.cut and any("cut short" in error for error in cut.errors)
    (whole_tags,) = read_pgn('[Game "Chinese Chess"]\n[Event "Test"]\n')
    assert whole_tags.cut
    (empty,) = read_pgn('[Game "Chinese Chess"]\n[Event "Test"]\n\n*\n')  # a record of no moves, whole
    assert not empty.cut and not empty.errors and empty.moves == []
    (forfeit,) = read_pgn('[Event "X"]\n[Red "A"]\n[Black "B"]\n[Result "1-0"]\n\n')  # a reviewer: a forfeit
    assert not forfeit.cut and forfeit.result == "1-0"


def test_one_game_of_a_file_is_read_alone_with_the_count() -> None:
    # a player tester's 30 000-game file took 2.5 minutes to replay its first game
    from rules.pgn import read_pgn_game

    text = "".join(f'[Round "{n}"]\n\n1. h2e2 h9g7 *\n\n' for n in range(1, 6)) + '[Round "6"]\n\n1. h2h8 *\n'
    game, count = read_pgn_game(text, 2)
    assert count == 6 and game is not None and game.headers["Round"] == "2" and len(game.moves) == 2
    assert read_pgn_game(text, 7) == (None, 6)
    last, _ = read_pgn_game(text, 6)  # a bad game is read only when asked for
    assert last is not None and last.errors


def test_a_comment_holding_a_closing_brace_reads_back_the_same() -> None:
    # a reviewer: a ';' comment holding '}' was written as a {...} comment with the '}' turned into ')'
    (game,) = read_pgn("; an {opening} note\n1. h2e2 ; see {note} here\nh9g7 {plain} 2. h0g2 *\n")
    assert (game.comment, game.move_comments[:2]) == ("an {opening} note", ["see {note} here", "plain"])
    for notation in ("chinese", "iccs"):
        (back,) = read_pgn(write_pgn(game, notation))
        assert (back.comment, back.move_comments, back.moves) == (game.comment, game.move_comments, game.moves)


def test_a_game_read_with_a_bad_fen_tag_is_written_as_read() -> None:
    # a reviewer: read_pgn keeps such a game (no move, the problem in its errors); write_pgn raised
    text = '[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1"]\n\n1. h2e2 *\n'
    (game,) = read_pgn(text)
    assert game.errors and "bad FEN tag" in game.errors[0] and not game.moves
    written = write_pgn(game, "chinese")
    assert '[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1"]' in written
    (back,) = read_pgn(written)
    assert back.errors and "bad FEN tag" in back.errors[0]  # the same problem, told again on reading
