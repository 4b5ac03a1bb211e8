"""Refinement next to the board's outer frame: a strong frame line just outside a faint grid edge."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration import refine as refine_module
from calibration.board import all_points
from calibration.evidence import project
from calibration.refine import refine
from tests.calibration.drawn import grid_response

SPACING = 50.0
ORIGIN = 60.0


def _response(frame_gap: float, grid: float, frame: float) -> tuple[np.ndarray, np.ndarray]:
    """A line-response image: the grid's lines at ``grid``, a frame ``frame_gap`` spacings outside at ``frame``."""
    return grid_response(SPACING, ORIGIN, grid, [(frame_gap, frame, 5)])


def _places() -> tuple[np.ndarray, np.ndarray]:
    """The sample places and their line normals as the refinement lays them out."""
    a = refine_module._SEGMENTS[:, 0, :]
    d = refine_module._SEGMENTS[:, 1, :] - a
    normal = np.c_[-d[:, 1], d[:, 0]] / np.linalg.norm(d, axis=1, keepdims=True)
    places = (a[:, None, :] + refine_module._T[None, :, None] * d[:, None, :]).reshape(-1, 2)
    return places, np.repeat(normal, len(refine_module._T), axis=0)


def test_outer_line_takes_the_inner_of_two_parallel_lines() -> None:
    places, normals = _places()
    offsets = np.linspace(-0.3, 0.3, 61)
    mid = np.array([4.0, 4.5])
    inward = np.sign(np.sum((mid - places) * normals, axis=1))
    # a faint grid line 0.1 spacing inside the prediction, a strong frame line 0.05 outside it
    across = offsets[None, :] * inward[:, None]
    values = 40 * np.exp(-((across - 0.1) / 0.02) ** 2) + 130 * np.exp(-((across + 0.05) / 0.02) ** 2)
    centres = refine_module._edge_centres(values, places, normals, 40.0)
    outer = np.concatenate([(segs[:, None] * len(refine_module._T) + np.arange(len(refine_module._T))).ravel()
                            for segs in refine_module._OUTER])
    expected = 30 + 10 * inward[outer]
    assert np.allclose(centres[outer], expected)
    inner = np.setdiff1d(np.arange(len(places)), outer)
    assert np.all(centres[inner] == 30)
    # one line only (no frame in the window): the prediction stands
    single = 40 * np.exp(-((across - 0.1) / 0.02) ** 2)
    assert np.all(refine_module._edge_centres(single, places, normals, 40.0) == 30)


def test_frame_does_not_move_a_clear_grid() -> None:
    response, truth = _response(frame_gap=0.2, grid=80.0, frame=80.0)
    refined = refine(response, truth, 80.0)
    err = np.hypot(*(project(refined.h, all_points()) - project(truth, all_points())).T) / SPACING
    assert err.max() < 0.02


def test_lens_is_judged_off_the_edges_when_the_frame_pulls_them_outwards() -> None:
    # observations on a barrel-distorted view whose four edge lines were found 0.04 spacings outwards
    # (a double frame blurred into them): all lines together hide the bowing, the inner ones show it
    from calibration.lens import RadialDistortion

    size, k_true = (1280, 960), 0.05
    h = np.array([[70.0, 0.0, 360.0], [0.0, 70.0, 160.0], [0.0, 0.0, 1.0]])
    places, normals = _places()
    c = np.sum(places * normals, axis=1)
    mid = np.array([4.0, 4.5])
    edge = np.zeros(len(c), dtype=bool)
    for axis, values in ((0, (0.0, 8.0)), (1, (0.0, 9.0))):
        edge |= (np.abs(np.abs(normals[:, axis]) - 1) < 1e-9) & np.isin(np.abs(c), values)
    outward = -np.sign(np.sum((mid - places) * normals, axis=1))
    shifted = places + np.where(edge, 0.04, 0.0)[:, None] * outward[:, None] * normals
    image = RadialDistortion(k_true, size).distort(project(h, shifted))
    obs = refine_module._Observations(image=image, normals=normals, c=c)
    k_all, _, _ = refine_module._fit_radial(obs, size, 0.0)
    assert k_all < 0.01
    inner = refine_module._inner(obs)
    assert len(inner.c) == int((~edge).sum())
    k_inner, cost, cost0 = refine_module._fit_radial(inner, size, 0.0)
    assert abs(k_inner - k_true) < 0.005 and cost < 0.8 * cost0


def test_edge_blurred_into_a_heavy_frame_is_placed_by_the_inner_lines() -> None:
    # a faint grid whose edge lines merge with a heavy frame 0.06 spacings outside, in noisy evidence:
    # the pair's common centre is found, outwards all round, and the noise keeps it among the inliers;
    # left to it, the fit stretches the grid outwards (0.036 spacings at the corners)
    response, truth = _response(frame_gap=0.06, grid=40.0, frame=120.0)
    noise = np.random.default_rng(1).normal(0.0, 20.0, response.shape).astype(np.float32)
    refined = refine(response + cv2.GaussianBlur(noise, (0, 0), 1.0), truth, 40.0)
    err = np.hypot(*(project(refined.h, all_points()) - project(truth, all_points())).T) / SPACING
    assert err.max() < 0.015


def test_lens_costs_of_many_k_at_once_equal_one_fit_per_k() -> None:
    # the lens search fits all its trial k together; each cost must be what one robust fit per k gives
    from calibration.lens import RadialDistortion

    size = (1280, 960)
    h = np.array([[62.0, 4.0, 330.0], [-3.0, 60.0, 170.0], [0.0001, 0.00005, 1.0]])
    places, normals = _places()
    c = np.sum(places * normals, axis=1)
    rng = np.random.default_rng(3)
    image = RadialDistortion(0.04, size).distort(project(h, places)) + rng.normal(0.0, 0.1, places.shape)
    image[::17] += rng.normal(0.0, 15.0, image[::17].shape)  # piece rims: outliers the reweighting drops
    obs = refine_module._Observations(image=image, normals=normals, c=c)
    ks = np.array([0.0, 0.01, 0.02, 0.035, 0.05, 0.07, 0.1])
    batched = refine_module._radial_costs(obs, size, ks)
    for k, cost in zip(ks, batched, strict=True):
        und = RadialDistortion(float(k), size).undistort_points(image) if k else image
        _, res, _ = refine_module._robust_fit(obs, und, iterations=2)
        assert cost == pytest.approx(float(np.mean(np.minimum(res**2, 0.03**2))), rel=1e-9)
    assert batched[4] < batched[0]  # the bowed lines are seen
