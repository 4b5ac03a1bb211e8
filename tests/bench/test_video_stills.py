"""The video-stills benchmark reads a game video's still views through its true camera."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bench.bench_classifier import video_stills
from recorder.vision import DEFAULT_MODEL, PieceClassifier

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.mark.skipif(not DEFAULT_MODEL.exists(), reason="model missing")
def test_the_still_views_of_a_game_video_are_read_and_scored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for suffix in (".mp4", ".truth.json"):
        shutil.copy(FIXTURES / f"game_short{suffix}", tmp_path / f"game_short{suffix}")
    video_stills(PieceClassifier(threads=1), tmp_path, videos=5)
    out = capsys.readouterr().out
    assert "video stills (1 videos" in out and "640x480: 1" in out
    per_point = float(out.split("per point ")[1].split("%")[0])
    assert per_point > 95.0  # a clean fixture game: a bench that misplaced the grid would read ~70 %
    assert "whole boards " in out and "/11" in out  # the fixture's 11 still views


@pytest.mark.skipif(not DEFAULT_MODEL.exists(), reason="model missing")
def test_no_videos_says_how_to_make_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    video_stills(PieceClassifier(threads=1), tmp_path, videos=5)
    assert "bench.bench_recorder --render-only" in capsys.readouterr().out
