"""Crash safety: ``xqrec record --db`` killed with SIGKILL mid-game and run again loses and repeats nothing.

The quick test kills it at two seeded points; ``bench/bench_store.py`` (and the slow test) at 20.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

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
