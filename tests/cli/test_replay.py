"""End-to-end: ``xqrec replay`` and the interim ``xqrec demo`` on real records."""

from __future__ import annotations

from pathlib import Path

import pytest

from recorder.cli import main
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.skipif(not SHARED_DATA.exists(), reason="../shared/data is not present")


def test_replay_prints_scoresheet_and_repetition_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--line", "13"]) == 0
    out = capsys.readouterr().out
    assert "1. 炮二平五    马8进7" in out
    assert "25.2" in out  # the repetition the rules call a draw
    assert "Result as recorded: 1/2-1/2" in out


def test_replay_reports_checkmate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--line", "3"]) == 0
    out = capsys.readouterr().out
    assert "checkmated" in out and "4.1.1" in out


def test_replay_reads_big5_pgn_in_traditional_characters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(SHARED_DATA / "pgn-chinese" / "0001.pgn"), "--traditional"]) == 0
    assert "1. 兵七進一    馬8進7" in capsys.readouterr().out


def test_replay_rejects_an_illegal_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pgn = tmp_path / "bad.pgn"
    pgn.write_text('[Game "Chinese Chess"]\n\n1. h2e2 h9g7 2. e2e9 *\n', encoding="utf-8")
    assert main(["replay", str(pgn)]) == 2
    assert "bad.pgn" in capsys.readouterr().err


def test_an_illegal_move_is_reported_once_as_the_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         caplog: pytest.LogCaptureFixture) -> None:
    pgn = tmp_path / "illegal.pgn"
    pgn.write_text('[Event "x"]\n[Format "ICCS"]\n\n1. h2h9 h9g7 *\n', encoding="utf-8")
    assert main(["replay", str(pgn)]) == 2
    err = capsys.readouterr().err
    assert err.count("illegal move 'h9g7'") == 1 and err.startswith("xqrec replay: ")
    assert "skipped" not in err + caplog.text and "illegal move" not in caplog.text


def test_a_tag_missing_its_bracket_is_named_as_such(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pgn = tmp_path / "tag.pgn"
    pgn.write_text('[Event "x"\n\n1. h2e2 h9g7 *\n', encoding="utf-8")
    # its moves all read: replayed with the tag left out named, as games --import stores it (a tester
    # found replay refused what the import took)
    assert main(["replay", str(pgn)]) == 0
    out, err = capsys.readouterr()
    assert "malformed tag on line 1" in err and "invalid move" not in err and "马8进7" in out


def test_a_file_of_several_games_says_so_and_replays_the_one_named(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # tester 15: a round's PGN of three games replayed only the first and said nothing of the others
    pgn = tmp_path / "round.pgn"
    pgn.write_text('[Red "A"]\n\n1. h2e2 h9g7 *\n\n[Red "B"]\n\n1. c3c4 *\n\n[Red "C"]\n\n1. b0c2 *\n', encoding="utf-8")
    assert main(["replay", str(pgn)]) == 0
    out, err = capsys.readouterr()
    assert "Red: A" in out and "holds 3 games; this is game 1 (--game N for another)" in err
    assert main(["replay", str(pgn), "--game", "2"]) == 0
    out, err = capsys.readouterr()
    assert "Red: B" in out and "兵七进一" in out and not err
    assert main(["replay", str(pgn), "--game", "4"]) == 2
    assert "--game must be between 1 and 3" in capsys.readouterr().err
    assert main(["replay", str(pgn), "--game", "0"]) == 2  # it was game 1, silently
    assert "--game must be 1 or more" in capsys.readouterr().err
    assert main(["replay", "--line", "3", "--game", "2"]) == 2
    assert "--line names one game already" in capsys.readouterr().err


def test_a_game_with_a_variation_replays_its_main_line_and_names_what_was_left_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # tester 16: "skipped '(...)'" and status 2, with no scoresheet
    pgn = tmp_path / "var.pgn"
    pgn.write_text("1. 炮二平五 马8进7 2. 车一进一 (2. 马二进三 车9平8) 车9平8 3. 车一平四 1-0\n", encoding="utf-8")
    assert main(["replay", str(pgn)]) == 0
    out, err = capsys.readouterr()
    assert "2. 车一进一    车9平8" in out and "3. 车一平四" in out
    assert "Result as recorded: 1-0" in out  # the movetext's result, there being no Result tag
    assert "variation left out: '(2. 马二进三 车9平8)'" in err


def test_a_comment_never_closed_is_refused_naming_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # tester 16: the rest of the game and the next game vanished, status 0
    pgn = tmp_path / "open.pgn"
    pgn.write_text('[Event "u"]\n\n1. 炮二平五 马8进7 {ok} 2. 马二进三 {never closed\n\n[Event "v"]\n\n1. 兵七进一 *\n',
                   encoding="utf-8")
    assert main(["replay", str(pgn)]) == 2
    err = capsys.readouterr().err
    assert "the comment opened with '{' on line 3 is never closed" in err and "(to line 7) are not read" in err


def test_replay_notes_nine_rounds_of_attacks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--line", "1874"]) == 0
    out = capsys.readouterr().out
    assert "(ply 152): nine rounds of attacks (23.4)" in out and "一将一捉" in out


def test_replay_names_who_left_a_repetition_and_with_what(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--line", "2901"]) == 0
    out = capsys.readouterr().out
    assert ("      ! after 30... 车4退2 (ply 60): repetition lasts to here, a position stood 5x; red (红方) then left it"
            " with 31. 炮六进一 (ply 61)") in out
    assert out.index("  30. 车八退二") < out.index("(ply 60)") < out.index("  31. 炮六进一")


def test_a_note_names_its_move_in_a_game_begun_with_black_to_move(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "black-first.pgn"
    path.write_text('[FEN "3k5/9/9/9/9/9/9/9/r8/4K4 b - - 0 30"]\n\n'
                    "30... a1a0 31. e0e1 a0a1 32. e1e0 a1a0 33. e0e1 a0a1 34. e1e0 a1a0 *\n", encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "  30.             车1进1" in out
    assert "! after 34. 帅五退一 (ply 8): position repeated 3x" in out and "黑方单方面长将" in out
    assert "! after 34... 车1进1 (ply 9): repetition lasts to here, a position stood 3x; the record ends in it" in out


def test_a_verdict_lists_the_moves_it_judged_with_what_each_was(capsys: pytest.CaptureFixture[str]) -> None:
    """Under each verdict, the cycle's moves with their kinds, so the arbiter can check it: here
    black's chariot wins red's chariot by checking first (抽将) on every other move."""
    assert main(["replay", "--line", "2261"]) == 0
    out = capsys.readouterr().out
    assert "          28... 车2进1 (ply 56): 将 check" in out
    assert ("          29... 车2退1 (ply 58): 捉 chase (black chariot b2 chases red chariot h2 "
            "(after the check g2g0, 抽将: unprotected))") in out


def test_advice_with_no_result_yet_is_printed_without_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a tester's chase: the last line read "Rules (advice for the arbiter): None — 红方..."
    pgn = tmp_path / "chase.pgn"
    pgn.write_text('[Game "Chinese Chess"]\n[FEN "5k3/9/c4a3/9/9/9/9/9/R8/5K3 b - - 0 1"]\n[Format "ICCS"]\n\n'
                   "1. ... a7b7 2. a1b1 b7a7 3. b1a1 a7b7 4. a1b1 b7a7 5. b1a1 *\n", encoding="utf-8")
    assert main(["replay", str(pgn), "--notation", "iccs"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].startswith("Rules (advice for the arbiter): 红方为禁止着法") and "None" not in lines[-1]
    heading = next(line for line in lines if line.startswith("回合"))  # over its columns (回合 is 4 wide)
    before = heading[:heading.index("黑方")]
    columns = len(before) + sum(1 for char in before if ord(char) > 0x2E80)  # Chinese characters are 2 wide
    assert columns == lines[lines.index(heading) + 2].index("b7a7")


def test_a_file_in_an_encoding_not_guessed_is_read_with_encoding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a player tester: a Latin-1 file (Müller) was refused, with no way to name its encoding
    pgn = tmp_path / "latin1.pgn"
    pgn.write_bytes('[Event "café"]\n[Red "Müller"]\n\n1. h2e2 h9g7 *\n'.encode("latin-1"))
    assert main(["replay", str(pgn)]) == 2
    assert "give the file's encoding with --encoding (e.g. latin-1)" in capsys.readouterr().err
    assert main(["replay", str(pgn), "--encoding", "latin-1"]) == 0
    assert "Red: Müller" in capsys.readouterr().out
