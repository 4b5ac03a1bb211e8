"""The truth geometry agrees with the image: drawn line crossings sit at the reported points."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from synth.scene import POINT_NAMES
from synth.style import ViewStyle
from synth.view import render_position

KINGS_ONLY = "3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1"


def _bilinear(image: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    x0 = np.clip(np.floor(xs).astype(int), 0, w - 2)
    y0 = np.clip(np.floor(ys).astype(int), 0, h - 2)
    fx, fy = (xs - x0)[..., None], (ys - y0)[..., None]
    img = image.astype(np.float64)
    top = img[y0, x0] * (1 - fx) + img[y0, x0 + 1] * fx
    bottom = img[y0 + 1, x0] * (1 - fx) + img[y0 + 1, x0 + 1] * fx
    return top * (1 - fy) + bottom * fy


def _line_centre(
    image: np.ndarray, origin: np.ndarray, normal: np.ndarray, half: float, ink: np.ndarray
) -> np.ndarray | None:
    """Centre of the line of colour ``ink`` crossing the profile ``origin + t * normal`` (|t| <= half)."""
    ts = np.linspace(-half, half, int(half * 8) + 1)
    pts = origin + ts[:, None] * normal
    colours = _bilinear(image, pts[:, 0], pts[:, 1])
    background = np.median(colours, axis=0)
    axis = ink - background
    inkness = (colours - background) @ axis / float(axis @ axis)
    peak = inkness.max()
    if peak < 0.15:
        return None
    weight = np.clip(inkness - 0.5 * peak, 0, None)
    t = float((weight * ts).sum() / weight.sum())
    return origin + t * normal


def _measured_crossing(
    image: np.ndarray, pts: dict[str, tuple[float, float]], name: str, ink: np.ndarray
) -> np.ndarray | None:
    f, r = "abcdefghi".index(name[0]), int(name[1])
    p = np.asarray(pts[name])

    def neighbour(df: int, dr: int) -> np.ndarray:
        nf, nr = f + df, r + dr
        if not (0 <= nf <= 8 and 0 <= nr <= 9):
            nf, nr = f - df, r - dr
            return 2 * p - np.asarray(pts[f"{'abcdefghi'[nf]}{nr}"])
        return np.asarray(pts[f"{'abcdefghi'[nf]}{nr}"])

    lines = []
    for along in (neighbour(1, 0), neighbour(0, 1)):
        d = along - p
        spacing = float(np.linalg.norm(d))
        d /= spacing
        n = np.array([-d[1], d[0]])
        samples = []
        for frac in (-0.42, 0.42):
            q = p + d * frac * spacing
            c = _line_centre(image, q, n, 0.22 * spacing, ink)
            if c is None:
                return None
            samples.append(c)
        lines.append(samples)
    (a1, a2), (b1, b2) = lines
    # intersect the two measured lines
    m = np.column_stack([a2 - a1, b1 - b2])
    s = np.linalg.solve(m, b1 - a1)
    return a1 + s[0] * (a2 - a1)


# points whose four arms are plain line (no river gap, palace diagonal, edge or piece nearby)
CHECK = [n for n in POINT_NAMES if n[0] in "bcgh" and n[1] in "1268"]


@pytest.mark.parametrize("seed", [3, 11, 29, 47])
def test_line_crossings_match_truth_points(seed: int) -> None:
    style = ViewStyle.sample(np.random.default_rng(seed), width=640, height=480).clean()
    style = dataclasses.replace(style, coverage=0.9, tilt_deg=min(style.tilt_deg + 10, 25.0), blur_sigma=0.0)
    image, truth = render_position(KINGS_ONLY, seed, style=style)
    errors = []
    for name in CHECK:
        measured = _measured_crossing(image, truth.points, name, np.asarray(style.line_colour, float))
        assert measured is not None, f"no line found near {name}"
        errors.append(float(np.linalg.norm(measured - np.asarray(truth.points[name]))))
    assert max(errors) < 1.0, f"seed {seed}: crossing errors {np.round(errors, 2)}"


def test_points_follow_lens_distortion() -> None:
    """With barrel distortion the points move toward the image centre, as the lens model says."""
    base = ViewStyle.sample(np.random.default_rng(5), width=640, height=480).clean()
    _, flat = render_position(KINGS_ONLY, 5, style=base)
    _, bent = render_position(KINGS_ONLY, 5, style=dataclasses.replace(base, barrel=0.05))
    centre = np.array([319.5, 239.5])
    for name in ("a0", "i9", "a9", "i0"):
        r_flat = np.linalg.norm(np.asarray(flat.points[name]) - centre)
        r_bent = np.linalg.norm(np.asarray(bent.points[name]) - centre)
        assert r_bent < r_flat


def test_distorted_crossings_match_truth_points() -> None:
    """The truth includes the lens model: crossings still sit on the reported (distorted) points."""
    style = ViewStyle.sample(np.random.default_rng(8), width=640, height=480).clean()
    style = dataclasses.replace(style, barrel=0.06, coverage=0.92)
    image, truth = render_position(KINGS_ONLY, 8, style=style)
    for name in CHECK:
        measured = _measured_crossing(image, truth.points, name, np.asarray(style.line_colour, float))
        assert measured is not None
        assert np.linalg.norm(measured - np.asarray(truth.points[name])) < 1.2, name
