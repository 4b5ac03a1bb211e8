"""``xqrec calibrate``: writes the JSON and the overlay, refuses a frame with no board."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from recorder.cli import main
from tests.calibration.drawn import render_drawn, start_pieces


def test_calibrate_image_writes_json_and_overlay(tmp_path: Path) -> None:
    view = render_drawn(51, pieces=start_pieces())
    source = tmp_path / "frame.png"
    cv2.imwrite(str(source), view.image)
    out, overlay = tmp_path / "calib.json", tmp_path / "overlay.png"
    assert main(["calibrate", str(source), "--out", str(out), "--overlay", str(overlay)]) == 0
    data = json.loads(out.read_text())
    assert data["red_side"] == view.red_side and data["image_size"] == [1280, 960]
    assert len(data["points"]) == 90
    assert np.hypot(*(np.array(data["points"]["e0"]) - view.points["e0"])) < 0.05 * view.spacing_px
    drawn = cv2.imread(str(overlay))
    assert drawn is not None and drawn.shape == view.image.shape


def test_calibrate_warns_of_a_board_too_small_to_read_reliably(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a new-user tester: a 320x180 picture was calibrated with no word that read-board would warn of
    view = render_drawn(51, pieces=start_pieces())
    source = tmp_path / "frame.png"
    cv2.imwrite(str(source), view.image)
    assert main(["calibrate", str(source), "--out", str(tmp_path / "big.json")]) == 0
    assert "the board is small" not in capsys.readouterr().err
    cv2.imwrite(str(source), cv2.resize(view.image, (320, 240), interpolation=cv2.INTER_AREA))
    assert main(["calibrate", str(source), "--out", str(tmp_path / "small.json")]) == 0
    assert "warning: the board is small in the picture" in capsys.readouterr().err


def test_calibrate_with_explicit_red_side_on_an_empty_board(tmp_path: Path) -> None:
    view = render_drawn(52, rotation_deg=92.0, tilt_deg=10.0)
    source = tmp_path / "empty.jpg"
    cv2.imwrite(str(source), view.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    out = tmp_path / "calib.json"
    assert main(["calibrate", str(source), "--out", str(out), "--red-side", view.red_side]) == 0
    data = json.loads(out.read_text())
    assert data["red_side"] == view.red_side
    assert np.hypot(*(np.array(data["points"]["a0"]) - view.points["a0"])) < 0.05 * view.spacing_px


def test_calibrate_without_a_board_exits_nonzero(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "table.png"
    cv2.imwrite(str(source), np.full((480, 640, 3), 90, np.uint8))
    assert main(["calibrate", str(source), "--out", str(tmp_path / "c.json")]) == 1
    assert "board not found: the picture is one flat grey" in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists()
    # a black picture is told as one, as record tells it (a tester: "no grid-like line structure")
    cv2.imwrite(str(source), np.zeros((480, 640, 3), np.uint8))
    assert main(["calibrate", str(source), "--out", str(tmp_path / "c.json")]) == 1
    assert "board not found: the picture is black" in capsys.readouterr().err


def test_lens_calibration_from_a_folder_of_chessboard_views(tmp_path: Path) -> None:
    from tests.calibration.test_geometry import _chessboard_views

    folder = tmp_path / "chart"
    folder.mkdir()
    for i, view in enumerate(_chessboard_views()):
        cv2.imwrite(str(folder / f"view{i}.png"), view)
    out = tmp_path / "lens.json"
    assert main(["calibrate", str(folder), "--chessboard", "10x8", "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["model"] == "opencv" and data["image_size"] == [800, 600]


def test_outputs_that_cannot_be_written_are_refused_before_any_work(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A tester was told the overlay was written into a folder that does not exist, and got an
    OpenCV traceback for an overlay named .txt."""
    source = tmp_path / "table.png"
    cv2.imwrite(str(source), np.full((480, 640, 3), 90, np.uint8))
    for option, path, said in (("--overlay", tmp_path / "none" / "o.png", "does not exist"),
                               ("--overlay", tmp_path / "o.txt", "name a picture file"),
                               ("--out", tmp_path / "none" / "c.json", "does not exist")):
        assert main(["calibrate", str(source), option, str(path)]) == 2
        assert said in capsys.readouterr().err
    # a tester's typo turned a game's only video into 4 KB of calibration; the picture into its overlay
    before = source.read_bytes()
    for option in ("--out", "--overlay"):
        assert main(["calibrate", str(source), option, str(tmp_path / "." / "table.png")]) == 2
        assert "give another path" in capsys.readouterr().err
    assert main(["calibrate", str(source), "--out", str(tmp_path / "c.png"), "--overlay", str(tmp_path / "c.png")]) == 2
    assert source.read_bytes() == before and not (tmp_path / "c.png").exists()


def test_a_calibration_file_that_contradicts_itself_or_is_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    import pytest

    from calibration.geometry import BoardGeometry

    view = render_drawn(51, pieces=start_pieces())
    source, out = tmp_path / "frame.png", tmp_path / "calib.json"
    cv2.imwrite(str(source), view.image)
    assert main(["calibrate", str(source), "--out", str(out)]) == 0
    good = json.loads(out.read_text())
    for change, said in (({"version": 99}, "version 99"), ({"points": {**good["points"], "e5": ["x", 1]}}, "pairs"),
                         ({"points": {**good["points"], "e5": [good["points"]["e5"][0] + 40, good["points"]["e5"][1]]}},
                          "disagree"), ({"points": {**good["points"], "z9": [1, 2]}}, "not an ICCS point")):
        out.write_text(json.dumps({**good, **change}))
        with pytest.raises(ValueError, match=said):
            BoardGeometry.load(out)


def test_a_board_whose_lines_do_not_confirm_it_is_placed_by_pieces_set_up_for_a_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A tester's defocused camera: the recorder found its board (the pieces stood as at the start),
    but `calibrate`, which the error message recommends, refused every frame. The pieces now confirm
    a grid through their centres as they do in the recorder."""
    from calibration import BoardGeometry, BoardLocator, BoardNotFoundError

    video = Path(__file__).resolve().parents[1] / "fixtures" / "game_short.mp4"
    located = BoardLocator().locate(_first_frame(video))

    def refuse(self: BoardLocator, image: np.ndarray) -> object:
        raise BoardNotFoundError("lattice fit too weak (lines washed out)")

    monkeypatch.setattr(BoardLocator, "locate", refuse)
    out, overlay = tmp_path / "c.json", tmp_path / "o.png"
    assert main(["calibrate", str(video), "--out", str(out), "--overlay", str(overlay), "--frames", "3"]) == 0
    assert "by its pieces, which stand as at a game's start, or nearly so" in capsys.readouterr().out
    placed = BoardGeometry.load(out)
    assert placed.red_side == located.red_side
    moved = [np.hypot(*np.subtract(placed.point(f, r), located.point(f, r))) for f in range(9) for r in range(10)]
    assert max(moved) < 0.2 * float(np.hypot(*np.subtract(located.point(1, 0), located.point(0, 0))))


def _first_frame(video: Path) -> np.ndarray:
    reader = cv2.VideoCapture(str(video))
    ok, frame = reader.read()
    reader.release()
    assert ok
    return frame


def test_a_source_that_will_not_open_is_refused_as_record_refuses_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a tester: calibrate said only "cannot open video source: 3" where record names the cause
    empty = tmp_path / "empty"
    empty.mkdir()
    text = tmp_path / "notes.mp4"
    text.write_text("not a video")
    cases = [("97", "cannot open camera 97: there is no /dev/video97 on this machine"),
             (str(empty), f"no images in {empty}"),
             (str(text), f"cannot open video file {text}: it holds text, not video"),
             (str(tmp_path / "gone.mp4"), "no such file or folder"),
             ("http://user:secret@127.0.0.1:9/feed.mjpg?token=abc", "cannot open stream http://127.0.0.1:9/feed.mjpg?token=***")]
    for source, said in cases:
        assert main(["calibrate", source, "--out", str(tmp_path / "c.json")]) != 0
        err = capsys.readouterr().err
        assert said in err and "secret" not in err and "abc" not in err, err
