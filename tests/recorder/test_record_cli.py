"""``xqrec record`` end to end on a fixture video (truth stand-in classifier): event log, PGN, scoresheet."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import recorder.sources
from recorder.cli import main
from recorder.events import Alert, ClockAlert, MoveRecorded, SourceGap, read_events
from recorder.scoresheet import rebuild, side_by_side
from rules import read_pgn
from tests.recorder.oracle import OracleClassifier, use_oracle_in_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VIDEO = FIXTURES / "game_short.mp4"
_REAL_OPEN_SOURCE = recorder.sources.open_source


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_record_command_writes_log_pgn_and_scoresheet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    oracle = OracleClassifier(truth)
    use_oracle_in_record(oracle, monkeypatch.setattr)
    events, pgn, sheet = tmp_path / "g.events.jsonl", tmp_path / "g.pgn", tmp_path / "g.txt"
    status = main(["record", str(VIDEO), "--clock-log", str(FIXTURES / "game_short.clock.jsonl"),
                   "--events", str(events), "--pgn", str(pgn), "--scoresheet", str(sheet)])
    assert status == 0
    out = capsys.readouterr().out
    assert "ply   1" in out and "兵七进一" in out
    # where the game went, and how to see it again (a new user: the output ended with the sheet)
    assert re.search(r"\nStored as game (\d+) in \S+recorder.sqlite3 \(\S*xqrec show \1; \S*xqrec export \1 --format pdf", out)
    game = rebuild(read_events(events))
    assert game.moves == truth["moves"]
    (back,) = read_pgn(pgn.read_text(encoding="utf-8"))
    assert [m.iccs for m in back.moves] == truth["moves"]
    assert "[%clk" in pgn.read_text(encoding="utf-8")
    written = sheet.read_text(encoding="utf-8")  # the same text record as `xqrec export --format txt`
    assert written.startswith("中国象棋比赛记录表") and any(
        line.startswith("  1. 兵七进一") for line in written.splitlines())
    compared = side_by_side(game, truth["moves"])
    assert compared.rstrip().endswith(f"{len(truth['moves'])}/{len(truth['moves'])} plies as in the truth")


def test_record_without_a_model_says_what_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["record", str(VIDEO), "--model", str(tmp_path / "none.onnx")])
    assert status == 2
    assert "none.onnx" in capsys.readouterr().err


def test_bad_setup_is_refused_before_anything_is_recorded_or_stored(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from recorder.store.db import GameStore

    db = tmp_path / "games.sqlite3"
    # an output that cannot be written is found before the game, not after it
    status = main(["record", str(VIDEO), "--db", str(db), "--pgn", str(tmp_path / "no" / "such" / "g.pgn")])
    assert status == 2 and "cannot write" in capsys.readouterr().err
    # the event log likewise: a missing folder is refused, never created
    status = main(["record", str(VIDEO), "--db", str(db), "--events", str(tmp_path / "none" / "e.jsonl")])
    assert status == 2 and "cannot write" in capsys.readouterr().err and not (tmp_path / "none").exists()
    # a clock log from which not one press can be read: refused, naming the format it should have
    junk = tmp_path / "c.txt"
    for text in ("5.3 red\n9.0 black\n", '{"t": 5.3, "event": "press", "side": "red"}\n'):
        junk.write_text(text, encoding="utf-8")
        assert main(["record", str(VIDEO), "--db", str(db), "--clock-log", str(junk)]) == 2
        err = capsys.readouterr().err
        assert "not one clock press could be read" in err and '"black_ms"' in err and "c.txt" in err
    # a clock rate with a camera or stream (they run in real time); the password stays out of every message
    status = main(["record", "rtsp://arbiter:s3cret@127.0.0.1:9/feed", "--db", str(db), "--clock", "-",
                   "--clock-rate", "4"])
    assert status == 2 and "--clock-rate" in capsys.readouterr().err
    status = main(["record", "http://arbiter:s3cret@127.0.0.1:9/feed.mjpg?token=t0k3n", "--db", str(db)])
    err = capsys.readouterr().err
    assert status == 2 and "cannot open video source http://127.0.0.1:9/feed.mjpg?token=***" in err
    assert "s3cret" not in err and "t0k3n" not in err
    # a recording that would keep nothing (a tester's game of 10 plies, recorded and thrown away)
    assert main(["record", str(VIDEO), "--no-db", "--quiet"]) == 2
    assert "keeps nothing of the game" in capsys.readouterr().err
    assert main(["record", str(VIDEO), "--no-db", "--db", str(db)]) == 2  # which was meant?
    assert "--no-db contradict each other" in capsys.readouterr().err
    # a camera that is not there
    status = main(["record", "97", "--db", str(db)])
    assert status == 2 and "cannot open video source 97" in capsys.readouterr().err
    # a file that is not a video
    fake = tmp_path / "notes.mp4"
    fake.write_text("not a video", encoding="utf-8")
    status = main(["record", str(fake), "--db", str(db)])
    assert status == 2
    assert not db.exists() or GameStore(db).games() == []  # no empty interrupted games left behind


def test_an_output_path_that_names_an_input_or_another_output_is_refused(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    video = tmp_path / "v.mp4"
    video.write_bytes(VIDEO.read_bytes())
    log = tmp_path / "c.jsonl"
    log.write_text((FIXTURES / "game_short.clock.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    before = video.read_bytes(), log.read_bytes()
    for extra, said in ((["--pgn", str(video)], "--pgn"),
                        (["--scoresheet", str(tmp_path / "." / "v.mp4")], "--scoresheet"),  # typed another way
                        (["--events", str(log)], "--events"),
                        (["--pgn", str(tmp_path / "a.pgn"), "--scoresheet", str(tmp_path / "a.pgn")], "--scoresheet")):
        status = main(["record", str(video), "--no-db", "--clock-log", str(log), "--quiet", *extra])
        err = capsys.readouterr().err
        assert status == 2 and said in err and "give another path" in err
    assert (video.read_bytes(), log.read_bytes()) == before and not (tmp_path / "a.pgn").exists()
    # a store the run would create is a file too: the PGN written over it was lost, the run said 0
    for option in ("--pgn", "--events"):
        status = main(["record", str(video), "--db", str(tmp_path / "new.db"), "--quiet", option, str(tmp_path / "new.db")])
        assert status == 2 and "give another path" in capsys.readouterr().err
    assert not (tmp_path / "new.db").exists()
    # going on with a stored game without a store is refused, not recorded as a new game
    assert main(["record", str(video), "--no-db", "--resume", "1"]) == 2
    assert "--no-db" in capsys.readouterr().err


def test_a_store_that_cannot_be_opened_and_a_broken_calibration_are_one_line_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    assert main(["games", "--db", str(junk)]) == 2
    assert "game store" in capsys.readouterr().err
    assert main(["games", "--db", str(tmp_path)]) == 2  # a folder: SQLite only says it cannot open it
    assert f"{tmp_path} is a folder: the game store is a file in it" in capsys.readouterr().err
    calib = tmp_path / "c.json"
    for text in ('{"image_size": [640, 480], "points": {}, "homography": [[0,0,0],[0,0,0],[0,0,0]]}',
                 '{"image_size": [640, 480], "points": {}, "homography": [[1,0,0],[0,1,0],[0,0,1]]}',  # 1 px grid
                 '{"image_size": [640, 480], "points": {}, "lens": "x"}', "{oops", "[1, 2]"):
        calib.write_text(text, encoding="utf-8")
        assert main(["record", str(VIDEO), "--no-db", "--calibration", str(calib)]) == 2
        assert "c.json" in capsys.readouterr().err


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_clock_log_without_a_press_records_from_the_board_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    junk = tmp_path / "clock.jsonl"  # no line unreadable, none a press (a file of only unreadable lines is refused)
    junk.write_text('\n{"t": 4.0, "event": "flag", "side": "red"}\n', encoding="utf-8")
    events = tmp_path / "e.jsonl"
    assert main(["record", str(VIDEO), "--no-db", "--clock-log", str(junk), "--events", str(events)]) == 0
    assert "no usable clock press" in capsys.readouterr().out
    logged = read_events(events)
    assert rebuild(logged).moves == truth["moves"]
    assert not [e for e in logged if getattr(e, "kind", "") == "move_without_press"]


def test_a_damaged_clock_log_and_a_truncated_video_are_alerts_kept_with_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    damaged = tmp_path / "clock.jsonl"
    good = (FIXTURES / "game_short.clock.jsonl").read_text(encoding="utf-8").splitlines()
    damaged.write_text("\n".join(["not json", *good[:3], '{"t": 9.0, "side": "red"}', *good[3:]]) + "\n",
                       encoding="utf-8")
    data = VIDEO.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: len(data) * 6 // 10])
    events = tmp_path / "e.jsonl"
    assert main(["record", str(cut), "--no-db", "--clock-log", str(damaged), "--events", str(events)]) == 1
    alerts = {e.kind: e.text for e in read_events(events) if isinstance(e, Alert)}
    assert "2 line(s) of the clock log" in alerts["clock_log_damaged"]  # the log, not a player
    assert "truncated or damaged" in alerts["source_ended_early"]


def test_a_clock_log_of_another_game_is_an_alert(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from recorder.events import ClockPressed

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    events = tmp_path / "e.jsonl"
    other = FIXTURES / "game_faults.clock.jsonl"  # runs to 114 s; this video ends at 42 s
    assert main(["record", str(VIDEO), "--no-db", "--clock-log", str(other), "--events", str(events)]) == 0
    said = capsys.readouterr()  # before recording starts, not only when the video has ended
    assert "warning: the clock log" in said.out and "but the video lasts 42.5 s" in said.out
    assert said.out.index("but the video lasts") < said.out.index("ply   1")
    logged = read_events(events)
    # told twice: once the presses were seen not to follow the board (no fault of the presses judged
    # after that: another game's log gave a tester's sheet 23 faults in 30 plies), and at the end, the
    # log running on past the video
    following, past_end = [e for e in logged if isinstance(e, Alert) and e.kind == "clock_log_mismatch"]
    assert "do not follow the moves on the board" in following.text and "is it this game's log?" in past_end.text
    faults = [e for e in logged if isinstance(e, Alert) and e.kind in ("press_without_move", "move_without_press")]
    assert len(faults) == 4 and all(fault.t <= following.t for fault in faults)
    assert rebuild(logged).moves == truth["moves"]  # the moves stand; only their times are doubtful
    # the presses past the video's end are not this game's: not in its log, nor its time used (a
    # tester's 25 s clip with the whole game's log had the whole game's time used on its sheet)
    assert "(the presses past the end are not used)" in past_end.text
    assert all(e.t <= 42.5 + 10.0 for e in logged if isinstance(e, ClockPressed))
    own = tmp_path / "own.jsonl"
    assert main(["record", str(VIDEO), "--no-db", "--clock-log", str(FIXTURES / "game_short.clock.jsonl"),
                 "--events", str(own)]) == 0
    assert not [e for e in read_events(own) if getattr(e, "kind", "") == "clock_log_mismatch"]


def test_missing_and_unreadable_inputs_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "notes.txt").write_text("x", encoding="utf-8")
    (junk / "b.png").write_bytes(b"not a picture" * 20)
    cases = {
        "no such file or folder": ["record", str(tmp_path / "missing.mp4"), "--no-db"],
        "no readable images": ["record", str(junk), "--no-db"],
        "clock log": ["record", str(VIDEO), "--no-db", "--clock-log", str(tmp_path / "none.jsonl")],
    }
    for said, argv in cases.items():
        assert main(argv) == 2
        assert said in capsys.readouterr().err
    with pytest.raises(SystemExit) as stopped:  # an unknown option: the command's own usage
        main(["record", str(VIDEO), "--bogus"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "usage: xqrec record" in err and "unrecognized arguments: --bogus" in err
    for option, value in (("--fps", "-5"), ("--fps", "0"), ("--fps", "nan"), ("--clock-rate", "0"),
                          ("--clock-rate", "inf")):
        with pytest.raises(SystemExit) as stopped:
            main(["record", str(VIDEO), "--no-db", option, value])
        assert stopped.value.code == 2
        assert f"argument {option}: {value!r} must be a number above 0" in capsys.readouterr().err


def test_the_pgn_written_while_recording_has_the_headers_export_gives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    oracle = OracleClassifier(truth)
    oracle.sha256 = "0" * 64  # type: ignore[attr-defined]  # a watched game names the model that read it
    use_oracle_in_record(oracle, monkeypatch.setattr)
    monkeypatch.chdir(FIXTURES.parent)
    live, db = tmp_path / "live.pgn", tmp_path / "g.sqlite3"
    assert main(["record", "fixtures/game_short.mp4", "--db", str(db), "--pgn", str(live), "--tc", "900+010"]) == 0
    capsys.readouterr()
    assert main(["export", "1", "--db", str(db)]) == 0
    (exported,) = read_pgn(capsys.readouterr().out)
    (written,) = read_pgn(live.read_text(encoding="utf-8"))
    for name in ("Site", "GameId", "TimeControl"):
        assert written.headers[name] == exported.headers[name], name
    # no --site: PGN's unknown, never the source (a local path here; a stream's password elsewhere)
    assert written.headers["Site"] == "?" and written.headers["TimeControl"] == "900+10"


def test_a_board_set_up_wrong_is_alerted_with_the_points_to_put_right(tmp_path: Path) -> None:
    """The real classifier on a rendered board whose red horse and chariot swapped places (art. 1.3)."""
    import cv2

    from synth.style import ViewStyle
    from synth.view import render_position

    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/NRBAKABNR w - - 0 1"
    style = ViewStyle.sample(np.random.default_rng(5), split="test", width=960, height=720)
    image, _ = render_position(fen, 5, style=style)
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(60):  # 6 s of a still board at 10 frames per second
        cv2.imwrite(str(folder / f"{i:03d}.jpg"), image)
    events = tmp_path / "set-up.events.jsonl"
    assert main(["record", str(folder), "--no-db", "--quiet", "--events", str(events)]) == 0
    alerts = [e for e in read_events(events) if isinstance(e, Alert)]
    assert [(a.kind, a.squares, a.article) for a in alerts] == [("board_disturbed", ("a0", "b0"), "1.3")]


def _video_part(frames: range, path: Path) -> None:
    """Frames ``frames`` of the fixture video written as a video of their own (a second camera's file)."""
    import cv2

    reader = cv2.VideoCapture(str(VIDEO))
    writer: cv2.VideoWriter | None = None
    for index in range(frames.stop):
        ok, image = reader.read()
        assert ok, f"fixture frame {index} unreadable"
        if index in frames:
            if writer is None:
                writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), 10.0,
                                         (image.shape[1], image.shape[0]))
            writer.write(image)
    reader.release()
    assert writer is not None
    writer.release()


def _reading(monkeypatch: pytest.MonkeyPatch, truth: dict, *, stopped: bool = False) -> None:
    """Make ``xqrec record`` read its frames (afresh, whatever an earlier run of the test patched in)
    through the stand-in classifier answering from ``truth``; with ``stopped``, ending with a Ctrl-C
    after the last frame (a recording stopped by hand)."""
    monkeypatch.setattr(recorder.sources, "open_source", _REAL_OPEN_SOURCE)
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    if stopped:
        _stopped_at_its_end(monkeypatch)


def _stopped_at_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``xqrec record``'s source end with a Ctrl-C after its last frame (a recording stopped by hand)."""
    inner_open = recorder.sources.open_source

    class StoppedAtItsEnd:
        def __init__(self, spec: str, fps: float | None = None, follow: bool = False) -> None:
            self.inner = inner_open(spec, fps=fps, follow=follow)
            self.frame_count, self.ended_early = self.inner.frame_count, ""

        def __iter__(self):  # type: ignore[no-untyped-def]
            yield from self.inner
            raise KeyboardInterrupt

        def stop(self) -> None:
            self.inner.stop()

    monkeypatch.setattr(recorder.sources, "open_source", StoppedAtItsEnd)


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_game_filmed_in_two_files_goes_on_from_the_second(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A camera that writes its film in segments: the first file's end closed the game with no result,
    and a tester's --resume of it was refused ("finished"), leaving only a new game from the start
    position that matched nothing. A game closed with no result is opened again by --resume."""
    from recorder.events import MoveRecorded
    from recorder.store.db import GameStore

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    cut = 205  # in the still view after ply 5
    first_video, second_video = tmp_path / "part0.mp4", tmp_path / "part1.mp4"
    _video_part(range(0, cut), first_video)
    _video_part(range(cut, truth["frames"]), second_video)
    db = tmp_path / "games.sqlite3"
    _reading(monkeypatch, truth)
    assert main(["record", str(first_video), "--db", str(db), "--round", "1", "--board", "3", "--quiet"]) == 0
    (game,) = GameStore(db).games()
    assert game.state == "closed" and game.result == "*" and game.plies == 5
    later = {**truth, "stills": [{**s, "from_frame": s["from_frame"] - cut, "to_frame": s["to_frame"] - cut}
                                 for s in truth["stills"] if s["to_frame"] >= cut]}
    _reading(monkeypatch, later)
    # on the same board, a new game is refused with the way on named
    assert main(["record", str(second_video), "--db", str(db), "--round", "1", "--board", "3", "--quiet"]) == 2
    assert f"to go on with it from this source, give --resume {game.id}" in capsys.readouterr().err
    # with no board, a new game from the start position: no move, and the way on is named (status 1)
    assert main(["record", str(second_video), "--db", str(db), "--quiet"]) == 1
    assert "no move was recorded: the board never matched the game's position" in capsys.readouterr().err
    assert main(["record", str(second_video), "--db", str(db), "--resume", str(game.id), "--quiet"]) == 0
    assert f"game {game.id} was closed when its source ended, with no result: it is opened again" in caplog.text
    game = GameStore(db).game(game.id)
    assert [e.iccs for e in GameStore(db).events(game.id) if isinstance(e, MoveRecorded)] == truth["moves"]
    assert game.state == "closed" and game.plies == len(truth["moves"])


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_game_resumed_from_another_camera_keeps_its_moves_and_its_clock_log_times(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The camera of a game was replaced after ply 5: the first file and its clock log hold plies 1-5,
    # the new camera's file and its own clock log (both starting at 0) the rest. `--resume GAME` must
    # put the new log's presses with the new file's frames, after the stored ones, so every ply gets
    # its own press and times and no player is blamed for a press the shift lost or misplaced.
    from recorder.events import ClockPressed, MoveRecorded
    from recorder.store.db import GameStore
    from recorder.store.resume import RESUME_GAP_S

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    fps, cut = float(truth["fps"]), 205  # frame 205 lies in the still view after ply 5
    first_video, second_video = tmp_path / "camera1.mp4", tmp_path / "camera2.mp4"
    _video_part(range(0, cut), first_video)
    _video_part(range(cut, truth["frames"]), second_video)
    presses = [json.loads(line) for line in
               (FIXTURES / "game_short.clock.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    first_log, second_log = tmp_path / "camera1.clock.jsonl", tmp_path / "camera2.clock.jsonl"
    first_log.write_text("".join(json.dumps(p) + "\n" for p in presses if p["t"] < cut / fps), encoding="utf-8")
    second_log.write_text("not json\n" + "".join(json.dumps({**p, "t": round(p["t"] - cut / fps, 3)}) + "\n"
                                                for p in presses if p["t"] >= cut / fps), encoding="utf-8")
    db = tmp_path / "games.sqlite3"

    _reading(monkeypatch, truth, stopped=True)  # the first camera failed; the arbiter stopped that recording
    assert main(["record", str(first_video), "--db", str(db), "--clock-log", str(first_log),
                 "--event", "Open", "--round", "2", "--board", "7", "--red", "Li", "--black", "Wang"]) == 130
    (game,) = GameStore(db).games()
    first_run = GameStore(db).events(game.id)
    later = {**truth, "stills": [{**s, "from_frame": s["from_frame"] - cut, "to_frame": s["to_frame"] - cut}
                                 for s in truth["stills"] if s["to_frame"] >= cut]}
    _reading(monkeypatch, later)  # the new camera's file plays to its end
    assert main(["record", str(second_video), "--db", str(db), "--resume", str(game.id),
                 "--clock-log", str(second_log), "--pgn", str(tmp_path / "game.pgn")]) == 0
    # the files the run going on writes name the game as the first run did (tester 15: all "?")
    headers = read_pgn((tmp_path / "game.pgn").read_text(encoding="utf-8"))[0].headers
    assert (headers["Event"], headers["Round"], headers["Red"], headers["Black"]) == ("Open", "2", "Li", "Wang")

    store = GameStore(db)
    assert [g.id for g in store.games()] == [game.id]  # the same game, not a second one on the board
    logged = store.events(game.id)
    moves = [e for e in logged if isinstance(e, MoveRecorded)]
    assert [m.iccs for m in moves] == truth["moves"]
    # no missing press, no press without a move; the new log's damaged line is told, with the new run
    (damaged,) = [e for e in logged if isinstance(e, Alert)]
    assert damaged.kind == "clock_log_damaged" and damaged.ply == 5
    pressed = [e for e in logged if isinstance(e, ClockPressed)]
    assert [p.ply for p in pressed] == list(range(1, 11))
    assert logged[:len(first_run)] == first_run
    # the new camera's frames and presses come after the stored ones, the time between as a gap of the source
    (gap,) = [e for e in logged if isinstance(e, SourceGap)]
    assert gap.t == max(e.t for e in first_run) and gap.reason == "the game went on from another source"
    assert min(e.t for e in logged[len(first_run):] if e is not gap) > max(e.t for e in first_run)
    # the new log's times moved on as its frames were: to 1 s after the last stored event
    offset = max(e.t for e in first_run) + RESUME_GAP_S
    assert damaged.t == pytest.approx(offset) and gap.t_resumed == pytest.approx(offset)
    assert next(e.t for e in pressed if e.ply == 6) == pytest.approx(presses[5]["t"] - cut / fps + offset, abs=1e-3)
    assert store.game(game.id).status == "closed"  # the new camera's file ended the game's recording
    for seen, press in zip(pressed, presses, strict=True):  # each ply has the times of its own press
        assert (seen.side, seen.red_ms, seen.black_ms) == (press["side"], press["red_ms"], press["black_ms"])


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_damaged_clock_log_is_told_once_when_the_same_file_is_recorded_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recorder.store.db import GameStore

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    damaged = tmp_path / "clock.jsonl"
    damaged.write_text("not json\n" + (FIXTURES / "game_short.clock.jsonl").read_text(encoding="utf-8"),
                       encoding="utf-8")
    short = tmp_path / "first-half.mp4"
    _video_part(range(0, 205), short)
    db = tmp_path / "games.sqlite3"
    _reading(monkeypatch, truth, stopped=True)
    assert main(["record", str(short), "--db", str(db), "--clock-log", str(damaged)]) == 130  # stopped: open
    _reading(monkeypatch, truth)
    assert main(["record", str(short), "--db", str(db), "--clock-log", str(damaged)]) == 0  # goes on with it
    (game,) = GameStore(db).games()
    kinds = [e.kind for e in GameStore(db).events(game.id) if isinstance(e, Alert)]
    assert kinds.count("clock_log_damaged") == 1


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_lines_deleted_from_a_clock_log_are_presses_lost_not_the_players_faults(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # an arbiter tester deleted the lines of plies 3 and 4: both moves were blamed on the players
    # (move_without_press), and ply 5's good line was called written wrong
    from recorder.events import ClockNoted

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    lines = (FIXTURES / "game_short.clock.jsonl").read_text(encoding="utf-8").splitlines()
    log = tmp_path / "clock.jsonl"
    log.write_text("\n".join([*lines[:2], *lines[4:]]) + "\n", encoding="utf-8")
    _reading(monkeypatch, truth)
    assert main(["record", str(VIDEO), "--no-db", "--quiet", "--clock-log", str(log),
                 "--events", str(tmp_path / "events.jsonl")]) == 0
    logged = read_events(tmp_path / "events.jsonl")
    assert [e.iccs for e in logged if isinstance(e, MoveRecorded)] == truth["moves"]
    assert not [e for e in logged if isinstance(e, Alert)]
    assert sorted(e.ply for e in logged if isinstance(e, ClockNoted) and e.kind == "press_unheard") == [3, 4]


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_clock_log_line_with_times_no_clock_can_show_is_told_at_its_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a tester's log gave red 0:00 left at one press and 15:17 at the next: taken without a word
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    presses = [json.loads(line) for line in
               (FIXTURES / "game_short.clock.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    presses[4]["red_ms"] = 1  # ply 5's press
    log = tmp_path / "clock.jsonl"
    log.write_text("".join(json.dumps(p) + "\n" for p in presses), encoding="utf-8")
    _reading(monkeypatch, truth)
    assert main(["record", str(VIDEO), "--no-db", "--quiet", "--clock-log", str(log),
                 "--events", str(tmp_path / "events.jsonl")]) == 0
    logged = read_events(tmp_path / "events.jsonl")
    assert [e.iccs for e in logged if isinstance(e, MoveRecorded)] == truth["moves"]
    (told,) = [e for e in logged if isinstance(e, Alert)]
    assert isinstance(told, ClockAlert)
    assert (told.kind, told.t, told.ply, told.side) == ("clock_log_damaged", presses[4]["t"], 5, "red")
    assert "red 0:00" in told.text and "not to be trusted" in told.text


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_calibration_for_frames_of_another_size_is_refused_before_recording(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from recorder.store.db import GameStore
    from tests.recorder.test_session_video import _calibration_at_twice_the_size

    calib = tmp_path / "calib.json"
    _calibration_at_twice_the_size().save(calib)  # type: ignore[attr-defined]
    db = tmp_path / "games.sqlite3"
    assert main(["record", str(VIDEO), "--db", str(db), "--calibration", str(calib)]) == 2
    err = capsys.readouterr().err
    assert "was made for 1280x960 frames but" in err and "gives 640x480" in err and "xqrec calibrate" in err
    assert not db.exists() or GameStore(db).games() == []  # nothing was started


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_going_on_with_a_clocked_game_without_its_clock_is_warned(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    short = tmp_path / "first-half.mp4"
    _video_part(range(0, 205), short)
    db = tmp_path / "games.sqlite3"
    _reading(monkeypatch, truth, stopped=True)
    assert main(["record", str(short), "--db", str(db), "--clock-log", str(FIXTURES / "game_short.clock.jsonl")]) == 130
    err = capsys.readouterr().err
    assert "stopped by the user; game 1 is left open" in err  # and the shell's status for Ctrl-C
    _reading(monkeypatch, truth)
    assert main(["record", str(short), "--db", str(db)]) == 0
    assert "game 1 was recorded with its clock's presses and this run has none" in capsys.readouterr().err


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_game_whose_video_was_cut_short_stays_open_to_go_on_with(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from recorder.store.db import GameStore

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    data = VIDEO.read_bytes()
    cut = tmp_path / "cut.mp4"  # a recording cut off (a full disk): the rest may come in another file
    cut.write_bytes(data[: len(data) * 6 // 10])
    db = tmp_path / "games.sqlite3"
    # not 0: a script must not take the cut game for a whole one; and the same file again would stop
    # at the same place, so the message names the way on (tester 15)
    assert main(["record", str(cut), "--db", str(db), "--clock-log", str(FIXTURES / "game_short.clock.jsonl")]) == 1
    err = capsys.readouterr().err
    assert "the video ended early (a cut or damaged file?)" in err
    # with the store it lives in: pasted without --db, the default store has no game 1 (a tester)
    assert f"game 1 is left open: record the rest from another file or camera with --resume 1 --db {db}." in err
    # a file damaged rather than cut (a broken index) may still decode whole: the way to copy it out
    assert f"ffmpeg -err_detect ignore_err -i {cut} -c:v libx264 {tmp_path / 'cut-repaired.mp4'}" in err
    assert f"xqrec record {tmp_path / 'cut-repaired.mp4'} --resume 1 --db {db}`" in err
    (game,) = GameStore(db).games()
    assert game.state == "stopped" and game.plies > 0  # to go on with, and no crash to look into
    events = GameStore(db).events(game.id)
    assert [e.kind for e in events if isinstance(e, Alert)] == ["source_ended_early"]  # the log's later presses wait


def _recorded_with_clock_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             damage: Any) -> tuple[dict[str, Any], list[Any]]:
    """The fixture game recorded (the truth stand-in classifying) with its clock log as ``damage``
    rewrites its lines: the truth and the event log."""
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    lines = (FIXTURES / "game_short.clock.jsonl").read_text(encoding="utf-8").splitlines()
    damaged = tmp_path / "clock.jsonl"
    damaged.write_text(damage(lines), encoding="utf-8")
    events = tmp_path / "e.jsonl"
    assert main(["record", str(VIDEO), "--no-db", "--clock-log", str(damaged), "--events", str(events)]) == 0
    return truth, read_events(events)


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_press_on_a_damaged_clock_log_line_is_not_blamed_on_the_player(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recorder.events import ClockNoted

    truth, logged = _recorded_with_clock_log(tmp_path, monkeypatch,
                                             lambda lines: "\n".join([*lines[:2], lines[2][:25], *lines[3:]]) + "\n")
    assert [e.kind for e in logged if isinstance(e, Alert)] == ["clock_log_damaged"]  # the log's fault, told once
    (noted,) = [e for e in logged if isinstance(e, ClockNoted) and e.kind == "press_unheard"]
    assert noted.ply == 3 and noted.side == "red"
    assert rebuild(logged).moves == truth["moves"]


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_clock_log_cut_in_its_last_line_notes_the_last_press_unheard_to_the_end(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a logger killed while writing the last press: the stretch it spoiled runs to the end of the
    # recording (a tester's run crashed there formatting an endless time, every time it was resumed)
    from recorder.events import ClockNoted

    truth, logged = _recorded_with_clock_log(tmp_path, monkeypatch,
                                             lambda lines: "\n".join([*lines[:-1], lines[-1][:30]]))
    (noted,) = [e for e in logged if isinstance(e, ClockNoted) and e.kind == "press_unheard"]
    assert noted.ply == len(truth["moves"]) and "to the end of the recording" in noted.text
    assert rebuild(logged).moves == truth["moves"]


def test_a_recording_that_never_found_the_board_exits_non_zero(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    blank = tmp_path / "lens-cap.avi"
    writer = cv2.VideoWriter(str(blank), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (160, 120))
    for _ in range(40):
        writer.write(np.zeros((120, 160, 3), np.uint8))
    writer.release()
    assert main(["record", str(blank), "--no-db", "--quiet", "--events", str(tmp_path / "e.jsonl")]) == 1  # a batch
    # script must tell it from a game
    err = capsys.readouterr().err
    assert "no move was recorded: the board was never found in the picture" in err


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_game_whose_board_was_never_seen_is_left_open_for_a_view_that_shows_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # a camera with its cap on was not a game of no moves: closing it as one (tester) hid that the
    # game still has to be recorded, and from which run
    import cv2

    from recorder.events import MoveRecorded
    from recorder.store.db import GameStore

    blank = tmp_path / "lens-cap.avi"
    writer = cv2.VideoWriter(str(blank), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (160, 120))
    for _ in range(40):
        writer.write(np.zeros((120, 160, 3), np.uint8))
    writer.release()
    db = tmp_path / "games.sqlite3"
    assert main(["record", str(blank), "--db", str(db), "--quiet", "--red", "Li", "--black", "Wang"]) == 1
    (game,) = GameStore(db).games()
    assert game.status == "open" and game.result == "*"
    assert f"game {game.id} is left open, with no move" in capsys.readouterr().err

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    assert main(["record", str(VIDEO), "--db", str(db), "--quiet", "--resume", str(game.id)]) == 0
    (done,) = GameStore(db).games()
    assert (done.id, done.status, done.info.red) == (game.id, "closed", "Li")
    assert [e.iccs for e in GameStore(db).events(game.id) if isinstance(e, MoveRecorded)] == truth["moves"]


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_roi_records_the_one_board_asked_for_in_a_wide_shot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    hall = tmp_path / "hall.avi"  # this game on the right, the next table's (turned round) on the left
    reader = cv2.VideoCapture(str(VIDEO))
    writer = cv2.VideoWriter(str(hall), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, (1280, 480))
    while True:
        ok, image = reader.read()
        if not ok:
            break
        writer.write(np.hstack([cv2.flip(image, -1), image]))
    reader.release()
    writer.release()
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    events = tmp_path / "e.jsonl"
    assert main(["record", str(hall), "--roi", "640,0,640,480", "--no-db", "--quiet", "--events", str(events)]) == 0
    assert rebuild(read_events(events)).moves == truth["moves"]
    assert main(["record", str(hall), "--roi", "700,0,640,480", "--no-db", "--quiet", "--events", str(events)]) == 2
    assert "reaches beyond the 1280x480 frames" in capsys.readouterr().err
    with pytest.raises(SystemExit) as refused:  # argparse's usage error
        main(["record", str(hall), "--roi", "0,0,10"])
    assert refused.value.code == 2 and "is not X,Y,W,H" in capsys.readouterr().err


@pytest.mark.skipif(not VIDEO.exists() or not Path("/dev/full").exists(), reason="fixture video or /dev/full missing")
def test_a_full_disk_at_the_end_loses_neither_the_scoresheet_nor_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    _reading(monkeypatch, truth)
    sheet = tmp_path / "g.txt"
    # no store and no event log: the PGN that could not be written is printed instead
    status = main(["record", str(VIDEO), "--no-db", "--pgn", "/dev/full", "--scoresheet", str(sheet), "--quiet"])
    out, err = capsys.readouterr()
    assert status == 2 and "cannot write /dev/full: No space left on device" in err and "standard output" in err
    last = truth["moves"][-1].upper()
    assert f"{last[:2]}-{last[2:]}" in out and sheet.read_text(encoding="utf-8").startswith("中国象棋比赛记录表")
    # with a store: the scoresheet is shown before the files are written, and the error says where the game is
    db = tmp_path / "games.sqlite3"
    _reading(monkeypatch, truth)
    status = main(["record", str(VIDEO), "--db", str(db), "--pgn", "/dev/full"])
    out, err = capsys.readouterr()
    assert status == 2 and "中国象棋比赛记录表" in out and f"xqrec export 1 --db {db}" in err


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_game_resumed_from_a_file_that_starts_earlier_follows_the_recorded_plies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the first camera's file stops after ply 5; a backup camera filmed the whole game from its start:
    # its first boards are earlier positions of the record, not the arbiter restoring them (a tester saw
    # "position after ply 0 restored, taken back: ..." on the signed record and the moves recorded again)
    from recorder.events import Alert, ClockPressed, MoveRecorded, PositionRestored
    from recorder.store.db import GameStore

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    first_video, backup = tmp_path / "camera1.mp4", tmp_path / "backup.mp4"
    _video_part(range(0, 205), first_video)
    backup.write_bytes(VIDEO.read_bytes())
    clock_log = FIXTURES / "game_short.clock.jsonl"
    db = tmp_path / "games.sqlite3"
    _reading(monkeypatch, truth, stopped=True)
    assert main(["record", str(first_video), "--db", str(db), "--clock-log", str(clock_log), "--quiet"]) == 130
    (game,) = GameStore(db).games()
    stored = len([e for e in GameStore(db).events(game.id) if isinstance(e, MoveRecorded)])
    assert 0 < stored < len(truth["moves"])
    _reading(monkeypatch, truth)
    assert main(["record", str(backup), "--db", str(db), "--resume", str(game.id), "--clock-log", str(clock_log),
                 "--quiet"]) == 0
    logged = GameStore(db).events(game.id)
    assert [e.iccs for e in logged if isinstance(e, MoveRecorded)] == truth["moves"]
    assert not [e for e in logged if isinstance(e, PositionRestored | Alert)]
    assert sorted(e.ply or 0 for e in logged if isinstance(e, ClockPressed)) == list(range(1, len(truth["moves"]) + 1))
    # the first move after the change is timed across two sources' times: no move time, not a wrong one
    from recorder.exports.times import move_times
    from recorder.scoresheet import rebuild

    recorded = rebuild(logged)
    times = move_times(recorded)
    first_new = stored  # index of the first ply recorded from the backup's file
    assert times[first_new] is None and all(t is not None and t < 10_000 for t in times[first_new + 1:])


def test_a_folder_that_grew_while_it_was_read_exits_1_not_as_if_interrupted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A tester's camera wrote pictures into the folder being recorded: the run ended with the game
    left open, as it should, but with status 130, which says Ctrl-C to a script (nothing interrupted it)."""
    import cv2

    from recorder.sources import Frame, ImageFolderSource

    folder = tmp_path / "camera"
    folder.mkdir()
    reader = cv2.VideoCapture(str(VIDEO))
    for index in range(70):  # ply 1 is made by 4.9 s
        ok, frame = reader.read()
        assert ok and cv2.imwrite(str(folder / f"f{index:04d}.jpg"), frame)
    reader.release()
    listed = ImageFolderSource.__iter__

    def camera_writes_on(self: ImageFolderSource):  # type: ignore[no-untyped-def]
        for item in listed(self):
            if isinstance(item, Frame) and item.index == 0:
                assert cv2.imwrite(str(folder / "f9999.jpg"), item.image)
            yield item

    monkeypatch.setattr(ImageFolderSource, "__iter__", camera_writes_on)
    status = main(["record", str(folder), "--db", str(tmp_path / "games.sqlite3"), "--quiet"])
    err = capsys.readouterr().err
    assert "images were added to the folder while it was being read" in err and "no move was recorded" not in err
    assert status == 1


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_boards_time_control_comes_from_the_events_other_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """An organiser's tester: every board's recorder needed --tc, or its PGN had no TimeControl and its
    sheet no time used. The event's other games tell it when they agree."""
    from recorder.store.db import GameStore

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    db = tmp_path / "games.sqlite3"
    _reading(monkeypatch, truth)
    base = ["record", str(VIDEO), "--db", str(db), "--quiet", "--event", "City Open", "--round", "3"]
    assert main([*base, "--board", "1", "--tc", "900+10"]) == 0
    assert main([*base, "--board", "2"]) == 0
    assert "time control 900+10 taken from the other games of City Open" in caplog.text
    assert [game.info.time_control for game in GameStore(db).games()] == ["900+10", "900+10"]
    assert main([*base[:-4], "--event", "Blitz", "--board", "1"]) == 0  # another event: not guessed
    assert GameStore(db).games()[-1].info.time_control == ""
    assert "names no round" not in caplog.text
    # a board of the event recorded with no round: off the broadcast, so the organiser is told (tester)
    assert main([*base[:-2], "--board", "3"]) == 0
    assert "game 4 of City Open names no round, while the event's games are in round 3" in caplog.text


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_game_recorded_on_a_given_calibration_is_closed_at_the_end_of_its_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # a tester: every run given --calibration ended "game 1 is left open, with no move" after
    # recording all its moves (no "board found" came, the board being given, not looked for)
    import cv2

    from recorder.store.db import GameStore

    capture = cv2.VideoCapture(str(VIDEO))
    ok, frame = capture.read()
    capture.release()
    assert ok
    cv2.imwrite(str(tmp_path / "first.png"), frame)
    calib, db = tmp_path / "c.json", tmp_path / "g.sqlite3"
    assert main(["calibrate", str(tmp_path / "first.png"), "--out", str(calib)]) == 0
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    capsys.readouterr()
    assert main(["record", str(VIDEO), "--clock-log", str(FIXTURES / "game_short.clock.jsonl"), "--db", str(db),
                 "--calibration", str(calib), "--quiet"]) == 0
    assert "with no move" not in capsys.readouterr().err
    with GameStore(db) as store:
        (game,) = store.games()
        assert game.status == "closed" and game.plies == len(truth["moves"])


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_file_recorded_again_is_told_to_have_been_recorded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    # a tester ran the same command twice on a finished file: a second game, in silence
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    argv = ["record", str(VIDEO), "--clock-log", str(FIXTURES / "game_short.clock.jsonl"),
            "--db", str(tmp_path / "g.sqlite3"), "--quiet"]
    assert main(argv) == 0
    caplog.clear()
    with caplog.at_level("WARNING"):
        assert main(argv) == 0
    assert "this file was recorded before as game 1" in caplog.text and "game 2 records it again" in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING"):
        assert main(argv) == 0
    told = [r.getMessage() for r in caplog.records if "recorded before" in r.getMessage()]
    assert told == ["this file was recorded before as games 1, 2 (closed): game 3 records it again (void those not "
                    "wanted: xqrec edit GAME --void REASON)"]  # one line, not one a run before (a tester's nine)


def test_a_game_whose_board_was_never_found_stays_open_when_its_file_is_run_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a reviewer: the second run of a folder with no board read no frame (it goes on where the first
    # stopped) and closed the game as one of no moves
    import cv2

    from recorder.store.db import GameStore

    folder = tmp_path / "blank"
    folder.mkdir()
    for index in range(12):
        cv2.imwrite(str(folder / f"{index:03d}.png"), np.full((240, 320, 3), 128, np.uint8))
    db = tmp_path / "g.sqlite3"
    for _ in range(2):
        assert main(["record", str(folder), "--db", str(db), "--quiet", "--events", str(tmp_path / "e.jsonl")]) == 1
        assert "the board was never found" in capsys.readouterr().err
    with GameStore(db) as store:
        (game,) = store.games()
        assert game.status == "open" and game.plies == 0


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_move_recorded_after_the_result_was_marked_is_told_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # an arbiter tester marked "black resigned" with xqrec edit while the game was still being recorded
    # (the wrong board, or play went on): the next moves were stored after the end without a word
    import time

    from recorder.events import ResultMarked
    from recorder.store.db import GameStore

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    db = tmp_path / "games.sqlite3"
    _reading(monkeypatch, truth)
    inner_open = recorder.sources.open_source

    class MarkedMidway:  # the arbiter marks the result from another process a little after ply 6
        def __init__(self, spec: str, fps: float | None = None, follow: bool = False) -> None:
            self.inner = inner_open(spec, fps=fps, follow=follow)
            self.frame_count, self.ended_early = self.inner.frame_count, ""

        def __iter__(self):  # type: ignore[no-untyped-def]
            for item in self.inner:
                if getattr(item, "index", -1) == 260:  # after ply 6 (t 24 s), before ply 7
                    with GameStore(db) as console:
                        (game,) = console.games()
                        console.append(game.id, ResultMarked(26.0, 6, "1-0", "arbiter", "", "black resigned", False,
                                                             by="陈裁判"))
                    time.sleep(1.1)  # the recorder looks for the console's actions once a second
                yield item

        def stop(self) -> None:
            self.inner.stop()

    monkeypatch.setattr(recorder.sources, "open_source", MarkedMidway)
    assert main(["record", str(VIDEO), "--db", str(db), "--quiet", "--pgn", str(tmp_path / "g.pgn")]) == 0
    with GameStore(db) as store:
        (game,) = store.games()
        logged = store.events(game.id)
    told = [e for e in logged if isinstance(e, Alert) and e.kind == "moves_after_result"]
    assert len(told) == 1 and told[0].ply == 7 and "陈裁判" in told[0].text and "black resigned" in told[0].text
    assert [e.iccs for e in logged if isinstance(e, MoveRecorded)] == truth["moves"]  # the moves are kept


def _one_picture_folder(tmp_path: Path, frame: int) -> Path:
    """A folder holding one picture: frame ``frame`` of the fixture video."""
    import cv2

    capture = cv2.VideoCapture(str(VIDEO))
    capture.set(cv2.CAP_PROP_POS_FRAMES, frame)
    ok, image = capture.read()
    capture.release()
    assert ok
    folder = tmp_path / "pictures"
    folder.mkdir()
    cv2.imwrite(str(folder / "board.png"), image)
    return folder


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_source_too_short_to_judge_says_so_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a new user recorded a folder holding one picture of a game in progress: "board found", an empty
    # scoresheet and exit 0; fifty copies of the same picture already exited 1 with the reason
    folder = _one_picture_folder(tmp_path, frame=300)
    assert main(["record", str(folder), "--no-db", "--events", str(tmp_path / "e.jsonl"), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "no move was recorded: the source held 1 frame(s), too few" in err and "xqrec read-board" in err
    assert "see the alerts" not in err  # none is raised: the source is too short for any


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_the_empty_game_of_a_source_too_short_is_void(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a new user: the game a one-picture folder opened stood in `xqrec games` and on the console as a
    # game in play, with no move, until voided by hand
    folder = _one_picture_folder(tmp_path, frame=0)
    db = tmp_path / "games.sqlite3"
    assert main(["record", str(folder), "--db", str(db), "--quiet"]) == 1
    assert "game 1 is void (nothing in it; kept in the store: xqrec edit 1 --unvoid" in capsys.readouterr().err
    from recorder.store.db import GameStore

    with GameStore(db) as store:
        assert store.games() == []
        (kept,) = store.games(void=None)
        assert "1 frame(s), too few" in kept.void
    # a video cut before its first frame: it was told to go on with the game with --resume, then that
    # the game was void, and resuming it was refused
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(VIDEO.read_bytes()[:10_000])
    assert main(["record", str(cut), "--db", str(tmp_path / "cut.sqlite3"), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "game 1 is void" in err and "--resume" not in err and "see the alerts" not in err


def test_the_stored_line_names_a_store_path_with_a_space_so_it_can_be_pasted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # a reviewer: "xqrec show 1 --db /tmp/rv2 dir/s.sqlite3" does not work as printed
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    db = tmp_path / "round 3" / "games.sqlite3"
    db.parent.mkdir()
    assert main(["record", str(VIDEO), "--db", str(db)]) == 0
    assert f"show 1 --db '{db}';" in capsys.readouterr().out


@pytest.mark.skipif(not (FIXTURES / "game_faults.mp4").exists(), reason="fixture video missing")
def test_a_game_resumed_from_another_games_video_is_left_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A tester resumed game 1 from another game's video: it went on being recorded, its source
    rewritten, an alert at every press, status 0. The run now stops at the first board that is no
    position of the game, with status 1, and the game keeps its source and state."""
    from recorder.events import Alert, AlertAcknowledged, EventWithdrawn, MoveRecorded
    from recorder.store.db import GameStore
    from recorder.store.resume import resume_point

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    other = FIXTURES / "game_faults.mp4"
    db = tmp_path / "games.sqlite3"
    _reading(monkeypatch, truth)
    assert main(["record", str(VIDEO), "--db", str(db), "--quiet"]) == 0
    (game,) = GameStore(db).games()
    assert game.state == "closed" and game.result == "*"
    before = GameStore(db).events(game.id)
    reached = resume_point(GameStore(db), game.id).t
    _reading(monkeypatch, json.loads((FIXTURES / "game_faults.truth.json").read_text(encoding="utf-8")))
    assert main(["record", str(other), "--db", str(db), "--resume", str(game.id), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "stopped: the board is not the game's" in err and f"is it game {game.id}? Check --resume GAME" in err
    after = GameStore(db).game(game.id)
    assert (after.source, after.state, after.plies) == (game.source, "closed", len(truth["moves"]))
    assert [e.iccs for e in GameStore(db).events(game.id) if isinstance(e, MoveRecorded)] == truth["moves"]
    # a tester: the refused run's clock presses and its time stayed in, and the right resume then
    # skipped moves and was told of presses without a move. Only its alerts stay, closed, at the time
    # the game had reached
    # (rewritten in place, not deleted: the log's numbering and the console feed's row ids stay, a reviewer)
    events = GameStore(db).events(game.id)
    assert events[:len(before)] == before
    added = events[len(before):]
    assert added and all(isinstance(e, Alert | AlertAcknowledged | EventWithdrawn) and e.t == reached for e in added)
    assert any(isinstance(e, EventWithdrawn) and e.was == "RecordingStarted" for e in added)
    raised = {len(before) + 1 + i for i, e in enumerate(added) if isinstance(e, Alert)}
    closed = {e.seq for e in added if isinstance(e, AlertAcknowledged)}
    assert raised and closed == raised and all(e.by == "recorder" for e in added if isinstance(e, AlertAcknowledged))
    assert resume_point(GameStore(db), game.id).t == reached
    rows = GameStore(db).db.execute("SELECT seq FROM events WHERE game_id = ? ORDER BY seq", (game.id,)).fetchall()
    assert [row[0] for row in rows] == list(range(1, len(events) + 1))


def test_a_far_board_of_the_same_game_does_not_stop_a_resumed_run() -> None:
    """A reviewer: a camera swapped during eight fast plies shows a board 16 points or more from the
    record, which stopped the run as 'not this game'. Only a board that showed the game's earlier
    plies and went another way, or one with pieces the game has lost, stops it."""
    from types import SimpleNamespace

    from recorder.commands.record import NotThisGame, _not_this_game
    from recorder.events import BoardDisturbed
    from rules import Game, Move

    game = Game()
    for move in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]:
        game.push(move)
    later = game.position
    for move in ["e2e6", "g7e6", "h0h6", "a9a8"]:  # two captures while the camera was swapped
        later = later.play(Move.from_iccs(move))
    squares = tuple(f"{f}{r}" for f in "abcdefghi" for r in "01")  # 18 points "differ"
    far = BoardDisturbed(60.0, "unexplained", squares, "5.8", "no continuation", 6, later.fen().split()[0])
    store: Any = SimpleNamespace(game_id=7)  # what _not_this_game reads of a store recording and a session
    session: Any = SimpleNamespace(resolver=SimpleNamespace(followed_or_seen=False, left_followed=None, game=game))
    assert _not_this_game(store, session, [far], 0) == 1  # the same game on: alerted as usual
    other = BoardDisturbed(60.0, "unexplained", squares, "5.8", "no continuation", 6, Game().position.fen().split()[0])
    game.push("e2e6")  # a soldier and a cannon taken: the start position has both back
    game.push("g7e6")
    with pytest.raises(NotThisGame, match="shows 2 pieces that game has lost"):
        _not_this_game(store, session, [other], 0)
    session.resolver.left_followed = 0
    with pytest.raises(NotThisGame, match="showed the game's ply 0 and then went another way"):
        _not_this_game(store, session, [far], 0)


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_fault_of_the_recorders_own_still_writes_out_the_moves_recorded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # a tester's crash (a time formatted as infinity) ended the run with a traceback and, with --no-db,
    # no PGN: the moves read were lost. Any fault of ours now stops the run the way Ctrl-C does
    from recorder.resolver import Resolver

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    observe = Resolver.observe

    def failing(self: Resolver, observation: Any) -> Any:
        if self.game.ply >= 4:
            raise RuntimeError("a bug")
        return observe(self, observation)

    monkeypatch.setattr(Resolver, "observe", failing)
    pgn = tmp_path / "game.pgn"
    assert main(["record", str(VIDEO), "--no-db", "--pgn", str(pgn), "--quiet"]) == 2
    (back,) = read_pgn(pgn.read_text(encoding="utf-8"))
    assert [m.iccs for m in back.moves] == truth["moves"][:4]
    said = capsys.readouterr().err
    assert "RuntimeError: a bug" in said and f"the moves recorded are in {pgn}" in said
    db = tmp_path / "games.sqlite3"
    assert main(["record", str(VIDEO), "--db", str(db), "--quiet"]) == 2
    assert "game 1 is left open" in capsys.readouterr().err
    # a fault in the end's own judgements (the last presses, the clock's grace: the tester's was there)
    monkeypatch.setattr(Resolver, "observe", observe)
    tick = Resolver.tick

    def failing_tick(self: Resolver, t: float) -> Any:
        if t > truth["duration_s"]:  # only the end's: finish ticks on past the last frame by the clock's grace
            raise RuntimeError("a bug at the end")
        return tick(self, t)

    monkeypatch.setattr(Resolver, "tick", failing_tick)
    assert main(["record", str(VIDEO), "--no-db", "--pgn", str(pgn), "--quiet"]) == 2
    (back,) = read_pgn(pgn.read_text(encoding="utf-8"))
    assert [m.iccs for m in back.moves] == truth["moves"] and "a bug at the end" in capsys.readouterr().err


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_closed_output_pipe_does_not_stop_the_recording(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        capsys: pytest.CaptureFixture[str]) -> None:
    # `xqrec record ... | head -3` (or a tee that died) ended a tester's recording at ply 3, status 0,
    # with no PGN and no word of it
    import io
    import sys

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)

    class ClosingPipe(io.StringIO):
        def write(self, text: str) -> int:
            if self.tell() > 60:
                raise BrokenPipeError(32, "Broken pipe")
            return super().write(text)

    monkeypatch.setattr(sys, "stdout", ClosingPipe())
    pgn = tmp_path / "game.pgn"
    with caplog.at_level("WARNING"):
        assert main(["record", str(VIDEO), "--no-db", "--pgn", str(pgn)]) == 0
    (back,) = read_pgn(pgn.read_text(encoding="utf-8"))
    assert [m.iccs for m in back.moves] == truth["moves"]
    assert "standard output was closed" in caplog.text
    # a reviewer: with --no-db and no file, the scoresheet on the closed output was the only copy
    monkeypatch.setattr(sys, "stdout", ClosingPipe())
    assert main(["record", str(VIDEO), "--no-db"]) == 2
    (back,) = read_pgn(capsys.readouterr().err.split("its PGN follows here\n", 1)[1])
    assert [m.iccs for m in back.moves] == truth["moves"]
