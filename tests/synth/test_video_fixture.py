"""The committed short game videos in tests/fixtures/ agree with their truth and clock log.

They are rendered by ``scripts/make_video_fixtures.py``; re-run it after changing the renderer.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
import pytest

from rules import Position
from synth.clocklog import read_clock_log
from synth.video import read_frames
from synth.video_faults import INJECTION_KINDS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
NAMES = ("game_short", "game_faults")


@functools.lru_cache(maxsize=2)
def _frames(name: str) -> tuple[np.ndarray, ...]:
    return tuple(read_frames(FIXTURES / f"{name}.mp4"))


@pytest.mark.parametrize("name", NAMES)
def test_fixture_matches_its_truth(name: str) -> None:
    video = FIXTURES / f"{name}.mp4"
    assert video.stat().st_size < 2_000_000
    truth = json.loads((FIXTURES / f"{name}.truth.json").read_text())
    frames = _frames(name)
    assert len(frames) == truth["frames"]
    assert frames[0].shape == (truth["height"], truth["width"], 3)
    position = Position.from_fen(truth["start_fen"])
    for ply in truth["plies"]:
        position = position.play(ply["iccs"])
        assert ply["fen_after"] == position.fen()
        assert 0 < ply["frame_complete"] < truth["frames"]
        if ply["stable_after"]:
            still = next(s for s in truth["stills"] if s["from_frame"] == ply["frame_complete"])
            assert still["board"] == position.fen().split()[0]
    presses = [(p["t"], p["side"], p["red_ms"], p["black_ms"]) for p in truth["clock"]["presses"]]
    logged = [(round(e.t, 3), e.side, e.red_ms, e.black_ms) for e in read_clock_log(FIXTURES / truth["clock"]["log"])]
    assert logged == presses


def test_fault_fixture_holds_every_injection() -> None:
    truth = json.loads((FIXTURES / "game_faults.truth.json").read_text())
    assert sorted(i["kind"] for i in truth["injections"]) == sorted(INJECTION_KINDS)
    frames = _frames("game_faults")
    knock = next(i for i in truth["injections"] if i["kind"] == "knock")
    disturbed = next(s for s in truth["stills"] if s["from_frame"] == knock["frame_seen"])
    assert knock["squares"][0] in disturbed["off_point"]
    # the knocked piece shows: the still before the fix differs from the one after it
    fixed = next(s for s in truth["stills"] if s["from_frame"] == knock["frame_fixed"])
    a, b = frames[disturbed["to_frame"]].astype(int), frames[fixed["from_frame"]].astype(int)
    assert abs(a - b).max() > 60
