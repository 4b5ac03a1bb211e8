"""The recorder benchmark's video plan: the standing set stays put, another seed base is fresh."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.bench_recorder import GAME_LINES, SEED_BASE, plan


def test_the_standing_set_keeps_its_videos_and_a_fresh_seed_base_gives_other_ones() -> None:
    clean, injected = plan(50, 50, 30)
    assert clean[0].name == "clean-000-p30" and clean[0].line == 1000 and clean[0].seed == SEED_BASE
    assert injected[49].name == "inject-049" and injected[49].seed == SEED_BASE + 5049
    fresh_clean, fresh_injected = plan(50, 50, 30, seed_base=900000)
    standing = {spec.name for spec in clean + injected}
    assert not standing & {spec.name for spec in fresh_clean + fresh_injected}
    assert not {spec.seed for spec in clean + injected} & {spec.seed for spec in fresh_clean + fresh_injected}
    assert all(0 <= spec.line < GAME_LINES for spec in fresh_clean + fresh_injected)
    assert [spec.line for spec in fresh_clean] != [spec.line for spec in clean]


def test_a_tilted_set_is_a_set_of_its_own_rendered_with_that_tilt(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import bench.bench_recorder as bench
    import synth.video

    clean, injected = plan(2, 1, 30, seed_base=1700000, tilt_deg=45)
    assert clean[0].name == "t45-s1700000-clean-000-p30" and injected[0].name.startswith("t45-s1700000-inject-")
    plain, _ = plan(2, 1, 30, seed_base=1700000)
    assert [spec.line for spec in clean] == [spec.line for spec in plain]  # the same games, only the camera moved
    assert all(spec.tilt_deg == 45 for spec in clean + injected) and plain[0].tilt_deg is None
    seen: list[float | None] = []
    monkeypatch.setattr(bench, "VIDEOS", tmp_path)
    monkeypatch.setattr(synth.video, "render_game", lambda *args, scene=None, **kwargs: seen.append(
        None if scene is None else scene.style.tilt_deg))
    for spec in (clean[0], plain[0]):
        with pytest.raises(FileNotFoundError):  # the stand-in renders nothing
            bench.render(spec, 320, 180)
    assert seen == [45, None]


def test_the_videos_digest_names_the_renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the same seeds rendered again gave other videos (session 40): a report names what it measured
    import json

    import bench.bench_recorder as bench

    monkeypatch.setattr(bench, "VIDEOS", tmp_path)
    clean, _ = plan(2, 0, 30)
    for spec, frames in zip(clean, ("aa", "bb"), strict=True):
        spec.path(".truth.json").write_text(json.dumps({"frames_sha256": frames}))
    first = bench.videos_digest(clean)
    assert len(first) == 12 and first == bench.videos_digest(clean)
    clean[1].path(".truth.json").write_text(json.dumps({"frames_sha256": "cc"}))
    assert bench.videos_digest(clean) != first


def test_a_shaken_frame_is_the_picture_moved_by_at_most_the_shake() -> None:
    import cv2
    import numpy as np

    import bench.bench_recorder as bench

    image = np.zeros((120, 160, 3), np.uint8)
    cv2.rectangle(image, (60, 40), (100, 80), (255, 255, 255), -1)
    rng = np.random.default_rng(1)
    for _ in range(10):
        moved = bench.shaken(image, rng, 1.0)
        grey = cv2.cvtColor(moved, cv2.COLOR_BGR2GRAY).astype(np.float64)
        ys, xs = np.nonzero(grey > 0)
        weights = grey[ys, xs]
        centre = (float((xs * weights).sum() / weights.sum()), float((ys * weights).sum() / weights.sum()))
        assert abs(centre[0] - 80.0) <= 1.2 and abs(centre[1] - 60.0) <= 1.2  # the square drawn at (60-100, 40-80)
    assert not np.array_equal(bench.shaken(image, rng, 1.0), bench.shaken(image, rng, 1.0))
