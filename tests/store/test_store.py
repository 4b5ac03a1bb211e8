"""The SQLite game store: events committed and read back, migrations with a backup, open/closed games,
resuming a stored game into a resolver, and shared games through the store and PGN."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from recorder.events import RecordingStopped
from recorder.exports.pgn import export_pgn
from recorder.resolver import Resolver
from recorder.scoresheet import rebuild
from recorder.sources import Frame, Gap
from recorder.store import GameInfo, GameStore, StoreRecording, prime_resolver, resume_point
from recorder.store.migrations import LATEST, MIGRATIONS, schema_version
from rules import Position, read_pgn
from tests.exports.game_events import game_events

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "games_iccs.txt"
OPENING = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "c6c5", "c3c4", "h7i7"]


def test_events_are_committed_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    events = game_events(OPENING, faults=True)
    with GameStore(path) as store:
        game = store.create_game("cam0", GameInfo(event="Open", round="1", board=4, red="A", black="B"))
        for event in events:
            store.append(game, event)
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with GameStore(path) as store:  # a second process sees everything committed
        assert store.events(game) == events
        row = store.game(game)
        assert (row.info.event, row.info.round, row.info.board, row.info.red) == ("Open", "1", 4, "A")
        assert row.plies == len(OPENING) and row.start_fen == events[0].start_fen  # type: ignore[attr-defined]
        assert row.model_sha256 == "ab" * 32


def test_the_listed_ply_count_follows_added_and_taken_back_moves(tmp_path: Path) -> None:
    # tester 15: a move the arbiter added was missing from `xqrec games` (and from the import's check
    # for a game stored already)
    from recorder.events import PositionRestored, corrections
    from rules import Move, Position

    store = GameStore(tmp_path / "store.sqlite3")
    game = store.create_game("cam0")
    for event in game_events(OPENING)[:-1]:
        store.append(game, event)
    position = Position.start()
    for iccs in OPENING:
        position = position.play(Move.from_iccs(iccs))
    added = position.legal_moves()[0]
    for event in corrections(position, len(OPENING) + 1, [added], "", 50.0, "arbiter"):
        store.append(game, event)
    assert store.game(game).plies == len(OPENING) + 1
    back = Position.start()
    for iccs in OPENING[:4]:
        back = back.play(Move.from_iccs(iccs))
    store.append(game, PositionRestored(60.0, 4, back.fen(), tuple(OPENING[4:]) + (added.iccs,)))
    assert store.game(game).plies == 4


def test_the_console_and_the_recorder_append_to_one_game(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    events = game_events(OPENING)
    with GameStore(path) as recorder, GameStore(path) as console:  # two processes, two connections
        game = recorder.create_game("cam0")
        numbers = [recorder.append(game, events[0]), recorder.append(game, events[1])]
        numbers.append(console.append(game, events[2]))  # an arbiter's action between two recorded moves
        numbers += [recorder.append(game, e) for e in events[3:]]
        assert numbers == list(range(1, len(events) + 1))
        assert recorder.events(game) == events


def test_default_path_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with GameStore() as store:
        assert store.path == tmp_path / "data" / "xiangqi-recorder" / "recorder.sqlite3"
    assert store.path is not None and store.path.exists()


def test_migration_backs_up_an_older_store(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path, isolation_level=None)
    schema_version(old)
    for statement in MIGRATIONS[0][1].split(";"):
        if statement.strip():
            old.execute(statement)
    old.execute("INSERT INTO schema_version (version) VALUES (1)")
    old.execute("INSERT INTO games (source, created, updated) VALUES ('cam1', 'x', 'x')")
    old.close()
    with GameStore(path) as store:
        assert schema_version(store.db) == LATEST
        assert [g.source for g in store.games()] == ["cam1"]
    backup = tmp_path / "old.sqlite3.v1.bak"
    assert backup.exists()
    with sqlite3.connect(backup) as copy:
        assert copy.execute("SELECT source FROM games").fetchall() == [("cam1",)]
        assert copy.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == 1


def test_a_newer_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    GameStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_version (version) VALUES (?)", (LATEST + 1,))
    with pytest.raises(ValueError, match="newer"):
        GameStore(path)


def test_open_closed_and_interrupted_games(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "s.sqlite3")
    events = game_events(OPENING[:4])
    run = StoreRecording.open(store, "video.mp4")
    for event in events[:-1]:
        run.sink(event)
    assert store.game(run.game_id).state == "recording"  # this process holds it
    with pytest.raises(ValueError, match="being recorded"):
        StoreRecording.open(store, "video.mp4")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    store.db.execute("UPDATE sessions SET pid = ? WHERE id = ?", (int(dead.stdout), run.session_id))
    assert store.game(run.game_id).state == "interrupted"
    again = StoreRecording.open(store, "video.mp4")
    assert again.game_id == run.game_id and again.resume is not None and again.resume.ply == 4
    assert StoreRecording.open(store, "other.mp4").game_id != run.game_id
    again.sink(RecordingStopped(50.0, 500, "stopped by the user"))
    assert store.game(run.game_id).status == "open"  # a stop by hand may go on later
    again.sink(RecordingStopped(60.0, 600))
    assert store.game(run.game_id).state == "closed"
    assert StoreRecording.open(store, "video.mp4").game_id != run.game_id


@pytest.mark.parametrize(("reason", "state"), [
    ("stopped (SIGTERM)", "stopped"), ("stopped by the user", "stopped"), ("stopped: the video ended early", "stopped"),
    ("stopped by an error of the recorder's (KeyError: 3)", "interrupted"),
    ("the recorder's process ended without closing the game", "interrupted"), (None, "interrupted")])
def test_a_game_stopped_on_purpose_is_told_from_one_whose_recorder_was_lost(
        tmp_path: Path, reason: str | None, state: str) -> None:
    # an arbiter's tester: a recorder stopped with SIGTERM was listed "interrupted", the word the docs
    # use for a crash; both go on with --resume, but only a lost recorder is worth looking into
    store = GameStore(tmp_path / "s.sqlite3")
    run = StoreRecording.open(store, "video.mp4")
    for event in game_events(OPENING[:4])[:-1]:
        run.sink(event)
    if reason is not None:
        run.sink(RecordingStopped(50.0, 500, reason))
        store.end_session(run.session_id)
    else:  # the process died: nothing was written
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
        store.db.execute("UPDATE sessions SET pid = ? WHERE id = ?", (int(dead.stdout), run.session_id))
    game = store.game(run.game_id)
    assert (game.status, game.state, game.waiting) == ("open", state, True)
    assert game.not_over == ("its recorder was stopped before the game ended" if state == "stopped"
                             else "its recorder stopped without closing it")
    again = StoreRecording.open(store, "video.mp4")  # either goes on from where it was
    assert again.game_id == run.game_id and again.resume is not None and again.resume.ply == 4
    assert store.game(run.game_id).state == "recording"


def test_a_recording_stopped_by_hand_closes_a_game_whose_result_is_known(tmp_path: Path) -> None:
    # the arbiter marked the result in the console; Ctrl-C is how a live recording ends: the game is
    # over, not an interrupted board waiting for its recorder (the console showed it INTERRUPTED)
    from recorder.events import ResultMarked

    store = GameStore(tmp_path / "s.sqlite3")
    run = StoreRecording.open(store, "rtsp://camera-1")
    for event in game_events(OPENING[:4])[:-1]:
        run.sink(event)
    store.append(run.game_id, ResultMarked(40.0, 4, "1-0", "resigned", "", "black resigned", False, by="Zhang Wei"))
    run.sink(RecordingStopped(45.0, 450, "stopped by the user"))
    row = store.game(run.game_id)
    assert (row.status, row.result, row.state) == ("closed", "1-0", "closed")
    assert store.games(status="open") == []


def test_an_interrupted_game_goes_on_from_another_source_by_its_number(tmp_path: Path) -> None:
    from recorder.store.recording import resume_session

    store = GameStore(tmp_path / "s.sqlite3")
    board = GameInfo(event="Open", round="2", board=5)
    run = StoreRecording.open(store, "rtsp://table-5", board)
    for event in game_events(OPENING[:4])[:-1]:
        run.sink(event)
    with pytest.raises(ValueError, match="being recorded"):
        StoreRecording.open(store, "/dev/video2", game_id=run.game_id)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    store.db.execute("UPDATE sessions SET pid = ? WHERE id = ?", (int(dead.stdout), run.session_id))
    # the camera was replaced: the new one is named, the game by its number (its board and round stay)
    again = StoreRecording.open(store, "/dev/video2", GameInfo(), game_id=run.game_id)
    assert again.game_id == run.game_id and again.moved and again.resume is not None and again.resume.ply == 4
    game = store.game(run.game_id)
    assert game.source == "/dev/video2" and game.info.board == 5
    # its times go on after the stored ones, whatever kind of source the new one is
    gap, frame = resume_session(_Primed(), again, [Frame(None, 0.5, 0)], seekable=True)  # type: ignore[arg-type]
    assert isinstance(gap, Gap) and gap.t == again.resume.t and gap.reason == "the game went on from another source"
    assert isinstance(frame, Frame) and frame.t > gap.t_resumed > again.resume.t
    again.sink(RecordingStopped(90.0, 900))  # its file ended: closed with no result, it may go on from the next
    assert store.game(run.game_id).state == "closed"
    store.close_game(run.game_id, "1-0")  # with a result it is finished
    with pytest.raises(ValueError, match=f"game {run.game_id} is finished \\(result 1-0\\)"):
        StoreRecording.open(store, "/dev/video2", game_id=run.game_id)
    with pytest.raises(ValueError, match="there is no game 99"):
        StoreRecording.open(store, "/dev/video2", game_id=99)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="process identities are read from Linux's /proc")
def test_a_dead_recorders_process_number_given_again_does_not_hold_its_game(tmp_path: Path) -> None:
    # a tester: after a crash or a reboot the number comes back (a recorder started at boot gets the
    # same low numbers, or is itself the process of that number), and the game was refused for good
    import os

    from recorder.store.db import process_identity

    store = GameStore(tmp_path / "s.sqlite3")
    run = StoreRecording.open(store, "rtsp://table-5")
    for event in game_events(OPENING[:4])[:-1]:
        run.sink(event)
    assert store.game(run.game_id).state == "recording"
    # a reviewer: a clock set forward after boot (no battery, then NTP) must not make it look dead
    store.db.execute("UPDATE sessions SET started = '2020-01-01T00:00:00Z' WHERE id = ?", (run.session_id,))
    assert store.game(run.game_id).state == "recording"
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        for pid in (other.pid, os.getpid()):  # the number now another program's, or this one's
            store.db.execute("UPDATE sessions SET pid = ?, process = ? WHERE id = ?",
                             (pid, f"{process_identity(pid)}-before", run.session_id))
            assert store.game(run.game_id).state == "interrupted"
        store.db.execute("UPDATE sessions SET pid = ?, process = ? WHERE id = ?",
                         (other.pid, process_identity(other.pid), run.session_id))
        assert store.game(run.game_id).state == "recording"  # that very process: its recorder
    finally:
        other.kill()
        other.wait()
    again = StoreRecording.open(store, "rtsp://table-5", game_id=run.game_id)
    assert again.resume is not None and again.resume.ply == 4


def test_a_game_held_by_a_recorder_on_another_machine_is_taken_over_when_asked(tmp_path: Path) -> None:
    # the store copied to a spare laptop after the first one died: its session names the other host,
    # whose process cannot be looked at from here; the game had been refused with no way on
    store = GameStore(tmp_path / "s.sqlite3")
    run = StoreRecording.open(store, "rtsp://table-5")
    for event in game_events(OPENING[:4])[:-1]:
        run.sink(event)
    store.db.execute("UPDATE sessions SET host = 'laptop-1' WHERE id = ?", (run.session_id,))
    assert store.game(run.game_id).state == "recording"
    with pytest.raises(ValueError, match=f"being recorded on laptop-1 .*--resume {run.game_id} --take-over"):
        StoreRecording.open(store, "/dev/video0", game_id=run.game_id)
    again = StoreRecording.open(store, "/dev/video0", game_id=run.game_id, take_over=True)
    assert again.game_id == run.game_id and again.resume is not None and again.resume.ply == 4
    stopped = [e for e in store.events(run.game_id) if isinstance(e, RecordingStopped)]
    assert "the recorder on laptop-1" in stopped[-1].reason and store.game(run.game_id).status == "open"
    with pytest.raises(ValueError, match="another recorder on this machine"):  # one running here is never taken over
        StoreRecording.open(store, "/dev/video0", game_id=run.game_id, take_over=True)


class _Primed:
    """What resume_session needs of a session: a resolver to prime, its foul tally and a start to set."""

    def __init__(self) -> None:
        from recorder.fouls import FoulTally

        self.resolver = Resolver(Position.start())
        self.fouls = FoulTally()
        self.start = Position.start()


def test_resume_primes_the_resolver_with_moves_and_clock(tmp_path: Path) -> None:
    store = GameStore(":memory:")
    game = store.create_game("cam")
    events = game_events(OPENING[:5])
    for event in events[:-1]:
        store.append(game, event)
    point = resume_point(store, game)
    assert point.ply == 5 and point.position == Position.start().play("h2e2").play("h9g7").play("h0g2") \
        .play("i9h9").play("i0h0")
    resolver = Resolver(Position.start(), clock=True)
    prime_resolver(resolver, point)
    assert resolver.game.ply == 5 and resolver.game.position == point.position
    assert resolver.clock is not None and resolver.clock.running == "black"


def test_a_running_recording_hears_of_the_consoles_corrections(tmp_path: Path) -> None:
    from recorder.events import MoveCorrected

    path = tmp_path / "store.sqlite3"
    with GameStore(path) as store, GameStore(path) as console:
        run = StoreRecording.open(store, "cam0")
        for event in game_events(OPENING[:4])[:-1]:
            run.sink(event)
        assert run.corrections() == []  # its own moves are no news
        before = Position.start().play("h2e2")
        fix = MoveCorrected(9.0, 2, "b9c7", "马2进3", "black", before.play("b9c7").fen(), 1.0, by="arbiter",
                            was="h9g7")
        console.append(run.game_id, fix)
        run.sink(RecordingStopped(10.0, 100, "stopped by the user"))  # the recorder wrote after it
        assert run.corrections() == [fix]
        assert run.corrections() == []  # told once
        assert [p.iccs for p in run.game().plies][:2] == ["h2e2", "b9c7"]
        resolver = Resolver(Position.start())
        for iccs in OPENING[:4]:
            resolver.game.push(iccs)
        resolver.adopt(2, ["b9c7"])
        assert [m.iccs for m in resolver.game.moves] == ["h2e2", "b9c7"]


def test_the_consoles_corrections_go_into_the_runs_event_log_and_each_is_shown(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a tester's --events file had no MoveCorrected at all while plies after it were played from the
    # correction; of two quick corrections (the second putting the first back) the terminal showed one
    import json
    from dataclasses import replace
    from types import SimpleNamespace

    from recorder.commands.record import _take_corrections
    from recorder.events import EventLog, MoveCorrected

    path = tmp_path / "store.sqlite3"
    adopted: list[list[str]] = []
    with GameStore(path) as store, GameStore(path) as console, EventLog(tmp_path / "run.jsonl") as log:
        run = StoreRecording.open(store, "cam0")
        for event in game_events(OPENING[:4])[:-1]:
            run.sink(event)
        session = SimpleNamespace(log=log, fouls=None,
                                  adopt_record=lambda plies, keep_later: adopted.append(plies))
        before = Position.start().play("h2e2")
        wrong = MoveCorrected(9.0, 2, "h9i7", "马8进9", "black", before.play("h9i7").fen(), 1.0, by="Arbiter One",
                              was="h9g7")
        right = replace(wrong, iccs="h9g7", chinese="马8进7", fen_after=before.play("h9g7").fen(), was="h9i7")
        console.append(run.game_id, wrong)
        console.append(run.game_id, right)
        _take_corrections(session, run, show=True)
    written = [json.loads(line) for line in (tmp_path / "run.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(e["type"], e["iccs"], e["was"]) for e in written] == [("MoveCorrected", "h9i7", "h9g7"),
                                                                   ("MoveCorrected", "h9g7", "h9i7")]
    shown = capsys.readouterr().out
    assert "ply 2 corrected by Arbiter One: h9i7 (was h9g7)" in shown and "h9g7 (was h9i7)" in shown
    assert adopted and adopted[-1][:2] == ["h2e2", "h9g7"]


def _round_trip(lines: list[str]) -> None:
    store = GameStore(":memory:")
    for number, line in enumerate(lines):
        result, *moves = line.split()
        game = store.create_game(f"line-{number}", GameInfo(event="CCPD", round=str(number)))
        for event in game_events(moves, seed=number, result=result):
            store.append(game, event)
        events = store.events(game)
        assert rebuild(events).moves == moves
        for notation in ("iccs", "chinese", "wxf"):
            (back,) = read_pgn(export_pgn(events, store.game(game).info, notation))
            assert [m.iccs for m in back.moves] == moves and back.result == result and not back.errors


def test_sample_of_shared_games_through_store_and_pgn() -> None:
    lines = SHARED.read_text(encoding="utf-8").splitlines()
    _round_trip(random.Random(7).sample(lines, 12))


@pytest.mark.slow
def test_all_shared_games_through_store_and_pgn() -> None:
    _round_trip(SHARED.read_text(encoding="utf-8").splitlines())


def test_a_file_source_is_the_same_however_it_is_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from recorder.store.recording import source_key

    video = tmp_path / "board1.mp4"
    video.write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    assert source_key("board1.mp4") == source_key(str(video)) == str(video.resolve())
    assert source_key("0") == "0" and source_key("rtsp://cam/1") == "rtsp://cam/1"


def test_a_streams_key_in_the_store_keeps_no_password(tmp_path: Path) -> None:
    from recorder.store.recording import source_key

    key = source_key("http://arbiter:s3cret@127.0.0.1:8080/feed.mjpg?channel=2&token=abc")
    assert key == "http://127.0.0.1:8080/feed.mjpg?channel=2&token=***"
    assert source_key("rtsp://u:p@cam/1") == source_key("rtsp://cam/1") != source_key("rtsp://u:p@cam/2")
    store = GameStore(tmp_path / "s.sqlite3")
    run = StoreRecording.open(store, key)
    with pytest.raises(ValueError, match="being recorded") as refused:  # the same stream, however it logs in
        StoreRecording.open(store, source_key("http://other:pw@127.0.0.1:8080/feed.mjpg?channel=2&token=xyz"))
    assert "s3cret" not in str(refused.value) and "xyz" not in str(refused.value)
    assert store.game(run.game_id).source == key


def test_a_stream_game_stored_under_its_raw_url_is_still_resumed(tmp_path: Path) -> None:
    """Stores kept a stream's raw URL (with its password) before the key dropped it: an interrupted
    game from then is taken up again, not left beside a new one."""
    from recorder.store.recording import source_key

    store = GameStore(tmp_path / "s.sqlite3")
    old = store.create_game("rtsp://u:p@cam/1", GameInfo())
    resumed = StoreRecording.open(store, source_key("rtsp://u:p@cam/1"))
    assert resumed.game_id == old


def test_one_board_is_recorded_once_at_a_time(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = GameStore(tmp_path / "s.sqlite3")
    board3 = GameInfo(event="Open", round="2", board=3)
    first = StoreRecording.open(store, "rtsp://table-3", board3)
    with pytest.raises(ValueError, match=r"board 3 \(round 2, Open\) is being recorded now") as refused:
        StoreRecording.open(store, "rtsp://table-4", board3)  # another camera on the same board
    assert f"game {first.game_id} from rtsp://table-3" in str(refused.value)
    with pytest.raises(ValueError, match="board 3"):
        StoreRecording.open(store, "rtsp://table-3", board3, resume=False)  # --new-game while it records
    assert len(store.games_on_board(board3)) == 1
    # other boards, rounds and events are free
    for other in (GameInfo(event="Open", round="2", board=4), GameInfo(event="Open", round="3", board=3),
                  GameInfo(event="Blitz", round="2", board=3)):
        StoreRecording.open(store, "rtsp://table-4", other).sink(RecordingStopped(1.0, 10))
    # a finished game on the board: refused (a round or board left from the last round would put two
    # games of the board in the round's broadcast); a replayed game is asked for, and warned of
    first.sink(RecordingStopped(60.0, 600))
    with pytest.raises(ValueError, match=r"board 3 \(round 2, Open\) already has a game closed when its file "
                       rf"ended \(game {first.game_id}, .*give --resume {first.game_id}; .* --new-game"):
        StoreRecording.open(store, "rtsp://table-4", board3)
    store.close_game(first.game_id, "1-0")
    with pytest.raises(ValueError, match=rf"already has a finished game \(game {first.game_id}, result 1-0\): check"):
        StoreRecording.open(store, "rtsp://table-4", board3)
    with caplog.at_level("WARNING"):
        replay = StoreRecording.open(store, "rtsp://table-4", board3, resume=False)
    assert replay.game_id != first.game_id and len(store.games_on_board(board3)) == 2
    # with no round named, board 1 of each evening is a game of its own (a reviewer's club)
    club = GameInfo(board=1)
    monday = StoreRecording.open(store, "/v/mon.mp4", club)
    store.close_game(monday.game_id, "1-0")
    assert StoreRecording.open(store, "/v/tue.mp4", club).game_id != monday.game_id
    assert f"board 3 (round 2, Open) already has a finished game (game {first.game_id}" in caplog.text


def test_a_watched_game_without_tournament_details_says_when_it_was_recorded_never_its_source(tmp_path: Path) -> None:
    import datetime

    from recorder.events import RecordingStarted
    from recorder.store.db import GameStore
    from rules import Position

    store = GameStore(tmp_path / "g.sqlite3")
    watched = store.create_game("rtsp://table-7")
    store.append(watched, RecordingStarted(0.0, "rtsp://table-7", Position.start().fen(), "ab" * 32))
    imported = store.create_game("imported PGN")
    store.append(imported, RecordingStarted(0.0, "imported PGN", Position.start().fen(), None))
    rows = {row.id: row for row in store.games()}
    assert rows[watched].info.site == ""  # PGN's "?": a source (a stream's password, a local path) is no site
    assert '[Site "?"]' in export_pgn(store.events(watched), rows[watched].info)
    assert rows[watched].info.date == datetime.datetime.now(datetime.UTC).strftime("%Y.%m.%d")
    assert rows[imported].info.site == "" and rows[imported].info.date == ""  # an old game's date is not today


def test_each_recorder_keeps_its_site_and_date_and_fills_the_tournaments(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "g.sqlite3")
    first = store.create_game("cam1", GameInfo(event="Spring Open", round="3", board=4, date="2026.12.02"))
    later = store.create_game("cam2", GameInfo(event="Spring Open", round="3", board=30, site="Hall B",
                                               date="2026.12.25"))
    other = store.create_game("cam3", GameInfo(event="Spring Open", round="3", board=31, site="Hall C"))
    no_event = store.create_game("cam4", GameInfo(site="Club room", date="2026.11.30"))
    rows = {row.id: row.info for row in store.games()}
    assert (rows[later].site, rows[later].date) == ("Hall B", "2026.12.25")
    assert '[Site "Hall B"]' in export_pgn(store.events(later), rows[later])
    assert (rows[first].site, rows[first].date) == ("Hall B", "2026.12.02")  # the tournament's site, filled
    assert (rows[other].site, rows[other].date) == ("Hall C", "2026.12.02")  # the round's date
    assert (rows[no_event].site, rows[no_event].date) == ("Club room", "2026.11.30")


def test_a_schema_2_store_keeps_showing_its_tournaments_site(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path, isolation_level=None)
    schema_version(old)
    for number, sql in MIGRATIONS[:2]:
        for statement in sql.split(";"):
            if statement.strip():
                old.execute(statement)
        old.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
    old.execute("INSERT INTO tournaments (name, site, created) VALUES ('Open', 'Hall A', 'x')")
    old.execute("INSERT INTO rounds (tournament_id, name, date) VALUES (1, '1', '2026.01.02')")
    old.execute("INSERT INTO boards (round_id, number) VALUES (1, 1)")
    old.execute("INSERT INTO games (board_id, source, created, updated) VALUES (1, 'cam1', 'x', 'x')")
    old.close()
    with GameStore(path) as store:
        (row,) = store.games()
        assert (row.info.site, row.info.date) == ("Hall A", "2026.01.02")
    assert (tmp_path / "old.sqlite3.v2.bak").exists()


def test_a_new_game_is_warned_of_a_mistyped_round_event_or_board(tmp_path: Path,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    # a tester re-ran a recording stopped with Ctrl-C with --round 4 for 3, and then --round 03 and a
    # lower-case event: each filed a game of its own in silence, missing from the round's PGN
    from recorder.store.db import GameStore
    from recorder.store.resume import StoreRecording

    store = GameStore(tmp_path / "g.sqlite3")
    stopped = StoreRecording.open(store, "b2.mp4", GameInfo(event="City Open 2026", round="3", board=11))
    store.end_session(stopped.session_id)  # Ctrl-C: the game is interrupted
    with caplog.at_level("WARNING"):
        again = StoreRecording.open(store, "b2.mp4", GameInfo(event="City Open 2026", round="4", board=11))
    assert (f"game {stopped.game_id}, recorded from this same source (board 11 (round 3, City Open 2026)), is "
            f"interrupted: game {again.game_id} is a new game") in caplog.text
    assert f"give --resume {stopped.game_id}" in caplog.text
    caplog.clear()
    # a name the store has by another spelling is refused before a game is opened: a warning among a
    # hall's recorders went unread (an organiser tester)
    with pytest.raises(ValueError, match="round '03' is not in 'City Open 2026', which has round '3': give --round 3"):
        StoreRecording.open(store, "c.mp4", GameInfo(event="City Open 2026", round="03", board=2))
    with pytest.raises(ValueError, match="the event 'city open  2026' is not in this store, which has 'City Open 2026'"):
        StoreRecording.open(store, "d.mp4", GameInfo(event="city open  2026", round="3", board=2))
    assert [game.id for game in store.games()] == [stopped.game_id, again.game_id]
    with caplog.at_level("WARNING"):
        StoreRecording.open(store, "e.mp4", GameInfo(event="City Open 2026", round="3", board=3))  # all right
        StoreRecording.open(store, "f.mp4", GameInfo(event="City Open 2026", round="5", board=3))  # a new round
        StoreRecording.open(store, "g.mp4", GameInfo(event="City Open 2026", round="5"))  # no board (a tester)
        StoreRecording.open(store, "h.mp4", GameInfo())  # a camera tried out: no round, no board, no warning
        StoreRecording.open(store, "i.mp4", GameInfo(event="City Opne 2026", round="1", board=1))  # two swapped
        StoreRecording.open(store, "j.mp4", GameInfo(event="City Open 2027", round="1", board=1))  # next year's
    assert caplog.messages == [
        "round '5' has no board number (--board): the game has no [Board] tag, and the round's PGN, the "
        "broadcast and the console list it after the numbered boards",
        "the event 'City Opne 2026' is new to this store, which has 'City Open 2026': its games are a tournament "
        "of their own (check --event; xqrec edit GAME --event changes it)"]


@pytest.mark.parametrize("a, b, slip", [
    ("city open", "city opne", True), ("city open", "city opn", True), ("city open", "city oppen", True),
    ("city open", "city oqen", True), ("city open 2025", "city open 2026", False), ("open", "opne", False),
    ("city open", "city closed", False), ("spring open", "spring cup", False),
    ("city open a", "city open b", False), ("city open 甲组", "city open 乙组", False)])  # sections (a reviewer)
def test_one_slip_apart(a: str, b: str, slip: bool) -> None:
    from recorder.store.resume import _one_slip_apart

    assert _one_slip_apart(a, b) is slip and _one_slip_apart(b, a) is slip


def test_details_typed_with_a_line_break_are_kept_on_one_line() -> None:
    # a player tester: `edit --red $'Line1\nLine2'` broke the PGN's tag and the sheet's name box
    from recorder.store.db import GameInfo

    info = GameInfo(red="Line1\nLine2", black=" 王天一\t", event="Spring  Open ")
    assert (info.red, info.black, info.event) == ("Line1 Line2", " 王天一 ", "Spring  Open ")


def test_a_damaged_row_leaves_the_rest_of_the_game_readable_and_its_move_put_back(tmp_path: Path) -> None:
    # a tester set one stored event to '{garbage': show, export and --resume all failed, the game's 30
    # moves unreachable
    from recorder.events import Alert, MoveRecorded
    from recorder.exports.pgn import export_pgn
    from recorder.scoresheet import rebuild
    from tests.exports.game_events import game_events

    moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]
    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        game_id = store.create_game("table.mp4")
        for event in game_events(moves):
            store.append(game_id, event)
        seq = next(seq for seq, event in store.events_after(game_id, 0)
                   if isinstance(event, MoveRecorded) and event.ply == 3)
        store.db.execute("UPDATE events SET data = '{garbage' WHERE game_id = ? AND seq = ?", (game_id, seq))
        store.db.commit()
        events = store.events(game_id)
    damaged = [e for e in events if isinstance(e, Alert) and e.kind == "record_damaged"]
    assert len(damaged) == 1 and f"event {seq}" in damaged[0].text
    assert rebuild(events).moves == moves  # the lost ply is the one move that leads on to ply 4's position
    assert "record_damaged" in export_pgn(events)
    # a reviewer: the latest move's row damaged made the store's list (its ply count is read from that
    # row) and the console fail; and rows read as 'others appended since' were not guarded
    from recorder.server.state import read_game_events

    with GameStore(db) as store:
        last = max(seq for seq, event in store.events_after(game_id, 0) if isinstance(event, MoveRecorded))
        store.db.execute("UPDATE events SET data = '[1, 2]' WHERE game_id = ? AND seq = ?", (game_id, last))
        store.db.commit()
        (row,) = store.games()
        assert row.plies == len(moves) - 1
        assert isinstance(store.events_after(game_id, last - 1)[0][1], Alert)
        stored = read_game_events(store.db, game_id)
    assert sum(isinstance(s.event, Alert) and s.event.kind == "record_damaged" for s in stored) == 2


@pytest.mark.parametrize(("field", "value"), [("red_ms", '"904652"'), ("ply", '"3"'), ("iccs", "null"),
                                            ("squares", '"e7"'), ("t", "true")])
def test_a_row_edited_by_hand_with_a_value_of_the_wrong_type_is_a_damaged_row(
        tmp_path: Path, field: str, value: str) -> None:
    # a tester quoted a time ("904652"), a ply, and nulled a move: show, export (the whole round's
    # too) and --resume failed with tracebacks, where a row that is not JSON was already read past
    from recorder.events import Alert, MoveRecorded
    from recorder.exports.pgn import export_pgn
    from recorder.scoresheet import rebuild
    from tests.exports.game_events import game_events

    moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]
    with GameStore(tmp_path / "g.sqlite3") as store:
        game_id = store.create_game("table.mp4")
        for event in [*game_events(moves), Alert(30.0, "board_disturbed", ("e7",), "5.9", "a piece off", 6)]:
            store.append(game_id, event)
        seq = max(seq for seq, event in store.events_after(game_id, 0)
                  if (isinstance(event, Alert) if field == "squares" else isinstance(event, MoveRecorded) and event.ply == 3))
        store.db.execute(f"UPDATE events SET data = json_set(data, '$.{field}', json('{value}')) "
                         "WHERE game_id = ? AND seq = ?", (game_id, seq))
        store.db.commit()
        events = store.events(game_id)
    (damaged,) = [e for e in events if isinstance(e, Alert) and e.kind == "record_damaged"]
    assert f"event {seq}" in damaged.text and f"'s {field} is" in damaged.text
    assert rebuild(events).moves == moves and "record_damaged" in export_pgn(events)
    assert all(isinstance(e.ply, int) for e in events if isinstance(e, MoveRecorded))


def test_two_damaged_move_rows_in_a_row_are_put_back_where_one_way_alone_fits(tmp_path: Path) -> None:
    # a tester damaged two move rows in a row: the export numbered the later moves two plies early
    # (black's as red's) and its PGN replayed into an illegal move
    from recorder.events import MoveRecorded
    from recorder.exports.pgn import export_pgn
    from recorder.scoresheet import rebuild
    from rules import read_pgn
    from tests.exports.game_events import game_events

    moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5"]
    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        game_id = store.create_game("table.mp4")
        for event in game_events(moves):
            store.append(game_id, event)
        lost = [seq for seq, event in store.events_after(game_id, 0)
                if isinstance(event, MoveRecorded) and event.ply in (4, 5)]
        for seq in lost:
            store.db.execute("UPDATE events SET data = '{garbage' WHERE game_id = ? AND seq = ?", (game_id, seq))
        store.db.commit()
        events = store.events(game_id)
    game = rebuild(events)
    assert game.moves == moves and [entry.ply for entry in game.plies] == list(range(1, len(moves) + 1))
    assert [move.iccs for move in read_pgn(export_pgn(events))[0].moves] == moves
    # three lost in a row are not searched for: the record keeps what it read
    assert len(rebuild([e for e in events if not (isinstance(e, MoveRecorded) and e.ply == 6)]).moves) < len(moves)


def test_a_store_on_read_only_media_is_read_and_not_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a tester's store on a read-only mount: games, show and export all failed "unable to open database file"
    import recorder.store.db as db_module
    from tests.exports.game_events import game_events

    db = tmp_path / "g.sqlite3"
    with GameStore(db) as store:
        game_id = store.create_game("table.mp4")
        for event in game_events(["h2e2", "h9g7"]):
            store.append(game_id, event)
    monkeypatch.setattr(db_module, "_on_read_only_media", lambda path: True)
    with GameStore(db, create=False) as store:
        assert store.read_only and [game.id for game in store.games()] == [game_id]
        assert len(store.events(game_id)) > 2
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.create_game("another.mp4")


def test_a_store_that_refuses_events_for_a_while_loses_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a tester's full disk stopped a recording at ply 9 of 30 for good; the events now wait and are
    # written, in order, once the store takes them again
    from recorder.store.resume import StoreRecording
    from tests.exports.game_events import game_events

    events = game_events(["h2e2", "h9g7", "h0g2", "i9h9"])
    with GameStore(tmp_path / "g.sqlite3") as store:
        recording = StoreRecording.open(store, "table.mp4")
        real_append = store.append
        full = [True]

        def append(game_id: int, event: object, **options: object) -> int:
            if full[0]:
                raise sqlite3.OperationalError("database or disk is full")
            return real_append(game_id, event, **options)  # type: ignore[arg-type]

        monkeypatch.setattr(store, "append", append)
        for event in events[:4]:
            recording.sink(event)
        assert len(recording.backlog) == 4 and recording.store_error == "database or disk is full"
        assert recording.events() == events[:4]  # what the exports are made from holds them all
        full[0] = False
        for event in events[4:]:
            recording.sink(event)
        assert not recording.backlog and not recording.store_error
        assert store.events(recording.game_id) == events


def test_a_store_that_refuses_a_write_is_put_right_as_its_error_says() -> None:
    # a tester's store, locked by a database browser, was told to free disk space
    from recorder.store.resume import store_remedy

    assert "close the program that holds it open" in store_remedy("database is locked")
    assert store_remedy("database or disk is full") == "free some space"
    assert "writable" in store_remedy("attempt to write a readonly database")
    assert store_remedy("disk I/O error") == "check the disk it is on"


def test_a_store_copied_without_its_write_ahead_file_says_what_was_left_behind(tmp_path: Path) -> None:
    # a tester copied a store after kill -9 (the main file only): it read as "an empty database"
    import shutil

    store = GameStore(tmp_path / "games.sqlite3")
    run = StoreRecording.open(store, "table.mp4")
    for event in game_events(OPENING[:4])[:-1]:
        run.sink(event)
    copy = tmp_path / "usb"
    copy.mkdir()
    shutil.copy(tmp_path / "games.sqlite3", copy / "games.sqlite3")  # while the recorder still holds it
    store.close()
    with pytest.raises(FileNotFoundError, match="the records may be in games.sqlite3-wal, which is not beside it"):
        GameStore(copy / "games.sqlite3", create=False)  # as games, show and export open it


def test_the_way_on_with_a_game_names_its_store_unless_it_is_the_default(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a tester pasted `xqrec record ... --resume 2` from a message and was told there is no game 2:
    # the game lived in the --db store the message had left out
    from recorder.store.db import default_db_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with GameStore(tmp_path / "round 3.sqlite3") as store:
        assert store.resume_option(2) == f"--resume 2 --db '{tmp_path / 'round 3.sqlite3'}'"
    default_db_path().parent.mkdir(parents=True)
    with GameStore(default_db_path()) as store:
        assert store.resume_option(2) == "--resume 2"


@pytest.mark.parametrize("how", ["removed", "replaced"])
def test_a_store_removed_while_recording_loses_no_game(tmp_path: Path, how: str) -> None:
    # a tester removed the store (and its -wal file) mid-game: SQLite wrote on into the file it held
    # open, the game vanished with the recorder, and the recorder said it was stored
    events = game_events(["h2e2", "h9g7", "h0g2", "i9h9"])
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store:
        earlier = store.create_game("earlier.mp4")  # another game the store held: kept too
        store.append(earlier, events[0])
        recording = StoreRecording.open(store, "table.mp4")
        for event in events[:3]:
            recording.sink(event)
        for leftover in tmp_path.glob("g.sqlite3*"):
            leftover.unlink()
        if how == "replaced":
            with GameStore(path) as other:  # another store put in its place
                other.create_game("other.mp4")
        assert store.lost() == ("removed" if how == "removed" else "replaced by another file")
        for event in events[3:]:
            recording.sink(event)
        assert not recording.backlog and store.lost() == ""
        assert (recording.store_moved, store.path == path) == ((False, True) if how == "removed" else (True, False))
        assert str(path) in recording.store_rescued
    with GameStore(store.path, create=False) as saved:  # a second process finds every event in the file
        assert saved.events(recording.game_id) == events
        assert saved.events(earlier) == events[:1]
    if how == "replaced":
        with GameStore(path, create=False) as other:
            assert [game.source for game in other.games()] == ["other.mp4"]


def test_recorders_rescuing_one_removed_store_write_over_none_and_a_gone_folder_goes_elsewhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a reviewer: three recorders on one store, removed; two rescued copies made in the same second
    # were one file, and one recorder's later events were lost without a word. And a folder removed
    # whole rescued nothing
    events = game_events(["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"])
    folder = tmp_path / "round"
    folder.mkdir()
    path = folder / "g.sqlite3"
    stores = [GameStore(path) for _ in range(3)]
    recordings = [StoreRecording.open(store, f"board{k}.mp4") for k, store in enumerate(stores)]
    for recording in recordings:
        for event in events[:3]:
            recording.sink(event)
    for leftover in folder.glob("g.sqlite3*"):
        leftover.unlink()
    for recording in recordings:
        for event in events[3:]:
            recording.sink(event)
    places = [store.path for store in stores]
    assert places[0] == path and len(set(places)) == 3  # written back once; each other one a copy of its own
    for store, recording in zip(stores, recordings, strict=True):
        store.close()
        with GameStore(store.path, create=False) as saved:
            assert saved.events(recording.game_id) == events
    # the folder removed whole: the working folder takes the copy
    elsewhere = tmp_path / "here"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    store = GameStore(folder / "h.sqlite3")
    recording = StoreRecording.open(store, "board9.mp4")
    recording.sink(events[0])
    import shutil

    shutil.rmtree(folder)
    for event in events[1:]:
        recording.sink(event)
    assert store.path is not None and store.path.parent == elsewhere and "its folder could not take it" in recording.store_rescued
    store.close()
    with GameStore(store.path, create=False) as saved:
        assert saved.events(recording.game_id) == events


def test_a_store_whose_main_file_alone_is_removed_while_another_program_holds_it_loses_no_event(
        tmp_path: Path) -> None:
    # a reviewer: `rm games.sqlite3` left the -wal and -shm a console still held; the copy written back
    # to the path took them up, its set-up failed after the old file was closed, and the recorder
    # stopped with half the game
    events = game_events(["h2e2", "h9g7", "h0g2", "i9h9"])
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store, GameStore(path) as console:
        recording = StoreRecording.open(store, "table.mp4")
        for event in events[:2]:
            recording.sink(event)
        console.games()  # (the console reads it: its connection holds the write-ahead files)
        path.unlink()
        assert Path(f"{path}-wal").exists()
        for event in events[2:]:
            recording.sink(event)
        assert not recording.backlog and store.path == path and "written back to it" in recording.store_rescued
        assert not list(tmp_path.glob(".*.partial*"))  # no half-written copy left behind
        with GameStore(path, create=False) as saved:  # (a console opening it anew reads the copy)
            assert saved.events(recording.game_id) == events


def test_a_store_whose_main_file_alone_is_removed_is_written_back_when_nothing_else_holds_it(tmp_path: Path) -> None:
    # a reviewer: with the recorder alone, its own write-ahead files had counted as another program's,
    # and the store went to a copy beside the path, with exit status 2
    events = game_events(["h2e2", "h9g7", "h0g2", "i9h9"])
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store:
        recording = StoreRecording.open(store, "table.mp4")
        for event in events[:2]:
            recording.sink(event)
        path.unlink()
        for event in events[2:]:
            recording.sink(event)
        assert store.path == path and not recording.store_moved and "written back to it" in recording.store_rescued
    with GameStore(path, create=False) as saved:
        assert saved.events(recording.game_id) == events
    assert not list(tmp_path.glob(".*"))


def test_a_rescue_on_a_file_system_without_hard_links_still_gives_the_copy_its_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    def no_links(*args: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    events = game_events(["h2e2", "h9g7", "h0g2", "i9h9"])
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store:
        recording = StoreRecording.open(store, "table.mp4")
        recording.sink(events[0])
        for leftover in tmp_path.glob("g.sqlite3*"):
            leftover.unlink()
        for event in events[1:]:
            recording.sink(event)
        assert store.path == path and not recording.backlog
    with GameStore(path, create=False) as saved:
        assert saved.events(recording.game_id) == events
