"""Training augmentation keeps what decides a label: a red piece stays red, shapes and ranges stay."""

from __future__ import annotations

from typing import Any

import pytest

torch = pytest.importorskip("torch", reason="torch is in the train extra, not in CI")

from models.train.augment import _gaussian_blur, glyph_variety, photometric  # noqa: E402  (after the importorskip on purpose)


def test_strong_colour_gains_and_defocus_keep_red_red_and_black_dark() -> None:
    red = torch.tensor([0.10, 0.12, 0.72]).view(1, 3, 1, 1).repeat(64, 1, 24, 24)
    black = torch.tensor([0.10, 0.10, 0.10]).view(1, 3, 1, 1).repeat(64, 1, 24, 24)
    generator = torch.Generator().manual_seed(0)
    out = photometric(torch.cat([red, black]), generator, gain_spread=0.5, blur_rate=1.0)
    assert out.shape == (128, 3, 24, 24)
    assert float(out.min()) >= 0.0 and float(out.max()) <= 1.0
    means = out.mean(dim=(2, 3))
    assert bool((means[:64, 2] > 2 * means[:64, 0]).all())  # red's red channel still leads (BGR order)
    assert bool((means[64:].max(dim=1).values < means[:64, 2]).all())  # black ink stays darker than red ink


def test_defocus_blurs_an_edge_without_moving_it() -> None:
    edge = torch.zeros(1, 3, 32, 32)
    edge[..., 16:] = 1.0
    row = _gaussian_blur(edge, 1.2)[0, 0, 16]
    assert 0.05 < float(row[15]) < 0.5 < float(row[16]) < 0.95  # spread over the pixels either side
    assert abs(float(row[15] + row[16]) - 1.0) < 1e-5  # and centred where it was
    assert float(row[:10].max()) < 1e-3 and float(row[22:].min()) > 1 - 1e-3


def test_the_default_augmentation_draws_what_the_shipped_model_was_trained_with() -> None:
    """The seeded stream is unchanged with the new options off: ``make train`` still reproduces the model."""
    x = torch.linspace(0, 1, 16 * 3 * 12 * 12).reshape(16, 3, 12, 12)
    out = photometric(x, torch.Generator().manual_seed(7))
    assert float(out.sum()) == pytest.approx(3586.79956, abs=1e-3)  # the training code as of the shipped model


def _stroke_crop(n: int) -> Any:  # a torch.Tensor (torch is imported by importorskip, unknown to mypy)
    """(n, 3, 36, 36) a light face with a dark red vertical stroke, 3 px wide, down its middle (BGR)."""
    x = torch.full((n, 3, 36, 36), 0.85)
    x[:, :, 6:30, 17:20] = torch.tensor([0.10, 0.12, 0.70]).view(1, 3, 1, 1)
    return x


def test_glyph_variety_changes_stroke_weight_but_not_the_ink_colour_or_where_the_stroke_is() -> None:
    x = _stroke_crop(64)
    out = glyph_variety(x, torch.Generator().manual_seed(3), rate=1.0, spacing_px=36.0)
    assert out.shape == x.shape and float(out.min()) >= 0.0 and float(out.max()) <= 1.0
    ink = (x[:, 1] < 0.5).float().sum(dim=(1, 2))  # the stroke's area in the green channel
    area = (out[:, 1] < 0.5).float().sum(dim=(1, 2))
    assert float((area - ink).max()) > 15 and float((area - ink).min()) < -15  # some heavier, some lighter
    columns = (1 - out[:, 1]).sum(dim=1)  # darkness per column
    assert bool((columns.argmax(dim=1) - 18).abs().le(2).all())  # bent a little, not moved off its place
    inside = out[:, :, 15, 18]
    assert bool((inside[:, 2] > 2 * inside[:, 0]).all())  # still red ink (BGR order)


def test_glyph_variety_leaves_unchosen_crops_alone() -> None:
    x = _stroke_crop(32)
    assert torch.equal(glyph_variety(x, torch.Generator().manual_seed(0), rate=0.0, spacing_px=36.0), x)
    out = glyph_variety(x, torch.Generator().manual_seed(0), rate=0.5, spacing_px=36.0)
    same = (out == x).flatten(1).all(dim=1)
    assert 4 < int(same.sum()) < 28  # about half untouched, the rest changed
