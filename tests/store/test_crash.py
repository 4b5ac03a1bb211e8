"""Crash safety: ``xqrec record --db`` killed with SIGKILL mid-game and run again loses and repeats nothing.

The quick test kills it at two seeded points; ``bench/bench_store.py`` (and the slow test) at 20.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from rules.pgn import read_pgn
from tests.store.crash import FIXTURES, crash_and_resume, full_run, truth_moves

VIDEO = FIXTURES / "game_short.mp4"
pytestmark = pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")


def _kill_points(db: Path, count: int, seed: int) -> list[int]:
    with sqlite3.connect(db) as connection:
        total = int(connection.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    return sorted(random.Random(seed).sample(range(1, total), count))


def _check(tmp_path: Path, count: int, seed: int) -> None:
    reference_db = tmp_path / "reference.sqlite3"
    reference = full_run(VIDEO, reference_db)
    truth = truth_moves(VIDEO)
    assert reference.moves == truth
    for number, kill_at in enumerate(_kill_points(reference_db, count, seed)):
        run = crash_and_resume(VIDEO, tmp_path / f"crash-{number}.sqlite3", kill_at)
        assert run.games == 1, "the rerun must take up the open game, not start another"
        assert run.game.moves == truth, f"killed after {run.killed_at} events"
        assert [p.ply for p in run.game.plies] == list(range(1, len(truth) + 1))
        assert [p.clock_ms for p in run.game.plies] == [p.clock_ms for p in reference.plies]
        assert not run.game.corrected


def test_killed_twice_and_resumed(tmp_path: Path) -> None:
    _check(tmp_path, 2, seed=1)


@pytest.mark.slow
def test_killed_at_twenty_points_and_resumed(tmp_path: Path) -> None:
    _check(tmp_path, 20, seed=20)


@pytest.mark.parametrize("signum", ["SIGTERM", "SIGHUP"])
def test_a_recording_stopped_by_the_system_writes_its_pgn_and_stays_open(tmp_path: Path, signum: str) -> None:
    # `kill`, `systemctl stop` (SIGTERM) or a dropped SSH session (SIGHUP) end a recording as Ctrl-C
    # does: the PGN and scoresheet asked for hold the moves so far, and the game can be gone on with
    import os
    import signal
    import subprocess
    import time

    from recorder.events import MoveRecorded, RecordingStopped
    from recorder.store import GameStore
    from tests.store.crash import REPO, _env, _stored, command

    db, pgn, sheet = tmp_path / "games.sqlite3", tmp_path / "g.pgn", tmp_path / "g.txt"
    sent = getattr(signal, signum)
    # the recorder keeps a signal its parent ignored (`nohup xqrec record` ignores SIGHUP on purpose), so
    # a test run under nohup must give the child the signal's default disposition to test the handler
    child = subprocess.Popen(command(VIDEO, db) + ["--pgn", str(pgn), "--scoresheet", str(sheet)], cwd=REPO,
                             env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(sent, signal.SIG_DFL))
    started = time.monotonic()
    try:
        while child.poll() is None and _stored(db) < 12:  # a few moves in
            assert time.monotonic() - started < 300, "the recorder stored too little in 300 s"
            time.sleep(0.01)
        assert child.poll() is None, "the recording ended before it could be stopped"
        os.kill(child.pid, getattr(signal, signum))
        _, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 128 + sent, err  # the game is open: a script must not take it for a whole one
    if signum == "SIGTERM":  # after a hangup there is no terminal to tell
        assert f"stopped ({signum})" in err and "left open" in err
    with GameStore(db) as store:
        (game,) = store.games()
        # stopped on purpose, not lost: an arbiter read "interrupted" as a crash (the word the docs use for one)
        assert game.state == "stopped"
        events = store.events(game.id)
        plies = [e for e in events if isinstance(e, MoveRecorded)]
        assert [e.reason for e in events if isinstance(e, RecordingStopped)] == [f"stopped ({signum})"]
    assert plies and pgn.exists() and sheet.exists()
    (written,) = read_pgn(pgn.read_text(encoding="utf-8"))
    assert [m.iccs for m in written.moves][-1] == plies[-1].iccs


def test_a_recording_under_nohup_goes_on_through_a_hangup(tmp_path: Path) -> None:
    # `nohup xqrec record ... &` ignores SIGHUP on purpose: the recorder must not take it as a stop
    import os
    import signal
    import subprocess
    import time

    from recorder.store import GameStore
    from tests.store.crash import REPO, _env, _stored, command

    db = tmp_path / "games.sqlite3"

    def ignore_hangups() -> None:
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    child = subprocess.Popen(command(VIDEO, db), cwd=REPO, env=_env(), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, preexec_fn=ignore_hangups)  # noqa: PLW1509
    started = time.monotonic()
    try:
        while child.poll() is None and _stored(db) < 12:
            assert time.monotonic() - started < 300, "the recorder stored too little in 300 s"
            time.sleep(0.01)
        assert child.poll() is None, "the recording ended before the hangup"
        os.kill(child.pid, signal.SIGHUP)
        _, err = child.communicate(timeout=300)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 0, err
    with GameStore(db) as store:
        (game,) = store.games()
        assert game.state == "closed" and game.plies == len(truth_moves(VIDEO))  # recorded to the end
