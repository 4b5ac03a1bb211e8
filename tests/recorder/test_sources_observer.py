"""Frame sources (reopen with back-off, folders, files) and the observer's still-window logic."""

from __future__ import annotations

import functools
import logging
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from recorder.motion import MotionDetector
from recorder.observer import CLASSES, Observation, Observer, ObserverConfig
from recorder.sources import Frame, Gap, ImageFolderSource, LiveSource, Lost, VideoFileSource, open_source

FIXTURES = Path(__file__).parents[1] / "fixtures"


class _FakeCapture:
    def __init__(self, frames: int, opened: bool = True) -> None:
        self.left, self.opened = frames, opened

    def isOpened(self) -> bool:  # noqa: N802
        return self.opened

    def read(self) -> tuple[bool, Any]:
        if self.left <= 0:
            return False, None
        self.left -= 1
        time.sleep(0.02)  # a camera delivers frames at its own pace
        return True, np.zeros((8, 8, 3), np.uint8)

    def get(self, prop: int) -> float:
        return 0.0

    def release(self) -> None:
        self.opened = False


def test_a_dropped_stream_is_reopened_with_back_off_and_the_gap_reported() -> None:
    plan = [_FakeCapture(3), _FakeCapture(0, opened=False), _FakeCapture(0, opened=False), _FakeCapture(2)]
    waits: list[float] = []
    source = LiveSource("rtsp://camera", opener=lambda target: plan.pop(0) if plan else _FakeCapture(0, False),
                        sleep=waits.append, stall_s=0.5, max_attempts=3)
    items = list(source)
    frames = [i for i in items if isinstance(i, Frame)]
    gaps = [i for i in items if isinstance(i, Gap)]
    assert len(frames) == 5 and [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert len(gaps) == 1 and gaps[0].reason == "read failed" and gaps[0].attempts == 3
    # the first drop was over within a second: only the gap tells of it; the last one never ended
    lost = [i for i in items if isinstance(i, Lost)]
    assert len(lost) == 1 and lost[0].reason == "read failed" and items[-1] == lost[0]
    assert lost[0].t == frames[-1].t  # dated from the last frame, not from when the drop was noticed
    assert waits[:2] == [0.5, 1.0]  # doubling back-off
    assert source.reopens >= 3


def test_a_stream_gone_longer_than_a_blip_is_reported_lost_before_it_returns() -> None:
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    plan = [_FakeCapture(3)] + [_FakeCapture(0, opened=False)] * 8 + [_FakeCapture(2)]
    source = LiveSource("rtsp://camera", opener=lambda target: plan.pop(0) if plan else _FakeCapture(0, False),
                        sleep=sleep, clock=lambda: now[0], stall_s=0.5, max_attempts=10, lost_after_s=10.0)
    items = []
    for item in source:
        items.append(item)
        if len([i for i in items if isinstance(i, Frame)]) == 5:
            break
    kinds = [type(i).__name__ for i in items]
    assert kinds == ["Frame"] * 3 + ["Lost", "Gap"] + ["Frame"] * 2  # back-off 0.5+1+2+2+2... s: past 10 s


def test_a_stream_back_is_reopened_within_two_seconds() -> None:
    """The back-off stops doubling at 2 s: a tester's stream came back 12.5 s after it dropped and was
    reopened 7 s later (tries 10 s apart), while plies were made that the camera then had to guess."""
    now = [0.0]
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    plan = [_FakeCapture(3)] + [_FakeCapture(0, opened=False)] * 12 + [_FakeCapture(2)]
    source = LiveSource("rtsp://camera", opener=lambda target: plan.pop(0) if plan else _FakeCapture(0, False),
                        sleep=sleep, clock=lambda: now[0], stall_s=0.5, max_attempts=20, lost_after_s=10.0)
    for item in source:
        if isinstance(item, Gap):
            break
    assert max(waits) <= 2.0 and waits[:3] == [0.5, 1.0, 2.0]


def test_folder_and_file_sources(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(3):
        cv2.imwrite(str(folder / f"{i:03d}.png"), np.full((16, 16, 3), i * 40, np.uint8))
    (folder / "notes.txt").write_text("not an image")
    source = open_source(str(folder), fps=5.0)
    assert isinstance(source, ImageFolderSource) and source.frame_count == 3
    frames = [f for f in source if isinstance(f, Frame)]
    assert [f.t for f in frames] == [0.0, 0.2, 0.4]
    video = tmp_path / "clip.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"mp4v"), 10.0, (32, 32))
    for i in range(5):
        writer.write(np.full((32, 32, 3), i * 30, np.uint8))
    writer.release()
    clip = open_source(str(video))
    assert isinstance(clip, VideoFileSource) and clip.fps == pytest.approx(10.0)
    assert [round(f.t, 2) for f in clip if isinstance(f, Frame)] == [0.0, 0.1, 0.2, 0.3, 0.4]
    with pytest.raises(ValueError):
        open_source(str(tmp_path / "missing.mp4"))
    # a new user's `record out/demo`: a folder holding the video, not pictures, names it
    with pytest.raises(ValueError, match=r"no images in .* \(\S+/clip.mp4 is a video: give the file itself\)"):
        open_source(str(tmp_path))


def test_a_picture_file_that_cannot_be_decoded_is_told_so(tmp_path: Path) -> None:
    # a new user's `record notes.png` (text named as a picture) printed an empty scoresheet and
    # "the board was never found in the picture"; read-board and calibrate say it cannot be decoded
    fake = tmp_path / "notes.png"
    fake.write_text("not a picture")
    with pytest.raises(ValueError, match=r"cannot decode \S+notes.png as a picture"):
        open_source(str(fake))
    real = tmp_path / "board.png"
    cv2.imwrite(str(real), np.full((16, 16, 3), 90, np.uint8))
    assert isinstance(open_source(str(real)), VideoFileSource)  # a single picture still opens as before


def test_a_cut_picture_in_a_folder_is_skipped_and_named(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # a tester's truncated JPEG printed the decoder's bare "Premature end of JPEG file" and was read
    # half grey: pieces gone from the board's lower part
    folder = tmp_path / "frames"
    folder.mkdir()
    picture = cv2.imencode(".jpg", np.random.default_rng(0).integers(0, 255, (64, 64, 3), dtype=np.uint8))[1]
    for i in range(3):
        (folder / f"{i:03d}.jpg").write_bytes(picture.tobytes()[:-300] if i == 1 else picture.tobytes())
    with caplog.at_level("WARNING"):
        frames = [f for f in open_source(str(folder), fps=5.0) if isinstance(f, Frame)]
    assert [f.index for f in frames] == [0, 2]
    assert f"skipped unreadable image {folder / '001.jpg'} (the JPEG file is cut short)" in caplog.text


def test_a_picture_removed_while_the_folder_is_read_is_skipped_not_the_end(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # a tester deleted one frame mid-run: the recording stopped with status 2 and no scoresheet
    folder = tmp_path / "frames"
    folder.mkdir()
    picture = cv2.imencode(".png", np.zeros((32, 32, 3), dtype=np.uint8))[1].tobytes()
    for i in range(3):
        (folder / f"{i:03d}.png").write_bytes(picture)
    source = open_source(str(folder), fps=5.0)
    (folder / "001.png").unlink()
    with caplog.at_level("WARNING"):
        frames = [f for f in source if isinstance(f, Frame)]
    assert [f.index for f in frames] == [0, 2]
    assert f"skipped unreadable image {folder / '001.png'} (no such file or directory)" in caplog.text


def test_a_picture_damaged_inside_is_named_with_the_decoders_words(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture[str]) -> None:
    # libjpeg's own "Corrupt JPEG data: ..." line on the terminal named no file: which frame was it?
    from recorder.sources import read_image

    folder = tmp_path / "frames"
    folder.mkdir()
    data = cv2.imencode(".jpg", np.random.default_rng(1).integers(0, 255, (64, 64, 3), dtype=np.uint8))[1].tobytes()
    half = len(data) // 2
    damaged = data[:half] + data[-2:]  # the middle lost, the end marker kept: not cut short
    for i in range(3):
        (folder / f"{i:03d}.jpg").write_bytes(damaged if i == 1 else data)
    with caplog.at_level("WARNING"):
        frames = [f for f in open_source(str(folder), fps=5.0) if isinstance(f, Frame)]
        image = read_image(folder / "001.jpg")
    assert [f.index for f in frames] == [0, 2]  # a frame read past damage could show pieces gone
    assert f"skipped unreadable image {folder / '001.jpg'} (damaged: the decoder said Corrupt JPEG data" in caplog.text
    assert image.shape == (64, 64, 3)  # a single picture is read, with the warning
    assert f"{folder / '001.jpg'} is damaged (the decoder said: Corrupt JPEG data" in caplog.text
    assert "Corrupt JPEG" not in capfd.readouterr().err


def test_a_truncated_video_says_so(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="recorder.sources")
    fixture = Path(__file__).parents[1] / "fixtures" / "game_short.mp4"
    data = fixture.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: len(data) * 6 // 10])  # the index survives at the front, the frames do not
    source = open_source(str(cut))
    assert source.frame_count is not None
    frames = sum(1 for f in source if isinstance(f, Frame))
    assert 0 < frames < source.frame_count
    assert "truncated or damaged" in caplog.text and f"after {frames} of its {source.frame_count} frames" in caplog.text
    assert source.ended_early and "truncated" in source.ended_early  # what record raises as an alert


def _frame(hand: bool, shade: int = 120) -> np.ndarray:
    image = np.full((120, 160, 3), shade, np.uint8)
    cv2.line(image, (20, 20), (140, 100), (30, 30, 30), 2)
    if hand:
        cv2.circle(image, (80, 60), 25, (180, 200, 220), -1)
    return image


def test_observer_waits_for_a_still_uncovered_board_and_skips_still_frames() -> None:
    covered = {"now": False}
    calls = []

    def probabilities(frame: np.ndarray) -> np.ndarray:
        calls.append(1)
        probs = np.full((90, len(CLASSES)), 0.01)
        probs[:, 0] = 0.9
        if covered["now"]:
            probs[:40, CLASSES.index("covered")] = 5.0
        return probs / probs.sum(axis=1, keepdims=True)

    motion = MotionDetector((0, 0, 160, 120), spacing=12.0)
    observer = Observer(probabilities, motion, ObserverConfig(still_s=0.1, smooth_frames=2, retry_s=0.3))
    seen = []
    moved: list[float | None] = []
    script = [False] * 6 + [True, True] + [False] * 5 + [True] * 2  # hand in at frames 6-7 and 13-14
    for i, hand in enumerate(script):
        if i == 13:
            covered["now"] = True  # the hand stays still over the board from here
        obs = observer.feed(_frame(hand), i / 10)
        if obs is not None:
            seen.append((i, obs.frames))
            moved.append(obs.t_moved)
    for i in range(15, 25):  # the hand rests motionless: read "covered", never handed over
        assert observer.feed(_frame(True), i / 10) is None
    assert seen == [(2, 2), (10, 2)]  # 0.2 s after the first frame, and 0.2 s after the hand left (frame 8)
    assert moved == [0.0, 0.5]  # the last still frame before motion (the first frame has nothing to compare with)
    assert observer.skipped > 0 and len(calls) < 20


def _observer_reading_covered(hidden: dict[str, tuple[int, ...]]) -> Observer:
    """An observer whose classifier reads the points ``hidden["rows"]`` holds now as covered, the rest empty."""
    def probabilities(frame: np.ndarray) -> np.ndarray:
        probs = np.full((90, len(CLASSES)), 0.01)
        probs[:, 0] = 0.9
        for row in hidden["rows"]:
            probs[row, CLASSES.index("covered")] = 5.0
        return probs / probs.sum(axis=1, keepdims=True)

    return Observer(probabilities, MotionDetector((0, 0, 160, 120), spacing=12.0),
                    ObserverConfig(still_s=0.1, smooth_frames=2, retry_s=0.3))


def test_points_accepted_as_lying_under_something_are_masked_not_waited_for() -> None:
    """Something lies on four points: still views are waited out as a hand's until the caller
    accepts those points as lying there; then they are handed over with the four masked, a fifth
    covered point is still waited for, and a view showing them again frees them."""
    hidden: dict[str, tuple[int, ...]] = {"rows": (3, 4, 5, 6)}
    observer = _observer_reading_covered(hidden)
    assert all(observer.feed(_frame(False), i / 10) is None for i in range(10))
    assert observer.covered_since is not None and observer.covered_points.sum() == 4
    observer.accept_lying(observer.covered_points, observer.covered_since)
    seen = observer.feed(_frame(False), 1.0)
    assert seen is not None and list(np.flatnonzero(seen.mask)) == [3, 4, 5, 6]
    hidden["rows"] = (3, 4, 5, 6, 7, 8, 9)  # a hand comes to rest beside it
    observer.feed(_frame(True), 1.1)
    assert all(observer.feed(_frame(True), 1.2 + i / 10) is None for i in range(5))
    hidden["rows"] = (3, 4)  # the thing moved: two points show again
    observer.feed(_frame(False), 1.8)
    seen = next(obs for i in range(5) if (obs := observer.feed(_frame(False), 1.9 + i / 10)) is not None)
    assert list(np.flatnonzero(seen.mask)) == [3, 4] and list(np.flatnonzero(observer.lying)) == [3, 4]


def test_points_under_a_lamp_read_covered_do_not_hold_a_still_view_back_as_a_hand() -> None:
    """A lamp's spot makes five points read "covered": once the caller names them as under the lamp
    the still view is handed over at once, with them masked, and with one point of its rim read so as
    well; a hand elsewhere, or one reaching over the spot, is still waited for."""
    hidden: dict[str, tuple[int, ...]] = {"rows": (60, 61, 69, 70, 79)}
    observer = _observer_reading_covered(hidden)
    assert all(observer.feed(_frame(False), i / 10) is None for i in range(3))  # waited for, as a hand
    lamp = np.zeros(90, dtype=bool)
    lamp[[60, 61, 62, 69, 70, 71, 79]] = True
    observer.under_lamp(lamp)
    observer.feed(_frame(True), 0.3)  # a move
    seen = next(obs for i in range(3) if (obs := observer.feed(_frame(False), 0.4 + i / 10)) is not None)
    assert seen.t < 0.65 and list(np.flatnonzero(seen.mask)) == [60, 61, 69, 70, 79]  # 0.1 s after the move
    hidden["rows"] = (60, 61, 69, 70, 79, 3, 4, 5)  # a hand rests on three points the lamp leaves alone
    observer.feed(_frame(True), 0.7)
    assert all(observer.feed(_frame(True), 0.8 + i / 10) is None for i in range(5))
    hidden["rows"] = (60, 61, 69, 70, 79, 52)  # and one point of its rim, next to it
    observer.feed(_frame(False), 1.3)
    seen = next(obs for i in range(3) if (obs := observer.feed(_frame(False), 1.4 + i / 10)) is not None)
    assert list(np.flatnonzero(seen.mask)) == [52, 60, 61, 69, 70, 79]
    hidden["rows"] = (59, 68, 60, 61, 69, 70, 79)  # a hand over the spot and two points beside it
    observer.feed(_frame(True), 1.7)
    assert all(observer.feed(_frame(True), 1.8 + i / 10) is None for i in range(5))
    observer.reset()  # a new grid: the lamp's points are found afresh
    assert not observer.lamp.any()


def test_after_a_stalled_stream_the_move_is_dated_from_the_last_still_frame() -> None:
    """Frames stop at 3.0 s and come back at 5.0 s showing the hand: the move began some time after
    3.0 s, not at 5.0 s (a press at 4.0 s may well have followed it)."""
    def probabilities(frame: np.ndarray) -> np.ndarray:
        probs = np.full((90, len(CLASSES)), 0.01)
        probs[:, 0] = 0.9
        return probs / probs.sum(axis=1, keepdims=True)

    observer = Observer(probabilities, MotionDetector((0, 0, 160, 120), spacing=12.0),
                        ObserverConfig(still_s=0.1, smooth_frames=2))
    times = [i / 10 for i in range(31)] + [5.0, 5.1] + [5.2 + i / 10 for i in range(5)]
    views = []
    for t in times:
        view = observer.feed(_frame(5.0 <= t < 5.2), t)
        views += [view] if view is not None else []
    assert views[-1].t_moved == 3.0


class _StallingCapture(_FakeCapture):
    def read(self) -> tuple[bool, Any]:
        if self.left <= 0:
            time.sleep(1.0)  # the stream hangs
        return super().read()


def test_a_stalled_stream_is_reopened() -> None:
    plan: list[_FakeCapture] = [_StallingCapture(2), _FakeCapture(2)]
    source = LiveSource("http://camera/stream", opener=lambda target: plan.pop(0) if plan else _FakeCapture(0, False),
                        sleep=lambda s: None, stall_s=0.3, max_attempts=1)
    items = list(source)
    gaps = [i for i in items if isinstance(i, Gap)]
    assert len([i for i in items if isinstance(i, Frame)]) == 4
    assert len(gaps) == 1 and gaps[0].reason.startswith("no frame for")


class _FrozenCapture(_FakeCapture):
    """A stream that freezes after its frames: the read waits until ``thaw`` is set (a stalled
    connection the camera resumes later); releasing it while a read waits is what crashed FFmpeg."""

    def __init__(self, frames: int) -> None:
        super().__init__(frames)
        self.thaw = threading.Event()
        self.reading = False
        self.released_while_reading = False

    def read(self) -> tuple[bool, Any]:
        if self.left <= 0:
            self.reading = True
            self.thaw.wait(5.0)
            self.reading = False
            return False, None
        return super().read()

    def release(self) -> None:
        self.released_while_reading |= self.reading
        super().release()


def test_a_frozen_stream_is_released_by_its_reader_only_once_its_read_returns() -> None:
    frozen = _FrozenCapture(2)
    plan: list[_FakeCapture] = [frozen, _FakeCapture(3)]
    source = LiveSource("http://camera/stream", opener=lambda target: plan.pop(0) if plan else _FakeCapture(0, False),
                        sleep=lambda s: None, stall_s=0.2, max_attempts=1)
    frames = 0
    for item in source:
        frames += isinstance(item, Frame)
        if frames == 3:  # reading the new connection while the old one is still frozen
            assert frozen.opened and frozen.reading
            frozen.thaw.set()  # the camera comes back on the old connection too
    assert frames == 5 and not frozen.opened and not frozen.released_while_reading


def test_a_stopped_stream_waits_for_its_reader_to_finish() -> None:
    # the interpreter must not shut down under a reader inside a native read: that aborted the process
    frozen = _FrozenCapture(1)
    source = LiveSource("http://camera/stream", opener=lambda target: frozen, sleep=lambda s: None, stall_s=5.0)
    timer = threading.Timer(0.3, frozen.thaw.set)
    for item in source:
        if isinstance(item, Frame):
            timer.start()
            source.stop()
    assert not frozen.opened and not frozen.released_while_reading


def test_the_camera_lost_alert_is_due_after_lost_after_s_whatever_the_back_off() -> None:
    # back-off 0.5, 1, 2, 4, 8 s tried at +0, +0.5, +1.5, +3.5, +7.5 and +15.5 s: a camera away for 15 s
    # was back before any try after 10 s, and the arbiter never heard of it
    now = [0.0]

    def sleep(seconds: float) -> None:
        now[0] += seconds

    def opener(target: str | int) -> _FakeCapture:
        if not plan:
            return _FakeCapture(2, opened=now[0] >= 15.0)
        return plan.pop(0)

    plan = [_FakeCapture(1)]
    source = LiveSource("rtsp://camera", opener=opener, sleep=sleep, clock=lambda: now[0], stall_s=0.5,
                        lost_after_s=10.0)
    items = []
    for item in source:
        items.append((type(item).__name__, now[0]))
        if item.__class__.__name__ == "Gap":
            break
    (lost,) = [t for kind, t in items if kind == "Lost"]
    assert 10.0 <= lost < 10.5


def test_a_camera_that_never_opens_is_an_error_at_once_and_one_that_opens_is_used() -> None:
    waits: list[float] = []
    missing = LiveSource(7, opener=lambda target: _FakeCapture(0, opened=False), sleep=waits.append)
    with pytest.raises(OSError, match="cannot open video source 7"):
        missing.check(attempts=3)
    assert waits == [0.5, 1.0]
    opened: list[_FakeCapture] = []

    def opener(target: object) -> _FakeCapture:
        opened.append(_FakeCapture(2, opened=not opened))  # only the first open succeeds
        return opened[-1]

    camera = LiveSource(0, opener=opener, sleep=waits.append, stall_s=0.3, max_attempts=1)
    camera.check()
    frames = [item for item in camera if isinstance(item, Frame)]
    assert len(frames) >= 2 and opened[0].left == 0  # the capture opened by the check gave the first frames


def test_a_streams_public_name_has_no_password_or_token() -> None:
    from recorder.sources import public_name

    assert public_name("http://arbiter:s3cret@127.0.0.1:8080/feed.mjpg") == "http://127.0.0.1:8080/feed.mjpg"
    assert public_name("rtsp://admin@[::1]:554/live?channel=2&token=abc&X-Amz-Signature=zz&keyframe=1") == (
        "rtsp://[::1]:554/live?channel=2&token=***&X-Amz-Signature=***&keyframe=1")
    assert public_name("http://cam/s?apiKey=1&pwd=x&access_token=y&sig=q&auth=a") == (
        "http://cam/s?apiKey=***&pwd=***&access_token=***&sig=***&auth=***")
    assert public_name("rtsp://cam/user=admin_password=abc_channel=1.sdp") == "rtsp://cam/user=admin_password=***_channel=1.sdp"
    assert public_name("http://u:p@ss@h/x?y@z") == "http://h/x?y@z"  # the last @ of the authority ends it
    assert public_name("0") == "0" and public_name(3) == "3" and public_name("/data/game.mp4") == "/data/game.mp4"


def test_a_streams_messages_do_not_carry_its_password(caplog: pytest.LogCaptureFixture) -> None:
    url = "http://arbiter:s3cret@127.0.0.1:9/feed.mjpg?token=t0k3n"
    plan = [_FakeCapture(2)]
    source = LiveSource(url, opener=lambda target: plan.pop(0) if plan else _FakeCapture(0, False),
                        sleep=lambda s: None, stall_s=0.3, max_attempts=1)
    assert source.target == url  # opened with the credentials, shown without them
    with caplog.at_level(logging.WARNING):
        list(source)
    missing = LiveSource(url, opener=lambda target: _FakeCapture(0, opened=False), sleep=lambda s: None)
    with pytest.raises(OSError) as refused:
        missing.check(attempts=2)
    said = caplog.text + str(refused.value) + source.name
    assert "reopening" in caplog.text and "127.0.0.1:9/feed.mjpg" in said
    assert "s3cret" not in said and "t0k3n" not in said and "arbiter" not in said


def test_a_frame_rate_must_be_positive_and_a_folders_assumed_rate_is_said(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "000.png"), np.zeros((8, 8, 3), np.uint8))
    for bad in (0.0, -5.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="frame rate"):
            ImageFolderSource(folder, bad)
        with pytest.raises(ValueError, match="frame rate"):
            VideoFileSource(folder / "000.png", bad, opener=lambda target: _FakeCapture(1))
    with caplog.at_level(logging.WARNING):
        assert ImageFolderSource(folder).fps == 10.0
    assert "10 frames per second" in caplog.text and "--fps" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert ImageFolderSource(folder, 25.0).fps == 25.0
    assert "frames per second" not in caplog.text


def test_a_damaged_stretch_in_the_middle_of_a_video_is_read_past_as_a_gap(tmp_path: Path) -> None:
    # a disk error or a broken copy spoils a stretch of the file: the frames after it are read on,
    # at their own time in the file (not shifted back by the frames lost), and the loss is a gap
    fixture = Path(__file__).parents[1] / "fixtures" / "game_short.mp4"
    data = bytearray(fixture.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 20000] = np.random.default_rng(0).integers(0, 256, 20000, dtype=np.uint8).tobytes()
    damaged = tmp_path / "damaged.mp4"
    damaged.write_bytes(bytes(data))
    source = open_source(str(damaged))
    items = list(source)
    frames = [item for item in items if isinstance(item, Frame)]
    gaps = [item for item in items if isinstance(item, Gap)]
    assert source.frame_count == 425 and 300 < len(frames) < 425
    assert gaps and all("could not be read" in gap.reason for gap in gaps)
    assert frames[-1].t == pytest.approx(42.4, abs=0.25)  # the file's last frame, at its own time
    assert all(b.t > a.t for a, b in zip(frames, frames[1:], strict=False))
    assert not source.ended_early  # read to its end


class _TimedCapture:
    """A capture that gives frames at the file times ``times`` (None: a read that fails)."""

    def __init__(self, times: list[float | None], fps: float, count: int) -> None:
        self.times, self.fps, self.count, self.at = times, fps, count, -1
        self.now = 0.0

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        self.at += 1
        if self.at >= len(self.times) or self.times[self.at] is None:
            return False, None
        self.now = float(self.times[self.at])  # type: ignore[arg-type]
        return True, np.zeros((8, 8, 3), np.uint8)

    def get(self, prop: int) -> float:
        return {cv2.CAP_PROP_FPS: self.fps, cv2.CAP_PROP_FRAME_COUNT: float(self.count),
                cv2.CAP_PROP_POS_MSEC: self.now * 1000.0}.get(prop, 0.0)

    def release(self) -> None:
        pass


def test_only_frames_lost_to_damage_count_as_a_gap_at_any_frame_rate() -> None:
    # 10 fps; frames 20-24 damaged (five failed reads); later the encoder left out still frames
    # (a variable-rate file: times jump by 0.5 s twice) with no damage near: no gap there
    times: list[float | None] = [i / 10 for i in range(20)] + [None] * 5 + [i / 10 for i in range(25, 60)]
    times += [6.5, 7.0] + [7.0 + i / 10 for i in range(1, 10)]
    for fps, step in ((None, 0.1), (30.0, 1 / 30)):
        source = VideoFileSource("fake.mp4", fps=fps, opener=lambda _name: _TimedCapture(times, 10.0, 71))
        items = list(source)
        gaps = [item for item in items if isinstance(item, Gap)]
        frames = [item for item in items if isinstance(item, Frame)]
        assert len(gaps) == 1 and "5 frame(s)" in gaps[0].reason and gaps[0].attempts == 5
        assert gaps[0].t == pytest.approx(19 * step) and gaps[0].t_resumed == pytest.approx(25 * step)
        assert len(frames) == 66 and not source.ended_early


def test_frames_decoded_from_damaged_data_are_skipped_up_to_the_next_keyframe() -> None:
    # frames 20-24 cannot be read; 25-39 decode, but from pictures built on the lost ones (old pieces
    # where a move was made): the next whole picture is the keyframe at 4.0 s
    times: list[float | None] = [i / 10 for i in range(20)] + [None] * 5 + [i / 10 for i in range(25, 60)]
    keyframes = [0.0, 2.0, 4.0]

    def next_key(_name: str, at: float) -> float | None:
        return next((k for k in keyframes if k >= at - 1e-6), None)

    for fps, step in ((None, 0.1), (30.0, 1 / 30)):
        source = VideoFileSource("fake.mp4", fps=fps, opener=lambda _name: _TimedCapture(times, 10.0, 60),
                                 keyframes=next_key)
        items = list(source)
        (gap,) = [item for item in items if isinstance(item, Gap)]
        frames = [item for item in items if isinstance(item, Frame)]
        assert gap.t == pytest.approx(19 * step) and gap.t_resumed == pytest.approx(40 * step)
        assert "20 frame(s)" in gap.reason and "15 of them decoded from the damaged data" in gap.reason
        assert len(frames) == 40 and not source.ended_early
    # without the file's keyframes (another backend) the frames after the damage are given as before
    unknown = VideoFileSource("fake.mp4", opener=lambda _name: _TimedCapture(times, 10.0, 60), keyframes=None)
    assert len([item for item in unknown if isinstance(item, Frame)]) == 55


@pytest.mark.skipif(not (FIXTURES / "game_short.mp4").exists(), reason="fixture video missing")
def test_a_real_file_damaged_in_the_middle_gives_no_picture_built_on_the_lost_data(tmp_path: Path) -> None:
    from recorder.sources import next_keyframe

    damaged = tmp_path / "damaged.mp4"
    data = bytearray((FIXTURES / "game_short.mp4").read_bytes())
    data[200_000:230_000] = bytes(30_000)  # a stretch around 20 s (a keyframe every 10 s)
    damaged.write_bytes(bytes(data))
    assert next_keyframe(str(damaged), 22.0) == pytest.approx(30.0)
    assert next_keyframe(str(tmp_path / "none.mp4"), 1.0) is None
    items = list(VideoFileSource(damaged))
    (gap,) = [item for item in items if isinstance(item, Gap)]
    assert gap.t < 20.0 and gap.t_resumed == pytest.approx(30.0) and "decoded from the damaged data" in gap.reason
    assert not [item for item in items if isinstance(item, Frame) and gap.t < item.t < gap.t_resumed]


def test_an_observation_reads_a_point_occupied_by_the_pieces_combined_not_by_empty_or_covered() -> None:
    probs = np.zeros((90, len(CLASSES)))
    probs[:, CLASSES.index("empty")] = 1.0
    probs[0] = 0.0
    probs[0, [CLASSES.index("R"), CLASSES.index("r"), CLASSES.index("empty")]] = (0.3, 0.3, 0.4)  # a chariot, side unsure
    probs[1] = 0.0
    probs[1, [CLASSES.index("covered"), CLASSES.index("K")]] = (0.6, 0.4)  # more likely a hand
    occupied = Observation(1.0, 1.0, probs, np.zeros(90, dtype=bool)).occupied
    assert occupied[0] and not occupied[1] and occupied.sum() == 1


def test_a_variable_rate_file_is_timed_by_its_own_clock() -> None:
    # a phone at 10 fps drops to 5 fps in dim light: frames keep their times in the file (index / fps
    # would put every later move, and the presses judged against it, seconds late); a stale time
    # (one not after the previous frame's) comes a frame spacing later
    times: list[float | None] = [*(i / 10 for i in range(20)), *(2.0 + i / 5 for i in range(10)), 3.8, 4.0]
    source = VideoFileSource("phone.mp4", opener=lambda _name: _TimedCapture(times, 8.0, 32))
    items = list(source)
    frames = [item.t for item in items if isinstance(item, Frame)]
    assert not [item for item in items if isinstance(item, Gap)] and not source.ended_early
    assert frames[:20] == pytest.approx([i / 10 for i in range(20)])
    assert frames[20:30] == pytest.approx([2.0 + i / 5 for i in range(10)])
    assert frames[30:] == pytest.approx([3.8 + 1 / 8, 4.0])
    # --fps: timed by the index, as the user asked
    by_index = VideoFileSource("phone.mp4", fps=8.0, opener=lambda _name: _TimedCapture(times, 8.0, 32))
    assert [item.t for item in by_index if isinstance(item, Frame)][-1] == pytest.approx(31 / 8)


def test_a_black_or_flat_picture_is_named_for_what_it_is_when_no_board_is_found() -> None:
    from recorder.session import blank_picture

    assert "black" in blank_picture(np.zeros((48, 64, 3), np.uint8))  # e.g. an interlaced file OpenCV cannot show
    assert "deinterlace" in blank_picture(np.full((48, 64, 3), 5, np.uint8))
    assert "flat grey (128 of 255)" in blank_picture(np.full((48, 64, 3), 128, np.uint8))
    assert blank_picture(np.random.default_rng(0).integers(0, 255, (48, 64, 3), dtype=np.uint8)) == ""


def test_a_stream_that_reconnects_but_sends_nothing_is_reported_lost_and_its_gap_told_once() -> None:
    # a live tester's frozen IP camera: every reconnect was answered (a 200 header) and then sent no
    # frame, so the camera_lost alert never came, and a "no picture" gap was logged every 3 s
    frozen = [_StallingCapture(0) for _ in range(6)]
    plan: list[_FakeCapture] = [_FakeCapture(2), *frozen, _FakeCapture(2)]
    source = LiveSource("http://camera/stream", opener=lambda target: plan.pop(0) if plan else _FakeCapture(0, False),
                        sleep=lambda s: None, stall_s=0.2, lost_after_s=0.7, max_attempts=1)
    items = list(source)
    kinds = [type(item).__name__ for item in items]
    assert kinds[:4] == ["Frame", "Frame", "Lost", "Gap"] and kinds[4:6] == ["Frame", "Frame"]
    (gap,) = [item for item in items if isinstance(item, Gap)]
    assert gap.t == items[1].t and gap.t_resumed >= gap.t + 0.7 and gap.reason == "read failed"


def test_a_source_that_will_not_open_says_why(tmp_path: Path) -> None:
    # a live tester: an absent camera, a refused port, a 404 and a web page all read "no camera or
    # stream answered", and an empty file, a text file and an unfinished MP4 "cannot open video file"
    import http.server
    import socket

    from recorder.sources import why_no_answer, why_unreadable

    (tmp_path / "page.html").write_text("<html></html>")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        assert "answered 404" in why_no_answer(f"http://127.0.0.1:{port}/stream.mjpg")
        said = why_no_answer(f"http://127.0.0.1:{port}/cgi/password=hunter2/video.mjpg")  # a reviewer: repeated raw
        assert "answered 404" in said and "hunter2" not in said and "/cgi/password=***/video.mjpg" in said
        assert "text/html, not a video stream" in why_no_answer(f"http://127.0.0.1:{port}/page.html")
    finally:
        server.shutdown()
        server.server_close()
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    assert "refuses connections on port" in why_no_answer(f"http://127.0.0.1:{free}/x")
    assert "there is no /dev/video97" in why_no_answer(97)
    (tmp_path / "empty.mp4").write_bytes(b"")
    (tmp_path / "notes.mp4").write_text("not a video at all\n")
    unfinished = (16).to_bytes(4, "big") + b"ftypisom" + bytes(4) + (24).to_bytes(4, "big") + b"mdat" + bytes(16)
    (tmp_path / "cut.mp4").write_bytes(unfinished)
    assert why_unreadable(tmp_path / "empty.mp4") == ": the file is empty (0 bytes)"
    assert why_unreadable(tmp_path / "notes.mp4") == ": it holds text, not video"
    assert "without its index (no moov box)" in why_unreadable(tmp_path / "cut.mp4")
    assert why_unreadable(FIXTURES / "game_short.mp4") == ""
    # a tester's copy cut 10 kB in, inside the index at the file's start: "cannot open video file", no reason
    (tmp_path / "cut_index.mp4").write_bytes((FIXTURES / "game_short.mp4").read_bytes()[:5000])
    assert "cut short inside its index" in why_unreadable(tmp_path / "cut_index.mp4")
    # a tester's file with its index zeroed inside was told only "cannot open video file"
    data = bytearray((FIXTURES / "game_short.mp4").read_bytes())
    index = data.find(b"moov")
    data[index + 4:index + 200] = bytes(196)
    (tmp_path / "damaged.mp4").write_bytes(bytes(data))
    assert "index (moov box) is damaged" in why_unreadable(tmp_path / "damaged.mp4")


def test_a_folder_that_grows_while_it_is_read_leaves_the_game_open(tmp_path: Path) -> None:
    # a live tester copied a camera's pictures into the folder being recorded: the recording stopped
    # at the files first listed and closed the game, as if it had ended there
    picture = np.full((40, 60, 3), 128, np.uint8)
    for index in range(3):
        assert cv2.imwrite(str(tmp_path / f"f{index:03d}.png"), picture)
    source = ImageFolderSource(tmp_path, fps=10)
    frames = 0
    for item in source:
        frames += isinstance(item, Frame)
        assert cv2.imwrite(str(tmp_path / f"g{frames:03d}.png"), picture)  # the camera writes on
    assert frames == 3 and source.ended_early.startswith("3 image(s) were added to the folder")


def test_a_stream_still_starting_is_waited_for_when_asked() -> None:
    now = [0.0]
    told: list[str] = []

    def sleep(seconds: float) -> None:
        now[0] += seconds

    answers = [False] * 6 + [True]  # the stream answers after about 10 s of tries
    late = LiveSource("rtsp://cam/live", opener=lambda target: _FakeCapture(2, opened=answers.pop(0)),
                      sleep=sleep, clock=lambda: now[0], max_attempts=1)
    late.check(wait_s=60.0, told=told.append)
    assert told == ["waiting for rtsp://cam/live to answer (up to 60 s)"] and not answers
    never = LiveSource("rtsp://cam/live", opener=lambda target: _FakeCapture(0, opened=False),
                       sleep=sleep, clock=lambda: now[0], max_attempts=1)
    now[0] = 0.0
    with pytest.raises(OSError, match=r"answered after \d+ tries in 3\d s"):
        never.check(wait_s=30.0)
    assert 30.0 <= now[0] < 31.0


def test_a_stream_that_accepts_and_never_answers_is_given_up_on_within_its_timeout() -> None:
    # a tester's listener that accepted and never replied held the recorder 147 s: each of four tries
    # fell back, after FFmpeg's 5 s timeout, to a backend without one (30 s more)
    import socket

    from recorder.sources import STREAM_TIMEOUT_MS, open_capture

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        started = time.monotonic()
        capture = open_capture(f"http://127.0.0.1:{server.getsockname()[1]}/x.mjpg")
        assert not capture.isOpened()
        assert time.monotonic() - started < STREAM_TIMEOUT_MS / 1000 * 2  # one timeout, not a second try without
    finally:
        stop.set()
        thread.join()
        for connection in accepted:
            connection.close()
        server.close()


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg makes the transport stream")
def test_a_transport_stream_cut_while_copied_is_told_as_ended_early(tmp_path: Path) -> None:
    # a tester's .ts cut short was taken for a whole game (closed, status 0): a transport stream
    # states no length to compare with, but one cut mid-copy ends inside a packet
    import subprocess

    whole = tmp_path / "game.ts"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(FIXTURES / "game_short.mp4"), "-c", "copy", "-f",
                    "mpegts", str(whole)], check=True, timeout=120)
    data = whole.read_bytes()
    cut = tmp_path / "cut.ts"
    cut.write_bytes(data[: len(data) // 2 + 77])
    for path, ended in ((whole, False), (cut, True)):
        source = open_source(str(path))
        frames = sum(isinstance(item, Frame) for item in source)
        assert frames > 0 and bool(source.ended_early) is ended, path
    assert "middle of a transport-stream packet" in source.ended_early


def _edge_observer() -> tuple[np.ndarray, Observer]:
    """The motion tests' drawn board and an observer over it whose classifier sees no hand at all."""
    from tests.recorder.test_motion_light import SIZE, _board, _points

    def probabilities(frame: np.ndarray) -> np.ndarray:
        probs = np.full((90, len(CLASSES)), 0.01)
        probs[:, 0] = 0.9
        return probs / probs.sum(axis=1, keepdims=True)

    return _board(), Observer(probabilities, MotionDetector.for_points(_points(), SIZE),
                              ObserverConfig(still_s=0.1, smooth_frames=2, retry_s=0.3, settle_s=1.0, arm_wait_s=2.0))


def test_a_hand_paused_at_the_boards_edge_is_no_still_view() -> None:
    # a full-length game (s960000 clean-012 at 907.5 s): a hand placing a general at the board's far
    # edge paused half a second over one point read "covered"; the view was read as the board and a
    # red soldier raised as moved out of turn. An arm across the board's edge is a hand over it.
    from tests.recorder.test_motion_light import _arm

    board, observer = _edge_observer()
    frames = [board] * 15 + [_arm(board)] * 6 + [board] * 4
    seen = [i for i, frame in enumerate(frames) if observer.feed(frame, i / 10) is not None]
    assert seen == [2, 23]  # the board before the hand came and after it left; none while it was there
    assert observer.feed(board, 2.5) is None
    # something left across the edge (a sleeve resting there) lies there after arm_wait_s of still board
    late = [observer.feed(_arm(board), 3 + i / 10) for i in range(30)]
    assert any(obs is not None for obs in late[20:]) and all(obs is None for obs in late[:19])


def test_a_hand_pausing_twice_at_the_edge_is_not_taken_as_lying_there() -> None:
    # a reviewer: the 2 s an arm must lie across the edge ran on through its own motion, so a hand that paused
    # (to grasp a piece), worked on for 2 s and paused again was taken as lying there and read
    from tests.recorder.test_motion_light import _arm

    board, observer = _edge_observer()
    frames = ([board] * 15 + [_arm(board)] * 6 + [_arm(board, wrist=(45, 53, 61)[i % 3]) for i in range(20)]
              + [_arm(board, wrist=61)] * 6 + [board] * 4)
    seen = [i for i, frame in enumerate(frames) if observer.feed(frame, i / 10) is not None]
    assert seen == [2, 49]  # nothing while the hand paused the second time
