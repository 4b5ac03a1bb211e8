"""The glyph pack: a machine without the Debian fonts renders exactly what this one does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from rules import START_FEN
from synth import fonts, glyph_pack
from synth.style import ViewStyle
from synth.view import render_view


def _clear_caches() -> None:
    for cache in (fonts._truetype, fonts._glyph_base, fonts.glyph_mask, fonts._glyph_pack):
        cache.cache_clear()


@pytest.fixture()
def fresh_caches() -> Iterator[None]:
    _clear_caches()
    yield
    _clear_caches()


def test_a_view_drawn_from_the_pack_without_fonts_equals_one_drawn_from_the_fonts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_caches: None) -> None:
    pack = tmp_path / "glyphs.npz"
    np.savez_compressed(pack, **glyph_pack.build_pack())  # type: ignore[arg-type]
    views = []
    for seed in (3, 4):  # a traditional and a simplified set, each split's faces
        style = ViewStyle.sample(np.random.default_rng(seed), split="train", faces="wide")
        image, _, _ = render_view(START_FEN, seed, style=style, hand=False, split="train")
        views.append(image)
    _clear_caches()
    monkeypatch.setattr(fonts, "FONT_DIRS", (tmp_path / "no-fonts",))
    monkeypatch.setenv(fonts.GLYPH_PACK_ENV, str(pack))
    for seed, expected in zip((3, 4), views, strict=True):
        style = ViewStyle.sample(np.random.default_rng(seed), split="train", faces="wide")
        image, _, _ = render_view(START_FEN, seed, style=style, hand=False, split="train")
        assert np.array_equal(image, expected)


def test_a_glyph_the_pack_lacks_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                fresh_caches: None) -> None:
    pack = tmp_path / "glyphs.npz"
    glyphs = {fonts.pack_name("ukai", "帥", False): np.ones((4, 4), np.uint8)}
    np.savez_compressed(pack, **glyphs)  # type: ignore[arg-type]
    monkeypatch.setenv(fonts.GLYPH_PACK_ENV, str(pack))
    assert fonts.glyph_mask("ukai", "帥", 40).shape == (40, 40)
    with pytest.raises(fonts.FontMissingError, match="glyph pack"):
        fonts.glyph_mask("ukai", "將", 40)
