"""``xqrec render position`` and ``xqrec render dataset`` (views and labelled crops)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from rules import Position
from synth import cli
from synth.dataset import CLASSES, DatasetOptions, dataset_view, point_crops, view_seed, write_dataset
from synth.view import render_view


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    cli.register(sub)
    args = parser.parse_args(argv)
    return int(args.handler(args))


def test_render_position_writes_image_and_truth(tmp_path: Path) -> None:
    fen = "3k5/9/9/9/4R4/9/9/9/9/5K3 w - - 0 1"
    out, truth = tmp_path / "v.png", tmp_path / "t.json"
    assert _run(["render", "position", "--fen", fen, "--seed", "5", "--out", str(out), "--truth", str(truth),
                 "--width", "800", "--height", "600", "--set", "tilt_deg=0", "--set", 'board_material="paper"',
                 "--hand"]) == 0
    image = cv2.imread(str(out))
    assert image is not None
    data = json.loads(truth.read_text())
    assert image.shape == (600, 800, 3)
    assert data["style"]["board_material"] == "paper" and data["style"]["tilt_deg"] == 0
    assert Position.from_fen(data["fen"]) == Position.from_fen(fen)
    assert len(data["points"]) == 90 and "e5" in data["piece_offsets"]
    # the --style file reproduces the same view
    style_file = tmp_path / "style.json"
    style_file.write_text(json.dumps(data["style"]))
    again = tmp_path / "again.png"
    _run(["render", "position", "--fen", fen, "--seed", "5", "--out", str(again), "--style", str(style_file), "--hand"])
    again_image = cv2.imread(str(again))
    assert again_image is not None and np.array_equal(again_image, image)


def test_render_position_clean_and_bad_arguments(tmp_path: Path) -> None:
    out, truth = tmp_path / "c.png", tmp_path / "c.json"
    _run(["render", "position", "--seed", "2", "--clean", "--out", str(out), "--truth", str(truth)])
    style = json.loads(truth.read_text())["style"]
    assert style["barrel"] == 0 and style["noise_sigma"] == 0 and style["jpeg_quality"] == 0
    with pytest.raises(ValueError, match="unknown style"):
        _run(["render", "position", "--out", str(out), "--set", "colour_of_sky=1"])
    with pytest.raises(ValueError, match="width"):
        _run(["render", "position", "--out", str(out), "--width", "640"])


@pytest.mark.parametrize(("argv", "message"), [
    (["--out", "a"], "name a picture file"),
    (["--out", "a.txt"], "name a picture file"),
    (["--width", "0", "--height", "480"], "--width 0 is not between 64"),
    (["--width", "-5", "--height", "240"], "--width -5"),
    (["--set", "tilt_deg=abc"], "tilt_deg must be a number"),
    (["--set", "ring=1"], "ring must be true or false"),
    (["--set", "board_colour=[1, 2]"], "board_colour must be a list of 3 numbers"),
    (["--set", 'board_material="marble"'], "board_material 'marble' is not one of wood, paper"),
    (["--set", "tilt_deg=89"], "tilt_deg 89.0 is outside what can be drawn"),
    (["--set", "coverage=5"], "coverage 5.0 is outside"),
])
def test_render_position_refuses_what_it_cannot_draw_before_drawing(tmp_path: Path, argv: list[str],
                                                                       message: str) -> None:
    """A tester got OpenCV and numpy tracebacks, a picture with no board, and a truth file naming a
    board material the renderer drew as its default."""
    if "--out" not in argv:
        argv = [*argv, "--out", str(tmp_path / "v.png")]
    else:
        argv = [arg if arg != argv[argv.index("--out") + 1] else str(tmp_path / arg) for arg in argv]
    with pytest.raises(ValueError, match=message):
        _run(["render", "position", *argv])
    assert not list(tmp_path.iterdir())


def test_render_dataset_refuses_impossible_crops_and_rates(tmp_path: Path) -> None:
    for extra, message in ((["--crop-px", "0"], "8 pixels or more"), (["--hand-rate", "5"], "hand-rate 5")):
        with pytest.raises(ValueError, match=message):
            _run(["render", "dataset", "--n", "1", "--outdir", str(tmp_path / "d"), "--crops", *extra])


def test_dataset_views_are_deterministic(tmp_path: Path) -> None:
    for name in ("a", "b"):
        _run(["render", "dataset", "--n", "2", "--seed", "3", "--outdir", str(tmp_path / name),
              "--width", "320", "--height", "240"])
    a = sorted((tmp_path / "a" / "views").iterdir())
    b = sorted((tmp_path / "b" / "views").iterdir())
    assert [p.name for p in a] == ["000000.jpg", "000000.json", "000001.jpg", "000001.json"]
    for pa, pb in zip(a, b, strict=True):
        assert pa.read_bytes() == pb.read_bytes()
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    assert sum(manifest["counts"].values()) == 2 * 90


def test_dataset_crops_carry_the_right_labels(tmp_path: Path) -> None:
    options = DatasetOptions(n=3, seed=1, split="dev", hand_rate=0.5, width=480, height=360, crops=True,
                             spacing_px=32, crop_px=40)
    manifest = write_dataset(options, tmp_path)
    shard = np.load(tmp_path / str(manifest["shards"][0]))  # type: ignore[index]
    assert shard["images"].shape == (270, 40, 40, 3)
    labels, points, seeds = shard["labels"], shard["points"], shard["seeds"]
    assert set(labels.tolist()) <= set(range(len(CLASSES)))
    first = view_seed("dev", 1, 0)
    _, truth, _ = dataset_view(options, 0)
    occupied = {p: Position.from_fen(truth.fen).piece_at(p) for p in truth.points}
    for label, point, seed in zip(labels[:90], points[:90], seeds[:90], strict=True):
        assert seed == first
        want = "covered" if point in truth.covered else occupied[str(point)] or "empty"
        assert CLASSES[int(label)] == want


def test_crops_are_centred_on_the_points() -> None:
    """In the rectified crops of a clean view the empty points show a line crossing at the centre."""
    from synth.style import ViewStyle

    style = ViewStyle.sample(np.random.default_rng(2), width=640, height=480).clean()
    image, truth, scene = render_view("3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1", 2, style=style)
    crops, labels, names = point_crops(image, truth, scene, 32, 33)
    line = np.asarray(style.line_colour, float)
    for crop, name in zip(crops, names, strict=True):
        if name[0] not in "bcgh" or name[1] not in "1268":
            continue
        dist = np.linalg.norm(crop.astype(float) - line, axis=2)
        row = dist[16].mean()
        off_row = dist[8].mean()
        assert row < off_row, name  # the horizontal line runs through the crop's middle row


def test_missing_font_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from synth import fonts

    monkeypatch.setattr(fonts, "FONT_DIRS", (tmp_path,))
    for cache in (fonts._truetype, fonts._glyph_base, fonts.glyph_mask):
        cache.cache_clear()
    try:
        with pytest.raises(ValueError, match="install the Debian package fonts-"):
            _run(["render", "position", "--out", str(tmp_path / "x.png")])
    finally:
        for cache in (fonts._truetype, fonts._glyph_base, fonts.glyph_mask):
            cache.cache_clear()
