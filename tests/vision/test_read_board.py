"""The classifier on held-out renders (test split) and the ``read-board`` command."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import BoardLocator
from calibration.geometry import BoardGeometry
from calibration.lens import RadialDistortion
from recorder.cli import main
from recorder.commands.read_board import read_board
from recorder.placement import legal_fen_placement
from recorder.vision import PieceClassifier
from rules import Position
from synth.positions import random_position
from synth.style import SPLIT_SEED_BASE, ViewStyle
from synth.view import ViewTruth, render_position

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR"


def truth_geometry(truth: ViewTruth, image: np.ndarray) -> BoardGeometry:
    h = np.array(truth.camera["homography"], dtype=np.float64)
    barrel = float(truth.camera.get("barrel", 0.0))
    size = (image.shape[1], image.shape[0])
    lens = RadialDistortion(k=barrel, image_size=size) if barrel else None
    return BoardGeometry(homography=h / h[2, 2], image_size=size, confidence=1.0, red_side="bottom", lens=lens)


def render(index: int, width: int = 1024, height: int = 768) -> tuple[np.ndarray, ViewTruth]:
    seed = SPLIT_SEED_BASE["test"] + 777_000 + index
    fen = random_position(np.random.default_rng([seed, 4])).fen()
    style = ViewStyle.sample(np.random.default_rng([seed, 1]), split="test", width=width, height=height)
    return render_position(fen, seed, style=style)


@pytest.fixture(scope="module")
def classifier() -> PieceClassifier:
    return PieceClassifier()


GROUP = {"empty": "empty", "covered": "covered"}


def group(label: str) -> str:
    """empty / red / black / covered."""
    return GROUP.get(label, "red" if label.isupper() else "black")


def truth_labels(truth: ViewTruth) -> list[str]:
    from recorder.vision import POINT_NAMES
    from rules.squares import square_name

    pieces = {square_name(sq): letter for sq, letter in Position.from_fen(truth.fen).pieces()}
    return ["covered" if n in truth.covered else pieces.get(n, "empty") for n in POINT_NAMES]


def test_held_out_renders_occupancy_and_side(classifier: PieceClassifier) -> None:
    """Which points hold a piece, of which side, or are under a hand (the part the model reads well)."""
    right = total = 0
    for index in range(3):
        image, truth = render(index)
        probs = classifier.classify(truth_geometry(truth, image).rectify(image))
        pairs = list(zip(probs.labels(), truth_labels(truth), strict=True))
        right += sum(group(a) == group(b) for a, b in pairs)
        total += len(pairs)
    assert right / total >= 0.97


def test_points_read_unsure_are_read_again_turned(classifier: PieceClassifier) -> None:
    """A point read less surely than ``second_look`` gets the pooled reading of its crop at four
    quarter turns; a sure one keeps its one reading."""
    from recorder.vision import SECOND_LOOK_BELOW

    once, twice = PieceClassifier(), PieceClassifier(second_look=SECOND_LOOK_BELOW)
    assert once.second_look == 0.0  # the recorder's: one reading
    crops = np.concatenate([classifier.crops(truth_geometry(t, i).rectify(i)) for i, t in map(render, range(3))])
    first, pooled = once.predict_crops(crops), twice.predict_crops(crops)
    unsure = first.max(axis=1) < SECOND_LOOK_BELOW
    assert 0 < unsure.sum() < len(crops) // 4
    assert np.array_equal(pooled[~unsure], first[~unsure])
    turned = np.stack([once.predict_crops(np.ascontiguousarray(np.rot90(crops[unsure], k, axes=(1, 2))))
                       for k in range(4)])
    expected = np.exp(np.log(np.maximum(turned, 1e-9)).mean(axis=0))
    assert np.allclose(pooled[unsure], expected / expected.sum(axis=1, keepdims=True), atol=1e-5)
    assert np.allclose(pooled.sum(axis=1), 1.0, atol=1e-5)


@pytest.mark.slow
@pytest.mark.parametrize("index", [0, 1, 2])
def test_held_out_renders_are_read_right(classifier: PieceClassifier, index: int) -> None:
    """The issue's target: every point right (the shipped model does not reach it yet; see MODEL_CARD)."""
    image, truth = render(index)
    geometry = truth_geometry(truth, image)
    probs = classifier.classify(geometry.rectify(image))
    assert legal_fen_placement(probs) == Position.from_fen(truth.fen).fen().split()[0]


def test_read_board_prints_the_placement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image, truth = render(10, 1280, 960)
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), image)
    calib = tmp_path / "calib.json"
    truth_geometry(truth, image).save(calib)
    assert main(["read-board", str(path), "--calibration", str(calib)]) == 0
    printed = capsys.readouterr().out.splitlines()[0]
    occupancy = str.maketrans("KABNRCPkabnrcp", "xxxxxxxxxxxxxx")
    rows = printed.split("/")
    assert len(rows) == 10
    expected = Position.from_fen(truth.fen).fen().split()[0]
    assert printed.translate(occupancy) == expected.translate(occupancy) or len(truth.covered) > 0
    assert main(["read-board", str(path), "--calibration", str(calib), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["points"]) == 90 and data["classes"][-1] == "covered"
    assert {"rectify_ms", "infer_ms", "rules_ms", "total_ms"} <= set(data["timings_ms"])
    assert {"doubtful", "set_by_rules", "pointwise_placement"} <= set(data) and data["placement"] == printed


def test_points_read_without_certainty_are_named_for_checking() -> None:
    from recorder.commands.read_board import BoardReading
    from recorder.placement import legal_labels
    from recorder.vision import PointProbabilities, point_index
    from tests.vision.test_placement import reading

    probs: PointProbabilities = reading(b2={"R": 0.6, "C": 0.4}, e4={"empty": 0.85, "covered": 0.15})
    geometry = BoardGeometry(homography=np.eye(3), image_size=(640, 480), confidence=1.0, red_side="bottom")
    seen = BoardReading(probs, legal_labels(probs), geometry, {})
    doubtful = seen.doubtful()
    assert set(doubtful) == {"b2", "e4"}
    read, p, other, q = doubtful["b2"]  # the rules read the third chariot as the cannon it half looked like
    assert (read, other) == ("C", "R") and abs(p - probs.probs[point_index("b2"), probs.classes.index("C")]) < 1e-9 and q > p
    assert doubtful["e4"][0] == "empty" and doubtful["e4"][2] == "covered"


def test_read_board_calibrates_by_itself(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    style = ViewStyle.sample(np.random.default_rng(0), split="test", width=1280, height=960).clean()
    image, truth = render_position(START + " w - - 0 1", SPLIT_SEED_BASE["test"] + 5, style=style)
    path = tmp_path / "start.png"
    cv2.imwrite(str(path), image)
    assert main(["read-board", str(path)]) == 0
    printed = capsys.readouterr().out.splitlines()[0]
    assert [c.isupper() for c in printed if c.isalpha()] == [c.isupper() for c in START if c.isalpha()]


def test_generals_in_their_palaces_overrule_a_colour_vote_misled_by_crossed_soldiers(
        classifier: PieceClassifier) -> None:
    """Five red soldiers in black's half and five black ones in red's: the colours stand mostly in
    the wrong halves, and calibration's vote turns the board; the generals put it right."""
    fen = "3k5/4P4/2P1P4/P7P/9/p3p3p/9/2p1p4/9/4K4 w - - 0 1"
    seed = 12
    style = ViewStyle.sample(np.random.default_rng([seed, 1]), split="test", width=1280, height=960)
    image, _ = render_position(fen, seed, style=style, split="test")
    by_colour = BoardLocator().locate(image).red_side  # the colours' vote
    reading = read_board(image, classifier)
    assert reading.placement == fen.split()[0] and reading.geometry.red_side not in (by_colour, None)


def test_read_board_places_a_board_its_lines_do_not_confirm_by_pieces_set_up_for_a_game(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Bench inject-044's first frame: faint red lines under two glare spots, too few for a grid the
    locator confirms. ``calibrate`` placed it by its pieces, set up for a game; read-board refused it
    (a tester's finding). It is placed the same way now, and says so."""
    frame = Path(__file__).resolve().parents[1] / "fixtures" / "boards" / "pale_glare_frame.jpg"
    assert main(["read-board", str(frame), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["placed_by"] == "pieces"
    assert any("placed by its pieces, which stand as at a game's start" in w for w in out["warnings"])
    board = Position.from_fen(out["placement"] + " w - - 0 1").board
    wrong = [sq for sq in range(90) if board[sq] != Position.start().board[sq]]
    assert len(wrong) <= 2  # the black general and advisor under the glare (e9, f9) read wrong


def test_read_board_refuses_an_image_without_a_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "blank.png"
    cv2.imwrite(str(path), np.full((480, 640, 3), 128, dtype=np.uint8))
    assert main(["read-board", str(path)]) != 0
    assert "no board found" in capsys.readouterr().err


def test_a_damaged_picture_with_no_board_found_blames_the_damage(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # a tester's JPEG with 1.5 kB lost inside was told to try a sharper picture
    image, _ = render_position(START + " w - - 0 1", 3, split="test")
    data = cv2.imencode(".jpg", image)[1].tobytes()
    path = tmp_path / "damaged.jpg"
    path.write_bytes(data[: len(data) // 3] + data[-2:])  # two thirds lost, the end marker kept
    assert main(["read-board", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path} is damaged (the decoder said: Corrupt JPEG data" in err
    assert "The file is damaged" in err and "sharper picture" not in err


def test_a_placement_no_game_can_show_is_named() -> None:
    from recorder.commands.read_board import impossible

    assert impossible("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNAAKAANR") == "4 red advisors, at most 2"
    assert "generals face each other" in impossible("4k4/9/9/9/9/9/9/9/9/4K4")
    # a check by the side to move is fine: a picture does not say whose turn it is
    assert impossible("4k4/9/9/9/9/9/9/9/4R4/4K4") == ""
    assert impossible("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR") == ""


def test_a_board_drawn_by_another_renderer_is_found_and_read(classifier: PieceClassifier) -> None:
    """A flat drawing (bench/flat_boards.py), a look neither training nor synth makes."""
    from bench.flat_boards import draw_view, placement_points
    from recorder.commands.read_board import read_board

    rng = np.random.default_rng([SPLIT_SEED_BASE["test"] + 950_000])
    view = draw_view(random_position(rng).fen(), rng)
    seen = read_board(view.image, classifier)
    pairs = list(zip(placement_points(seen.placement), placement_points(view.placement), strict=True))
    side = {True: "red", False: "black"}
    assert all((a == ".") == (b == ".") and (a == "." or side[a.isupper()] == side[b.isupper()]) for a, b in pairs)
    assert sum(a == b for a, b in pairs) >= 85  # a small board in a face never trained on: a few kinds misread


def test_read_board_refuses_a_grayscale_picture_and_a_board_too_small(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    style = ViewStyle.sample(np.random.default_rng(0), split="test", width=1280, height=960).clean()
    image, _ = render_position(START + " w - - 0 1", SPLIT_SEED_BASE["test"] + 5, style=style)
    gray = tmp_path / "gray.png"
    cv2.imwrite(str(gray), cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert main(["read-board", str(gray)]) == 1
    assert "no colour" in capsys.readouterr().err
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), cv2.resize(image, (160, 120), interpolation=cv2.INTER_AREA))
    assert main(["read-board", str(tiny)]) == 1
    assert "too small to read" in capsys.readouterr().err  # found (about 9 px per spacing), not read


def test_a_steep_view_is_read_where_the_piece_tops_stand(classifier: PieceClassifier) -> None:
    """At 45 degrees the pieces' tops stand a third of a spacing off their points; read there, this
    board is read right (five points wrong with the crops on the points)."""
    import dataclasses

    from recorder.commands.read_board import at_piece_tops

    seed = SPLIT_SEED_BASE["test"] + 970_006
    fen = random_position(np.random.default_rng([seed, 4])).fen()
    style = ViewStyle.sample(np.random.default_rng([seed, 1]), split="test", width=1280, height=960)
    image, _ = render_position(fen, seed, style=dataclasses.replace(style, tilt_deg=45.0))
    reading = read_board(image, classifier)
    assert reading.placement == fen.split()[0] and reading.timings["tops_ms"] > 0
    rectified = reading.geometry.rectify(image)
    on_points = classifier.classify(rectified, spacing=reading.geometry.spacing, margin=reading.geometry.margin)
    assert at_piece_tops(rectified, classifier, reading.geometry, on_points) is not on_points


def _start_view() -> np.ndarray:
    style = ViewStyle.sample(np.random.default_rng(0), split="test", width=1280, height=960).clean()
    image, _ = render_position(START + " w - - 0 1", SPLIT_SEED_BASE["test"] + 5, style=style)
    return image


def test_points_cut_off_by_the_pictures_edge_are_named_not_read_as_empty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The start seen with red's back rank (the picture's left column of points) cut off: those
    points are not in the picture, and the placement is not passed off as the whole board."""
    image = _start_view()
    assert {"a0", "i0"} <= {name for name, (x, _) in BoardLocator().locate(image).points().items() if x < 330}
    path = tmp_path / "cut.png"
    cv2.imwrite(str(path), np.ascontiguousarray(image[:, 330:]))
    assert main(["read-board", str(path)]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].split("/")[:9] == START.split("/")[:9]  # the rest of the board read as it stands
    assert lines[1] == "not in the picture: a0 b0 c0 d0 e0 f0 g0 h0 i0"
    assert "cut off by the picture's edge" in err and "no red general" in err
    assert main(["calibrate", str(path), "--out", str(tmp_path / "c.json")]) == 1
    assert "board point(s) lie outside" in capsys.readouterr().err and not (tmp_path / "c.json").exists()


def test_a_mirrored_picture_is_read_flipped_back(classifier: PieceClassifier) -> None:
    image, truth = render(3, 1280, 960)
    expected = Position.from_fen(truth.fen).fen().split()[0]
    straight = read_board(image, classifier)
    assert not straight.mirrored and straight.placement == expected
    mirrored = read_board(np.ascontiguousarray(image[:, ::-1]), classifier)
    assert mirrored.mirrored and mirrored.placement == expected and "mirror_ms" in mirrored.timings
    assert any("mirrored" in warning for warning in mirrored.warnings())
    # a calibration saved from the same mirrored camera: read flipped back as well
    saved = BoardLocator().locate(np.ascontiguousarray(image[:, ::-1]))
    calibrated = read_board(np.ascontiguousarray(image[:, ::-1]), classifier, saved)
    assert calibrated.mirrored and calibrated.placement == expected
    assert not read_board(image, classifier, straight.geometry).mirrored


def test_a_reading_the_rules_overrule_on_many_points_is_called_unreliable() -> None:
    from recorder.commands.read_board import UNRELIABLE_OVERRULED, BoardReading
    from recorder.placement import legal_labels
    from tests.vision.test_placement import reading

    # every red piece of the back rank read surely as black (a tinted picture turns red ink dark)
    turned = {f"{f}0": {p.lower(): 0.99, p: 0.01} for f, p in zip("abcdefghi", "RNBAKABNR", strict=True)}
    probs = reading(**turned)  # type: ignore[arg-type]
    geometry = BoardGeometry(homography=np.eye(3), image_size=(640, 480), confidence=1.0, red_side="bottom")
    seen = BoardReading(probs, legal_labels(probs), geometry, {})
    assert len(seen.overruled()) >= UNRELIABLE_OVERRULED
    assert any("unreliable" in warning for warning in seen.warnings())
    calm = BoardReading(reading(), legal_labels(reading()), geometry, {})
    assert calm.overruled() == [] and not any("unreliable" in w for w in calm.warnings())


def test_unsure_readings_glare_and_hands_are_warned_of() -> None:
    from recorder.commands.read_board import GLARE_WARN_POINTS, UNRELIABLE_DOUBTFUL, BoardReading
    from recorder.placement import legal_labels
    from tests.vision.test_placement import reading

    geometry = BoardGeometry(homography=np.eye(3), image_size=(640, 480), confidence=1.0, red_side="bottom")
    pawns = ["a3", "c3", "e3", "g3", "i3", "a6", "c6", "e6", "g6", "i6"]
    unsure = reading(**{name: {"P" if name[1] == "3" else "p": 0.6, "empty": 0.4}  # type: ignore[arg-type]
                        for name in pawns[:UNRELIABLE_DOUBTFUL]})
    seen = BoardReading(unsure, legal_labels(unsure), geometry, {})
    assert any(f"{UNRELIABLE_DOUBTFUL} points read less than 90% sure" in w for w in seen.warnings())
    fewer = reading(**{name: {"P" if name[1] == "3" else "p": 0.6, "empty": 0.4}  # type: ignore[arg-type]
                       for name in pawns[:UNRELIABLE_DOUBTFUL - 1]})
    calm = BoardReading(fewer, legal_labels(fewer), geometry, {})
    assert not any("sure" in w for w in calm.warnings())
    glare = BoardReading(fewer, legal_labels(fewer), geometry, {}, glared=tuple(pawns[:GLARE_WARN_POINTS]))
    assert any("glare washes out 10 point(s), and 7 of them read unsure" in w for w in glare.warnings())
    assert not any("glare" in w for w in replace(glare, glared=tuple(pawns[:GLARE_WARN_POINTS - 1])).warnings())
    sure = BoardReading(reading(), legal_labels(reading()), geometry, {}, glared=tuple(pawns))
    assert not any("glare" in w for w in sure.warnings())  # a bright board read surely: no news
    # four red chariots read, two of them surely enough that the rules' choice may be wrong
    chariots = reading(b2={"R": 0.99, "C": 0.01}, h2={"R": 0.95, "C": 0.05})
    over = BoardReading(chariots, legal_labels(chariots), geometry, {})
    assert any("4 red chariots (b2, h2, a0, i0; 2 allowed)" in w for w in over.warnings())
    weak = reading(b2={"R": 0.8, "C": 0.2})  # a third chariot read under 90 %: the rules put it right
    assert not any("allowed" in w for w in BoardReading(weak, legal_labels(weak), geometry, {}).warnings())
    hand = reading(c3={"covered": 0.9, "P": 0.1}, d0={"covered": 0.9, "A": 0.1})
    covered = BoardReading(hand, legal_labels(hand), geometry, {}).warnings()
    assert any("2 point(s) are covered (c3, d0: a hand?)" in w for w in covered)


def test_a_point_the_rules_leave_covered_is_named_covered() -> None:
    """A tester's glare frame: the black general washed white read as a red elephant, which cannot
    stand on e9; the rules left e9 covered and the placement wrote it empty, but the covered line
    (and the JSON's list) named only what the classifier alone read as covered, so e9 went unmentioned."""
    from recorder.commands.read_board import BoardReading
    from recorder.placement import legal_labels
    from tests.vision.test_placement import reading

    geometry = BoardGeometry(homography=np.eye(3), image_size=(640, 480), confidence=1.0, red_side="bottom")
    washed = reading(e9={"B": 0.7, "covered": 0.25, "k": 0.05})
    seen = BoardReading(washed, legal_labels(washed), geometry, {})
    assert washed.covered_points() == [] and seen.covered() == ["e9"]
    assert any("1 point(s) read as no piece the rules allow there (e9)" in w for w in seen.warnings())
    assert not any("a hand" in w for w in seen.warnings())  # nothing says a hand is there
    cut = BoardReading(washed, legal_labels(washed), geometry, {}, unseen=("e9",))
    assert cut.covered() == []  # a point cut off by the picture's edge is told as that


def test_a_calibration_a_whole_spacing_off_the_board_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every line of a grid moved one spacing still lies on a board line but one: the line check
    passed it, and a tester's calibration read a wrong placement with exit 0."""
    import json

    image, truth = render(10, 1280, 960)
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), image)
    right = truth_geometry(truth, image)
    points = right.points()
    step = np.subtract(points["b0"], points["a0"])  # one file over, in pixels
    calib = tmp_path / "shifted.json"
    data = right.to_json()
    data.pop("homography")  # fitted again from the points moved
    data["lens"] = None
    data["points"] = {name: [x + float(step[0]), y + float(step[1])] for name, (x, y) in points.items()}
    calib.write_text(json.dumps(data))
    assert main(["read-board", str(path), "--calibration", str(calib)]) == 1
    err = capsys.readouterr().err
    assert "does not fit" in err and "its grid lies 1.0 spacings from the board found in the picture" in err


def test_a_calibration_of_another_view_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image, truth = render(10, 1280, 960)
    other, other_truth = render(11, 1280, 960)
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), image)
    calib = tmp_path / "other.json"
    truth_geometry(other_truth, other).save(calib)
    assert main(["read-board", str(path), "--calibration", str(calib)]) == 1
    assert "does not fit" in capsys.readouterr().err
    truth_geometry(truth, image).save(calib)
    assert main(["read-board", str(path), "--calibration", str(calib)]) == 0


@pytest.mark.parametrize(("name", "content", "message"), [
    ("missing.jpg", None, "no such file"),
    ("empty.jpg", b"", "is empty"),
    ("text.jpg", b"not a picture at all", "cannot decode"),
    ("phone.heic", b"\x00\x00\x00\x18ftypheic", "HEIC pictures cannot be read here"),
    # a new-user tester's read-board on a video was told it could not be decoded as a picture
    ("game.mp4", b"\x00\x00\x00\x18ftypisom", "is a video, not a picture: xqrec record records a game"),
    ("cut.jpg", cv2.imencode(".jpg", np.full((48, 64, 3), 90, np.uint8))[1].tobytes()[:-200], "JPEG file is cut short"),
])
def test_a_file_that_is_no_readable_picture_says_why(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     name: str, content: bytes | None, message: str) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    assert main(["read-board", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_a_tiny_or_dark_picture_is_refused_for_what_it_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = tmp_path / "one.png"
    cv2.imwrite(str(one), np.zeros((1, 1, 3), dtype=np.uint8))
    assert main(["read-board", str(one)]) == 1
    assert "1x1 pixels: too small" in capsys.readouterr().err
    dark = tmp_path / "dark.png"
    cv2.imwrite(str(dark), (_start_view() * 0.05).astype(np.uint8))
    assert main(["read-board", str(dark)]) == 1
    assert "too dark to see colours" in capsys.readouterr().err
    # a tenth of the light: the board's lines are found and a little colour is left, but it is noise
    # (a tester's picture, brightest parts at 22 of 255, read six points wrong and exited 0)
    dim = tmp_path / "dim.png"
    cv2.imwrite(str(dim), (_start_view() * 0.1).astype(np.uint8))
    assert main(["read-board", str(dim)]) == 1
    assert "too dark to see colours (its brightest parts at 25 of 255)" in capsys.readouterr().err
    # dim but readable (a reviewer: renders at brightest 25-56 read right, and had been refused): warned of
    cv2.imwrite(str(dim), (_start_view() * 0.2).astype(np.uint8))
    assert main(["read-board", str(dim)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(START.split()[0]) and "the picture is dark (its brightest parts at 51 of 255)" in err
    # darker still, no grid line shows: the picture's darkness is named, not blur (a tester's 1 %)
    darker = tmp_path / "darker.png"
    cv2.imwrite(str(darker), (_start_view() * 0.01).astype(np.uint8))
    assert main(["read-board", str(darker)]) == 1
    assert "no board found in" in (err := capsys.readouterr().err) and "the picture is too dark" in err


def test_a_straight_picture_of_few_pieces_is_not_taken_for_a_mirror(classifier: PieceClassifier) -> None:
    """A small board of four pieces read unsurely once read better flipped, by chance: a few pieces'
    sureness cannot tell a mirror (a reviewer's case)."""
    fen = "3k5/4a4/9/9/9/9/9/9/4A4/5K3 w - - 0 1"
    seed = SPLIT_SEED_BASE["test"] + 555_313
    style = ViewStyle.sample(np.random.default_rng([seed, 1]), split="test", width=480, height=360)
    image, _ = render_position(fen, seed, style=style)
    reading = read_board(image, classifier)
    assert not reading.mirrored and "mirror_ms" not in reading.timings
    assert reading.placement == fen.split()[0]


def test_a_piece_knocked_off_its_point_is_warned_of(classifier: PieceClassifier) -> None:
    """A piece 0.4 spacings off its point reads at its point or as nothing: either way a person is told."""
    from synth.pieces import Placement
    from synth.scene import Scene
    from synth.view import place_pieces

    position = Position.from_fen("rnbakab1r/9/1c4nc1/p1p1p3p/6p2/2P6/P3P1P1P/1CN4C1/R8/2BAKABNR b - - 5 3")
    style = ViewStyle.sample(np.random.default_rng([2, 1]), split="test")
    scene = Scene(style, 2)
    placements = place_pieces(position, style, np.random.default_rng([2, 2]))
    clean = read_board(scene.render_frame(placements, [], 0.0).image, classifier)
    assert not clean.off_point and not clean.between
    assert not [w for w in clean.warnings() if "off their points" in w or "between points" in w]
    for name, offset in (("c4", (0.0, 0.4)), ("e6", (0.3, 0.28))):
        piece = placements[name]
        placements[name] = Placement(piece.letter, piece.rotation, offset)
    knocked = read_board(scene.render_frame(placements, [], 0.0).image, classifier)
    assert set(knocked.off_point) | set(knocked.between) == {"c4", "e6"}
    told = " ".join(knocked.warnings())
    assert "c4 0.4" in told and "art. 5.9" in told and "between points" in told


def test_a_ring_in_the_boards_grain_between_points_is_no_piece(classifier: PieceClassifier,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A tester's stills warned of a piece between points on 6 boards of 14: each was a circle in a
    wood board's grain that the circle search took for a disc. Read centred on it, it is board."""
    import recorder.commands.read_board as rb

    image = _start_view()
    points = BoardLocator().locate(image).points()
    (ex, ey), (fx, fy) = points["e4"], points["f4"]
    spacing = float(np.hypot(fx - ex, fy - ey))
    centre = (round(ex + 0.47 * (fx - ex)), round(ey + 0.47 * (fy - ey)))  # 0.47 spacings from e4 to f4
    cv2.circle(image, centre, round(0.45 * spacing), (60, 90, 130), 3)  # a dark ring of a piece's size
    asked: list[list[int]] = []
    checked = rb._pieces_at

    def spy(*args: object) -> set[int]:
        asked.append(list(args[-1]))  # type: ignore[call-overload]
        return checked(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(rb, "_pieces_at", spy)
    reading = read_board(image, classifier)
    assert asked and asked[0]  # the ring was found as a disc no piece claims
    assert not reading.between and not [w for w in reading.warnings() if "between points" in w]
    assert reading.placement == START


def test_a_reading_sure_of_each_piece_but_over_the_count_is_tried_flipped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tester's mirrored picture in a bold sans face read 4 black cannons, sure of each, and was
    never read flipped (only unsure readings were). Read flipped, it held each side's pieces and no
    point the rules overruled: taken as the mirror image it was. A sure reading within the counts
    is not tried flipped (on 59 held-out renders none was taken as mirrored, before or after)."""
    import recorder.commands.read_board as rb
    from recorder.observer import CLASSES
    from recorder.vision import PointProbabilities

    geometry = BoardGeometry(homography=np.array([[40.0, 0, 100], [0, -40.0, 460], [0, 0, 1]]), image_size=(640, 480),
                             confidence=1.0, red_side="bottom")
    probs = PointProbabilities(np.full((90, len(CLASSES)), 1 / len(CLASSES), np.float32), tuple(CLASSES))
    within = rb.BoardReading(probs=probs, labels=["empty"] * 90, geometry=geometry, timings={"total_ms": 1.0})
    over = replace(within, labels=["c"] * 90)
    readings = [over, within]  # as it is, then flipped
    calls: list[int] = []

    def fake_read(image: np.ndarray, classifier: object, grid: object, located: bool) -> rb.BoardReading:
        calls.append(len(calls))
        return readings[len(calls) - 1]

    monkeypatch.setattr(rb, "_read", fake_read)
    monkeypatch.setattr(rb, "occupied_points", lambda _: np.ones(90, bool))
    monkeypatch.setattr(rb.BoardReading, "sureness", lambda self: -0.01)  # sure, both ways
    monkeypatch.setattr(rb.BoardReading, "over_limit", lambda self: "4 black cannons" if self is over else "")
    monkeypatch.setattr(rb.BoardReading, "overruled", lambda self: ["a9"] if self is over else [])
    picture = np.zeros((480, 640, 3), np.uint8)
    assert rb.read_board(picture, None).mirrored and len(calls) == 2  # type: ignore[arg-type]
    calls.clear()
    readings[0] = within
    assert not rb.read_board(picture, None).mirrored and len(calls) == 1  # type: ignore[arg-type]
