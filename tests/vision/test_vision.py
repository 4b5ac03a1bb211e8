"""The crop function, the probability wrapper and the committed ONNX model with its metadata."""

from __future__ import annotations

import json

import numpy as np
import pytest

from calibration.geometry import BoardGeometry
from recorder.vision import (
    DEFAULT_MODEL,
    POINT_NAMES,
    PieceClassifier,
    PointProbabilities,
    file_sha256,
    point_crops,
    point_index,
    rectified_layout,
    red_at_rank0,
    settle_red_side,
)
from rules import Position

CLASSES = ("empty", "K", "A", "B", "N", "R", "C", "P", "k", "a", "b", "n", "r", "c", "p", "covered")
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"


def one_hot(placement: str, covered: tuple[str, ...] = ()) -> PointProbabilities:
    probs = np.zeros((90, len(CLASSES)), dtype=np.float32)
    board = Position.from_fen(placement + " w - - 0 1")
    letters = {n: "empty" for n in POINT_NAMES}
    for sq, letter in board.pieces():
        from rules.squares import square_name

        letters[square_name(sq)] = letter
    for name in covered:
        letters[name] = "covered"
    for name, label in letters.items():
        probs[point_index(name), CLASSES.index(label)] = 1.0
    return PointProbabilities(probs=probs, classes=CLASSES)


def test_point_names_are_in_fen_reading_order() -> None:
    assert POINT_NAMES[0] == "a9" and POINT_NAMES[8] == "i9" and POINT_NAMES[-1] == "i0"
    assert all(point_index(n) == i for i, n in enumerate(POINT_NAMES))


def test_rectified_layout_is_read_from_the_image_size() -> None:
    geometry = BoardGeometry(homography=np.eye(3), image_size=(100, 100), confidence=1.0, red_side="bottom")
    width, height = geometry.rectified_size
    assert rectified_layout((height, width, 3)) == (48.0, 1.0)
    with pytest.raises(ValueError):
        rectified_layout((100, 100, 3))


def test_crops_are_centred_on_the_points() -> None:
    rectified = np.zeros((529, 481, 3), dtype=np.uint8)  # spacing 48, margin 1
    rectified[(1 + 9 - 3) * 48 - 2:(1 + 9 - 3) * 48 + 3, (1 + 4) * 48 - 2:(1 + 4) * 48 + 3] = 255  # point e3
    crops = point_crops(rectified, out_px=44, context=1.5)
    assert crops.shape == (90, 44, 44, 3)
    bright = crops[:, :, :, 0].reshape(90, -1).max(axis=1)
    assert int(np.argmax(bright)) == point_index("e3")
    ys, xs = np.nonzero(crops[point_index("e3"), :, :, 0] > 40)
    assert abs(ys.mean() - 21.5) < 0.6 and abs(xs.mean() - 21.5) < 0.6


def test_the_centre_of_a_wider_crop_is_the_runtime_crop() -> None:
    rng = np.random.default_rng(0)
    rectified = rng.integers(0, 255, size=(529, 481, 3), dtype=np.uint8)
    narrow = point_crops(rectified, out_px=44, context=1.5)
    wide = point_crops(rectified, out_px=64, context=1.5 * 64 / 44)
    assert np.abs(wide[:, 10:54, 10:54].astype(int) - narrow.astype(int)).max() <= 1


def test_placement_and_covered_points_from_probabilities() -> None:
    probs = one_hot(START)
    assert probs.argmax_fen_placement() == START
    assert probs.pieces()["e0"] == "K" and probs.label("e9") == "k"
    hidden = one_hot(START, covered=("e0", "e3"))
    assert hidden.covered_points() == ["e3", "e0"]
    assert hidden.covered_mask().sum() == 2
    assert hidden.argmax_fen_placement() == "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P3P1P/1C5C1/9/RNBA1ABNR"
    assert hidden.prob("e0", "covered") == 1.0
    with pytest.raises(ValueError):
        PointProbabilities(probs=np.zeros((89, 16)), classes=CLASSES)


def test_model_metadata_matches_the_file() -> None:
    meta = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text(encoding="utf-8"))
    assert meta["sha256"] == file_sha256(DEFAULT_MODEL)
    assert DEFAULT_MODEL.stat().st_size <= 5 * 1024 * 1024
    assert tuple(meta["classes"]) == CLASSES
    for key in ("crop", "normalisation", "input", "temperature", "training"):
        assert key in meta


def test_classifier_returns_probabilities_for_every_point() -> None:
    clf = PieceClassifier()
    rectified = np.full((529, 481, 3), 180, dtype=np.uint8)
    probs = clf.classify(rectified)
    assert probs.probs.shape == (90, 16)
    assert np.allclose(probs.probs.sum(axis=1), 1.0, atol=1e-4)
    assert set(clf.last_timings) == {"crop_ms", "infer_ms"}


def test_a_tampered_model_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    model = tmp_path / "m.onnx"
    model.write_bytes(DEFAULT_MODEL.read_bytes())
    meta = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text(encoding="utf-8"))
    meta["sha256"] = "0" * 64
    (tmp_path / "m.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ValueError, match="sha256"):
        PieceClassifier(model)
    # a picture given as the model, its truth file beside it taken for the metadata (a tester)
    picture = tmp_path / "p1.jpg"
    picture.write_bytes(b"\xff\xd8 not a model")
    (tmp_path / "p1.json").write_text(json.dumps({"fen": "x", "points": {}}), encoding="utf-8")
    with pytest.raises(ValueError, match="is not a classifier's metadata .*is .*p1.jpg a model"):
        PieceClassifier(picture)


def turned(probs: PointProbabilities) -> PointProbabilities:
    """The same board with its point names turned by 180 degrees (POINT_NAMES reversed)."""
    return PointProbabilities(probs=probs.probs[::-1].copy(), classes=probs.classes)


@pytest.mark.parametrize("placement", [
    START,
    "3akab2/9/4b4/p2C4p/2p6/6P2/P3P3P/2N1B4/4A4/2BAK4",  # a middlegame: pieces crossed the river
    "4k4/9/9/9/9/9/9/9/9/3K5",  # the two generals alone
])
def test_the_confined_pieces_tell_red_side(placement: str) -> None:
    probs = one_hot(placement)
    assert red_at_rank0(probs) is True
    assert red_at_rank0(turned(probs)) is False


def test_red_side_stays_open_without_confined_pieces() -> None:
    probs = np.zeros((90, len(CLASSES)), dtype=np.float32)
    probs[:, CLASSES.index("empty")] = 1.0
    assert red_at_rank0(PointProbabilities(probs=probs, classes=CLASSES)) is None
    for name, letter in (("e2", "r"), ("e7", "R"), ("a3", "P")):  # chariots go anywhere, soldiers are no palace
        probs[point_index(name)] = 0.0
        probs[point_index(name), CLASSES.index(letter)] = 1.0
    assert red_at_rank0(PointProbabilities(probs=probs, classes=CLASSES)) is None


def test_an_undetermined_geometry_is_settled_by_the_pieces() -> None:
    h = np.array([[50.0, 0.0, 100.0], [0.0, -50.0, 600.0], [0.0, 0.0, 1.0]])  # rank 0 at the bottom
    geometry = BoardGeometry(homography=h, image_size=(640, 720), confidence=1.0, red_side=None)
    straight = settle_red_side(geometry, one_hot(START))
    assert straight.red_side == "bottom" and np.allclose(straight.homography, h)
    flipped = settle_red_side(geometry, turned(one_hot(START)))
    assert flipped.red_side == "top"
    assert np.allclose(flipped.points()["e0"], geometry.points()["e9"])
    known = BoardGeometry(homography=h, image_size=(640, 720), confidence=1.0, red_side="bottom")
    assert settle_red_side(known, turned(one_hot(START))) is known  # a known side is kept


def test_the_int8_copy_is_checked_like_the_model_and_reads_a_rendered_board_like_it() -> None:
    from synth.view import render_position
    from tests.vision.test_read_board import truth_geometry

    int8 = DEFAULT_MODEL.with_name(DEFAULT_MODEL.stem + ".int8.onnx")
    meta = json.loads(int8.with_suffix(".json").read_text(encoding="utf-8"))
    assert meta["sha256"] == file_sha256(int8)
    assert meta["quantization"]["from_sha256"] == file_sha256(DEFAULT_MODEL)  # made from the shipped model
    image, truth = render_position(START + " w - - 0 1", 5)
    rectified = truth_geometry(truth, image).rectify(image)
    full = PieceClassifier().classify(rectified).probs.argmax(axis=1)
    small = PieceClassifier(int8).classify(rectified).probs.argmax(axis=1)
    assert (full == small).mean() >= 0.95
