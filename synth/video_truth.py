"""The truth file of a game video: what happened, in frames, as a recorder should find it.

While frames are filmed a :class:`StillTracker` notes, per frame, the physical board, which
hands were visible and the camera offset; :func:`build_truth` turns that and the
:class:`~synth.video_timeline.Timeline` into JSON. Frame ``i`` is at ``i / fps`` seconds.

Top-level fields:

- ``seed``, ``fps``, ``width``, ``height``, ``frames``, ``duration_s``, ``video``, ``frames_sha256``
  (of the raw frames before encoding), ``start_fen``, ``moves`` (ICCS), ``inject``, ``split``, ``options``.
- ``plies``: per move ``ply`` (from 1), ``iccs``, ``side``, ``fen_after``, ``capture`` (letter or null),
  ``frame_complete`` / ``t_complete`` (first frame with the mover's hand gone and the board still),
  ``press_t`` (null if the clock was not pressed), ``stable_after`` (false when the next move
  starts before a still view).
- ``injections``: per case ``kind``, ``ply``, ``side`` (the offender), ``squares``, ``frame_start``,
  ``frame_end``, ``expected`` (the arbiter outcome in words), ``alerts`` (codes such as
  ``illegal_move``, ``position_restored``, ``wrong_side``, ``board_disturbed``,
  ``press_without_move``, ``move_without_press``, ``two_moves``), ``hand_frames`` and per kind
  ``frame_seen`` (the fault first visible in a still view), ``frame_restored``, ``frame_fixed``,
  ``frame_press``/``frame_press_back``, ``violation``/``reason`` (rules' code and sentence),
  ``fen_seen`` (the board as seen), ``move`` (the wrong side's move), ``offset`` (a knocked piece's).
- ``stills``: maximal runs of frames with no hand, one board and a steady camera:
  ``from_frame``, ``to_frame``, ``board`` (FEN placement), ``off_point`` (point -> offset in grid
  spacings, for pieces at least :data:`OFF_POINT` away from their point).
- ``bumps``: ``frame_start``, ``frame_settled``, ``shift_px``, ``angle_deg``, ``points_after``.
- ``hands``: per hand visit ``actor`` (red/black/arbiter), ``purpose``, ``frame_first``, ``frame_last``.
- ``clock``: ``base_ms``, ``increment_ms``, ``running_at_start``, ``started_t`` (the clock starts with
  the video), ``log`` (the JSON-lines file) and
  ``presses`` (each with ``t``, ``frame``, ``side``, ``red_ms``, ``black_ms``, ``ply``, ``note``).
- ``light`` (the drift keys), ``points`` (pixel of each board point before any bump) and ``scene``
  (style, camera model, ``red_side``, ``spacing_px``).
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from rules import Position
from synth.video_scene import BoardScene
from synth.video_timeline import BoardState, Timeline, state_board

TRUTH_VERSION = 1
OFF_POINT = 0.3
"""A piece whose centre is this many grid spacings or more from its point counts as off its point."""


class StillTracker:
    """Per-frame notes taken while filming."""

    def __init__(self, timeline: Timeline, fps: float) -> None:
        self.timeline, self.fps = timeline, fps
        self.frames = 0
        self.first_seen: dict[int, int] = {}
        self.last_seen: dict[int, int] = {}
        self.stills: list[dict[str, Any]] = []
        self._run: tuple[int, BoardState, tuple[float, float, float]] | None = None

    def add(self, index: int, state: BoardState, visible: list[int], camera: tuple[float, float, float]) -> None:
        """Note frame ``index``: its board state, the hand tracks drawn in it, the camera offset."""
        self.frames = index + 1
        for k in visible:
            self.first_seen.setdefault(k, index)
            self.last_seen[k] = index
        t = index / self.fps
        shaking = any(b.t <= t < b.t + b.duration for b in self.timeline.bumps)
        still = not visible and not shaking
        if self._run is not None:
            start, run_state, run_camera = self._run
            if still and state == run_state and camera == run_camera:
                return
            self._close(index - 1)
        self._run = (index, state, camera) if still else None

    def _close(self, last: int) -> None:
        if self._run is None:
            return
        start, state, _ = self._run
        self.stills.append({"from_frame": start, "to_frame": last, **describe_state(state)})
        self._run = None

    def finish(self) -> None:
        """Close the still view running at the last frame."""
        self._close(self.frames - 1)

    def frame_after(self, track: int, fallback_t: float) -> int:
        """The first frame after ``track``'s hand was last seen (or the frame of ``fallback_t``)."""
        if track in self.last_seen:
            return self.last_seen[track] + 1
        return int(math.ceil(fallback_t * self.fps - 1e-9))


def describe_state(state: BoardState) -> dict[str, Any]:
    """The physical board as JSON: FEN piece placement and pieces off their points."""
    fen = Position(state_board(state), "red").fen().split()[0]
    off = {}
    for sq, p in state:
        if p.off_point() >= OFF_POINT:
            off[f"{'abcdefghi'[sq % 9]}{sq // 9}"] = [round(p.dx, 3), round(p.dy, 3)]
    return {"board": fen, "off_point": off}


def _frame(t: float, fps: float) -> int:
    return int(math.ceil(t * fps - 1e-9))


def _bump_points(points: dict[str, tuple[float, float]], offset: tuple[float, float, float],
                 width: int, height: int) -> dict[str, list[float]]:
    dx, dy, angle = offset
    m = cv2.getRotationMatrix2D(((width - 1) / 2, (height - 1) / 2), angle, 1.0)
    m[0, 2] += dx * width
    m[1, 2] += dy * height
    names = list(points)
    pts = np.array([points[n] for n in names], float)
    moved = pts @ m[:, :2].T + m[:, 2]
    return {n: [round(float(p[0]), 2), round(float(p[1]), 2)] for n, p in zip(names, moved, strict=True)}


def build_truth(timeline: Timeline, tracker: StillTracker, scene: BoardScene, *, fps: float, seed: int,
                meta: dict[str, Any]) -> dict[str, Any]:
    """The truth JSON of a filmed timeline."""
    tracker.finish()
    width, height = scene.width, scene.height
    points = scene.points()
    plies = []
    for p in timeline.plies:
        frame = tracker.frame_after(p.track, p.t_complete)
        plies.append({
            "ply": p.ply, "iccs": p.iccs, "side": p.side, "fen_after": p.fen_after, "capture": p.capture,
            "frame_complete": frame, "t_complete": round(frame / fps, 3),
            "press_t": None if p.press_t is None else round(p.press_t, 3), "stable_after": p.stable_after,
        })
    injections = []
    for inj in timeline.injections:
        record: dict[str, Any] = {
            "kind": inj.kind, "ply": inj.ply, "side": inj.side, "squares": inj.squares,
            "frame_start": _frame(inj.t_start, fps), "frame_end": _frame(inj.t_end, fps),
            "t_start": round(inj.t_start, 3), "t_end": round(inj.t_end, 3), "expected": inj.expected,
            "hand_frames": [[tracker.first_seen.get(k), tracker.last_seen.get(k)] for k in inj.tracks],
        }
        for key, value in inj.detail.items():
            record[key] = round(value, 3) if isinstance(value, float) else value
        if inj.kind in ("illegal", "restore", "wrong_side", "knock"):
            first = timeline.tracks[inj.tracks[0]]
            record["frame_seen"] = tracker.frame_after(inj.tracks[0], first.end)
        if inj.kind in ("restore", "wrong_side"):
            record["frame_restored"] = tracker.frame_after(inj.tracks[1], timeline.tracks[inj.tracks[1]].end)
        if inj.kind == "knock":
            record["frame_fixed"] = tracker.frame_after(inj.tracks[1], timeline.tracks[inj.tracks[1]].end)
        for key in ("t_press", "t_press_back"):
            if key in inj.detail:
                record["frame_" + key[2:]] = _frame(inj.detail[key], fps)
        injections.append(record)
    bumps = []
    for bump in timeline.bumps:
        settled = timeline.camera_at(bump.t + bump.duration + 1e-6)
        bumps.append({
            "frame_start": _frame(bump.t, fps), "frame_settled": _frame(bump.t + bump.duration, fps),
            "t": round(bump.t, 3), "shift_px": [round(bump.shift[0] * width, 2), round(bump.shift[1] * height, 2)],
            "angle_deg": round(bump.angle, 3), "points_after": _bump_points(points, settled, width, height),
        })
    hands = []
    for k, track in enumerate(timeline.tracks):
        hands.append({"actor": track.actor, "purpose": track.purpose,
                      "frame_first": tracker.first_seen.get(k), "frame_last": tracker.last_seen.get(k)})
    clock = {
        "base_ms": round(timeline.clock_start["base_s"] * 1000),
        "increment_ms": round(timeline.clock_start["increment_s"] * 1000),
        "running_at_start": timeline.clock_start["running"],
        "started_t": timeline.clock_start["t"],
        "presses": [{"t": round(p.t, 3), "frame": _frame(p.t, fps), "side": p.side, "red_ms": p.red_ms,
                     "black_ms": p.black_ms, "ply": p.ply, "note": p.note} for p in timeline.presses],
    }
    return {
        "version": TRUTH_VERSION,
        "seed": seed,
        "fps": fps,
        "width": width,
        "height": height,
        "frames": tracker.frames,
        "duration_s": round(tracker.frames / fps, 3),
        "start_fen": timeline.start_fen,
        "moves": [p["iccs"] for p in plies],
        "plies": plies,
        "injections": injections,
        "stills": tracker.stills,
        "bumps": bumps,
        "hands": hands,
        "clock": clock,
        "light": [{"t": round(k.t, 3), "gain": round(k.gain, 4), "tint": [round(c, 4) for c in k.tint],
                   "gradient": [round(g, 4) for g in k.gradient]} for k in timeline.light],
        "points": {n: [round(p[0], 2), round(p[1], 2)] for n, p in points.items()},
        "scene": scene.describe(),
        **meta,
    }
