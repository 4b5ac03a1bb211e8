"""BoardGeometry: mapping both ways, rectification, naming turns, JSON; lens models."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import BoardGeometry, LensModel, RadialDistortion, calibrate_chessboard
from calibration.board import all_points, point_name


def make_geometry(lens: RadialDistortion | None = None, red_side: str | None = "bottom") -> BoardGeometry:
    """A tilted, rotated board in a 1280x960 frame (red's rank 0 towards the bottom)."""
    board = np.array([[0, 0], [8, 0], [8, 9], [0, 9]], dtype=np.float32)
    image = np.array([[380, 850], [930, 820], [880, 130], [420, 160]], dtype=np.float32)
    h = cv2.getPerspectiveTransform(board, image).astype(np.float64)
    return BoardGeometry(homography=h, image_size=(1280, 960), confidence=0.93, red_side=red_side, lens=lens)


def test_point_and_image_to_board_are_inverse() -> None:
    geometry = make_geometry(lens=RadialDistortion(0.05, (1280, 960)))
    for file, rank in ((0, 0), (4, 5), (8, 9), (3, 7)):
        x, y = geometry.point(file, rank)
        u, v = geometry.image_to_board((x, y))
        assert abs(u - file) < 1e-6 and abs(v - rank) < 1e-6


def test_rectify_puts_each_point_at_its_rectified_pixel() -> None:
    geometry = make_geometry()
    frame = np.zeros((960, 1280, 3), np.uint8)
    for file, rank in ((0, 0), (8, 9), (4, 2)):
        x, y = geometry.point(file, rank)
        cv2.circle(frame, (int(round(x)), int(round(y))), 3, (255, 255, 255), -1)
    top = geometry.rectify(frame)
    assert top.shape[1::-1] == geometry.rectified_size
    gray = cv2.GaussianBlur(cv2.cvtColor(top, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 2)
    for file, rank in ((0, 0), (8, 9), (4, 2)):
        px, py = geometry.rectified_point(file, rank)
        window = gray[int(py) - 8:int(py) + 9, int(px) - 8:int(px) + 9]
        dy, dx = np.unravel_index(int(np.argmax(window)), window.shape)
        assert abs(dx - 8) <= 1 and abs(dy - 8) <= 1
    # red's back rank is at the bottom of the rectified image
    assert geometry.rectified_point(0, 0)[1] > geometry.rectified_point(0, 9)[1]


def test_rectify_refuses_a_frame_of_another_size() -> None:
    with pytest.raises(ValueError, match="1280x960"):
        make_geometry().rectify(np.zeros((480, 640, 3), np.uint8))


def test_turned_and_explicit_red_side() -> None:
    geometry = make_geometry()
    turned = geometry.turned()
    assert np.allclose(turned.point(0, 0), geometry.point(8, 9))
    assert turned.red_side == "top"
    assert geometry.with_red_side("top").red_side == "top"
    assert geometry.with_red_side("bottom").red_side == "bottom"
    with pytest.raises(ValueError):
        geometry.with_red_side("north")


def test_json_round_trip(tmp_path: Path) -> None:
    geometry = make_geometry(lens=RadialDistortion(0.03, (1280, 960)))
    path = tmp_path / "calib.json"
    geometry.save(path)
    data = json.loads(path.read_text())
    assert data["image_size"] == [1280, 960] and data["red_side"] == "bottom"
    assert set(data["points"]) == {point_name(int(u), int(v)) for u, v in all_points()}
    assert np.allclose(data["points"]["e0"], geometry.point(4, 0), atol=1e-3)
    loaded = BoardGeometry.load(path)
    assert loaded.red_side == "bottom" and loaded.image_size == (1280, 960)
    assert np.allclose(loaded.points_array(all_points()), geometry.points_array(all_points()), atol=1e-6)
    # a file with only the points (as another tool might write) is fitted from them
    bare = {"image_size": data["image_size"], "points": data["points"], "red_side": None}
    fitted = BoardGeometry.from_json({**bare, "lens": data["lens"]})
    assert np.allclose(fitted.points_array(all_points()), geometry.points_array(all_points()), atol=0.01)
    with pytest.raises(ValueError):
        BoardGeometry.from_json({**bare, "red_side": "north"})


def test_radial_distortion_is_inverted() -> None:
    lens = RadialDistortion(0.06, (1280, 960))
    pts = np.array([[0.0, 0.0], [1279.0, 959.0], [640.0, 100.0], [300.0, 700.0]])
    assert np.allclose(lens.undistort_points(lens.distort(pts)), pts, atol=1e-6)


def _chessboard_views() -> list[np.ndarray]:
    square = 40
    cells = np.full((9 * square, 11 * square), 255, np.uint8)
    for r in range(9):
        for c in range(11):
            if (r + c) % 2:
                cells[r * square:(r + 1) * square, c * square:(c + 1) * square] = 0
    board = cv2.copyMakeBorder(cells, square, square, square, square, cv2.BORDER_CONSTANT, value=255)
    h, w = board.shape
    camera = np.array([[700.0, 0.0, 400.0], [0.0, 700.0, 300.0], [0.0, 0.0, 1.0]])
    to_world = np.array([[1 / square, 0.0, -w / 2 / square], [0.0, 1 / square, -h / 2 / square], [0.0, 0.0, 1.0]])
    views = []
    rng = np.random.default_rng(3)
    for _ in range(6):  # a pinhole camera looking at the chart from several tilts
        rotation, _ = cv2.Rodrigues(rng.uniform(-0.35, 0.35, 3))
        t = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), 24.0])
        m = camera @ np.c_[rotation[:, 0], rotation[:, 1], t] @ to_world
        views.append(cv2.warpPerspective(board, m, (800, 600), borderValue=(255,)))
    return views


def test_chessboard_lens_calibration_and_json(tmp_path: Path) -> None:
    lens = calibrate_chessboard(_chessboard_views(), (10, 8), square=1.0)
    assert lens.rms < 0.5  # undistorted synthetic views: a near-exact pinhole fit
    pts = np.array([[100.0, 100.0], [400.0, 300.0], [700.0, 500.0]])
    assert np.allclose(lens.distort(lens.undistort_points(pts)), pts, atol=0.05)
    lens.save(tmp_path / "lens.json")
    again = LensModel.load(tmp_path / "lens.json")
    assert np.allclose(again.camera_matrix, lens.camera_matrix)
    with pytest.raises(ValueError):
        calibrate_chessboard([np.zeros((100, 100), np.uint8)], (10, 8))


def test_rectify_through_a_lens_matches_the_points() -> None:
    geometry = make_geometry(lens=RadialDistortion(0.05, (1280, 960)))
    frame = np.zeros((960, 1280, 3), np.uint8)
    x, y = geometry.point(8, 9)
    cv2.circle(frame, (int(round(x)), int(round(y))), 3, (255, 255, 255), -1)
    for _ in range(2):  # the second call reuses the cached maps
        gray = cv2.GaussianBlur(cv2.cvtColor(geometry.rectify(frame), cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 2)
        px, py = geometry.rectified_point(8, 9)
        window = gray[int(py) - 8:int(py) + 9, int(px) - 8:int(px) + 9]
        dy, dx = np.unravel_index(int(np.argmax(window)), window.shape)
        assert abs(dx - 8) <= 1 and abs(dy - 8) <= 1


def test_a_calibration_whose_grid_cannot_be_read_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "calib.json"
    good = make_geometry()
    assert good.unreadable() is None
    shift = np.array([[1.0, 0.0, 900.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    cases = {
        "spacing is 1.0 px": np.eye(3),  # a grid spacing of one pixel: an empty board read
        "too small": np.diag([5.0, 5.0, 1.0]) + np.array([[0, 0, 300.0], [0, 0, 200.0], [0, 0, 0]]),
        "outside the 1280x960 frame": shift @ good.homography,
        "folds the board over": np.array([[40.0, 0.0, 100.0], [0.0, 40.0, 100.0], [0.0, 0.25, -1.0]]),
        "cannot be inverted": np.array([[4e6, 8e6, 0.0], [2e6, 4e6 + 1e-6, 0.0], [0.0, 0.0, 1.0]]),  # det 4, rank ~1
    }
    for said, homography in cases.items():
        data = {"image_size": [1280, 960], "points": {}, "homography": homography.tolist()}
        path.write_text(json.dumps(data), encoding="utf-8")
        with pytest.raises(ValueError, match=said) as refused:
            BoardGeometry.load(path)
        assert str(path) in str(refused.value), said
    good.save(path)
    assert BoardGeometry.load(path).unreadable() is None
    # a tester's hand-edited size read "invalid literal for int() with base 10: 'b'"
    for size in ("big", [1280], [1280.5, 960], [True, 960]):
        data = {**good.to_json(), "image_size": size}
        path.write_text(json.dumps(data), encoding="utf-8")
        with pytest.raises(ValueError, match=r"'image_size' must be \[width, height\] in whole pixels"):
            BoardGeometry.load(path)


@pytest.mark.parametrize("lens", [None, RadialDistortion(k=0.08, image_size=(1280, 960))])
def test_a_mirrored_grid_keeps_each_name_on_its_point_of_the_flipped_picture(lens: RadialDistortion | None) -> None:
    geometry = make_geometry(lens, red_side="left")
    mirrored = geometry.mirrored()
    assert mirrored is not None and mirrored.red_side == "right"
    before, after = geometry.points(), mirrored.points()
    width = geometry.image_size[0]
    for name, (x, y) in before.items():
        twin = "abcdefghi"[8 - "abcdefghi".index(name[0])] + name[1:]  # the same point seen in a mirror
        assert after[twin] == pytest.approx((width - 1 - x, y), abs=1e-6)
    image = np.zeros((960, 1280, 3), dtype=np.uint8)
    cv2.circle(image, tuple(int(round(v)) for v in before["c3"]), 6, (0, 0, 255), -1)
    seen = geometry.rectify(image)[:, ::-1, 2].astype(float)  # files the other way round
    in_mirror = mirrored.rectify(np.ascontiguousarray(image[:, ::-1]))[:, :, 2].astype(float)
    assert np.abs(seen - in_mirror).mean() < 1.0 and np.argmax(seen) == np.argmax(in_mirror)


def test_the_overlays_label_fits_a_small_picture() -> None:
    """At 320x180 the label ("confidence 1.00  red side: bottom") ran past the picture's edge, cut
    off mid-word; it now shrinks to fit, and a large picture's is as large as before."""
    from calibration import draw_overlay

    for size, label_height in (((180, 320), 30), ((960, 1280), 40)):
        frame = np.full((*size, 3), 200, dtype=np.uint8)
        h = np.array([[size[1] / 16, 0.0, size[1] / 4], [0.0, -size[0] / 14, size[0] * 0.8], [0.0, 0.0, 1.0]])
        geometry = BoardGeometry(homography=h, image_size=(size[1], size[0]), confidence=1.0, red_side="bottom")
        out = draw_overlay(frame, geometry)
        row = out[8]  # through the label's dark box
        assert (row[4:9] == 0).all() and (row[-4:] != 0).any()
        assert (out[: label_height + 10, 8] == 0).sum() >= label_height * 0.6
