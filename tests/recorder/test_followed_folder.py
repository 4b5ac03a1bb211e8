"""A folder a camera is still writing into (``record --follow``): read as written, timed by the camera,
a pause reported as a lost camera, and a stopped recording taken up again by the same command."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from recorder.cli import main
from recorder.events import Alert, RecordingStarted
from recorder.scoresheet import rebuild
from recorder.sources import (
    FollowedFolderSource,
    Frame,
    Gap,
    ImageFolderSource,
    Lost,
    SourceItem,
    open_source,
    picture_order,
)
from tests.recorder.oracle import OracleClassifier, use_oracle_in_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VIDEO = FIXTURES / "game_short.mp4"


def _picture(value: int) -> bytes:
    import cv2

    ok, data = cv2.imencode(".jpg", np.full((48, 64, 3), value, np.uint8))
    assert ok
    return data.tobytes()


class Camera:
    """A camera writing pictures into ``folder`` on a fake clock: ``plan`` is (time, name, bytes) writes."""

    def __init__(self, folder: Path, plan: list[tuple[float, str, bytes]], now: float) -> None:
        self.folder, self.plan, self.now = folder, sorted(plan, key=lambda step: step[0]), now
        self.write_due()

    def write_due(self) -> None:
        while self.plan and self.plan[0][0] <= self.now:
            when, name, data = self.plan.pop(0)
            path = self.folder / name
            path.write_bytes(data)
            os.utime(path, (when, when))

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.write_due()


def _read(source: FollowedFolderSource, frames: int) -> list[SourceItem]:
    items: list[SourceItem] = []
    for item in source:
        items.append(item)
        if sum(isinstance(i, Frame) for i in items) == frames:
            source.stop()
    return items


def test_pictures_are_read_as_written_timed_by_the_camera_and_a_pause_is_a_lost_camera(tmp_path: Path) -> None:
    start = 1_000_000.0
    full = _picture(120)
    plan = [(start, "f000.jpg", _picture(10)), (start + 0.1, "f001.jpg", _picture(20)),
            (start + 0.5, "f002.jpg", _picture(30)),
            # the camera stops for 14.5 s, then writes one picture in two parts (the reader must wait for it)
            (start + 15.0, "f003.jpg", full[: len(full) // 2]), (start + 15.3, "f003.jpg", full),
            (start + 15.5, "f004.jpg", _picture(40))]
    camera = Camera(tmp_path, plan, now=start + 0.05)  # the first picture is there when the recording starts
    source = FollowedFolderSource(tmp_path, clock=lambda: camera.now, sleep=camera.sleep)
    items = _read(source, frames=5)
    frames = [i for i in items if isinstance(i, Frame)]
    assert [round(f.t, 3) for f in frames] == [0.0, 0.1, 0.5, 15.3, 15.5]  # when written, from the first picture
    assert [int(f.image.mean()) for f in frames] == [10, 20, 30, 120, 40]  # the half-written picture was waited for
    kinds = [type(i).__name__ for i in items]
    assert kinds == ["Frame", "Frame", "Frame", "Lost", "Gap", "Frame", "Frame"]
    lost, gap = (i for i in items if isinstance(i, (Lost, Gap)))
    assert isinstance(lost, Lost) and lost.t == pytest.approx(0.5)
    assert isinstance(gap, Gap) and (gap.t, gap.t_resumed) == pytest.approx((0.5, 15.3))
    assert source.skipped == 0


def test_a_damaged_picture_is_skipped_once_the_camera_is_done_with_it(tmp_path: Path) -> None:
    start = 2_000_000.0
    plan = [(start, "a.jpg", _picture(10)), (start + 0.1, "b.jpg", _picture(20)[:100]),
            (start + 0.2, "c.jpg", _picture(30)), (start + 2.0, "d.jpg", _picture(40))]
    camera = Camera(tmp_path, plan, now=start)
    source = FollowedFolderSource(tmp_path, clock=lambda: camera.now, sleep=camera.sleep)
    frames = [i for i in _read(source, frames=3) if isinstance(i, Frame)]
    assert [int(f.image.mean()) for f in frames] == [10, 30, 40] and source.skipped == 1


def test_pictures_go_in_the_order_written_and_a_rewritten_file_is_a_new_picture(tmp_path: Path) -> None:
    """Names without leading zeros (cam_10 sorts before cam_2) and a camera that keeps rewriting
    latest.jpg (a tester's probe got one frame, then 'no new picture')."""
    start = 3_000_000.0
    plan = [(start + i * 0.1, f"cam_{i}.jpg", _picture(10 + i)) for i in range(12)]
    plan += [(start + 2.0 + i * 0.3, "latest.jpg", _picture(100 + 10 * i)) for i in range(4)]
    camera = Camera(tmp_path, plan, now=start + 1.15)  # the first 12 are there at the start
    source = FollowedFolderSource(tmp_path, clock=lambda: camera.now, sleep=camera.sleep)
    frames = [i for i in _read(source, frames=16) if isinstance(i, Frame)]
    assert [int(f.image.mean()) for f in frames] == [*range(10, 22), 100, 110, 120, 130]
    assert [round(f.t, 1) for f in frames[10:]] == [1.0, 1.1, 2.0, 2.3, 2.6, 2.9]


def test_pictures_written_in_the_same_second_go_in_the_cameras_number_order(tmp_path: Path) -> None:
    """A camera writing several pictures within its file system's time step (equal modification
    times) and numbering them without leading zeros: cam_9 before cam_10."""
    start = 3_500_000.0
    plan = [(start, f"cam_{i}.jpg", _picture(10 + i)) for i in range(1, 13)]
    camera = Camera(tmp_path, plan, now=start)
    source = FollowedFolderSource(tmp_path, clock=lambda: camera.now, sleep=camera.sleep)
    frames = [i for i in _read(source, frames=12) if isinstance(i, Frame)]
    assert [int(f.image.mean()) for f in frames] == list(range(11, 23))


def test_a_folder_is_read_in_the_cameras_number_order(tmp_path: Path) -> None:
    """ffmpeg's ``%d`` names (cam_1 ... cam_250) had been read cam_1, cam_10, cam_100, ...: a
    tester's 25 s folder recorded its moves at the wrong times, with false alerts."""
    names = [f"cam_{i}.jpg" for i in (1, 2, 9, 10, 11, 100, 101)] + ["cam_0099.jpg"]
    for value, name in enumerate(names):
        (tmp_path / name).write_bytes(_picture(10 * value + 10))
    frames = [i for i in ImageFolderSource(tmp_path, fps=10) if isinstance(i, Frame)]
    # by number; equal numbers (none here) by name
    assert [int(f.image.mean()) for f in frames] == [10, 20, 30, 40, 50, 80, 60, 70]
    assert picture_order("b2.jpg") < picture_order("b10.jpg") < picture_order("c1.jpg")
    assert picture_order("IMG_2.JPG") < picture_order("img_3.jpg")
    assert picture_order("cam_1\u00b22.png") < picture_order("cam_2.png")  # a superscript is no number (a reviewer)


def test_a_write_that_stalls_is_read_when_it_is_finished(tmp_path: Path) -> None:
    start = 4_000_000.0
    whole = _picture(90)
    plan = [(start, "a.jpg", _picture(10)), (start + 0.1, "b.jpg", whole[:200]), (start + 1.6, "b.jpg", whole)]
    camera = Camera(tmp_path, plan, now=start)
    source = FollowedFolderSource(tmp_path, clock=lambda: camera.now, sleep=camera.sleep)
    frames = [i for i in _read(source, frames=2) if isinstance(i, Frame)]
    assert [int(f.image.mean()) for f in frames] == [10, 90] and source.skipped == 1  # told once, then read


def test_a_file_left_empty_is_told_once_the_camera_is_done_with_it(tmp_path: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    start = 6_000_000.0
    plan = [(start, "a.jpg", _picture(10)), (start + 0.1, "b.jpg", b""), (start + 2.0, "c.jpg", _picture(30))]
    camera = Camera(tmp_path, plan, now=start)
    source = FollowedFolderSource(tmp_path, clock=lambda: camera.now, sleep=camera.sleep)
    frames = [i for i in _read(source, frames=2) if isinstance(i, Frame)]
    assert [int(f.image.mean()) for f in frames] == [10, 30] and source.skipped == 1
    assert "b.jpg (still empty 1 s after it was seen)" in caplog.text


def test_the_first_picture_is_waited_for_and_sets_the_folders_time(tmp_path: Path) -> None:
    folder = tmp_path / "camera"  # made by the camera when it starts
    start = 5_000_000.0
    clock = [start]
    said: list[str] = []

    def sleep(seconds: float) -> None:
        clock[0] += seconds
        if clock[0] >= start + 5.0 and not folder.exists():
            folder.mkdir()
            (folder / "x.jpg").write_bytes(_picture(50))
            os.utime(folder / "x.jpg", (start + 4.0, start + 4.0))

    source = FollowedFolderSource(folder, clock=lambda: clock[0], sleep=sleep)
    assert source.origin is None and source.now() == 0.0
    source.wait_for_first(told=said.append)
    assert source.origin == start + 4.0 and "does not exist yet" in said[0]
    empty = FollowedFolderSource(tmp_path / "never", clock=lambda: clock[0], sleep=lambda s: clock.__setitem__(0, clock[0] + s))
    with pytest.raises(ValueError, match="no picture was written into .* in 2 s"):
        empty.wait_for_first(2.0)


def test_follow_is_for_folders_and_times_its_pictures_itself(tmp_path: Path) -> None:
    (tmp_path / "game.mp4").write_bytes(b"x")
    with pytest.raises(ValueError, match="is a file"):
        open_source(str(tmp_path / "game.mp4"), follow=True)
    with pytest.raises(ValueError, match="not a camera or stream"):
        open_source("0", follow=True)
    with pytest.raises(ValueError, match="no such folder"):
        open_source(str(tmp_path / "a" / "b"), follow=True)
    with pytest.raises(ValueError, match="--fps does not apply with --follow"):
        open_source(str(tmp_path), fps=10.0, follow=True)
    assert isinstance(open_source(str(tmp_path), follow=True), FollowedFolderSource)


def _camera_frames(folder: Path, frames: range, origin: float) -> None:
    """Frames ``frames`` of the fixture video as the pictures a camera wrote at 10 per second."""
    import cv2

    reader = cv2.VideoCapture(str(VIDEO))
    for index in range(frames.stop):
        ok, image = reader.read()
        assert ok
        if index in frames:
            path = folder / f"cam{index:05d}.jpg"
            assert cv2.imwrite(str(path), image)
            os.utime(path, (origin + index / 10, origin + index / 10))
    reader.release()


def _stopped_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C once every picture in the folder has been read (the operator stops the recorder)."""
    real = FollowedFolderSource.__iter__

    def until_read(self: FollowedFolderSource) -> Iterator[SourceItem]:
        pictures = len(self._names())
        for item in real(self):
            yield item
            if isinstance(item, Frame) and item.index == pictures - 1:
                raise KeyboardInterrupt

    monkeypatch.setattr(FollowedFolderSource, "__iter__", until_read)


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_stopped_recording_of_a_followed_folder_goes_on_with_the_same_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A tester's camera wrote into a folder; every run read the folder as it stood, alerted that it
    grew and left a second game behind. Followed, the same command takes the game up where it stopped."""
    from recorder.store.db import GameStore

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    _stopped_when_read(monkeypatch)
    folder, db = tmp_path / "camera", tmp_path / "games.sqlite3"
    origin = time.time() - 3600.0
    written = tmp_path / "written"
    written.mkdir()
    _camera_frames(written, range(0, 200), origin)  # 20 s: plies 1-5 are made by 19.3 s

    waiting = threading.Event()
    real_wait = FollowedFolderSource.wait_for_first

    def wait_for_first(self: FollowedFolderSource, wait_s: float = 0.0,
                       told: Callable[[str], None] | None = None) -> None:
        def telling(text: str) -> None:
            if told is not None:
                told(text)
            waiting.set()
        real_wait(self, wait_s, telling)

    monkeypatch.setattr(FollowedFolderSource, "wait_for_first", wait_for_first)

    def camera_starts() -> None:  # once the recorder waits for it (a tester's first run timed from its own start;
        waiting.wait(60)  # a fixed half second raced the recorder's start on a busy machine)
        written.rename(folder)

    threading.Thread(target=camera_starts).start()
    command = ["record", str(folder), "--follow", "--db", str(db), "--quiet"]
    assert main(command) == 130  # stopped by hand: the game is open
    (game,) = GameStore(db).games()
    assert game.state != "finished" and rebuild(GameStore(db).events(game.id)).moves == truth["moves"][:5]
    _camera_frames(folder, range(200, truth["frames"]), origin)  # the camera wrote on meanwhile
    assert main(command) == 130
    (game,) = GameStore(db).games()  # the same game, not a second one
    events = GameStore(db).events(game.id)
    assert rebuild(events).moves == truth["moves"]
    assert not [e for e in events if isinstance(e, Alert)]  # no folder-grew or lost-camera alert
    moves = [e for e in events if type(e).__name__ == "MoveRecorded"]
    lags = [m.t - p["t_complete"] for m, p in zip(moves, truth["plies"], strict=True)]  # on the camera's times
    assert all(0 <= lag <= 0.5 for lag in lags), lags
    err = capsys.readouterr().err
    assert "images were added" not in err and "waiting for the camera's first picture" in err
    started = [e for e in events if isinstance(e, RecordingStarted)]
    assert [e.source_origin for e in started] == pytest.approx([origin, origin], abs=0.01)  # one time 0
    # read as it stands, the folder's pictures would be timed by their order: refused, the game untouched
    assert main(["record", str(folder), "--db", str(db), "--quiet", "--fps", "10"]) == 2
    assert "give --follow again to go on with game" in capsys.readouterr().err
    assert GameStore(db).events(game.id) == events


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_folder_recorded_as_it_stood_is_not_followed_on_another_time_scale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A reviewer recorded a folder as it stood, then with --follow: the second run went on with the
    same game, its pictures timed by when they were written rather than by their order."""
    from recorder.store.db import GameStore

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    folder, db = tmp_path / "camera", tmp_path / "games.sqlite3"
    folder.mkdir()
    _camera_frames(folder, range(0, 80), time.time() - 3600.0)
    real = ImageFolderSource.__iter__

    def stopped_at_frame_60(self: ImageFolderSource) -> Iterator[SourceItem]:
        for item in real(self):
            if isinstance(item, Frame) and item.index == 60:
                raise KeyboardInterrupt
            yield item

    monkeypatch.setattr(ImageFolderSource, "__iter__", stopped_at_frame_60)
    assert main(["record", str(folder), "--db", str(db), "--quiet", "--fps", "10"]) == 130  # the game is open
    (game,) = GameStore(db).games()
    kept = GameStore(db).events(game.id)
    assert main(["record", str(folder), "--follow", "--db", str(db), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert f"Leave out --follow to go on with game {game.id}, or give --new-game" in err
    assert GameStore(db).events(game.id) == kept and len(GameStore(db).games()) == 1
    # read to its end, the game is closed with no result: a refused --resume leaves it closed (reviewer)
    monkeypatch.setattr(ImageFolderSource, "__iter__", real)
    assert main(["record", str(folder), "--db", str(db), "--quiet", "--fps", "10"]) == 0
    assert GameStore(db).game(game.id).state == "closed"
    assert main(["record", str(folder), "--follow", "--resume", str(game.id), "--db", str(db), "--quiet"]) == 2
    assert GameStore(db).game(game.id).state == "closed"
