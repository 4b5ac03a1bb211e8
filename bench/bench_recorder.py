"""Recorder figures on rendered game videos: moves right, false alerts, injected cases, latency, throughput.

Videos are rendered by ``synth`` from real games of ``../shared/data/games_iccs.txt`` with the
``test`` style split and seeds from 700000 up, once, into ``out/bench/videos/`` (rendering is the
slow part; later runs reuse the files). Those seeds were not used while the recorder was first
built, but every change since has been measured on them; ``--seed-base`` (say 900000) renders a
fresh set no change was tuned against. Two sets:

- clean games (``--games``, first ``--plies`` plies of each): every move must be recorded right,
  with no alert about the game at all (a ``glare`` warning is about the camera's view, not the
  game: it is counted apart, with the points it names); latency is the video time from the hand
  leaving (truth ``t_complete``) to the move's event;
- injected games (``--cases``): each video carries one case of every kind (illegal, wrong_side,
  knock, restore, quick_pair, press_no_move, no_press); a case counts as handled when the event
  log holds an alert of each expected kind near it and the final record equals the truth. For the
  cases a still board shows (illegal, wrong side, knock, restore) the alert's latency is measured from
  the first still frame of the faulty board (truth ``t_seen``/``frame_seen``): the issue asks for
  alerts within a second. Clock alerts wait for the press by design (``ClockBook.grace_s``).

Early presses (``--early``, on by default): each clean game is recorded a second time with its clock
log changed so that the mover of one ply in the game's middle presses the clock 0.8 s before
the hand comes for the move and not again after it (art. 8.1.7: the clock pressed before moving; the
clock then shows the right side running, so only the board's timing tells). Handled when a
``press_without_move`` names that side near the ply, every move is right and nothing else is alerted.

Throughput: ``--boards`` recorders run at once in separate processes pinned to ``--cores`` cores,
each on its own video as fast as it can; real time at 10 fps means every one keeps above 10 fps.

A steep camera (``--tilt DEG``): every video's camera is tilted DEG degrees from overhead (the
rendered looks tilt up to 25), as a camera on a tripod beside the table; the videos are a set of
their own (named ``t<DEG>-...``); give them the camera lines the README asks for (``--width 1280
--height 720``), since the far ranks shrink.

A shaking camera (``--shake PX``): every frame is moved by up to PX pixels each way (uniform, seeded
by the video) and JPEG-compressed again before the recorder sees it, as a camera on a stand that a
table shakes; the figures are then those of the shaken set, scored against the same truth.

The classifier is the bundled ONNX model; with ``--oracle`` (or when no model exists) a truth
stand-in replaces it, which measures everything but vision.

``python -m bench.bench_recorder --games 50 --cases 50`` gives the issue's figures (rendering takes
hours on two cores); ``python -m bench recorder`` runs a small set.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import multiprocessing
import os
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT.parent / "shared" / "data" / "games_iccs.txt"
VIDEOS = ROOT / "out" / "bench" / "videos"
SEED_BASE = 700000
GAME_LINES = 2998  # games in GAMES
INJECT_KINDS = ("illegal", "wrong_side", "knock", "restore", "quick_pair", "press_no_move", "no_press")
EXPECTED = {  # alert kinds each case must raise near it (quick_pair: see ``score``)
    "illegal": ("illegal_move",), "wrong_side": ("wrong_side",), "knock": ("board_disturbed",),
    "restore": ("illegal_move", "position_restored"), "quick_pair": ("two_moves",),
    "press_no_move": ("press_without_move",), "no_press": ("move_without_press",),
}
LATE_S = 0.5  # a move logged later than this after the hand left misses the target
ALERT_LATE_S = 1.0  # an alert later than this after the faulty board is first still misses the target
SEEN_ALERT = {  # the alert that must follow a case's faulty board once it is still (the clock's wait by design)
    "illegal": "illegal_move", "wrong_side": "wrong_side", "knock": "board_disturbed", "restore": "illegal_move",
}
ALERT_AFTER_S = 8.0  # an alert may come this long after a case's end (the clock grace)
MOVE_EVENTS = ("MoveRecorded", "MoveCorrected")  # a correction (by the recorder or the arbiter) is a move logged
ALERT_EVENTS = ("IllegalMoveAlert", "BoardDisturbed", "ClockAlert", "TwoMovesSeen")  # what calls the arbiter

log = logging.getLogger("bench.recorder")


@dataclass(frozen=True)
class VideoSpec:
    name: str
    line: int  # 0-based line of games_iccs.txt
    plies: int
    seed: int
    inject: tuple[str, ...] = ()
    tilt_deg: float | None = None  # the camera's tilt from overhead, where not the look's own

    def path(self, suffix: str) -> Path:
        return VIDEOS / f"{self.name}{suffix}"


def plan(games: int, cases: int, plies: int, seed_base: int = SEED_BASE,
         tilt_deg: float | None = None) -> tuple[list[VideoSpec], list[VideoSpec]]:
    """The clean and injected video sets (deterministic: same arguments, same videos).

    Another ``seed_base`` than the standing set's gives a fresh set: other looks, cameras, hands
    and games (lines shifted), in videos named ``s<seed_base>-...``, for figures on videos no
    change was ever tuned against (the standing set has been recorded at every change since).
    ``tilt_deg`` sets every camera's tilt from overhead (videos named ``t<DEG>-...``)."""
    prefix, shift = ("", 0) if seed_base == SEED_BASE else (f"s{seed_base}-", seed_base * 7919)
    if tilt_deg is not None:
        prefix = f"t{tilt_deg:g}-{prefix}"
    clean = [VideoSpec(f"{prefix}clean-{i:03d}-p{plies}", (1000 + 37 * i + shift) % GAME_LINES, plies, seed_base + i,
                       tilt_deg=tilt_deg) for i in range(games)]
    injected = []
    for i in range(cases):  # the plies of the cases are drawn by synth from the seed
        line = 2000 + 41 * i if i < 24 else 11 + 19 * (i - 24)  # past the file's end: lines below the clean set's
        injected.append(VideoSpec(f"{prefix}inject-{i:03d}", (line + shift) % GAME_LINES, 26, seed_base + 5000 + i,
                                  INJECT_KINDS, tilt_deg))
    return clean, injected


def render(spec: VideoSpec, width: int, height: int) -> float:
    """Render ``spec`` unless its files exist; returns the seconds spent."""
    if spec.path(".truth.json").exists() and spec.path(".mp4").exists():
        return 0.0
    from synth.video import render_game
    from synth.video_scene import RenderedScene, video_style

    moves = GAMES.read_text(encoding="utf-8").splitlines()[spec.line].split()[1:][:spec.plies]
    started = time.perf_counter()
    VIDEOS.mkdir(parents=True, exist_ok=True)
    scene = None
    if spec.tilt_deg is not None:  # the look drawn from the seed as ever, its camera tilted
        style = replace(video_style(spec.seed, width, height, "test"), tilt_deg=spec.tilt_deg)
        scene = RenderedScene(style, spec.seed)
    render_game(moves, spec.seed, out=spec.path(".mp4"), truth_path=spec.path(".tmp.json"),
                clock_path=spec.path(".clock.jsonl"), inject=spec.inject, width=width, height=height, split="test",
                scene=scene)
    spec.path(".tmp.json").rename(spec.path(".truth.json"))  # the truth last: a complete set
    return time.perf_counter() - started


def videos_digest(specs: list[VideoSpec]) -> str:
    """A short digest of the videos' rendered frames (each truth file's ``frames_sha256``): figures are
    comparable only on the same renders, and the same seeds rendered again in a fresh checkout
    (session 40) gave other videos in places and other figures from unchanged code."""
    digest = hashlib.sha256()
    for spec in specs:
        truth = json.loads(spec.path(".truth.json").read_text(encoding="utf-8"))
        digest.update(f"{spec.name}:{truth.get('frames_sha256', '')}\n".encode())
    return digest.hexdigest()[:12]


def _classifier(oracle: bool, truth: dict[str, Any]) -> Any:
    if not oracle:
        from recorder.vision import PieceClassifier

        return PieceClassifier(threads=1)
    sys.path.insert(0, str(ROOT))
    from tests.recorder.oracle import OracleClassifier

    return OracleClassifier(truth)


def _record_one(job: tuple[VideoSpec, bool, list[Any] | None, float]) -> dict[str, Any]:
    logging.getLogger("recorder").setLevel(logging.WARNING)
    return record(*job)


def shaken(image: np.ndarray, rng: np.random.Generator, pixels: float) -> np.ndarray:
    """``image`` as a camera on a shaking stand takes it: the whole picture moved by up to ``pixels``
    each way (uniform, sub-pixel), then compressed again (JPEG 90: the codec sees the shaken frame)."""
    dx, dy = rng.uniform(-pixels, pixels, 2)
    move = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy]], dtype=np.float32)
    moved = cv2.warpAffine(image, move, (image.shape[1], image.shape[0]), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    ok, encoded = cv2.imencode(".jpg", moved, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR)) if ok else np.asarray(moved)


EARLY_LEAD_S = 0.8  # the early press comes this long before the mover's hand


def early_press(spec: VideoSpec) -> tuple[list[Any], dict[str, Any]] | None:
    """A clean game's presses with one made before its move and none after (see the module doc),
    and the case (ply, side, times); None when the game has no ply with room for it."""
    from recorder.clocklog_input import ClockPress, read_clock_log

    truth = json.loads(spec.path(".truth.json").read_text(encoding="utf-8"))
    presses = read_clock_log(spec.path(".clock.jsonl"))
    hands = {h["purpose"]: h["frame_first"] / truth["fps"] for h in truth["hands"]}
    plies = truth["plies"]
    middle = plies[8:-3]
    for k in range(len(middle)):
        ply = middle[(spec.seed + k) % len(middle)]
        before = plies[ply["ply"] - 2]
        arrive = hands.get(f"ply {ply['ply']}")
        if arrive is None or ply["press_t"] is None or before["press_t"] is None:
            continue
        t = round(arrive - EARLY_LEAD_S, 3)
        if t < before["press_t"] + 0.5:  # no room between the last press and the hand
            continue
        own = next(p for p in presses if abs(p.t - ply["press_t"]) < 1e-6)
        kept = [p for p in presses if p is not own] + [ClockPress(t, own.side, own.red_ms, own.black_ms)]
        case = {"kind": "early_press", "ply": ply["ply"], "side": ply["side"], "t_press": t,
                "t_start": t, "t_end": ply["t_complete"]}
        return sorted(kept, key=lambda p: p.t), case
    return None


def score_early(spec: VideoSpec, result: dict[str, Any], case: dict[str, Any], tally: Tally) -> None:
    """Add one early-press recording to ``tally.cases['early_press']`` (see the module doc)."""
    events, want = result["events"], result["truth"]["moves"]
    raised = [e for e in events if e["type"] in ALERT_EVENTS and e["kind"] != "glare"]
    lo, hi = case["t_start"] - 0.5, case["t_end"] + ALERT_AFTER_S
    found = [e for e in raised if e["kind"] == "press_without_move" and e.get("side") == case["side"]
             and lo <= e["t"] <= hi]
    others = [e for e in raised if e not in found[:1]]
    entry = tally.cases.setdefault("early_press", [0, 0])
    entry[1] += 1
    right = _final_moves(events) == want
    entry[0] += int(bool(found) and right and not others)
    tally.early_others += len(others)
    if not found:
        tally.misses.append(f"{spec.name} (early press): ply {case['ply']} by {case['side']} pressed at "
                            f"{case['t_press']} s not flagged")
    if not right:
        tally.misses.append(f"{spec.name} (early press): the record differs from the truth")
    for e in others[:3]:
        tally.misses.append(f"{spec.name} (early press): other alert at {e['t']}: {e['kind']} {e.get('text', '')[:120]}")


def _tally_one(spec: VideoSpec, result: dict[str, Any], tally: Tally, rows: Any, stage: dict[str, float],
               frames: int, wall: float) -> tuple[int, float]:
    """Score one recorded video, write its row; returns the running (frames, wall)."""
    misses_before = len(tally.misses)
    score(spec, result, tally)
    rows.write(json.dumps({"video": spec.name, "seed": spec.seed, "line": spec.line + 1, "inject": spec.inject,
                           "frames": result["frames"], "wall_s": round(result["wall"], 2),
                           "moves_truth": len(result["truth"]["moves"]),
                           "moves_recorded": _final_moves(result["events"]),
                           "right": _final_moves(result["events"]) == result["truth"]["moves"],
                           "problems": tally.misses[misses_before:],
                           "timings_ms": {k: round(v, 1) for k, v in result["timings"].items()}},
                          ensure_ascii=False) + "\n")
    for k, v in result["timings"].items():
        stage[k] = stage.get(k, 0.0) + v
    return frames + result["frames"], wall + result["wall"]


def model_available() -> bool:
    from recorder.vision import DEFAULT_MODEL

    return DEFAULT_MODEL.exists() and DEFAULT_MODEL.with_suffix(".json").exists()


def record(spec: VideoSpec, oracle: bool, presses: list[Any] | None = None, shake: float = 0.0) -> dict[str, Any]:
    """Record one video (with ``presses`` instead of its clock log when given; its frames
    :func:`shaken` by up to ``shake`` pixels when that is above 0); returns its events (as JSON
    dicts), frames, wall and stage timings."""
    from recorder.clocklog_input import read_clock_log
    from recorder.events import event_to_json
    from recorder.session import RecordingSession
    from recorder.sources import Frame, open_source

    truth = json.loads(spec.path(".truth.json").read_text(encoding="utf-8"))
    classifier = _classifier(oracle, truth)
    if presses is None:
        presses = read_clock_log(spec.path(".clock.jsonl"))
    session = RecordingSession(classifier, presses=presses, source_name=spec.name)
    rng = np.random.default_rng(spec.seed)
    started = time.perf_counter()
    for item in open_source(str(spec.path(".mp4"))):
        if oracle and isinstance(item, Frame):
            classifier.frame = item.index
        if shake > 0 and isinstance(item, Frame):
            item = replace(item, image=shaken(item.image, rng, shake))
        session.feed(item)
    session.finish()
    wall = time.perf_counter() - started
    return {"events": [event_to_json(e) for e in session.log.events], "frames": session.frames, "wall": wall,
            "timings": session.timings, "truth": truth}


@dataclass
class Tally:
    moves: int = 0
    moves_right: int = 0
    games: int = 0
    games_right: int = 0
    false_alerts: int = 0
    stray_alerts: int = 0  # in videos with injected cases, alerts outside every case's window
    glare_warnings: list[str] = field(default_factory=list)  # "video: points" of each glare warning
    latencies: list[float] = field(default_factory=list)
    alert_latencies: list[float] = field(default_factory=list)  # alert - faulty board first still (video s)
    cases: dict[str, list[int]] = field(default_factory=dict)  # kind -> [handled, total]
    misses: list[str] = field(default_factory=list)
    pairs_seen: int = 0  # quick pairs recorded from one still view (the others were seen apart)
    early_others: int = 0  # alerts other than the early press's own in the early-press recordings
    first_wrong: int = 0  # moves first recorded as another move than the truth's (a later view may correct them)
    first_wrong_flagged: int = 0  # of those, recorded with the true move among their rivals ("not ruled out")
    flagged: int = 0  # moves recorded with rivals


def spread(values: list[float], late: float) -> str:
    """"median, p95, max; over ``late``: n/N" of latencies in seconds."""
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    over = sum(1 for x in ordered if x > late)
    return (f"median {statistics.median(ordered):.2f}, p95 {p95:.2f}, max {ordered[-1]:.2f}; "
            f"over {late:g} s: {over}/{len(ordered)}")


def _final_moves(events: list[dict[str, Any]]) -> list[str]:
    moves: list[str] = []
    for e in events:
        if e["type"] in MOVE_EVENTS:
            del moves[e["ply"] - 1:]
            moves.append(e["iccs"])
        elif e["type"] == "PositionRestored":
            del moves[e["ply"]:]
    return moves


def score(spec: VideoSpec, result: dict[str, Any], tally: Tally) -> None:
    """Add one recorded video's figures to ``tally``."""
    truth, events = result["truth"], result["events"]
    want = truth["moves"]
    got = _final_moves(events)
    tally.games += 1
    tally.moves += len(want)
    tally.moves_right += sum(1 for a, b in zip(want, got, strict=False) if a == b)
    if got == want:
        tally.games_right += 1
    else:
        tally.misses.append(f"{spec.name}: recorded {len(got)} moves, truth {len(want)}; first difference at ply "
                            f"{next((i + 1 for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b), min(len(want), len(got)) + 1)}")
    recorded: dict[tuple[int, str], float] = {}
    for e in events:
        if e["type"] in MOVE_EVENTS:  # when the move was first logged: a take-back put right logs it again
            recorded.setdefault((e["ply"], e["iccs"]), e["t"])
    truth_at = {p["ply"]: p["iccs"] for p in truth["plies"]}
    first_read: dict[int, dict[str, Any]] = {}
    for e in events:  # each ply's first recording, kept until a take-back or restore removes it
        if e["type"] == "PositionRestored":
            first_read = {ply: f for ply, f in first_read.items() if ply <= e["ply"]}
        elif e["type"] == "MoveRecorded":
            first_read.setdefault(e["ply"], e)
            tally.flagged += int(bool(e.get("rivals")))
    for ply, e in first_read.items():
        if ply in truth_at and e["iccs"] != truth_at[ply]:
            tally.first_wrong += 1
            tally.first_wrong_flagged += int(truth_at[ply] in e.get("rivals", []))
    pair_plies = {p for inj in truth["injections"] if inj["kind"] == "quick_pair" for p in (inj["ply"], inj["ply"] + 1)}
    for p in truth["plies"]:
        t = recorded.get((p["ply"], p["iccs"]))
        if t is not None and p["ply"] not in pair_plies:
            tally.latencies.append(t - p["t_complete"])
            if t - p["t_complete"] > LATE_S:
                tally.misses.append(f"{spec.name}: ply {p['ply']} {p['iccs']} logged {t - p['t_complete']:.2f} s "
                                    f"after the hand left (target {LATE_S} s)")
    alerts = [e for e in events if "kind" in e]  # alerts and restorations
    tally.glare_warnings += [f"{spec.name}: {' '.join(e['squares'])}" for e in alerts if e["kind"] == "glare"]
    raised = [e for e in events if e["type"] in ALERT_EVENTS and e["kind"] != "glare"]
    if not truth["injections"]:
        tally.false_alerts += len(raised)
        for e in raised[:3]:
            tally.misses.append(f"{spec.name}: false alert at {e['t']}: {e['kind']} {e.get('text', '')[:120]}")
        return
    windows = [(inj["t_start"] - 0.5, inj["t_end"] + ALERT_AFTER_S) for inj in truth["injections"]]
    stray = [e for e in raised if not any(lo <= e["t"] <= hi for lo, hi in windows)]
    tally.stray_alerts += len(stray)
    for e in stray[:3]:
        tally.misses.append(f"{spec.name}: alert away from every injected case at {e['t']}: {e['kind']} "
                            f"{e.get('text', '')[:120]}")
    for inj in truth["injections"]:
        lo, hi = inj["t_start"] - 0.5, inj["t_end"] + ALERT_AFTER_S
        kinds = {e["kind"] for e in alerts if lo <= e["t"] <= hi}
        expected = EXPECTED[inj["kind"]]
        handled = all(k in kinds for k in expected)
        if inj["kind"] == "quick_pair":
            # handled when both moves are in the record, in order, whether they were seen as a pair
            # (two_moves) or apart (the board was still and clear for a moment between the hands)
            plies = {(e["ply"], e["iccs"]) for e in events if e["type"] in MOVE_EVENTS}
            handled = all((inj["ply"] + k, m) in plies for k, m in enumerate(inj["squares"]))
            tally.pairs_seen += int("two_moves" in kinds)
        if handled and inj["kind"] in SEEN_ALERT:
            seen = inj["t_seen"] if "t_seen" in inj else inj["frame_seen"] / truth["fps"]
            # an alert of the kind from before the faulty board was still belongs to another case
            first = min((e["t"] for e in alerts if max(lo, seen - 0.5) <= e["t"] <= hi
                         and e["kind"] == SEEN_ALERT[inj["kind"]]), default=None)
            if first is not None:
                tally.alert_latencies.append(first - seen)
            if first is not None and first - seen > ALERT_LATE_S:
                tally.misses.append(f"{spec.name}: {inj['kind']}@{inj['ply']} alerted {first - seen:.2f} s after the "
                                    f"board was still (target {ALERT_LATE_S} s)")
        entry = tally.cases.setdefault(inj["kind"], [0, 0])
        entry[1] += 1
        entry[0] += int(handled)
        if not handled:
            tally.misses.append(f"{spec.name}: {inj['kind']}@{inj['ply']} expected {expected}, saw {sorted(kinds)}")


def _worker(args: tuple[VideoSpec, bool, int]) -> tuple[str, int, float]:
    spec, oracle, cores = args
    if hasattr(os, "sched_setaffinity"):
        available = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, set(available[:cores]))
    result = record(spec, oracle)
    return spec.name, result["frames"], result["wall"]


def throughput(specs: list[VideoSpec], oracle: bool, boards: int, cores: int) -> list[tuple[str, int, float]]:
    """Record ``boards`` videos at once on ``cores`` cores; (name, frames, wall seconds) each."""
    chosen = (specs * boards)[:boards]
    with multiprocessing.get_context("spawn").Pool(boards) as pool:
        return pool.map(_worker, [(s, oracle, cores) for s in chosen])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench_recorder", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4, help="clean games (default 4; the target is 50)")
    parser.add_argument("--cases", type=int, default=2, help="injected videos, one case of each kind each (target 50)")
    parser.add_argument("--plies", type=int, default=30, help="plies of each clean game (default 30)")
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=360)
    parser.add_argument("--oracle", action="store_true", help="use the truth stand-in instead of the model")
    parser.add_argument("--boards", type=int, default=4, help="recorders run at once for the throughput figure")
    parser.add_argument("--cores", type=int, default=2, help="cores they share")
    parser.add_argument("--render-only", action="store_true", help="render the videos and stop")
    parser.add_argument("--no-render", action="store_true", help="use only the videos already rendered")
    parser.add_argument("--no-throughput", action="store_true")
    parser.add_argument("--workers", type=int, default=2, help="videos recorded at once for the accuracy figures")
    parser.add_argument("--no-early", action="store_true", help="skip recording the clean games again with an early press")
    parser.add_argument("--seed-base", type=int, default=SEED_BASE,
                        help=f"seeds of the videos (default {SEED_BASE}, the standing set); another gives a fresh set")
    parser.add_argument("--tilt", type=float, default=None, metavar="DEG",
                        help="tilt every camera DEG degrees from overhead (a set of its own, t<DEG>-...; the looks "
                             "tilt up to 25); give it --width 1280 --height 720")
    parser.add_argument("--shake", type=float, default=0.0, metavar="PX",
                        help="shake each frame by up to PX pixels each way, as a camera on a shaking stand (default 0)")
    args = parser.parse_args(sys.argv[1:] if argv is None and __name__ == "__main__" else (argv or []))
    logging.getLogger("recorder").setLevel(logging.WARNING)
    if args.tilt is not None and not 0 <= args.tilt <= 75:
        parser.error("--tilt must be from 0 to 75 degrees (what the renderer can draw)")
    clean, injected = plan(args.games, args.cases, args.plies, args.seed_base, args.tilt)
    order = [s for pair in zip(clean, injected, strict=False) for s in pair]
    order += clean[len(injected):] + injected[len(clean):]
    spent = 0.0
    for spec in order:
        if args.no_render:
            break
        try:
            spent += render(spec, args.width, args.height)
        except ValueError as error:  # a game that cannot carry a case: left out, and said so
            print(f"not rendered: {spec.name}: {error}")
    clean = [s for s in clean if s.path(".truth.json").exists()]
    injected = [s for s in injected if s.path(".truth.json").exists()]
    print(f"videos: {len(clean)} clean ({args.plies} plies), {len(injected)} injected; rendered now in {spent:.0f} s; "
          f"frames digest {videos_digest([*clean, *injected])}", flush=True)
    if args.render_only:
        return
    oracle = args.oracle or not model_available()
    print("classifier:", "ORACLE (truth stand-in: vision not measured)" if oracle else "models/piece_classifier.onnx")
    if args.shake > 0:
        print(f"frames shaken by up to {args.shake:g} px each way (a camera on a shaking stand), JPEG 90 again")
    tally = Tally()
    frames = 0
    wall = 0.0
    stage: dict[str, float] = {}
    rows_path = VIDEOS.parent / "recorder_rows.jsonl"
    rows = rows_path.open("w", encoding="utf-8")
    specs = clean + injected
    early = [] if args.no_early else [(spec, made) for spec in clean for made in [early_press(spec)] if made]
    with multiprocessing.get_context("spawn").Pool(max(1, args.workers)) as pool:
        results = pool.imap(_record_one, [(spec, oracle, None, args.shake) for spec in specs])
        for spec, result in zip(specs, results, strict=True):
            frames, wall = _tally_one(spec, result, tally, rows, stage, frames, wall)
        results = pool.imap(_record_one, [(spec, oracle, made[0], args.shake) for spec, made in early])
        for (spec, made), result in zip(early, results, strict=True):
            score_early(spec, result, made[1], tally)
    rows.close()
    print(f"one row per video: {rows_path}")
    print(f"clean games: {len(clean)}; moves right {tally.moves_right}/{tally.moves} over all videos; "
          f"games exactly right {tally.games_right}/{tally.games}")
    print(f"false alerts in clean games: {tally.false_alerts}")
    print(f"moves first recorded wrong (a later view corrected them or not): {tally.first_wrong}, of them with the "
          f"true move named as not ruled out: {tally.first_wrong_flagged}; moves recorded with a move not ruled "
          f"out: {tally.flagged}")
    print(f"alerts away from every injected case in the other videos: {tally.stray_alerts}")
    glare_videos = len({line.split(":")[0] for line in tally.glare_warnings})
    print(f"glare warnings (the camera's view, not the game): {len(tally.glare_warnings)} in {glare_videos} videos" +
          "".join(f"\n  {line}" for line in tally.glare_warnings))
    for kind in INJECT_KINDS:
        handled, total = tally.cases.get(kind, [0, 0])
        note = f" ({tally.pairs_seen} seen as a pair, the rest apart)" if kind == "quick_pair" else ""
        print(f"  injected {kind:<14} handled {handled}/{total}{note}")
    if early:
        handled, total = tally.cases.get("early_press", [0, 0])
        print(f"  clean games again, a press before the move and none after: flagged {handled}/{total}; "
              f"other alerts {tally.early_others}")
    if tally.latencies:
        print(f"latency (move event - hand gone, video s): {spread(tally.latencies, LATE_S)}")
    if tally.alert_latencies:
        print("alert latency (illegal, wrong side, knock, restore: alert - faulty board first still, video s): "
              + spread(tally.alert_latencies, ALERT_LATE_S))
    print(f"single recorder: {frames} frames in {wall:.1f} s = {frames / max(wall, 1e-9):.0f} fps; stage ms per frame: "
          + ", ".join(f"{k} {v / max(frames, 1):.2f}" for k, v in stage.items()))
    for line in tally.misses[:60]:
        print("  miss:", line)
    if not args.no_throughput and clean:
        runs = throughput(clean, oracle, args.boards, args.cores)
        rates = [f / w for _, f, w in runs]
        print(f"throughput: {args.boards} recorders at once on {args.cores} cores: "
              + ", ".join(f"{r:.0f}" for r in rates) + f" fps each; real time at 10 fps: {min(rates) >= 10.0}")


if __name__ == "__main__":
    main()
