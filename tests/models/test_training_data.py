"""Training data: the share of boards framed as a recording camera sends them."""

from __future__ import annotations

import numpy as np

from models.train.data import VIDEO_SIZES, cache_name, render_sample, video_view_style
from synth.style import ViewStyle


def test_video_views_are_small_frames_filled_by_the_board_with_a_codec_loss() -> None:
    style = ViewStyle.sample(np.random.default_rng(3), split="train")
    for seed in range(20):
        video = video_view_style(style, np.random.default_rng(seed))
        assert (video.width, video.height) in VIDEO_SIZES
        assert 0.8 <= video.coverage <= 0.95 and video.jpeg_quality > 0
        assert (video.font, video.piece_colour, video.black_ink) == (style.font, style.piece_colour, style.black_ink)


def test_video_share_picks_its_boards_by_seed_and_names_its_own_cache() -> None:
    sizes = [render_sample("train", 9, i, 0.0, video_share=0.5)[0].shape[:2] for i in range(8)]
    assert sizes == [render_sample("train", 9, i, 0.0, video_share=0.5)[0].shape[:2] for i in range(8)]
    small = [(w, h) in VIDEO_SIZES for h, w in sizes]
    assert any(small) and not all(small)
    plain = [render_sample("train", 9, i, 0.0)[0].shape[:2] for i in range(8)]
    assert all((w, h) not in VIDEO_SIZES for h, w in plain)
    assert cache_name("train", 0, 10) != cache_name("train", 0, 10, video_share=0.5)
    assert cache_name("train", 0, 10) == "train_s0_n10_72px_1.95sp.npz"


def test_a_share_is_a_number_from_0_to_1() -> None:
    import argparse

    import pytest

    from models.train.data import share

    assert share("0.6") == 0.6 and share("0") == 0.0 and share("1") == 1.0
    for wrong in ("1.5", "-0.1", "most", "nan"):
        with pytest.raises(argparse.ArgumentTypeError):
            share(wrong)
