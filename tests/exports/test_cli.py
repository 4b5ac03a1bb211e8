"""``xqrec games``, ``xqrec show`` and ``xqrec export`` on a store with a few games (one left open)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from recorder.cli import main
from recorder.store import GameInfo, GameStore
from rules import read_pgn
from tests.exports.game_events import game_events

MOVES = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "c6c5", "c3c4", "h7i7"]


@pytest.fixture()
def db(tmp_path: Path) -> Path:
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        for board, (red, black) in enumerate([("许银川", "吕钦"), ("胡荣华", "杨官璘")], 1):
            game = store.create_game(f"cam{board}", GameInfo(event="Open", round="2", board=board, red=red,
                                                             black=black, time_control="5400+30"))
            events = game_events(MOVES[:8 + board], seed=board, faults=board == 1,
                                 result="1-0" if board == 1 else None)
            for event in events if board == 1 else events[:-1]:  # board 2 was left open
                store.append(game, event)
            if board == 1:
                store.close_game(game)
            else:
                store.begin_session(game)  # this process: still recording
    return path


def test_games_lists_states(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--db", str(db)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "closed" in out[1] and "许银川" in out[1] and " 9 " in out[1] and "1-0" in out[1]
    assert "recording" in out[2] and out[2].split()[2:5] == ["Open", "2", "2"]  # event, round, board
    assert main(["games", "--db", str(db), "--open"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_games_of_a_round_are_listed_by_board_and_never_cut(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an organiser's tester: "Spring Open 2027/round 3/bo…", and game 3 was board 4, game 4 board 3
    path = tmp_path / "round.sqlite3"
    with GameStore(path) as store:
        for board, red in ((4, "Lü Qin"), (3, "Xu Yinchuan"), (1, "A player whose name runs on and on")):
            store.create_game(f"b{board}.mp4", GameInfo(event="Spring Open 2027", round="3", board=board, red=red))
    assert main(["games", "--db", str(path), "--event", "Spring Open 2027", "--round", "3"]) == 0
    header, *rows = capsys.readouterr().out.splitlines()
    assert header.split()[:6] == ["id", "state", "event", "round", "board", "red"]
    assert [row.split("Spring Open 2027")[1].split()[:2] for row in rows] == [["3", "1"], ["3", "3"], ["3", "4"]]
    assert "A player whose …" in rows[0]


def test_show_prints_record_with_alerts(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "1", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "炮二平五" in out and "Illegal move (b0 b3): the horse's leg is blocked (art. 5.3)" in out and "taken back: c6c5" in out
    assert "Time used:" in out and "Red:          许银川" in out
    assert main(["show", "9", "--db", str(db)]) == 2  # no such game: a message, no traceback


def test_export_formats_and_round(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "1", "--db", str(db), "--notation", "chinese"]) == 0
    (game,) = read_pgn(capsys.readouterr().out)
    assert [m.iccs for m in game.moves] == MOVES[:9] and game.headers["Format"] == "Chinese"
    out = tmp_path / "g.txt"
    assert main(["export", "1", "--db", str(db), "--format", "txt", "--out", str(out)]) == 0
    assert "中国象棋比赛记录表" in out.read_text(encoding="utf-8")
    pdf = tmp_path / "g.pdf"
    assert main(["export", "1", "--db", str(db), "--format", "pdf", "--out", str(pdf), "--paper", "A5",
                 "--short"]) == 0
    assert pdf.read_bytes().startswith(b"%PDF")
    assert main(["export", "--round", "Open", "2", "--db", str(db)]) == 0
    games = read_pgn(capsys.readouterr().out)
    assert [g.headers["Board"] for g in games] == ["1", "2"] and [g.result for g in games] == ["1-0", "*"]
    assert [len(g.moves) for g in games] == [9, 10]
    with GameStore(db) as store:  # a reviewer: a game without a board came first in the round's PGN, last on
        store.create_game("cam9", GameInfo(event="Open", round="2", red="无台"))  # the console: last now too
    assert main(["export", "--round", "Open", "2", "--db", str(db)]) == 0
    assert [g.headers.get("Board", "-") for g in read_pgn(capsys.readouterr().out)] == ["1", "2", "-"]
    assert main(["export", "--round", "Open", "7", "--db", str(db)]) == 2
    assert "(the store holds round '2' of 'Open')" in capsys.readouterr().err  # what was mistyped shows
    assert main(["export", "1", "--db", str(db)]) == 0 and "warning" not in capsys.readouterr().err
    assert main(["export", "2", "--db", str(db)]) == 0  # still being recorded: said, as its sheet is cut short
    assert "game 2 is not over (it is still being recorded): the record ends at ply 10" in capsys.readouterr().err


def test_games_imports_a_pgn_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pgn = tmp_path / "other.pgn"
    pgn.write_bytes(("[Red \"胡荣华\"]\n[Result \"1-0\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 1-0\n\n"
                     "[Red \"杨官璘\"]\n\n1. 炮二平五 马８进７ 2. 车一进九 *\n").encode("gbk"))
    # a game of the file left out: exit status 1 (a script must not take the file as stored), the rest stored
    assert main(["games", "--db", str(tmp_path / "i.sqlite3"), "--import", str(pgn)]) == 1
    captured = capsys.readouterr()
    assert "imported 1 game" in captured.out and "胡荣华" in captured.out and "closed" in captured.out
    assert "1 not imported" in captured.out and "杨官璘" not in captured.out
    assert "ply 3" in captured.err and "game 2 not imported" in captured.err
    assert "1 game(s) of" in captured.err and "not imported (above)" in captured.err


def test_reading_a_store_that_does_not_exist_is_an_error_not_a_new_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    typo = tmp_path / "gmaes.sqlite3"
    for argv in (["games"], ["show", "1"], ["export", "1"]):
        assert main([*argv, "--db", str(typo)]) == 2
        assert "no game store at" in capsys.readouterr().err
    assert not typo.exists()
    assert main(["export", "1", "--db", str(typo), "--out", str(tmp_path / "x.pdf"), "--format", "pdf"]) == 2
    err = capsys.readouterr().err
    assert "no game store at" in err and "x.pdf:" not in err  # the store is named, not the output
    # nothing recorded yet in the default store: an empty list, and still no file made
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert main(["games"]) == 0
    assert "no games" in capsys.readouterr().out
    assert not (tmp_path / "data").exists()


def test_long_names_are_cut_visibly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store:
        store.create_game("cam", GameInfo(event="Northern Provinces Open Championship", red="Alexandrovich-Smith",
                                          black="Li"))
    assert main(["games", "--db", str(path)]) == 0
    row = capsys.readouterr().out.splitlines()[1]
    assert "Alexandrovich-S…" in row and "Northern Provinces Open…" in row and " Li " in row


@pytest.mark.parametrize("option, value, message", [
    ("--date", "yesterday", "is not a date"),
    ("--date", "2026.13.01", "is not a date"),
    ("--tc", "90 min", "is not a PGN time control"),
    ("--tc", "90:00+30", "reads as minutes:seconds"),  # a player tester: read as 90 s, then 0 s + 30
    ("--tc", "15+10", "15 minutes is 900"),  # minutes typed for seconds
    ("--tc", "0", "starts the game with 0 seconds"),
    ("--time-control", "abc", "is not 'minutes+increment_seconds'"),
    ("--board", "0", "is not a board number"),
    ("--board", "99999", "boards go up to 999"),  # an organiser tester: taken, and shown as board 99999
])
def test_record_details_are_checked_before_anything_runs(
        tmp_path: Path, option: str, value: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["record", str(tmp_path / "none.mp4"), "--db", str(tmp_path / "g.sqlite3"), option, value])
    assert stop.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "g.sqlite3").exists()


def test_record_details_in_accepted_forms() -> None:
    from recorder.store.recording import pgn_date, pgn_tc

    assert pgn_date("2026-12-01") == pgn_date("2026.12.01") == "2026.12.01"
    assert [pgn_tc(v) for v in ("5400+30", "40/7200:1800+30", "?", "-", "*180", "05400+030", "*30")] == \
        ["5400+30", "40/7200:1800+30", "?", "-", "*180", "5400+30", "*30"]  # (*30: a sandglass, 30 s a move)


def test_chinese_names_keep_the_columns_and_a_game_without_a_board_number_has_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store:
        store.create_game("cam", GameInfo(event="全国象棋甲级联赛第十八轮比赛", round="8", red="许银川", black="Li"))
    assert main(["games", "--db", str(path)]) == 0
    header, row = capsys.readouterr().out.splitlines()[:2]
    assert "…" in row and "board 0" not in row
    # the red name starts in the same terminal column as its heading (Chinese characters are two wide)
    from recorder.commands.games import _columns

    assert _columns(row[:row.index("许银川")]) == header.index("red")
    with GameStore(path) as store:
        assert store.game(1).info.board is None


@pytest.mark.parametrize("option, value", [("--board", "0"), ("--board", "x"), ("--time-control", "15+")])
def test_more_record_details_checked(tmp_path: Path, option: str, value: str) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["record", str(tmp_path / "none.mp4"), "--no-db", option, value])
    assert stop.value.code == 2


def test_pdf_options_without_the_pdf_format_are_an_error(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "1", "--db", str(db), "--paper", "A5", "--short"]) == 2
    assert "--format pdf" in capsys.readouterr().err


def test_a_time_control_without_a_live_clock_says_it_is_not_used(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the check comes before the source is opened, so a missing video still fails after it
    assert main(["record", str(tmp_path / "none.mp4"), "--no-db", "--time-control", "90+30"]) == 2
    assert "--time-control sets a live clock's time" in capsys.readouterr().err


def test_live_clock_options_without_a_clock_are_named_as_unused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # tester 16: an operator who forgot --clock recorded a game with no times and no word of it
    assert main(["record", str(tmp_path / "none.mp4"), "--no-db", "--clock-protocol", "text",
                 "--clock-rate", "2"]) == 2
    assert "warning: --clock-protocol text and --clock-rate apply to a live clock" in capsys.readouterr().err


def test_export_round_as_one_pdf_and_as_text(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A round's scoresheets in one PDF (each game from a new page) and its text records one after
    another: not the round's PGN under another name."""
    pdf = tmp_path / "r2.pdf"
    assert main(["export", "--round", "Open", "2", "--db", str(db), "--format", "pdf", "--out", str(pdf),
                 "--paper", "A5"]) == 0
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and b"[Event" not in data
    if shutil.which("pdftotext") is not None:
        pages = [subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), "-raw", str(pdf), "-"], capture_output=True,
                                text=True, check=True).stdout for n in (1, 2)]
        assert "许银川" in pages[0] and "胡荣华" not in pages[0]  # board 1, then board 2 from a new page
        assert "胡荣华" in pages[1] and "许银川" not in pages[1]
    out = tmp_path / "r2.txt"
    assert main(["export", "--round", "Open", "2", "--db", str(db), "--format", "txt", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "[Event" not in text and text.count("中国象棋比赛记录表") == 2
    assert text.index("许银川") < text.index("胡荣华") and "Board:        2" in text
    assert main(["export", "--round", "Open", "2", "--db", str(db), "--format", "pdf"]) == 2  # needs --out
    assert "--out" in capsys.readouterr().err
    assert main(["export", "--round", "Open", "7", "--db", str(db), "--format", "pdf", "--out", str(pdf)]) == 2


def test_export_never_writes_over_the_store(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Tester: export --out naming the store replaced every game in it with a PDF, exit 0."""
    before = db.read_bytes()
    for out, fmt in ((db, "pdf"), (Path(f"{db}-wal"), "pgn"), (db.parent / ".." / db.parent.name / db.name, "txt")):
        assert main(["export", "1", "--db", str(db), "--format", fmt, "--out", str(out)]) == 2
        assert "is the game store" in capsys.readouterr().err
    assert db.read_bytes() == before and main(["games", "--db", str(db)]) == 0


def test_an_imported_file_is_named_by_its_absolute_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tester: a relative import argument was stored as given (ex/g1.pgn), recordings by absolute path."""
    (tmp_path / "ex").mkdir()
    (tmp_path / "ex" / "g1.pgn").write_text("[Red \"甲\"]\n\n1. h2e2 h9g7 *\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["games", "--db", "i.sqlite3", "--import", "ex/g1.pgn"]) == 0
    with GameStore(tmp_path / "i.sqlite3") as store:
        assert [g.source for g in store.games()] == [str(tmp_path / "ex" / "g1.pgn")]



def test_a_guessed_encoding_is_named_and_can_be_given(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tester's short Big5 file with ICCS moves was read as GBK, its names garbled, without a word."""
    pgn = tmp_path / "big5.pgn"
    pgn.write_bytes('[Red "洪智"]\n\n1. h2e2 *\n'.encode("big5"))
    db = tmp_path / "s.sqlite3"
    assert main(["games", "--db", str(db), "--import", str(pgn)]) == 0
    assert "read as gbk (guessed" in capsys.readouterr().err
    again = tmp_path / "t.sqlite3"
    assert main(["games", "--db", str(again), "--import", str(pgn), "--encoding", "big5"]) == 0
    assert "洪智" in capsys.readouterr().out
    with GameStore(again) as store:
        assert store.games()[0].info.red == "洪智"
    assert main(["games", "--db", str(tmp_path / "u.sqlite3"), "--import", str(pgn), "--encoding", "klingon"]) == 2
    assert "no such text encoding" in capsys.readouterr().err and not (tmp_path / "u.sqlite3").exists()
    picture = tmp_path / "board.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    assert main(["games", "--db", str(tmp_path / "v.sqlite3"), "--import", str(picture)]) == 2
    assert "cannot decode" in capsys.readouterr().err and not (tmp_path / "v.sqlite3").exists()


def test_a_round_named_as_the_pgn_writes_it_unknown_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tester exported a game with no Event or Round (written '?') and could not find its round by '?'."""
    pgn = tmp_path / "a.pgn"
    pgn.write_text('[Red "A"]\n\n1. h2e2 *\n', encoding="utf-8")
    db = tmp_path / "s.sqlite3"
    assert main(["games", "--db", str(db), "--import", str(pgn)]) == 0
    capsys.readouterr()
    assert main(["export", "--round", "?", "?", "--db", str(db)]) == 0
    assert [g.headers["Red"] for g in read_pgn(capsys.readouterr().out)] == ["A"]


def test_an_empty_listing_names_the_store_it_read(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # a new user ran xqrec games after make demo and read "no games" from the default store, with
    # nothing saying which store that was or that the demo keeps its own
    from recorder.store import GameStore

    db = tmp_path / "round.sqlite3"
    GameStore(db).close()
    assert main(["games", "--db", str(db)]) == 0
    assert f"no games in {db}" in capsys.readouterr().out
    # an organiser tester: with --round 5 and nothing in it, "no games in <store>" read as an empty store
    with GameStore(db) as store:
        store.create_game("cam", GameInfo(event="Open", round="4", board=1))
    assert main(["games", "--db", str(db), "--round", "5", "--open"]) == 0
    assert f"no open games in round '5' in {db} (the store holds round '4' of 'Open')" in capsys.readouterr().out
    assert main(["games", "--db", str(db), "--event", "Opne"]) == 0  # a typo: the events held are named
    assert f"no games of the event 'Opne' in {db} (the store holds the events 'Open')" in capsys.readouterr().out
    monkeypatch.chdir(tmp_path)  # a checkout where make demo has run
    (tmp_path / "out" / "demo").mkdir(parents=True)
    GameStore(tmp_path / "out" / "demo" / "demo.sqlite3").close()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    GameStore(tmp_path / "data" / "xiangqi-recorder" / "recorder.sqlite3").close()
    assert main(["games"]) == 0
    assert "the demo's games are in out/demo/demo.sqlite3 (--db)" in capsys.readouterr().out


def test_a_whole_event_is_exported_round_by_round(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a player tester: an organiser had to export each round and join the files
    with GameStore(db) as store:
        for round_name, board in (("10", 1), ("1", 3)):  # rounds ordered as numbers, not as text
            game = store.create_game(f"cam-{round_name}", GameInfo(event="Open", round=round_name, board=board))
            for event in game_events(MOVES[:4], result="1/2-1/2"):
                store.append(game, event)
            store.close_game(game)
    assert main(["export", "--event", "Open", "--db", str(db)]) == 0
    games = read_pgn(capsys.readouterr().out)
    assert [(g.headers["Round"], g.headers["Board"]) for g in games] == [("1", "3"), ("2", "1"), ("2", "2"),
                                                                       ("10", "1")]
    assert main(["export", "--event", "Closed", "--db", str(db)]) == 2
    assert "(the store holds 'Open')" in capsys.readouterr().err
    assert main(["export", "1", "--event", "Open", "--db", str(db)]) == 2
    out = tmp_path / "event.txt"
    assert main(["export", "--event", "Open", "--format", "txt", "--out", str(out), "--db", str(db)]) == 0
    assert out.read_text(encoding="utf-8").count("中国象棋比赛记录表") == 4


@pytest.mark.parametrize("command", ["show", "export", "edit"])
@pytest.mark.parametrize("number", ["99999999999999999999999", "9223372036854775808", "0", "-1", "²"])
def test_a_game_number_no_store_can_hold_is_a_clear_error(db: Path, command: str, number: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    # a tester: a 23-digit id ended in an OverflowError traceback from SQLite
    extra = ["--red", "A"] if command == "edit" else []
    with pytest.raises(SystemExit) as raised:
        main([command, number, "--db", str(db), *extra])
    assert raised.value.code == 2 and "is not a game number" in capsys.readouterr().err
