"""``xqrec edit``: the arbiter corrects a stored game's details or voids it, never its moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from recorder.cli import main
from recorder.events import MoveRecorded
from recorder.store.db import GameInfo, GameStore
from recorder.store.resume import StoreRecording
from rules import read_pgn
from tests.server.feeder import recorder_events


def _round(db: Path) -> tuple[int, int]:
    """Two stopped games of round 3: board 11 (its moves recorded) and a test run on board 12."""
    with GameStore(db) as store:
        ids = []
        for board, red in ((11, "Zheng Wei"), (12, "tester")):
            run = StoreRecording.open(store, f"b{board}.mp4", GameInfo(event="City Open", round="3", board=board,
                                                                        red=red, black="Sun"))
            for event in recorder_events("game_short", upto=4):
                run.sink(event)
            store.end_session(run.session_id)
            ids.append(run.game_id)
    return ids[0], ids[1]


def test_a_mistyped_round_and_name_are_corrected_and_the_moves_stay(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "round.sqlite3"
    game, other = _round(db)
    with caplog.at_level("WARNING"):  # a tester moved a game onto an occupied board in silence
        assert main(["edit", str(other), "--db", str(db), "--board", "11"]) == 0
    assert f"board 11 of that round has game {game} already" in caplog.text
    assert main(["edit", str(other), "--db", str(db), "--board", "12"]) == 0
    capsys.readouterr()
    with GameStore(db) as store:
        moves = [e.iccs for e in store.events(game) if isinstance(e, MoveRecorded)]
    assert main(["edit", str(game), "--db", str(db), "--round", "4", "--board", "2", "--red", "Zheng Wei Jr"]) == 0
    out = capsys.readouterr().out
    assert "was: game 1 (City Open, round 3, board 11; Zheng Wei - Sun; 4 plies; interrupted)" in out
    assert "now: game 1 (City Open, round 4, board 2; Zheng Wei Jr - Sun; 4 plies; interrupted)" in out
    with GameStore(db) as store:
        row = store.game(game)
        assert (row.info.round, row.info.board, row.info.red, row.info.black) == ("4", 2, "Zheng Wei Jr", "Sun")
        assert [e.iccs for e in store.events(game) if isinstance(e, MoveRecorded)] == moves
    assert main(["export", "--round", "City Open", "4", "--db", str(db)]) == 0
    (exported,) = read_pgn(capsys.readouterr().out)
    assert (exported.headers["Round"], exported.headers["Board"], exported.headers["Red"]) == ("4", "2", "Zheng Wei Jr")


def test_a_game_moved_into_a_round_spelled_like_another_is_warned_of_and_a_spelling_can_be_put_right(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # a recording refuses such a name (it is a slip); an edit is deliberate, one game at a time, and a
    # reviewer found that three games of 'city open' could no longer be renamed 'City Open' at all
    db = tmp_path / "round.sqlite3"
    game, other = _round(db)
    with caplog.at_level("WARNING"):
        assert main(["edit", str(other), "--db", str(db), "--round", "03"]) == 0
    assert "round '03' is not in 'City Open', which has round '3'" in caplog.text
    assert "the other games keep their spelling until they are edited too" in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING"):  # the round's games renamed one after the other
        for each in (game, other):
            assert main(["edit", str(each), "--db", str(db), "--event", "CITY OPEN", "--round", "3"]) == 0
    assert "the event 'CITY OPEN' is not in this store, which has 'City Open'" in caplog.text
    with GameStore(db) as store:
        assert {(g.info.event, g.info.round) for g in store.games()} == {("CITY OPEN", "3")}


def test_a_void_game_is_kept_but_no_longer_listed_published_or_resumed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "round.sqlite3"
    game, test_run = _round(db)
    assert main(["edit", str(test_run), "--db", str(db), "--void", "a test   recording"]) == 0
    assert "void: a test recording)" in capsys.readouterr().out
    assert main(["games", "--db", str(db)]) == 0
    listed = capsys.readouterr().out
    assert "b11.mp4" in listed and "b12.mp4" not in listed and "1 void game(s) not listed" in listed
    assert main(["games", "--db", str(db), "--all"]) == 0
    assert "(void: a test recording)" in capsys.readouterr().out
    assert main(["export", "--round", "City Open", "3", "--db", str(db)]) == 0
    assert [g.headers["Board"] for g in read_pgn(capsys.readouterr().out)] == ["11"]  # not the test run
    video = Path(__file__).parents[1] / "fixtures" / "game_short.mp4"
    with caplog.at_level("WARNING"):
        assert main(["record", str(video), "--db", str(db), "--resume", str(test_run), "--red", "Li"]) == 2
    assert f"game {test_run} is void (a test recording): take that back first" in capsys.readouterr().err
    # a tester's --resume with --red changed nothing, in silence
    assert f"--red not taken with --resume: game {test_run} keeps the details" in caplog.text
    with GameStore(db) as store:
        assert len(store.events(test_run)) > 4  # nothing recorded is deleted
    assert main(["edit", str(test_run), "--db", str(db), "--unvoid"]) == 0
    capsys.readouterr()
    assert main(["export", "--round", "City Open", "3", "--db", str(db)]) == 0
    assert [g.headers["Board"] for g in read_pgn(capsys.readouterr().out)] == ["11", "12"]


def test_a_void_games_exports_say_it_is_void(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an arbiter tester: the PGN of a void game looked like any other (only a warning on the terminal
    # said otherwise), and its PDF read "PROVISIONAL: the game is not over (the game is void (again))"
    import subprocess

    db = tmp_path / "round.sqlite3"
    _, test_run = _round(db)
    assert main(["edit", str(test_run), "--db", str(db), "--void", "a test recording"]) == 0
    assert main(["edit", str(test_run), "--db", str(db), "--void", "wrong board"]) == 0
    assert "voided: wrong board (was void: a test recording)" in capsys.readouterr().out
    assert main(["export", str(test_run), "--db", str(db)]) == 0
    (game,) = read_pgn(capsys.readouterr().out)
    assert game.headers["Void"] == "wrong board"
    assert main(["export", str(test_run), "--db", str(db), "--format", "txt"]) == 0
    assert "Void:         wrong board (not a record of the round)" in capsys.readouterr().out
    pdf = tmp_path / "void.pdf"
    assert main(["export", str(test_run), "--db", str(db), "--format", "pdf", "--out", str(pdf)]) == 0
    text = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert "VOID: wrong board (not a record of the round)" in text and "PROVISIONAL" not in text
    # imported again (a reviewer: the tag came in as a tag of a game the store listed as played)
    pgn = tmp_path / "void.pgn"
    assert main(["export", str(test_run), "--db", str(db), "--out", str(pgn)]) == 0
    other = tmp_path / "other.sqlite3"
    main(["games", "--db", str(other), "--import", str(pgn)])
    assert "was void where it was exported (wrong board)" in capsys.readouterr().err
    with GameStore(other) as store:
        row = store.game(1)
        assert row.void == "wrong board" and "Void" not in dict(row.info.tags)
    main(["games", "--db", str(other), "--import", str(pgn)])  # the same file again: a void game is stored too
    assert "game 1 is already stored as game 1" in capsys.readouterr().err
    # the played game's own file beside its void copy is a game of its own (a reviewer: it was skipped)
    played = tmp_path / "played.pgn"
    played.write_text("\n".join(line for line in pgn.read_text(encoding="utf-8").splitlines()
                                if not line.startswith("[Void ")) + "\n", encoding="utf-8")
    main(["games", "--db", str(other), "--import", str(played)])
    assert "already stored" not in capsys.readouterr().err
    with GameStore(other) as store:
        assert [(row.id, row.void) for row in store.games(void=None)] == [(1, "wrong board"), (2, "")]


def test_edit_refuses_what_it_cannot_do(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "round.sqlite3"
    game, _ = _round(db)
    assert main(["edit", str(game), "--db", str(db)]) == 2
    assert "nothing to change" in capsys.readouterr().err
    assert main(["edit", str(game), "--db", str(db), "--void", "  "]) == 2
    assert "--void needs a reason" in capsys.readouterr().err
    assert main(["edit", str(game), "--db", str(db), "--unvoid"]) == 2
    assert f"game {game} is not void" in capsys.readouterr().err
    assert main(["edit", "99", "--db", str(db), "--red", "X"]) == 2
    assert "there is no game 99" in capsys.readouterr().err
    assert main(["edit", str(game), "--db", str(tmp_path / "none.sqlite3"), "--red", "X"]) == 2
    assert "no game store at" in capsys.readouterr().err
    with GameStore(db) as store:  # a game being recorded (this process holds it) is not voided under its recorder
        live = StoreRecording.open(store, "b13.mp4", GameInfo(event="City Open", round="3", board=13))
        assert main(["edit", str(live.game_id), "--db", str(db), "--void", "oops"]) == 2
        assert "is being recorded now: stop its recorder first" in capsys.readouterr().err
        assert store.game(live.game_id).void == ""


def test_an_edit_is_logged_with_who_made_it_and_shown_on_the_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from recorder.events import DetailsEdited

    db = tmp_path / "round.sqlite3"
    game, _ = _round(db)
    assert main(["edit", str(game), "--db", str(db), "--round", "4", "--red", "Zheng Wei Jr", "--by", "Liu"]) == 0
    assert main(["edit", str(game), "--db", str(db), "--void", "filmed twice", "--by", "Liu"]) == 0
    assert main(["edit", str(game), "--db", str(db), "--unvoid", "--by", "Wu"]) == 0
    with GameStore(db) as store:
        edits = [e for e in store.events(game) if isinstance(e, DetailsEdited)]
    assert [(e.by, e.changes) for e in edits] == [
        ("Liu", ("round 3 -> 4", "red Zheng Wei -> Zheng Wei Jr")), ("Liu", ("voided: filmed twice",)),
        ("Wu", ("void taken back (was: filmed twice)",))]
    assert all(e.at.endswith("Z") for e in edits)
    capsys.readouterr()
    assert main(["export", str(game), "--db", str(db), "--format", "txt"]) == 0
    assert "details edited by Liu: round 3 -> 4; red Zheng Wei -> Zheng Wei Jr (" in capsys.readouterr().out
    assert main(["export", str(game), "--db", str(db), "--format", "pgn"]) == 0
    assert "edited" not in capsys.readouterr().out  # the PGN's notes are the game's, not the file's history


def test_a_time_control_the_clock_contradicts_is_warned_of_and_the_change_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    # a tester typed --tc 15+10 (minutes, as --time-control takes them): accepted in silence, the
    # sheet's time used became 0:00:00, and the was/now lines did not show the change. Under a minute
    # is now refused outright; a control the clock cannot have run is warned of
    db = tmp_path / "round.sqlite3"
    game, _ = _round(db)
    with pytest.raises(SystemExit):
        main(["edit", str(game), "--db", str(db), "--tc", "15+10"])
    assert "15 minutes is 900" in capsys.readouterr().err
    with caplog.at_level("WARNING"):
        assert main(["edit", str(game), "--db", str(db), "--tc", "5400+30"]) == 0
    assert "after the first move, but the time control 5400+30" in caplog.text and "PGN seconds" in caplog.text
    assert "changed: time control (none) -> 5400+30" in capsys.readouterr().out
    caplog.clear()
    with caplog.at_level("WARNING"):
        assert main(["edit", str(game), "--db", str(db), "--tc", "900+10"]) == 0
    assert "can give" not in caplog.text and "time control 900+10" not in caplog.text


def test_the_result_is_marked_from_the_command_line_as_from_the_console(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a secretary: a game whose video ended without a result stays "*", and only the console could mark it
    from recorder.events import ResultMarked

    db = tmp_path / "round.sqlite3"
    game, _ = _round(db)
    assert main(["edit", str(game), "--db", str(db), "--result", "1-0", "--reason", "black resigned",
                 "--article", "4.1.12", "--by", "陈裁判"]) == 0
    assert "changed: result marked 1-0 (black resigned) by 陈裁判" in capsys.readouterr().out
    with GameStore(db) as store:
        (marked,) = [e for e in store.events(game) if isinstance(e, ResultMarked)]
        assert (marked.result, marked.text, marked.article, marked.by) == ("1-0", "black resigned", "4.1.12", "陈裁判")
        assert store.game(game).result == "1-0"
    assert main(["export", str(game), "--db", str(db)]) == 0
    (exported,) = read_pgn(capsys.readouterr().out)
    assert exported.headers["Result"] == "1-0"
    # the console's checks: the same marking twice is refused; a reason goes with a result; * opens it again
    assert main(["edit", str(game), "--db", str(db), "--result", "1-0", "--reason", "black resigned"]) == 2
    assert "is marked already" in capsys.readouterr().err
    assert main(["edit", str(game), "--db", str(db), "--reason", "resigned"]) == 2
    assert "--reason, --article and --anyway go with --result" in capsys.readouterr().err
    assert main(["edit", str(game), "--db", str(db), "--result", "*", "--by", "陈裁判"]) == 0
    with GameStore(db) as store:
        assert store.game(game).result == "*"


def test_a_result_marked_on_a_stopped_recording_ends_the_game_and_star_opens_it_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a tester stopped the recorder, marked 0-1, and printed a sheet headed "provisional: not for
    # signature", the export warning "result *" beside a sheet that said 0-1
    db = tmp_path / "round.sqlite3"
    game, _ = _round(db)
    with GameStore(db) as store:
        assert store.game(game).state == "interrupted"
    assert main(["export", str(game), "--db", str(db), "--format", "txt"]) == 0
    assert "is not over (its recorder stopped without closing it)" in capsys.readouterr().err
    assert main(["edit", str(game), "--db", str(db), "--result", "0-1", "--reason", "red resigned", "--by", "x"]) == 0
    assert "now: game 1 (City Open, round 3, board 11; Zheng Wei - Sun; 4 plies; closed)" in capsys.readouterr().out
    assert main(["export", str(game), "--db", str(db), "--format", "txt"]) == 0
    assert "not over" not in capsys.readouterr().err
    assert main(["edit", str(game), "--db", str(db), "--result", "*", "--reason", "play went on", "--by", "x"]) == 0
    with GameStore(db) as store:
        row = store.game(game)
        assert (row.state, row.result) == ("interrupted", "*")  # to be gone on with (--resume)


def test_an_edit_refused_in_part_changes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a reviewer: `--round 9 --result 1-0` with 1-0 marked already stored round 9 with no log entry;
    # `--unvoid --result` on a void game took the voiding back, then refused the result
    from recorder.events import DetailsEdited, ResultMarked

    db = tmp_path / "round.sqlite3"
    game, test_run = _round(db)
    assert main(["edit", str(game), "--db", str(db), "--result", "1-0", "--by", "x"]) == 0
    assert main(["edit", str(game), "--db", str(db), "--round", "9", "--result", "1-0", "--by", "x"]) == 2
    assert "marked already" in capsys.readouterr().err
    with GameStore(db) as store:
        assert store.game(game).info.round == "3"
        assert not [e for e in store.events(game) if isinstance(e, DetailsEdited)]
    assert main(["edit", str(test_run), "--db", str(db), "--void", "test recording"]) == 0
    assert main(["edit", str(test_run), "--db", str(db), "--result", "0-1"]) == 2
    assert "take that back (--unvoid)" in capsys.readouterr().err
    assert main(["edit", str(test_run), "--db", str(db), "--unvoid", "--result", "0-1", "--by", "x"]) == 0
    with GameStore(db) as store:
        assert not store.game(test_run).void
        assert [e.result for e in store.events(test_run) if isinstance(e, ResultMarked)] == ["0-1"]


def test_a_result_taken_back_is_no_end_of_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an arbiter tester: `--result '*' --reason "result entered on wrong board"` read as the game's end
    # ("end (arbiter): result entered on wrong board") in the PGN and "End: ..." on the text sheet
    db = tmp_path / "round.sqlite3"
    game, _ = _round(db)
    assert main(["edit", str(game), "--db", str(db), "--result", "1-0", "--by", "x"]) == 0
    assert main(["edit", str(game), "--db", str(db), "--result", "*", "--reason", "entered on the wrong board",
                 "--by", "x"]) == 0
    capsys.readouterr()
    assert main(["export", str(game), "--db", str(db)]) == 0
    pgn = capsys.readouterr().out
    said = " ".join(pgn.split())  # (the PGN's lines are wrapped)
    assert "end (arbiter)" not in said and "result reopened (*): entered on the wrong board" in said
    assert "arbiter x: result 1-0 marked" in said  # the result reopened is in the history too (an arbiter tester)
    assert read_pgn(pgn)[0].result == "*"
    assert main(["export", str(game), "--db", str(db), "--format", "txt"]) == 0
    sheet = capsys.readouterr().out
    assert "End:" not in sheet and "result reopened (*): entered on the wrong board" in sheet


def test_a_result_change_names_the_old_one_and_an_open_game_is_not_reopened(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an arbiter tester: `--result '*'` on a game with no result logged another reopening; a changed
    # result did not say what it replaced; `--article 99.9` was stored as the rule a result rests on
    from recorder.events import ResultMarked

    db = tmp_path / "round.sqlite3"
    game, _ = _round(db)
    assert main(["edit", str(game), "--db", str(db), "--result", "*", "--by", "x"]) == 2
    assert "no result to take back: it is open" in capsys.readouterr().err
    assert main(["edit", str(game), "--db", str(db), "--result", "1-0", "--article", "99.9", "--by", "x"]) == 2
    assert "not one of the rules' articles" in capsys.readouterr().err
    assert main(["edit", str(game), "--db", str(db), "--result", "1-0", "--article", "4.1.12", "--by", "x"]) == 0
    assert "result marked 1-0 by x" in capsys.readouterr().out
    assert main(["edit", str(game), "--db", str(db), "--result", "0-1", "--reason", "sides swapped on the sheet",
                 "--article", "23.5.2.1", "--by", "x"]) == 0
    assert "result marked 0-1 (sides swapped on the sheet) by x, was 1-0" in capsys.readouterr().out
    assert main(["edit", str(game), "--db", str(db), "--result", "0-1", "--reason", "lost on time", "--by", "x"]) == 0
    assert "result marked 0-1 (lost on time) by x\n" in capsys.readouterr().out  # the same result: no "was"
    assert main(["edit", str(game), "--db", str(db), "--result", "*", "--by", "x"]) == 0
    assert "result 0-1 taken back: the game has no result (*)" in capsys.readouterr().out
    with GameStore(db) as store:
        assert [e.result for e in store.events(game) if isinstance(e, ResultMarked)] == ["1-0", "0-1", "0-1", None]


def test_a_loss_under_a_foul_article_must_match_the_fouls_recorded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an arbiter tester: `--result 0-1 --article 4.1.9` was taken without a word for the side whose
    # opponent had pressed the clock twice without a move
    from recorder.events import ClockAlert, ResultMarked

    db = tmp_path / "round.sqlite3"
    game, _ = _round(db)
    with GameStore(db) as store:
        for t, ply in ((30.0, 3), (40.0, 4)):
            store.append(game, ClockAlert(t, "press_without_move", (), "8.1.7", "black pressed without a move",
                                          ply, "black"))
    assert main(["edit", str(game), "--db", str(db), "--result", "0-1", "--article", "4.1.9", "--by", "x"]) == 2
    err = capsys.readouterr().err
    assert ("art. 4.1.9 needs 2 presses of the clock without a move by red, the side losing by 0-1, and the "
            "record holds 0; black has 2: is the result the other way round?") in err
    assert main(["edit", str(game), "--db", str(db), "--result", "1-0", "--article", "4.1.10", "--by", "x"]) == 2
    assert "art. 4.1.10 needs 3 fouls by black" in capsys.readouterr().err
    assert main(["edit", str(game), "--db", str(db), "--result", "1-0", "--article", "4.1.9", "--by", "x"]) == 0
    assert main(["edit", str(game), "--db", str(db), "--result", "0-1", "--article", "4.1.10", "--by", "x",
                 "--reason", "two fouls on the arbiter's own sheet"]) == 0  # fouls the camera did not see
    # the other way round from the fouls recorded: a reason is not enough (a tester's "black third
    # foul" gave black the win over red without a word), --anyway is
    turned = ["edit", str(game), "--db", str(db), "--result", "0-1", "--article", "4.1.9", "--by", "x",
              "--reason", "red pressed twice"]
    assert main(turned) == 2
    assert "is the result the other way round? If it is right all the same" in capsys.readouterr().err
    assert main([*turned, "--anyway"]) == 0
    with GameStore(db) as store:
        assert [e.result for e in store.events(game) if isinstance(e, ResultMarked)] == ["1-0", "0-1", "0-1"]


def test_a_loss_on_time_for_the_side_whose_clock_stood_still_needs_a_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an arbiter tester: `--result 1-0 --article 21.3` ("black lost on time") was taken while black,
    # who had moved last, showed 16:01 on the clock
    db = tmp_path / "round.sqlite3"
    game, _ = _round(db)  # four plies: black moved last, red's time runs
    assert main(["edit", str(game), "--db", str(db), "--result", "1-0", "--article", "21.3", "--by", "x"]) == 2
    err = capsys.readouterr().err
    assert "a loss on time (art. 21.3) for black, but black moved last and its clock stopped with" in err
    assert "red's time was running" in err
    assert main(["edit", str(game), "--db", str(db), "--result", "0-1", "--article", "21.3", "--by", "x"]) == 0
    assert main(["edit", str(game), "--db", str(db), "--result", "1-0", "--article", "21.3", "--by", "x",
                 "--reason", "black's flag fell: red's press was not heard"]) == 0


def test_the_command_named_in_hints_is_short_from_the_project_and_whole_from_elsewhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a tester in another folder was told to run ../../work/main/.venv/bin/xqrec
    import os
    import shutil
    import sys

    from recorder.commands import command_name

    beside = Path(sys.executable).parent / "xqrec"
    if not beside.exists() or shutil.which("xqrec") == str(beside):
        pytest.skip("xqrec is on the path here")
    monkeypatch.chdir(beside.parent.parent.parent)
    assert command_name() == os.path.relpath(beside) and not command_name().startswith("..")
    monkeypatch.chdir(tmp_path)
    assert command_name() == str(beside)


def test_a_result_against_a_mate_marked_with_a_reason_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a new user marked 0-1 on a game the record ends in red's mate of black, with a reason, unwarned
    from recorder.store.importer import import_pgn

    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        (game,) = import_pgn(store, '[SetUp "1"]\n[FEN "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"]\n\n1. e1d1 1-0\n').ids
    assert main(["edit", str(game), "--db", str(db), "--result", "*", "--reason", "played on", "--by", "x"]) == 0
    capsys.readouterr()
    assert main(["edit", str(game), "--db", str(db), "--result", "0-1", "--reason", "red resigned first",
                 "--by", "x"]) == 0
    out = capsys.readouterr().out
    assert "the record ends in black checkmated (art. 4.1.1), 1-0 by the rules: marked otherwise" in out


def test_one_games_site_and_date_put_right_leave_the_other_games_of_the_round_as_they_were(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tester: a date given to one game of a round with none became the round's, so the other games
    showed it, and the typo put right on that game stayed on theirs. An edit is of one game; and a
    later edit of another detail of a game does not freeze the round's date into it."""
    db = tmp_path / "round.sqlite3"
    game, other = _round(db)
    assert main(["edit", str(game), "--db", str(db), "--date", "2026-05-30", "--site", "Beijing"]) == 0
    assert main(["edit", str(game), "--db", str(db), "--date", "2026-05-03", "--site", "Shanghai"]) == 0
    assert main(["edit", str(other), "--db", str(db), "--black", "Sun Yu"]) == 0
    capsys.readouterr()
    with GameStore(db) as store:
        assert (store.game(game).info.date, store.game(game).info.site) == ("2026.05.03", "Shanghai")
        shown = store.game(other).info
        assert shown.date != "2026.05.30" and shown.site == ""
    with GameStore(db) as store:  # the round's date set by a later recorder reaches the game edited meanwhile
        run = StoreRecording.open(store, "b13.mp4", GameInfo(event="City Open", round="3", board=13,
                                                              date="2026.05.03", site="Shanghai"))
        store.end_session(run.session_id)
        assert (store.game(other).info.date, store.game(other).info.site) == ("2026.05.03", "Shanghai")
