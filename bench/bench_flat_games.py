"""The recorder on games filmed by a second renderer: a look it was never trained or tuned on.

``bench.flat_boards.FlatGame`` films real games of ``../shared/data/games_iccs.txt`` (lines no other
benchmark uses) on a flat-drawn board with a flat arm and a clock press after each move, at 640x480,
800x600 and 1024x768 in turn. The frames go straight into a ``RecordingSession`` with the bundled
model, as a camera's would; the figures are scored as the recorder benchmark scores its videos
(``bench.bench_recorder.score``): moves right, games exactly right, alerts where there should be
none, the latency from the hand leaving to the move's event, and, in the ``--cases`` games, an
illegal move and a knocked piece each (lines 850 + 11 i), handled with the right alert.

``python -m bench.bench_flat_games --games 20 --cases 10 --plies 30`` (about 15 minutes on two cores,
most of it drawing); ``python -m bench flat`` runs a small set.
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import sys
import time
from typing import Any

from bench.bench_recorder import (
    ALERT_EVENTS,
    ALERT_LATE_S,
    GAMES,
    LATE_S,
    Tally,
    VideoSpec,
    _final_moves,
    score,
    spread,
)

SIZES = ((640, 480), (800, 600), (1024, 768))
SEED_BASE = 830_000


def _record(job: tuple[int, list[str], tuple[int, int], tuple[str, ...]]) -> dict[str, Any]:
    """Film and record one game; its events (as JSON), truth and timings."""
    import recorder  # noqa: F401  (sets the BLAS threads before numpy loads)
    from bench.flat_boards import FlatGame
    from recorder.clocklog_input import ClockPress
    from recorder.events import event_to_json
    from recorder.session import RecordingSession
    from recorder.sources import Frame
    from recorder.vision import PieceClassifier

    logging.getLogger("recorder").setLevel(logging.WARNING)
    index, moves, size, inject = job
    game = FlatGame(moves, SEED_BASE + index, size, inject=inject)
    presses = [ClockPress(t, side, red, black) for t, side, red, black in game.presses]
    session = RecordingSession(PieceClassifier(threads=1), presses=presses, source_name=f"flat-{index:03d}")
    wall = 0.0
    for frame_index, (t, image) in enumerate(game.frames()):
        started = time.perf_counter()
        session.feed(Frame(image, t, frame_index))
        wall += time.perf_counter() - started
    session.finish()
    truth = {"moves": list(moves), "plies": game.plies, "injections": game.injections, "fps": game.fps}
    return {"events": [event_to_json(e) for e in session.log.events], "truth": truth, "frames": session.frames,
            "wall": wall, "size": size}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench_flat_games", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games to film and record (default 4)")
    parser.add_argument("--plies", type=int, default=30, help="plies of each game (default 30)")
    parser.add_argument("--cases", type=int, default=2,
                        help="more games, each with an illegal move and a knocked piece (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="games recorded at once")
    args = parser.parse_args(sys.argv[1:] if argv is None and __name__ == "__main__" else (argv or []))
    lines = GAMES.read_text(encoding="utf-8").splitlines()
    jobs: list[tuple[int, list[str], tuple[int, int], tuple[str, ...]]]
    jobs = [(i, lines[500 + 17 * i].split()[1:][:args.plies], SIZES[i % len(SIZES)], ())
            for i in range(args.games)]
    jobs += [(100 + i, lines[850 + 11 * i].split()[1:][:args.plies], SIZES[i % len(SIZES)], ("illegal", "knock"))
             for i in range(args.cases)]
    tally = Tally()
    frames = 0
    wall = 0.0
    with multiprocessing.get_context("spawn").Pool(max(1, args.workers)) as pool:
        for index, result in enumerate(pool.imap(_record, jobs)):
            kind = "inject" if result["truth"]["injections"] else "clean"
            name = f"flat-{kind}-{index:03d} {result['size'][0]}x{result['size'][1]}"
            score(VideoSpec(name, 0, args.plies, 0), result, tally)
            frames += result["frames"]
            wall += result["wall"]
            alerts = [e for e in result["events"] if e["type"] in ALERT_EVENTS and e["kind"] != "glare"]
            print(f"  {name}: {len(_final_moves(result['events']))} moves recorded of {len(result['truth']['moves'])}, "
                  f"right {_final_moves(result['events']) == result['truth']['moves']}, alerts {len(alerts)}", flush=True)
    print(f"games filmed by a second renderer (flat boards): {tally.games}; moves right {tally.moves_right}/{tally.moves}; "
          f"games exactly right {tally.games_right}/{tally.games}")
    print(f"alerts in the games without a case (there should be none): {tally.false_alerts}; away from every "
          f"case in the others: {tally.stray_alerts}")
    for kind, (handled, total) in sorted(tally.cases.items()):
        print(f"  injected {kind:<8} handled {handled}/{total}")
    if tally.alert_latencies:
        print(f"alert latency (alert - faulty board first still, video s): {spread(tally.alert_latencies, ALERT_LATE_S)}")
    if tally.latencies:
        print(f"latency (move event - hand gone, video s): {spread(tally.latencies, LATE_S)}")
    print(f"recording alone: {frames} frames in {wall:.1f} s = {frames / max(wall, 1e-9):.0f} fps")
    for line in tally.misses[:30]:
        print("  miss:", line)


if __name__ == "__main__":
    logging.basicConfig(level=logging.WARNING)
    main()
