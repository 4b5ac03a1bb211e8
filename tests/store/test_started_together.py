"""Recorders started at the same moment on one store (a round's launch script): the store is made
once, each board gets one game, and the loser of a race is told why (an organiser's tester: 5 of 9
launches on a new store lost a board to "table tournaments already exists")."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from recorder.store import GameInfo, GameStore
from recorder.store import migrations as store_migrations
from recorder.store.migrations import LATEST, migrate, schema_version
from recorder.store.resume import StoreRecording


def test_a_store_another_process_migrated_meanwhile_is_not_migrated_twice(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "new.sqlite3"
    first = sqlite3.connect(path, isolation_level=None)
    second = sqlite3.connect(path, isolation_level=None, timeout=10.0)
    calls = {"n": 0}
    real = store_migrations.schema_version

    def stale_first_look(connection: sqlite3.Connection) -> int:
        calls["n"] += 1
        if calls["n"] == 1:  # the second recorder looked before the first made the store
            migrate(first, path)
            return 0
        return real(connection)

    monkeypatch.setattr(store_migrations, "schema_version", stale_first_look)
    assert migrate(second, path) == []  # it saw the store made under the write lock: nothing to do again
    monkeypatch.undo()
    assert schema_version(second) == LATEST
    assert not list(tmp_path.glob("*.bak"))  # and no backup of a store that was never older


def _record_board(path: str, board: int, start: multiprocessing.synchronize.Barrier, out: multiprocessing.Queue) -> None:
    start.wait(timeout=30)
    try:
        store = GameStore(Path(path))
        recording = StoreRecording.open(store, f"cam{board}-{multiprocessing.current_process().pid}",
                                        GameInfo(event="Open", round="4", board=board))
        out.put(("game", recording.game_id))
        start.wait(timeout=30)  # every recorder holds its board until all have tried
    except ValueError as refused:
        out.put(("refused", str(refused)))
        start.wait(timeout=30)
    except Exception as error:  # noqa: BLE001 - the test reports what broke
        import traceback

        out.put(("error", f"{type(error).__name__}: {error} {traceback.format_exc()[-600:]}"))
        start.wait(timeout=30)


@pytest.mark.parametrize("boards", [[1, 2, 3, 4], [1, 1, 1]])
def test_recorders_started_together_each_get_their_board_or_a_reason(tmp_path: Path, boards: list[int]) -> None:
    path = tmp_path / "round4.sqlite3"
    context = multiprocessing.get_context("fork")
    start = context.Barrier(len(boards))
    out: multiprocessing.Queue = context.Queue()
    workers = [context.Process(target=_record_board, args=(str(path), board, start, out), daemon=True)
               for board in boards]  # daemons: a recorder that hangs fails the test, not the whole run
    for worker in workers:
        worker.start()
    results = [out.get(timeout=60) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    assert not [text for kind, text in results if kind == "error"], results
    games = [text for kind, text in results if kind == "game"]
    assert len(games) == len(set(boards)), results  # one game a board
    assert all("is being recorded now" in text for kind, text in results if kind == "refused")
    with GameStore(path) as store:
        assert sorted(game.info.board or 0 for game in store.games()) == sorted(set(boards))
        assert schema_version(store.db) == LATEST
    assert not list(tmp_path.glob("*.bak"))
