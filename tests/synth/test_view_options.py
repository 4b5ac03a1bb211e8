"""Every look option of ViewStyle has an effect, and every font draws every piece character."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from rules import START_FEN
from synth.fonts import FONTS, face_for, glyph_mask
from synth.pieces import CHARACTERS, VARIANTS
from synth.style import (
    BLACK_INKS,
    BOARD_MATERIALS,
    FONTS_BY_SPLIT,
    LINE_COLOURS,
    PIECE_FACES,
    RIVER_TEXTS,
    TABLE_MATERIALS,
    TABLE_PALETTES,
    ViewStyle,
)
from synth.view import render_position

BASE = dataclasses.replace(
    ViewStyle.sample(np.random.default_rng(21), width=480, height=360),
    noise_sigma=0.0, jpeg_quality=0, blur_sigma=0.0, motion_blur=0.0, coverage=0.9, tilt_deg=8.0, barrel=0.0, ring=True,
)


SPARSE = "3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1"  # leaves the cannon and soldier marks visible


def _render(fen: str = START_FEN, **changes: Any) -> np.ndarray:
    image, _ = render_position(fen, 21, style=dataclasses.replace(BASE, **changes))
    return image.astype(np.int16)


def _changed(a: np.ndarray, b: np.ndarray, min_pixels: int = 200) -> bool:
    return int((np.abs(a - b).sum(axis=2) > 24).sum()) >= min_pixels


@pytest.mark.parametrize("font", sorted(FONTS))
@pytest.mark.parametrize("charset", ["traditional", "simplified"])
def test_every_font_draws_every_character(font: str, charset: str) -> None:
    chars = set(CHARACTERS[charset].values()) | set(VARIANTS[charset].values())
    chars |= set("".join(RIVER_TEXTS[charset]))
    for ch in chars:
        mask = glyph_mask(font, ch, 40, charset == "simplified")
        ink = float(mask.mean())
        assert 0.05 < ink < 0.7, f"{font} {ch!r}: ink {ink:.2f}"


def test_scripts_draw_different_characters() -> None:
    trad = glyph_mask("noto-sans", "帥", 48, False)
    simp = glyph_mask("noto-sans", "帅", 48, True)
    assert trad.shape != simp.shape or np.abs(trad - simp).mean() > 0.02


@pytest.mark.parametrize(
    ("field", "values"),
    [
        ("board_material", BOARD_MATERIALS),
        ("piece_face", PIECE_FACES),
        ("font", ("ukai", "noto-sans-bold", "clerical-ming")),
        ("charset", ("traditional", "simplified")),
        ("carved", (True, False)),
        ("ring", (True, False)),
        ("double_ring", (False, True)),
        ("border_double", (False, True)),
        ("black_ink", tuple(BLACK_INKS.values())),
        ("line_colour", tuple(LINE_COLOURS.values())),
        ("line_width", (0.015, 0.04)),
        ("river_script", ("traditional", "simplified")),
        ("river_facing", ("red", "both")),
        ("cross_marks", (True, False)),
        ("folds", (0, 3)),
        ("wear", (0.0, 1.0)),
        ("board_thickness", (0.0, 0.35)),
        ("piece_height", (0.18, 0.38)),
        ("rotation_spread", (0.0, 180.0)),
        ("offset_max", (0.0, 0.15)),
        ("tilt_deg", (0.0, 25.0)),
        ("roll_deg", (0.0, 90.0, 200.0)),
        ("coverage", (0.4, 0.95)),
        ("barrel", (0.0, 0.06)),
        ("light_azimuth_deg", (0.0, 180.0)),
        ("gradient", (0.0, 0.35)),
        ("cast", ((1.0, 1.0, 1.0), (0.9, 1.0, 1.1))),
        ("exposure", (0.85, 1.15)),
        ("glare_spots", (0, 2)),
        ("people_shadows", (0, 2)),
        ("noise_sigma", (0.0, 6.0)),
        ("blur_sigma", (0.0, 1.5)),
        ("motion_blur", (0.0, 5.0)),
        ("focus_falloff", (0.0, 1.0)),
        ("jpeg_quality", (0, 40)),
    ],
)
def test_each_option_changes_the_view(field: str, values: tuple[Any, ...]) -> None:
    extra: dict[str, Any] = {"glare_strength": 0.5} if field == "glare_spots" else {}
    fen = SPARSE if field == "cross_marks" else START_FEN
    images = [_render(fen, **{field: v}, **extra) for v in values]
    small = field in ("noise_sigma", "jpeg_quality", "blur_sigma", "motion_blur", "focus_falloff", "cross_marks",
                     "river_script",
                     "double_ring", "border_double")  # local or faint effects
    for a, b in zip(images, images[1:], strict=False):
        assert _changed(a, b, 20 if small else 200), field


def test_table_materials_look_different() -> None:
    images = [_render(table_material=m, table_colour=TABLE_PALETTES[m][0], coverage=0.5) for m in TABLE_MATERIALS]
    for i, a in enumerate(images):
        for b in images[i + 1 :]:
            assert _changed(a, b, 2000)


@pytest.mark.parametrize(("width", "height"), [(640, 480), (1920, 1080)])
def test_resolutions(width: int, height: int) -> None:
    image, truth = render_position(START_FEN, 4, style=dataclasses.replace(BASE, width=width, height=height))
    assert image.shape == (height, width, 3)
    pts = np.array(list(truth.points.values()))
    assert pts[:, 0].min() > 0 and pts[:, 0].max() < width and pts[:, 1].min() > 0 and pts[:, 1].max() < height


def test_sampled_styles_span_the_ranges() -> None:
    styles = [ViewStyle.sample(np.random.default_rng(s)) for s in range(300)]
    assert max(s.tilt_deg for s in styles) <= 25.0
    assert {s.board_material for s in styles} == set(BOARD_MATERIALS)
    assert {s.piece_face for s in styles} == set(PIECE_FACES)
    assert {s.black_ink_name for s in styles} == set(BLACK_INKS)
    assert min(s.coverage for s in styles) >= 0.4 and max(s.coverage for s in styles) <= 0.95
    assert max(s.offset_max for s in styles) <= 0.15
    assert any(s.rotation_spread >= 180 for s in styles)
    sizes = {(s.width, s.height) for s in styles}
    assert (640, 480) in sizes and (1920, 1080) in sizes
    sides = set()
    for s in styles[:40]:
        _, truth = render_position(START_FEN, 0, style=dataclasses.replace(s, width=160, height=120))
        sides.add(truth.red_side)
    assert sides == {"bottom", "top", "left", "right"}


def test_props_lie_beside_the_board_not_on_it() -> None:
    """Clock, score sheets and pen change the table, not the board (at most a little clock shadow)."""
    import cv2

    for seed in (1, 2, 3):
        style = dataclasses.replace(BASE, coverage=0.5, centre_shift=(0.0, 0.0), tilt_deg=5.0)
        plain, truth = render_position(START_FEN, seed, style=dataclasses.replace(style, props=False))
        dressed, truth2 = render_position(START_FEN, seed, style=dataclasses.replace(style, props=True))
        assert truth.points == truth2.points
        changed = np.abs(plain.astype(int) - dressed.astype(int)).sum(axis=2) > 30
        grid = np.array([truth.points[n] for n in ("a0", "i0", "i9", "a9")], np.float32)
        inside = np.zeros(changed.shape, np.uint8)
        cv2.fillConvexPoly(inside, np.round(grid).astype(np.int32), 1)
        assert changed[inside == 1].mean() < 0.03
        assert changed[inside == 0].sum() > 100


def test_a_face_without_a_character_draws_it_from_its_fallback() -> None:
    assert face_for("bkai", "俥") == "ukai"  # Big5 faces have no 俥; a kai face of the train split draws it
    assert face_for("bkai", "傌") == "bkai"
    assert face_for("gkai", "帅", simplified=True) == "gkai"
    fallback = glyph_mask("bkai", "俥", 40)
    assert np.array_equal(fallback, glyph_mask("ukai", "俥", 40))


@pytest.mark.parametrize("split", ["train", "dev", "test"])
def test_styles_use_a_script_their_face_was_cut_for(split: str) -> None:
    for seed in range(60):
        style = ViewStyle.sample(np.random.default_rng(seed), split=split)
        assert style.charset in FONTS[style.font].charsets

    for font in FONTS_BY_SPLIT[split]:  # a fallback never brings another split's face into this one
        fallback = FONTS[font].fallback
        assert fallback is None or fallback in FONTS_BY_SPLIT[split]


def test_file_numbers_are_printed_between_the_border_and_the_edge() -> None:
    plain, truth = render_position(SPARSE, 21, style=dataclasses.replace(BASE, margin=1.0, file_numbers=False))
    numbered, _ = render_position(SPARSE, 21, style=dataclasses.replace(BASE, margin=1.0, file_numbers=True))
    changed = np.abs(plain.astype(np.int16) - numbered).sum(axis=2) > 24
    assert changed.sum() >= 100
    # a numeral beyond each file's end, on both sides: about 0.6 spacings out from rank 9 and from rank 0
    ys, xs = np.nonzero(changed)
    points = truth.points
    for name_first, name_last in (("a9", "i9"), ("a0", "i0")):
        edge = np.array([points[name_first], points[name_last]])
        rank = "9" if name_first.endswith("9") else "0"
        inner = np.array(points[name_first[0] + ("8" if rank == "9" else "1")])
        outward = edge[0] - inner  # one spacing beyond the outer rank
        near = [(np.hypot(xs - (p[0] + 0.6 * outward[0]), ys - (p[1] + 0.6 * outward[1])) < 0.45 *
                 np.hypot(*outward)).any() for p in (np.array(points[f"{f}{rank}"]) for f in "abcdefghi")]
        assert all(near), (rank, near)
