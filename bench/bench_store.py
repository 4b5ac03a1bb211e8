"""Store figures: crash safety of ``xqrec record --db`` and the store/PGN round trip of the shared games.

* Crash test: the record command on ``tests/fixtures/game_short.mp4`` is killed with SIGKILL at 20
  seeded points (counted in stored events), run again, and the stored game compared with the truth
  (moves, ply numbers) and with an uninterrupted run (clock times). One line per kill point.
* Round trip: every game of ``../shared/data/games_iccs.txt`` is stored as an event log, read back,
  exported to PGN in ICCS, WXF and Chinese notation and read again; the figure is the number of games
  whose moves come back identical, and the time per game.
* Event commit rate: events per second committed one transaction each (WAL, synchronous=FULL).
"""

from __future__ import annotations

import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from recorder.exports.pgn import export_pgn  # noqa: E402
from recorder.scoresheet import rebuild  # noqa: E402
from recorder.store import GameInfo, GameStore  # noqa: E402
from rules import read_pgn  # noqa: E402
from tests.exports.game_events import game_events  # noqa: E402
from tests.store.crash import FIXTURES, crash_and_resume, full_run, truth_moves  # noqa: E402

SHARED = REPO.parent / "shared" / "data" / "games_iccs.txt"
KILLS = 20


def crash_figures(folder: Path) -> None:
    video = FIXTURES / "game_short.mp4"
    reference = full_run(video, folder / "reference.sqlite3")
    with sqlite3.connect(folder / "reference.sqlite3") as connection:
        total = int(connection.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    truth = truth_moves(video)
    points = sorted(random.Random(20).sample(range(1, total), KILLS))
    print(f"crash test: {video.name}, {len(truth)} plies, {total} events in an uninterrupted run; "
          f"{KILLS} SIGKILL points (seed 20)")
    good = 0
    for number, kill_at in enumerate(points):
        run = crash_and_resume(video, folder / f"crash-{number}.sqlite3", kill_at)
        same = run.game.moves == truth and [p.ply for p in run.game.plies] == list(range(1, len(truth) + 1))
        clocks = [p.clock_ms for p in run.game.plies] == [p.clock_ms for p in reference.plies]
        good += same and clocks and run.games == 1
        print(f"  kill at {kill_at:>3} events (landed at {run.killed_at:>3}, game {run.state_after_kill}): "
              f"moves {'ok' if same else 'DIFFER'}, clocks {'ok' if clocks else 'DIFFER'}, "
              f"games {run.games}, {run.seconds:.1f} s")
    print(f"crash test: {good}/{KILLS} resumed records equal the truth")


def round_trip_figures() -> None:
    lines = SHARED.read_text(encoding="utf-8").splitlines()
    store = GameStore(":memory:")
    same = 0
    started = time.perf_counter()
    for number, line in enumerate(lines):
        result, *moves = line.split()
        game = store.create_game(f"line-{number + 1}", GameInfo(event="CCPD"))
        for event in game_events(moves, seed=number, result=result):
            store.append(game, event)
        events = store.events(game)
        ok = rebuild(events).moves == moves
        for notation in ("iccs", "wxf", "chinese"):
            (back,) = read_pgn(export_pgn(events, None, notation))
            ok = ok and [m.iccs for m in back.moves] == moves and back.result == result
        same += ok
    spent = time.perf_counter() - started
    print(f"round trip: {same}/{len(lines)} shared games identical through the store and PGN (3 notations); "
          f"{1000 * spent / len(lines):.1f} ms per game")


def commit_rate(folder: Path) -> None:
    events = game_events(random.Random(1).choice(SHARED.read_text(encoding="utf-8").splitlines()).split()[1:])
    with GameStore(folder / "rate.sqlite3") as store:
        game = store.create_game("rate")
        started = time.perf_counter()
        for _ in range(5):
            for event in events:
                store.append(game, event)
        spent = time.perf_counter() - started
    print(f"commit rate: {5 * len(events) / spent:.0f} events/s, one durable transaction each "
          f"(WAL, synchronous=FULL, {folder})")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench_store_") as name:
        folder = Path(name)
        commit_rate(folder)
        round_trip_figures()
        crash_figures(folder)


if __name__ == "__main__":
    main()
