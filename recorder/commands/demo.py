"""``xqrec demo``: the recorder's main job on the bundled default game video.

``make demo`` renders the demo video once (a real master game from ``../shared/data`` filmed by
``synth`` with a few arbiter cases injected, into ``out/demo/``), then runs this command: it
records the video with its clock log through the same path as ``xqrec record``, keeps the
event log and the game in an embedded SQLite store when the store is available, and prints the
scoresheet next to the truth with the alerts raised against the cases that were injected.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from recorder.commands import command_name
from recorder.events import read_events
from recorder.scoresheet import RecordedGame, rebuild, scoresheet_text, side_by_side
from recorder.store.recording import pgn_time_control

DEMO_DIR = Path("out/demo")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help="record the bundled demo game video and compare it with the truth")
    parser.add_argument("--dir", type=Path, default=DEMO_DIR,
                        help="folder with game.mp4, game.clock.jsonl and game.truth.json (default out/demo; "
                             "`make demo` renders them)")
    parser.add_argument("--quiet", action="store_true", help="no live status lines while recording")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from recorder.cli import main as xqrec

    folder: Path = args.dir
    video, clock, truth_path = folder / "game.mp4", folder / "game.clock.jsonl", folder / "game.truth.json"
    for needed in (video, clock, truth_path):
        if not needed.exists():
            raise ValueError(f"{needed} is missing: run `make demo` (it renders the demo video first)")
    try:
        truth = json.loads(truth_path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"{truth_path}: not a truth file ({error}); make demo-video renders it again") from None
    if not isinstance(truth, dict) or not isinstance(truth.get("moves"), list):
        raise ValueError(f"{truth_path}: not a truth file (no list of moves); make demo-video renders it again")
    events_path, db = folder / "demo.events.jsonl", folder / "demo.sqlite3"
    events_path.unlink(missing_ok=True)
    # each run adds its game to the demo store: the file is never deleted, since a console
    # (`xqrec serve --db ...`) may have it open, and a store removed under an open connection can be damaged
    command = ["record", str(video), "--clock-log", str(clock), "--events", str(events_path),
               "--pgn", str(folder / "demo.pgn"), "--scoresheet", str(folder / "demo.scoresheet.txt"),
               "--notation", "chinese", "--db", str(db), "--new-game", "--event", "xqrec demo",
               "--round", str(_next_round(db)), "--board", "1", "--tc", pgn_time_control(truth.get("options", {}).get("time_control", "")),
               "--no-store-hint"]  # the demo names its store and PDF itself, below
    if args.quiet:
        command.append("--quiet")
    print(f"Recording {video} ({len(truth['moves'])} plies, {truth.get('duration_s', 0):.0f} s of video) ...\n")
    status = xqrec(command)
    if status != 0:
        print(f"xqrec demo: the demo video {video} could not be recorded to its end (a cut or damaged file?); "
              "make it again with `make demo-video`", file=sys.stderr)
        return status
    game = rebuild(read_events(events_path))
    if args.quiet:  # else the recording has just printed it
        print()
        print(scoresheet_text(game, title="Scoresheet as recorded (Chinese notation, art. 7.5)"))
    print()
    print("Recorded moves next to the truth:")
    print(side_by_side(game, list(truth["moves"]), truth.get("start_fen") or game.start_fen))
    print()
    print(_alerts_against_truth(game, truth.get("injections", [])))
    print(f"\nEvent log: {events_path}   PGN: {folder / 'demo.pgn'}   scoresheet: {folder / 'demo.scoresheet.txt'}")
    call = command_name()
    game_id = _latest_game(db)
    print(f"Game store: {db}, game {game_id}  (try: {call} games --db {db};  {call} export {game_id} --db {db} "
          f"--format pdf --out {folder / 'demo.pdf'})")
    return 0


def _latest_game(db: Path) -> int | str:
    """The id of the game the demo has just stored (the store's newest), or ``GAME`` without a store."""
    from recorder.store import GameStore

    if not db.exists():
        return "GAME"
    with GameStore(db, create=False) as store:
        games = store.games()
    return max((game.id for game in games), default="GAME")


def _next_round(db: Path) -> int:
    """The round this run files its game in: one after the demo games the store holds (each run is a
    round of its own, so a second run is not told that board 1 already has a finished game)."""
    if not db.exists():
        return 1
    from recorder.store import GameStore

    try:
        with GameStore(db, create=False) as store:
            return 1 + len(store.games(event="xqrec demo", void=None))
    except Exception:  # a damaged demo store: recording says so itself
        return 1


def _alerts_against_truth(game: RecordedGame, injected: list[dict[str, Any]]) -> str:
    """Each injected arbiter case with the alerts that answered it, and any alert nobody injected.

    An alert answers a case when it is of a kind the case expects and falls in the case's span
    of video time (a few seconds of grace for the still view that reveals it) or within a ply of it.
    """
    lines = ["Arbiter cases injected in the video and what the recorder raised:"]
    unmatched = list(game.alerts)
    for case in injected:
        wanted = set(case.get("alerts", []))
        start, end = case.get("t_start", 0.0) - 1.0, case.get("t_end", case.get("t_start", 0.0)) + 3.0
        hits = [a for a in unmatched if a.kind in wanted and (start <= a.t <= end or abs((a.ply or 0) - case["ply"]) <= 1)]
        for hit in hits:
            unmatched.remove(hit)
        if hits:
            more = f" (+{len(hits) - 1} more)" if len(hits) > 1 else ""
            lines.append(f"  ply {case['ply']:>3} {case['kind']:<13} -> {hits[0].kind}{more}: {hits[0].text}")
        else:
            lines.append(f"  ply {case['ply']:>3} {case['kind']:<13} -> MISSED (expected {', '.join(sorted(wanted))})")
    if not injected:
        lines.append("  (none injected)")
    for alert in [a for a in unmatched if a.kind == "glare"]:  # about the camera's view, not the game
        lines.append(f"  camera: {alert.text}")
        unmatched.remove(alert)
    for alert in unmatched:
        lines.append(f"  unexpected alert at ply {alert.ply}: {alert.kind}: {alert.text}")
    if not unmatched:
        lines.append("  no false alerts")
    return "\n".join(lines)


