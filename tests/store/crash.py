"""Kill ``xqrec record --db`` with SIGKILL at chosen points of a recorded game, run it again, and compare.

Shared by the quick crash test and ``bench/bench_store.py``: :func:`crash_and_resume` runs the
record command on a fixture video as a subprocess, watches the store until it holds ``kill_at``
events, kills it (SIGKILL), then runs the same command again to the end and returns the game as
the store has it.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from recorder.scoresheet import RecordedGame
from recorder.store import GameStore

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"


@dataclass
class CrashRun:
    """One kill-and-resume: where it was killed (events stored), the game and how long it took."""

    kill_at: int
    killed_at: int  # events stored when the kill landed (the child runs on while we poll)
    game: RecordedGame
    games: int  # games in the store (1: the rerun resumed the open game)
    state_after_kill: str
    seconds: float


def command(video: Path, db: Path) -> list[str]:
    truth = video.with_suffix(".truth.json")
    clock = video.with_suffix(".clock.jsonl")
    return [sys.executable, "-m", "tests.store.crash_runner", "--truth", str(truth), "record", str(video),
            "--clock-log", str(clock), "--db", str(db), "--quiet", "--board", "1", "--round", "1",
            "--event", "crash test"]


def _stored(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1.0) as connection:
            return int(connection.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    except sqlite3.Error:
        return 0


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("OMP_NUM_THREADS", "1")
    return env


def full_run(video: Path, db: Path) -> RecordedGame:
    """The record command to the end without a crash (the reference)."""
    subprocess.run(command(video, db), check=True, cwd=REPO, env=_env(), capture_output=True, timeout=600)
    with GameStore(db) as store:
        (game,) = store.games()
        return _game(store, game.id)


def _game(store: GameStore, game_id: int) -> RecordedGame:
    from recorder.scoresheet import rebuild

    return rebuild(store.events(game_id))


def crash_and_resume(video: Path, db: Path, kill_at: int, timeout_s: float = 300.0) -> CrashRun:
    """Kill the recorder once it stored ``kill_at`` events, run it again, return the stored game."""
    started = time.monotonic()
    child = subprocess.Popen(command(video, db), cwd=REPO, env=_env(), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        while child.poll() is None and _stored(db) < kill_at:
            if time.monotonic() - started > timeout_s:
                raise TimeoutError(f"the recorder stored fewer than {kill_at} events in {timeout_s:.0f} s")
            time.sleep(0.01)
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait()
    killed_at = _stored(db)
    with GameStore(db) as store:
        state = store.games()[-1].state
    rerun = subprocess.run(command(video, db), cwd=REPO, env=_env(), capture_output=True, text=True, timeout=600)
    if rerun.returncode != 0:
        raise RuntimeError(f"the rerun failed ({rerun.returncode}): {rerun.stderr[-2000:]}")
    with GameStore(db) as store:
        games = store.games()
        game = _game(store, games[-1].id)
    return CrashRun(kill_at, killed_at, game, len(games), state, time.monotonic() - started)


def truth_moves(video: Path) -> list[str]:
    return list(json.loads(video.with_suffix(".truth.json").read_text(encoding="utf-8"))["moves"])
