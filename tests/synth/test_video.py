"""Game videos on a plain stand-in scene: frames, truth, clock log, determinism, hands."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from synth.clocklog import read_clock_log
from synth.game_script import ScriptOptions
from synth.hands import HandLook, HandPose, Light, draw_hand
from synth.video import read_frames, render_game
from synth.video_timeline import state_from_dict
from tests.synth.standin import StandInSceneFull

MOVES = ["c3c4", "h9g7", "b0c2", "g6g5", "a0a1", "g9e7"]
FAST = ScriptOptions(think_min=0.6, think_median=0.9, think_max=1.5, lead_in=0.8, tail=1.0)


def _render(tmp_path: Path, seed: int, inject: list[str], name: str = "g",
            options: ScriptOptions = FAST) -> tuple[dict, Path]:
    out = tmp_path / f"{name}.mp4"
    result = render_game(MOVES, seed, out=out, truth_path=tmp_path / f"{name}.json",
                         clock_path=tmp_path / f"{name}.jsonl", fps=8, options=options, encoder="opencv",
                         scene=StandInSceneFull(160, 120), inject=inject)
    truth = json.loads((tmp_path / f"{name}.json").read_text())
    assert truth == json.loads(json.dumps(result.truth))
    return truth, out


def test_video_reads_back_with_the_frames_the_truth_says(tmp_path: Path) -> None:
    truth, out = _render(tmp_path, 4, ["knock@3", "no_press@5"])
    frames = read_frames(out)
    assert len(frames) == truth["frames"] > 0
    assert frames[0].shape == (truth["height"], truth["width"], 3)
    assert [p["iccs"] for p in truth["plies"]] == MOVES
    # each move is complete at a still view that shows the board after it
    for ply in truth["plies"]:
        still = next(s for s in truth["stills"] if s["from_frame"] == ply["frame_complete"])
        assert still["board"] == ply["fen_after"].split()[0] or still["off_point"]
    # the stills are hand-free: they match the still image of the first frame closely
    first = truth["stills"][0]
    a, b = frames[first["from_frame"]].astype(float), frames[first["to_frame"]].astype(float)
    assert np.abs(a - b).mean() < 4.0
    # a hand is visible between stills
    hand = truth["hands"][0]
    mid = (hand["frame_first"] + hand["frame_last"]) // 2
    assert np.abs(frames[mid].astype(float) - a).mean() > np.abs(a - b).mean() + 0.5
    knock = truth["injections"][0]
    assert knock["kind"] == "knock" and knock["frame_seen"] < knock["frame_fixed"]
    disturbed = [s for s in truth["stills"] if s["off_point"]]
    assert disturbed and disturbed[0]["from_frame"] == knock["frame_seen"]


def test_clock_log_lines_have_the_agreed_format(tmp_path: Path) -> None:
    truth, _ = _render(tmp_path, 5, ["press_no_move@2"])
    lines = (tmp_path / "g.jsonl").read_text().splitlines()
    assert len(lines) == len(MOVES) + 2
    for line in lines:
        data = json.loads(line)
        assert set(data) == {"t", "event", "side", "red_ms", "black_ms"}
        assert data["event"] == "press" and data["side"] in ("red", "black")
        assert isinstance(data["red_ms"], int) and isinstance(data["black_ms"], int)
    events = read_clock_log(tmp_path / "g.jsonl")
    assert [e.t for e in events] == sorted(e.t for e in events)
    assert [(round(e.t, 3), e.side) for e in events] == [(p["t"], p["side"]) for p in truth["clock"]["presses"]]
    assert truth["injections"][0]["frame_press"] <= truth["injections"][0]["frame_press_back"]


def test_same_seed_same_frames_other_seed_differs(tmp_path: Path) -> None:
    a, _ = _render(tmp_path, 7, ["quick_pair@2"], "a")
    b, _ = _render(tmp_path, 7, ["quick_pair@2"], "b")
    c, _ = _render(tmp_path, 8, ["quick_pair@2"], "c")
    assert a["frames_sha256"] == b["frames_sha256"]
    assert a["frames_sha256"] != c["frames_sha256"]
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "b.jsonl").read_text()
    assert not a["plies"][1]["stable_after"]


def test_camera_bump_moves_the_points(tmp_path: Path) -> None:
    truth, out = _render(tmp_path, 9, [], options=ScriptOptions(bumps=1, think_min=2.0, think_median=2.5,
                                                                 think_max=3.0, lead_in=0.8, tail=1.0))
    [bump] = truth["bumps"]
    before = np.array(truth["points"]["e4"])
    after = np.array(bump["points_after"]["e4"])
    assert 0.1 < np.linalg.norm(after - before) < 12
    frames = read_frames(out)
    assert frames[bump["frame_settled"] + 1].shape == frames[0].shape
    # no still view inside the shake; one ends as it starts and the next begins once settled
    assert not [s for s in truth["stills"] if bump["frame_start"] < s["from_frame"] < bump["frame_settled"]]
    assert any(s["to_frame"] == bump["frame_start"] - 1 for s in truth["stills"])
    assert any(s["from_frame"] == bump["frame_settled"] for s in truth["stills"])


def test_unknown_encoder_and_bad_fps_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="encoder"):
        render_game(MOVES[:1], 1, out=tmp_path / "x.mp4", scene=StandInSceneFull(64, 48), encoder="gif")
    with pytest.raises(ValueError, match="fps"):
        render_game(MOVES[:1], 1, out=tmp_path / "x.mp4", scene=StandInSceneFull(64, 48), fps=0)


def _hand_image(shoulder: tuple[float, float], pinch: tuple[float, float], z: float = 0.0,
                red_bottom: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, StandInSceneFull]:
    scene = StandInSceneFull(320, 240, red_bottom)
    board = scene.render_state(state_from_dict({}))
    image = board.copy()
    mask = draw_hand(image, HandPose(pinch[0], pinch[1], z, shoulder), HandLook.pick(1, 2, 1.1), scene.project,
                     Light(120, 60), seed=3)
    return board, image, mask, scene


def test_hand_covers_the_pinch_point_and_enters_from_the_movers_edge() -> None:
    board, image, mask, scene = _hand_image((7.0, -11.0), (4.0, 5.0))
    x, y = np.round(scene.project(np.array([[4.0, 5.0, 0.0]]))[0]).astype(int)
    assert mask[y, x] == 255
    assert mask[-1].any() and not mask[0].any()  # red's hand comes up from the bottom edge
    assert (image[mask == 0] != board[mask == 0]).any()  # a soft shadow falls beside the hand
    # black's hand, camera turned: red at the top, black's arm from the bottom as well
    _, _, mask2, _ = _hand_image((1.0, 20.0), (4.0, 5.0), red_bottom=False)
    assert mask2[-1].any() and not mask2[0].any()
    # skin is shaded: many tones, not a flat fill
    skin = image[mask == 255]
    assert len({tuple(c) for c in skin[:: max(1, len(skin) // 500)]}) > 50


def test_raised_hand_looks_bigger_and_drawing_is_deterministic() -> None:
    _, image_a, low, _ = _hand_image((7.0, -11.0), (4.0, 5.0), z=0.0)
    _, image_b, high, _ = _hand_image((7.0, -11.0), (4.0, 5.0), z=0.8)
    _, image_c, _, _ = _hand_image((7.0, -11.0), (4.0, 5.0), z=0.0)
    assert np.array_equal(image_a, image_c)
    palm_low = cv2.countNonZero(low[: 120])
    palm_high = cv2.countNonZero(high[: 120])
    assert palm_high > palm_low


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not installed")
def test_ffmpeg_encoder_gives_the_same_frame_count(tmp_path: Path) -> None:
    out = tmp_path / "h264.mp4"
    result = render_game(MOVES[:2], 3, out=out, fps=8, options=FAST, encoder="ffmpeg",
                         scene=StandInSceneFull(160, 120))
    assert len(read_frames(out)) == result.frames
